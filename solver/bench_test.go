package solver

import (
	"context"
	"testing"
)

// BenchmarkPaperQP times a cold solve (Reset before each) of the paper's QP
// (seed 1) to a certified relative gap of 1e-6, polished, per method, and
// reports the incremental steps and the relative error against the reference.
func BenchmarkPaperQP(b *testing.B) {
	p, ref := loadQP(b, 1)
	for _, m := range allMethods {
		b.Run(m.String(), func(b *testing.B) {
			s, err := New(p, &Options{Method: m, Tol: 1e-6, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var res *Result
			for b.Loop() {
				s.Reset()
				res, _ = s.Solve(ctx)
			}
			b.ReportMetric(float64(res.Steps), "steps")
			b.ReportMetric(relErr(res.X, ref.X), "relerr")
			if res.Status != StatusSolved {
				b.Fatalf("status %v", res.Status)
			}
		})
	}
}
