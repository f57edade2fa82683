package activeset

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
)

// TestL1SoftThreshold: with a diagonal H, x_i* = -soft(c_i, l1)/h_i.
func TestL1SoftThreshold(t *testing.T) {
	h := []float64{1, 2, 0.5, 4, 1}
	c := []float64{3, -0.5, 0.1, -7, 1}
	const l1 = 1.0
	p := &Problem{N: 5, H: dense([][]float64{{1, 0, 0, 0, 0}, {0, 2, 0, 0, 0}, {0, 0, 0.5, 0, 0}, {0, 0, 0, 4, 0}, {0, 0, 0, 0, 1}}), C: c, L1: l1}
	s, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Solve()
	for i := range c {
		want := -math.Copysign(math.Max(math.Abs(c[i])-l1, 0), c[i]) / h[i]
		if math.Abs(r.X[i]-want) > 1e-15 {
			t.Errorf("x[%d] = %v, want %v", i, r.X[i], want)
		}
	}
	certified(t, "soft threshold", r, 1e-15)
}

// TestL1Families adds l1 terms of three sizes to generated QPs and checks
// the answer independently: (x, lambda, nu, z) must satisfy the big.Float
// KKT conditions of the QP whose linear term is c + W, with |W_i| <= l1
// and W_i = l1 sign(x_i) where x_i != 0.
func TestL1Families(t *testing.T) {
	for _, fam := range []string{"cond-dense", "cond-diag", "bounds-mixed", "eq-dependent", "degenerate-vertex", "big-multipliers"} {
		worst := 0.0
		for _, n := range []int{1, 3, 10, 40} {
			for seed := uint64(1); seed <= 3; seed++ {
				q := qpgen.Generate(fam, n, seed)
				scale := 0.0
				for _, v := range q.C {
					scale += math.Abs(v) / float64(n)
				}
				for _, f := range []float64{0.1, 1, 10} {
					name := fmt.Sprintf("%s/n%d/s%d/l1x%g", fam, n, seed, f)
					p := fromGen(q)
					p.L1 = f * scale
					s, err := New(p, nil)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					r := s.Solve()
					if r.Status != StatusOptimal {
						t.Errorf("%s: status %v after %d iterations", name, r.Status, r.Iter)
						continue
					}
					for i, w := range r.W {
						if math.Abs(w) > p.L1*(1+1e-12) || (r.X[i] != 0 && w != math.Copysign(p.L1, r.X[i])) {
							t.Errorf("%s: W[%d] = %v with x = %v, l1 = %v", name, i, w, r.X[i], p.L1)
						}
					}
					worst = math.Max(worst, checkKKTWithL1(t, name, q, r))
				}
			}
		}
		t.Logf("%-18s with l1: worst KKT %.2g", fam, worst)
	}
}

// checkKKTWithL1 checks r's KKT conditions on q in big.Float, the l1
// subgradient r.W (when present) moved into the linear term, fails t above
// 1e-9 and returns the worst relative residual.
func checkKKTWithL1(t *testing.T, name string, q *qpgen.QP, r *Result) float64 {
	t.Helper()
	shifted := *q
	if r.W != nil {
		shifted.C = make([]float64, q.N)
		for i := range shifted.C {
			shifted.C[i] = q.C[i] + r.W[i]
		}
	}
	res, err := qpgen.KKT(&shifted, r.X, r.Lambda, r.Nu, r.Z)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.Worst() > 1e-9 {
		t.Errorf("%s: KKT %.3g (stat %.2g primal %.2g dual %.2g comp %.2g), iter %d",
			name, res.Worst(), res.RelStationarity, res.RelPrimal, res.RelDual, res.RelComplementarity, r.Iter)
	}
	return res.Worst()
}
