package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// raiseWeight raises the penalty weight (Result.PenaltyWeight) of a solved
// answer to what the multipliers would be with each row that x violates in
// exact arithmetic (the exact list) held at equality beside the members.
//
// The distance bound sqrt(2 gap/mu) that package solver derives from the
// exact penalty's gap holds for x* only once the weight is at least
// ||lambda*||_inf. A row violated within rounding is left out of the
// working set, with multiplier 0, yet x* may hold it at equality with a
// positive multiplier: the unconstrained optimum just outside three rows
// (b scaled by 1 - 1e-12) gave working-set multipliers of 1e-11 against
// lambda* of 1.7e-8, and ||x - x*|| = 1.6e-12 above a bound of 1.0e-12
// (TestWeaklyActiveRowWeight). Held at equality in v = L'x (H = L L', the
// members' unit normals N, the row's n_j of norm factor sigma_j), the row
// would move v by its violation e_j / sigma_j along the part r of n_j off
// the members' span, of length dist, and so take the multiplier
//
//	mu_j = e_j / (sigma_j dist)^2   (on the unit row)
//
// and change the members' by -mu_j sigma_j y, N y the projection of n_j on
// their span. With several rows the changes are summed in absolute value.
// The weight becomes twice the largest multiplier so obtained, on the
// caller's scale, when that is larger; it costs the gap only the weight
// times the violations within rounding. Rows in the members' span to
// rounding are nearlyImpliedRows' (their distance from x* is unbounded
// unless the members imply them); at a vertex (k = n) vertexCuts' are.
//
// It redoes the certificate's pass over the rows when the larger weight
// makes their residuals' rounding weigh in the gap (violation). O((n^2 + k
// n) r) for r rows on the exact list, nothing when it is empty.
func (s *Solver) raiseWeight() {
	k := len(s.ws)
	if s.exact.n == 0 || k >= s.n {
		return
	}
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	shift := s.dir[:k] // sum over the rows of mu_j sigma_j |y_i|
	clear(shift)
	rowMax := 0.0 // the rows' own multipliers, on the caller's scale
	for i, j := range s.exact.row[:s.exact.n] {
		near, _, dist := s.rowSpan(int(j))
		if near == inSpan {
			continue
		}
		sigma := s.sigma[k]
		if k == 0 {
			sigma = s.normal(constraint{kindRow, j}, 0)
			s.normals.remove(0, 1)
		}
		e := s.exact.val[i] * 0x1p-52 * (xn + math.Abs(s.b[j]))
		mu := e / (sigma * dist * sigma * dist)
		rowMax = max(rowMax, mu*s.ainv[j])
		for l, y := range s.lamTry[:k] {
			shift[l] += mu * sigma * math.Abs(y)
		}
	}
	w := 2 * rowMax
	for i, c := range s.ws {
		l := (math.Abs(s.lam[i]) + shift[i]) / s.sigma[i]
		switch c.kind {
		case kindRow:
			w = max(w, 2*l*s.ainv[c.i])
		case kindEq:
			w = max(w, 2*l*s.eqinv[c.i])
		}
	}
	if !(w > s.res.weight) {
		return // also for a NaN weight, which stays NaN
	}
	s.res.weight = w
	g := &s.res.Rounding
	if g.TermsError+w*g.ViolationError > 0x1p-46*(1+math.Abs(s.res.Objective)) {
		s.violationPass(true)
	}
}
