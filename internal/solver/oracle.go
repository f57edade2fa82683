package solver

import (
	"math"

	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// The first-order oracle of F_{xi,delta}: the gradient of its smooth
// part, the loss derivatives, F itself, the gradient mapping and the prox
// of psi (l1 and the box).

// smoothGrad sets g to the gradient of the smooth part of F at x (everything
// but l1 and the box): H x + c for the quadratic model, otherwise
// phi^T loss'(phi x) / l + P x + q + ridge x.
func (s *Solver) smoothGrad(g, x []float64) {
	if s.quad {
		s.h.MulVec(g, x)
		vec.Axpy(1, s.c, g)
		return
	}
	var sl *phiSlot
	if s.phi != nil {
		if sl = s.state.phiX.find(x); sl != nil && sl.hasGrad {
			copy(g, sl.grad)
			return
		}
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
		z, rl := s.phiX(x), s.state.rl
		for i, t := range z {
			rl[i] = s.lossDeriv(i, t)
		}
		s.phi.MulTransVecAdd(g, rl)
		// The derivatives carry the mean's 1/l (lossDeriv).
		if sl = s.state.phiX.find(x); sl != nil {
			copy(sl.grad, g)
			sl.hasGrad = true
		}
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
			var sum float64
			for i, t := range s.phiX(x) {
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

// gradMapStep sets xt = prox(x - alpha g) and returns ||x - xt|| / alpha, the
// norm of the gradient mapping g_psi(x; alpha) of Lemma 3.1.
func (s *Solver) gradMapStep(xt, x, g []float64, alpha float64) float64 {
	copy(xt, x)
	vec.Axpy(-alpha, g, xt)
	s.prox(xt, alpha)
	var ss float64
	for i := range x {
		d := x[i] - xt[i]
		ss += d * d
	}
	return math.Sqrt(ss) / alpha
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
			v[i] = min(max(x, s.lower[i]), s.upper[i])
		}
	}
}

// hasProx reports whether psi has a non-smooth part (l1 or a box).
func (s *Solver) hasProx() bool { return s.l1 > 0 || s.lower != nil }
