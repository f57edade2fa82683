package mat

import (
	"math"
	"testing"
)

// TestNormEstimates: diag(3, 1, 0.5) rotated has ||A||_2 = 3; its Gram
// matrix has largest eigenvalue 9.
func TestNormEstimates(t *testing.T) {
	c, s := math.Cos(0.3), math.Sin(0.3)
	a := NewDense(3, 3)
	copy(a.Data, []float64{3 * c, -3 * s, 0, s, c, 0, 0, 0, 0.5})
	v, w, r := make([]float64, 3), make([]float64, 3), make([]float64, 3)
	if got := a.NormEstimate(100, v, w, r); math.Abs(got-3) > 1e-12 {
		t.Errorf("NormEstimate = %v, want 3", got)
	}
	g := NewDense(3, 3)
	a.Gram(g, 1)
	if got := g.SymNormEstimate(100, v, w); math.Abs(got-9) > 1e-11 {
		t.Errorf("SymNormEstimate = %v, want 9", got)
	}
	if a := testing.AllocsPerRun(5, func() { a.NormEstimate(10, v, w, r) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
	sp := SparseFromRows([][]float64{a.Row(0), a.Row(1), a.Row(2)}, 3)
	if got := sp.NormEstimate(100, v, w, r); math.Abs(got-3) > 1e-12 {
		t.Errorf("Sparse.NormEstimate = %v, want 3", got)
	}
	if a := testing.AllocsPerRun(5, func() { sp.NormEstimate(10, v, w, r) }); a != 0 {
		t.Errorf("Sparse: %v allocations", a)
	}
}
