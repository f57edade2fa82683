package vec

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactSumErrorFree: the product is error-free on every architecture:
// -1 + (1 + 2^-30)(1 - 2^-30) is -2^-60 exactly. On arm64 Go may fuse
// a*b + c into one rounding unless the product is converted explicitly; a
// fused sum puts the product's error in twice (-2^-59), which left nearly
// dependent equalities 6e-9 off x* on arm64 only.
func TestExactSumErrorFree(t *testing.T) {
	a, b := 1+math.Ldexp(1, -30), 1-math.Ldexp(1, -30)
	var e ExactSum
	e.Add(-1)
	e.AddProduct(a, b)
	if got, want := e.Value(), -math.Ldexp(1, -60); got != want {
		t.Errorf("-1 + a b = %g, want %g", got, want)
	}
}

// TestExactSumCancellation: dot products whose terms (up to 2^40) cancel
// to far below them, against math/big: within eps |sum| + n^2 eps^2
// sum |terms|, where a float64 sum is off by far more.
func TestExactSumCancellation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	eps := math.Ldexp(1, -53)
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(300)
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			a[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40))
			b[i] = rng.NormFloat64()
		}
		// The last term cancels the float64 sum of the others.
		var f float64
		for i := 0; i < n-1; i++ {
			f += a[i] * b[i]
		}
		a[n-1], b[n-1] = -f, 1
		var e ExactSum
		exact, terms := new(big.Float).SetPrec(2000), 0.0
		for i := range a {
			e.AddProduct(a[i], b[i])
			exact.Add(exact, new(big.Float).SetPrec(2000).Mul(big.NewFloat(a[i]), big.NewFloat(b[i])))
			terms += math.Abs(a[i] * b[i])
		}
		want, _ := exact.Float64()
		got := e.Value()
		if bound := eps*math.Abs(want) + float64(n*n)*eps*eps*terms*4; math.Abs(got-want) > bound {
			t.Fatalf("n = %d: sum %.17g, exact %.17g, off by %.3g > %.3g", n, got, want, math.Abs(got-want), bound)
		}
	}
}
