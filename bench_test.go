package softpen

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

// End-to-end benchmarks: time and incremental steps to a certified answer,
// with the relative error against the reference reported as a metric.

// BenchmarkPaperQP: seed 1 of the paper's QP to a certified tolerance, two
// ways. "solve-only" builds the Solver once, outside the timed loop, and
// times Reset + Solve (a cold start from x = 0 on a reused workspace: what
// a service re-solving one problem pays). "with-setup" times NewSolver +
// Solve, validation and every allocation included: what one call from a
// standing start costs, the figure to set beside another solver's whole
// call.
func BenchmarkPaperQP(b *testing.B) {
	p, _ := readQP(b, 1)
	for _, tol := range []float64{1e-3, 1e-6, 1e-9} {
		b.Run("solve-only/"+tolName(tol), func(b *testing.B) {
			s, err := NewSolver(p, &Options{Tol: tol})
			if err != nil {
				b.Fatal(err)
			}
			var res *Result
			for b.Loop() {
				s.Reset()
				res, err = s.Solve(context.Background())
			}
			reportSolved(b, res, err)
		})
		b.Run("with-setup/"+tolName(tol), func(b *testing.B) {
			var res *Result
			var err error
			for b.Loop() {
				var s *Solver
				if s, err = NewSolver(p, &Options{Tol: tol}); err != nil {
					b.Fatal(err)
				}
				res, err = s.Solve(context.Background())
			}
			reportSolved(b, res, err)
		})
	}
}

// reportSolved fails the benchmark unless the last solve ended solved, and
// reports its steps and certified gap: as the metric "gap-1e-15" (the gap
// in units of 1e-15, since the benchmark output prints small metrics as
// 0.0000000) and in a log line (benchmark logs are always printed).
func reportSolved(b *testing.B, res *Result, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
	if res.Status != StatusSolved {
		b.Fatalf("status %v, gap %.3g", res.Status, res.Gap)
	}
	b.ReportMetric(float64(res.Steps), "steps")
	b.ReportMetric(res.Gap*1e15, "gap-1e-15")
	b.Logf("status %v, certified gap %.2g (objective %.12g), %d steps, %d rows kept, polished %v",
		res.Status, res.Gap, res.Objective, res.Steps, keptOf(res), res.Penalty != nil && res.Penalty.Polished)
}

// BenchmarkMushroomsSVM: time and steps to the certified tolerance, with the
// relative error to the reference that the answer has, in units of 1e-15
// ("relerr-1e-15"), and the rows kept at the end.
func BenchmarkMushroomsSVM(b *testing.B) {
	p, ref := loadMushrooms(b)
	// "auto" is the default: the exact active-set method on this size.
	// The others are the penalty method (apg): "all-rows" without
	// screening or working set; the "ws+" variants start from a working set
	// (its default with many rows) and screen by their rule, or not;
	// "all-rows+screen=gap-safe" screens without a working set, which
	// isolates what screening alone does.
	variants := []struct {
		name string
		opt  Options
	}{
		{"auto", Options{}},
		{"all-rows", Options{Method: MethodAPG, Penalty: &PenaltyOptions{Screen: ScreenNone, AllRows: true}}},
		{"all-rows+screen=gap-safe", Options{Method: MethodAPG, Penalty: &PenaltyOptions{Screen: ScreenGapSafe, AllRows: true}}},
		{"ws+screen=none", Options{Method: MethodAPG, Penalty: &PenaltyOptions{Screen: ScreenNone}}},
		{"ws+screen=paper", Options{Method: MethodAPG, Penalty: &PenaltyOptions{Screen: ScreenPaper}}},
		{"ws+screen=gap-safe", Options{Method: MethodAPG, Penalty: &PenaltyOptions{Screen: ScreenGapSafe}}},
	}
	for _, v := range variants {
		for _, tol := range []float64{1e-4, 1e-6} {
			b.Run(v.name+"/"+tolName(tol), func(b *testing.B) {
				opt := v.opt
				opt.Tol = tol
				var res *Result
				var err error
				for b.Loop() {
					res, err = Solve(context.Background(), p, &opt)
				}
				reportSolved(b, res, err)
				b.ReportMetric(float64(keptOf(res)), "kept")
				b.ReportMetric(testqp.RelErr(res.X, ref.X)*1e15, "relerr-1e-15")
			})
		}
	}
}

func tolName(t float64) string { return fmt.Sprintf("tol=%g", t) }

// keptOf is the rows in the problem at the end: the penalty method's
// working set, or every row.
func keptOf(r *Result) int {
	if r.Penalty != nil {
		return r.Penalty.Kept
	}
	return len(r.Lambda) + len(r.Nu)
}

// BenchmarkLargeQP is the large instance: l = 2000, m = 1e5, n = 100,
// phi, y, A ~ N(0,1) with unit rows, b = |N(0,1)|, ridge 0.1 (the paper's
// generator at scale, testqp.LargeQP: drawn with testqp.LCG, not numpy),
// solved with the default options (tol 1e-6, polished). It fails unless the answer is
// solved, and reports the certified gap ("gap") beside the steps and the
// rows kept. One solve takes a tenth of a second, the set-up seconds: run
// it with -benchtime 1x.
func BenchmarkLargeQP(b *testing.B) {
	p := largeQP(2000, 100000, 100)
	var res *Result
	var err error
	for b.Loop() {
		res, err = Solve(context.Background(), p, nil)
	}
	reportSolved(b, res, err)
	b.ReportMetric(float64(keptOf(res)), "kept")
}

// BenchmarkLargeQPThreads is BenchmarkLargeQP with Options.Threads 1 and
// 2: the passes over its 1e5 rows (their norms in New, the pricing scans
// over all rows, the pool's rebuilds) on one goroutine or two, with the
// same bits. Run it with -benchtime 5x or more on an otherwise idle
// machine: the rows stream from memory, and the ratio is one of memory
// bandwidth.
func BenchmarkLargeQPThreads(b *testing.B) {
	solveOnThreads(b, largeQP(2000, 100000, 100), nil)
}

// solveOnThreads runs p's solve as the sub-benchmarks threads=1 and
// threads=2 (Options.Threads), each after one untimed solve, each
// reporting its answer (reportSolved) and then, when report is not nil,
// what report adds.
func solveOnThreads(b *testing.B, p *Problem, report func(b *testing.B, threads int)) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			// One solve before the timed ones, so that neither count pays
			// for the heap's first growth to a solve's size.
			res, err := Solve(context.Background(), p, &Options{Threads: threads})
			for b.Loop() {
				res, err = Solve(context.Background(), p, &Options{Threads: threads})
			}
			reportSolved(b, res, err)
			if report != nil {
				report(b, threads)
			}
		})
	}
}

// BenchmarkDenseLeastSquares: a constrained least-squares problem with
// many dense objective terms, the large-QP family at l = 2e5 terms of
// n = 400 features and m = 2000 rows (640 MB of phi), by MethodAuto (the
// exact path: H = phi'phi/l formed, then the active-set method) with
// Options.Threads 1 and 2; "gram-share" is the fraction of the time spent
// forming H (measured once, outside the timed loop, by mat.GramRowsThreads
// alone). Run it with -benchtime 3x on an otherwise idle machine.
func BenchmarkDenseLeastSquares(b *testing.B) {
	p := largeQP(200000, 2000, 400)
	solveOnThreads(b, p, func(b *testing.B, threads int) {
		h := mat.NewDense(p.N, p.N)
		start := time.Now()
		mat.GramRowsThreads(h, p.Phi, 1/float64(len(p.Phi)), threads)
		b.ReportMetric(time.Since(start).Seconds()*float64(b.N)/b.Elapsed().Seconds(), "gram-share")
	})
}

// largeQP is the large-QP family's first instance (seed 1).
func largeQP(l, m, n int) *Problem { return largeQPSeed(l, m, n, 1) }

// largeQPSeed is testqp.LargeQP in the root's form.
func largeQPSeed(l, m, n int, seed uint64) *Problem {
	return fromTestQP(testqp.LargeQP(l, m, n, seed))
}

// separableSVM is the separable-SVM family's instance of seed 7.
func separableSVM(m, n int) *Problem { return separableSVMSeed(m, n, 7) }

// separableSVMSeed is testqp.SeparableSVM as a hard-margin SVM (SVMProblem:
// rows -y_i a_i'x <= -1, ridge 1).
func separableSVMSeed(m, n int, seed uint64) *Problem {
	labels, points := testqp.SeparableSVM(m, n, seed)
	return SVMProblem(labels, points, false)
}

// BenchmarkSeparableSVM: time to tol 1e-4 on the synthetic separable set
// at m = 1e4, 1e5, 1e6 (n = 50), the scaling check: the time should
// grow about linearly in m. With MethodAuto's direct path "kept" is every
// row (the engine checks them all); the working set is its active rows.
// One solve at 1e6 takes about half a second and 0.6 GB: run with
// -benchtime 1x.
func BenchmarkSeparableSVM(b *testing.B) {
	for _, m := range []int{10000, 100000, 1000000} {
		p := separableSVM(m, 50)
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			var res *Result
			for b.Loop() {
				res, _ = Solve(context.Background(), p, &Options{Tol: 1e-4})
			}
			if res.Status != StatusSolved {
				b.Fatalf("status %v", res.Status)
			}
			b.ReportMetric(float64(res.Steps), "steps")
			b.ReportMetric(float64(keptOf(res)), "kept")
			if res.Penalty != nil {
				b.ReportMetric(100*float64(len(res.Penalty.Screened))/float64(m), "%screened")
				b.ReportMetric(100*float64(len(res.Penalty.Outside))/float64(m), "%outside")
			}
		})
	}
}

// BenchmarkMethods is the measurement behind MethodAuto's penalty method
// (defaultMethod in solver), with the direct active-set method beside it:
// every method, polished, to a certified
// relative gap of 1e-6 on problems of three sizes: the paper QP (l = m =
// n = 100), the mushrooms SVM (m = 8124, n = 126) and the large QP (l =
// 2000, m = 1e5, n = 100). A method that has not finished after 2e8 steps
// reports its status as max_steps in the "solved" metric (1 solved, 0 not).
// Run with -benchtime 1x: the stochastic methods take seconds.
func BenchmarkMethods(b *testing.B) {
	qp, _ := readQP(b, 1)
	svm, _ := loadMushrooms(b)
	large := largeQP(2000, 100000, 100)
	for _, pr := range []struct {
		name string
		p    *Problem
	}{{"paper-qp", qp}, {"mushrooms", svm}, {"large-qp", large}} {
		for _, m := range []Method{MethodActiveSet, MethodAPG, MethodCatalyst, MethodSVRG, MethodSGDM, MethodSGD} {
			b.Run(pr.name+"/"+m.String(), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					res, err = Solve(context.Background(), pr.p, &Options{Method: m, Tol: 1e-6, Seed: 1, MaxSteps: 2e8})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Steps), "steps")
				solved := 0.0
				if res.Status == StatusSolved {
					solved = 1
				}
				b.ReportMetric(solved, "solved")
			})
		}
	}
}

// BenchmarkDirectCrossover was the measurement behind solver.DirectMaxRows
// (MethodAuto's limit of the direct path until the sampled start made the
// direct path the faster at every size; solver/defaults.go): the direct
// active-set method against the penalty method (apg, with its working set)
// on the large-QP family (l = 2000, n = 100) as the rows grow, cold (Solve
// builds everything), to a certified relative gap of 1e-9.
func BenchmarkDirectCrossover(b *testing.B) {
	for _, m := range []int{1000, 3000, 10000, 30000, 100000} {
		p := largeQP(2000, m, 100)
		for _, method := range []Method{MethodActiveSet, MethodAPG} {
			b.Run(fmt.Sprintf("m=%d/%v", m, method), func(b *testing.B) { benchSolve(b, p, method) })
		}
	}
}

// BenchmarkPaperQPWarm is a service's re-solve: SetB with each b_j
// perturbed by up to 1% or 10% (a random relative change) and Solve on one
// Solver (paper QP s1, MethodAuto: the active-set method from the last
// working set), with the median and p99 of the solve times seen and the
// mean working-set changes per solve.
func BenchmarkPaperQPWarm(b *testing.B) {
	p, _ := readQP(b, 1)
	for _, size := range []float64{0.01, 0.1} {
		b.Run(fmt.Sprintf("perturb=%g%%", 100*size), func(b *testing.B) {
			rhs := perturbed(p.B, size)
			warmResolves(b, p, func(s *Solver, i int) error { return s.SetB(rhs[i%len(rhs)]) })
		})
	}
}

// perturbed returns 64 copies of v with each entry moved by a factor of
// 1 + size*tanh(z), z standard normal: moves of up to size, most smaller.
func perturbed(v []float64, size float64) [][]float64 {
	out := make([][]float64, 64)
	g := testqp.LCG(3)
	for i := range out {
		out[i] = make([]float64, len(v))
		for j, x := range v {
			out[i][j] = x * (1 + size*math.Tanh(g.Normal()))
		}
	}
	return out
}

// warmResolves times update(s, i) and then Solve on one Solver of p, for
// i = 0, 1, ..., each answer required solved, and reports median-ns and
// p99-ns over those single re-solves (timeEach) and the mean working-set
// changes (iterations).
func warmResolves(b *testing.B, p *Problem, update func(s *Solver, i int) error) {
	s, err := NewSolver(p, nil)
	if err != nil {
		b.Fatal(err)
	}
	changes := 0
	timeEach(b, func(i int) {
		if err := update(s, i); err != nil {
			b.Fatal(err)
		}
		res, err := s.Solve(context.Background())
		if err != nil || res.Status != StatusSolved {
			b.Fatalf("status %v (%v)", res.Status, err)
		}
		changes += res.Iterations
	})
	b.ReportMetric(float64(changes)/float64(b.N), "iterations")
}

// timeEach runs f(0), f(1), ... in b.Loop, timing each call alone, and
// reports the median and the 99th percentile of those times as
// median-ns and p99-ns.
func timeEach(b *testing.B, f func(i int)) {
	var times []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		f(i)
		times = append(times, time.Since(t0))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkQuietLoop times, as timeEach times a warm re-solve, a fixed
// chain of dependent multiply-adds that touches no memory and allocates
// nothing, of about the length of one re-solve (steps=4000) and of two.
// Whatever its p99-ns has over its median-ns is the machine's (interrupts,
// other processes, a hypervisor), not the code's: it is the floor under
// the p99 of any single solve of that length on that machine.
func BenchmarkQuietLoop(b *testing.B) {
	for _, steps := range []int{4000, 8000} {
		b.Run(fmt.Sprintf("steps=%d", steps), func(b *testing.B) {
			x := 1.0
			timeEach(b, func(int) {
				y := x // a register, not the captured variable, in the loop
				for range steps {
					y = y*1.0000001 + 1e-9
				}
				x = y
			})
			if !(x > 1) {
				b.Fatal(x) // keeps the chain live
			}
		})
	}
}

// BenchmarkPaperQPTolerance: NewSolver + Solve of paper QP s1 at tol 1e-9
// (solved) and 1e-16 (below the certificate's rounding floor: it must end
// as quickly, with StatusPrecisionLimit), on the direct and penalty paths.
func BenchmarkPaperQPTolerance(b *testing.B) {
	p, _ := readQP(b, 1)
	for _, m := range []Method{MethodAuto, MethodAPG} {
		for _, tc := range []struct {
			tol  float64
			want Status
		}{{1e-9, StatusSolved}, {1e-16, StatusPrecisionLimit}} {
			b.Run(fmt.Sprintf("%v/%s", m, tolName(tc.tol)), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					if res, err = Solve(context.Background(), p, &Options{Tol: tc.tol, Method: m}); err != nil {
						b.Fatal(err)
					}
				}
				if res.Status != tc.want {
					b.Fatalf("status %v, want %v (gap %.3g)", res.Status, tc.want, res.Gap)
				}
			})
		}
	}
}

// BenchmarkHandoverSweep: softpen.Solve (set-up included) to a certified
// relative gap of 1e-9 on the separable SVM (n = 50) and the large-QP
// family (l = 2000, n = 100), m = 1e6 / 2^(k/2) for k = 20..0 (977 to 1e6
// rows, sweepRows: neighbours differ by sqrt(2) in m, so linear growth is
// 1.41x between them and a jump of 2x is a cliff, not noise about linear
// growth), by MethodAuto, the direct active-set method and the penalty
// method with its handover (apg). Each op solves each of the family's
// sweepInstances instances at that m once (sweepOp): ns/solve is the mean
// time of one. Run with -benchtime 1x (the largest take seconds and 1 GB);
// under -short (as CI runs the benchmarks) only the first four sizes.
func BenchmarkHandoverSweep(b *testing.B) {
	for _, fam := range sweepFamilies {
		for _, m := range sweepRows() {
			for _, method := range []Method{MethodAuto, MethodActiveSet, MethodAPG} {
				b.Run(fmt.Sprintf("%s/m=%d/%v", fam.name, m, method), func(b *testing.B) {
					var st sweepStats
					for i := 0; i < b.N; i++ {
						st.op(b, fam, m, method, nil)
					}
					st.report(b)
				})
			}
		}
	}
}

// BenchmarkHandoverSweepCold is BenchmarkHandoverSweep's sweep (MethodAuto
// only) with the caches evicted before every timed Solve: a 1 GiB buffer
// (twice the 480 MiB last-level cache this machine reports) is written
// untimed first. In the warm sweep the rows of the smaller problems are
// still in cache from the generator that just wrote them, and those of the
// larger ones are not: that difference is the hardware's, not the
// method's, and this variant leaves it out. Run with -benchtime 1x; under
// -short only the first four sizes, with 1 MiB written.
func BenchmarkHandoverSweepCold(b *testing.B) {
	evict := make([]byte, 1<<30)
	if testing.Short() {
		evict = evict[:1<<20]
	}
	for _, fam := range sweepFamilies {
		for _, m := range sweepRows() {
			b.Run(fmt.Sprintf("%s/m=%d", fam.name, m), func(b *testing.B) {
				var st sweepStats
				for i := 0; i < b.N; i++ {
					st.op(b, fam, m, MethodAuto, evict)
				}
				st.report(b)
			})
		}
	}
}

// sweepRows is the sweeps' grid: m = 1e6 / 2^(k/2), k = 20..0.
// sweepRows is the sweep's grid: m = 1e6 / 2^(k/2), k = 20..0; under
// -short only its first four sizes (977 to 2762 rows), so that the sweep's
// code runs in every CI at little cost.
func sweepRows() []int {
	var ms []int
	last := 0
	if testing.Short() {
		last = 17
	}
	for k := 20; k >= last; k-- {
		ms = append(ms, int(math.Round(1e6/math.Exp2(float64(k)/2))))
	}
	return ms
}

// sweepInstances is the number of instances of a family the sweeps solve
// at each m. The working-set changes a problem needs vary from instance to
// instance (the large QP at m = 31250: 72, 89, 101, 103, 109, 110 changes
// for seeds 1..6), as much as they grow from one m to the next, so one
// instance per m shows its own draw as a step of the curve; the sweeps
// time the family, the mean over these instances.
const sweepInstances = 4

// sweepFamilies are the two families of the sweeps: the separable SVM
// (n = 50) and the large QP (l = 2000, n = 100), m rows each, instance i
// drawn from seed seed0 + i (the first is the instance the other
// benchmarks use).
var sweepFamilies = []sweepFamily{
	{"svm", func(m int, seed uint64) *Problem { return separableSVMSeed(m, 50, seed) }, 7},
	{"largeqp", func(m int, seed uint64) *Problem { return largeQPSeed(2000, m, 100, seed) }, 1},
}

type sweepFamily struct {
	name  string
	gen   func(m int, seed uint64) *Problem
	seed0 uint64
}

// sweepStats counts the sweeps' solves and their working-set changes.
type sweepStats struct {
	solves, changes int
}

// op solves each instance of fam with m rows by method to a certified
// 1e-9 (the benchmark fails otherwise), timing the solves only. Each
// instance is drawn just before its solve, and the collector run, untimed:
// only one instance is in memory at a time (four at m = 1e6 took 3.2 GB,
// and made the solves 1.3-1.8x slower than one alone, erratically), and
// the garbage of the last is not collected during the next solve. With
// evict the buffer is written first (the caches cold).
func (st *sweepStats) op(b *testing.B, fam sweepFamily, m int, method Method, evict []byte) {
	for i := range sweepInstances {
		b.StopTimer()
		p := fam.gen(m, fam.seed0+uint64(i))
		runtime.GC()
		for j := 0; j < len(evict); j += 64 {
			evict[j]++
		}
		b.StartTimer()
		res, err := Solve(context.Background(), p, &Options{Method: method, Tol: 1e-9})
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != StatusSolved {
			b.Fatalf("instance %d: status %v, gap %.3g", i, res.Status, res.Gap)
		}
		st.solves++
		st.changes += res.Iterations
	}
}

// report gives the mean time per solve (ns/op is the time of all the
// instances) and the mean working-set changes.
func (st *sweepStats) report(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(st.solves), "ns/solve")
	b.ReportMetric(float64(st.changes)/float64(st.solves), "iterations")
}

// benchSolve times cold Solves of p with method to 1e-9, fails unless the
// last is solved, and reports its working-set changes and steps.
func benchSolve(b *testing.B, p *Problem, method Method) {
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Solve(context.Background(), p, &Options{Method: method, Tol: 1e-9}); err != nil {
			b.Fatal(err)
		}
	}
	if res.Status != StatusSolved {
		b.Fatalf("status %v, gap %.3g", res.Status, res.Gap)
	}
	b.ReportMetric(float64(res.Iterations), "iterations")
	b.ReportMetric(float64(res.Steps), "steps")
}

// BenchmarkMPC: the closed-loop sequences of testqp.MPCSequence (each
// system at its testqp.MPCHorizons, seed 1, 200 steps; 20 under -short),
// every step's condensed QP solved cold by Solve (MethodAuto, default
// tolerance, set-up included), one op solving the whole sequence.
// ns/solve is the mean time of one QP and "iterations" its mean
// working-set changes. It fails unless every answer is solved.
func BenchmarkMPC(b *testing.B) {
	steps := 200
	if testing.Short() {
		steps = 20
	}
	for _, sys := range testqp.MPCSystems {
		for _, h := range testqp.MPCHorizons(sys) {
			b.Run(fmt.Sprintf("%s/N=%d", sys, h), func(b *testing.B) {
				run, err := testqp.MPCSequence(sys, h, steps, 1)
				if err != nil {
					b.Fatal(err)
				}
				ps := make([]*Problem, len(run.Steps))
				for k, st := range run.Steps {
					ps[k] = &Problem{N: run.N, P: run.H, Q: st.Q, Lower: run.Lower, Upper: run.Upper, A: run.A, B: st.B}
				}
				var solves, changes int
				for b.Loop() {
					for k, p := range ps {
						res, err := Solve(context.Background(), p, nil)
						if err != nil {
							b.Fatal(err)
						}
						if res.Status != StatusSolved {
							b.Fatalf("step %d: status %v, gap %.3g", k, res.Status, res.Gap)
						}
						solves++
						changes += res.Iterations
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(solves), "ns/solve")
				b.ReportMetric(float64(changes)/float64(solves), "iterations")
			})
		}
	}
}

// BenchmarkMPCWarm: the sequences of BenchmarkMPC as a controller runs
// them, one Solver for the whole sequence, each step's new q and b taken
// by SetQ and SetB and solved from the last working set. ns/step is the
// mean time of one step (update and solve), median-ns and p99-ns those of
// single steps, and "iterations" the mean working-set changes. It fails
// unless every answer is solved.
func BenchmarkMPCWarm(b *testing.B) {
	steps := 200
	if testing.Short() {
		steps = 20
	}
	for _, sys := range testqp.MPCSystems {
		for _, h := range testqp.MPCHorizons(sys) {
			b.Run(fmt.Sprintf("%s/N=%d", sys, h), func(b *testing.B) {
				run, err := testqp.MPCSequence(sys, h, steps, 1)
				if err != nil {
					b.Fatal(err)
				}
				first := run.Steps[0]
				s, err := NewSolver(&Problem{N: run.N, P: run.H, Q: first.Q, Lower: run.Lower, Upper: run.Upper, A: run.A, B: first.B}, nil)
				if err != nil {
					b.Fatal(err)
				}
				var times []time.Duration
				changes := 0
				for b.Loop() {
					for k, st := range run.Steps {
						t0 := time.Now()
						if err := s.SetQ(st.Q); err != nil {
							b.Fatal(err)
						}
						if err := s.SetB(st.B); err != nil {
							b.Fatal(err)
						}
						res, err := s.Solve(context.Background())
						times = append(times, time.Since(t0))
						if err != nil || res.Status != StatusSolved {
							b.Fatalf("step %d: status %v (%v)", k, res.Status, err)
						}
						changes += res.Iterations
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(times)), "ns/step")
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
				b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
				b.ReportMetric(float64(changes)/float64(len(times)), "iterations")
			})
		}
	}
}

// BenchmarkFitMethods is the measurement behind MethodAuto's choice for
// the fitting model given with dense rows (a loss, ridge, l1, bounds; no
// rows or P; Problem.sparsePath): the logistic loss with ridge 1/l on
// mushrooms (8124 x 112, 19% nonzeros) and on a wider synthetic set (4000
// rows over 5000 features, 2% nonzeros), with and without bounds and l1,
// by newton (Newton steps on the dense Hessian, which above n = 3000 hand
// over to the penalty method, apg), by newton-cg (the rows compressed) and
// by auto, to a certified relative gap of 1e-9. -short leaves out newton
// on the wide set (tens of seconds).
func BenchmarkFitMethods(b *testing.B) {
	for _, set := range fitSets(b) {
		d := set.x.ToDense()
		rows := make([][]float64, d.Rows)
		for i := range rows {
			rows[i] = d.Row(i)
		}
		n := set.x.Cols
		fill := func(v float64) []float64 {
			out := make([]float64, n)
			for j := range out {
				out[j] = v
			}
			return out
		}
		for _, reg := range []struct {
			name   string
			l1     float64
			lo, hi []float64
		}{{"ridge", 0, nil, nil}, {"box+l1", 1e-4, fill(-0.5), fill(0.5)}} {
			for _, m := range []Method{MethodNewton, MethodNewtonCG, MethodAuto} {
				if testing.Short() && m == MethodNewton && set.name == "wide" {
					continue
				}
				p := &Problem{N: n, Loss: "logistic", Phi: rows, Y: set.y, Ridge: 1 / float64(len(rows)), L1: reg.l1, Lower: reg.lo, Upper: reg.hi}
				b.Run(set.name+"/"+reg.name+"/"+m.String(), func(b *testing.B) { benchFit(b, p, m, "iterations") })
			}
		}
	}
}

// fitSet is a named binary data set in compressed rows.
type fitSet struct {
	name string
	x    *mat.Sparse
	y    []float64
}

// fitSets are the data of the fitting benchmarks: mushrooms, and 4000
// synthetic rows over 5000 features with 100 nonzeros each.
func fitSets(b *testing.B) []fitSet {
	_, s := mushroomsSparse(b)
	wide := syntheticSparse(4000, 5000, 100, 3)
	return []fitSet{{"mushrooms", s.X, s.Labels}, {"wide", wide.x, wide.y}}
}

// BenchmarkSparseSVRGRows: the penalty method on sparse rows with rows
// of A (lazysvrg.go's softplus penalty) beside newton-cg's augmented
// Lagrangian: logistic loss with ridge 1/l on mushrooms (sparse) with 20
// Zipf rows A x <= b (zipfRows, 15 of them active), to a certified 1e-4
// and 1e-6; svrg and catalyst-svrg report their epochs (also without
// screening: svrg-noscreen), apg its steps, newton-cg its Newton steps.
func BenchmarkSparseSVRGRows(b *testing.B) {
	_, s := mushroomsSparse(b)
	n := s.X.Cols
	a, rhs := zipfRows(20, n, 8, 1)
	p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1 / float64(s.X.Rows), ASparse: a, B: rhs}
	for _, tol := range []float64{1e-4, 1e-6} {
		for _, m := range []Method{MethodNewtonCG, MethodSVRG, MethodCatalyst, MethodAPG} {
			b.Run(fmt.Sprintf("tol=%g/%v", tol, m), func(b *testing.B) { benchFitTol(b, p, m, tol, ScreenGapSafe, "iterations") })
		}
		b.Run(fmt.Sprintf("tol=%g/svrg-noscreen", tol), func(b *testing.B) { benchFitTol(b, p, MethodSVRG, tol, ScreenNone, "iterations") })
	}
}

// benchFit times cold Solves of p by method m to a certified 1e-9 (a
// minute at most), fails unless the last is solved, and reports its
// Iterations under the given name.
func benchFit(b *testing.B, p *Problem, m Method, iterations string) {
	benchFitTol(b, p, m, 1e-9, ScreenGapSafe, iterations)
}

// benchFitTol is benchFit to a certified tol, with the screening rule sr.
func benchFitTol(b *testing.B, p *Problem, m Method, tol float64, sr ScreenRule, iterations string) {
	var res *Result
	for b.Loop() {
		var err error
		res, err = Solve(context.Background(), p, &Options{Method: m, Tol: tol, TimeLimit: time.Minute, Penalty: &PenaltyOptions{Screen: sr}})
		if err != nil {
			b.Fatal(err)
		}
	}
	if res.Status != StatusSolved {
		b.Fatalf("%v: %s", res.Status, res.Message)
	}
	b.ReportMetric(float64(res.Iterations), iterations)
}

// sparseSet is a synthetic binary data set in compressed rows.
type sparseSet struct {
	x *mat.Sparse
	y []float64
}

// syntheticSparse returns l rows over n features with nnz nonzeros each
// (uniform columns), labels from a planted model with 10% noise.
func syntheticSparse(l, n, nnz int, seed uint64) sparseSet {
	g := testqp.LCG(seed)
	w := make([]float64, n)
	for j := range w {
		w[j] = g.Uniform() - 0.5
	}
	x := &mat.Sparse{Rows: l, Cols: n, Ptr: make([]int, l+1)}
	y := make([]float64, l)
	for i := 0; i < l; i++ {
		cols := map[int32]bool{}
		for len(cols) < nnz {
			cols[int32(g.Uniform()*float64(n))] = true
		}
		idx := make([]int32, 0, nnz)
		for j := range cols {
			idx = append(idx, j)
		}
		slices.Sort(idx)
		var t float64
		for _, j := range idx {
			v := g.Uniform()
			x.Idx, x.Val = append(x.Idx, j), append(x.Val, v)
			t += v * w[j]
		}
		x.Ptr[i+1] = len(x.Idx)
		y[i] = 1
		if t+0.3*(g.Uniform()-0.5) < 0 {
			y[i] = -1
		}
	}
	return sparseSet{x, y}
}

// BenchmarkSparseSVRG: proximal SVRG on sparse rows (lazy updates)
// against newton-cg, the logistic loss with ridge 1/l on mushrooms and on
// the wide synthetic set of BenchmarkFitMethods, with and without bounds
// and l1, each to a certified relative gap of 1e-9; "epochs" are SVRG's
// (APG's steps, Newton steps for newton-cg). -short leaves out svrg and
// apg on the wide set (seconds).
func BenchmarkSparseSVRG(b *testing.B) {
	for _, set := range fitSets(b) {
		n := set.x.Cols
		for _, reg := range []struct {
			name   string
			l1     float64
			lo, hi []float64
		}{{"ridge", 0, nil, nil}, {"box+l1", 1e-4, filled(n, -0.5), filled(n, 0.5)}} {
			for _, m := range []Method{MethodNewtonCG, MethodSVRG, MethodAPG} {
				if testing.Short() && m != MethodNewtonCG && set.name == "wide" {
					continue
				}
				p := &Problem{N: n, Loss: "logistic", PhiSparse: set.x, Y: set.y, Ridge: 1 / float64(set.x.Rows), L1: reg.l1, Lower: reg.lo, Upper: reg.hi}
				b.Run(set.name+"/"+reg.name+"/"+m.String(), func(b *testing.B) { benchFit(b, p, m, "epochs") })
			}
		}
	}
}

// BenchmarkPortfolioWarm: the 50-asset minimum-variance portfolio of
// result_test.go (sum x = 1, 0 <= x_i <= 0.1, most bounds active) re-solved
// on one Solver after SetQ with each q_i moved by up to 1% or 10%, as a
// rebalancing service would; median-ns and p99-ns are over single
// re-solves (update and solve), iterations the mean working-set changes.
func BenchmarkPortfolioWarm(b *testing.B) {
	p := portfolio()
	for _, size := range []float64{0.01, 0.1} {
		b.Run(fmt.Sprintf("perturb=%g%%", 100*size), func(b *testing.B) {
			qs := perturbed(p.Q, size)
			warmResolves(b, p, func(s *Solver, i int) error { return s.SetQ(qs[i%len(qs)]) })
		})
	}
}
