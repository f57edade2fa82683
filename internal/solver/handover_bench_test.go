package solver

import (
	"context"
	"fmt"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// largeQPProblem is the root benchmarks' largeQP: testqp.LargeQP, seed 1.
func largeQPProblem(l, m, n int) *Problem { return fromTestQP(testqp.LargeQP(l, m, n, 1)) }

// separableSVMProblem is the root benchmarks' separableSVM:
// testqp.SeparableSVM, seed 7, as a hard-margin SVM.
func separableSVMProblem(m, n int) *Problem { return hardMarginSVM(testqp.SeparableSVM(m, n, 7)) }

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
