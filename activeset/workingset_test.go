package activeset

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestSetBRefusesOverflow: SetB refuses a right-hand side whose quotient
// with its row's norm overflows, naming the entry, and leaves the Solver
// as it was (the next Solve gives the same answer).
func TestSetBRefusesOverflow(t *testing.T) {
	p := separable(50, 4, 2)
	p.ARows[7] = []float64{1e-300, 0, 0, 0}
	p.B[7] = 1
	s := mustNew(t, p)
	x := slices.Clone(s.Solve(ctx).X)
	b := slices.Clone(p.B)
	b[7] = 1e10
	if err := s.SetB(b); err == nil || !strings.Contains(err.Error(), "B[7]") {
		t.Fatalf("SetB with b[7] = 1e10 over a row of norm 1e-300: %v, want an error naming B[7]", err)
	}
	s.Reset()
	if r := s.Solve(ctx); !slices.Equal(r.X, x) {
		t.Error("a refused SetB changed the answer")
	}
}

// TestPivotWithinRounding: three rows of R^3 in the plane of e_1 and
// (0, 1, 1), no x satisfying all three (FuzzActiveSet). The first two are
// nearly parallel; the third's pivot came out 3.4e-13, above
// singularPivot but within its rounding (0.3 eps ||p||^2), and taken as
// independent it put x at 3.5e15, where the violation of 4.45 looked like
// rounding: "optimal" on an infeasible problem. Compared with its rounding,
// the pivot is zero, and the null step finds the certificate.
func TestPivotWithinRounding(t *testing.T) {
	n := 3
	h := mat.NewDense(n, n)
	for i, row := range [][]float64{
		{18.0822265625, 17.96875, 18.046875},
		{17.96875, 19.2541015625, 18.671875},
		{18.046875, 18.671875, 19.409375},
	} {
		copy(h.Row(i), row)
	}
	p := &Problem{N: n, H: h, C: []float64{-10, -10, -10}, A: dense([][]float64{
		{1.3125, -2.5, -2.5},
		{-1.96875, 3.96875, 3.96875},
		{-2.5, 0, 0},
	}), B: []float64{-2.5, -2.5, 0}}
	r := mustNew(t, p).Solve(ctx)
	if r.Status != StatusInfeasible {
		t.Fatalf("status %v (x %v, violation %g), want infeasible", r.Status, r.X, r.MaxViolation)
	}
	checkFarkas(t, "plane in R^3", p, r)
}

// TestEqualityImpliedByFixed: x_0 is fixed at 0 and the equality
// -2.5 x_0 = 0 repeats it; with a second equality nearly parallel to it
// in H's metric, the null direction through the factor had an entry of
// 5e-13 where the exact one is zero, and the set-up called the equalities
// inconsistent (FuzzActiveSet 481708ccbd6f4923). The unique feasible point
// is x = (0, -3.96875/0.1875).
func TestEqualityImpliedByFixed(t *testing.T) {
	h := dense([][]float64{{13.175, 12.5}, {12.5, 13.175}})
	p := &Problem{N: 2, H: h, C: []float64{-10, -10},
		Aeq: dense([][]float64{{-2.5, -0.1875}, {-2.5, 0}}), Beq: []float64{3.96875, 0},
		Lower: []float64{0, math.Inf(-1)}, Upper: []float64{0, 0}}
	r := mustNew(t, p).Solve(ctx)
	certified(t, "fixed x_0 repeated by an equality", r, 1e-12)
	if want := -3.96875 / 0.1875; r.X[0] != 0 || math.Abs(r.X[1]-want) > 1e-12*math.Abs(want) {
		t.Errorf("x = %v, want (0, %v)", r.X, want)
	}
}
