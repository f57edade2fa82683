package testqp

import "math"

// LargeQP is the large-QP family of the benchmarks: the paper's generator
// (section 6.1) at scale, drawn from LCG(seed) instead of numpy. In the
// order drawn: l loss rows phi ~ N(0, I_n), m rows a ~ N(0, I_n) scaled to
// unit norm, l targets y ~ N(0, 1) and m bounds b = |N(0, 1)|; squared
// loss, ridge 0.1. The root's BenchmarkLargeQP solves LargeQP(2000, 1e5,
// 100, 1).
func LargeQP(l, m, n int, seed uint64) *Problem {
	g := LCG(seed)
	phi := g.NormalRows(l, n)
	p := &Problem{N: n, Loss: "squared", Ridge: 0.1, Phi: phi, A: g.NormalRows(m, n)}
	for _, a := range p.A {
		var s float64
		for _, v := range a {
			s += v * v
		}
		for i := range a {
			a[i] /= math.Sqrt(s)
		}
	}
	p.Y = g.Normals(l)
	p.B = make([]float64, m)
	for j := range p.B {
		p.B[j] = math.Abs(g.Normal())
	}
	return p
}

// SeparableSVM is the separable-SVM family of the benchmarks, drawn from
// LCG(seed): a normal w ~ N(0, I_n) scaled to unit norm, then m points
// a ~ N(0, I_n), labelled and moved by Separate(points, w, 0.1). The data
// are separable by the hyperplane w'x = 0 through the origin with margin
// at least 0.1, and no two points are tied on the margin, so the support
// vectors stay few as m grows. (Pushing the points to exactly 0.1 put 8%
// of them on the margin.) The root's benchmarks use seed 7.
func SeparableSVM(m, n int, seed uint64) (labels []float64, points [][]float64) {
	g := LCG(seed)
	w := g.Normals(n)
	var ww float64
	for _, v := range w {
		ww += v * v
	}
	for i := range w {
		w[i] /= math.Sqrt(ww)
	}
	points = g.NormalRows(m, n)
	return Separate(points, w, 0.1), points
}

// Separate labels each point by the side of the hyperplane w'x = 0 (+1
// where w'a >= 0, else -1) and moves the points with |w'a| < margin by
// margin further out along w, in place. With w of unit norm their
// distances to the hyperplane become [margin, 2 margin).
func Separate(points [][]float64, w []float64, margin float64) (labels []float64) {
	labels = make([]float64, len(points))
	for j, a := range points {
		var s float64
		for i := range a {
			s += w[i] * a[i]
		}
		labels[j] = 1
		if s < 0 {
			labels[j] = -1
		}
		if math.Abs(s) < margin {
			for i := range a {
				a[i] += labels[j] * margin * w[i]
			}
		}
	}
	return labels
}
