package activeset

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/vec"
)

// TestHotStartAgrees: a hot start from a wrong guess (rows that are not
// active) and from the right one reach the cold answer.
func TestHotStartAgrees(t *testing.T) {
	p, ref := paperQP(t, "s2")
	s, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	cold := append([]float64(nil), s.Solve(ctx).X...)
	var active []int
	for j, l := range s.Solve(ctx).Lambda {
		if l > 0 {
			active = append(active, j)
		}
	}
	for _, guess := range [][]int{active, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, nil} {
		s.HotStart(guess, nil, nil)
		r := s.Solve(ctx)
		certified(t, "hot start", r, 1e-13)
		for i := range ref {
			if math.Abs(r.X[i]-cold[i]) > 1e-13 {
				t.Fatalf("guess %v: x differs from the cold answer by %g", guess, r.X[i]-cold[i])
			}
		}
	}
}

// TestHotStartAtAgrees: HotStartAt from a point near the answer, from a
// point far from it and from a wrong set of rows reaches the cold answer,
// certified, on a problem with many inactive rows (the stored violations
// at x must only skip rows that stay satisfied); and it allocates nothing.
func TestHotStartAtAgrees(t *testing.T) {
	s := mustNew(t, separable(20000, 20, 7))
	r := s.Solve(ctx)
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
		r := s.Solve(ctx)
		certified(t, c.name, r, 1e-9)
		for i := range cold {
			if math.Abs(r.X[i]-cold[i]) > 1e-9*(1+vec.Dot(cold, cold)) {
				t.Fatalf("%s: x[%d] = %v, cold %v", c.name, i, r.X[i], cold[i])
			}
		}
	}
	if a := testing.AllocsPerRun(5, func() {
		s.HotStartAt(near, active, nil, nil)
		s.Solve(ctx)
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
		ra, rb := a.Solve(ctx), b.Solve(ctx)
		if ra.Status != rb.Status || ra.Steps != rb.Steps || !slices.Equal(ra.X, rb.X) {
			t.Fatalf("n %d m %d: NewAt then Solve: %v %d, New, HotStartAt, Solve: %v %d", c.n, c.m, ra.Status, ra.Steps, rb.Status, rb.Steps)
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

// TestHotStartKeepsEqualityCertificate: equalities r1, r2 and r1 + r2
// whose right-hand sides disagree by 2^-16 (qpgen's infeas-eq) contradict
// each other at the set-up, which leaves the third last in the working
// set, with a pivot of zero (or, formed by cancellation, near it), and
// the certificate's direction over that set for the next Solve. A hot
// start that went on pushing rows after it divided by that pivot, and the
// direction no longer matched the set: the certificate came out NaN. A hot
// start stops at the contradiction, and the Solve answers its certificate,
// which the checker accepts.
func TestHotStartKeepsEqualityCertificate(t *testing.T) {
	for _, n := range []int{5, 12, 30} {
		q := qpgen.Generate("infeas-eq", n, 1)
		s := mustNew(t, fromGen(q))
		rows := make([]int, len(q.A))
		for j := range rows {
			rows[j] = j
		}
		s.HotStart(rows, nil, nil)
		r := s.Solve(ctx)
		if r.Status != StatusInfeasible {
			t.Errorf("n=%d: status %v", n, r.Status)
			continue
		}
		if ok, why := qpgen.CheckFarkas(q, r.FarkasA, r.FarkasEq); !ok {
			t.Errorf("n=%d: certificate refused: %s", n, why)
		}
	}
}
