package vec

import (
	"math"
	"testing"
)

// A scalar Go transliteration of the algorithm of exp_arm64.s (and
// exp_amd64.s, which follows it operation for operation): the same constants,
// the same roundings, the same fused multiply-adds, in the same order. The
// assembly paths must agree with it bit for bit on every input, NaN payloads
// included; TestAsmMatchesModel checks that for whichever assembly path the
// machine runs (avx2 here, neon under qemu-aarch64), and the golden table in
// exp_golden_test.go, recorded on the neon path, pins the model itself.
//
// Every product that feeds an addition is wrapped in float64(): the Go spec
// lets the compiler fuse x*y + z into one FMA (and on arm64 it does) unless
// an explicit conversion forces the rounding of the product.

// Constants, bit for bit those of the expconst tables.
var (
	emClamp  = math.Float64frombits(0xc087500000000000) // -746
	emInvLn2 = math.Float64frombits(0x3ff71547652b82fe)
	emLn2Hi  = math.Float64frombits(0x3fe62e42fee00000)
	emLn2Lo  = math.Float64frombits(0x3dea39ef35793c76)
	emSqrt2  = math.Float64frombits(0x3ff6a09e667f3bcd)
	// emMagic = 0x1.8p52 + 2046: v/ln2 + emMagic, rounded once, holds
	// rint(v/ln2) in its low bits (and the bias the x86 code uses).
	emMagic = math.Float64frombits(0x43380000000007fe)
	// emPoly[k], k = 0..11: the minimax polynomial of degree 11 for e^r,
	// |r| <= ln2/2, relative error 3.1e-18 (Remez, mpmath, 200 bits),
	// coefficients rounded to float64 (c0 = c1 = 1).
	emPoly = [12]float64{
		math.Float64frombits(0x3ff0000000000000),
		math.Float64frombits(0x3ff0000000000000),
		math.Float64frombits(0x3fe0000000000010),
		math.Float64frombits(0x3fc55555555554a2),
		math.Float64frombits(0x3fa555555554f370),
		math.Float64frombits(0x3f81111111130dd5),
		math.Float64frombits(0x3f56c16c18781105),
		math.Float64frombits(0x3f2a01a0110576fc),
		math.Float64frombits(0x3efa01992d102296),
		math.Float64frombits(0x3ec71df4520100a1),
		math.Float64frombits(0x3e928b311c4abb3b),
		math.Float64frombits(0x3e5ad661d8a99f75),
	}
	// emLg[k] = Lgk of fdlibm's e_log.c, k = 1..7 (emLg[0] unused).
	emLg = [8]float64{
		0,
		math.Float64frombits(0x3fe5555555555593),
		math.Float64frombits(0x3fd999999997fa04),
		math.Float64frombits(0x3fd2492494229359),
		math.Float64frombits(0x3fcc71c51d8e78af),
		math.Float64frombits(0x3fc7466496cb03de),
		math.Float64frombits(0x3fc39a09d078c69f),
		math.Float64frombits(0x3fc2f112df3e5244),
	}
)

// emQuiet is the NaN an IEEE operation returns for the NaN operand a: a with
// the quiet bit set, sign and payload kept (both Arm, with FPCR.DN = 0 as Go
// leaves it, and x86 do this).
func emQuiet(a float64) float64 {
	return math.Float64frombits(math.Float64bits(a) | 1<<51)
}

// emExpNeg returns t = e^v for v = max(-|u|, -746), u not NaN.
func emExpNeg(u float64) float64 {
	v := -math.Abs(u)
	if v < emClamp {
		v = emClamp
	}
	n := math.FMA(v, emInvLn2, emMagic) - emMagic // rint(v/ln2), one rounding
	r := math.FMA(-n, emLn2Hi, v)
	r = math.FMA(-n, emLn2Lo, r)
	q := emPoly[11]
	for k := 10; k >= 0; k-- {
		q = math.FMA(q, r, emPoly[k])
	}
	ni := int64(n)
	n1 := ni >> 1
	n2 := ni - n1
	q = float64(q * math.Float64frombits(uint64(n1+1023)<<52))
	return float64(q * math.Float64frombits(uint64(n2+1023)<<52))
}

// emSoftplus is softplus(u) as the assembly computes it.
func emSoftplus(u float64) float64 {
	if math.IsNaN(u) {
		return emQuiet(u) // max(u, 0) - c returns u's NaN
	}
	t := emExpNeg(u)
	m := t + 1
	lo := t - (m - 1)
	var kf, scale float64 = 0, 1
	if m >= emSqrt2 {
		kf, scale = 1, 0.5
	}
	onepf := float64(m * scale) // exact
	lom := lo / m
	s := (onepf - 1) / (onepf + 1)
	f := onepf - 1
	q := math.FMA(kf, emLn2Lo, lom)
	z := float64(s * s)
	p := emLg[7]
	for k := 6; k >= 1; k-- {
		p = math.FMA(p, z, emLg[k])
	}
	p = float64(p * z)
	hfsq := float64(float64(f*0.5) * f)
	q = math.FMA(hfsq+p, s, q)
	c := hfsq - q
	c = c - f
	c = math.FMA(-kf, emLn2Hi, c)
	mx := 0.0
	if u > 0 {
		mx = u
	}
	return mx - c
}

// emSigmoid is sigmoid(u) as the assembly computes it (before the factor mul).
func emSigmoid(u float64) float64 {
	if math.IsNaN(u) {
		// Every step works on t's NaN, which is -|u| quieted.
		return emQuiet(-math.Abs(u))
	}
	t := emExpNeg(u)
	d := t + 1
	num := t
	if u >= 0 {
		num = 1
	}
	return num / d
}

// emScaled is scale*x as the assembly rounds it (x first: a NaN x wins).
func emScaled(x, scale float64) float64 {
	if math.IsNaN(x) {
		return emQuiet(x)
	}
	return float64(x * scale)
}

func emSoftplusScaled(dst, x []float64, scale float64) {
	for i := range dst {
		dst[i] = emSoftplus(emScaled(x[i], scale))
	}
}

func emSigmoidScaled(dst, x []float64, scale, mul float64) {
	for i := range dst {
		s := emSigmoid(emScaled(x[i], scale))
		if math.IsNaN(s) {
			dst[i] = s // s*mul returns s's NaN
		} else {
			dst[i] = float64(s * mul)
		}
	}
}

// emAdd is a+b with the NaN rule of the assembly's additions: a's NaN first.
func emAdd(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return emQuiet(a)
	case math.IsNaN(b):
		return emQuiet(b)
	}
	return a + b
}

// emSoftplusSum: element i into partial sum i%4, then (s0+s2) + (s1+s3).
func emSoftplusSum(x []float64, scale float64) float64 {
	var s [4]float64
	for i, v := range x {
		s[i%4] = emAdd(s[i%4], emSoftplus(emScaled(v, scale)))
	}
	return emAdd(emAdd(s[0], s[2]), emAdd(s[1], s[3]))
}

// emInputs are the inputs of the bit-for-bit comparisons: vtPoints, the
// values of vtHardValues, raw bit patterns (every exponent, NaNs with
// payloads and both signs, subnormals) and, unless -short, uniform points
// from a fixed generator.
func emInputs() []float64 {
	in := append(vtPoints(), vtHardValues()...)
	state := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < 20000; i++ {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		in = append(in, math.Float64frombits(state))
	}
	if !testing.Short() {
		// 4e5 more from the same generator: uniform on [-40, 40], where
		// every branch of the log1p and both signs of the sigmoid are
		// exercised, and on [-750, 720].
		for i := 0; i < 400000; i++ {
			state ^= state << 13
			state ^= state >> 7
			state ^= state << 17
			f := float64(state>>11) * 0x1p-53
			if i%2 == 0 {
				in = append(in, -40+80*f)
			} else {
				in = append(in, -750+1470*f)
			}
		}
	}
	for _, b := range []uint64{0x7ff0000000000001, 0xfff0000000000001, 0x7ff4000000000123,
		0xfff8000000000042, 0x7ff8000000000000, 0xfff8000000000000} {
		in = append(in, math.Float64frombits(b)) // signalling and quiet NaNs
	}
	return in
}

// TestAsmMatchesModel: the assembly path (if any) returns exactly the bits of
// the model for every kernel, every input and a few (scale, mul) pairs.
func TestAsmMatchesModel(t *testing.T) {
	in := emInputs()
	if testing.Short() {
		in = in[:len(in)/4]
	}
	got := make([]float64, len(in))
	want := make([]float64, len(in))
	bad := func(p Path, what string, scale float64) {
		t.Helper()
		n := 0
		for i := range in {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				if n < 5 {
					t.Errorf("%s %s scale=%v: x=%v (%#016x): got %v (%#016x), model %v (%#016x)",
						p.Name, what, scale, in[i], math.Float64bits(in[i]), got[i], math.Float64bits(got[i]),
						want[i], math.Float64bits(want[i]))
				}
				n++
			}
		}
		if n > 0 {
			t.Errorf("%s %s scale=%v: %d of %d differ from the model", p.Name, what, scale, n, len(in))
		}
	}
	for _, p := range Paths() {
		if p.Name == "generic" {
			continue
		}
		p.Softplus(got, in)
		emSoftplusScaled(want, in, 1)
		bad(p, "Softplus", 1)
		p.Sigmoid(got, in)
		emSigmoidScaled(want, in, 1, 1)
		bad(p, "Sigmoid", 1)
		for _, sm := range [][2]float64{{0.5, 3}, {-1.75, 0.1}, {1e-3, -2}, {37.25, 1}, {math.Inf(1), 1}} {
			p.SigmoidScaled(got, in, sm[0], sm[1])
			emSigmoidScaled(want, in, sm[0], sm[1])
			bad(p, "SigmoidScaled", sm[0])
			// The sums, over every prefix length up to 40 and over
			// windows of the inputs (so that specials land in every lane).
			for n := 0; n <= 40; n++ {
				for start := 0; start+n <= len(in); start += 997 {
					x := in[start : start+n]
					g, w := p.SoftplusSum(x, sm[0]), emSoftplusSum(x, sm[0])
					if math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%s SoftplusSum(in[%d:%d], %v) = %v (%#x), model %v (%#x)",
							p.Name, start, start+n, sm[0], g, math.Float64bits(g), w, math.Float64bits(w))
					}
				}
			}
		}
	}
}

// TestModelMatchesGolden: the model (on every machine) and the assembly path
// reproduce the outputs recorded on the neon path (exp_golden_test.go).
func TestModelMatchesGolden(t *testing.T) {
	if len(emGolden) == 0 {
		t.Skip("no golden table")
	}
	one := make([]float64, 1)
	for _, g := range emGolden {
		x := math.Float64frombits(g.x)
		sp := emSoftplus(emScaled(x, 1))
		sg := emSigmoid(emScaled(x, 1))
		if math.Float64bits(sp) != g.softplus || math.Float64bits(sg) != g.sigmoid {
			t.Errorf("model(%v = %#016x): softplus %#016x, sigmoid %#016x; neon %#016x, %#016x",
				x, g.x, math.Float64bits(sp), math.Float64bits(sg), g.softplus, g.sigmoid)
		}
		for _, p := range Paths() {
			if p.Name == "generic" {
				continue
			}
			p.Softplus(one, []float64{x})
			sp := one[0]
			p.Sigmoid(one, []float64{x})
			sg := one[0]
			if math.Float64bits(sp) != g.softplus || math.Float64bits(sg) != g.sigmoid {
				t.Errorf("%s(%v = %#016x): softplus %#016x, sigmoid %#016x; neon %#016x, %#016x",
					p.Name, x, g.x, math.Float64bits(sp), math.Float64bits(sg), g.softplus, g.sigmoid)
			}
		}
	}
}
