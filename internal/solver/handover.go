package solver

import (
	"math"
	"slices"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/vec"
)

// The finisher of the penalty method: the exact dual active-set method of
// package activeset, hot-started from the penalty method's working set.
//
// The penalty method is the right tool to find the active set among many
// rows and the wrong one to reach machine precision. For a quadratic
// objective (the model, with box and l1 allowed), once a stage has ended
// with a rough certificate (handoverDue), the rows whose multipliers are
// large and the bounds the point sits on become the engine's starting
// working set (HotStart), and the engine solves the whole problem exactly:
// it scans every caller row itself, admits the violated ones and drops the
// members whose multipliers turn negative, so the guess only decides how
// many working-set changes it takes, never the answer. The answer is
// certified as the direct path's is (engineAnswer). If the engine stops on
// its bound on working-set changes (cycling), the stages go on and the engine is tried
// again once the penalty method's gap has fallen by handoverRetry.
//
// The engine is built in New, on the caller's rows (read in place) and the
// model's factor; HotStart and Solve allocate nothing.

// finisher is the storage of the handover, sized in New.
type finisher struct {
	eng          *activeset.Solver // nil: no finisher (not quadratic, or NoPolish)
	cand         []handCand        // rows guessed active, at most n
	rows         []int             // their caller indices, in HotStart's order
	upper, lower []bool            // bounds guessed active (nil without a box)
	gap          float64           // handoverGap (a field so that benchmarks can vary it)
}

// handCand is a kept row guessed active and its multiplier.
type handCand struct {
	lam float64
	row int
}

// newFinisher builds the engine of the handover when the objective is
// quadratic and polishing is not turned off.
func (s *Solver) newFinisher(p *Problem) error {
	if !s.quad || s.opt.NoPolish || s.m+s.meq == 0 {
		return nil
	}
	eng, err := s.newEngine(p, handoverMaxSteps(s.n, s.m, s.meq))
	if err != nil {
		return err
	}
	f := &s.fin
	f.eng = eng
	f.gap = handoverGap
	f.cand = make([]handCand, 0, s.n)
	f.rows = make([]int, 0, s.n)
	if s.lower != nil {
		f.upper, f.lower = make([]bool, s.n), make([]bool, s.n)
	}
	return nil
}

// canHandOver reports whether the finisher applies to this solve.
func (s *Solver) canHandOver() bool { return s.fin.eng != nil && !s.opt.NoPolish }

// handoverDue reports whether the stage that just ended hands over: once
// the best certified gap is below handoverGap relative to |F| (the loose
// first stage, the probe, too, if it gets there), or the stages have grown
// slow (handoverSlow); in both cases, after an engine solve that did not
// finish, only below the gap at that attempt over handoverRetry.
func (s *Solver) handoverDue(rn *run) bool {
	return s.handoverSlow(rn) ||
		s.handoverAllowed(rn) && rn.best.gap <= s.fin.gap*max(1, math.Abs(rn.best.f))
}

// handoverSlow reports whether the stages have taken handoverStepsPerRow
// steps per working row since the last engine attempt (or the start), and
// may hand over: checked at a stage's end and while a stage runs (over),
// for a stage that slow may never end. With multipliers far above xi
// (5e15 on the rows of TestHugeMultipliersHandOver) an SVRG stage at
// xi = 1e6 ran 1e7 steps without meeting its target.
func (s *Solver) handoverSlow(rn *run) bool {
	return s.handoverAllowed(rn) && s.steps-rn.handSteps >= handoverStepsPerRow*int64(s.mw)
}

// handoverAllowed reports whether the finisher applies and, after an
// engine solve that did not finish, the best gap has fallen enough since.
func (s *Solver) handoverAllowed(rn *run) bool {
	return s.canHandOver() && rn.best.gap <= rn.handNext
}

// handover runs the engine from the working set the best point and
// multipliers show. It reports whether the solve ends, and with which
// status: the engine's answer (rn.engine set; finishEngine reports it),
// or the best penalty point when a time limit cut the engine short and its
// point certifies less. Otherwise (the engine cycled) the stages go on.
func (s *Solver) handover(rn *run) (Status, bool) {
	f := &s.fin
	rn.handSteps = s.steps
	s.guessWorkingSet()
	f.eng.HotStart(f.rows, f.upper, f.lower)
	r := f.eng.SolveFrom(rn.ctx, rn.start)
	rn.engineIter += r.Steps
	if r.Status == activeset.StatusPrecisionLimit || r.Status == activeset.StatusMaxSteps {
		rn.handNext = rn.best.gap / handoverRetry
		return 0, false
	}
	s.engineAnswer(r)
	s.polishAnswer(f.eng, r)
	if r.Status == activeset.StatusTimeLimit && !(s.res.Gap < s.wholeGap(rn, s.state.best)) {
		return StatusTimeLimit, true // finish reports the best penalty point
	}
	if r.Status == activeset.StatusCanceled && !(s.res.Gap < s.wholeGap(rn, s.state.best)) {
		return StatusCanceled, true // finish reports the best penalty point
	}
	rn.engine = true
	return s.res.Status, true
}

// guessWorkingSet fills f.rows with the kept inequality rows whose best
// multiplier exceeds handoverLamFrac of the largest, at most n of them,
// largest multiplier first (HotStart takes them in order and skips a row
// whose normal depends on those before it), and f.upper, f.lower with the
// bounds the best point lies on.
func (s *Solver) guessWorkingSet() {
	f := &s.fin
	lam := s.state.lamBest[:s.kept]
	lmax := 0.0
	for k, l := range lam {
		if !s.code[k].isEq() {
			lmax = max(lmax, l)
		}
	}
	f.cand, f.rows = f.cand[:0], f.rows[:0]
	if lmax > 0 {
		thr := handoverLamFrac * lmax
		// At most n rows: the n-th largest multiplier above thr is the cut.
		vals := s.state.lam[:0]
		for k, l := range lam {
			if l > thr && !s.code[k].isEq() {
				vals = append(vals, l)
			}
		}
		cut := thr
		if len(vals) > s.n {
			cut = vec.SelectLargest(vals, s.n)
		}
		for k, l := range lam {
			if l > thr && l >= cut && !s.code[k].isEq() && len(f.cand) < s.n {
				f.cand = append(f.cand, handCand{l, s.code[k].ineqRow()})
			}
		}
		slices.SortFunc(f.cand, func(a, b handCand) int {
			switch {
			case a.lam > b.lam:
				return -1
			case a.lam < b.lam:
				return 1
			}
			return a.row - b.row
		})
		for _, c := range f.cand {
			f.rows = append(f.rows, c.row)
		}
	}
	if f.upper != nil {
		x := s.state.best
		for i := range x {
			f.upper[i] = x[i] >= s.upper[i]
			f.lower[i] = x[i] <= s.lower[i]
		}
	}
}

// finishEngine completes the engine's answer (handover) as the solve's
// result: the engine's point, multipliers and certificate (engineAnswer),
// the penalty method's steps and stages, and as Kept the rows of the
// penalty method's working set and those the engine made active, less the
// rows the answer's distance bound proves inactive (Screened, as
// screenFinal does for the penalty's own answers; only rows of the working
// set are tested, whose residuals cost no pass over the caller's rows).
// Rows outside the working set that the engine left inactive are Outside.
// The point is the warm start of the next solve.
func (s *Solver) finishEngine(rn *run) *Result {
	res := &s.res // engineAnswer has filled it (handover)
	res.Steps, res.Stages = s.steps, s.stages
	res.Iterations = rn.engineIter
	res.Polished = true
	copy(s.state.x, res.X)
	copy(s.state.best, res.X)
	s.warm = true
	s.lastXi = res.Xi
	// A row outside the penalty method's working set that the engine made
	// active is kept; a kept row with multiplier 0 that the distance bound
	// proves inactive is screened.
	thr := math.Inf(-1)
	if s.opt.Screen != ScreenNone {
		thr = -res.DistBound // -Inf when x is not feasible to rounding
	}
	res.Kept = 0
	for k := 0; k < s.mw; k++ {
		c := s.code[k]
		switch {
		case c.isEq() || res.Lambda[c.ineqRow()] != 0:
		case k >= s.kept:
			res.Outside = append(res.Outside, c.ineqRow())
			continue
		case s.rowResidual(k, res.X) < thr:
			res.Screened = append(res.Screened, c.ineqRow())
			continue
		}
		res.Kept++
	}
	slices.Sort(res.Screened)
	slices.Sort(res.Outside)
	res.Time = time.Since(rn.start)
	return res
}

// handoverMaxSteps bounds the working-set changes of one engine solve of
// the handover. With at most DirectMaxRows rows the probe hands over a
// rough working set and the engine does what the direct path would: it
// gets the direct path's bound (0: the engine's default, 50 (n + m + meq)
// + 100). Above, the bound leaves out the rows, which a working set from
// a certified gap of handoverGap needs far fewer changes than (108 on the
// separable SVM with m = 1e6, n = 50, whose cold solve takes 1,190): an
// engine cycling there hands back to the stages after 50 (n + meq) + 100.
func handoverMaxSteps(n, m, meq int) int {
	if m+meq <= DirectMaxRows {
		return 0
	}
	return 50*(n+meq) + 100
}
