package activeset

import (
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestMemberHoldCostFarOut: rows c x_0 - d x_3 <= 0, -e1 x_1 - e2 x_2 <=
// -0.75 and (-c + 0.25) x_0 + e1 x_1 + e1 x_2 + d x_3 <= 1.5 with x_1 <= 0
// (c = 1.25 2^44, d = 2^44), q = (-81, 2, -9, 67), a ridge of 1e-12 or
// 1e-8. The second row and the bound give x_2 >= 0.75/e2, and the sum of
// the first and the third then x_0 <= 3 - 3 (e1 - e2)/e2. q pushes x to
// 1e8..1e12, where the second row's unit form is met to the rounding of
// ||x|| at x_2 = 0: 11 of the 24 problems were answered solved at such a
// point, violating the row by 0.47 to 1 against its own terms, with F up
// to 1e33 below F* (exact optima from enumeration in big.Rat). Holding
// the row exactly costs F more than the gap: they end precision_limit.
// Every solved answer must meet the row to its own terms' rounding and
// the implied bound on x_0; those whose optimum is near (e2 close to e1)
// stay solved.
func TestMemberHoldCostFarOut(t *testing.T) {
	c, d := 1.25*(1<<44), float64(1<<44)
	inf := math.Inf(1)
	solved := 0
	for _, e1 := range []float64{1e20, 1e14, 1e10, 1e8} {
		for _, e2 := range []float64{1e6, 1e3, 1} {
			for _, ridge := range []float64{1e-12, 1e-8} {
				a := [][]float64{{c, 0, 0, -d}, {0, -e1, -e2, 0}, {-c + 0.25, e1, e1, d}}
				h := mat.NewDense(4, 4)
				h.AddDiag(ridge)
				p := &Problem{N: 4, H: h, C: []float64{-81, 2, -9, 67},
					A: dense(a), B: []float64{0, -0.75, 1.5}, Upper: []float64{inf, 0, inf, inf}}
				r := mustNew(t, p).Solve(ctx)
				if r.Status != StatusSolved {
					continue
				}
				solved++
				x := r.X
				res := -e1*x[1] - e2*x[2] + 0.75
				terms := math.Abs(e1*x[1]) + math.Abs(e2*x[2]) + 0.75
				if bound := 3 - 3*(e1-e2)/e2; res > 1e-9*terms || x[0] > bound+1e-9*math.Abs(bound) {
					t.Errorf("e1 %g, e2 %g, ridge %g: solved at x = %v (row 1 residual %.3g of terms %.3g; x_0 must be <= %.6g), F %.6g, gap %.3g",
						e1, e2, ridge, x, res, terms, bound, r.Objective, r.Gap)
				}
			}
		}
	}
	if solved == 0 {
		t.Error("no problem solved: those whose optimum is near are solvable")
	}
}
