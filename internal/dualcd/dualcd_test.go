package dualcd

import (
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// planted returns m rows over n features, about k nonzeros each, labelled
// by a planted hyperplane with margin: the rows -y_i a_i of a separable
// hard-margin SVM.
func planted(m, n, k int, seed uint64) Problem {
	s := seed
	next := func() float64 {
		s = s*6364136223846793005 + 1442695040888963407
		return float64(s>>11) / (1 << 53)
	}
	w := make([]float64, n)
	for j := range w {
		w[j] = next() - 0.5
	}
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	b := make([]float64, m)
	for i := 0; i < m; i++ {
		for {
			lo := len(a.Idx)
			var t float64
			for j := 0; j < n; j++ {
				if next() < float64(k)/float64(n) {
					v := next() + 0.1
					a.Idx, a.Val = append(a.Idx, int32(j)), append(a.Val, v)
					t += v * w[j]
				}
			}
			if math.Abs(t) > 0.05 {
				y := math.Copysign(1, t)
				for q := lo; q < len(a.Val); q++ {
					a.Val[q] *= -y
				}
				break
			}
			a.Idx, a.Val = a.Idx[:lo], a.Val[:lo]
		}
		a.Ptr[i+1] = len(a.Idx)
		b[i] = -1
	}
	return Problem{A: a, B: b, Ridge: 1}
}

// TestSolvedFeasibleDeterministic: separable data end Solved at a point
// that satisfies every row as computed here, the same bits for the same
// seed, and a warm re-solve allocates nothing.
func TestSolvedFeasibleDeterministic(t *testing.T) {
	p := planted(400, 60, 8, 3)
	w := New(p, Options{Tol: 1e-10, Seed: 5})
	r := w.Solve()
	if r.Status != Solved {
		t.Fatalf("status %v gap %v", r.Status, r.Gap)
	}
	for i := 0; i < p.A.Rows; i++ {
		idx, val := p.A.Row(i)
		var v float64
		for k, j := range idx {
			v += val[k] * r.X[j]
		}
		if v > p.B[i]+1e-12 {
			t.Fatalf("row %d: %v > %v", i, v, p.B[i])
		}
	}
	x1 := append([]float64(nil), r.X...)
	w2 := New(p, Options{Tol: 1e-10, Seed: 5})
	r2 := w2.Solve()
	for j := range x1 {
		if math.Float64bits(x1[j]) != math.Float64bits(r2.X[j]) {
			t.Fatalf("x[%d] differs between two solves with one seed", j)
		}
	}
	if a := testing.AllocsPerRun(3, func() { w.Solve() }); a != 0 {
		t.Errorf("warm Solve: %v allocations", a)
	}
}

// TestInfeasibleCertificate: the same example under both labels makes the
// rows infeasible; the Farkas vector holds exactly.
func TestInfeasibleCertificate(t *testing.T) {
	p := planted(300, 40, 6, 9)
	a := p.A
	lo, hi := a.Ptr[7], a.Ptr[8]
	a.Idx = append(a.Idx, a.Idx[lo:hi]...)
	for _, v := range a.Val[lo:hi] {
		a.Val = append(a.Val, -v)
	}
	a.Rows++
	a.Ptr = append(a.Ptr, len(a.Idx))
	p.B = append(p.B, -1)
	r := New(p, Options{}).Solve()
	if r.Status != Infeasible {
		t.Fatalf("status %v", r.Status)
	}
	aty := make([]float64, a.Cols)
	a.MulTransVecAdd(aty, r.Farkas)
	var by float64
	for i, y := range r.Farkas {
		by += y * p.B[i]
		if y < 0 {
			t.Fatalf("y[%d] = %v", i, y)
		}
	}
	for j, v := range aty {
		if math.Abs(v) > 1e-12 {
			t.Fatalf("(A'y)[%d] = %v", j, v)
		}
	}
	if !(by < 0) {
		t.Fatalf("b'y = %v", by)
	}
}

// TestFarkasHookChecked: a candidate from Options.Farkas counts only if it
// passes the exact check (a wrong or negative one is refused, a right one
// is scaled to largest entry 1), and the hook is asked again only once
// lambda's largest entry has doubled.
func TestFarkasHookChecked(t *testing.T) {
	// x <= -1 and -2x <= -1: y = (2, 1) combines them into 0 <= -3.
	a := mat.SparseFromRows([][]float64{{1}, {-2}}, 1)
	var give []float64
	calls := 0
	w := New(Problem{A: a, B: []float64{-1, -1}, Ridge: 1}, Options{Farkas: func(lam, y []float64) bool {
		calls++
		copy(y, give)
		return give != nil
	}})
	// A lambda whose own candidates fail: lambda/max = (1, 0.3), and the
	// indicators (1, 0) and (1, 1).
	w.lam[0], w.lam[1] = 1, 0.3
	for _, c := range []struct {
		give []float64
		lmax float64
		ok   bool
	}{
		{[]float64{1, 1}, 1, false},   // A'y = -1
		{[]float64{4, 2}, 1, false},   // right, but lambda has not doubled
		{[]float64{4, 2}, 2, true},    // right
		{[]float64{-4, -2}, 4, false}, // negative
		{nil, 8, false},               // none found
	} {
		give = c.give
		w.lam[0] = c.lmax
		w.lam[1] = 0.3 * c.lmax
		if got := w.farkas(); got != c.ok {
			t.Fatalf("give %v at lambda %v: farkas %v, want %v", c.give, w.lam, got, c.ok)
		}
		if c.ok && (w.y[0] != 1 || w.y[1] != 0.5) {
			t.Fatalf("y = %v, want [1 0.5]", w.y)
		}
	}
	if calls != 4 {
		t.Fatalf("hook called %d times, want 4 (once per doubling of lambda)", calls)
	}
}
