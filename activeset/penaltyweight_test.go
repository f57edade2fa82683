package activeset

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNNLSOptimality: nnls on G = M'M and h = M't + r for random M of n
// rows and d columns (d up to nnlsMax, n from 1 to 8: columns dependent
// when d > n, as at a vertex with more rows) meets the optimality
// conditions of min 1/2 mu'G mu - h'mu over mu >= 0: mu >= 0, the
// gradient h - G mu <= 0 everywhere and 0 where mu > 0, each to 1e-9 of
// the data's scale. r is 0 in half the trials (h in the range of M', as
// in least squares) and otherwise -M'D - s for a point D and slacks s >=
// 0 (half of them 0), so that the primal problem, min 1/2 ||D' - t||^2
// subject to M'D' + r <= 0, is feasible (at D) and mu bounded, as for
// raiseWeight's rows, which x* satisfies; there an unknown can enter in
// the span of the others (exchange).
func TestNNLSOptimality(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n, d := 1+rng.IntN(8), 1+rng.IntN(nnlsMax)
		m := make([]float64, n*d) // column a at a*n
		for i := range m {
			m[i] = rng.NormFloat64()
		}
		tv := make([]float64, n)
		for i := range tv {
			tv[i] = rng.NormFloat64()
		}
		var g [nnlsMax * nnlsMax]float64
		h := make([]float64, d)
		for a := range d {
			for b := range d {
				for i := range n {
					g[a*nnlsMax+b] += m[a*n+i] * m[b*n+i]
				}
			}
			for i := range n {
				h[a] += m[a*n+i] * tv[i]
			}
		}
		if trial%2 == 1 {
			// r_a = -m_a'D - s_a.
			dv := make([]float64, n)
			for i := range dv {
				dv[i] = rng.NormFloat64()
			}
			for a := range d {
				h[a] -= rng.ExpFloat64() * float64(rng.IntN(2))
				for i := range n {
					h[a] -= m[a*n+i] * dv[i]
				}
			}
		}
		h0 := append([]float64(nil), h...)
		nnls(&g, h, d)
		scale := 1.0
		for _, v := range h0 {
			scale = max(scale, math.Abs(v))
		}
		for a := range d {
			if !(h[a] >= 0) {
				t.Fatalf("trial %d (n %d, d %d): mu_%d = %g", trial, n, d, a, h[a])
			}
			w := h0[a]
			for b := range d {
				w -= g[a*nnlsMax+b] * h[b]
			}
			if w > 1e-9*scale || h[a] > 0 && math.Abs(w) > 1e-9*scale*(1+h[a]) {
				t.Fatalf("trial %d (n %d, d %d): mu_%d = %g with gradient %g", trial, n, d, a, h[a], w)
			}
		}
	}
}
