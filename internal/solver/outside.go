package solver

import "math"

// Bounds on the residuals of the rows outside the working set, so that the
// check after each stage (afterStage: rows the stage's point violates join
// the working set) need not read every row. A unit row's residual moves
// by at most the distance x moves, so a row whose residual was r at an
// earlier check, with the points of the checks since then a path of length
// d apart, has a residual of at most r + d now: if that is <= 0 it cannot
// be violated and is not read. Late in a solve the point moves little and
// most rows are skipped. (The active-set method scans its rows the same
// way.) The check at a solved point (readmit) and the certificate
// (outsidePenalty) read every row. Without the bounds the checks read every
// outside row after each stage, a large part of the penalty method's solve
// of the separable SVM with m = 1e6 (BenchmarkHandoverSweep, apg).

// outsideBounds holds, per caller row (A's rows, then both rows of each
// equality), the residual at the check that last read it and the path
// length then (+Inf: never read in this solve).
type outsideBounds struct {
	res, at []float64
	path    float64   // length of the path through the checks' points
	seen    []float64 // the point of the last check
	fresh   bool      // no check yet in this solve
}

// allocOutside makes s.outside for a working set (lazy mode only).
// Without one it stays nil, which reset and outsideResiduals take as no
// bounds: the Solver holds a pointer rather than the bounds, since a cold
// set-up zeroes every byte of it.
func (s *Solver) allocOutside() {
	if !s.lazy {
		return
	}
	o := new(outsideBounds)
	s.outside = o
	o.res = make([]float64, s.m+2*s.meq)
	o.at = make([]float64, s.m+2*s.meq)
	o.seen = make([]float64, s.n)
}

// reset forgets the bounds at the start of a solve (b may have changed);
// a nil o has none.
func (o *outsideBounds) reset() {
	if o == nil {
		return
	}
	for i := range o.res {
		o.res[i] = math.Inf(1)
	}
	o.path = 0
	o.fresh = true
}

// boundIndex is the place of working row k's caller row in the bounds.
func (s *Solver) boundIndex(k int) int {
	c := s.code[k]
	if !c.isEq() {
		return c.ineqRow()
	}
	i := s.m + 2*c.eqRow()
	if c.isEqMinus() {
		i++
	}
	return i
}

// outsideResiduals writes the residuals of the rows outside the kept block
// at x into state.r[kept:mw], reading only the rows whose bound does not
// show them satisfied (those get their bound, which is <= 0).
func (s *Solver) outsideResiduals(x []float64) {
	o := s.outside
	out := s.state.r[s.kept:s.mw]
	if o == nil || o.res == nil {
		for i := range out {
			out[i] = s.rowResidual(s.kept+i, x)
		}
		return
	}
	if !o.fresh {
		o.path += distance(x, o.seen)
	}
	o.fresh = false
	copy(o.seen, x)
	for i := range out {
		k := s.kept + i
		j := s.boundIndex(k)
		if b := o.res[j] + (o.path - o.at[j]); b <= 0 {
			out[i] = b
			continue
		}
		r := s.rowResidual(k, x)
		o.res[j], o.at[j] = r, o.path
		out[i] = r
	}
}

// distance is ||x - y||_2.
func distance(x, y []float64) float64 {
	var d float64
	for i := range x {
		t := x[i] - y[i]
		d += t * t
	}
	return math.Sqrt(d)
}
