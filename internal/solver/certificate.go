package solver

import (
	"math"

	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// The certificate of a point x and multipliers lambda >= 0 on the kept rows
// (DESIGN.md, "Certified duality gap"): any lambda >= 0 is dual feasible,
// so G(lambda) = min_x F(x) + lambda^T (A x - b) is a lower bound on F*,
// and F_{xi,0}(x) = F(x) + xi sum_j (a_j^T x - b_j)_+ is an upper bound on
// it once xi >= ||lambda*||_inf. Their difference, plus a rounding
// allowance (gapOf), is the certified gap; ||x - x*|| <= sqrt(2 gap/mu)
// when x is feasible (distBound).
// The dual bound is exact for the quadratic model and a gradient-mapping
// bound otherwise (dualBound). Rows outside the working set add their
// penalty to the whole problem's gap (wholeGap).

// certificate is the best certified pair of a solve: the point state.best
// and the multipliers state.lamBest, with the two bounds whose difference
// is its gap. The bounds are each valid on their own, which lets
// certifyPoint pair a new point with the best multipliers and new
// multipliers with the best point.
type certificate struct {
	gap float64 // certified gap of the pair
	f   float64 // F(state.best)
	pen float64 // sum of the kept rows' violations at state.best
	g   float64 // dual bound G(state.lamBest)
	xi  float64 // the penalty of the pair's primal bound F_{xi,0}(state.best)
}

// noCertificate is the state before any certificate: an infinite gap.
func noCertificate() certificate { return certificate{gap: math.Inf(1), g: math.Inf(-1)} }

// forget drops the pair's gap and dual bound after the problem on the kept
// rows has changed (rows joined it); the point's values stay, and xi stays
// the penalty the result's gap is measured with until a new pair is found.
func (c *certificate) forget() { c.gap, c.g = math.Inf(1), math.Inf(-1) }

// solved reports whether the best certified gap meets the tolerance.
func (s *Solver) solved(rn *run) bool {
	return rn.best.gap <= s.opt.Tol*math.Max(1, math.Abs(rn.best.f))
}

// certify computes the stage's certificate at state.x: multipliers (4.3) at
// the current delta, the duality gap F_{xi_r,0}(x) - G(lambda), and keeps the
// best point so far. Any lambda >= 0 is dual feasible, so besides the
// paper's map at delta it also tries the sharper maps at delta/4, delta/16
// and delta/64 with entries below 1e-12 xi set to zero: at large delta the
// smeared multipliers of inactive rows weigh the dual bound down, and the
// sharper ones often give a much better bound (which screening then uses).
// It returns the gap of the paper's map, the max violation (working rows)
// and max_j lambda_j.
func (s *Solver) certify(rn *run) (gap, viol, lamMax float64) {
	x := s.state.x
	r, lam := s.state.r[:s.kept], s.state.lam[:s.kept]
	s.residual(r, x)
	viol = maxPos(r)
	softplus.DualMap(lam, r, rn.sched.xi, rn.sched.delta)
	for _, l := range lam {
		lamMax = math.Max(lamMax, l)
	}
	gap = s.certifyPoint(rn, x, lam)
	for _, f := range [...]float64{4, 16, 64} {
		s.residual(r, x)
		softplus.DualMap(lam, r, rn.sched.xi, rn.sched.delta/f)
		for j, l := range lam {
			if l < 1e-12*rn.sched.xi {
				lam[j] = 0
			}
		}
		s.certifyPoint(rn, x, lam)
	}
	return gap, viol, lamMax
}

// certifyPoint computes the certified gap of (x, lam) (lam >= 0 on the kept
// working rows) and keeps the best pair of a point and multipliers. The
// primal bound F_{xr,0}(x) (xr = max(xi, 2 max lam)) and the dual bound
// G(lam) are each valid on their own, so x is also tried against the best
// multipliers so far and lam against the best point: a stochastic method's
// point is noisy, and the multipliers the sigmoid map gives at it are
// nearly 0 or xi on the active rows and make a poor dual bound, while the
// point is better than the points before it (TestSGDBudgetAnswer: with
// each point certified by its own multipliers only, the kept point is an
// early, worse one). It returns the gap of the pair (x, lam); rn.best.gap
// is the best pair's.
func (s *Solver) certifyPoint(rn *run, x, lam []float64) float64 {
	r := s.state.r[:s.kept]
	s.residual(r, x)
	var pen, lamMax float64
	for k, v := range r {
		if v > 0 {
			pen += v
		}
		lamMax = math.Max(lamMax, lam[k])
	}
	f := s.objective(x)
	xr := math.Max(rn.sched.xi, 2*lamMax)
	g := s.dualBound(lam, x)
	gap := s.gapOf(f+xr*pen, g)
	withDual, withPoint := math.Inf(1), math.Inf(1)
	if !math.IsInf(rn.best.gap, 1) { // there is a best pair
		withDual = s.gapOf(f+rn.best.xi*pen, rn.best.g)  // x with the best multipliers
		withPoint = s.gapOf(rn.best.f+xr*rn.best.pen, g) // lam with the best point
	}
	newPoint, newDual := false, false
	switch best := min(gap, withDual, withPoint); {
	case !(best < rn.best.gap):
	case best == gap:
		newPoint, newDual = true, true
	case best == withDual:
		newPoint = true
	default:
		newDual = true
	}
	if newPoint {
		rn.best.f, rn.best.pen = f, pen
		copy(s.state.best, x)
		s.res.Polished = false
	}
	if newDual {
		rn.best.g, rn.best.xi = g, xr
		copy(s.state.lamBest[:s.kept], lam)
	}
	if newPoint || newDual {
		rn.best.gap = min(gap, withDual, withPoint)
	}
	return gap
}

// gapOf is the certified gap between an upper value fu and a lower bound g,
// plus an allowance for the rounding in evaluating both: each is a sum of
// O(n) products, so their computed values carry errors of a few
// sqrt(n)*eps relative to their magnitudes (with a factor 16 of margin). A
// gap is never reported as exactly zero.
func (s *Solver) gapOf(fu, g float64) float64 {
	return math.Max(fu-g, 0) + s.rounding(fu, g)
}

// rounding is the allowance gapOf adds for the rounding of F and G.
func (s *Solver) rounding(fu, g float64) float64 {
	return 16 * math.Sqrt(float64(s.n)) * 0x1p-52 * (1 + math.Abs(fu) + math.Abs(g) + math.Abs(s.c0))
}

// atPrecisionFloor reports whether the best certified gap is within twice
// its own rounding allowance: the two bounds agree to rounding, and no
// further stage can certify a smaller gap.
func (s *Solver) atPrecisionFloor(rn *run) bool {
	b := &rn.best
	return !math.IsInf(b.gap, 1) && b.gap <= 2*s.rounding(b.f+b.xi*b.pen, b.g)
}

// dualBound returns a certified lower bound on F* from multipliers lam >= 0 of
// the kept working rows (dropped rows count with multiplier 0).
//
// For the quadratic model without l1 or box, the dual function is exact:
// G(lam) = c0 - b^T lam - 1/2 w^T H^{-1} w, w = c + A^T lam.
// Otherwise G(lam) >= L(x~, lam) - ||g||^2 / (2 mu), with x~ the proximal
// gradient step from x on L(., lam) with step 1/L_f and g its gradient
// mapping (DESIGN.md, "Certified duality gap"; paper Lemma 3.1).
func (s *Solver) dualBound(lam, x []float64) float64 {
	w, t := s.state.g, s.state.xt
	if s.quad && !s.hasProx() {
		copy(w, s.c)
		if s.kept > 0 {
			s.working().MulTransVecAdd(w, lam[:s.kept])
		}
		s.chol.Solve(t, w)
		g := s.c0 - vec.Dot(s.b[:s.kept], lam[:s.kept]) - 0.5*vec.Dot(w, t)
		return g - s.sumRounding(lam[:s.kept], t, math.Abs(g))
	}
	alpha := 1 / s.lfCert
	s.smoothGrad(w, x)
	gradNorm := math.Sqrt(vec.Dot(w, w))
	if s.kept > 0 {
		s.working().MulTransVecAdd(w, lam[:s.kept])
	}
	copy(t, x)
	vec.Axpy(-alpha, w, t)
	s.prox(t, alpha)
	// L(x~, lam) = F(x~) + lam^T (A x~ - b)
	lx := s.objective(t)
	r := s.state.r[:s.kept]
	if s.kept > 0 {
		s.residual(r, t)
		lx += vec.Dot(lam[:s.kept], r)
	}
	var gg float64
	for i := range t {
		d := (x[i] - t[i]) / alpha
		gg += d * d
	}
	return lx - gg/(2*s.mu) - s.proxRounding(lam[:s.kept], r, t, gradNorm, math.Sqrt(gg))
}

// proxRounding bounds what rounding takes from the proximal branch of
// dualBound, whose sums, with large multipliers, are far larger than the
// value (testqp.HugeMultipliers with a box: lam'(A x~ - b) from terms
// ~1e21, off by 3e5 of 1.4e14), each entry within sqrt(k+1) eps of its
// terms' magnitude as in sumRounding:
//   - lam'(A x~ - b): each residual r_k of a unit row is within
//     eRow (||x~|| + |b_k|) of its value, and the sum of the products
//     within eSum sum |lam_k r_k|;
//   - the gradient w = grad f(x) + A'lam that the step to x~ takes is
//     within d = eSum (||grad f(x)|| + sum lam) of its value (2-norm, unit
//     rows); a step taken with a gradient off by d lowers the bound
//     L(x~, lam) - ||g||^2 / (2 mu) by at most (d^2/2 + ||g|| d) / mu
//     (g the gradient mapping): the prox-gradient inequality with the
//     error carried through.
func (s *Solver) proxRounding(lam, r, xt []float64, gradNorm, g float64) float64 {
	lamSum, lamB, lamR := 0.0, 0.0, 0.0
	for k, l := range lam {
		lamSum += l
		lamB += math.Abs(l * s.b[k])
		lamR += math.Abs(l * r[k])
	}
	eRow := 2 * math.Sqrt(float64(s.n+1)) * 0x1p-53
	eSum := 2 * math.Sqrt(float64(len(lam)+1)) * 0x1p-53
	d := eSum * (gradNorm + lamSum)
	return eRow*(math.Sqrt(vec.Dot(xt, xt))*lamSum+lamB) + eSum*lamR + (d*d/2+g*d)/s.mu
}

// sumRounding bounds the rounding the exact dual value takes from its sum
// w = c + A'lam over the kept unit rows (t = H^{-1}w): with large
// multipliers w is far smaller than its terms (FuzzTinyQP
// 44b00d34dd025a2f: 2e14 on rows of norm 5, w ~ 1e7 from terms ~1e15),
// and an error d in w moves the value by t'd, each entry of d within
// sqrt(k+1) eps of u = |c| + sum lam_k |a_k|; b'lam adds its terms'. As
// the engine's DualError (activeset/certificate.go): |t|'u is bounded by
// |t|'|c| + ||t|| sum lam first, and summed row by row only when that is
// not negligible against the value's own size g.
func (s *Solver) sumRounding(lam, t []float64, g float64) float64 {
	e := 2 * math.Sqrt(float64(len(lam)+1)) * 0x1p-53
	tc, tt := 0.0, 0.0
	for i, v := range t {
		tc += math.Abs(v * s.c[i])
		tt += v * v
	}
	lamSum, lamRHS := 0.0, 0.0
	for k, l := range lam {
		lamSum += l
		lamRHS += math.Abs(l * s.b[k])
	}
	tu := tc + math.Sqrt(tt)*lamSum
	if e*tu > 0x1p-40*(1+g) {
		tu = tc
		a := s.working()
		for k, l := range lam {
			if l == 0 {
				continue
			}
			d := 0.0
			for i, v := range a.Row(k) {
				d += math.Abs(v * t[i])
			}
			tu += l * d
		}
	}
	return e * (tu + lamRHS)
}

// wholeGap is the certified gap of the best pair on the whole problem,
// with x the best point: the gap on the kept rows plus the penalty the rows
// outside the kept block add at x (zero after a solved readmit check,
// possibly not after a budget stop).
func (s *Solver) wholeGap(rn *run, x []float64) float64 {
	return rn.best.gap + s.outsidePenalty(x, rn.best.xi)
}

// distBound is the certified distance ||x - x*|| <= sqrt(2 gap/mu) of a
// point with certified gap gap, when the point is feasible (to the rounding
// of evaluating its rows), and +Inf otherwise. For feasible x, F(x) - F* <=
// gap and mu/2 ||x - x*||^2 <= F(x) - F* (F is mu-strongly convex and x* is
// its minimiser over a convex set holding x). For infeasible x the gap
// bounds the distance to the minimiser of F + xi sum of violations, which
// is x* only when xi >= ||lambda*||_inf, and nothing certifies that: x can
// be anywhere (min x^2/2 - 50x s.t. x <= 0 with xi = 1 stops at x = 49).
func (s *Solver) distBound(gap float64, feasible bool) float64 {
	if !feasible {
		return math.Inf(1)
	}
	return math.Sqrt(2 * gap / s.mu)
}

// outsidePenalty is xi * sum (a_k^T x - b_k)_+ over the rows outside the
// kept block: what the penalised objective of the whole problem adds to
// that of the kept rows at x.
func (s *Solver) outsidePenalty(x []float64, xi float64) float64 {
	var p float64
	for k := s.kept; k < s.mw; k++ {
		if rk := s.rowResidual(k, x); rk > 0 {
			p += rk
		}
	}
	return xi * p
}

// maxPos returns max_j (r_j)_+: with the residuals r of the kept rows,
// their largest violation.
func maxPos(r []float64) float64 {
	var m float64
	for _, v := range r {
		if v > m {
			m = v
		}
	}
	return m
}

// snapToBounds moves each x_i within rounding of a bound (4 eps times the
// bound's magnitude plus ||x||_inf, the scale of the rounding in a step
// x + t d) onto it. The penalty method's and Newton's points reach a bound
// through such steps and can stop an ulp inside it; boundMultipliers then
// sees a free variable and reports no multiplier for a bound that holds x
// (a logistic loss with bounds: stationarity off by the missing multiplier,
// TestSeparableVariables). It allocates nothing.
func (s *Solver) snapToBounds(x []float64) {
	if s.lower == nil {
		return
	}
	scale := 0.0
	for _, v := range x {
		scale = math.Max(scale, math.Abs(v))
	}
	const eps = 0x1p-52
	for i, v := range x {
		if lo := s.lower[i]; v > lo && !math.IsInf(lo, 0) && v-lo <= 4*eps*(math.Abs(lo)+scale) {
			x[i] = lo
		}
		if hi := s.upper[i]; v < hi && !math.IsInf(hi, 0) && hi-v <= 4*eps*(math.Abs(hi)+scale) {
			x[i] = hi
		}
	}
}

// boundMultipliers sets z to the bounds' multipliers that stationarity
// leaves at the point x with the multipliers lam of the kept rows: with
// t = grad f(x) + A'lam (the smooth part's gradient and the rows') and w
// an l1 subgradient, z = -(t + w) on a bound x_i sits on, of the bound's
// sign (z_i >= 0 at an upper bound, <= 0 at a lower one) and as small as
// w in [-l1, l1] allows where x_i = 0; z_i = 0 off the bounds. At x* with
// lambda* it is the bounds' multiplier vector; for the penalty method's
// point it is the estimate its multipliers give. It costs one gradient
// and one product with the kept rows, and nothing without a box.
func (s *Solver) boundMultipliers(z, x, lam []float64) {
	clear(z)
	if s.lower == nil {
		return
	}
	s.smoothGrad(z, x)
	if len(lam) > 0 {
		s.working().MulTransVecAdd(z, lam)
	}
	for i, t := range z {
		lo, hi := s.l1, s.l1 // the range of w_i is [-lo, hi]
		switch {
		case x[i] > 0:
			lo = -s.l1
		case x[i] < 0:
			hi = -s.l1
		}
		// z_i = -t - w_i for w_i in [-lo, hi]: [-t - hi, -t + lo].
		switch {
		case s.lower[i] == s.upper[i]:
			// A fixed variable: either sign, the smallest in magnitude.
			z[i] = math.Max(0, -t-hi) + math.Min(0, -t+lo)
		case x[i] >= s.upper[i]:
			z[i] = math.Max(0, -t-hi)
		case x[i] <= s.lower[i]:
			z[i] = math.Min(0, -t+lo)
		default:
			z[i] = 0
		}
	}
}
