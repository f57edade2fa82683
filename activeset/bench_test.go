package activeset

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
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

// BenchmarkPaperQPWarm is SetB + Solve on paper QP s1 with each b_j
// perturbed by up to 1% or 10% per call (a service re-solving with new
// data): the working set of the last solve is the hot start. It reports
// the median and p99 of the solve times it saw.
func BenchmarkPaperQPWarm(b *testing.B) {
	p, _ := paperQP(b, "s1")
	for _, size := range []float64{0.01, 0.1} {
		b.Run(fmt.Sprintf("perturb=%g%%", 100*size), func(b *testing.B) {
			s := mustNew(b, p)
			s.Solve(ctx)
			rhs := perturbedCopies(p.B, size)
			warmResolves(b, s, func(i int) error { return s.SetB(rhs[i%len(rhs)]) })
		})
	}
}

// BenchmarkPaperQPBoundsWarm is SetBounds + Solve on paper QP s1 in the
// box |x_i| <= 0.2 (about 0.8 ||x*||_inf of the problem without it: four
// variables at a bound), each bound perturbed by up to 1% or 10% per
// call; the rows keep their b. Reported as BenchmarkPaperQPWarm.
func BenchmarkPaperQPBoundsWarm(b *testing.B) {
	box := paperQPBox(b, 0.2)
	for _, size := range []float64{0.01, 0.1} {
		b.Run(fmt.Sprintf("perturb=%g%%", 100*size), func(b *testing.B) {
			s := mustNew(b, box)
			s.Solve(ctx)
			lo, up := perturbedCopies(box.Lower, size), perturbedCopies(box.Upper, size)
			warmResolves(b, s, func(i int) error { return s.SetBounds(lo[i%len(lo)], up[i%len(up)]) })
		})
	}
}

// perturbedCopies returns 64 copies of v, each entry moved by a factor of
// 1 + size u, u uniform in [-1, 1] (the same stream for every v).
func perturbedCopies(v []float64, size float64) [][]float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([][]float64, 64)
	for i := range out {
		out[i] = make([]float64, len(v))
		for j, x := range v {
			out[i][j] = x * (1 + size*(2*rng.Float64()-1))
		}
	}
	return out
}

// warmResolves times update(i) and then Solve on s, for i = 0, 1, ...,
// each answer required solved, and reports the median and p99 of those
// single re-solves.
func warmResolves(b *testing.B, s *Solver, update func(i int) error) {
	var times []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if err := update(i); err != nil {
			b.Fatal(err)
		}
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

// BenchmarkInverseNorms: NewAt's pass over the rows of the large QP
// (m = 1e5 rows of n = 100, 80 MB): each row's inverse norm, sparse listing
// and product with a guess, the stream that a solve on many rows starts
// with (inverseNorms).
func BenchmarkInverseNorms(b *testing.B) {
	p := testqp.LargeQP(2000, 100000, 100, 1)
	m, n := len(p.A), p.N
	inv, dots, x := make([]float64, m), make([]float64, m), make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(i+1)
	}
	ints, floats, bools := sparseBuilderSlab(m, n)
	for b.Loop() {
		var sbv sparseBuilder
		in, fl, bl := slab[int32](make([]int32, ints)), slab[float64](make([]float64, floats)), slab[bool](make([]bool, bools))
		sb := newSparseBuilder(&sbv, m, n, &in, &fl, &bl)
		if err := inverseNorms(inv, "A", 0, p.A, true, sb, x, dots); err != nil {
			b.Fatal(err)
		}
	}
}
