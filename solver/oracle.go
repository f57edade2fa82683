package solver

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// workspace holds every vector the solve needs; alloc sizes them once.
type workspace struct {
	x, xPrev, yv, g, xt, tmp []float64 // length n
	snap, full, z, mom       []float64 // length n: SVRG snapshot and its full gradient, catalyst centre, momentum
	avg                      []float64 // length n: SGD's running average of the iterates
	best, xu                 []float64 // length n: best certified point, unconstrained minimiser -H^{-1}c
	r, lam, lamBest          []float64 // length mw: residuals and multipliers of the working rows
	dSnap                    []float64 // length l+mw: SVRG snapshot scalars per component
	rl                       []float64 // length l: loss residuals
	lossW                    alias     // sampling of the loss rows by smoothness
	pol                      polishWork
	dcd                      dcdWork
	phase                    phaseWork // allocated by phase one on first use
}

func (w *workspace) alloc(s *Solver) {
	n, mw, l := s.n, s.mw, s.l
	f := func(k int) []float64 { return make([]float64, k) }
	w.x, w.xPrev, w.yv, w.g, w.xt, w.tmp = f(n), f(n), f(n), f(n), f(n), f(n)
	w.snap, w.full, w.z, w.mom, w.avg = f(n), f(n), f(n), f(n), f(n)
	w.best, w.xu = f(n), f(n)
	w.r, w.lam, w.lamBest = f(mw), f(mw), f(mw)
	w.dSnap = f(l + mw)
	w.rl = f(l)
	if l > 0 {
		wt := make([]float64, l)
		for i := range wt {
			r := s.phi.Row(i)
			wt[i] = vec.Dot(r, r)
		}
		w.lossW.build(wt)
	}
	w.pol.alloc(s)
	w.dcd.alloc(s)
}

// working returns the view of the kept working rows.
func (s *Solver) working() *mat.Dense {
	return &mat.Dense{Rows: s.kept, Cols: s.n, Stride: s.a.Stride, Data: s.a.Data}
}

// smoothGrad sets g to the gradient of the smooth part of F at x (everything
// but l1 and the box): H x + c for the quadratic model, otherwise
// phi^T loss'(phi x) / l + P x + q + ridge x.
func (s *Solver) smoothGrad(g, x []float64) {
	if s.quad {
		s.h.MulVec(g, x)
		vec.Axpy(1, s.c, g)
		return
	}
	for i := range g {
		g[i] = s.ridge * x[i]
	}
	if s.pm != nil {
		s.pm.MulVecAdd(g, x)
	}
	if s.q != nil {
		vec.Axpy(1, s.q, g)
	}
	if s.phi != nil {
		rl := s.state.rl
		s.phi.MulVec(rl, x)
		for i, t := range rl {
			rl[i] = s.lossDeriv(i, t)
		}
		s.phi.MulTransVecAdd(g, rl)
		// MulTransVecAdd adds phi^T rl; the mean needs 1/l.
	}
}

// lossSlope is f_i'(t), the derivative of loss i at t = phi_i^T x:
// t - y_i (squared) or -y_i sigmoid(-y_i t) (logistic).
func (s *Solver) lossSlope(i int, t float64) float64 {
	if s.loss == LossSquared {
		return t - s.y[i]
	}
	yi := s.y[i]
	return -yi * softplus.Sigmoid(-yi*t)
}

// lossDeriv is f_i'(t) / l, the slope's weight in the mean.
func (s *Solver) lossDeriv(i int, t float64) float64 { return s.lossSlope(i, t) / float64(s.l) }

// objective returns F(x): the smooth part, l1 and the offset (the box is
// assumed to hold, as it does for every point the solver reports).
func (s *Solver) objective(x []float64) float64 {
	var f float64
	if s.quad {
		t := s.state.tmp
		s.h.MulVec(t, x)
		f = 0.5*vec.Dot(x, t) + vec.Dot(s.c, x) + s.c0
	} else {
		f = 0.5*s.ridge*vec.Dot(x, x) + s.offset
		if s.pm != nil {
			t := s.state.tmp
			s.pm.MulVec(t, x)
			f += 0.5 * vec.Dot(x, t)
		}
		if s.q != nil {
			f += vec.Dot(s.q, x)
		}
		if s.phi != nil {
			rl := s.state.rl
			s.phi.MulVec(rl, x)
			var sum float64
			for i, t := range rl {
				if s.loss == LossSquared {
					d := t - s.y[i]
					sum += 0.5 * d * d
				} else {
					sum += softplus.Softplus(-s.y[i] * t)
				}
			}
			f += sum / float64(s.l)
		}
	}
	if s.l1 > 0 {
		var a float64
		for _, v := range x {
			a += math.Abs(v)
		}
		f += s.l1 * a
	}
	return f
}

// residual sets r = A x - b over the kept working rows.
func (s *Solver) residual(r, x []float64) {
	s.working().MulVecSub(r[:s.kept], x, s.b[:s.kept])
}

// penaltyGrad adds xi * A^T sigmoid(r/delta) to g, leaving the residuals in
// state.r and the multipliers xi*sigmoid(r/delta) (4.3) in state.lam.
func (s *Solver) penaltyGrad(g, x []float64, xi, delta float64) {
	if s.kept == 0 {
		return
	}
	r, lam := s.state.r[:s.kept], s.state.lam[:s.kept]
	s.residual(r, x)
	softplus.DualMap(lam, r, xi, delta)
	s.working().MulTransVecAdd(g, lam)
}

// fullGrad sets g to the gradient of the smooth part of F_{xi,delta} at x and
// counts l + kept incremental steps.
func (s *Solver) fullGrad(g, x []float64, xi, delta float64) {
	s.smoothGrad(g, x)
	s.penaltyGrad(g, x, xi, delta)
	s.steps += int64(s.l + s.kept)
}

// prox applies the proximal map of alpha*(l1 ||.||_1 + box indicator) to v in
// place: soft thresholding, then clipping (exact for separable 1-D convex
// terms).
func (s *Solver) prox(v []float64, alpha float64) {
	if s.l1 > 0 {
		t := alpha * s.l1
		for i, x := range v {
			switch {
			case x > t:
				v[i] = x - t
			case x < -t:
				v[i] = x + t
			default:
				v[i] = 0
			}
		}
	}
	if s.lower != nil {
		for i, x := range v {
			v[i] = math.Min(math.Max(x, s.lower[i]), s.upper[i])
		}
	}
}

// hasProx reports whether psi has a non-smooth part (l1 or a box).
func (s *Solver) hasProx() bool { return s.l1 > 0 || s.lower != nil }

// maxViolation returns max_j (a_j^T x - b_j)_+ over the kept working rows,
// using the residuals already in r.
func maxPos(r []float64) float64 {
	var m float64
	for _, v := range r {
		if v > m {
			m = v
		}
	}
	return m
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
		return s.c0 - vec.Dot(s.b[:s.kept], lam[:s.kept]) - 0.5*vec.Dot(w, t)
	}
	alpha := 1 / s.lfCert
	s.smoothGrad(w, x)
	if s.kept > 0 {
		s.working().MulTransVecAdd(w, lam[:s.kept])
	}
	copy(t, x)
	vec.Axpy(-alpha, w, t)
	s.prox(t, alpha)
	// L(x~, lam) = F(x~) + lam^T (A x~ - b)
	lx := s.objective(t)
	if s.kept > 0 {
		r := s.state.r[:s.kept]
		s.residual(r, t)
		lx += vec.Dot(lam[:s.kept], r)
	}
	var gg float64
	for i := range t {
		d := (x[i] - t[i]) / alpha
		gg += d * d
	}
	return lx - gg/(2*s.mu)
}
