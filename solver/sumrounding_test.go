package solver

import (
	"math/big"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestDualBoundCoversTheSums: the penalty method's dual bound at
// multipliers of 2e14 on rows of norm 5 (FuzzTinyQP 44b00d34dd025a2f:
// H = 2.6 I, x* ~ 7e6), where w = c + A'lam is ~1e7 built from terms
// ~1e15, stays below the exact dual value of those multipliers (big.Rat);
// without sumRounding it was above it by more than 1e5.
func TestDualBoundCoversTheSums(t *testing.T) {
	rows := [][]float64{
		{3.65625, -2.5, -2.5, -2.5},
		{-3.96875, 2.71875, 2.71875, 2.71875},
		{-2.5, -2.4375, -2.4375, -2.46875},
		{-2.5, -2.46875, -2.5, 3.75},
	}
	b := []float64{-3.78125, 2.71875, -2.5, -2.46875}
	q := []float64{-2.5, -2.5, -2.28125, -2.5}
	a := mat.NewDense(4, 4)
	for j, r := range rows {
		copy(a.Row(j), r)
	}
	p := &Problem{N: 4, Ridge: 2.6, Q: q, A: a, B: b}
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
	if s.kept != 4 {
		t.Fatalf("kept %d rows, want all 4", s.kept)
	}
	// The engine's multipliers on the kept unit rows, and the exact dual
	// value of them: -1/2 w'w/2.6 - b'lam, w = q + A'lam.
	lam := make([]float64, s.kept)
	w := make([]*big.Rat, 4)
	for i := range w {
		w[i] = new(big.Rat).SetFloat64(q[i])
	}
	bl := new(big.Rat)
	for k := range lam {
		j := s.code[k].ineqRow()
		lam[k] = res.Lambda[j] * s.norm[k]
		l := new(big.Rat).SetFloat64(res.Lambda[j])
		for i, v := range rows[j] {
			w[i].Add(w[i], new(big.Rat).Mul(l, new(big.Rat).SetFloat64(v)))
		}
		bl.Add(bl, new(big.Rat).Mul(l, new(big.Rat).SetFloat64(b[j])))
	}
	ww := new(big.Rat)
	for i := range w {
		ww.Add(ww, new(big.Rat).Mul(w[i], w[i]))
	}
	ww.Quo(ww, new(big.Rat).SetFloat64(2*2.6))
	g, _ := new(big.Rat).Neg(new(big.Rat).Add(ww, bl)).Float64()
	got := s.dualBound(lam, res.X)
	t.Logf("dual bound %.17g, exact dual %.17g (difference %.3g); multipliers up to %.3g", got, g, got-g, res.Lambda[0])
	if !(got <= g) {
		t.Errorf("dual bound %.17g above the exact dual value %.17g by %.3g", got, g, got-g)
	}
}
