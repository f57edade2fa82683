package activeset

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// TestCompensatedRefinement: two of FuzzTinyQP's vertices of R^4 where the
// nearly parallel rows 0 and 1 tight imply x_1 = 0 through a coefficient
// of 0.0074, and another row is x_1 >= 0 (multipliers of 1.7e6 and 1.9e6
// on the caller's rows). Refined in float64, x_1 came out -1.9e-13 and
// -5.6e-13: x_1 >= 0 violated beyond rounding, the answer not Feasible,
// and the gap's charge for it 3e-9 and 1e-8 of F*. Refined from
// compensated residuals, x is exact to working accuracy. On the second,
// the compensated KKT residual rose over the steps (3.1e-17 to 6.1e-17)
// while x_1 went to 1e-22: a refinement that kept its best iterate by that
// measure kept the first. The exact answers are from enumeration
// (fuzz.enumerate).
func TestCompensatedRefinement(t *testing.T) {
	rows := [][]float64{
		{3.65625, -2.5, -2.5, -2.5},
		{-3.96875, 2.71875, 2.71875, 2.71875},
		{-2.5, -2.46875, -2.46875, -2.5},
		{-2.46875, -0.96875, -2.5, -2.5},
		{-2.5, 0, 0, 0},
	}
	for _, tc := range []struct {
		name  string
		ridge float64
		c     []float64
		rows  []int
		b     []float64
		xs    []float64
	}{
		{"b359", 2.6, []float64{-2.46875, -2.5, -2.5, -2.5}, []int{0, 1, 2, 3, 4},
			[]float64{-2.5, 2.71875, -3, -2.5, 0}, []float64{0, -8, -8, 17}},
		{"485f", 2.38125, []float64{-4, -1.9375, -1.21875, -2.5}, []int{0, 1, 2, 4},
			[]float64{-2.5, 2.71875, -3, 0}, []float64{0, -7.849081364829396, -8.150918635170603, 17}},
	} {
		n := 4
		h := mat.NewDense(n, n)
		h.AddDiag(tc.ridge)
		var a [][]float64
		for _, j := range tc.rows {
			a = append(a, rows[j])
		}
		p := &Problem{N: n, H: h, C: tc.c, A: dense(a), B: tc.b}
		for _, given := range []bool{false, true} {
			if given {
				var f mat.Cholesky
				if err := f.Factor(h); err != nil {
					t.Fatal(err)
				}
				p.Factor = &f
			}
			r := mustNew(t, p).Solve(ctx)
			if r.Status != StatusSolved || !r.Feasible {
				t.Fatalf("%s, factor given %v: status %v, feasible %v, violation %g", tc.name, given, r.Status, r.Feasible, r.MaxViolation)
			}
			for i := range tc.xs {
				if math.Abs(r.X[i]-tc.xs[i]) > 1e-9*(1+math.Abs(tc.xs[i])) {
					t.Errorf("%s, factor given %v: x = %v, exact %v", tc.name, given, r.X, tc.xs)
					break
				}
			}
			// The solver's certificate: the gap of F + 2 max(lambda) (sum
			// of violations) against the dual, relative to F.
			if g := penaltyGapOf(p, r) / math.Abs(r.Objective); g > 1e-10 {
				t.Errorf("%s, factor given %v: certified relative gap %g (violation %g)", tc.name, given, g, r.MaxViolation)
			}
		}
	}
}

// penaltyGapOf is r.Gap + 2 max(lambda) sum_j max(0, a_j'x - b_j),
// computed from p.
func penaltyGapOf(p *Problem, r *Result) float64 {
	lmax, sum := 0.0, 0.0
	for _, l := range r.Lambda {
		lmax = max(lmax, l)
	}
	for j := 0; j < p.A.Rows; j++ {
		v := -p.B[j]
		for i, a := range p.A.Row(j) {
			v += a * r.X[i]
		}
		sum += max(0, v)
	}
	return r.Gap + 2*lmax*sum
}

// TestVertexAnswerAtOrigin: min 1/2 ||x||^2 + c'x over k > n rows
// a_j'x <= 0 that all pass through the origin, c = -sum_j a_j / 8 in
// their cone (a degenerate cone, as the penalty method's handover test
// builds one), so x* = 0. The loop's x = v_u - N lambda came out at 1e-31,
// where rows through the origin are violated beyond the rounding of x
// itself: "solved", not Feasible. The members, n of them, fix the vertex
// by their own equations, which give x = 0 exactly (memberAnswer).
func TestVertexAnswerAtOrigin(t *testing.T) {
	for _, dims := range [][2]int{{3, 8}, {6, 40}} {
		n, k := dims[0], dims[1]
		rows, c := make([][]float64, k), make([]float64, n)
		state := uint64(17)
		next := func() float64 { // k/8, |k| <= 8
			state = state*6364136223846793005 + 1442695040888963407
			return float64(int64(state>>33)%17-8) / 8
		}
		for j := range rows {
			rows[j] = make([]float64, n)
			for i := range rows[j] {
				rows[j][i] = next()
			}
			rows[j][0] = 3 + math.Abs(rows[j][0]) // a cone around e_1
			for i := range c {
				c[i] -= rows[j][i] / 8
			}
		}
		h := mat.NewDense(n, n)
		h.AddDiag(1)
		p := &Problem{N: n, H: h, C: c, A: dense(rows), B: make([]float64, k)}
		r := mustNew(t, p).Solve(ctx)
		certified(t, fmt.Sprintf("cone of %d rows in R^%d", k, n), r, 1e-15)
		if vec.MaxAbs(r.X) != 0 {
			t.Errorf("cone of %d rows in R^%d: x = %v, want 0", k, n, r.X)
		}
	}
}

// TestEqualityThroughOriginAlongGradient: FuzzActiveSet 4878a51100911656.
// The equality -2.4375 x_1 = 0 lies along c = (-9.125, 0, 0), so x* = 0
// (the rest of c is zero), and the loop's x came out at 1e-32 with
// x_1 = 1e-32: the equality violated beyond the rounding of x itself, not
// Feasible, which Solved promises. The component the equality fixes is
// taken from its own equation (memberAnswer): x_1 = 0.
func TestEqualityThroughOriginAlongGradient(t *testing.T) {
	p := &Problem{N: 3, H: dense([][]float64{
		{19.425, 18.515625, 18.046875},
		{18.515625, 18.9611328125, 17.81640625},
		{18.046875, 17.81640625, 18.0705078125},
	}), C: []float64{-9.125, 0, 0}, Aeq: dense([][]float64{{-2.4375, 0, 0}}), Beq: []float64{0}}
	solvedExactly(t, "x_1 = 0 along c", p, mustNew(t, p).Solve(ctx))
}

// TestFixedVariableAndRowThroughOrigin: FuzzActiveSet 5faf67a2463d3bfa.
// x_1 is fixed at 0 and x_2 <= 0, and the row -2.46875 x_1 - 2.5 x_2 <= 0
// then pins x_2 at 0: x* = 0 (c = (-8.875, 0), the bound's multiplier
// 8.875). The loop's x came out with x_2 = -1.3e-79, violating the row
// beyond the rounding of x (which is 0), and the answer was precision
// limit. memberAnswer keeps the members' equations (here x_1 = 0) and
// minimises over their null space, which gives x_2 = 0 exactly.
func TestFixedVariableAndRowThroughOrigin(t *testing.T) {
	p := &Problem{N: 2, H: dense([][]float64{{5.7921875, 10}, {10, 32.6671875}}), C: []float64{-8.875, 0},
		A: dense([][]float64{{-2.46875, -2.5}}), B: []float64{0},
		Lower: []float64{0, math.Inf(-1)}, Upper: []float64{0, 0}}
	solvedExactly(t, "x_1 fixed at 0, x_2 pinned", p, mustNew(t, p).Solve(ctx))
}

// TestZeroNoise: FuzzActiveSet 24705179325da8d6. x_1 >= 0, x_2 <= 0 and
// x_1 <= x_2 hold x* = 0 (c = (-3.625, 3.625)); the loop settled with the
// last row alone and x = (2.9e-34, 0), which violates it beyond the
// rounding of x, and the answer was precision limit. x_1 is the noise of
// a cancellation of terms of size 1 (zeroNoise): x = 0 exactly.
func TestZeroNoise(t *testing.T) {
	p := &Problem{N: 2, H: dense([][]float64{{13.175, 12.421875}, {12.421875, 13.0197265625}}), C: []float64{-3.625, 3.625},
		A: dense([][]float64{{-2.5, -2.5}, {-2.5, -2.5}, {2.5, -2.5}}), B: []float64{0.90625, 2.5, 0},
		Lower: []float64{0, math.Inf(-1)}, Upper: []float64{2.5, 0}}
	solvedExactly(t, "x* = 0 held by a row and two bounds", p, mustNew(t, p).Solve(ctx))
}

// TestCompensatedStepsClampedMultipliers: qpgen's row-near-copy problems
// whose working sets end with a wedge of a row and its near-copy 7e-13
// apart (a pivot of 5e-25, independent to its rounding). The compensated
// steps converged in x, but their multipliers' part along the pair's
// near-null direction was Q'r's error amplified by 1e12, asking the pair
// for multipliers of -4e4 at every round, which the clamp held at zero:
// "solved", with the pair's O(1) multipliers lost (relative stationarity
// 1e-2). Steps that end clamped are not converged Newton steps, and their
// answer is kept only if it certifies better. Which of these problems
// reach that state depends on the kernel's rounding; each did on one.
func TestCompensatedStepsClampedMultipliers(t *testing.T) {
	for _, c := range []struct {
		n    int
		seed uint64
	}{{40, 55}, {40, 103}, {40, 195}, {40, 207}, {100, 135}, {100, 239}} {
		q := qpgen.Generate("row-near-copy", c.n, c.seed)
		name := fmt.Sprintf("n%d/s%d", c.n, c.seed)
		s := mustNew(t, fromGen(q))
		r := s.Solve(ctx)
		if r.Status != StatusSolved {
			if !(r.Status == StatusPrecisionLimit && q.MayBeUndecided) {
				t.Errorf("%s: status %v", name, r.Status)
			}
			continue
		}
		res, err := qpgen.KKT(q, r.X, r.Lambda, r.Nu, r.Z)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Worst() > 1e-9 {
			t.Errorf("%s: solved with KKT %.3g (stat %.2g gap %.2g)", name, res.Worst(), res.RelStationarity, res.RelGap)
		}
	}
}
