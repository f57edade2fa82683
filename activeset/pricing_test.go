package activeset

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
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
			if d := math.Abs(s.violationBound(j) - v); d > 1e-14*(1+math.Abs(v)+normInf(s.x)) {
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
