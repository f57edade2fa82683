package solver

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// largeQPProblem is largeQP of the root benchmarks, the same draws: l loss
// rows phi ~ N(0,1), m rows a ~ N(0,1) scaled to unit norm, y ~ N(0,1),
// b = |N(0,1)|, ridge 0.1.
func largeQPProblem(l, m, n int) *Problem {
	g := lcg(1)
	phi := randDense(&g, l, n)
	A := randDense(&g, m, n)
	for j := 0; j < m; j++ {
		row := A.Row(j)
		s := 0.0
		for _, v := range row {
			s += v * v
		}
		for i := range row {
			row[i] /= math.Sqrt(s)
		}
	}
	y := make([]float64, l)
	for i := range y {
		y[i] = g.norm()
	}
	b := make([]float64, m)
	for j := range b {
		b[j] = math.Abs(g.norm())
	}
	return &Problem{N: n, Loss: LossSquared, Phi: phi, Y: y, Ridge: 0.1, A: A, B: b}
}

// separableSVMProblem is separableSVM of the root benchmarks, the same
// draws: m points a ~ N(0, I) in R^n labelled by a random hyperplane
// through 0, those within 0.1 of it pushed 0.1 further out; the rows are
// -y_j a_j'x <= -1, ridge 1.
func separableSVMProblem(m, n int) *Problem {
	g := lcg(7)
	w := make([]float64, n)
	ww := 0.0
	for i := range w {
		w[i] = g.norm()
		ww += w[i] * w[i]
	}
	for i := range w {
		w[i] /= math.Sqrt(ww)
	}
	return svmOn(randDense(&g, m, n), w, 0.1)
}

// BenchmarkHandoverGap is the measurement behind handoverGap: the penalty
// method (apg, no probe) to a certified 1e-9, handing over to the engine
// once its relative gap is below 1e-3 ... 1e-6, on a separable SVM
// (m = 1e6, n = 50) and a large QP (l = 2000, m = 1e5, n = 100). It
// reports the engine's working-set changes and the penalty method's steps.
// (At 1e-2 and 1e-1 the SVM takes 7-30 s: the engine needs 730-980
// changes.)
// Skipped under -short; run with -benchtime 1x (the SVM takes seconds).
func BenchmarkHandoverGap(b *testing.B) {
	if testing.Short() {
		b.Skip("long benchmark")
	}
	for _, pr := range []struct {
		name string
		p    *Problem
	}{{"svm-m=1e6", separableSVMProblem(1000000, 50)}, {"largeqp-m=1e5", largeQPProblem(2000, 100000, 100)}} {
		for _, gap := range []float64{1e-3, 1e-4, 1e-5, 1e-6} {
			b.Run(fmt.Sprintf("%s/gap=%g", pr.name, gap), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					s, err := New(pr.p, &Options{Method: MethodAPG, Tol: 1e-9, NoProbe: true})
					if err != nil {
						b.Fatal(err)
					}
					s.fin.gap = gap
					res, _ = s.Solve(context.Background())
				}
				if res.Status != StatusSolved || !res.Polished {
					b.Fatalf("status %v, polished %v", res.Status, res.Polished)
				}
				b.ReportMetric(float64(res.Iterations), "changes")
				b.ReportMetric(float64(res.Steps), "steps")
			})
		}
	}
}
