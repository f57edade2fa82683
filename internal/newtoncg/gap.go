package newtoncg

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// The certified duality gap of the model
//
//	F(x) = (1/l) sum_i f_i(phi_i'x) + sum_j g_j(x_j),
//	g_j(v) = ridge/2 v^2 + q_j v + l1 |v| + [lower_j <= v <= upper_j],
//
// by Fenchel duality: for any a with f_i*(a_i) finite,
//
//	F* >= D(a) = -(1/l) sum_i f_i*(a_i) - sum_j g_j*(w_j),  w = -Phi'a / l,
//
// since f_i(t) >= a_i t - f_i*(a_i) and g_j(v) >= w_j v - g_j*(w_j). The
// certificate takes a_i = f_i'(t_i) at t = Phi x, where Fenchel-Young holds
// with equality for the loss (f(t) + f*(f'(t)) = f'(t) t), so that
//
//	F(x) - D(a) = sum_j [g_j(x_j) + g_j*(w_j) - w_j x_j],
//
// a sum of nonnegative terms, one a variable, computed without the
// cancellation of two large objective values: the gap is certified to a few
// ulp of the terms, not of F. g_j* is closed-form: with u = w_j - q_j its
// maximiser is z_j = clip(soft(u, l1)/ridge, lower_j, upper_j) (a concave
// function of one variable is maximised over an interval at the clipped
// unconstrained maximiser), and
//
//	g_j(x) + g_j*(w) - w x = ridge/2 (x - z)^2 + (x - z)(ridge z - u) + l1 (|x| - |z|).
//
// The allowance for rounding covers: t computed, not exact (a second-order
// term, f'' <= maxCurvature), w computed (each s_j = (Phi'a)_j a sum of at
// most colMax products), each term's arithmetic, and the final sum. As x
// tends to x*, z tends to x* too, so the gap tends to zero: it certifies
// any tolerance the rounding of the terms allows.
//
// With rows A x <= b (constraints.go) the same sum is the gap of the
// augmented Lagrangian's F_rho, whose rows are one more loss: w gains
// -A'lhat (kept apart in sA, unscaled by l), and its rounding gains the
// bound from |A|'lhat with A's column counts.

// gapTerms returns the certified gap at x given s = Phi'a (a = f'(Phi x))
// and sAbs = |Phi|'|a|, each computed in row order.
func (w *Workspace) gapTerms(x, s, sAbs []float64) float64 {
	p := &w.p
	il := 1 / float64(p.X.Rows)
	gCol := vec.DotErrorBound(w.colMax + 1)
	gColA := vec.DotErrorBound(w.colMaxA + 1)
	const eps = 0x1p-52
	var sum, sumAbs, allow float64
	for j, xj := range x {
		wj := -s[j] * il
		if p.A != nil {
			wj -= w.sA[j]
		}
		u := wj
		if p.Q != nil {
			u -= p.Q[j]
		}
		z := SoftThreshold(u, p.L1) / p.Ridge
		z = min(max(z, w.lower(j)), w.upper(j))
		dx := xj - z
		slack := p.Ridge*z - u
		term := 0.5*p.Ridge*dx*dx + dx*slack + p.L1*(math.Abs(xj)-math.Abs(z))
		sum += term
		sumAbs += math.Abs(term)
		// w's rounding moves the term by at most |z - x| dw + dw^2/(2 ridge)
		// (g_j* has derivative z and 1/ridge-Lipschitz slope).
		dw := gCol*sAbs[j]*il + eps*math.Abs(wj)
		if p.A != nil {
			dw += gColA*w.sAbsA[j] + eps*math.Abs(wj)
		}
		allow += math.Abs(dx)*dw + dw*dw/(2*p.Ridge)
		// The term's own arithmetic, and z not the exact maximiser.
		allow += 4 * eps * (0.5*p.Ridge*dx*dx + math.Abs(dx*slack) + p.L1*(math.Abs(xj)+math.Abs(z)) + p.Ridge*z*z)
	}
	// t = Phi x rounded: f(t) - f(t~) - f'(t~)(t - t~) <= f''max/2 (t - t~)^2,
	// |t - t~| <= gamma_row ||phi_i|| ||x|| (Cauchy-Schwarz on the products).
	dt := vec.DotErrorBound(w.rowMax+1) * w.rowNormMax * math.Sqrt(vec.Dot(x, x))
	allow += 0.5 * p.Loss.maxCurvature() * dt * dt
	w.allow = allow + vec.DotErrorBound(len(x)+1)*sumAbs
	return sum + w.allow
}

// Certify makes x the workspace's point (copied; x itself is only read)
// and returns F(x) and the certified gap F(x) - F* <= gap of the sum
// above, for any x in the bounds, wherever it comes from: a solve of
// another method uses the workspace as its certificate. After it, Slopes
// and Sums hold f_i'(phi_i'x) and Phi' of them, and Multipliers the bounds'
// multipliers at x (Result.Z). Without rows of A only (it panics with
// them: their gap needs the multipliers of the augmented Lagrangian). It
// makes two passes over the rows and allocates nothing.
func (w *Workspace) Certify(x []float64) (f, gap float64) {
	if w.p.A != nil {
		panic("newtoncg: Certify with rows of A")
	}
	copy(w.x, x)
	w.team.MulVec(w.t, w.x)
	f = w.objective(w.x, w.t)
	w.derivatives()
	w.multipliers()
	gap = w.gapTerms(w.x, w.s, w.sAbs)
	w.certAllow = w.allow
	return f, gap
}

// Allowance returns the part of the last Certify's gap that is the
// allowance for rounding: a gap within a small multiple of it is at the
// certificate's floor, which more iterations cannot lower much.
func (w *Workspace) Allowance() float64 { return w.certAllow }

// GapWith returns the certified gap at the point of the last Certify of
// the same model with ridge and q (nil: none) in place of the problem's,
// and the part of it that is the allowance for rounding: the passes over
// the rows are the same, only the sum of gap.go differs. It allocates
// nothing and leaves Allowance as it was.
func (w *Workspace) GapWith(ridge float64, q []float64) (gap, allow float64) {
	r0, q0 := w.p.Ridge, w.p.Q
	w.p.Ridge, w.p.Q = ridge, q
	gap = w.gapTerms(w.x, w.s, w.sAbs)
	w.p.Ridge, w.p.Q = r0, q0
	return gap, w.allow
}

// Slopes returns f_i'(phi_i'x) at the point of the last Certify (aliases
// the workspace).
func (w *Workspace) Slopes() []float64 { return w.slope }

// Sums returns Phi' Slopes(), unscaled by 1/l, at the point of the last
// Certify (aliases the workspace).
func (w *Workspace) Sums() []float64 { return w.s }

// Multipliers returns the bounds' multipliers (as Result.Z) at the point
// of the last Certify (aliases the workspace).
func (w *Workspace) Multipliers() []float64 { return w.zb }

// SoftThreshold returns sign(u) max(|u| - k, 0), the prox of k |.|.
func SoftThreshold(u, k float64) float64 {
	switch {
	case u > k:
		return u - k
	case u < -k:
		return u + k
	}
	return 0
}
