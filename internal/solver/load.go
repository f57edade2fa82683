package solver

import (
	"errors"
	"math"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/mat"
)

// storage is the memory a Solver allocated for itself, which Load reuses
// for the next problem: a service that solves problems of one shape one
// after the other then allocates nothing. It never holds the caller's
// data (a P given with OwnP, the rows of A).
type storage struct {
	fl     []float64    // copyObjective's slab
	y      []float64    // the copy of the loss's targets
	h      *mat.Dense   // the model's H where it is not P itself
	chol   mat.Cholesky // H's factor
	trial  mat.Cholesky // certifyMinEig's trial factors
	scaled *mat.Dense   // S^-1 H S^-1, where scaledMuCertify has needed it
	engine *activeset.Solver
	// model says which objective chol factors: a Load whose problem has
	// the same (SameP, ridge, no loss) keeps the factor and mu.
	model keptModel
}

// keptModel is the key of the direct path's model H = P + ridge I (no
// loss) that storage.chol factors, and its certified mu; valid only after
// a build that formed it, until the next build starts.
type keptModel struct {
	valid bool
	n     int
	hasP  bool
	ridge float64
	mu    float64
}

// keeps reports whether the model of p, on s, is m's: P the same bit for
// bit (Problem.SameP), the same ridge, no loss.
func (m keptModel) keeps(s *Solver, p *Problem) bool {
	return m.valid && p.SameP && m.n == s.n && m.hasP == (p.P != nil) && s.l == 0 && s.quad &&
		math.Float64bits(m.ridge) == math.Float64bits(s.ridge)
}

// trialKept is the largest n whose trial factor a Solver keeps after New
// (dropTrial): a third n x n matrix is worth keeping for the loads of
// small problems, not beside the factor of a large one.
const trialKept = 256

// storage returns what build may reuse.
func (s *Solver) storage() storage {
	m := s.mem
	m.chol, m.engine = s.chol, s.direct
	if s.h != nil && s.h != s.pm {
		m.h = s.h
	}
	return m
}

// dropTrial lets certifyMinEig's trial factor go above trialKept.
func (s *Solver) dropTrial() {
	if s.n > trialKept {
		s.mem.trial = mat.Cholesky{}
	}
}

// Load makes s the Solver of p, as New(p, opt) does, in the storage s
// allocated for the problems it held before where it fits, and reports
// whether it did: it does only where CanLoad(p, opt) holds, and otherwise
// does nothing and reports false. On problems of one shape it allocates
// nothing (but the engine's team: activeset.Solver.Load). After an error
// s holds no problem and takes none: only a new Solver solves.
func (s *Solver) Load(p *Problem, opt *Options) (bool, error) {
	start := time.Now()
	if p == nil {
		return false, errors.New("solver: nil problem")
	}
	if !s.CanLoad(p, opt) {
		return false, nil
	}
	return true, s.build(p, opt, start)
}

// CanLoad reports whether Load takes p: both the problem s holds and p
// are solved by the exact method alone (the direct path without samples
// of the rows: a quadratic objective, fewer than minSampledRows rows; a
// time limit that passes in the set-up leaves the engine for the first
// Solve, as in New), and no vector or row of p lives in
// s's storage (the Result's vectors among it), which Load clears before
// it reads p. It reads only p's vectors' and rows' addresses, its sizes
// and its loss: a caller may ask before it writes p's data anywhere.
func (s *Solver) CanLoad(p *Problem, opt *Options) bool {
	if !s.loadable() || !directAlone(p, opt) {
		return false
	}
	fl := s.mem.fl[:cap(s.mem.fl)]
	for _, v := range [][]float64{p.Q, p.Y, p.B, p.Beq, p.Lower, p.Upper} {
		if mat.Overlaps(v, fl) {
			return false
		}
	}
	for _, rows := range [][][]float64{p.ARows, p.PhiRows} {
		for _, r := range rows {
			if mat.Overlaps(r, fl) {
				return false
			}
		}
	}
	for _, m := range []*mat.Dense{p.A, p.Aeq, p.P, p.Phi} {
		if m != nil && mat.Overlaps(m.Data, fl) {
			return false
		}
	}
	return true
}

// loadable reports whether s is a built Solver of the direct path alone
// (directAlone) with its engine.
func (s *Solver) loadable() bool {
	return s.direct != nil && s.pending == nil && len(s.sample.levels) == 0 &&
		s.sparse == nil && s.cd == nil && s.sparseRun == nil
}

// directAlone reports whether New(p, opt) takes the direct path without
// samples of the rows (newDirect).
func directAlone(p *Problem, opt *Options) bool {
	if p.PhiSparse != nil || p.ASparse != nil {
		return false
	}
	method := MethodAuto
	if opt != nil {
		method = opt.Method
	}
	rows := len(p.ARows)
	if p.A != nil {
		rows = p.A.Rows
	}
	quad := p.Loss != LossLogistic && p.N <= maxDenseHessian
	return quad && (method == MethodAuto || method == MethodActiveSet) && rows < minSampledRows(p.N)
}

// reuse returns old[:k] cleared when old can hold k entries, else a new
// slice of length k: either way k zero entries, as make gives, and the
// capacity of old kept for the next reuse.
func reuse(old []float64, k int) []float64 {
	if cap(old) < k {
		return make([]float64, k)
	}
	v := old[:k]
	clear(v)
	return v
}
