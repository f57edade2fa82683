package activeset

import (
	"math"
	"math/big"
	"testing"
)

// TestDualErrorCoversTheSums: with multipliers of 2e14 on rows of norm 5
// (FuzzTinyQP 44b00d34dd025a2f: H = 2.6 I, x* ~ 7e6), q = c + A'lambda is
// ~1e7 built from terms ~1e15, and the computed Dual is off by far more
// than its own rounding: the exact dual value of the engine's multipliers
// (big.Rat) differs from Dual by more than 1e5, and DualError +
// DualResidualError / mu (mu = 2.6) bounds the difference.
func TestDualErrorCoversTheSums(t *testing.T) {
	const n = 4
	h := dense([][]float64{{2.6, 0, 0, 0}, {0, 2.6, 0, 0}, {0, 0, 2.6, 0}, {0, 0, 0, 2.6}})
	c := []float64{-2.5, -2.5, -2.28125, -2.5}
	rows := [][]float64{
		{3.65625, -2.5, -2.5, -2.5},
		{-3.96875, 2.71875, 2.71875, 2.71875},
		{-2.5, -2.4375, -2.4375, -2.46875},
		{-2.5, -2.46875, -2.5, 3.75},
	}
	b := []float64{-3.78125, 2.71875, -2.5, -2.46875}
	s := mustNew(t, &Problem{N: n, H: h, C: c, A: dense(rows), B: b})
	r := s.Solve()
	if r.Status != StatusOptimal {
		t.Fatalf("status %v", r.Status)
	}
	// The exact dual function at the engine's multipliers:
	// -1/2 w'H^{-1}w - b'lambda, w = c + A'lambda.
	w := make([]*big.Rat, n)
	for i := range w {
		w[i] = new(big.Rat).SetFloat64(c[i])
	}
	bl := new(big.Rat)
	for j, row := range rows {
		l := new(big.Rat).SetFloat64(r.Lambda[j])
		for i, v := range row {
			w[i].Add(w[i], new(big.Rat).Mul(l, new(big.Rat).SetFloat64(v)))
		}
		bl.Add(bl, new(big.Rat).Mul(l, new(big.Rat).SetFloat64(b[j])))
	}
	q := new(big.Rat)
	for i := range w {
		q.Add(q, new(big.Rat).Mul(w[i], w[i]))
	}
	q.Quo(q, new(big.Rat).SetFloat64(2*2.6))
	exact, _ := new(big.Rat).Neg(new(big.Rat).Add(q, bl)).Float64()
	diff := math.Abs(r.Dual - exact)
	t.Logf("Dual %.17g, exact %.17g: off by %.3g; DualError %.3g; multipliers up to %.3g", r.Dual, exact, diff, r.DualError, max(r.Lambda[0], r.Lambda[1]))
	if diff < 1e5 {
		t.Errorf("Dual is off by %.3g only: the test no longer exercises the sums' rounding", diff)
	}
	if bound := r.DualError + r.DualResidualError/2.6; !(diff <= bound) {
		t.Errorf("Dual is off by %.3g, the bound %.3g does not cover it", diff, bound)
	}
}
