package testqp

import (
	"math"
	"testing"
)

// TestLCGStream pins the generator's stream: the benchmarks' instances
// (and every figure measured on them) are these numbers, so a change to
// LCG must show here first. A copy goes on from where the original is.
func TestLCGStream(t *testing.T) {
	g := LCG(3)
	for i, want := range []float64{-0.9455879416978893, -0.4463416806280607, -0.7130883484565507} {
		if got := g.Normal(); got != want {
			t.Errorf("LCG(3) draw %d: %v, want %v", i, got, want)
		}
	}
	h := g
	if a, b := g.Normal(), h.Normal(); a != b {
		t.Errorf("a copy draws %v, the original %v", b, a)
	}
	for range 1000 {
		if u := g.Uniform(); !(u > 0 && u < 1) {
			t.Fatalf("uniform draw %v outside (0, 1)", u)
		}
	}
}

// TestNormalRows: rows are drawn in order (the same numbers as Normals)
// and cannot grow into each other.
func TestNormalRows(t *testing.T) {
	g, h := LCG(9), LCG(9)
	rows, flat := g.NormalRows(3, 4), h.Normals(12)
	for i, r := range rows {
		if len(r) != 4 || cap(r) != 4 {
			t.Fatalf("row %d: len %d cap %d", i, len(r), cap(r))
		}
		for j, v := range r {
			if math.Float64bits(v) != math.Float64bits(flat[4*i+j]) {
				t.Errorf("row %d [%d] = %v, want %v", i, j, v, flat[4*i+j])
			}
		}
	}
}
