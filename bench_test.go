package softpen

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/softpen/softpen/libsvm"
)

// End-to-end benchmarks: time and incremental steps to a certified answer,
// with the relative error against the reference reported as a metric.

func BenchmarkPaperQP(b *testing.B) {
	f, err := os.Open("testdata/qp/paper-qp-100-s1.json")
	if err != nil {
		b.Fatal(err)
	}
	p, err := ReadProblem(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	for _, tol := range []float64{1e-3, 1e-6, 1e-9} {
		b.Run(tolName(tol), func(b *testing.B) {
			s, err := NewSolver(p, &Options{Tol: tol})
			if err != nil {
				b.Fatal(err)
			}
			var res *Result
			for b.Loop() {
				s.Reset()
				res, _ = s.Solve(context.Background())
			}
			b.ReportMetric(float64(res.Steps), "steps")
			b.ReportMetric(res.Gap, "gap")
		})
	}
}

func BenchmarkMushroomsSVM(b *testing.B) {
	f, err := os.Open("testdata/svm/mushrooms.libsvm")
	if err != nil {
		b.Fatal(err)
	}
	d, err := libsvm.Read(f, 0)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	p := SVMProblem(d.Labels, d.Rows, false)
	for _, rule := range []ScreenRule{ScreenNone, ScreenGapSafe} {
		b.Run(map[ScreenRule]string{ScreenNone: "screen=none", ScreenGapSafe: "screen=gap-safe"}[rule], func(b *testing.B) {
			var res *Result
			for b.Loop() {
				res, _ = Solve(context.Background(), p, &Options{Tol: 1e-6, Screen: rule})
			}
			b.ReportMetric(float64(res.Steps), "steps")
			b.ReportMetric(float64(res.Kept), "kept")
		})
	}
}

func tolName(t float64) string { return fmt.Sprintf("tol=%g", t) }
