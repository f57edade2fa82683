package vec

import (
	"math"
	"math/rand"
	"testing"
)

// epInputs are targeted and random inputs for the transcendental kernels:
// NaNs of both signs with distinct payloads (quiet and signalling), signed
// zeros and infinities, subnormals, the extremes, the thresholds of the
// exponential (-746, the subnormal and overflow boundaries, sqrt 2 - 1 for
// log1p's k), the rounding boundaries of n = rint(v/ln 2), and random bit
// patterns and values over the whole range.
func epInputs() []float64 {
	var in []float64
	for _, b := range []uint64{
		0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
		0x7ff4000000000abc, 0xfff7ffffffffffff, 0x7fffffffffffffff, 0xffffffffffffffff,
		0x7ff8dead0000beef, 0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 1,
		0x8000000000000001, 0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000,
		0x8010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
	} {
		in = append(in, math.Float64frombits(b))
	}
	for _, v := range []float64{746, 745.1332191019411, 744.44, 708.39641853226408, 709.782712893384,
		710, 1075, 1076, 1e300, 37, 36.7, 1, 0.5, 2, 0.881373587019543, 1e-300, 0x1p-54,
		0x1p-53, 0x1p-1022, 0x1p-1074, 1e-16, 20, 0.34657359027997264} {
		for _, x := range []float64{v, -v} {
			in = append(in, x, math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1)))
		}
	}
	for k := 0; k <= 1076; k += 7 {
		x := -(float64(k) + 0.5) * math.Ln2
		in = append(in, x, math.Nextafter(x, 0), math.Nextafter(x, -2000))
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 4000; i++ {
		in = append(in, math.Float64frombits(r.Uint64()), (r.Float64()*2-1)*800,
			(r.Float64()*2-1)*40, math.Ldexp(r.Float64()*2-1, -r.Intn(1100)))
	}
	return in
}

// TestExpPathsSameBits: every assembly path (avx2 and avx512 on amd64)
// returns the same bits as the first for Softplus, Sigmoid, SigmoidScaled
// (also in place) and SoftplusSum, on epInputs in windows of random length
// 0..79, for scales and muls that are zeros, infinities, NaNs, subnormals
// and huge; and SoftplusSum combines NaNs of different payloads placed at
// every pair of positions in the same order on every path.
func TestExpPathsSameBits(t *testing.T) {
	var asm []Path
	for _, p := range Paths() {
		if p.Name != "generic" {
			asm = append(asm, p)
		}
	}
	if len(asm) < 2 {
		t.Skip("fewer than two assembly paths on this CPU")
	}
	ref := asm[0]
	in := epInputs()
	scales := []float64{1, -1, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
		math.Float64frombits(0xfff4000000000123), 1e300, 1e-300, 5e-324, -5e-324, -2.25}
	muls := []float64{1, math.Copysign(0, -1), math.Float64frombits(0x7ff0000000000077),
		math.Inf(1), 5e-324, -1e308}
	bits := math.Float64bits
	for _, p := range asm[1:] {
		r := rand.New(rand.NewSource(2))
		cmp := func(name string, x, g, w []float64, sc, mul float64) {
			t.Helper()
			for i := range g {
				if bits(g[i]) != bits(w[i]) {
					t.Fatalf("%s %s scale=%v mul=%v: x=%#016x gives %#016x, %s %#016x",
						p.Name, name, sc, mul, bits(x[i]), bits(g[i]), ref.Name, bits(w[i]))
				}
			}
		}
		for _, sc := range scales {
			for off := 0; off < len(in); {
				n := min(r.Intn(80), len(in)-off)
				x := in[off : off+n]
				off += n + 1
				g, w := make([]float64, n), make([]float64, n)
				if sc == 1 {
					p.Softplus(g, x)
					ref.Softplus(w, x)
					cmp("Softplus", x, g, w, 1, 0)
					copy(g, x)
					p.Softplus(g, g)
					cmp("Softplus in place", x, g, w, 1, 0)
					p.Sigmoid(g, x)
					ref.Sigmoid(w, x)
					cmp("Sigmoid", x, g, w, 1, 1)
				}
				for _, mul := range muls {
					p.SigmoidScaled(g, x, sc, mul)
					ref.SigmoidScaled(w, x, sc, mul)
					cmp("SigmoidScaled", x, g, w, sc, mul)
				}
				if gs, ws := p.SoftplusSum(x, sc), ref.SoftplusSum(x, sc); bits(gs) != bits(ws) {
					t.Fatalf("%s SoftplusSum n=%d scale=%v: %#016x, %s %#016x", p.Name, n, sc, bits(gs), ref.Name, bits(ws))
				}
			}
		}
		nans := []float64{math.Float64frombits(0x7ff8000000000111), math.Float64frombits(0xfff8000000000222),
			math.Float64frombits(0x7ff0000000000333)}
		for n := 2; n <= 40; n++ {
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					for k := range nans {
						x := make([]float64, n)
						for e := range x {
							x[e] = float64(e%5) - 2
						}
						x[i], x[j] = nans[k], nans[(k+1)%3]
						if g, w := p.SoftplusSum(x, 1), ref.SoftplusSum(x, 1); bits(g) != bits(w) {
							t.Fatalf("%s SoftplusSum n=%d NaNs at %d, %d: %#016x, %s %#016x", p.Name, n, i, j, bits(g), ref.Name, bits(w))
						}
					}
				}
			}
		}
	}
}
