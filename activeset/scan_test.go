package activeset

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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
			s.skipRow = 2
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
			if s.rowIn[j] || int32(j) == s.skipRow {
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

// TestHotStartAtAgrees: HotStartAt from a point near the answer, from a
// point far from it and from a wrong set of rows reaches the cold answer,
// certified, on a problem with many inactive rows (the stored violations
// at x must only skip rows that stay satisfied); and it allocates nothing.
func TestHotStartAtAgrees(t *testing.T) {
	s := mustNew(t, separable(20000, 20, 7))
	r := s.Solve()
	certified(t, "cold", r, 1e-9)
	cold := slices.Clone(r.X)
	var active []int
	for j, l := range r.Lambda {
		if l > 0 {
			active = append(active, j)
		}
	}
	near, far := slices.Clone(cold), make([]float64, len(cold))
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range near {
		near[i] *= 1 + 0.05*rng.NormFloat64()
		far[i] = 10 * rng.NormFloat64()
	}
	for _, c := range []struct {
		name string
		x    []float64
		rows []int
	}{{"near, active rows", near, active}, {"near, no rows", near, nil}, {"far, active rows", far, active},
		{"zero, wrong rows", make([]float64, len(cold)), []int{0, 1, 2, 3}}} {
		s.HotStartAt(c.x, c.rows, nil, nil)
		r := s.Solve()
		certified(t, c.name, r, 1e-9)
		for i := range cold {
			if math.Abs(r.X[i]-cold[i]) > 1e-9*(1+vec.Dot(cold, cold)) {
				t.Fatalf("%s: x[%d] = %v, cold %v", c.name, i, r.X[i], cold[i])
			}
		}
	}
	if a := testing.AllocsPerRun(5, func() {
		s.HotStartAt(near, active, nil, nil)
		s.Solve()
	}); a != 0 {
		t.Errorf("HotStartAt + Solve: %v allocations", a)
	}
}

// TestNewAtIsNewThenHotStartAt: NewAt's products taken in New's pass give
// the Solver that New and HotStartAt give, bit for bit (stored violations,
// pool, and the solve's answer), on rows dense, sparse and zero, m not a
// multiple of four, and n below the sparse lists' reach; and a guess of
// the wrong length is an *InputError.
func TestNewAtIsNewThenHotStartAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct{ n, m int }{{40, 2001}, {40, 3}, {5, 999}, {20, 20000}} {
		p := separable(c.m, c.n, 11)
		for j, r := range p.ARows {
			switch {
			case j%7 == 3:
				clear(r)
				r[rng.IntN(c.n)] = rng.NormFloat64() // sparse (when n >= 8)
			case j%13 == 5:
				clear(r) // zero row
				p.B[j] = 1
			}
		}
		x := make([]float64, c.n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		rows := []int{0, 1, 2}
		a, err := NewAt(p, nil, x, rows, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := mustNew(t, p)
		b.HotStartAt(x, rows, nil, nil)
		for j := range a.rowBnd {
			pa, pb := a.rowBnd[j], b.rowBnd[j]
			if math.Float64bits(pa.p) != math.Float64bits(pb.p) || math.Float64bits(pa.a) != math.Float64bits(pb.a) {
				t.Fatalf("n %d m %d: row %d: NewAt %v, HotStartAt %v", c.n, c.m, j, pa, pb)
			}
		}
		if !slices.Equal(a.pool, b.pool) || a.poolOK != b.poolOK {
			t.Fatalf("n %d m %d: pools differ", c.n, c.m)
		}
		ra, rb := a.Solve(), b.Solve()
		if ra.Status != rb.Status || ra.Iter != rb.Iter || !slices.Equal(ra.X, rb.X) {
			t.Fatalf("n %d m %d: NewAt then Solve: %v %d, New, HotStartAt, Solve: %v %d", c.n, c.m, ra.Status, ra.Iter, rb.Status, rb.Iter)
		}
	}
	if _, err := NewAt(separable(10, 4, 1), nil, make([]float64, 3), nil, nil, nil); err == nil {
		t.Error("a guess of length 3 for n = 4 was accepted")
	}
	if _, err := NewAt(separable(10, 4, 1), nil, []float64{0, math.NaN(), 0, 0}, nil, nil, nil); err == nil || !strings.Contains(err.Error(), "x[1]") {
		t.Errorf("a guess with a NaN: %v, want an error naming x[1]", err)
	}
	if _, err := NewAt(separable(10, 4, 1), nil, nil, nil, nil, nil); err == nil {
		t.Error("a missing guess was accepted")
	}
}

// TestSetBRefusesOverflow: SetB refuses a right-hand side whose quotient
// with its row's norm overflows, naming the entry, and leaves the Solver
// as it was (the next Solve gives the same answer).
func TestSetBRefusesOverflow(t *testing.T) {
	p := separable(50, 4, 2)
	p.ARows[7] = []float64{1e-300, 0, 0, 0}
	p.B[7] = 1
	s := mustNew(t, p)
	x := slices.Clone(s.Solve().X)
	b := slices.Clone(p.B)
	b[7] = 1e10
	if err := s.SetB(b); err == nil || !strings.Contains(err.Error(), "B[7]") {
		t.Fatalf("SetB with b[7] = 1e10 over a row of norm 1e-300: %v, want an error naming B[7]", err)
	}
	s.Reset()
	if r := s.Solve(); !slices.Equal(r.X, x) {
		t.Error("a refused SetB changed the answer")
	}
}
