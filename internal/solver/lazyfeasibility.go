package solver

import (
	"github.com/softpen/softpen/internal/newtoncg"
	"github.com/softpen/softpen/vec"
)

// Phase one on sparse rows (lazySVRG): the dense path's phase one
// (feasibility.go) with the Newton matrix applied by products, not formed.
//
// Raising xi does not bring a far iterate to the rows: with the multipliers
// saturated, the stage's step is set by the penalty's worst-case smoothness
// xi ||a||^2/(4 delta) while its pull on x is at most xi, so x moves by
// O(delta) a step whatever xi, and an iterate left 1e6 out by a large q
// takes 1e7 epochs to come in. Rows that no x meets are only proved so
// where the multipliers of the rows that contradict each other all
// saturate, which such an iterate never reaches. So, once xi has been
// raised past xiPhaseOne, the squared violation
//
//	h(x) = 1/2 sum_k (a_k'x - b_k)_+^2 + 1/2 ||(x - upper)_+||^2 + 1/2 ||(lower - x)_+||^2
//
// is minimised from the iterate by Newton's method with conjugate
// gradients on the generalised Hessian (the violated rows' a_k a_k' and
// the violated bounds' unit entries): each product is a pass over the
// rows of A. At a minimiser with h > 0, y = (A x - b)_+ is a Farkas
// certificate (feasibility.go), which newtoncg's FarkasFrom checks as
// computed, then as the indicators of its large entries (exact where the
// contradiction is combinatorial); h = 0 shows the rows feasible, and the
// solve goes on without phase one.

// lazyPhaseCG caps the conjugate-gradient iterations of a Newton step of
// phase one: h is piecewise quadratic, so a truncated step still descends,
// and a pass over A each keeps phase one's cost that of a few epochs'
// certificates.
const lazyPhaseCG = 50

// lazyPhase is phase one's workspace, allocated on first use.
type lazyPhase struct {
	x, g, d, xt, r, p, hp []float64 // length n
	res, y                []float64 // length m: residuals, certificate
}

// phaseOne minimises h from w and reports what it shows; on infeasible,
// res.farkas holds the checked certificate (aliasing the certificate's
// workspace). stop is the solve's budget,
// read once a Newton step.
func (z *lazySVRG) phaseOne(res *lazyResult, stop func(int64) bool) feasibility {
	ph := &z.phase
	if ph.x == nil {
		n := len(z.w)
		f := func(k int) []float64 { return make([]float64, k) }
		ph.x, ph.g, ph.d, ph.xt, ph.r, ph.p, ph.hp = f(n), f(n), f(n), f(n), f(n), f(n), f(n)
		ph.res, ph.y = f(z.m), f(z.m)
	}
	x := ph.x
	copy(x, z.w)
	h := z.violation(x, ph.g, ph.res)
	for it := 0; it < phaseOneIters && h > 0; it++ {
		if stop != nil && stop(z.steps) {
			return undecided
		}
		if !z.phaseDirection(x, ph) {
			break
		}
		slope := -vec.Dot(ph.g, ph.d) // along -d
		if !(slope < 0) {
			break
		}
		t, hNew := 1.0, h
		for ls := 0; ls < 60; ls++ {
			vec.AxpbyTo(ph.xt, 1, x, -t, ph.d)
			hNew = z.violation(ph.xt, nil, ph.y)
			if hNew <= h+1e-4*t*slope {
				break
			}
			t /= 2
		}
		if !(hNew < h) {
			break // no progress in float64: x is the minimiser
		}
		copy(x, ph.xt)
		h = z.violation(x, ph.g, ph.res)
	}
	if h == 0 {
		return feasible
	}
	for k, r := range ph.res {
		ph.y[k] = max(r, 0)
	}
	if y, ok := z.cert.FarkasFrom(ph.y); ok {
		res.farkas = y
		return infeasible
	}
	return undecided
}

// violation returns h(x), with the rows' residuals in r and, if g is not
// nil, h's gradient in g. It counts a pass over the rows of A.
func (z *lazySVRG) violation(x, g, r []float64) float64 {
	z.steps += int64(z.m)
	if g != nil {
		clear(g)
	}
	var h float64
	for k := range z.m {
		idx, val := z.ar.Row(k)
		rk := -z.tab[z.l+k].y
		for q, j := range idx {
			rk += val[q] * x[j]
		}
		r[k] = rk
		if !(rk > 0) {
			continue
		}
		h += rk * rk / 2
		if g != nil {
			for q, j := range idx {
				g[j] += rk * val[q]
			}
		}
	}
	if z.lower != nil {
		h = boxViolation(h, x, z.lower, z.upper, g)
	}
	return h
}

// phaseDirection solves H d = g for phase one's Newton step at x (ph.res
// its residuals, ph.g h's gradient there) by conjugate gradients, at most
// lazyPhaseCG of them, H the generalised Hessian with phaseOneRegRel of
// its largest diagonal entry added (H is singular along the directions no
// violated row sees). It reports whether d is a step.
func (z *lazySVRG) phaseDirection(x []float64, ph *lazyPhase) bool {
	var diag float64
	for k, rk := range ph.res {
		if rk > 0 {
			diag = max(diag, z.a2[k])
		}
	}
	reg := phaseOneRegRel * max(diag, 1)
	return newtoncg.ConjugateGradient(ph.g, ph.d, ph.r, ph.p, ph.hp, lazyPhaseCG, func(_, _ []float64) { z.phaseHessian(x, ph, reg) })
}

// phaseHessian sets hp = H p (phaseDirection's H at x).
func (z *lazySVRG) phaseHessian(x []float64, ph *lazyPhase, reg float64) {
	z.steps += int64(z.m)
	for j, v := range ph.p {
		ph.hp[j] = reg * v
	}
	for k, rk := range ph.res {
		if !(rk > 0) {
			continue
		}
		idx, val := z.ar.Row(k)
		var s float64
		for q, j := range idx {
			s += val[q] * ph.p[j]
		}
		for q, j := range idx {
			ph.hp[j] += s * val[q]
		}
	}
	if z.lower != nil {
		for j, v := range x {
			if v > z.upper[j] || v < z.lower[j] {
				ph.hp[j] += ph.p[j]
			}
		}
	}
}
