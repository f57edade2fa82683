package newtoncg

import (
	"math"

	"github.com/softpen/softpen/softplus"
)

// The certificate of a point of the softplus penalty method (the paper's
// F_{xi,delta}, whose rows of A enter as xi delta s(r_i/delta), s the
// softplus), for a solver that runs that method on this workspace's
// problem and uses the workspace only to certify (the lazy SVRG). The
// penalty's own multipliers, lhat_i = xi sigmoid(r_i/delta) (the paper's
// dual map, (4.3)), take the place of the augmented Lagrangian's in
// gap.go's sum and in the constraints' part of constraints.go, so that
//
//	inner = gapTerms(x)  (lhat'A in w), the gap of F_{xi,delta} itself:
//	        its rows, like the loss, meet Fenchel-Young with equality at
//	        their own slopes;
//	gap   = inner + sum_i (xr (r_i)_+ - lhat_i r_i), the certified gap of
//	        the constrained problem with the exact penalty xr = max(xi,
//	        2 max_i lhat_i) (as the dense path's certificate: valid once
//	        xr >= ||lambda*||_inf, which nothing certifies).

// CertifyPenalty makes x the workspace's point (copied; x is only read)
// and returns F(x), the gap of the penalised problem F_{xi,delta} at x
// (inner: to steer the penalty's schedule; its rounding of A x is not
// charged), the certified gap of the constrained problem (gap, with every
// rounding charged as Solve's), the largest violation max_i (A x - b)_i^+
// and the largest relative to its row's terms (as Solve's Tol asks of
// each row). After it, Slopes, Sums and Multipliers are as after Certify,
// and PenaltySlopes and PenaltySums hold lhat and A'lhat, Residuals A x -
// b. Rows with drop[i] (nil: none) take lhat_i = 0: rows screened out of
// the penalised problem, whose exact-penalty terms stay in the gap (any
// lhat >= 0 gives a dual bound). xi > 0, delta > 0; the problem must have
// rows of A. Two passes over the rows of Phi and of A; it allocates
// nothing.
func (w *Workspace) CertifyPenalty(x []float64, xi, delta float64, drop []bool) (f, inner, gap, viol, rel float64) {
	copy(w.x, x)
	w.team.MulVec(w.t, w.x)
	f = w.objective(w.x, w.t)
	w.residualA(w.rA, w.x)
	w.penXi, w.penDelta, w.penDrop = xi, delta, drop
	w.derivatives()
	w.penXi, w.penDelta, w.penDrop = 0, 0, nil
	w.multipliers()
	inner = w.gapTerms(w.x, w.s, w.sAbs)
	w.certAllow = w.allow
	xr := xi
	for _, l := range w.lhat {
		xr = max(xr, 2*l)
	}
	var gapA float64
	gapA, viol, rel = w.gapA(w.x, xr)
	return f, inner, inner + gapA, viol, rel
}

// penaltyDerivativesA sets lhat = xi sigmoid(r/delta) at the current r,
// with no curvature (the certificate needs none), and their sums.
func (w *Workspace) penaltyDerivativesA() {
	for i, ri := range w.rA {
		w.lhat[i] = w.penXi * softplus.Sigmoid(ri/w.penDelta)
		if w.penDrop != nil && w.penDrop[i] {
			w.lhat[i] = 0
		}
		w.curvA[i] = 0
	}
	w.sumsA()
}

// Residuals returns A x - b at the point of the last CertifyPenalty
// (aliases the workspace).
func (w *Workspace) Residuals() []float64 { return w.rA }

// PenaltySlopes returns lhat at the point of the last CertifyPenalty
// (aliases the workspace).
func (w *Workspace) PenaltySlopes() []float64 { return w.lhat }

// PenaltySums returns A'lhat at the point of the last CertifyPenalty
// (aliases the workspace; a FarkasFromSlopes overwrites it).
func (w *Workspace) PenaltySums() []float64 { return w.sA }

// FarkasFromSlopes tries the multipliers of the last CertifyPenalty as a
// certificate that no x in the bounds satisfies A x <= b (as Solve does
// with the augmented Lagrangian's: a penalty whose multipliers saturate
// at a growing xi points along such a y). On success it returns y (largest
// entry 1; aliases the workspace). It uses PenaltySums' storage as
// scratch, and allocates only for an exact sum (see checkFarkas).
func (w *Workspace) FarkasFromSlopes() ([]float64, bool) {
	if w.p.A == nil || !w.infeasible() {
		return nil, false
	}
	return w.farkas, true
}

// FarkasFrom tries v >= 0 on the rows of A (a row's weight, such as its
// violation at a minimiser of the squared violation; v is not changed) as
// FarkasFromSlopes tries the multipliers, but the indicators of its large
// entries first (see residualTries), and before v itself its ratios to
// its largest entry replaced by the simplest fractions within
// farkasSnapTols of them: v from an approximate minimiser has
// A'v = 0 only to the minimisation's error, far above the rounding that
// checkFarkas allows where a column has no bound (rows x_0 - x_1 <= -1,
// 2 x_1 - 2 x_0 <= 0 gave v = (1, 0.50000000000153)), while the
// certificate it approximates often has short entries (1, 1/2). Every
// candidate is checked as FarkasFromSlopes' are. On success it returns y
// (largest entry 1; aliases the workspace). It uses PenaltySums' storage
// as scratch, and allocates only for an exact sum.
func (w *Workspace) FarkasFrom(v []float64) ([]float64, bool) {
	if w.p.A == nil {
		return nil, false
	}
	var vmax float64
	for _, l := range v {
		vmax = max(vmax, l)
	}
	if !(vmax > 0) || math.IsInf(vmax, 1) {
		return nil, false
	}
	if w.farkasOf(v, residualTries[:len(residualTries)-1]) || w.snappedFarkas(v, vmax) ||
		w.farkasOf(v, residualTries[len(residualTries)-1:]) {
		return w.farkas, true
	}
	return nil, false
}

// snappedFarkas tries v's ratios to vmax (its largest entry, > 0) replaced
// by the simplest fractions within each of farkasSnapTols as a Farkas
// certificate (into w.farkas; checkFarkas decides).
func (w *Workspace) snappedFarkas(v []float64, vmax float64) bool {
	for _, tol := range farkasSnapTols {
		for i, l := range v {
			w.farkas[i] = simplestFraction(max(l, 0)/vmax, tol)
		}
		if w.checkFarkas(w.farkas) {
			return true
		}
	}
	return false
}

// farkasSnapTols are the distances within which FarkasFrom looks for
// simple fractions: a minimiser's residuals are good to about the rounding
// of x's terms, and a certificate checked at the coarser one is as sound
// (checkFarkas decides).
var farkasSnapTols = [...]float64{1e-9, 1e-6}

// simplestFraction returns the first convergent p/q of t's continued
// fraction within tol of t (t itself if none is), t >= 0.
func simplestFraction(t, tol float64) float64 {
	h0, h1, k0, k1 := 0.0, 1.0, 1.0, 0.0
	x := t
	for range 64 {
		a := math.Floor(x)
		h0, h1 = h1, a*h1+h0
		k0, k1 = k1, a*k1+k0
		if c := h1 / k1; math.Abs(t-c) <= tol {
			return c
		}
		f := x - a
		if !(f > 0) {
			break
		}
		x = 1 / f
	}
	return t
}
