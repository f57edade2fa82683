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

// TestExactSumAddDot: AddDot's four running sums, against math/big, on
// every length 0..300 with a cancelling last term (as in
// TestExactSumCancellation) and after a nonzero start: within AddProduct's
// bound, eps |sum| + n^2 eps^2 sum |terms| with a margin of 4. The
// error-free product of TestExactSumErrorFree, at each position of the
// four sums and of the tail, must come out exact.
func TestExactSumAddDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	eps := math.Ldexp(1, -53)
	for n := 0; n <= 300; n++ {
		a, b := make([]float64, n), make([]float64, n+3) // b may be longer
		for i := range a {
			a[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40))
			b[i] = rng.NormFloat64()
		}
		if n > 0 {
			var f float64
			for i := 0; i < n-1; i++ {
				f += a[i] * b[i]
			}
			a[n-1], b[n-1] = -f, 1
		}
		start := rng.NormFloat64()
		e := ExactSum{}
		e.Add(start)
		e.AddDot(a, b)
		exact := new(big.Float).SetPrec(2000).SetFloat64(start)
		terms := math.Abs(start)
		for i := range a {
			exact.Add(exact, new(big.Float).SetPrec(2000).Mul(big.NewFloat(a[i]), big.NewFloat(b[i])))
			terms += math.Abs(a[i] * b[i])
		}
		want, _ := exact.Float64()
		m := float64(n + 1)
		if got, bound := e.Value(), eps*math.Abs(want)+m*m*eps*eps*terms*4; math.Abs(got-want) > bound {
			t.Fatalf("n = %d: sum %.17g, exact %.17g, off by %.3g > %.3g", n, got, want, math.Abs(got-want), bound)
		}
	}
	u, v := 1+math.Ldexp(1, -30), 1-math.Ldexp(1, -30)
	for n := 1; n <= 9; n++ {
		for at := 0; at < n; at++ {
			a, b := make([]float64, n), make([]float64, n)
			a[at], b[at] = u, v
			e := ExactSum{}
			e.Add(-1)
			e.AddDot(a, b)
			if got, want := e.Value(), -math.Ldexp(1, -60); got != want {
				t.Errorf("n = %d, product at %d: -1 + a b = %g, want %g", n, at, got, want)
			}
		}
	}
}

// TestExactSumAddDotOverflow: terms +-1e308 in turn, whose sum in column
// order stays finite (1e308, 0, 1e308, ...) while one of AddDot's four
// running sums takes the first and the fifth: AddDot's sum is AddProduct's
// term by term at every length, and bit for bit so for terms that are
// not finite.
func TestExactSumAddDotOverflow(t *testing.T) {
	for n := 1; n <= 13; n++ {
		for _, special := range []float64{0, math.Inf(1), math.NaN()} {
			a, b := make([]float64, n), make([]float64, n)
			for i := range a {
				a[i], b[i] = 1e308, 1
				if i%2 == 1 {
					a[i] = -1e308
				}
			}
			if special != 0 {
				a[n/2] = special
			}
			seq, dot := ExactSum{Hi: 1}, ExactSum{Hi: 1}
			for i := range a {
				seq.AddProduct(a[i], b[i])
			}
			dot.AddDot(a, b)
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
			if special == 0 {
				// No running sum overflows below n = 5: Hi and Lo may then
				// split the sum otherwise, its value is the same.
				if seq.Value() != dot.Value() {
					t.Errorf("n = %d: AddProduct gives %v, AddDot %v", n, seq.Value(), dot.Value())
				}
			} else if !same(seq.Hi, dot.Hi) || !same(seq.Lo, dot.Lo) {
				t.Errorf("n = %d, term %g: AddProduct gives %v, AddDot %v", n, special, seq, dot)
			}
		}
	}
}
