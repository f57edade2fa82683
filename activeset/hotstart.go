package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// HotStart resets the working set to the equalities and the given rows of
// A and bounds (upper[i] / lower[i] true when that bound of x_i is
// guessed active; either may be nil), skipping rows whose normals depend on
// those already in. The next Solve starts from this set.
func (s *Solver) HotStart(rowsIn []int, upper, lower []bool) {
	s.Reset()
	if s.eqInconsistent {
		// The equalities contradict each other: the next Solve answers
		// their certificate (s.dir, over the working set as Reset left
		// it), and a member pushed after the dependent one, whose pivot
		// is zero, would divide by it.
		return
	}
	try := func(c constraint) {
		if len(s.ws) >= s.n {
			return
		}
		if d := s.pushChecked(c); d <= singularPivot {
			s.pop(len(s.ws) - 1)
		}
	}
	for _, j := range rowsIn {
		if j >= 0 && j < s.m && s.ainv[j] > 0 && !s.rowIn[j] {
			try(constraint{kindRow, int32(j)})
		}
	}
	for i := 0; i < s.n; i++ {
		if s.boundIn[i] != 0 {
			continue
		}
		if upper != nil && upper[i] && !math.IsInf(s.up[i], 1) {
			try(constraint{kindUpper, int32(i)})
		} else if lower != nil && lower[i] && !math.IsInf(s.lo[i], -1) {
			try(constraint{kindLower, int32(i)})
		}
	}
}

// HotStartAt is HotStart from a guess x of the answer as well (an
// approximation's, such as the answer on a sample of the rows): it computes
// every row's violation at x once and keeps them as the bounds that the
// next Solve's scans start from, so that a row whose violation at x, plus
// the distance the solve's points move from x, stays below the threshold is
// not read again, and fills the pool with the rows most violated at x. The
// rows (rowsIn) and bounds (upper, lower) go into the working set as in
// HotStart. x must have length n and finite entries. It allocates nothing.
//
// From a sample's answer on many rows, the rows' violations at x spare the
// solve's first full scans, which cost more than the one pass at x
// (BenchmarkLargeQP). The pass runs on the team's goroutines
// (Options.Threads), each row's violation computed alone: the same bits on
// any number.
func (s *Solver) HotStartAt(x []float64, rowsIn []int, upper, lower []bool) {
	s.HotStart(rowsIn, upper, lower)
	x = x[:s.n]
	if s.team == nil {
		s.seedRows(x, 0, s.m)
	} else {
		s.seedAt = x
		s.team.do(s.seedJob)
		s.seedAt = nil
	}
	s.seeded(x)
}

// seedRows stores the violations at x of rows lo..hi-1 (HotStartAt).
func (s *Solver) seedRows(x []float64, lo, hi int) {
	for j := lo; j < hi; j++ {
		dense := 0.0
		if s.ainv[j] != 0 && (s.sp.sparse == nil || !s.sp.sparse[j]) {
			_, dense = vec.SumSqDot(s.a[j], x)
		}
		s.seedRow(j, guessDot(s.ainv[j], &s.sp, j, x, dense))
	}
}

// NewAt is New followed by HotStartAt(x, rowsIn, upper, lower), with the
// rows' products with x taken in New's pass over the rows, while each row
// is in cache, instead of in a second pass: on rows that do not fit in the
// cache a pass is most of the cost (BenchmarkLargeQP). The Solver is the
// one New and HotStartAt give, bit for bit (both take the products by
// guessDot). x must have length n and finite entries, or NewAt returns an
// *InputError. The violations are stored on the team's goroutines when
// there are many rows (splits), each row's alone: the same bits.
func NewAt(p *Problem, opt *Options, x []float64, rowsIn []int, upper, lower []bool) (*Solver, error) {
	if err := checkVec("x", x, p.N, false); err != nil {
		return nil, err
	}
	if x == nil && p.N > 0 {
		return nil, &InputError{"x", -1, "missing"}
	}
	at := guess{x: x}
	s, err := newSolver(p, opt, &at)
	if err != nil {
		return nil, err
	}
	s.HotStart(rowsIn, upper, lower)
	seed := func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			s.seedRow(j, at.dots[j])
		}
	}
	if s.split.rows {
		s.team.do(seed)
	} else {
		seed(0, 0, s.m)
	}
	s.seeded(x)
	return s, nil
}

// seedRow stores row j's violation from its product v with the guess
// (nothing for a member or a zero row), stamped at the drift's start.
func (s *Solver) seedRow(j int, v float64) {
	if s.rowIn[j] || s.ainv[j] == 0 {
		return
	}
	s.rowBnd[j] = computedBound(v*s.ainv[j]-s.b[j], 0, 0)
}

// seeded starts the drift at the guess x, where the rows' violations were
// stored, and fills the pool from them.
func (s *Solver) seeded(x []float64) {
	copy(s.x, x[:s.n])
	s.drift.restart(s.x)
	s.rebuildPool()
}
