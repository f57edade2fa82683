package dualcd

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/boxqp"
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

// randomLabels returns m rows over n > m features, about k nonzeros each,
// under random labels: the rows are independent, so the hard-margin SVM is
// feasible, but by a small margin, and coordinate descent is slow on it.
func randomLabels(m, n, k int, seed uint64) Problem {
	p := planted(m, n, k, seed)
	s := seed ^ 0x9e3779b97f4a7c15
	for i := 0; i < m; i++ {
		s = s*6364136223846793005 + 1442695040888963407
		if s>>63 == 1 {
			for q := p.A.Ptr[i]; q < p.A.Ptr[i+1]; q++ {
				p.A.Val[q] = -p.A.Val[q]
			}
		}
	}
	return p
}

// exactDual is a Finish hook for tests: the dual on every row solved
// exactly by boxqp on the dense K = A A'/ridge.
func exactDual(p Problem) func(lam []float64) bool {
	m := p.A.Rows
	k := mat.NewDense(m, m)
	c := make([]float64, m)
	for i := 0; i < m; i++ {
		ii, vi := p.A.Row(i)
		for j := 0; j < m; j++ {
			ij, vj := p.A.Row(j)
			var s float64
			for a, b := 0, 0; a < len(ii) && b < len(ij); {
				switch {
				case ii[a] < ij[b]:
					a++
				case ii[a] > ij[b]:
					b++
				default:
					s += vi[a] * vj[b]
					a, b = a+1, b+1
				}
			}
			k.Data[i*m+j] = s / p.Ridge
		}
		c[i] = p.B[i]
	}
	return func(lam []float64) bool {
		var w boxqp.Workspace
		return w.Solve(k, c, lam, boxqp.Options{}).Status == boxqp.Converged
	}
}

// TestFinishHook: on data where coordinate descent alone needs more than
// finishFirst epochs, a Finish that returns the exact dual ends the solve,
// certified, within the 64 epochs after its first call; a
// Finish that writes NaN is refused and the solve goes on from the old
// lambda.
func TestFinishHook(t *testing.T) {
	p := randomLabels(600, 600, 8, 7)
	plain := New(p, Options{Tol: 1e-11, Seed: 1, MaxEpochs: 4 * finishFirst}).Solve()
	if plain.Status == Solved && plain.Epochs <= finishFirst {
		t.Fatalf("coordinate descent alone solved in %d epochs: not the slow case meant", plain.Epochs)
	}
	w := New(p, Options{Tol: 1e-11, Seed: 1, MaxEpochs: 4 * finishFirst, Finish: exactDual(p)})
	r := w.Solve()
	if r.Status != Solved || r.Epochs > finishFirst+64 {
		t.Fatalf("with the exact dual: status %v after %d epochs (gap %.3g), want solved by %d", r.Status, r.Epochs, r.Gap, finishFirst+64)
	}
	calls := 0
	bad := New(p, Options{Tol: 1e-11, Seed: 1, MaxEpochs: finishFirst + 200, Finish: func(lam []float64) bool {
		calls++
		lam[0] = math.NaN()
		return true
	}})
	rb := bad.Solve()
	if calls == 0 {
		t.Fatal("Finish never called")
	}
	for i, l := range rb.Lambda {
		if !(l >= 0) || math.IsInf(l, 0) {
			t.Fatalf("lambda[%d] = %v kept from a refused Finish", i, l)
		}
	}
	t.Logf("alone: %v after %d epochs (gap %.3g)", plain.Status, plain.Epochs, plain.Gap)
}

// TestFarkasRadius: x1 + x2 <= -1 and -x1 - (1 + 1e-13) x2 <= -1 hold
// together only for x2 >= 2e13, and y = (1, 1) leaves A'y = (0, -1e-13):
// it proves no point within |x| = 2e13 is feasible, not that none is, and
// the rows' rounding there (about 1e-2) is far below their margin of 1.
// checkFarkas, which took any (A'y)_k within 1e-12 of its terms as 0,
// accepted it. It must refuse it, and accept y = (3, 1) for the parallel
// rows 0.1 x <= -1 and -0.3 x <= -1, whose A'y is the data's rounding.
func TestFarkasRadius(t *testing.T) {
	for _, c := range []struct {
		rows [][]float64
		y    []float64
		ok   bool
	}{
		{[][]float64{{1, 1}, {-1, -1 - 1e-13}}, []float64{1, 1}, false},
		{[][]float64{{0.1}, {-0.3}}, []float64{3, 1}, true},
	} {
		a := mat.SparseFromRows(c.rows, len(c.rows[0]))
		w := New(Problem{A: a, B: []float64{-1, -1}, Ridge: 1}, Options{})
		copy(w.y, c.y)
		if got := w.checkFarkas(); got != c.ok {
			t.Errorf("rows %v, y %v: checkFarkas %v, want %v", c.rows, c.y, got, c.ok)
		}
	}
}
