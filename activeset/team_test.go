package activeset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// teamProblem is a QP with H = I and m rows of n entries (every third row
// sparse, two nonzeros), enough entries for several chunks, with a few
// hundred rows active at the answer.
func teamProblem(m, n int) *Problem {
	rng := rand.New(rand.NewPCG(11, 12))
	a := mat.NewDense(m, n)
	b := make([]float64, m)
	for j := range m {
		r := a.Row(j)
		if j%3 == 1 {
			r[rng.IntN(n)], r[rng.IntN(n)] = rng.NormFloat64(), rng.NormFloat64()
		} else {
			for k := range r {
				r[k] = rng.NormFloat64()
			}
		}
		b[j] = 1 + rng.Float64()
	}
	h := mat.NewDense(n, n)
	c := make([]float64, n)
	for i := range n {
		h.Row(i)[i] = 1
		c[i] = -10 * rng.NormFloat64()
	}
	return &Problem{N: n, H: h, C: c, A: a, B: b}
}

// TestThreadsSameAnswer: the rows' norms and sparse lists computed by
// several goroutines are those of one, bit for bit, and so are the solves
// with 1, 2 and 3 goroutines (the scans of every row split among them)
// and a second solve with 3.
func TestThreadsSameAnswer(t *testing.T) {
	p := teamProblem(9000, 64)
	solve := func(threads int) (*Solver, *Result) {
		s, err := New(p, &Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if threads > 1 && (s.team == nil || s.team.chunks() != threads) {
			t.Fatalf("threads %d: team %v, want %d chunks", threads, s.team, threads)
		}
		if threads > 1 {
			s.split = splits{true, true} // every pass on the team, however short
		}
		r := s.Solve(context.Background())
		if r.Status != StatusSolved {
			t.Fatalf("threads %d: %v", threads, r.Status)
		}
		return s, r
	}
	one, r1 := solve(1)
	want := sameBits{r1.Objective, r1.Steps, slices.Clone(r1.X), slices.Clone(r1.Lambda)}
	for _, th := range []int{2, 3, 3} {
		s, r := solve(th)
		if !slices.Equal(s.ainv, one.ainv) || !slices.Equal(s.sp.sparse, one.sp.sparse) || !slices.Equal(s.sp.pos, one.sp.pos) ||
			!slices.Equal(s.sp.idx, one.sp.idx) || !slices.Equal(s.sp.val, one.sp.val) {
			t.Fatalf("threads %d: norms or sparse rows differ from one goroutine's", th)
		}
		if got := (sameBits{r.Objective, r.Steps, r.X, r.Lambda}); !got.equal(want) {
			t.Fatalf("threads %d: objective %.17g after %d steps, one goroutine's %.17g after %d, or x or lambda differ",
				th, r.Objective, r.Steps, want.objective, want.steps)
		}
	}
}

// sameBits is what two solves that should agree bit for bit compare.
type sameBits struct {
	objective float64
	steps     int
	x, lambda []float64
}

func (a sameBits) equal(b sameBits) bool {
	return math.Float64bits(a.objective) == math.Float64bits(b.objective) && a.steps == b.steps &&
		slices.Equal(a.x, b.x) && slices.Equal(a.lambda, b.lambda)
}

// TestThreadsFirstBadRow: with the rows split among goroutines, a bad row
// is reported by its index in A, and of two the first.
func TestThreadsFirstBadRow(t *testing.T) {
	for _, bad := range [][]int{{7000}, {5000, 8000}, {100, 6000}} {
		p := teamProblem(9000, 64)
		for _, j := range bad {
			p.A.Row(j)[3] = math.NaN()
		}
		_, err := New(p, &Options{Threads: 3})
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "A" || ie.Index != bad[0] {
			t.Fatalf("NaN in rows %v: %v, want row %d named", bad, err, bad[0])
		}
	}
}

// TestThreadsWarmAllocs: a re-solve after SetB allocates nothing with the
// passes on several goroutines.
func TestThreadsWarmAllocs(t *testing.T) {
	p := teamProblem(9000, 64)
	s, err := New(p, &Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	s.split = splits{true, true} // every pass on the team
	s.Solve(context.Background())
	b2 := slices.Clone(p.B)
	for j := range b2 {
		b2[j] *= 1.01
	}
	bs := [][]float64{b2, p.B}
	i := 0
	if a := testing.AllocsPerRun(5, func() {
		if err := s.SetB(bs[i%2]); err != nil {
			t.Fatal(err)
		}
		i++
		if r := s.Solve(context.Background()); r.Status != StatusSolved {
			t.Fatalf("status %v", r.Status)
		}
	}); a != 0 {
		t.Fatalf("%v allocations a re-solve", a)
	}
}

// TestHotStartAtThreads: HotStartAt's pass on several goroutines stores
// the bits one goroutine stores (every row's violation at x, the pool),
// and allocates nothing.
func TestHotStartAtThreads(t *testing.T) {
	p := teamProblem(9000, 64)
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, p.N)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	rows := []int{4, 40, 400}
	one, err := New(p, &Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	one.HotStartAt(x, rows, nil, nil)
	for _, threads := range []int{2, 3} {
		s, err := New(p, &Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if s.team == nil {
			t.Fatalf("threads %d: no team", threads)
		}
		s.HotStartAt(x, rows, nil, nil)
		for j := range s.rowBnd {
			a, b := s.rowBnd[j], one.rowBnd[j]
			if math.Float64bits(a.p) != math.Float64bits(b.p) || math.Float64bits(a.a) != math.Float64bits(b.a) {
				t.Fatalf("threads %d: row %d stored %v, one goroutine %v", threads, j, a, b)
			}
		}
		if !slices.Equal(s.pool, one.pool) || s.poolOK != one.poolOK {
			t.Fatalf("threads %d: pools differ", threads)
		}
		if a := testing.AllocsPerRun(5, func() { s.HotStartAt(x, rows, nil, nil) }); a != 0 {
			t.Errorf("threads %d: HotStartAt allocates %v times", threads, a)
		}
	}
}

// TestTeamEveryChunkOnce: every pass runs each chunk once, on its rows,
// whether the goroutines take their chunks or the caller does (one
// processor: the goroutines start after the caller has taken every
// chunk), and a goroutine that starts after its pass, or lingers after
// it, runs nothing of the next until that pass frees its chunk.
func TestTeamEveryChunkOnce(t *testing.T) {
	for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
		old := runtime.GOMAXPROCS(procs)
		team := newRowTeam(3000, minChunkEntries, 100, 3)
		runs := make([]atomic.Int64, team.chunks())
		for pass := int64(1); pass <= 300; pass++ {
			team.do(func(k, lo, hi int) {
				if lo != team.bounds[k] || hi != team.bounds[k+1] {
					t.Errorf("chunk %d on rows %d:%d, want %d:%d", k, lo, hi, team.bounds[k], team.bounds[k+1])
				}
				// Chunk 0 gives the goroutines time to take theirs;
				// chunk 2 outlasts it, so that a pass that did not
				// wait for the goroutines' chunks would show.
				if k == 0 {
					time.Sleep(20 * time.Microsecond)
				} else if k == 2 {
					time.Sleep(100 * time.Microsecond)
				}
				runs[k].Add(1)
			})
			for k := range runs {
				if n := runs[k].Load(); n != pass {
					t.Fatalf("GOMAXPROCS %d, pass %d: chunk %d run %d times in all", procs, pass, k, n)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestTeamGoroutinesReturn: the goroutines that linger after the passes
// return once teamLinger has passed without one, and when the team rests
// (the end of a solve); the passes after a rest start them again and run
// every chunk once.
func TestTeamGoroutinesReturn(t *testing.T) {
	team := newRowTeam(3000, minChunkEntries, 100, 3)
	runs := make([]atomic.Int64, team.chunks())
	passes := func() {
		for range 50 {
			team.do(func(k, lo, hi int) {
				time.Sleep(10 * time.Microsecond)
				runs[k].Add(1)
			})
		}
	}
	returned := func(how string) {
		deadline := time.Now().Add(time.Second + 100*teamLinger)
		for k := 1; k < team.chunks(); k++ {
			for team.alive[k].Load() {
				if time.Now().After(deadline) {
					t.Fatalf("%s: chunk %d's goroutine still alive a second after the last pass", how, k)
				}
				time.Sleep(teamLinger / 4)
			}
		}
	}
	passes()
	returned("lingering")
	passes()
	team.rest()
	returned("after a rest")
	passes()
	for k := range runs {
		if n := runs[k].Load(); n != 150 {
			t.Errorf("chunk %d run %d times in 150 passes", k, n)
		}
	}
}

// BenchmarkTeamDo: the cost of a pass on the team beyond its work: a
// pass over k rows' violation bounds (rows=k, as a scan checks them) on
// one goroutine (a plain call) and on a team of two. rows=2 is the cost
// alone; a pass is worth splitting when its work is several times it.
func BenchmarkTeamDo(b *testing.B) {
	for _, rows := range []int{2, 4096, 16384, 65536} {
		bnd := make([]rowBound, rows)
		for threads := 1; threads <= 2; threads++ {
			b.Run(fmt.Sprintf("rows=%d/threads=%d", rows, threads), func(b *testing.B) {
				t := newRowTeam(rows, minChunkEntries, 1, threads)
				sums := make([]float64, 2)
				job := func(k, lo, hi int) {
					s := 0.0
					for _, r := range bnd[lo:hi] {
						s += r.at(0.5, 0.25)
					}
					sums[k] = s
				}
				for b.Loop() {
					if t == nil {
						job(0, 0, rows)
					} else {
						t.do(job)
					}
				}
			})
		}
	}
}

// BenchmarkTeamStream: the ceiling of what a team gains on a pass over
// every row of a dense A that is too large for the caches: four rows to a
// vec.Dot4 with x, nothing else, over the large QP's shape (m = 1e5 rows
// of n = 100, 80 MB), on one goroutine and on a team of two. A pass that
// streams A from memory is bound by the memory bandwidth its goroutines
// get together; where one core nearly saturates it, threads=2 gains
// little over threads=1 on this pass and on the solver's passes alike
// (BenchmarkLargeQPThreads in the root package).
func BenchmarkTeamStream(b *testing.B) {
	const m, n = 100000, 100
	a := make([]float64, m*n)
	for i := range a {
		a[i] = float64(i%17) - 8
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(i+1)
	}
	sums := make([]float64, 2)
	job := func(k, lo, hi int) {
		s := 0.0
		for i := lo; i+4 <= hi; i += 4 {
			d0, d1, d2, d3 := vec.Dot4(x, a[i*n:(i+1)*n], a[(i+1)*n:(i+2)*n], a[(i+2)*n:(i+3)*n], a[(i+3)*n:(i+4)*n])
			s += d0 + d1 + d2 + d3
		}
		sums[k] = s
	}
	for threads := 1; threads <= 2; threads++ {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			t := newRowTeam(m, n, scanBlockRows(n), threads)
			b.SetBytes(8 * m * n)
			for b.Loop() {
				if t == nil {
					job(0, 0, m)
				} else {
					t.do(job)
				}
			}
		})
	}
}
