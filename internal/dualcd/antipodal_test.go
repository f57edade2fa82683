package dualcd

import (
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestAntipodalPair: rows equal up to sign, value by value, are found
// among copies and near misses; copies of one sign, rows differing in a
// column or a last bit, and empty rows are not pairs.
func TestAntipodalPair(t *testing.T) {
	next := math.Nextafter(0.5, 1)
	for _, c := range []struct {
		name string
		rows [][]float64
		i, j int
	}{
		{"none", [][]float64{{1, 2, 0}, {0, 1, 2}}, -1, -1},
		{"copies", [][]float64{{1, -2, 0}, {1, -2, 0}, {1, -2, 0}}, -1, -1},
		{"pair", [][]float64{{0, 1, 0}, {1, -2, 0}, {0, 0, 3}, {-1, 2, 0}}, 1, 3},
		{"after copies", [][]float64{{1, 0.5, 0}, {1, 0.5, 0}, {1, 0.5, 0}, {-1, -0.5, 0}}, 0, 3},
		{"last bit", [][]float64{{1, 0.5, 0}, {-1, -next, 0}}, -1, -1},
		{"other column", [][]float64{{1, 0.5, 0}, {-1, 0, -0.5}}, -1, -1},
		{"empty rows", [][]float64{{0, 0, 0}, {0, 0, 0}}, -1, -1},
		{"leading zero", [][]float64{{0, -3, 4}, {0, 3, -4}}, 0, 1},
	} {
		a := mat.SparseFromRows(c.rows, 3)
		i, j := antipodalPair(a)
		if i != c.i || j != c.j {
			t.Errorf("%s: pair (%d, %d), want (%d, %d)", c.name, i, j, c.i, c.j)
		}
	}
	// An explicit -0 in one row and 0 in the other: still a pair.
	a := &mat.Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 2, 4}, Idx: []int32{0, 1, 0, 1},
		Val: []float64{math.Copysign(0, -1), 2, 0, -2}}
	if i, j := antipodalPair(a); i != 0 || j != 1 {
		t.Errorf("signed zeros: pair (%d, %d), want (0, 1)", i, j)
	}
}

// TestSolveAntipodal: examples repeated under both labels in unequal
// numbers (three times +1 and once -1, and so on), the form in which
// coordinate descent spreads lambda over every group at once: Solve
// answers Infeasible before its first epoch with y = e_i + e_j, an exact
// certificate, and allocates nothing doing it again.
func TestSolveAntipodal(t *testing.T) {
	p := planted(500, 80, 8, 21)
	a := p.A
	for g, copies := range [][2]int{{3, 1}, {1, 4}, {2, 5}} {
		src := 10 * (g + 1)
		lo, hi := a.Ptr[src], a.Ptr[src+1]
		for c := 0; c < copies[0]+copies[1]; c++ {
			sign := 1.0
			if c >= copies[0] {
				sign = -1
			}
			a.Idx = append(a.Idx, a.Idx[lo:hi]...)
			for _, v := range a.Val[lo:hi] {
				a.Val = append(a.Val, sign*v)
			}
			a.Rows++
			a.Ptr = append(a.Ptr, len(a.Idx))
			p.B = append(p.B, -1)
		}
	}
	w := New(p, Options{Seed: 1})
	r := w.Solve()
	if r.Status != Infeasible || r.Epochs != 0 {
		t.Fatalf("status %v after %d epochs, want Infeasible after 0", r.Status, r.Epochs)
	}
	var nz []int
	for i, y := range r.Farkas {
		if y != 0 {
			nz = append(nz, i)
			if y != 1 {
				t.Errorf("y[%d] = %v, want 1", i, y)
			}
		}
	}
	if len(nz) != 2 {
		t.Fatalf("certificate on rows %v, want two", nz)
	}
	aty := make([]float64, a.Cols)
	a.MulTransVecAdd(aty, r.Farkas)
	for j, v := range aty {
		if v != 0 {
			t.Fatalf("(A'y)[%d] = %v, want 0 exactly", j, v)
		}
	}
	if allocs := testing.AllocsPerRun(3, func() { w.Solve() }); allocs != 0 {
		t.Errorf("Solve: %v allocations", allocs)
	}
}

// TestFarkasHoldsRadius: K documents v + d e_k under one label and v under
// the other (v: ones on 1000 features, e_k a feature of document k's
// own), as SVM rows with b = -1. y (1/K on the copies, 1 on v) has
// A'y = -(d/K) sum_k e_k: columns e_k do not cancel at all, though
// ||A'y||_1 = d is within the rounding of all the terms (2000) together,
// and x = -e_0 + (3/d) sum_k e_k separates the data with margins of 1.
// With d = 1e-12 y proves only ||x|| >= 2e12 and is refused, as with
// d = 1e-10; with d = 1e-17 (2e17, d below eps times the rows' largest
// entry) it holds; with d = 0 every column cancels, exactly (K = 64) or
// to the rounding of weights 1/K not exact in binary (K = 100).
func TestFarkasHoldsRadius(t *testing.T) {
	const nv = 1000
	for _, c := range []struct {
		k    int
		d    float64
		want bool
	}{{64, 1e-12, false}, {64, 1e-10, false}, {64, 1e-17, true}, {64, 0, true}, {100, 0, true}, {100, 1e-12, false}} {
		rows := make([][]float64, c.k+1)
		b := make([]float64, c.k+1)
		y := make([]float64, c.k+1)
		for i := range rows {
			rows[i] = make([]float64, nv+c.k)
			sign := -1.0 // the copies, label +1: row -a
			if i == c.k {
				sign = 1 // v under label -1: row +v
			}
			for j := 0; j < nv; j++ {
				rows[i][j] = sign
			}
			if i < c.k {
				rows[i][nv+i] = -c.d
				y[i] = 1 / float64(c.k)
			} else {
				y[i] = 1
			}
			b[i] = -1
		}
		a := mat.SparseFromRows(rows, nv+c.k)
		aty, size := make([]float64, nv+c.k), make([]float64, nv+c.k)
		if got := FarkasHolds(a, b, y, aty, size); got != c.want {
			t.Errorf("K %d, d %g: FarkasHolds %v, want %v", c.k, c.d, got, c.want)
		}
	}
}
