package mat

import (
	"math"
	"strings"
	"testing"
)

// TestSparseProducts: MulVec, MulTransVecAdd and ToDense agree with the
// dense matrix they come from, on rows with no entries, one, and many.
func TestSparseProducts(t *testing.T) {
	rows := [][]float64{
		{0, 0, 0, 0, 0, 0, 0},
		{0, 2, 0, 0, 0, 0, -1},
		{1.5, 0, 0, 0.25, 0, 3, 0},
		{1, 2, 3, 4, 5, 6, 7},
	}
	s := SparseFromRows(rows, 7)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if s.NNZ() != 12 {
		t.Fatalf("NNZ %d, want 12", s.NNZ())
	}
	d := s.ToDense()
	for i, r := range rows {
		for j, v := range r {
			if d.Row(i)[j] != v {
				t.Fatalf("ToDense (%d,%d) = %v, want %v", i, j, d.Row(i)[j], v)
			}
		}
	}
	x := []float64{1, -2, 0.5, 3, -1, 0.25, 2}
	got, want := make([]float64, 4), make([]float64, 4)
	s.MulVec(got, x)
	d.MulVec(want, x)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-14 {
			t.Fatalf("MulVec[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	y := []float64{5, 1, -1, 0.5}
	gt, wt := []float64{1, 1, 1, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 1, 1}
	s.MulTransVecAdd(gt, y)
	d.MulTransVecAdd(wt, y)
	for j := range gt {
		if math.Abs(gt[j]-wt[j]) > 1e-14 {
			t.Fatalf("MulTransVecAdd[%d] = %v, want %v", j, gt[j], wt[j])
		}
	}
}

// TestSparseCheck: each malformation is named, none panics.
func TestSparseCheck(t *testing.T) {
	good := func() *Sparse {
		return &Sparse{Rows: 2, Cols: 4, Ptr: []int{0, 2, 3}, Idx: []int32{0, 3, 1}, Val: []float64{1, 2, 3}}
	}
	if err := good().Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		want string
		edit func(*Sparse)
	}{
		{"nil", nil},
		{"negative size", func(m *Sparse) { m.Cols = -1 }},
		{"ptr has length", func(m *Sparse) { m.Ptr = m.Ptr[:2] }},
		{"idx has length", func(m *Sparse) { m.Val = m.Val[:2] }},
		{"ptr runs from", func(m *Sparse) { m.Ptr[2] = 2 }},
		{"not nondecreasing", func(m *Sparse) { m.Ptr[1] = 4 }},
		{"row 0, entry 1: column 4 out of range", func(m *Sparse) { m.Idx[1] = 4 }},
		{"row 1, entry 0: column -1 out of range", func(m *Sparse) { m.Idx[2] = -1 }},
		{"indices must increase", func(m *Sparse) { m.Idx[1] = 0 }},
		{"value NaN", func(m *Sparse) { m.Val[2] = math.NaN() }},
		{"value +Inf", func(m *Sparse) { m.Val[0] = math.Inf(1) }},
	} {
		var m *Sparse
		if c.edit != nil {
			m = good()
			c.edit(m)
		}
		err := m.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
}
