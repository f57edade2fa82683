package activeset

import (
	"context"
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestNearlyImplied: an equality or a row that depends on the members to
// rounding is left out and counted in Result.NearlyImplied unless it is
// implied by them exactly. On the face x1 + x3 = 1, x2 + x3 = 1 of
// min ||x||^2/2 the answer is t = x3 = 2/3; the row x1 + x2 + (2 +
// 2^-50) x3 <= 2 holds there to rounding, but exactly it holds only for
// t <= 0, and x* = (1, 1, 0) is 0.94 away.
func TestNearlyImplied(t *testing.T) {
	id := mat.NewDense(3, 3)
	id.AddDiag(1)
	dense := func(rows ...[]float64) *mat.Dense {
		d := mat.NewDense(len(rows), 3)
		for i, r := range rows {
			copy(d.Row(i), r)
		}
		return d
	}
	e1, e2 := []float64{1, 0, 1}, []float64{0, 1, 1}
	for _, c := range []struct {
		name string
		p    *Problem
		want int
	}{
		{"equality repeated times 2", &Problem{Aeq: dense([]float64{1, 2, 3}, []float64{2, 4, 6}), Beq: []float64{1, 2}}, 0},
		{"equality repeated, 2^-50 off", &Problem{Aeq: dense([]float64{1, 2, 3}, []float64{2, 4, 6 + 0x1p-50}), Beq: []float64{1, 2}}, 1},
		{"equality repeated bit for bit", &Problem{Aeq: dense([]float64{0.1, 0.2, 0.3}, []float64{0.1, 0.2, 0.3}), Beq: []float64{0.7, 0.7}}, 0},
		{"row the sum of the equalities", &Problem{Aeq: dense(e1, e2), Beq: []float64{1, 1},
			A: dense([]float64{1, 1, 2}), B: []float64{2}}, 0},
		{"row the sum, 2^-50 off", &Problem{Aeq: dense(e1, e2), Beq: []float64{1, 1},
			A: dense([]float64{1, 1, 2 + 0x1p-50}), B: []float64{2}}, 1},
	} {
		c.p.N, c.p.H, c.p.C = 3, id, make([]float64, 3)
		s, err := New(c.p, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := s.Solve(context.Background())
		if r.Status != StatusSolved || !r.Feasible {
			t.Errorf("%s: %v, feasible %v", c.name, r.Status, r.Feasible)
			continue
		}
		if r.NearlyImplied != c.want {
			t.Errorf("%s: NearlyImplied %d, want %d (x = %v)", c.name, r.NearlyImplied, c.want, r.X)
		}
		// A warm re-solve keeps the verdict on the equalities and
		// decides the rows again.
		if r = s.Solve(context.Background()); r.NearlyImplied != c.want {
			t.Errorf("%s, again: NearlyImplied %d, want %d", c.name, r.NearlyImplied, c.want)
		}
	}
}

// TestNearlyImpliedKinks: a held l1 kink is no constraint, so a row that
// lies in the members' span only through a kink's normal is far from the
// constraints' span and not nearly implied (apartFromConstraints): a row
// on two held kinks alone, and the row -2.5 (x0+x1+x2) - 1.96875 x3 <=
// -2.5 beside the member -2.5 (x0+x1+x2+x3) <= -2.5 with x3 held at its
// kink (FuzzTinyQP), had each been counted, and the answer had no
// distance bound. A row 2^-50 from the sum of two equalities is still
// counted with a kink held beside them, and so is the sum of the
// equalities plus 2^-50 x3 with x3 held at its kink: its entry on the
// kink is at rounding, and it is 2^-50 from the equalities' span.
func TestNearlyImpliedKinks(t *testing.T) {
	diag := func(n int, h float64) *mat.Dense {
		d := mat.NewDense(n, n)
		d.AddDiag(h)
		return d
	}
	dense := func(n int, rows ...[]float64) *mat.Dense {
		d := mat.NewDense(len(rows), n)
		for i, r := range rows {
			copy(d.Row(i), r)
		}
		return d
	}
	sum := []float64{-2.5, -2.5, -2.5, -2.5}
	for _, c := range []struct {
		name string
		p    *Problem
		x    []float64
		want int
	}{
		{"row on two held kinks", &Problem{N: 3, H: diag(3, 1), C: []float64{-0.5, -0.5, -2}, L1: 1,
			A: dense(3, []float64{1, 1, 0}), B: []float64{0}}, []float64{0, 0, 1}, 0},
		{"row a member's plus a held kink's column", &Problem{N: 4, H: diag(4, 0.35), C: []float64{1.3125, 0.6875, 1, 1.625}, L1: 0.625,
			A: dense(4, []float64{-2.5, -2.5, -2.5, -1.96875}, sum, sum, sum), B: []float64{-2.5, -2.5, -2.5, -2.5}},
			[]float64{0, 53.0 / 56, 3.0 / 56, 0}, 0},
		{"row the sum of the equalities, 2^-50 off, beside a held kink", &Problem{N: 4, H: diag(4, 1), C: []float64{0, 0, 0, 0.001}, L1: 0.01,
			Aeq: dense(4, []float64{1, 0, 1, 0}, []float64{0, 1, 1, 0}), Beq: []float64{1, 1},
			A: dense(4, []float64{1, 1, 2 + 0x1p-50, 0}), B: []float64{2}}, nil, 1},
		{"row the sum of the equalities and 2^-50 x3, x3 held at its kink", &Problem{N: 4, H: diag(4, 1), C: []float64{0, 0, 0, 0.001}, L1: 0.01,
			Aeq: dense(4, []float64{1, 0, 1, 0}, []float64{0, 1, 1, 0}), Beq: []float64{1, 1},
			A: dense(4, []float64{1, 1, 2, 0x1p-50}), B: []float64{2}}, nil, 1},
	} {
		s, err := New(c.p, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, pass := range []string{"cold", "warm"} {
			r := s.Solve(context.Background())
			if r.Status != StatusSolved || !r.Feasible {
				t.Errorf("%s, %s: %v, feasible %v", c.name, pass, r.Status, r.Feasible)
				continue
			}
			if r.NearlyImplied != c.want {
				t.Errorf("%s, %s: NearlyImplied %d, want %d (x = %v)", c.name, pass, r.NearlyImplied, c.want, r.X)
			}
			for i, v := range c.x {
				if math.Abs(r.X[i]-v) > 1e-12 {
					t.Errorf("%s, %s: x = %v, want %v", c.name, pass, r.X, c.x)
					break
				}
			}
		}
	}
}

// TestNearlyImpliedKinksAllocs: a warm re-solve whose answer has a row on
// held kinks alone (apartFromConstraints) allocates nothing.
func TestNearlyImpliedKinksAllocs(t *testing.T) {
	h := mat.NewDense(3, 3)
	h.AddDiag(1)
	a := mat.NewDense(1, 3)
	copy(a.Row(0), []float64{1, 1, 0})
	p := &Problem{N: 3, H: h, C: []float64{-0.5, -0.5, -2}, L1: 1, A: a, B: []float64{0}}
	s, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s.Solve(ctx)
	if n := testing.AllocsPerRun(5, func() { s.Reset(); s.Solve(ctx) }); n != 0 {
		t.Errorf("Reset + Solve allocates %v times", n)
	}
	if n := testing.AllocsPerRun(5, func() { s.SetB(p.B); s.Solve(ctx) }); n != 0 {
		t.Errorf("SetB + Solve allocates %v times", n)
	}
}
