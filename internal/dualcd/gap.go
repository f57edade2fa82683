package dualcd

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// certify computes the certificate of the current lambda (see the package
// comment): x afresh from lambda, v = A x, the scaled feasible point t x
// in xc and its gap, or, when no scaling makes x feasible, tries lambda as
// a Farkas certificate. done reports a final status (Solved, Infeasible).
//
// The gap F(t x) - D(lambda) is a difference of two values of the size of
// ridge/2 ||x||^2: its allowance charges the rounding of both (a few ulp
// of each term), of x and of the final sums. x is summed with
// compensation (primalFromDualCompensated): |x~_k - x_k| <= (4 eps +
// gamma^2) (|q_k| + (|A|'lambda)_k) / ridge, which moves D by at most
// ridge ||x|| ||x~ - x||; summed plainly, gamma in place of 4 eps made
// this the largest charge, above a relative 1e-10 on 2000 rows.
// Feasibility of t x holds to the rounding of a_i'x.
func (w *Workspace) certify() (Status, bool) {
	p := &w.p
	res := &w.res
	for i, nrm := range w.norms {
		if nrm == 0 { // 0 <= b_i < 0
			clear(w.y)
			w.y[i] = 1
			res.Farkas, res.Gap = w.y, math.Inf(1)
			return Infeasible, true
		}
	}
	w.primalFromDualCompensated()
	p.A.MulVec(w.v, w.x)
	tStar := 0.0
	feasible := true
	for i, vi := range w.v {
		if !(vi < 0) {
			feasible = false
			break
		}
		tStar = max(tStar, p.B[i]/vi)
	}
	if !feasible {
		res.Gap = math.Inf(1)
		if w.farkas() {
			res.Farkas = w.y
			return Infeasible, true
		}
		w.primalFromDual() // farkas used x as scratch
		return Stopped, false
	}
	r := p.Ridge
	xx := vec.Dot(w.x, w.x)
	var qx float64
	if p.Q != nil {
		qx = vec.Dot(p.Q, w.x)
	}
	t := tStar
	if xx > 0 {
		t = max(t, -qx/(r*xx))
	}
	f := 0.5*r*t*t*xx + t*qx
	bl := vec.Dot(p.B, w.lam)
	d := -0.5*r*xx - bl
	// |A|'lambda, for the rounding of x (xc is free until the end).
	absAT := w.xc
	clear(absAT)
	for i, li := range w.lam {
		if li != 0 {
			idx, val := p.A.Row(i)
			for k, j := range idx {
				absAT[j] += math.Abs(val[k]) * li
			}
		}
	}
	var dx2 float64
	const eps = 0x1p-52
	g := vec.DotErrorBound(p.A.Rows + 2)
	gCol := 4*eps + g*g // primalFromDualCompensated's bound
	for k, a := range absAT {
		e := a
		if p.Q != nil {
			e += math.Abs(p.Q[k])
		}
		e *= gCol / r
		dx2 += e * e
	}
	var blAbs float64
	for i, li := range w.lam {
		blAbs += math.Abs(p.B[i] * li)
	}
	nx := math.Sqrt(xx)
	allow := r*nx*math.Sqrt(dx2)*(1+t) + 8*eps*(0.5*r*t*t*xx+math.Abs(t*qx)+0.5*r*xx+blAbs) +
		vec.DotErrorBound(len(w.x)+len(w.lam))*(0.5*r*(1+t*t)*xx+math.Abs(t*qx)+blAbs)
	gap := f - d + allow
	for j, xj := range w.x {
		w.xc[j] = t * xj
	}
	var viol float64
	for i, vi := range w.v {
		viol = max(viol, t*vi-p.B[i])
	}
	res.Objective, res.Gap, res.MaxViol = f, gap, viol
	res.Allowance = allow
	tolF := w.opt.Tol * max(1, math.Abs(f))
	if gap <= tolF && !math.IsInf(f, 0) { // an overflowing F makes tolF +Inf
		return Solved, true
	}
	if allow > tolF && f-d <= allow {
		// The tolerance is below what the certificate resolves here:
		// its rounding alone exceeds it, and the part of the gap it
		// sees is no larger than that rounding. More epochs cannot
		// certify it (they ran to the time limit before).
		return Stalled, true
	}
	return Stopped, false
}

// farkas tries y = lambda / max(lambda) as a certificate that A x <= b
// has no solution: y >= 0, b'y < 0 beyond its rounding, and A'y = 0 to the
// rounding of its sums (checkFarkas). On infeasible data lambda grows
// without bound along such a y, but the rows off it keep O(1) multipliers
// and the rows on it differ by O(1): y is within O(1/max lambda) of a
// certificate. So y is also tried with the entries below theta max(lambda)
// dropped and the rest rounded to 1 (theta = 1/2, 1/8, ..., 2^-13): when
// the conflict is a set of rows with equal weights, such as the same
// example under both labels, that is the exact certificate. It leaves y
// in w.y. Options.Farkas, when set, is the last resort.
func (w *Workspace) farkas() bool {
	lmax := 0.0
	for _, l := range w.lam {
		lmax = max(lmax, l)
	}
	if lmax == 0 {
		return false
	}
	if w.tryFarkas(lmax, 0) {
		return true
	}
	for theta := 0.5; theta > 1e-4; theta /= 8 {
		if w.tryFarkas(lmax, theta) {
			return true
		}
	}
	if w.opt.Farkas == nil || lmax < 2*w.farkasAt {
		return false
	}
	w.farkasAt = lmax
	clear(w.y)
	if !w.opt.Farkas(w.lam, w.y) {
		return false
	}
	ymax := 0.0
	for _, v := range w.y {
		if !(v >= 0) || math.IsInf(v, 1) { // NaN too
			return false
		}
		ymax = max(ymax, v)
	}
	if ymax == 0 {
		return false
	}
	for i := range w.y {
		w.y[i] /= ymax
	}
	return w.checkFarkas()
}

// tryFarkas sets y = lambda/lmax (theta = 0), or the indicator of
// lambda_i >= theta lmax, and checks it.
func (w *Workspace) tryFarkas(lmax, theta float64) bool {
	for i, l := range w.lam {
		switch {
		case theta == 0:
			w.y[i] = l / lmax
		case l >= theta*lmax:
			w.y[i] = 1
		default:
			w.y[i] = 0
		}
	}
	return w.checkFarkas()
}

// checkFarkas checks y (in w.y, >= 0) as a certificate (FarkasHolds).
func (w *Workspace) checkFarkas() bool {
	// xc and x serve as scratch: x is recomputed from lambda before its
	// next use.
	return FarkasHolds(w.p.A, w.p.B, w.y, w.xc, w.x)
}

// FarkasHolds reports whether y (of length a.Rows) proves, to the
// rounding of A'y, that no x satisfies a x <= b: every entry finite and
// >= 0, b'y < 0 beyond its rounding, and each column of A'y within the
// rounding of its own sum or every x that meets the rows at least
// farkasRadius times their scale (see the comment in its body for what
// that proves). aty and size, of length a.Cols, are scratch. It does not
// allocate.
func FarkasHolds(a *mat.Sparse, b, y, aty, size []float64) bool {
	var by, byAbs float64
	for i, yi := range y {
		if !(yi >= 0) || math.IsInf(yi, 1) {
			return false
		}
		by += b[i] * yi
		byAbs += math.Abs(b[i] * yi)
	}
	if !(by < -vec.DotErrorBound(len(y)+1)*byAbs) {
		return false
	}
	// A'y and its terms; nz and scale for the test below, in the same
	// pass over the rows of y.
	clear(aty)
	clear(size)
	nz := 0
	scale := 0.0
	for i, yi := range y {
		if yi != 0 {
			nz++
			idx, val := a.Row(i)
			amax := 0.0
			for k, j := range idx {
				aty[j] += yi * val[k]
				size[j] += math.Abs(yi * val[k])
				amax = max(amax, math.Abs(val[k]))
			}
			if amax > 0 {
				scale = max(scale, math.Abs(b[i])/amax)
			}
		}
	}
	// A'y that is not exactly 0 proves only that no x with ||x||_inf
	// below R = -b'y / ||A'y||_1 satisfies the rows: they may hold
	// farther out. y is a certificate to rounding when each column of
	// A'y vanishes to the rounding of its own sum, gamma times its terms
	// (y itself is rounded, and so are the sums): float64 cannot tell
	// A'y from 0. Otherwise R must be at least farkasRadius times the
	// norm at which one entry of a row of y meets its right-hand side,
	// max |b_i| / max_j |a_ij|. (Taken over all columns at once, the
	// rounding test let the terms of the columns that cancel exactly hide
	// columns that did not cancel at all: copies of one document under
	// both labels, each with a feature of its own of 1e-12, on dense rows
	// of ones, passed with R = 2e12, where an x of that norm separates
	// them with margins of 1.)
	g := vec.DotErrorBound(nz + 1)
	cancels := true
	var resid float64
	for j, v := range aty {
		resid += math.Abs(v)
		if math.Abs(v) > g*size[j] {
			cancels = false
		}
	}
	return cancels || -by >= farkasRadius*scale*resid
}

// farkasRadius: a certificate whose A'y does not vanish column by column
// to rounding must prove every x that meets the rows to be at least this
// many times the rows' own scale (FarkasHolds): 2^52 = 1/eps, where the
// rounding of a row's value, eps ||x|| max_j |a_ij|, reaches its
// right-hand side. Below it a feasible x may be one float64 represents
// and checks with room to spare (TestFarkasRadius: 2e13 with margins of
// 1). The first certificate coordinate descent tried on gofunc-distinct
// of scripts/liblinear (72 rows of TF-IDF values, a column left
// uncancelled) proved 4.3e14 times its scale and is refused; one on 10
// rows, every column cancelled, is found later.
const farkasRadius = 0x1p52
