package solver

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// wsProblem is a planted QP with many more rows than variables (so Solve
// uses a working set): n = 20, m = 3000, 10 active rows.
func wsProblem() (*Problem, []float64, []float64) {
	return planted(31, 20, 3000, 10, 1)
}

// The tests of this file are about the penalty method's working set: they
// name MethodAPG, since MethodAuto solves problems of these sizes directly.

// TestWorkingSet: with a working set the solver finds the planted x* and
// lambda*, keeps far fewer rows than m, reports exactly the rows outside the
// working set (ascending) as dropped, satisfies every row, and agrees with a
// solve on all rows.
func TestWorkingSet(t *testing.T) {
	p, x, lam := wsProblem()
	m := p.A.Rows
	res := solveOK(t, p, &Options{Tol: 1e-10, Method: MethodAPG})
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if d := maxAbsDiff(res.X, x); d > 1e-8 {
		t.Errorf("max |x - x*| = %.3e", d)
	}
	if d := maxAbsDiff(res.Lambda, lam); d > 1e-6 {
		t.Errorf("max |lambda - lambda*| = %.3e", d)
	}
	if res.MaxViolation > 1e-9 {
		t.Errorf("max violation %.3e", res.MaxViolation)
	}
	if res.Kept >= m/4 || res.Kept+len(res.Screened)+len(res.Outside) != m {
		t.Errorf("kept %d, screened %d, outside %d of %d rows", res.Kept, len(res.Screened), len(res.Outside), m)
	}
	if !slices.IsSorted(res.Screened) || !slices.IsSorted(res.Outside) {
		t.Error("screened or outside rows not in ascending order")
	}
	for _, j := range append(res.Screened, res.Outside...) {
		if lam[j] != 0 {
			t.Errorf("row %d is active but was dropped", j)
		}
	}
	all := solveOK(t, p, &Options{Tol: 1e-10, Method: MethodAPG, AllRows: true})
	if all.Kept+len(all.Screened)+len(all.Outside) != m {
		t.Errorf("AllRows: kept %d, screened %d, outside %d", all.Kept, len(all.Screened), len(all.Outside))
	}
	if d := maxAbsDiff(res.X, all.X); d > 1e-8 {
		t.Errorf("working set and all rows differ by %.3e", d)
	}
}

// TestWorkingSetNoPolish: without polishing, readmitted rows go back into
// the stages; the answer is near x* and its gap meets the tolerance, at a
// point that violates rows beyond rounding: precision_limit, not solved.
func TestWorkingSetNoPolish(t *testing.T) {
	p, x, _ := wsProblem()
	res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-6, NoPolish: true})
	if res.Status != StatusPrecisionLimit || !(res.Gap <= 1e-6*math.Max(1, math.Abs(res.Objective))) {
		t.Fatalf("status %v, gap %.3e", res.Status, res.Gap)
	}
	if d := testqp.Dist(res.X, x); d > 1e-3 {
		t.Errorf("||x - x*|| = %.3e", d)
	}
}

// TestWorkingSetBudgetHonest: stopped by the step budget at any point of the
// working-set rounds, the reported distance bound (from the gap, which
// counts the violated rows outside the working set) still holds.
func TestWorkingSetBudgetHonest(t *testing.T) {
	p, x, _ := wsProblem()
	for steps := int64(1000); steps <= 3e6; steps *= 3 {
		for _, polish := range []bool{true, false} {
			res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-12, MaxSteps: steps, NoPolish: !polish})
			if d := testqp.Dist(res.X, x); !(d <= res.DistBound*(1+1e-9)+1e-12) {
				t.Errorf("budget %d polish %v: %v, ||x - x*|| = %.3e > bound %.3e (gap %.3e)",
					steps, polish, res.Status, d, res.DistBound, res.Gap)
			}
		}
	}
}

// TestWorkingSetResolveAllocs: a warm re-solve that builds a working set and
// readmits rows allocates nothing.
func TestWorkingSetResolveAllocs(t *testing.T) {
	p, _, _ := wsProblem()
	s, err := New(p, &Options{Tol: 1e-9, Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if res, _ := s.Solve(ctx); res.Kept == p.A.Rows {
		t.Fatal("no working set was used; the test would not exercise it")
	}
	if a := testing.AllocsPerRun(3, func() { s.Reset(); s.Solve(ctx) }); a != 0 {
		t.Errorf("working-set re-solve allocates %v times", a)
	}
}

// TestARows: rows of A passed as slices give the same bits as A itself.
func TestARows(t *testing.T) {
	p, _, _ := wsProblem()
	want := solveOK(t, p, nil)
	q := *p
	q.A = nil
	for j := 0; j < p.A.Rows; j++ {
		q.ARows = append(q.ARows, p.A.Row(j))
	}
	got := solveOK(t, &q, nil)
	if !slices.Equal(got.X, want.X) || got.Gap != want.Gap {
		t.Errorf("ARows changes the answer")
	}
}

// TestRowNormOverflow: a row whose entries are finite but whose norm
// overflows is reported by index, not silently zeroed.
func TestRowNormOverflow(t *testing.T) {
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1,
		ARows: [][]float64{{1, 1}, {1.5e308, -1.5e308}}, B: []float64{1, 1}}
	for _, m := range []Method{MethodAPG, MethodActiveSet} {
		if _, err := New(p, &Options{Method: m}); err == nil || !strings.Contains(err.Error(), "A[1]") || !strings.Contains(err.Error(), "norm overflows") {
			t.Errorf("%v: err = %v", m, err)
		}
	}
}

// TestWorkingSetStoresKeptRows: with a working set the solver stores only
// its kept block (New copies no row); every stored row, also after all rows
// are brought back, is the caller's row scaled to unit norm, bit for bit as
// without a working set; residuals of rows outside the block, computed from
// the caller's rows, agree with those of the stored rows.
func TestWorkingSetStoresKeptRows(t *testing.T) {
	p, _, _ := wsProblem()
	full, err := New(p, &Options{Method: MethodAPG, AllRows: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(p, &Options{Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	if !s.lazy || full.lazy {
		t.Fatalf("lazy = %v with a working set, %v with AllRows", s.lazy, full.lazy)
	}
	if s.a.Rows >= s.mw/4 {
		t.Errorf("New stored room for %d of %d rows", s.a.Rows, s.mw)
	}
	res, err := s.Solve(context.Background())
	if err != nil || res.Status != StatusSolved {
		t.Fatalf("%v, %v", res.Status, err)
	}
	if s.a.Rows >= s.mw/4 {
		t.Errorf("Solve stored room for %d of %d rows (kept %d)", s.a.Rows, s.mw, s.kept)
	}
	x := res.X
	outside := make([]float64, 0, s.mw)
	for k := s.kept; k < s.mw; k++ {
		outside = append(outside, s.rowResidual(k, x))
	}
	s.restoreRows()
	byCode := map[rowCode][]float64{}
	for k := 0; k < full.mw; k++ {
		byCode[full.code[k]] = full.a.Row(k)
	}
	for k := 0; k < s.mw; k++ {
		if !slices.Equal(s.a.Row(k), byCode[s.code[k]]) {
			t.Fatalf("stored row %d (caller row %d) differs from the unit row", k, int(s.code[k]))
		}
	}
	kept := s.mw - len(outside)
	for i, r := range outside {
		k := kept + i
		stored := s.rowResidual(k, x)
		if d := r - stored; d > 1e-14 || d < -1e-14 {
			t.Errorf("row %d: residual %g from the caller's row, %g from the unit row", k, r, stored)
		}
	}
}

// TestWorkingSetEqualities: an equality row (both signs, read from Aeq on
// the fly) in a working-set solve. The planted problem's first active row
// becomes the equality, so the answer is still the planted x*, with
// nu = lambda*_0 and the other multipliers unchanged.
func TestWorkingSetEqualities(t *testing.T) {
	p, x, lam := wsProblem()
	n, m := p.N, p.A.Rows
	q := *p
	q.A = &mat.Dense{Rows: m - 1, Cols: n, Stride: n, Data: p.A.Data[n:]}
	q.B = p.B[1:]
	q.Aeq = &mat.Dense{Rows: 1, Cols: n, Stride: n, Data: p.A.Data[:n]}
	q.Beq = p.B[:1]
	ws := solveOK(t, &q, &Options{Tol: 1e-10, Method: MethodAPG})
	all := solveOK(t, &q, &Options{Method: MethodAPG, Tol: 1e-10, AllRows: true})
	if ws.Status != StatusSolved || all.Status != StatusSolved {
		t.Fatalf("status %v (working set), %v (all rows)", ws.Status, all.Status)
	}
	if ws.Kept >= m/4 {
		t.Errorf("kept %d of %d rows: no working set", ws.Kept, m)
	}
	for name, r := range map[string]*Result{"working set": ws, "all rows": all} {
		if d := maxAbsDiff(r.X, x); d > 1e-8 {
			t.Errorf("%s: max |x - x*| = %.3e", name, d)
		}
		if d := maxAbsDiff(r.Lambda, lam[1:]); d > 1e-6 {
			t.Errorf("%s: max |lambda - lambda*| = %.3e", name, d)
		}
		if d := math.Abs(r.Nu[0] - lam[0]); d > 1e-6 {
			t.Errorf("%s: nu %g, want %g", name, r.Nu[0], lam[0])
		}
		if res := vec.Dot(q.Aeq.Row(0), r.X) - q.Beq[0]; math.Abs(res) > 1e-9 {
			t.Errorf("%s: equality residual %.3e", name, res)
		}
	}
}

// TestFinalScreen: a solved gap-safe answer keeps only rows the final
// certificate cannot prove inactive: every kept row has a positive
// multiplier or a slack below sqrt(2 gap / mu); every screened row has a
// slack above DistBound at the answer and is inactive at x*; the rows
// outside hold; the three sets split the rows. (Tol 1e-13: only a point
// feasible to rounding has a distance bound, and the KKT polish's point at
// 1e-10 violates its active rows by 9e-12.)
func TestFinalScreen(t *testing.T) {
	p, _, lam := wsProblem()
	s, err := New(p, &Options{Tol: 1e-13, Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background())
	if err != nil || res.Status != StatusSolved {
		t.Fatalf("%v, %v", res.Status, err)
	}
	thr := math.Sqrt(2 * res.Gap / s.mu)
	if math.IsInf(res.DistBound, 1) || len(res.Screened) == 0 {
		t.Fatalf("distance bound %g (violation %g, polished %v, gap %g), %d rows screened: the test would not exercise the final screen", res.DistBound, res.MaxViolation, res.Polished, res.Gap, len(res.Screened))
	}
	dropped := map[int]bool{}
	for _, j := range res.Screened {
		dropped[j] = true
		r := vec.Dot(p.A.Row(j), res.X) - p.B[j]
		if r >= -res.DistBound*math.Sqrt(vec.Dot(p.A.Row(j), p.A.Row(j))) || lam[j] != 0 {
			t.Errorf("screened row %d: residual %g, distance bound %g, lambda* %g", j, r, res.DistBound, lam[j])
		}
	}
	for _, j := range res.Outside {
		if dropped[j] {
			t.Errorf("row %d both screened and outside", j)
		}
		dropped[j] = true
	}
	kept := 0
	for j := 0; j < p.A.Rows; j++ {
		r := vec.Dot(p.A.Row(j), res.X) - p.B[j]
		if dropped[j] {
			if r > 1e-9 || lam[j] != 0 {
				t.Errorf("dropped row %d: residual %g, lambda* %g", j, r, lam[j])
			}
			continue
		}
		kept++
		if res.Lambda[j] == 0 && r/math.Sqrt(vec.Dot(p.A.Row(j), p.A.Row(j))) < -thr {
			t.Errorf("kept row %d has lambda 0 and slack %g > %g", j, -r, thr)
		}
	}
	if kept != res.Kept {
		t.Errorf("Kept = %d, rows not dropped %d", res.Kept, kept)
	}
	t.Logf("kept %d of %d rows (10 active), %d screened, %d outside, gap %.2e", kept, p.A.Rows, len(res.Screened), len(res.Outside), res.Gap)
}

// TestPrecisionFloorWholeProblem: a tolerance below the certificate's
// rounding floor stops with StatusPrecisionLimit, but only once the whole
// problem is certified: the floor of the kept rows was taken for the
// problem's, and at tol 1e-14 the solve stopped with 80 of 3000 rows kept,
// answering a point that violated others by 31 (gap 9e4).
func TestPrecisionFloorWholeProblem(t *testing.T) {
	p, x, _ := wsProblem()
	res := solveOK(t, p, &Options{Tol: 1e-14, Method: MethodAPG})
	if res.Status != StatusPrecisionLimit && res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if d := maxAbsDiff(res.X, x); res.MaxViolation > 1e-12 || res.Gap > 1e-10 || d > 1e-8 {
		t.Errorf("%v: violation %.3g, gap %.3g, max |x - x*| %.3g (%s)", res.Status, res.MaxViolation, res.Gap, d, res.Message)
	}
}

// TestEqualityConstraints: Aeq x = beq with multipliers of both signs.
func TestEqualityConstraints(t *testing.T) {
	p, x, lam, nu := plantedEqualities()
	res := solveOK(t, p, &Options{Tol: 1e-10})
	t.Logf("status %v err %.2e nu %v want %v", res.Status, maxAbsDiff(res.X, x), res.Nu, nu)
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if d := maxAbsDiff(res.X, x); d > 1e-8 {
		t.Errorf("max |x - x*| = %.3e", d)
	}
	if d := maxAbsDiff(res.Nu, nu); d > 1e-6 {
		t.Errorf("max |nu - nu*| = %.3e", d)
	}
	if d := maxAbsDiff(res.Lambda, lam); d > 1e-6 {
		t.Errorf("max |lambda - lambda*| = %.3e", d)
	}
}

// TestZeroRows: a zero row with b >= 0 is dropped; with b < 0 the problem is
// infeasible and the certificate is that row.
func TestZeroRows(t *testing.T) {
	A := mat.NewDense(2, 2)
	copy(A.Data, []float64{0, 0, 1, 1})
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, Q: []float64{-1, -1}, A: A, B: []float64{0, 1}}
	res := solveOK(t, p, nil)
	if res.Status != StatusSolved || math.Abs(res.X[0]-0.5) > 1e-9 || res.Lambda[0] != 0 {
		t.Errorf("zero row with b = 0: status %v x %v lambda %v", res.Status, res.X, res.Lambda)
	}
	p.B = []float64{-1, 1}
	res = solveOK(t, p, nil)
	if res.Status != StatusInfeasible || res.Farkas[0] != 1 {
		t.Errorf("zero row with b < 0: status %v farkas %v", res.Status, res.Farkas)
	}
}
