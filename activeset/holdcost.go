package activeset

import (
	"math"
	"slices"

	"github.com/softpen/softpen/vec"
)

// memberHoldCost is F(x - dx) - F(x) for the step dx that makes the members
// violated beyond the rounding of their own terms hold with equality, the
// other members' values and the bounds x lies on unchanged: refine's
// Newton step without its stationarity part,
//
//	[H  N'] [dx]     [0  ]
//	[N  0 ] [dl] = - [r_N],
//
// N the members' normals and r_N their residuals, those within their own
// terms' rounding set to zero. The step is taken through the Gram factor;
// where it would move x off a bound it lies on, those bounds join N and
// the step is taken again through a QR factorisation of N (orthoQR). It
// returns 0 when no member is so violated or the last member depends on
// the others (refine's case: the Gram factor cannot solve), and +Inf when
// the members and bounds to hold are more than n or dependent to
// orthoTiny: no step float64 can trust holds them.
//
// Why: a member is held to the rounding of ||x||, and its right-hand side
// can lie far below that. With rows of 1e20 and q pushing x to 1e12, a
// member -1e20 x_1 - 1e6 x_2 <= -0.75 with x_1 <= 0 is met to rounding at
// x_2 = 0, yet holding it exactly moves x by 3e14 and F by 1e17
// (TestMemberHoldCostFarOut). D(lambda) still bounds F* from below; F(x)
// bounds it from above only as far as x is feasible, and F(x - dx) is what
// a point that holds its members costs. A row through the origin missed by
// a few ulp (x_i = -1e-15 where x*_i = 0) costs F its multiplier times
// those ulp, which the exact penalty's gap already charges.
//
// It also returns a bound on the rounding of the cost. It uses s.t,
// s.xTry, s.lamTry and refineOrtho's workspace, and allocates nothing but
// that workspace on its first use.
func (s *Solver) memberHoldCost() (cost, err float64) {
	k := len(s.ws)
	if k == 0 || s.fac.d[k-1] <= singularPivot && !s.lastIndep {
		return 0, 0
	}
	y := s.lamTry[:k]
	if !s.holdResiduals(y) {
		return 0, 0
	}
	s.fac.solve(y, k)
	clear(s.t)
	for i := range y {
		s.normals.axpy(y[i], i, s.t)
	}
	s.chol.SolveLT(s.xTry, s.t)
	if r := s.rareWork(); r.heldBounds == nil {
		r.heldBounds = make([]int32, 0, s.n)
	}
	s.rare.heldBounds = s.rare.heldBounds[:0]
	for round := 0; round < holdRounds; round++ {
		if !s.crossedBounds() {
			return s.stepCost(s.xTry)
		}
		if !s.holdWithBounds() {
			return math.Inf(1), 0
		}
	}
	return math.Inf(1), 0
}

// holdRounds bounds how many times memberHoldCost takes its step again
// with the bounds the last one crossed.
const holdRounds = 4

// holdResiduals sets y_i to member i's residual over sigma_i where it is
// violated beyond the rounding of its own terms, 0 elsewhere, and reports
// whether any is.
func (s *Solver) holdResiduals(y []float64) bool {
	violated := false
	for i, c := range s.ws {
		y[i] = 0
		if c.kind != kindRow && c.kind != kindEq {
			continue // bounds hold exactly: certify clips x to them
		}
		b := s.rhs(c)
		v := s.rowValue(c, s.x) - b
		if c.kind == kindRow && v <= 0 {
			continue
		}
		if WithinRounding(math.Abs(v), s.absNormalDot(c, s.x)+math.Abs(b), 0, s.n) {
			continue
		}
		y[i], violated = v/s.sigma[i], true
	}
	return violated
}

// crossedBounds adds to heldBounds the variables that lie on a bound the
// step x - dx (dx in s.xTry) leaves, and reports whether there were any.
// A bound or kink among the members is held by the step already, and a
// fixed variable (lo = up) stays where it is: its entry of dx is set to
// 0. A step computed through the factor carries rounding in every entry,
// so a crossing counts only beyond the rounding of ||dx|| (WithinRounding)
// and where it matters (stepMatters): an entry of 1e-25 beside a bound
// moves no member.
func (s *Solver) crossedBounds() bool {
	crossed := false
	dn := math.Sqrt(vec.Dot(s.xTry, s.xTry))
	for i, d := range s.xTry {
		v := s.x[i]
		if s.lo[i] == s.up[i] {
			s.xTry[i] = 0
			continue
		}
		if s.boundIn[i] != 0 || (s.kinkIn != nil && s.kinkIn[i]) || WithinRounding(math.Abs(d), dn, 0, s.n) {
			continue
		}
		if ((v == s.up[i] && v-d > v) || (v == s.lo[i] && v-d < v)) && s.stepMatters(i, d) {
			s.rare.heldBounds = append(s.rare.heldBounds, int32(i))
			crossed = true
		}
	}
	return crossed
}

// stepMatters reports whether moving x_i by d changes some row or
// equality of the working set beyond the rounding of its own terms: only
// then does holding x_i at its bound instead change what the step holds.
func (s *Solver) stepMatters(i int, d float64) bool {
	for _, c := range s.ws {
		if c.kind != kindRow && c.kind != kindEq {
			continue
		}
		move := math.Abs(s.unitCoef(c, i) * d)
		if !WithinRounding(move, s.absNormalDot(c, s.x)+math.Abs(s.rhs(c)), 0, s.n) {
			return true
		}
	}
	return false
}

// unitCoef is entry i of the unit normal of row or equality c.
func (s *Solver) unitCoef(c constraint, i int) float64 {
	if c.kind == kindEq {
		return s.aeq[c.i][i] * s.eqinv[c.i]
	}
	if sp := &s.sp; sp.sparse != nil && sp.sparse[c.i] {
		lo, hi := sp.pos[c.i], sp.pos[c.i+1]
		if k, ok := slices.BinarySearch(sp.idx[lo:hi], int32(i)); ok {
			return sp.val[lo+int32(k)] * s.ainv[c.i]
		}
		return 0
	}
	return s.a[c.i][i] * s.ainv[c.i]
}

// holdWithBounds sets s.xTry to the step of memberHoldCost that also keeps
// the variables of heldBounds where they are, through a QR factorisation
// of the members' normals and the bounds' (L^{-1} e_i), and reports
// whether it could (at most n of them, independent to orthoTiny).
func (s *Solver) holdWithBounds() bool {
	k := len(s.ws)
	kk := k + len(s.rare.heldBounds)
	if kk > s.n {
		return false
	}
	q := s.orthoWork(kk)
	for i := 0; i < k; i++ {
		copy(q.col(i), s.normals.full(i))
	}
	for j, v := range s.rare.heldBounds {
		s.chol.UnitColumn(q.col(k+j), int(v))
	}
	if !q.factor(orthoTiny) {
		return false
	}
	y := s.rare.orthoY[:kk]
	s.holdResiduals(y[:k])
	clear(y[k:])
	q.solveRT(y)
	u := s.rare.orthoW
	clear(u)
	copy(u, y)
	q.applyQ(u)
	s.chol.SolveLT(s.xTry, u)
	return true
}

// stepCost is F(x - dx) - F(x) = sum_i (1/2 (H dx)_i - (Hx + c)_i) dx_i
// + l1 (|x_i - dx_i| - |x_i|), from s.hx = H x and H dx (in s.t), and a
// bound on its rounding: each product with H within gamma ||H_i|| times
// its vector's norm (Cauchy-Schwarz), the sum within gamma of its terms'
// magnitudes.
func (s *Solver) stepCost(dx []float64) (cost, err float64) {
	if !s.hxOK {
		s.chol.mulH(s.hx, s.x)
		s.hxOK = true
	}
	s.chol.measure()
	s.chol.mulH(s.t, dx)
	xn, dn := math.Sqrt(vec.Dot(s.x, s.x)), math.Sqrt(vec.Dot(dx, dx))
	terms, prod := 0.0, 0.0
	for i, d := range dx {
		xi := s.x[i]
		t := (0.5*s.t[i]-s.hx[i]-s.c[i])*d + s.l1*(math.Abs(xi-d)-math.Abs(xi))
		cost += t
		terms += math.Abs((0.5*math.Abs(s.t[i])+math.Abs(s.hx[i])+math.Abs(s.c[i]))*d) + s.l1*(math.Abs(xi-d)+math.Abs(xi))
		prod += s.chol.rowNorm[i] * math.Abs(d)
	}
	g := vec.DotErrorBound(s.n + 4)
	return cost, g * (terms + prod*(xn+dn))
}

// holdExceedsGap reports whether holding the members violated beyond
// their own terms' rounding exactly (memberHoldCost) costs F more, beyond
// that cost's rounding, than the exact penalty's gap allows:
// Gap + 2 max|multiplier| SumViolation, Gap taken as 0 where rounding
// makes it negative (the hold of a violation v costs its multiplier times
// v to first order, and a negative Gap would eat into that).
// It sets Result.HoldCost when it does.
func (s *Solver) holdExceedsGap() bool {
	cost, err := s.memberHoldCost()
	if cost-err > max(s.res.Gap, 0)+s.penaltyGap()-s.res.Gap {
		s.res.HoldCost = cost
		return true
	}
	return false
}
