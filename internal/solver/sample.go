package solver

import (
	"context"
	"time"

	"github.com/softpen/softpen/activeset"
)

// The sampled start of the direct path on many rows. The dual active-set
// method starts from the unconstrained minimiser and admits one violated row
// per working-set change, choosing among all m rows; when the minimiser
// violates most of them (a hard-margin SVM violates every row at x = 0) it
// makes hundreds of changes, and each run of them that empties its pool of
// candidates costs a pass over every row. On a sample of the rows (one in
// sampleEvery) the same solve is cheap, and its active set is most of the
// whole problem's: the engine on all rows, hot-started from it, needs only
// the changes that the sample missed. The sample is itself solved that way
// when it is large, so the levels shrink geometrically down to
// minSampledRows(n) rows.
//
// New solves the samples (presolve) before it builds the engine on all
// rows, which then takes the rows' violations at the sample's answer in
// the pass over the rows that its set-up makes anyway (activeset.NewAt);
// after Reset, or a SetB before the first Solve, Solve solves them again
// and hot-starts the engine (start, activeset.HotStartAt), to the same bits.
// The samples' solves in New stop at New's time limit (newDirect). A hot
// start from a 5% sample takes the separable SVM's engine a fraction of
// its cold solve, the sample's own solve included (BenchmarkSeparableSVM).

const sampleEvery = 20 // one row in sampleEvery is in the next level's sample

// minSampledRows is the number of rows of A from which a cold solve starts
// from a sample: 10000, or 200 n, so that the sample has at least 10 rows
// per variable (a sample of fewer has too little of the problem's shape
// for its active set to help). Lower thresholds gain nothing on the
// separable-SVM and large-QP families (BenchmarkHandoverSweep, auto).
func minSampledRows(n int) int { return max(10000, 200*n) }

// sampleLevel is the engine on one level's sample of the rows of A (all the
// equalities, bounds and l1 kept) and where its rows come from.
type sampleLevel struct {
	eng  *activeset.Solver
	rows []int     // row of the level above (the next larger) of each of its rows
	b    []float64 // scratch for SetB: the sampled right-hand sides
}

// sampledStart holds the levels, the largest sample first, and the scratch
// for hot-starting each level from the one below.
type sampledStart struct {
	levels       []sampleLevel
	rowsIn       []int
	upper, lower []bool
	cold         bool // the direct engine's working set is empty (Reset): the next solve starts from the samples
	// presolved: New solved the samples and hot-started the engine from
	// them (presolve), and no Solve has run since: a SetB makes the next
	// solve start from the samples again, on the new b.
	presolved bool
}

// newSampledStart builds the levels for the direct path's engine on p (none
// when A has fewer than minSampledRows rows).
func (s *Solver) newSampledStart(p *Problem) (sampledStart, error) {
	ss := sampledStart{cold: true}
	rowsOf := p.ARows
	if p.A != nil && p.A.Rows >= minSampledRows(p.N) {
		rowsOf = make([][]float64, p.A.Rows)
		for j := range rowsOf {
			rowsOf[j] = p.A.Row(j)
		}
	}
	b := p.B
	for len(rowsOf) >= minSampledRows(p.N) {
		k := (len(rowsOf) + sampleEvery - 1) / sampleEvery
		lv := sampleLevel{rows: make([]int, k), b: make([]float64, k)}
		sub := make([][]float64, k)
		for i := range sub {
			// Evenly spaced: the rows of real data often come sorted
			// (by label, by time); a stride samples every part.
			j := i * sampleEvery
			lv.rows[i], sub[i], lv.b[i] = j, rowsOf[j], b[j]
		}
		sp := *p
		sp.A, sp.ARows, sp.B = nil, sub, lv.b
		// A sample is solved again only when the direct engine starts
		// cold: it keeps nothing for re-solves.
		o := s.engineOptions(0)
		o.OneShot = true
		eng, err := engineOrError(activeset.New(s.engineProblem(&sp, s.h, s.c, &s.chol), &o))
		if err != nil {
			// The samples are read before the engine on all rows:
			// a bad row is named by its index in A.
			if e, ok := err.(*activeset.InputError); ok && e.Index >= 0 && (e.Field == "A" || e.Field == "B") {
				j := lv.rows[e.Index]
				for i := len(ss.levels) - 1; i >= 0; i-- {
					j = ss.levels[i].rows[j]
				}
				e.Index = j
			}
			return ss, err
		}
		lv.eng = eng
		// lv.b now belongs to the engine's problem only through its copy
		// (activeset.New copies B); it stays as SetB's scratch.
		ss.levels = append(ss.levels, lv)
		rowsOf, b = sub, lv.b
	}
	if len(ss.levels) > 0 {
		ss.rowsIn = make([]int, 0, s.n)
		ss.upper, ss.lower = make([]bool, s.n), make([]bool, s.n)
	}
	return ss, nil
}

// reset empties every level's working set and makes the next solve start
// from the samples again.
func (ss *sampledStart) reset() {
	for i := range ss.levels {
		ss.levels[i].eng.Reset()
	}
	ss.cold, ss.presolved = true, false
}

// setB passes new right-hand sides b (of all rows) down the levels.
func (ss *sampledStart) setB(b []float64) error {
	if ss.presolved {
		// The engine's hot start came from the samples on the b New
		// was given: the next solve takes it from them on this b.
		ss.cold, ss.presolved = true, false
	}
	for i := range ss.levels {
		lv := &ss.levels[i]
		for k, j := range lv.rows {
			lv.b[k] = b[j]
		}
		if err := lv.eng.SetB(lv.b); err != nil {
			return err
		}
		b = lv.b
	}
	return nil
}

// start hot-starts full (the engine on all rows) from the largest
// sample's answer (solveLevels, under ctx, Options.TimeLimit counted from
// start), unless the direct engine is not cold.
func (ss *sampledStart) start(full *activeset.Solver, ctx context.Context, start time.Time) {
	if !ss.cold || len(ss.levels) == 0 {
		return
	}
	ss.cold, ss.presolved = false, false
	r := ss.solveLevels(ctx, start)
	ss.guess(r)
	ss.mapRows(0)
	if r.Status == activeset.StatusInfeasible {
		full.HotStart(ss.rowsIn, ss.upper, ss.lower)
		return
	}
	// The sample's answer is close to the whole problem's: the rows'
	// violations there let the first scans skip most rows.
	full.HotStartAt(r.X, ss.rowsIn, ss.upper, ss.lower)
}

// solveLevels solves the levels from the smallest up, each hot-started
// from the answer of the one below, and returns the largest sample's
// answer. A level that ends infeasible passes on the rows of its Farkas
// certificate (the whole problem is infeasible too, and the engine above
// finds it again from them). Each level's solve runs under ctx, with
// Options.TimeLimit counted from start.
func (ss *sampledStart) solveLevels(ctx context.Context, start time.Time) *activeset.Result {
	var below *activeset.Result
	for i := len(ss.levels) - 1; i >= 0; i-- {
		eng := ss.levels[i].eng
		if below != nil {
			ss.guess(below)
			ss.mapRows(i + 1)
			if below.Status == activeset.StatusInfeasible {
				eng.HotStart(ss.rowsIn, ss.upper, ss.lower)
			} else {
				eng.HotStartAt(below.X, ss.rowsIn, ss.upper, ss.lower)
			}
		}
		below = eng.SolveFrom(ctx, start)
	}
	return below
}

// guess sets rowsIn, upper and lower from a level's answer r: the rows
// with a positive multiplier (or Farkas weight), as that level's indices,
// and the bounds with a nonzero multiplier.
func (ss *sampledStart) guess(r *activeset.Result) {
	weights := r.Lambda
	if r.Status == activeset.StatusInfeasible {
		weights = r.FarkasA
	}
	ss.rowsIn = ss.rowsIn[:0]
	for k, w := range weights {
		if w > 0 && len(ss.rowsIn) < cap(ss.rowsIn) {
			ss.rowsIn = append(ss.rowsIn, k)
		}
	}
	for i, z := range r.Z {
		ss.upper[i], ss.lower[i] = z > 0, z < 0
	}
}

// mapRows turns rowsIn from level i's indices into the indices of the
// level above it (of all rows for i = 0).
func (ss *sampledStart) mapRows(i int) {
	for k, j := range ss.rowsIn {
		ss.rowsIn[k] = ss.levels[i].rows[j]
	}
}

// presolve solves the levels (New, before the engine on all rows exists),
// with no context and Options.TimeLimit counted from start, and returns the largest sample's
// answer, with the hot start's rows and bounds in rowsIn, upper and lower;
// nil without levels. The next Solve
// then starts from the engine's hot start as it stands (start does
// nothing), unless SetB or Reset comes first.
func (ss *sampledStart) presolve(start time.Time) *activeset.Result {
	if len(ss.levels) == 0 {
		return nil
	}
	r := ss.solveLevels(context.Background(), start)
	ss.guess(r)
	ss.mapRows(0)
	ss.cold, ss.presolved = false, true
	return r
}
