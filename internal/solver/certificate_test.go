package solver

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// TestDualBoundCoversTheSums: the penalty method's dual bound at
// multipliers of 2e14 on rows of norm 5 (testqp.HugeMultipliers:
// H = 2.6 I, x* ~ 7e6), where w = c + A'lam is ~1e7 built from terms
// ~1e15, stays below the exact dual value of those multipliers
// (testqp.ExactDual), on both of dualBound's branches: the quadratic one
// (without sumRounding it was above by more than 1e5) and the proximal
// one, taken here by a box far from the answer (|x| <= 1e9), which leaves
// the dual function unchanged at these multipliers (their minimiser of
// the Lagrangian is inside the box); there L(x~, lam) summed lam'(A x~ - b)
// from terms ~1e21 and was above by 3.2e5 without proxRounding.
func TestDualBoundCoversTheSums(t *testing.T) {
	ridge, q, rows, b := testqp.HugeMultipliers()
	n, a := len(q), testqp.Dense(rows)
	box := func(v float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = v
		}
		return x
	}
	for _, c := range []struct {
		name   string
		lo, up []float64
	}{{"quadratic", nil, nil}, {"box", box(-1e9), box(1e9)}} {
		p := &Problem{N: n, Ridge: ridge, Q: q, A: a, B: b, Lower: c.lo, Upper: c.up}
		exact, err := New(p, &Options{Method: MethodActiveSet, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.Solve(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(p, &Options{Method: MethodAPG, AllRows: true})
		if err != nil {
			t.Fatal(err)
		}
		if s.kept != len(rows) || s.hasProx() != (c.lo != nil) {
			t.Fatalf("%s: kept %d rows, proximal %v", c.name, s.kept, s.hasProx())
		}
		// The engine's multipliers on the kept unit rows.
		lam := make([]float64, s.kept)
		for k := range lam {
			lam[k] = res.Lambda[s.code[k].ineqRow()] * s.norm[k]
		}
		for _, x := range res.X {
			if math.Abs(x) > 1e8 {
				t.Fatalf("%s: x %v reaches the box", c.name, res.X)
			}
		}
		g := testqp.ExactDual(ridge, q, rows, b, res.Lambda)
		got := s.dualBound(lam, res.X)
		t.Logf("%s: dual bound %.17g, exact dual %.17g (difference %.3g); multipliers up to %.3g", c.name, got, g, got-g, res.Lambda[0])
		if !(got <= g) {
			t.Errorf("%s: dual bound %.17g above the exact dual value %.17g by %.3g", c.name, got, g, got-g)
		}
		if got < g-1e-6*math.Abs(g) {
			t.Errorf("%s: dual bound %.17g below the exact dual value %.17g by %.3g: the allowance is not of rounding's size", c.name, got, g, g-got)
		}
	}
}
