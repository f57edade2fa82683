package baseline

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// NT are the parameters of the incremental penalty method of Nedić and
// Tatarenko. Zero fields take the defaults: Gamma0 = 1 (the paper's xi),
// Delta0 = 0.05 (the paper's delta_0 on the QP).
type NT struct {
	Gamma0 float64 // initial penalty weight
	Delta0 float64 // initial Huber smoothing
}

// huberSlope is h'_delta(t) of the one-sided Huber penalty
// h_delta(t) = 0 (t <= 0), t^2/(2 delta) (0 < t <= delta), t - delta/2 (t > delta).
func huberSlope(t, delta float64) float64 {
	switch {
	case t <= 0:
		return 0
	case t >= delta:
		return 1
	}
	return t / delta
}

// Solve runs the method from x = 0 for r.Steps steps and returns the last
// iterate.
//
// The method (Nedić & Tatarenko 2020): the penalised objective
// F(x) + gamma_k sum_j h_{delta_k}(a_j^T x - b_j) with the one-sided Huber
// penalty h, whose weight gamma_k grows and whose smoothing delta_k shrinks
// with the iteration counter k, is minimised by an incremental gradient
// method with a diminishing step alpha_k; each step uses one loss row or one
// constraint row. The published result is an O(1/sqrt k) rate to the exact
// solution. The schedules below are our choice, made to satisfy what such a
// rate needs (we could not read the paper's constants):
//   - alpha_k = 1/(c0 + mu k / 2), i.e. 2/(mu k) asymptotically (the classical
//     strongly convex step), with c0 = max(L, N gamma_0/delta_0) so that the
//     first constraint steps are at most a projection;
//   - gamma_k = gamma_0 sqrt(1 + k/k0), delta_k = delta_0 / sqrt(1 + k/k0)
//     with k0 = 2 c0 / mu: the penalty's bias is O(delta_k) = O(1/sqrt k), the
//     weight eventually exceeds any ||lambda*||_inf, and
//     alpha_k N gamma_k/delta_k stays <= 1 for every k (each constraint step
//     is at most a projection onto the row's half-space), so the iteration
//     is stable for every k.
func (o NT) Solve(p *Problem, r Run) ([]float64, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	g0, d0 := o.Gamma0, o.Delta0
	if g0 <= 0 {
		g0 = 1
	}
	if d0 <= 0 {
		d0 = 0.05
	}
	n, l, m := p.A.Cols, p.l(), p.A.Rows
	N := l + m
	mu := p.Ridge
	c0 := max(max(p.lossLmax(), mu), float64(N)*g0/d0)
	k0 := 2 * c0 / mu
	cl := float64(N) / float64(max(l, 1))
	rg := newRNG(r.Seed)
	x := make([]float64, n)
	every := r.every()
	next := every
	for k := int64(0); k < r.Steps; k++ {
		kf := float64(k)
		alpha := 1 / (c0 + mu*kf/2)
		grow := math.Sqrt(1 + kf/k0)
		gamma, delta := g0*grow, d0/grow
		i := rg.intn(N)
		if i < l {
			row := p.Phi.Row(i)
			d := cl * (vec.Dot(row, x) - p.Y[i])
			vec.Axpy(-alpha*d, row, x)
		} else {
			j := i - l
			row := p.A.Row(j)
			if s := huberSlope(vec.Dot(row, x)-p.B[j], delta); s > 0 {
				vec.Axpy(-alpha*float64(N)*gamma*s, row, x)
			}
		}
		// ridge: exact gradient step on the deterministic term
		vec.Scale(1-alpha*mu, x)
		if every > 0 && k+1 >= next {
			r.Observe(k+1, x)
			next += every
		}
	}
	return x, nil
}
