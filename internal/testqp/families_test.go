package testqp

import (
	"math"
	"testing"
)

// TestLargeQP: the documented shape (unit rows of A, b >= 0, ridge 0.1),
// and the first draw of the stream is phi[0][0].
func TestLargeQP(t *testing.T) {
	p := LargeQP(7, 50, 6, 1)
	g := LCG(1)
	if len(p.Phi) != 7 || len(p.Y) != 7 || len(p.A) != 50 || len(p.B) != 50 || p.N != 6 || p.Ridge != 0.1 || p.Loss != "squared" {
		t.Fatalf("shape: l %d/%d m %d/%d n %d ridge %g loss %q", len(p.Phi), len(p.Y), len(p.A), len(p.B), p.N, p.Ridge, p.Loss)
	}
	if p.Phi[0][0] != g.Normal() {
		t.Errorf("phi[0][0] is not the stream's first draw")
	}
	for j, a := range p.A {
		var s float64
		for _, v := range a {
			s += v * v
		}
		if math.Abs(s-1) > 1e-14 || p.B[j] < 0 {
			t.Errorf("row %d: ||a||^2 = %v, b = %v", j, s, p.B[j])
		}
	}
}

// TestSeparableSVM: every point is on its label's side of the hyperplane
// (through the origin, normal the stream's first n draws), 0.1 from it at
// least.
func TestSeparableSVM(t *testing.T) {
	labels, points := SeparableSVM(2000, 5, 7)
	g := LCG(7)
	w := g.Normals(5)
	var ww float64
	for _, v := range w {
		ww += v * v
	}
	for j, a := range points {
		var s float64
		for i := range a {
			s += w[i] * a[i] / math.Sqrt(ww)
		}
		if d := labels[j] * s; d < 0.1-1e-12 {
			t.Errorf("point %d: label %v, signed distance %v", j, labels[j], s)
		}
	}
}

// TestSeparate: points within the margin move out along w by the margin,
// the others stay; labels follow the side (+1 on the plane).
func TestSeparate(t *testing.T) {
	points := [][]float64{{0.05, 3}, {-0.05, 1}, {0, 0}, {2, 0}, {-2, 5}}
	labels := Separate(points, []float64{1, 0}, 0.1)
	want := [][]float64{{0.15, 3}, {-0.15, 1}, {0.1, 0}, {2, 0}, {-2, 5}}
	wantLabels := []float64{1, -1, 1, 1, -1}
	for j := range points {
		if labels[j] != wantLabels[j] || math.Abs(points[j][0]-want[j][0]) > 1e-15 || points[j][1] != want[j][1] {
			t.Errorf("point %d: %v label %v, want %v label %v", j, points[j], labels[j], want[j], wantLabels[j])
		}
	}
}
