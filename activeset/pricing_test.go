package activeset

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/softpen/softpen/vec"
)

// TestCheckRowsFirstLargest: the scan that takes rows four at a time
// (dense ones by vec.Dot4) finds the row a one-by-one scan finds, the
// first largest violation, and stores every row's violation to rounding;
// rows in the working set, zero rows and the skipped row are left alone.
// Rows of every kind are mixed: dense, sparse (held as lists), zero.
func TestCheckRowsFirstLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const n = 40
	for trial := 0; trial < 20; trial++ {
		m := 1 + rng.IntN(300)
		p := randomQP(rng, n, m, 10, false)
		rows := make([][]float64, m)
		for j := range rows {
			rows[j] = p.A.Row(j)
			switch rng.IntN(4) {
			case 0: // sparse: two nonzeros
				clear(rows[j])
				rows[j][rng.IntN(n)], rows[j][rng.IntN(n)] = rng.NormFloat64(), rng.NormFloat64()
			case 1:
				if rng.IntN(8) == 0 {
					clear(rows[j]) // zero row
					p.B[j] = math.Abs(p.B[j])
				}
			}
		}
		if trial%3 == 0 && m > 2 {
			copy(rows[m-1], rows[m-2]) // a tie: the first of the two wins
			p.B[m-1] = p.B[m-2]
		}
		p.ARows, p.A = rows, nil
		s := mustNew(t, p)
		for i := range s.x {
			s.x[i] = rng.NormFloat64()
		}
		if m > 3 {
			s.rowIn[1] = true
			s.rowSkip[2], s.skips = true, 1
		}
		s.forgetViolations()
		_, best, found := s.checkRows(nil, math.Inf(-1), constraint{}, false)
		want, wantJ := math.Inf(-1), -1
		for j := 0; j < m; j++ {
			// Not computed: a zero row's bound is -Inf, the others' +Inf.
			if s.ainv[j] == 0 {
				if s.rowBnd[j] != zeroRowBound {
					t.Fatalf("trial %d: zero row %d has a bound %v", trial, j, s.rowBnd[j])
				}
				continue
			}
			if s.rowIn[j] || s.rowSkip[j] {
				if s.rowBnd[j] != unknownBound {
					t.Fatalf("trial %d: row %d (skipped) has a bound %v", trial, j, s.rowBnd[j])
				}
				continue
			}
			// At the point where it was computed a row's bound is its
			// violation.
			v := s.rowDot(j, s.x)*s.ainv[j] - s.b[j]
			if d := math.Abs(s.violationBound(j) - v); d > 1e-14*(1+math.Abs(v)+vec.MaxAbs(s.x)) {
				t.Fatalf("trial %d: row %d stored %v, one by one %v", trial, j, s.violationBound(j), v)
			}
			if v > want {
				want, wantJ = v, j
			}
		}
		if wantJ < 0 {
			if found {
				t.Fatalf("trial %d: found row %d among no candidates", trial, best.i)
			}
			continue
		}
		// Rounding may reorder two violations within 1e-14 of each other.
		if !found || (int(best.i) != wantJ && math.Abs(s.violationBound(int(best.i))-want) > 1e-14*(1+math.Abs(want))) {
			t.Fatalf("trial %d: found %v row %d (%v), want row %d (%v)", trial, found, best.i, s.violationBound(int(best.i)), wantJ, want)
		}
	}
}

// TestRebuildPoolTopRows: the pool holds only rows among the cap(pool)
// largest violation bounds outside the working set (never a member or a
// zero row), and at least half as many as it can hold; after
// forgetViolations (every bound +Inf, all tied) it still fills.
func TestRebuildPoolTopRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	s := mustNew(t, separable(30000, 10, 3))
	k := cap(s.pool)
	for trial := 0; trial < 5; trial++ {
		for j := range s.rowBnd {
			s.rowBnd[j] = computedBound(rng.NormFloat64()*math.Exp2(float64(rng.IntN(20)-10)), rng.Float64(), rng.Float64())
			s.rowIn[j] = rng.IntN(50) == 0
		}
		s.drift.path, s.drift.chain = 1, 0.5
		s.rebuildPool()
		var bounds []float64
		for j := range s.rowBnd {
			if !s.rowIn[j] {
				bounds = append(bounds, s.violationBound(j))
			}
		}
		slices.Sort(bounds)
		kth := bounds[len(bounds)-k]
		if !s.poolOK || len(s.pool) < k/2 || len(s.pool) > k {
			t.Fatalf("trial %d: pool ok %v with %d rows, cap %d", trial, s.poolOK, len(s.pool), k)
		}
		for _, j := range s.pool {
			if s.rowIn[j] || s.violationBound(int(j)) < kth {
				t.Fatalf("trial %d: pool row %d in the set %v, bound %v below the k-th %v", trial, j, s.rowIn[j], s.violationBound(int(j)), kth)
			}
		}
	}
	clear(s.rowIn)
	s.forgetViolations()
	s.rebuildPool()
	if !s.poolOK || len(s.pool) != k {
		t.Fatalf("after forgetViolations: pool ok %v with %d rows, want %d", s.poolOK, len(s.pool), k)
	}
}

// TestRebuildPoolThreads: rebuildPool's passes on 2 and 3 goroutines keep
// the pool one goroutine keeps, from bounds of every size, with candidates
// too many for the list in one chunk alone, and after forgetViolations.
func TestRebuildPoolThreads(t *testing.T) {
	p := separable(60000, 10, 3)
	var solvers []*Solver
	for _, threads := range []int{1, 2, 3} {
		s, err := New(p, &Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if threads > 1 && (s.team == nil || s.team.chunks() != threads) {
			t.Fatalf("threads %d: no team of %d", threads, threads)
		}
		if threads > 1 {
			s.split = splits{true, true} // every pass on the team, however short
		}
		solvers = append(solvers, s)
	}
	rng := rand.New(rand.NewPCG(9, 1))
	sampled := make([][]float64, len(solvers))
	for trial := 0; trial < 8; trial++ {
		bnd, in := make([]rowBound, len(p.B)), make([]bool, len(p.B))
		for j := range in {
			v := rng.NormFloat64() * math.Exp2(float64(rng.IntN(20)-10))
			if trial%2 == 1 && j >= 40000 {
				// More candidates than the list holds (bounds about
				// 1e9, the sampled cut), all in the last chunk, and
				// beyond the list's room more than a pool's worth of
				// larger bounds, none of them sampled.
				v = 1e9
				if j >= 55000 && j%poolStride != 0 {
					v = 2e9
				}
			}
			bnd[j] = computedBound(v, rng.Float64(), rng.Float64())
			in[j] = rng.IntN(50) == 0
		}
		for i, s := range solvers {
			copy(s.rowBnd, bnd)
			copy(s.rowIn, in)
			s.drift.path, s.drift.chain = 1, 0.5
			if trial == 7 {
				clear(s.rowIn)
				s.forgetViolations()
			}
			sampled[i] = append(sampled[i][:0], s.sampledBounds()...)
			s.rebuildPool()
			if !slices.Equal(sampled[i], sampled[0]) {
				t.Fatalf("trial %d, threads %d: sampled bounds differ from one goroutine's", trial, i+1)
			}
			if one := solvers[0]; !slices.Equal(s.pool, one.pool) || s.poolOK != one.poolOK {
				t.Fatalf("trial %d, threads %d: pool of %d rows (ok %v), one goroutine's %d (ok %v)", trial, i+1, len(s.pool), s.poolOK, len(one.pool), one.poolOK)
			}
		}
	}
}
