package baseline

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// SASC are the parameters of SASC-SGD. Zero fields take the defaults, which
// are the settings the paper picked for its QP (appendix, "Details for
// section 6.1"): Omega = 2, Mult = 0.36, Gamma0 = 1/(10 L).
type SASC struct {
	Omega  float64 // ratio of consecutive epoch lengths (and of step sizes); default 2
	Mult   float64 // multiplier of the epoch length; default 0.36
	Gamma0 float64 // first step size; default 1/(10 L), L the largest sample smoothness
}

// Solve runs SASC-SGD from x = 0 for r.Steps steps and returns the output point.
//
// The method (Fercoq et al. 2019, Algorithm 1): the constraints enter through
// the smoothed indicator (1/(2 beta)) dist(a_j^T x, (-inf, b_j])^2, here
// averaged over the m rows, so that one stochastic step is
//
//	x <- prox_{gamma h}(x - gamma (grad f_i(x) or (1/beta) N/m (a_j^T x - b_j)_+ a_j)),
//
// with h = ridge/2 ||.||^2 handled by its proximal map (a scaling), and the
// smoothing beta driven to zero together with the step gamma (homotopy). For
// the strongly convex case we run it in epochs s = 0, 1, ...: within epoch s
// the step is gamma_s = Gamma0 / Omega^s and the smoothing beta_s is tied to
// it (below); epoch s is Omega times longer than epoch s-1 and starts from
// the average of epoch s-1's iterates, which is also the method's output (the
// averaged sequence of Algorithm 1).
//
// Choices we made where the text available to us gives no number:
//   - beta_s = 2 gamma_s N/m, so that a constraint step moves a violated row
//     half way to its boundary (a relaxed projection, stable for any gamma);
//     Fercoq et al. couple beta to gamma, we could not confirm their constant.
//   - epoch 0 lasts Mult * log(2 Omega - 1) / (gamma_0 mu) steps, the same form
//     as the paper's "theoretical inner-loop iteration limit" of Nested-SGD
//     (log(2 eta - 1) times the condition number at the step used), which the
//     appendix scales by the same multipliers {1, 0.6, 0.36}.
//   - the paper's initial step 1/(10 L) (it reports divergence with the
//     3/(4 L) of Algorithm 1), with L = (N/l) max_i ||phi_i||^2 the largest
//     smoothness of a drawn loss component (without loss rows, L = mu).
func (o SASC) Solve(p *Problem, r Run) ([]float64, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	omega, mult := o.Omega, o.Mult
	if omega <= 1 {
		omega = 2
	}
	if mult <= 0 {
		mult = 0.36
	}
	n, l, m := p.A.Cols, p.l(), p.A.Rows
	N := l + m
	mu := p.Ridge
	L := max(p.lossLmax(), mu)
	gamma := o.Gamma0
	if gamma <= 0 {
		gamma = 1 / (10 * L)
	}
	rg := newRNG(r.Seed)
	x := make([]float64, n)
	avg := make([]float64, n)
	every := r.every()
	next := every
	cl := float64(N) / float64(max(l, 1))
	cm := float64(N) / float64(m)
	epochLen := int64(max(1, mult*math.Log(2*omega-1)/(gamma*mu)))
	var steps int64
	var inEpoch, cnt int64
	for steps < r.Steps {
		beta := 2 * gamma * cm
		sc := 1 / (1 + gamma*p.Ridge)
		i := rg.intn(N)
		if i < l {
			row := p.Phi.Row(i)
			d := cl * (vec.Dot(row, x) - p.Y[i])
			vec.Axpy(-gamma*d, row, x)
		} else {
			j := i - l
			row := p.A.Row(j)
			if v := vec.Dot(row, x) - p.B[j]; v > 0 {
				vec.Axpy(-gamma*cm*v/beta, row, x)
			}
		}
		vec.Scale(sc, x)
		steps++
		// running average of this epoch's iterates
		cnt++
		vec.AxpbyTo(avg, 1-1/float64(cnt), avg, 1/float64(cnt), x)
		inEpoch++
		if inEpoch >= epochLen {
			copy(x, avg)
			cnt, inEpoch = 0, 0
			gamma /= omega
			epochLen = int64(float64(epochLen) * omega)
		}
		if every > 0 && steps >= next {
			r.Observe(steps, avg)
			next += every
		}
	}
	return avg, nil
}
