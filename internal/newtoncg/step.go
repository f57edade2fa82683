package newtoncg

import "math"

// orthantBox sets, for the iteration at x with smooth gradient g:
//
//   - gp, the slope of F along each variable on the orthant the step will
//     stay in: g_j + l1 sign, the sign of x_j, or for x_j = 0 the side on
//     which F decreases (none when |g_j| <= l1: the variable stays at 0);
//   - [lo_j, hi_j], the bounds intersected with that orthant, on which F is
//     smooth;
//   - free, the variables the Newton system moves: those not within eps of
//     an end of their interval with gp pushing them onto it (Bertsekas'
//     eps-active set, eps = min(1e-3, ||x - P(x - D^-1 gp)||_inf) with D
//     the Hessian's diagonal, which lets variables reach their bounds in
//     one step instead of zigzagging). The gradient is scaled by D as the
//     steps of the bound variables are: unscaled, a variable at 4e-4 with
//     gp = 0.11 and H_jj = 300 (coupled to another through a row of A at
//     a large rho) had eps = its own distance to 0 at every iteration and
//     was never freed, and the solve crept to its iteration limit in
//     scaled-gradient steps (FuzzTinySparse).
//
// It returns ||gp|| over the free variables.
func (w *Workspace) orthantBox() float64 {
	l1 := w.p.L1
	var pg float64 // ||x - P(x - gp)||_inf
	for j, xj := range w.x {
		g, lo, hi := w.g[j], w.lower(j), w.upper(j)
		if l1 > 0 {
			switch {
			case xj > 0 || (xj == 0 && g+l1 < 0 && hi > 0):
				g += l1
				lo = max(lo, 0)
			case xj < 0 || (xj == 0 && g-l1 > 0 && lo < 0):
				g -= l1
				hi = min(hi, 0)
			default:
				g, lo, hi = 0, 0, 0
			}
		}
		w.gp[j], w.lo[j], w.hi[j] = g, lo, hi
		pg = max(pg, math.Abs(xj-min(max(xj-g/w.hdiag[j], lo), hi)))
	}
	eps := min(1e-3, pg)
	var norm2 float64
	for j, xj := range w.x {
		g, lo, hi := w.gp[j], w.lo[j], w.hi[j]
		bound := lo == hi || (xj <= lo+eps && g > 0) || (xj >= hi-eps && g < 0)
		w.free[j] = !bound
		if !bound {
			norm2 += g * g
		}
	}
	return math.Sqrt(norm2)
}

// lineSearch tries x(alpha) = P(x + alpha d) onto the iteration's box for
// alpha = 1, 1/2, ... until the Armijo condition
// F(x(alpha)) <= F(x) + 1e-4 gp'(x(alpha) - x) holds, with F the function
// the steps lower (F_rho of constraints.go with rows of A; f its value at
// x), leaving the point in xNew, Phi xNew in tNew and A xNew - b in rANew,
// and returns F (without the rows' penalty) and F_rho there. A step whose predicted
// decrease is below the rounding of F is taken if F does not rise beyond
// that rounding: near x* the certificate, not F, tells progress. ok is
// false when no step passes (or the direction is zero).
func (w *Workspace) lineSearch(f float64) (fNew, fInNew float64, ok bool) {
	const eps = 0x1p-52
	round := 16 * eps * max(1, math.Abs(f))
	alpha := 1.0
	for try := 0; try < 40; try++ {
		var pred float64
		moved := false
		for j, xj := range w.x {
			v := xj
			if dj := w.d[j]; dj != 0 {
				v = min(max(xj+alpha*dj, w.lo[j]), w.hi[j])
			}
			w.xNew[j] = v
			if v != xj {
				moved = true
				pred += w.gp[j] * (v - xj)
			}
		}
		if !moved {
			return f, f, false
		}
		w.team.MulVec(w.tNew, w.xNew)
		w.passes++
		if w.p.A != nil {
			w.residualA(w.rANew, w.xNew)
		}
		fNew = w.objective(w.xNew, w.tNew)
		fInNew = w.innerObjective(fNew, w.rANew)
		if fInNew <= f+1e-4*pred || (-pred <= round && fInNew <= f+round) {
			return fNew, fInNew, true
		}
		alpha /= 2
	}
	return f, f, false
}
