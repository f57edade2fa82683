package testqp

import "math/big"

// HugeMultipliers is the QP of FuzzTinyQP's input 44b00d34dd025a2f:
// min 1/2 ridge ||x||^2 + c'x subject to rows x <= b, whose multipliers
// reach 2e14 on rows of norm 5 (x* ~ 7e6), so that the dual's sum
// c + A'lambda (~1e7) is built from terms ~1e15: the case on which a dual
// value computed in floating point is off by far more than its own
// magnitude's rounding.
func HugeMultipliers() (ridge float64, c []float64, rows [][]float64, b []float64) {
	rows = [][]float64{
		{3.65625, -2.5, -2.5, -2.5},
		{-3.96875, 2.71875, 2.71875, 2.71875},
		{-2.5, -2.4375, -2.4375, -2.46875},
		{-2.5, -2.46875, -2.5, 3.75},
	}
	return 2.6, []float64{-2.5, -2.5, -2.28125, -2.5}, rows, []float64{-3.78125, 2.71875, -2.5, -2.46875}
}

// ExactDual is the dual function of min 1/2 ridge ||x||^2 + c'x subject
// to rows x <= b at the multipliers lam (one per row),
// -1/2 ||c + A'lam||^2 / ridge - b'lam, computed exactly (math/big) and
// rounded once: the reference for tests of how dual values computed in
// floating point allow for their rounding.
func ExactDual(ridge float64, c []float64, rows [][]float64, b, lam []float64) float64 {
	g, _ := exactDual(ridge, c, rows, b, lam).Float64()
	return g
}

// exactDual is ExactDual's value before its rounding.
func exactDual(ridge float64, c []float64, rows [][]float64, b, lam []float64) *big.Rat {
	w := make([]*big.Rat, len(c))
	for i := range w {
		w[i] = new(big.Rat).SetFloat64(c[i])
	}
	bl := new(big.Rat)
	for j, row := range rows {
		l := new(big.Rat).SetFloat64(lam[j])
		for i, v := range row {
			w[i].Add(w[i], new(big.Rat).Mul(l, new(big.Rat).SetFloat64(v)))
		}
		bl.Add(bl, new(big.Rat).Mul(l, new(big.Rat).SetFloat64(b[j])))
	}
	ww := new(big.Rat)
	for i := range w {
		ww.Add(ww, new(big.Rat).Mul(w[i], w[i]))
	}
	ww.Quo(ww, new(big.Rat).SetFloat64(2*ridge))
	return new(big.Rat).Neg(new(big.Rat).Add(ww, bl))
}

// ExactPenaltyGap is F(x) + xi sum_j (a_j'x - b_j)_+ - ExactDual for the
// same problem, computed exactly and rounded once: what a certified gap
// of the exact penalty with weight xi must bound.
func ExactPenaltyGap(ridge float64, c []float64, rows [][]float64, b, x, lam []float64, xi float64) float64 {
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	half := new(big.Rat).Mul(rat(ridge), big.NewRat(1, 2))
	f := new(big.Rat)
	for i, v := range x {
		xv := rat(v)
		f.Add(f, new(big.Rat).Mul(new(big.Rat).Mul(half, xv), xv))
		f.Add(f, new(big.Rat).Mul(rat(c[i]), xv))
	}
	pen := new(big.Rat)
	for j, row := range rows {
		r := new(big.Rat).Neg(rat(b[j]))
		for i, v := range row {
			r.Add(r, new(big.Rat).Mul(rat(v), rat(x[i])))
		}
		if r.Sign() > 0 {
			pen.Add(pen, r)
		}
	}
	f.Add(f, pen.Mul(pen, rat(xi)))
	f.Sub(f, exactDual(ridge, c, rows, b, lam))
	gap, _ := f.Float64()
	return gap
}
