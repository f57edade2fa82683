package activeset

import (
	"context"
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
