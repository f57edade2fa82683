package solver

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/testqp"
)

// BenchmarkPaperQP times a cold solve (Reset before each) of the paper's QP
// (seed 1) to a certified relative gap of 1e-6, polished, per method, and
// reports the incremental steps and the relative error against the reference.
func BenchmarkPaperQP(b *testing.B) {
	p, ref := loadQP(b, 1)
	for _, m := range penaltyMethods {
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
			b.ReportMetric(testqp.RelErr(res.X, ref.X), "relerr")
			if res.Status != StatusSolved {
				b.Fatalf("status %v", res.Status)
			}
		})
	}
}

// BenchmarkPaperQPToAccuracy: incremental steps and time until each method,
// without polishing, first reaches relative error 1e-3 and 1e-6 against the
// reference on the paper's QP (seed 1), checked every 100 steps through
// Options.Observe; the solve is stopped at 1e-6 or after 2e7 steps. -1
// means not reached. The polished times to 1e-9 are BenchmarkPaperQP's (its
// answers are within 1e-14). Run with -benchtime 1x: the stochastic methods
// take seconds.
func BenchmarkPaperQPToAccuracy(b *testing.B) {
	p, ref := loadQP(b, 1)
	for _, m := range penaltyMethods {
		b.Run(m.String(), func(b *testing.B) {
			var steps [2]int64
			var took [2]time.Duration
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				steps, took = [2]int64{-1, -1}, [2]time.Duration{-1, -1}
				start := time.Now()
				opt := &Options{Method: m, Tol: 1e-15, Seed: 1, NoPolish: true, MaxSteps: 2e7, ObserveEvery: 100,
					Observe: func(n int64, x []float64) {
						e := testqp.RelErr(x, ref.X)
						for i, target := range []float64{1e-3, 1e-6} {
							if e <= target && steps[i] < 0 {
								steps[i], took[i] = n, time.Since(start)
							}
						}
						if steps[1] >= 0 {
							cancel()
						}
					}}
				s, err := New(p, opt)
				if err != nil {
					b.Fatal(err)
				}
				s.Solve(ctx)
				cancel()
			}
			ms := func(d time.Duration) float64 {
				if d < 0 {
					return -1
				}
				return float64(d) / 1e6
			}
			b.ReportMetric(float64(steps[0]), "steps-1e-3")
			b.ReportMetric(ms(took[0]), "ms-1e-3")
			b.ReportMetric(float64(steps[1]), "steps-1e-6")
			b.ReportMetric(ms(took[1]), "ms-1e-6")
		})
	}
}

// BenchmarkPaperQPSGDTo1e4: the incremental steps after which SGD and
// SGDM, with their defaults and no polishing, first reach relative error
// 1e-4 on each reference QP (seeds 1-5; checked every 1e6 steps through
// Options.Observe, which sees the running average), against sgdFloor's
// count, the fewest steps with which any uniformly sampled SGD gets there,
// and logs the relative error of the Result the solve then returns (the
// observation cancels its context). -1 means not within 5e10 steps, an
// error. The ten solves run GOMAXPROCS at a time and take about 20
// minutes on two cores (21 min measured): skipped with -short (CI runs the
// benchmarks that way); run it with
//
//	go test ./solver -run X -bench PaperQPSGDTo1e4 -benchtime 1x -timeout 0
func BenchmarkPaperQPSGDTo1e4(b *testing.B) {
	if testing.Short() {
		b.Skip("takes about 20 minutes")
	}
	type job struct {
		m    Method
		seed int
	}
	var jobs []job
	for _, m := range []Method{MethodSGD, MethodSGDM} {
		for seed := 1; seed <= 5; seed++ {
			jobs = append(jobs, job{m, seed})
		}
	}
	steps := make([]int64, len(jobs))
	floors := make([]float64, len(jobs))
	answers := make([]float64, len(jobs)) // Result.X's relative error after the stop
	for b.Loop() {
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for k, j := range jobs {
			p, ref := loadQP(b, j.seed)
			floors[k] = sgdFloor(b, p, ref).steps(1e-4)
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				steps[k] = -1
				opt := &Options{Method: j.m, Tol: 1e-15, Seed: 1, NoPolish: true, MaxSteps: 5e10, ObserveEvery: 1e6,
					Observe: func(n int64, x []float64) {
						if steps[k] < 0 && testqp.RelErr(x, ref.X) <= 1e-4 {
							steps[k] = n
							cancel()
						}
					}}
				s, err := New(p, opt)
				if err != nil {
					panic(err)
				}
				res, err := s.Solve(ctx)
				if err != nil {
					panic(err)
				}
				answers[k] = testqp.RelErr(res.X, ref.X)
			}()
		}
		wg.Wait()
	}
	for k, j := range jobs {
		b.Logf("%v s%d: 1e-4 after %.3g steps (floor %.3g, ratio %.1f); Result.X then %.3e", j.m, j.seed, float64(steps[k]), floors[k], float64(steps[k])/floors[k], answers[k])
		b.ReportMetric(float64(steps[k]), fmt.Sprintf("steps-%v-s%d", j.m, j.seed))
		if steps[k] < 0 {
			b.Errorf("%v s%d: relative error 1e-4 not reached in 5e10 steps", j.m, j.seed)
		}
	}
}
