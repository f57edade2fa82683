package solver

import (
	"fmt"
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
// The dual bound is exact for the quadratic model and a subgradient bound
// otherwise (dualBound). Rows outside the working set add their
// penalty to the whole problem's gap (wholeGap).

// certificate is the best certified pair of a solve: the point state.best
// and the multipliers state.lamBest, with the two bounds whose difference
// is its gap. The bounds are each valid on their own, which lets
// certifyPoint pair a new point with the best multipliers and new
// multipliers with the best point.
type certificate struct {
	gap   float64 // certified gap of the pair
	floor float64 // the rounding allowance within gap, where quadGap or the difference form made it (0 otherwise)
	f     float64 // F(state.best)
	fErr  float64 // a bound on f's rounding where certifyPoint takes F - G (0 otherwise)
	pen   float64 // sum of the kept rows' violations at state.best
	g     float64 // dual bound G(state.lamBest)
	xi    float64 // the penalty of the pair's primal bound F_{xi,0}(state.best)
}

// noCertificate is the state before any certificate: an infinite gap.
func noCertificate() certificate { return certificate{gap: math.Inf(1), g: math.Inf(-1)} }

// forget drops the pair's gap and dual bound after the problem on the kept
// rows has changed (rows joined it); the point's values stay, and xi stays
// the penalty the result's gap is measured with until a new pair is found.
func (c *certificate) forget() { c.gap, c.g = math.Inf(1), math.Inf(-1) }

// solved reports whether the best certified gap meets the tolerance.
func (s *Solver) solved(rn *run) bool {
	return meetsTol(rn.best.gap, rn.best.f, s.opt.Tol)
}

// meetsTol reports whether gap certifies the objective f to tol:
// gap <= tol max(1, |f|), with gap and f finite. An objective that
// overflows float64 would pass the relative test as Inf <= tol Inf while
// certifying nothing (a row with b = -1e300 puts x near -5e299).
func meetsTol(gap, f, tol float64) bool {
	return gap <= tol*max(1, math.Abs(f)) && !math.IsInf(gap, 1) && !math.IsInf(f, 0)
}

// notFinite makes res the answer of a point whose objective or
// certificate is not finite in float64: precision_limit, with no gap and
// no distance bound. The message names the cause: a certificate that
// overflowed, or (a finite objective, a gap of +Inf) a quadratic model
// whose rounding reaches half the certified strong convexity, where
// userGap bounds nothing.
func (s *Solver) notFinite(res *Result) {
	swamped := !math.IsInf(res.Objective, 0) && !math.IsNaN(res.Objective) && math.IsInf(res.Gap, 1) &&
		s.modelH > 0 && !(s.mu-2*s.modelH > 0)
	res.Status, res.Gap, res.DistBound = StatusPrecisionLimit, math.Inf(1), math.Inf(1)
	res.Message = "the answer's objective or its certificate is not finite in float64 (x or the multipliers are too large for their products and sums): no certificate"
	if swamped {
		res.Message = fmt.Sprintf("the rounding of forming the quadratic model from the data (%.3g in H's 2-norm) reaches half "+
			"the objective's certified strong convexity %.3g, so no gap of the model bounds the caller's: no certificate "+
			"(a larger ridge, or the data's columns brought to comparable scales, can be certified)", s.modelH, s.mu)
	}
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
		lamMax = max(lamMax, l)
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
	if s.quad {
		return s.certifyQuad(rn, x, lam)
	}
	f, pen, xr := s.pointBounds(rn, x, lam)
	// f + fErr and pen (the violations' upper bound) bound F(x) and the
	// kept rows' violation from above, g bounds G(lam) from below: each
	// holds on its own, with every rounding in it, and may be paired.
	fErr := s.objectiveRounding(x)
	pen = s.penaltyUpper(x)
	ft, lr, gg, allow := s.proxStep(lam, x)
	g := ft + lr - gg/(2*s.mu) - allow - s.objectiveRounding(s.state.xt)
	gap := s.gapOf(f+fErr+xr*pen, g)
	// The pair's own gap in difference form, F(x) - F(x~) summed from
	// x - x~: F(x) and F(x~) are sums of terms of the size of x'Px that
	// cancel where P is ill-conditioned and x large, and their difference
	// is far smaller than their rounding.
	delta, deltaErr := s.objectiveDiff(x, s.state.xt)
	terms := math.Abs(delta) + xr*pen + math.Abs(lr) + gg/(2*s.mu)
	floor := deltaErr + allow + vec.DotErrorBound(5)*terms + vec.DotErrorBound(s.n+3)*gg/(2*s.mu) // gg's own sum
	diff := max(delta+xr*pen-lr+gg/(2*s.mu), 0) + floor
	if diff < gap {
		gap = diff
		g = max(g, f-fErr-diff) // F* >= F(x) - diff
	} else {
		floor = 0
	}
	withDual, withPoint := math.Inf(1), math.Inf(1)
	if !math.IsInf(rn.best.gap, 1) { // there is a best pair
		withDual = s.gapOf(f+fErr+rn.best.xi*pen, rn.best.g)          // x with the best multipliers
		withPoint = s.gapOf(rn.best.f+rn.best.fErr+xr*rn.best.pen, g) // lam with the best point
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
		rn.best.f, rn.best.fErr, rn.best.pen = f, fErr, pen
		copy(s.state.best, x)
		s.res.Polished = false
	}
	if newDual {
		rn.best.g, rn.best.xi = g, xr
		copy(s.state.lamBest[:s.kept], lam)
	}
	if newPoint || newDual {
		rn.best.gap = min(gap, withDual, withPoint)
		rn.best.floor = 0
		if newPoint && newDual {
			rn.best.floor = floor // the pair's own gap: atPrecisionFloor reads it
		}
	}
	return gap
}

// pointBounds returns F(x), the kept rows' summed violation pen at x, and
// the penalty xr = max(xi, 2 max lam) of the pair's primal bound
// F(x) + xr pen.
func (s *Solver) pointBounds(rn *run, x, lam []float64) (f, pen, xr float64) {
	r := s.state.r[:s.kept]
	s.residual(r, x)
	var lamMax float64
	for k, v := range r {
		if v > 0 {
			pen += v
		}
		lamMax = max(lamMax, lam[k])
	}
	return s.objective(x), pen, max(rn.sched.xi, 2*lamMax)
}

// certifyQuad is certifyPoint for the quadratic model, with the pairs'
// gaps from quadGap (proxQuadGap with l1 or a box) instead of the
// difference of F and G.
// rn.best.g is kept as the dual bound the best pair's gap implies.
func (s *Solver) certifyQuad(rn *run, x, lam []float64) float64 {
	f, pen, xr := s.pointBounds(rn, x, lam) // leaves A x - b in state.r
	gap, floor := s.quadGap(x, lam, xr, true)
	withDual, withPoint := math.Inf(1), math.Inf(1)
	var floorDual, floorPoint float64
	if !math.IsInf(rn.best.gap, 1) { // there is a best pair
		withDual, floorDual = s.quadGap(x, s.state.lamBest[:s.kept], rn.best.xi, true)
		withPoint, floorPoint = s.quadGap(s.state.best, lam, xr, false)
	}
	best := min(gap, withDual, withPoint)
	if !(best < rn.best.gap) {
		return gap
	}
	switch best {
	case gap:
		rn.best.f, rn.best.fErr, rn.best.pen, rn.best.xi, rn.best.floor = f, 0, pen, xr, floor
		copy(s.state.best, x)
		copy(s.state.lamBest[:s.kept], lam)
		s.res.Polished = false
	case withDual:
		rn.best.f, rn.best.fErr, rn.best.pen, rn.best.floor = f, 0, pen, floorDual
		copy(s.state.best, x)
		s.res.Polished = false
	default:
		rn.best.xi, rn.best.floor = xr, floorPoint
		copy(s.state.lamBest[:s.kept], lam)
	}
	rn.best.gap = best
	rn.best.g = rn.best.f + rn.best.xi*rn.best.pen - best
	return gap
}

// quadGap returns the certified gap of x with the multipliers lam >= 0 of
// the kept rows and the penalty xr >= max lam, for the quadratic model
// F(x) = c0 + c'x + 1/2 x'Hx (no l1, no box), and the part of it that is
// rounding allowance. F(x) + xr sum_k (r_k)_+ - G(lam), r = A x - b, is
//
//	1/2 g'H^-1 g + sum_k (xr (r_k)_+ - lam_k r_k),  g = H x + c + A'lam,
//
// the Lagrangian's gap at x (its gradient g in the norm of H^-1) and the
// rows' part, each term >= 0. Taken as the difference of F(x) and G(lam)
// instead, each a sum of terms of the size of x'Hx that cancel to F's far
// smaller value when x is large and H ill-conditioned, the gap's rounding
// was charged relative to F and G themselves: on random QPs of three
// variables with eigenvalues of H down to 1e-6 the penalty method reported
// gaps up to 6.6e4 times below F(x) - F* (exact, in rationals), and
// distance bounds below ||x - x*||. Here the sums are of small quantities
// near x*, and each rounding is bounded: g's (lagrangianGrad), the
// solve's and its effect on the half (halfGap), and r's (rowsGap).
// With l1 or a box, proxQuadGap takes the gap instead.
//
// With haveR, state.r holds A x - b already (pointBounds left it there);
// otherwise quadGap computes it there. It uses state.g, state.xt and
// state.tmp as scratch.
func (s *Solver) quadGap(x, lam []float64, xr float64, haveR bool) (gap, floor float64) {
	if s.hasProx() {
		return s.proxQuadGap(x, lam, xr, haveR)
	}
	g, t, e := s.state.g, s.state.xt, s.state.tmp
	xNorm, eNorm, gNorm := s.lagrangianGrad(g, e, x, lam)
	half, slack := s.halfGap(g, t, eNorm, gNorm)
	rowsPart, rowsAbs, rowsSlack := s.rowsGap(x, lam, xr, xNorm, haveR)
	slack += rowsSlack
	// The sums just taken, each of at most n + kept + 2 nonnegative terms
	// (up to their own rounding), and half itself.
	sumErr := vec.DotErrorBound(s.n+s.kept+4) * (math.Abs(half) + slack + rowsAbs)
	floor = slack + sumErr
	return max(half, 0) + max(rowsPart, 0) + floor, floor
}

// lagrangianGrad sets g = H x + c + A'lam, the gradient of the Lagrangian
// at x, and e to a componentwise bound on its rounding,
// gamma (|H||x| + |c| + |A'||lam|), with |H||x| bounded by Cauchy-Schwarz,
// ||H_i|| ||x|| (the row norms taken once), and |A'||lam| by sum lam (the
// working rows have unit norm): loose by up to sqrt(n), but without a
// pass of scalar absolute products over H and the rows for each pair
// (those made the penalty method's certificates a third of its time on
// the paper QP). It returns ||x||, ||e|| and ||g||.
func (s *Solver) lagrangianGrad(g, e, x, lam []float64) (xNorm, eNorm, gNorm float64) {
	n := s.n
	s.ensureHRowNorm()
	xNorm = math.Sqrt(vec.Dot(x, x))
	var lamSum float64
	for _, l := range lam[:s.kept] {
		lamSum += l
	}
	s.h.MulVec(g, x)
	for i := 0; i < n; i++ {
		g[i] += s.c[i]
		e[i] = s.hRowNorm[i]*xNorm + math.Abs(s.c[i]) + lamSum
	}
	if s.kept > 0 {
		s.working().MulTransVecAdd(g, lam[:s.kept])
	}
	gamma := vec.DotErrorBound(n + s.kept + 2)
	for i := range e {
		e[i] *= gamma
		eNorm += e[i] * e[i]
		gNorm += g[i] * g[i]
	}
	return xNorm, math.Sqrt(eNorm), math.Sqrt(gNorm)
}

// ensureHRowNorm makes hRowNorm and hDiagMax at the first certificate.
func (s *Solver) ensureHRowNorm() {
	if s.hRowNorm != nil {
		return
	}
	s.hRowNorm = make([]float64, s.n)
	for i := range s.hRowNorm {
		row := s.h.Row(i)
		s.hRowNorm[i] = math.Sqrt(vec.Dot(row, row))
		s.hDiagMax = max(s.hDiagMax, row[i])
	}
}

// halfGap returns 1/2 g'H^-1 g for the computed g (t = H^-1 g is left in
// t) and the slack that bounds its rounding and that of g, whose error is
// at most eNorm in norm:
//   - the solve's, by the backward error of the Cholesky factor and its
//     triangular solves (each within gamma_{n+1} |L|, mat.Cholesky.SolveL),
//     |dH| <= gamma_{3n+3} |L||L'|, whose norm is at most
//     gamma_{3n+3} n max_i H_ii: with u = H^-1 g,
//     1/2 g'u <= 1/2 g't + ||dH|| ||t||^2 once ||dH|| <= mu/2 (then
//     ||u|| <= 2 ||t||), and 1/2 g'u <= ||g||^2 / (2 mu) otherwise;
//   - g's, 1/2 (g - d)'H^-1 (g - d) <= 1/2 g'u + ||d|| ||u|| +
//     ||d||^2 / (2 mu) for ||d|| <= eNorm.
func (s *Solver) halfGap(g, t []float64, eNorm, gNorm float64) (half, slack float64) {
	s.chol.Solve(t, g)
	dH := vec.DotErrorBound(3*s.n+3) * float64(s.n) * s.hDiagMax
	var uNorm float64
	if dH <= s.mu/2 {
		tNorm := math.Sqrt(vec.Dot(t, t))
		half = 0.5 * vec.Dot(g, t)
		slack = dH * tNorm * tNorm
		uNorm = 2 * tNorm
	} else {
		half = gNorm * gNorm / (2 * s.mu)
		uNorm = gNorm / s.mu
	}
	return half, slack + eNorm*uNorm + eNorm*eNorm/(2*s.mu)
}

// rowsGap returns the rows' part of the gap, sum_k (xr (r_k)_+ - lam_k r_k)
// with r = A x - b, the sum of its terms' magnitudes, and the slack for
// r's rounding: gamma (||x|| + |b_k|) per unit row, weighed by what a
// unit of r_k moves its term (lam_k, and xr where r_k may be positive).
// With haveR, state.r holds A x - b already; otherwise it is computed
// there.
func (s *Solver) rowsGap(x, lam []float64, xr, xNorm float64, haveR bool) (part, abs, slack float64) {
	r := s.state.r[:s.kept]
	if !haveR {
		s.residual(r, x)
	}
	gr := vec.DotErrorBound(s.n + 1)
	for k, rk := range r {
		term := -lam[k] * rk
		if rk > 0 {
			term += xr * rk
		}
		part += term
		abs += math.Abs(term)
		err := gr * (xNorm + math.Abs(s.b[k])) // |a_k|'|x| <= ||x||: unit rows
		weight := lam[k]
		if rk+err > 0 {
			weight += xr
		}
		slack += weight * err
	}
	return part, abs, slack
}

// proxQuadGap is quadGap for the quadratic model with l1 and/or a box,
// F(x) = c0 + c'x + 1/2 x'Hx + l1 ||x||_1 on the box. With
// L(v) = F(v) + lam'(A v - b), for any y in the box and any subgradient s
// of L at y, L(v) >= L(y) + s'(v - y) + 1/2 (v - y)'H(v - y) for every v,
// so G(lam) = min L >= L(y) - 1/2 s'H^-1 s, and
//
//	F(x) + xr sum_k (r_k)_+ - G(lam)
//	  <= [L(x) - L(y)] + 1/2 s'H^-1 s + sum_k (xr (r_k)_+ - lam_k r_k),
//
// the rows' part as in quadGap. y is the proximal-gradient step from x
// with step 1/lfCert: it puts on 0 and on the bounds the entries that
// belong there, where the subdifferential is an interval and the
// least-norm subgradient s, taken here, is small. L(x) - L(y) is summed
// from d = x - y, as w'd - 1/2 d'Hd + l1 (||x||_1 - ||y||_1) with
// w = H x + c + A'lam, whose terms are small where x is near the answer.
// Taken as F(x) minus L(y) - ||G||^2 / (2 mu) (dualBound), two sums of
// terms of the size of x'Hx cancel: on random QPs of two to four
// variables with eigenvalues of H down to 1e-6 and l1, the penalty method
// reported gaps up to 5e4 times below F(x) - F* (exact, in rationals).
// Each rounding is bounded:
//   - w's, as lagrangianGrad's, and that of the gradient at y, taken as
//     w - H d (no second product with H): w's error plus gamma times
//     ||H_i|| ||d|| (H d's) and |w_i - (H d)_i| (the difference's); s is within
//     the latter (plus the rounding of adding l1) of the least-norm
//     subgradient of the exact gradient (a projection moves nothing
//     farther), and halfGap carries that through;
//   - w'd, by sum e_i |d_i| (w's error) and gamma sum |w_i d_i| (d's and
//     the sum's); d'Hd by gamma sum |d_i| ||H_i|| ||d||; the l1 terms,
//     gamma l1 sum ||x_i| - |y_i||.
//
// It uses state.g, state.xt, state.tmp, state.gy and state.hd.
func (s *Solver) proxQuadGap(x, lam []float64, xr float64, haveR bool) (gap, floor float64) {
	n := s.n
	w, y, e, gy, hd := s.state.g, s.state.xt, s.state.tmp, s.state.gy, s.state.hd
	xNorm, _, _ := s.lagrangianGrad(w, e, x, lam)
	// y = prox(x - alpha w), each entry's branch decided without forming
	// x - alpha w (whose rounding, for large x, can exceed the step).
	alpha := 0.0
	if s.lfCert > 0 {
		alpha = 1 / s.lfCert
	}
	for i, xi := range x {
		yi := xi - alpha*w[i]
		if s.l1 > 0 {
			switch up, dn := alpha*(w[i]+s.l1), alpha*(w[i]-s.l1); {
			case xi > up:
				yi = xi - up
			case xi < dn:
				yi = xi - dn
			default:
				yi = 0
			}
		}
		if s.lower != nil {
			yi = min(max(yi, s.lower[i]), s.upper[i])
		}
		y[i] = yi
	}
	// L(x) - L(y) from d = x - y.
	var wd, wdAbs, wdErr, l1d, l1Abs, dNorm float64
	for i, xi := range x {
		d := xi - y[i]
		hd[i] = d
		wd += w[i] * d
		wdAbs += math.Abs(w[i] * d)
		wdErr += e[i] * math.Abs(d)
		dNorm += d * d
		if s.l1 > 0 {
			t := math.Abs(xi) - math.Abs(y[i])
			l1d += t
			l1Abs += math.Abs(t)
		}
	}
	dNorm = math.Sqrt(dNorm)
	copy(gy, hd)
	s.h.MulVec(hd, gy) // H d
	dHd, dHdErr := vec.Dot(gy, hd), 0.0
	// The Lagrangian's gradient at y is w - H d (H y = H x - H d), with
	// the error of w, of H d (|H_i||d| <= ||H_i|| ||d||) and of the
	// difference.
	var eyNorm float64
	gammaD := vec.DotErrorBound(n + 1)
	for i, d := range gy {
		hdErr := s.hRowNorm[i] * dNorm
		dHdErr += math.Abs(d) * hdErr
		g := w[i] - hd[i]
		ey := e[i] + gammaD*(hdErr+math.Abs(g))
		eyNorm += ey * ey
		gy[i] = g
	}
	eyNorm = math.Sqrt(eyNorm)
	diff := wd - 0.5*dHd + s.l1*l1d
	// The least-norm subgradient at y, in gy, and its error bound.
	sNorm, sErr := s.leastSubgradient(gy, y)
	sNorm, sErr = math.Sqrt(sNorm), eyNorm+math.Sqrt(sErr)
	half, slack := s.halfGap(gy, y, sErr, sNorm)
	rowsPart, rowsAbs, rowsSlack := s.rowsGap(x, lam, xr, xNorm, haveR)
	gamma := vec.DotErrorBound(n + 2)
	slack += rowsSlack + wdErr + gamma*(wdAbs+dHdErr+s.l1*l1Abs)
	sumErr := vec.DotErrorBound(n+s.kept+6) * (math.Abs(half) + slack + rowsAbs + wdAbs + math.Abs(dHd) + s.l1*l1Abs)
	floor = slack + sumErr
	return max(diff+max(half, 0)+max(rowsPart, 0), 0) + floor, floor
}

// leastSubgradient turns g, the gradient of the smooth part of a
// Lagrangian at y (y in the box), into the least-norm subgradient of the
// whole at y, l1 and the box's normal cone included, and returns the sum
// of its squares and of the squares of adding l1's rounding.
func (s *Solver) leastSubgradient(g, y []float64) (sq, errSq float64) {
	for i, v := range g {
		if s.l1 > 0 {
			switch {
			case y[i] > 0:
				v += s.l1
			case y[i] < 0:
				v -= s.l1
			case v > s.l1:
				v -= s.l1
			case v < -s.l1:
				v += s.l1
			default:
				v = 0
			}
			errSq += (0x1p-52 * math.Abs(v)) * (0x1p-52 * math.Abs(v))
		}
		if s.lower != nil {
			if (y[i] == s.lower[i] && v > 0) || (y[i] == s.upper[i] && v < 0) {
				v = 0
			}
		}
		g[i] = v
		sq += v * v
	}
	return sq, errSq
}

// gapOf is the certified gap between an upper value fu and a lower bound g,
// plus an allowance for the rounding in evaluating both: each is a sum of
// O(n) products, so their computed values carry errors of a few
// sqrt(n)*eps relative to their magnitudes (with a factor 16 of margin). A
// gap is never reported as exactly zero.
func (s *Solver) gapOf(fu, g float64) float64 {
	return max(fu-g, 0) + s.rounding(fu, g)
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
	return !math.IsInf(b.gap, 1) && b.gap <= 2*max(b.floor, s.rounding(b.f+b.xi*b.pen, b.g))
}

// dualBound returns a certified lower bound on F* from multipliers lam >= 0 of
// the kept working rows (dropped rows count with multiplier 0).
//
// For the quadratic model without l1 or box, the dual function is exact:
// G(lam) = c0 - b^T lam - 1/2 w^T H^{-1} w, w = c + A^T lam.
// Otherwise G(lam) >= L(x~, lam) - ||g||^2 / (2 mu), with x~ the proximal
// gradient step from x on L(., lam) with step 1/L_f and g the least-norm
// subgradient of L(., lam) there (proxStep; DESIGN.md, "Certified duality
// gap"; paper Lemma 3.1).
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
	ft, lr, gg, allow := s.proxStep(lam, x)
	return ft + lr - gg/(2*s.mu) - allow - s.objectiveRounding(s.state.xt)
}

// proxStep takes x~ = prox(x - alpha w), alpha = 1/lfCert and w the
// gradient of the smooth part of L(., lam) at x, into state.xt, and
// returns F(x~), lr = lam'(A x~ - b) (leaving A x~ - b in state.r), the
// squared norm gg of the least-norm subgradient s of L(., lam) at x~, and
// the rounding allowance of lr - gg/(2 mu) (proxRounding); F(x~)'s own is
// objectiveRounding's. L(., lam) is mu-strongly convex, so for any x~ in
// the box and any s in its subdifferential there, G(lam) >= L(x~, lam) -
// ||s||^2 / (2 mu). The step only chooses x~ (it puts on 0 and on the
// bounds the entries that belong there, where s is small): the bound
// holds whatever rounding made x~, where the gradient mapping (x -
// x~)/alpha of Lemma 3.1 is s only for the exact step (a step below x's
// ulp makes x~ = x and the mapping 0, whatever the gradient).
func (s *Solver) proxStep(lam, x []float64) (ft, lr, gg, allow float64) {
	w, t := s.state.g, s.state.xt
	alpha := 1 / s.lfCert
	s.smoothGrad(w, x)
	if s.kept > 0 {
		s.working().MulTransVecAdd(w, lam[:s.kept])
	}
	copy(t, x)
	vec.Axpy(-alpha, w, t)
	s.prox(t, alpha)
	s.smoothGrad(w, t)
	gradNorm := math.Sqrt(vec.Dot(w, w))
	if s.kept > 0 {
		s.working().MulTransVecAdd(w, lam[:s.kept])
	}
	gg, errSq := s.leastSubgradient(w, t)
	gErr := s.gradRounding(math.Sqrt(vec.Dot(t, t))) + math.Sqrt(errSq)
	ft = s.objective(t) // phi x~ stays in the cache for objectiveDiff (phiX)
	r := s.state.r[:s.kept]
	if s.kept > 0 {
		s.residual(r, t)
		lr = vec.Dot(lam[:s.kept], r)
	}
	return ft, lr, gg, s.proxRounding(lam[:s.kept], r, t, gradNorm, gErr, math.Sqrt(gg))
}

// proxRounding bounds what rounding takes from the proximal branch of
// dualBound, whose sums, with large multipliers, are far larger than the
// value (testqp.HugeMultipliers with a box: lam'(A x~ - b) from terms
// ~1e21, off by 3e5 of 1.4e14), each entry within sqrt(k+1) eps of its
// terms' magnitude as in sumRounding:
//   - lam'(A x~ - b): each residual r_k of a unit row is within
//     eRow (||x~|| + |b_k|) of its value, and the sum of the products
//     within eSum sum |lam_k r_k|;
//   - the subgradient s = grad f(x~) + A'lam (+ l1's and the box's part)
//     is within d = eSum (||grad f(x~)|| + sum lam) of its value (2-norm,
//     unit rows), plus gErr (grad f(x~)'s own rounding, gradRounding, and
//     l1's); a subgradient off by d lowers the bound L(x~, lam) -
//     ||s||^2 / (2 mu) by at most (d^2/2 + ||s|| d) / mu (g = ||s||).
func (s *Solver) proxRounding(lam, r, xt []float64, gradNorm, gErr, g float64) float64 {
	lamSum, lamB, lamR := 0.0, 0.0, 0.0
	for k, l := range lam {
		lamSum += l
		lamB += math.Abs(l * s.b[k])
		lamR += math.Abs(l * r[k])
	}
	eRow := 2 * math.Sqrt(float64(s.n+1)) * 0x1p-53
	eSum := 2 * math.Sqrt(float64(len(lam)+1)) * 0x1p-53
	d := eSum*(gradNorm+lamSum) + gErr
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
	// mu - modelH bounds the caller's Hessian (userGap).
	if mu := s.mu - s.modelH; mu > 0 {
		if v := 2 * gap / mu; v >= 0x1p-1022 || gap == 0 {
			return math.Sqrt(v)
		}
		// 2 gap / mu underflows (a gap of underflowFloor's size, a large
		// mu): the roots apart keep the bound in range.
		return math.Sqrt(2*gap) / math.Sqrt(mu) * (1 + 0x1p-50)
	}
	// In the metric of H's diagonal (scaledGap, where it was needed): the
	// caller's Hessian is at least (mu_S - scaledH) S^2, so ||S (x - x*)||
	// <= sqrt(2 gap / (mu_S - scaledH)), and ||x - x*|| that over min S_j.
	if mu := s.scaledMu - s.scaledH; s.scaledMu > 0 && mu > 0 {
		minS := math.Inf(1)
		for _, v := range s.scaledS {
			minS = min(minS, v)
		}
		return math.Sqrt(2*gap) / math.Sqrt(mu) / minS * (1 + 0x1p-50)
	}
	return math.Inf(1)
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
		scale = max(scale, math.Abs(v))
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
			z[i] = max(0, -t-hi) + min(0, -t+lo)
		case x[i] >= s.upper[i]:
			z[i] = max(0, -t-hi)
		case x[i] <= s.lower[i]:
			z[i] = min(0, -t+lo)
		default:
			z[i] = 0
		}
	}
}
