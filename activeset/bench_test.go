package activeset

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/qpgen"
)

// BenchmarkPaperQPCold is New + Solve on paper QPs s1-s5 (H and c given:
// copying and factoring H, then the solve from an empty working set), with
// the solve alone as solve-ns.
func BenchmarkPaperQPCold(b *testing.B) {
	for _, seed := range []string{"s1", "s2", "s3", "s4", "s5"} {
		p, _ := paperQP(b, seed)
		b.Run(seed, func(b *testing.B) {
			var solve time.Duration
			for b.Loop() {
				s := mustNew(b, p)
				t0 := time.Now()
				if r := s.Solve(ctx); r.Status != StatusSolved {
					b.Fatal(r.Status)
				}
				solve += time.Since(t0)
			}
			b.ReportMetric(float64(solve.Nanoseconds())/float64(b.N), "solve-ns")
		})
	}
}

// BenchmarkPaperQPWarm is SetB + Solve on paper QP s1 with b perturbed by
// up to 1% per call (a service re-solving with new data): the working set
// of the last solve is the hot start. It reports the median and p99 of the
// solve times it saw.
func BenchmarkPaperQPWarm(b *testing.B) {
	p, _ := paperQP(b, "s1")
	s := mustNew(b, p)
	s.Solve(ctx)
	rng := rand.New(rand.NewPCG(7, 7))
	const k = 64
	rhs := make([][]float64, k)
	for i := range rhs {
		rhs[i] = make([]float64, len(p.B))
		for j, v := range p.B {
			rhs[i][j] = v * (1 + 0.01*(2*rng.Float64()-1))
		}
	}
	var times []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		s.SetB(rhs[i%k])
		if r := s.Solve(ctx); r.Status != StatusSolved {
			b.Fatal(r.Status)
		}
		times = append(times, time.Since(t0))
		i++
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkFamilies times the generator's families cold (New + Solve, the
// figure to set beside a peer's setup + solve) for n = 10, 30, 100, 300,
// seed 1 (the other seeds behave alike), and reports the solve alone
// (Reset + Solve on the factored problem) as solve-ns. A problem the
// generator marks MayBeUndecided may end undecided.
func BenchmarkFamilies(b *testing.B) {
	for _, fam := range qpgen.Families() {
		for _, n := range []int{10, 30, 100, 300} {
			q := qpgen.Generate(fam, n, 1)
			p := fromGen(q)
			b.Run(fmt.Sprintf("%s/n=%d", fam, n), func(b *testing.B) {
				var solve time.Duration
				var steps int
				for b.Loop() {
					s, err := New(p, nil)
					if err != nil {
						b.Fatal(err)
					}
					t0 := time.Now()
					r := s.Solve(ctx)
					solve += time.Since(t0)
					steps = r.Steps
					undecided := r.Status == StatusPrecisionLimit && q.MayBeUndecided
					if !undecided && ((r.Status == StatusInfeasible) != q.Infeasible || r.Status == StatusPrecisionLimit) {
						b.Fatalf("status %v", r.Status)
					}
				}
				b.ReportMetric(float64(solve.Nanoseconds())/float64(b.N), "solve-ns")
				b.ReportMetric(float64(steps), "steps")
			})
		}
	}
}
