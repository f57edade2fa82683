package activeset

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// TestDualErrorCoversTheSums: with multipliers of 2e14 on rows of norm 5
// (testqp.HugeMultipliers: H = 2.6 I, x* ~ 7e6), q = c + A'lambda is
// ~1e7 built from terms ~1e15, and the computed Dual is off by far more
// than its own rounding: the exact dual value of the engine's multipliers
// (testqp.ExactDual) differs from Dual by more than 1e5, and DualError +
// DualResidualError / mu (mu = 2.6) bounds the difference.
func TestDualErrorCoversTheSums(t *testing.T) {
	ridge, c, rows, b := testqp.HugeMultipliers()
	n := len(c)
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
		h[i][i] = ridge
	}
	s := mustNew(t, &Problem{N: n, H: dense(h), C: c, A: dense(rows), B: b})
	r := s.Solve()
	if r.Status != StatusOptimal {
		t.Fatalf("status %v", r.Status)
	}
	exact := testqp.ExactDual(ridge, c, rows, b, r.Lambda)
	diff := math.Abs(r.Dual - exact)
	t.Logf("Dual %.17g, exact %.17g: off by %.3g; DualError %.3g; multipliers up to %.3g", r.Dual, exact, diff, r.DualError, max(r.Lambda[0], r.Lambda[1]))
	if diff < 1e5 {
		t.Errorf("Dual is off by %.3g only: the test no longer exercises the sums' rounding", diff)
	}
	if bound := r.DualError + r.DualResidualError/ridge; !(diff <= bound) {
		t.Errorf("Dual is off by %.3g, the bound %.3g does not cover it", diff, bound)
	}
}
