// Package baseline holds the two external methods the paper compares the
// nested softplus-penalty method against (section 6 and its appendix):
//
//   - SASC-SGD: the stochastic smoothed-constraint method of O. Fercoq,
//     A. Alacaoglu, I. Necoara and V. Cevher, "Almost surely constrained
//     convex optimization", ICML 2019 (arXiv:1902.00126), Algorithm 1 with
//     the restarted schedule of its restricted strongly convex case;
//   - NT: the incremental penalty method with dynamically updated parameters
//     of A. Nedić and T. Tatarenko (the paper's reference nedic2020convergence,
//     "Convergence rate of a penalty method for strongly convex problems with
//     linear constraints", CDC 2020), with the one-sided Huber penalty.
//
// Both are written from the published descriptions (no code was copied);
// where the description available to us did not fix a detail, the choice is
// stated at the place it is made. They work on
//
//	minimize (1/l) sum_i 1/2 (phi_i^T x - y_i)^2 + ridge/2 ||x||^2
//	subject to a_j^T x <= b_j   (unit-norm rows)
//
// — the paper's QP (l > 0) and hard-margin SVM (l = 0, ridge = 1) — and are
// built on the vec and mat kernels only.
//
// Steps are counted as in the solver: one incremental step is one component
// (a loss row or a constraint row) drawn and used. Each step draws one of
// the N = l + m components uniformly.
package baseline

import (
	"errors"
	"math/bits"

	"github.com/softpen/softpen/mat"
)

// Problem is the finite-sum QP both baselines solve. A's rows must have unit
// Euclidean norm (Assumption 1.4 of the paper; the caller normalises).
type Problem struct {
	Phi   *mat.Dense // l x n, or nil (no finite-sum term)
	Y     []float64  // length l
	Ridge float64    // > 0: the strong convexity constant mu
	A     *mat.Dense // m x n, unit-norm rows
	B     []float64  // length m
}

// Run is what both methods share: the budget, the seed and the observer.
type Run struct {
	Steps        int64                          // incremental steps to take (> 0)
	Seed         uint64                         // seed of the method's own generator
	Observe      func(steps int64, x []float64) // called every ObserveEvery steps with the output point; must not retain x
	ObserveEvery int64                          // 0 means 1000
}

func (p *Problem) check() error {
	if p.A == nil || p.A.Rows == 0 {
		return errors.New("baseline: no constraints")
	}
	if len(p.B) != p.A.Rows {
		return errors.New("baseline: len(B) != rows of A")
	}
	if !(p.Ridge > 0) {
		return errors.New("baseline: Ridge must be > 0 (strong convexity)")
	}
	if p.Phi != nil && (p.Phi.Cols != p.A.Cols || len(p.Y) != p.Phi.Rows) {
		return errors.New("baseline: Phi, Y and A disagree in size")
	}
	return nil
}

func (p *Problem) l() int {
	if p.Phi == nil {
		return 0
	}
	return p.Phi.Rows
}

// lossLmax is the largest smoothness constant of a loss component as drawn:
// (N/l) max_i ||phi_i||^2 (0 without loss rows). This is the L of
// f(., xi) in Fercoq et al.'s assumptions (every sample function L-smooth).
func (p *Problem) lossLmax() float64 {
	l := p.l()
	if l == 0 {
		return 0
	}
	N := float64(l + p.A.Rows)
	var mx float64
	for i := 0; i < l; i++ {
		r := p.Phi.Row(i)
		var s float64
		for _, v := range r {
			s += v * v
		}
		mx = max(mx, s)
	}
	return N / float64(l) * mx
}

// rng is xoshiro256** seeded by SplitMix64: reproducible from the seed.
type rng struct{ s [4]uint64 }

func newRNG(seed uint64) *rng {
	r := &rng{}
	for i := range r.s {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		r.s[i] = z ^ (z >> 31)
	}
	return r
}

func (r *rng) next() uint64 {
	s := &r.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// intn is uniform on [0, n) (Lemire's multiply-shift; the bias for n far
// below 2^64 is negligible for a benchmark baseline).
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// observer returns the observation period (0 when there is no observer).
func (r *Run) every() int64 {
	if r.Observe == nil {
		return 0
	}
	if r.ObserveEvery <= 0 {
		return 1000
	}
	return r.ObserveEvery
}
