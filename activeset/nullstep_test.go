package activeset

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestConsistentDependentNoCycle: FuzzTinyQP's degenerate vertex of R^4
// (rows 2, 3 and 4 together fix x_1 = 0, and their normals depend on each
// other). Row 4 is found consistent-dependent and leaves; allowed back as
// soon as the working set changed, it was admitted again at the same point
// and the solve cycled through the same ten changes to the iteration
// limit. Skipped until the objective rises, it solves.
func TestConsistentDependentNoCycle(t *testing.T) {
	n := 4
	h := mat.NewDense(n, n)
	h.AddDiag(2.6)
	p := &Problem{N: n, H: h, C: []float64{-2.5, -2.5, -2.5, -2.5}, A: dense([][]float64{
		{-2.5, -2.5, -2.5, -2.46875},
		{-2.5, -2.5, -2.46875, -2.5},
		{-2.5, 2.71875, 2.71875, 2.71875},
		{2.71875, -2.5, -2.5, -2.5},
		{-2.5, 0, 0, 0},
		{0, 0, 0, 0},
	}), B: []float64{-2.5, -2.5, 2.71875, -2.5, 0, 0}}
	r := mustNew(t, p).Solve(ctx)
	certified(t, "degenerate vertex", r, 1e-12)
	if r.Steps > 50 {
		t.Errorf("%d working-set changes for 6 rows in R^4", r.Steps)
	}
}

// TestNullStepIgnoresRounding: the degenerate vertex above with row 2
// (-2.5, -2.5, -2.5, -2.5), which rows 3 and 4 tight imply, and H's factor
// given (FuzzTinyQP, through softpen: the factor changes the rounding).
// The null step's direction had entries of 5e-15 on two members against 25
// on the others; a step to the first of them reaching zero set
// multipliers of 6e17 and 1e27, the members left one by one, and the same
// admissions came back to the iteration limit. Those entries are rounding:
// zeroed, the row is found consistent-dependent and skipped.
func TestNullStepIgnoresRounding(t *testing.T) {
	n := 4
	h := mat.NewDense(n, n)
	h.AddDiag(2.6)
	var f mat.Cholesky
	if err := f.Factor(h); err != nil {
		t.Fatal(err)
	}
	rows := [][]float64{
		{-2.5, -2.5, -2.5, -2.46875},
		{-2.5, -2.5, -2.46875, -2.5},
		{-2.5, -2.5, -2.5, -2.5},
		{-2.5, 2.71875, 2.71875, 2.71875},
		{2.71875, -2.5, -2.5, -2.5},
		{-2.5, 0, 0, 0},
	}
	b := []float64{-2.5, -2.5, -2.5, 2.71875, -2.5, 0}
	for _, given := range []bool{false, true} {
		p := &Problem{N: n, H: h, C: []float64{-2.5, -2.5, -2.5, -2.5}, ARows: rows, B: b}
		if given {
			p.Factor = &f
		}
		r := mustNew(t, p).Solve(ctx)
		certified(t, "degenerate vertex, factor given", r, 1e-12)
		if r.Steps > 50 {
			t.Errorf("factor given %v: %d working-set changes for 6 rows in R^4", given, r.Steps)
		}
	}
}

// TestConsistentDependentBound: x_0 fixed at 0 and the row
// -2.46875 x_0 - 0.03125 x_1 <= 0 make x_1 >= 0, and x_1 <= 0 is a bound
// (FuzzActiveSet): x* = 0. The bound, violated by rounding at the row's
// vertex, entered as a third member in R^2, the null step found no block
// and no contradiction, and the solve ended undecided (iteration limit
// after 2 changes): the consistent-dependent exit was for rows only. A
// bound now leaves and is skipped the same way.
func TestConsistentDependentBound(t *testing.T) {
	h := dense([][]float64{{13.1671875, 12.5}, {12.5, 13.1671875}})
	p := &Problem{N: 2, H: h, C: []float64{-10, 15.75},
		A: dense([][]float64{{-2.46875, -0.03125}}), B: []float64{0},
		Lower: []float64{0, math.Inf(-1)}, Upper: []float64{0, 0}}
	r := mustNew(t, p).Solve(ctx)
	certified(t, "fixed x_0, row and bound on x_1", r, 1e-12)
	if r.X[0] != 0 || math.Abs(r.X[1]) > 1e-15 {
		t.Errorf("x = %v, want 0", r.X)
	}
}

// TestDependentRowBesideNearCopies: the equalities x_1 + x_2 = 1 and
// x_1 + (1+d) x_2 = 1+d fix x_2 = 1 through 1/d, x_3 fixed at 0 and
// x_3 + d x_4 = d fix x_4 = 1 likewise, and the rows x_2 <= 1 and
// (x_2 + x_4)/2 <= 1, which the objective presses, hold at x* = (0, 1, 0,
// 1) because the equalities imply them: their normals are in the
// members' span exactly, through coefficients of 1/d. A row is admitted
// when rounding shows it violated; its null direction must find it
// consistent and skip it. The set-up called the equalities infeasible
// (d <= 1e-7), and the rows' null directions, formed behind the pairs'
// pivots of d^2, were not null.
func TestDependentRowBesideNearCopies(t *testing.T) {
	inf := math.Inf(1)
	for _, d := range []float64{1e-6, 1e-7, 1e-8, 0x1p-27, 1e-9, 1e-10} {
		e := 1 + d
		p := &Problem{N: 4, H: dense([][]float64{{2, 1, 0, 0}, {1, 2, 1, 0}, {0, 1, 2, 1}, {0, 0, 1, 2}}),
			C:   []float64{0, -5, 0, -3},
			Aeq: dense([][]float64{{1, 1, 0, 0}, {1, e, 0, 0}, {0, 0, 1, d}}), Beq: []float64{1, e, d},
			A: dense([][]float64{{0, 1, 0, 0}, {0, 0.5, 0, 0.5}}), B: []float64{1, 1},
			Lower: []float64{-inf, -inf, 0, -inf}, Upper: []float64{inf, inf, 0, inf}}
		solvedExactly(t, fmt.Sprintf("d=%g", d), p, mustNew(t, p).Solve(ctx))
	}
}

// TestSkippedRowsStaySkipped: x in [-1e19, 1e19] with row 4 (x >= 0.916)
// held and rows 2 (x <= -1.463) and 5 (x <= -0.003) its exact opposites.
// The null direction of each pair leaves A'y zero only to a rounding of
// 8e-20, which the bounds turn into 0.8 of the box's minimum, more than
// the margin: each is found consistent-dependent in turn and skipped.
// When the skip of row 5 let row 2 back in at the same level, the two
// alternated until the safety bound. Both stay skipped, and the solve
// ends after a few changes (with the pair weighted crosswise as its
// certificate, oppositeCertificate).
func TestSkippedRowsStaySkipped(t *testing.T) {
	rows := [][]float64{{-1.004}, {-1.179}, {1.004}, {0.296}, {-0.000981}, {0.296}}
	b := []float64{1.469, 0.998, -1.469, 0.552, -0.000899, -0.000899}
	p := &Problem{N: 1, H: dense([][]float64{{0.245225}}), C: []float64{2.067},
		A: dense(rows), B: b, Lower: []float64{-1e19}, Upper: []float64{1e19}}
	r := mustNew(t, p).Solve(ctx)
	if r.Steps > 50 || r.Status != StatusInfeasible {
		t.Errorf("%v after %d working-set changes, want infeasible within 50", r.Status, r.Steps)
	}
	if err := exactFarkasBox(rows, b, p.Lower, p.Upper, r.FarkasA); err != nil {
		t.Errorf("certificate %v: %v", r.FarkasA, err)
	}
}
