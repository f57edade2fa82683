package activeset

import (
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestCompensatedRefinement: FuzzTinyQP's vertex of R^4 where rows 0 and 1
// (nearly parallel) tight imply x_1 = 0 through a coefficient of 0.0074,
// and row 4 is x_1 >= 0 (x* = (0, -8, -8, 17), multipliers of 1.9e6 on
// the caller's rows). Refined in float64, x_1 came out -1.9e-13: row 4
// violated beyond rounding, the answer not Feasible, and the gap's charge
// for it 3e-9 of F*. With compensated residuals x is exact to working
// accuracy there. (Where the float64 refinement ends on the feasible side,
// x_1 = +1.3e-12 on the generic path, nothing is violated and the answer
// stands as it is.) The exact answer is from enumeration (fuzz.enumerate).
func TestCompensatedRefinement(t *testing.T) {
	n := 4
	h := mat.NewDense(n, n)
	h.AddDiag(2.6)
	p := &Problem{N: n, H: h, C: []float64{-2.46875, -2.5, -2.5, -2.5}, A: dense([][]float64{
		{3.65625, -2.5, -2.5, -2.5},
		{-3.96875, 2.71875, 2.71875, 2.71875},
		{-2.5, -2.46875, -2.46875, -2.5},
		{-2.46875, -0.96875, -2.5, -2.5},
		{-2.5, 0, 0, 0},
		{0, 0, 0, 0},
	}), B: []float64{-2.5, 2.71875, -3, -2.5, 0, 0}}
	for _, given := range []bool{false, true} {
		if given {
			var f mat.Cholesky
			if err := f.Factor(h); err != nil {
				t.Fatal(err)
			}
			p.Factor = &f
		}
		r := mustNew(t, p).Solve()
		if r.Status != StatusOptimal || !r.Feasible {
			t.Fatalf("factor given %v: status %v, feasible %v, violation %g", given, r.Status, r.Feasible, r.MaxViolation)
		}
		xs := []float64{0, -8, -8, 17}
		for i := range xs {
			if math.Abs(r.X[i]-xs[i]) > 1e-9*(1+math.Abs(xs[i])) {
				t.Errorf("factor given %v: x = %v, exact %v", given, r.X, xs)
				break
			}
		}
		lmax := 0.0
		for _, l := range r.Lambda {
			lmax = max(lmax, l)
		}
		// The solver's certificate: the gap of F + 2 max(lambda) (sum of
		// violations) against the dual, relative to F.
		if g := (r.Gap + 2*lmax*sumViolation(p, r.X)) / math.Abs(r.Objective); g > 1e-10 {
			t.Errorf("factor given %v: certified relative gap %g (multipliers up to %g, violation %g)", given, g, lmax, r.MaxViolation)
		}
	}
}

// sumViolation is sum_j max(0, a_j'x - b_j).
func sumViolation(p *Problem, x []float64) float64 {
	s := 0.0
	for j := 0; j < p.A.Rows; j++ {
		v := -p.B[j]
		for i, a := range p.A.Row(j) {
			v += a * x[i]
		}
		s += max(0, v)
	}
	return s
}
