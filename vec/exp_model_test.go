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
// machine runs (avx2 here, neon under qemu-aarch64), and the golden table at
// the end of this file (emGolden), recorded on the neon path, pins the model
// itself.
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

// TestAsmMatchesModelEveryLength: at every length 0..100 and a few around
// 256 (every way the assembly's loops, 32, 16 and 8 elements at a time on
// avx512 and 16 and 8 on avx2, meet their tails), at two alignments and in
// place, every kernel of every assembly path returns exactly the model's
// bits, the inputs a window of emInputs (specials in every lane), and
// writes nothing outside dst.
func TestAsmMatchesModelEveryLength(t *testing.T) {
	in := emInputs()
	var lengths []int
	for n := 0; n <= 100; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, 263)
	const scale, mul = -1.75, 0.1
	type kernel struct {
		name  string
		asm   func(p Path, d, x []float64)
		model func(d, x []float64)
	}
	kernels := []kernel{
		{"Softplus", func(p Path, d, x []float64) { p.Softplus(d, x) }, func(d, x []float64) { emSoftplusScaled(d, x, 1) }},
		{"Sigmoid", func(p Path, d, x []float64) { p.Sigmoid(d, x) }, func(d, x []float64) { emSigmoidScaled(d, x, 1, 1) }},
		{"SigmoidScaled", func(p Path, d, x []float64) { p.SigmoidScaled(d, x, scale, mul) },
			func(d, x []float64) { emSigmoidScaled(d, x, scale, mul) }},
	}
	for _, p := range Paths() {
		if p.Name == "generic" {
			continue
		}
		for _, n := range lengths {
			for off := 0; off < 2; off++ {
				start := (n*7919 + off*104729) % (len(in) - n)
				x, chkX := vtGuarded(n, off, func(i int) float64 { return in[start+i] })
				want := make([]float64, n)
				for _, k := range kernels {
					d, chkD := vtGuarded(n, 1-off, func(int) float64 { return 0 })
					k.asm(p, d, x)
					k.model(want, x)
					inPlace := append([]float64(nil), x...)
					k.asm(p, inPlace, inPlace)
					for i := range want {
						if math.Float64bits(d[i]) != math.Float64bits(want[i]) ||
							math.Float64bits(inPlace[i]) != math.Float64bits(want[i]) {
							t.Fatalf("%s %s n=%d off=%d: [%d] (x=%#016x) = %#016x (in place %#016x), model %#016x",
								p.Name, k.name, n, off, i, math.Float64bits(x[i]), math.Float64bits(d[i]),
								math.Float64bits(inPlace[i]), math.Float64bits(want[i]))
						}
					}
					chkD(t, p.Name+" "+k.name+" dst")
				}
				if g, w := p.SoftplusSum(x, scale), emSoftplusSum(x, scale); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("%s SoftplusSum n=%d off=%d: %#016x, model %#016x", p.Name, n, off, math.Float64bits(g), math.Float64bits(w))
				}
				chkX(t, p.Name+" x")
			}
		}
	}
}

// TestModelMatchesGolden: the model (on every machine) and the assembly path
// reproduce the outputs recorded on the neon path (emGolden).
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

// emGolden: softplus and sigmoid of each input x, as float64 bits, recorded
// on the neon path (exp_arm64.s) under qemu-aarch64 by TestPrintGolden.
// TestModelMatchesGolden holds the Go model above, and the assembly path of
// whatever machine runs the tests, to these bits.
var emGolden = []struct{ x, softplus, sigmoid uint64 }{
	{0x0000000000000000, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x8000000000000000, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x3ff0000000000000, 0x3ff5031eafefb049, 0x3fe764d4f5d5a2bd},
	{0xbff0000000000000, 0x3fd40c7abfbec125, 0x3fd136561454ba86},
	{0x7ff0000000000000, 0x7ff0000000000000, 0x3ff0000000000000},
	{0xfff0000000000000, 0x0000000000000000, 0x0000000000000000},
	{0x7ff8000000000001, 0x7ff8000000000001, 0xfff8000000000001},
	{0xfff8000000000001, 0xfff8000000000001, 0xfff8000000000001},
	{0x0000000000000001, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x8000000000000001, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x000fffffffffffff, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x800fffffffffffff, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x0010000000000000, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x8010000000000000, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x01a56e1fc2f8f359, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x81a56e1fc2f8f359, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x3c670ef54646d497, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xbc670ef54646d497, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xc08749999999999a, 0x0000000000000000, 0x0000000000000000},
	{0xc087500000000000, 0x0000000000000000, 0x0000000000000000},
	{0xc087540000000000, 0x0000000000000000, 0x0000000000000000},
	{0xc0874910d52d3052, 0x0000000000000000, 0x0000000000000000},
	{0xc0874910d52d3051, 0x0000000000000001, 0x0000000000000001},
	{0xc0874385446d71c3, 0x0000000000000001, 0x0000000000000001},
	{0xc086232bdd7abcd2, 0x001000000000007c, 0x001000000000007c},
	{0xc086233333333333, 0x000ff15b469edf89, 0x000ff15b469edf89},
	{0xc085e00000000000, 0x00d14f2b0fb9307f, 0x00d14f2b0fb9307f},
	{0xc089000000000000, 0x0000000000000000, 0x0000000000000000},
	{0x40862e3d70a3d70a, 0x40862e3d70a3d70a, 0x3ff0000000000000},
	{0x40862e6666666666, 0x40862e6666666666, 0x3ff0000000000000},
	{0x4086300000000000, 0x4086300000000000, 0x3ff0000000000000},
	{0x408749999999999a, 0x408749999999999a, 0x3ff0000000000000},
	{0x4089000000000000, 0x4089000000000000, 0x3ff0000000000000},
	{0x7fe1ccf385ebc8a0, 0x7fe1ccf385ebc8a0, 0x3ff0000000000000},
	{0xffe1ccf385ebc8a0, 0x0000000000000000, 0x0000000000000000},
	{0x7fefffffffffffff, 0x7fefffffffffffff, 0x3ff0000000000000},
	{0xffefffffffffffff, 0x0000000000000000, 0x0000000000000000},
	{0x404259999999999a, 0x404259999999999a, 0x3feffffffffffffe},
	{0xc04259999999999a, 0x3ca0998b04bdd190, 0x3ca0998b04bdd18f},
	{0x4042c00000000000, 0x4042c00000000000, 0x3ff0000000000000},
	{0xc042c00000000000, 0x3c8dd5c566301ec8, 0x3c8dd5c566301ec8},
	{0x4032800000000000, 0x403280000027acaf, 0x3feffffffb0a6a23},
	{0xc032800000000000, 0x3e43d657754e8e4a, 0x3e43d65773c509d8},
	{0xbfd62e42fefa39ef, 0x3fe11d14e1fcb730, 0x3fda827999fcef33},
	{0x3fd62e42fefa39ef, 0x3fec34366179d428, 0x3fe2bec333018867},
	{0xbff0a2b23f3bab73, 0x3fd35ffb638af83b, 0x3fd0b7907523b20f},
	{0x3ff0a2b23f3bab73, 0x3ff57ab1181e6982, 0x3fe7a437c56e26f9},
	{0xbfd62e42fefa39ef, 0x3fe11d14e1fcb730, 0x3fda827999fcef33},
	{0x3ff0a2b23f3bab73, 0x3ff57ab1181e6982, 0x3fe7a437c56e26f9},
	{0x3fec34366179d427, 0x3ff3a5abf07b788f, 0x3fe6a09e667f3bcd},
	{0x3fec34366179d426, 0x3ff3a5abf07b788f, 0x3fe6a09e667f3bcc},
	{0x3fec34366179d425, 0x3ff3a5abf07b788e, 0x3fe6a09e667f3bcc},
	{0x3fec34366179d424, 0x3ff3a5abf07b788e, 0x3fe6a09e667f3bcc},
	{0x3fec34366179d423, 0x3ff3a5abf07b788e, 0x3fe6a09e667f3bcc},
	{0x3fec34366179d422, 0x3ff3a5abf07b788e, 0x3fe6a09e667f3bcb},
	{0x3fec34366179d428, 0x3ff3a5abf07b7890, 0x3fe6a09e667f3bcd},
	{0x3fec34366179d429, 0x3ff3a5abf07b7890, 0x3fe6a09e667f3bcd},
	{0x3fec34366179d42a, 0x3ff3a5abf07b7890, 0x3fe6a09e667f3bcd},
	{0x3fec34366179d42b, 0x3ff3a5abf07b7891, 0x3fe6a09e667f3bcd},
	{0x3fec34366179d42c, 0x3ff3a5abf07b7891, 0x3fe6a09e667f3bcd},
	{0x3fec34366179d42d, 0x3ff3a5abf07b7891, 0x3fe6a09e667f3bce},
	{0xbfec34366179d427, 0x3fd62e42fefa39ef, 0x3fd2bec333018867},
	{0xbfec34366179d426, 0x3fd62e42fefa39f0, 0x3fd2bec333018867},
	{0xbfec34366179d425, 0x3fd62e42fefa39f0, 0x3fd2bec333018868},
	{0xbfec34366179d424, 0x3fd62e42fefa39f1, 0x3fd2bec333018868},
	{0xbfec34366179d423, 0x3fd62e42fefa39f1, 0x3fd2bec333018868},
	{0xbfec34366179d422, 0x3fd62e42fefa39f2, 0x3fd2bec333018868},
	{0xbfec34366179d428, 0x3fd62e42fefa39ee, 0x3fd2bec333018866},
	{0xbfec34366179d429, 0x3fd62e42fefa39ee, 0x3fd2bec333018866},
	{0xbfec34366179d42a, 0x3fd62e42fefa39ee, 0x3fd2bec333018866},
	{0xbfec34366179d42b, 0x3fd62e42fefa39ed, 0x3fd2bec333018865},
	{0xbfec34366179d42c, 0x3fd62e42fefa39ec, 0x3fd2bec333018864},
	{0xbfec34366179d42d, 0x3fd62e42fefa39eb, 0x3fd2bec333018864},
	{0xc087700000000000, 0x0000000000000000, 0x0000000000000000},
	{0xc0870744aadc3dbd, 0x000000000000074a, 0x000000000000074a},
	{0xc086a4b9c2454b93, 0x0000000018dfd52e, 0x0000000018dfd52e},
	{0xc08648defc792493, 0x000024cafb0c886e, 0x000024cafb0c886e},
	{0xc085ee0dee777708, 0x00a7e669061f4c20, 0x00a7e669061f4c20},
	{0xc0858dabe07d7826, 0x01bf21f3ac20f568, 0x01bf21f3ac20f568},
	{0xc085263c3e315614, 0x02e87b95409b330d, 0x02e87b95409b330d},
	{0xc084bcbe7dcf64bd, 0x0418e48783706d38, 0x0418e48783706d38},
	{0xc0845815cb57f5cc, 0x053bab26a5da9912, 0x053bab26a5da9912},
	{0xc083fab3fb393e7a, 0x0648c49f7d6d8568, 0x0648c49f7d6d8568},
	{0xc083a05a27bd7cd4, 0x074e5ba67eadfe83, 0x074e5ba67eadfe83},
	{0xc08341fffadd8ba5, 0x085eade8b9521593, 0x085eade8b9521593},
	{0xc082dc4ae6bdf5d9, 0x098370077e2bfcea, 0x098370077e2bfcea},
	{0xc08272a37f76efc7, 0x0ab42b4c9a9c100c, 0x0ab42b4c9a9c100c},
	{0xc0820c133c7360e8, 0x0bdc71b7d2361d91, 0x0bdc71b7d2361d91},
	{0xc081accc35e38c4f, 0x0cf0227f93aa16a2, 0x0cf0227f93aa16a2},
	{0xc081524da0410be4, 0x0df422681d99fe68, 0x0df422681d99fe68},
	{0xc080f5b0f12b10a2, 0x0f005ea650bd1340, 0x0f005ea650bd1340},
	{0xc0809202059a04c8, 0x10201b25b2b40271, 0x10201b25b2b40271},
	{0xc08028cd0d2d70a8, 0x114f9ba4f8723fb0, 0x114f9ba4f8723fb0},
	{0xc07f816493855162, 0x127b05d70c0577d0, 0x127b05d70c0577d0},
	{0xc07ebe9d0efa2794, 0x1393f5d2a21fe5f6, 0x1393f5d2a21fe5f6},
	{0xc07e082441453edd, 0x149b53c01de8c39b, 0x149b53c01de8c39b},
	{0xc07d518a1e68123f, 0x15a2dbff484bf7b2, 0x15a2dbff484bf7b2},
	{0xc07c8e7d3fbc8c8a, 0x16bc5622a45dac6f, 0x16bc5622a45dac6f},
	{0xc07bbe1e1cde63d0, 0x17e8792559dba625, 0x17e8792559dba625},
	{0xc07aebcc8f829e6d, 0x1917df2774bbe640, 0x1917df2774bbe640},
	{0xc07a24b2af278d23, 0x1a3719c5a436b883, 0x1a3719c5a436b883},
	{0xc0796baa5eb12ebb, 0x1b428ecb254f0f6e, 0x1b428ecb254f0f6e},
	{0xc078b69e3e905365, 0x1c473e276d32b88d, 0x1c473e276d32b88d},
	{0xc077f7cefa3f8e48, 0x1d5acab21a04fb8f, 0x1d5acab21a04fb8f},
	{0xc0772a76f02d903f, 0x1e832659cd0129b3, 0x1e832659cd0129b3},
	{0xc076572d5b375ecd, 0x1fb3d85cf4f3ee66, 0x1fb3d85cf4f3ee66},
	{0xc0758c005c6bdf4f, 0x20d8c627c320c533, 0x20d8c627c320c533},
	{0xc074cf88e097e3c1, 0x21e8aabecc49d8a8, 0x21e8aabecc49d8a8},
	{0xc0741ad9d6122333, 0x22ee3339502dcddb, 0x22ee3339502dcddb},
	{0xc0735fde5380c671, 0x23fb67d44d39873b, 0x23fb67d44d39873b},
	{0xc072964beea447f5, 0x251ef2ecad4c38a7, 0x251ef2ecad4c38a7},
	{0xc071c34213056e19, 0x264f93dea23d140a, 0x264f93dea23d140a},
	{0xc070f4944b49fdfd, 0x277888d2bcc0b032, 0x277888d2bcc0b032},
	{0xc07034140438fec0, 0x288f6f23dbfeb3f9, 0x288f6f23dbfeb3f9},
	{0xc06efd136fd8dd74, 0x29944cfc705d758a, 0x29944cfc705d758a},
	{0xc06d8d5424ff4c10, 0x2a9e568ae4acfe4b, 0x2a9e568ae4acfe4b},
	{0xc06c029de610a751, 0x2bba5313268f7611, 0x2bba5313268f7611},
	{0xc06a5f6efc5f5312, 0x2ce889767a32b626, 0x2ce889767a32b626},
	{0xc068bcc565f8c265, 0x2e16806813220061, 0x2e16806813220061},
	{0xc06733248cc35de7, 0x2f32dfeb2cd94f8d, 0x2f32dfeb2cd94f8d},
	{0xc065c40bb060e4a1, 0x303ba3c01ee36ecc, 0x303ba3c01ee36ecc},
	{0xc06458958accac50, 0x31421062e0d6c6e9, 0x31421062e0d6c6e9},
	{0xc062d68524488268, 0x3257ecc8defd5cc2, 0x3257ecc8defd5cc2},
	{0xc06138655ff2fe70, 0x33830a0c7d848942, 0x33830a0c7d848942},
	{0xc05f251af7163b5f, 0x34b348e007e7cfa8, 0x34b348e007e7cfa8},
	{0xc05c00db17f1b6b6, 0x35d518726f801bcc, 0x35d518726f801bcc},
	{0xc05916a9298f1387, 0x36e2a1aba41065e4, 0x36e2a1aba41065e4},
	{0xc05643c333248b90, 0x37e6de7c4e281240, 0x37e6de7c4e281240},
	{0xc0534ffbfd1f6541, 0x38f775e2bcb759c7, 0x38f775e2bcb759c7},
	{0xc050216117744a32, 0x3a1e2bb5d6ac944c, 0x3a1e2bb5d6ac944c},
	{0xc049a82bc0d84579, 0x3b4f563640b85e62, 0x3b4f563640b85e62},
	{0xc04340e98c8fb127, 0x3c75cba5d2f35e69, 0x3c75cba5d2f35e69},
	{0xc03a9cfebceb379a, 0x3d8856b3998f305f, 0x3d8856b3998f0b5a},
	{0xc02e9c1023423706, 0x3e8e452aa8a8a996, 0x3e8e452a6f641ee5},
	{0xc00dba9bf41229fa, 0x3f989d28c2a96956, 0x3f98520826bf0f72},
	{0x4021858a1b941d3b, 0x4021859ea70772f6, 0x3feffeb74f62e5af},
	{0x4035ead7d2bb9988, 0x4035ead7d2bce6a9, 0x3fefffffffd65bda},
	{0x404175c369c8c307, 0x404175c369c8c307, 0x3feffffffffffffa},
	{0x404789d585ace706, 0x404789d585ace706, 0x3ff0000000000000},
	{0x404d3c99f8c6e5e3, 0x404d3c99f8c6e5e3, 0x3ff0000000000000},
	{0x4051793f29214e7d, 0x4051793f29214e7d, 0x3ff0000000000000},
	{0x405486885a56510c, 0x405486885a56510c, 0x3ff0000000000000},
	{0x4057c8a75d98ae52, 0x4057c8a75d98ae52, 0x3ff0000000000000},
	{0x405b11876cc7fe19, 0x405b11876cc7fe19, 0x3ff0000000000000},
	{0x405e2cde14561bea, 0x405e2cde14561bea, 0x3ff0000000000000},
	{0x4060881f522c40c2, 0x4060881f522c40c2, 0x3ff0000000000000},
	{0x4061f257e2564a36, 0x4061f257e2564a36, 0x3ff0000000000000},
	{0x40637079ae8cb064, 0x40637079ae8cb064, 0x3ff0000000000000},
	{0x40650b974af7bdab, 0x40650b974af7bdab, 0x3ff0000000000000},
	{0x4066b21d8dc34fcb, 0x4066b21d8dc34fcb, 0x3ff0000000000000},
	{0x406847fc11b31981, 0x406847fc11b31981, 0x3ff0000000000000},
	{0x4069c07282f26a15, 0x4069c07282f26a15, 0x3ff0000000000000},
	{0x406b29c9d43a852f, 0x406b29c9d43a852f, 0x3ff0000000000000},
	{0x406ca032106bf114, 0x406ca032106bf114, 0x3ff0000000000000},
	{0x406e33d7f5220e58, 0x406e33d7f5220e58, 0x3ff0000000000000},
	{0x406fda05f85e16e9, 0x406fda05f85e16e9, 0x3ff0000000000000},
	{0x4070bb7e6bbbb08b, 0x4070bb7e6bbbb08b, 0x3ff0000000000000},
	{0x40717bbb25c5e756, 0x40717bbb25c5e756, 0x3ff0000000000000},
	{0x4072312ecb54ab2b, 0x4072312ecb54ab2b, 0x3ff0000000000000},
	{0x4072e93983a2ae71, 0x4072e93983a2ae71, 0x3ff0000000000000},
	{0x4073aed9d58a466b, 0x4073aed9d58a466b, 0x3ff0000000000000},
	{0x40748090fdcf8933, 0x40748090fdcf8933, 0x3ff0000000000000},
	{0x407551c2d8232413, 0x407551c2d8232413, 0x3ff0000000000000},
	{0x4076164dcf720e5c, 0x4076164dcf720e5c, 0x3ff0000000000000},
	{0x4076cdb21ff60c17, 0x4076cdb21ff60c17, 0x3ff0000000000000},
	{0x407783874e962a89, 0x407783874e962a89, 0x3ff0000000000000},
	{0x407844d3d61afdd6, 0x407844d3d61afdd6, 0x3ff0000000000000},
	{0x4079141372a77233, 0x4079141372a77233, 0x3ff0000000000000},
	{0x4079e6eea3d5f669, 0x4079e6eea3d5f669, 0x3ff0000000000000},
	{0x407aafbcc680f631, 0x407aafbcc680f631, 0x3ff0000000000000},
	{0x407b6a12df9086e8, 0x407b6a12df9086e8, 0x3ff0000000000000},
	{0x407c1ed36d87bae9, 0x407c1ed36d87bae9, 0x3ff0000000000000},
	{0x407cdc033fb1d3ae, 0x407cdc033fb1d3ae, 0x3ff0000000000000},
	{0x407da7e5ed2439d9, 0x407da7e5ed2439d9, 0x3ff0000000000000},
	{0x407e7b3b7f644e13, 0x407e7b3b7f644e13, 0x3ff0000000000000},
	{0x407f47eacf7f611b, 0x407f47eacf7f611b, 0x3ff0000000000000},
	{0x408002fbe176ae99, 0x408002fbe176ae99, 0x3ff0000000000000},
	{0x40805d6d513bc60c, 0x40805d6d513bc60c, 0x3ff0000000000000},
	{0x4080ba3c57ff4cbd, 0x4080ba3c57ff4cbd, 0x3ff0000000000000},
	{0x40811e2ecfe9b4f8, 0x40811e2ecfe9b4f8, 0x3ff0000000000000},
	{0x4081877a6ed9ee4a, 0x4081877a6ed9ee4a, 0x3ff0000000000000},
	{0x4081ef6a1fd210c7, 0x4081ef6a1fd210c7, 0x3ff0000000000000},
	{0x40825088b0590606, 0x40825088b0590606, 0x3ff0000000000000},
	{0x4082aba56418444c, 0x4082aba56418444c, 0x3ff0000000000000},
	{0x40830715660cd410, 0x40830715660cd410, 0x3ff0000000000000},
	{0x408368e149fc0d49, 0x408368e149fc0d49, 0x3ff0000000000000},
	{0x4083d138f8b16368, 0x4083d138f8b16368, 0x3ff0000000000000},
	{0x40843a47a3cc4b1a, 0x40843a47a3cc4b1a, 0x3ff0000000000000},
	{0x40849d90406680f4, 0x40849d90406680f4, 0x3ff0000000000000},
	{0x4084f9e4aeba85ce, 0x4084f9e4aeba85ce, 0x3ff0000000000000},
	{0x4085547b7fa55c83, 0x4085547b7fa55c83, 0x3ff0000000000000},
	{0x4085b424f642ddc1, 0x4085b424f642ddc1, 0x3ff0000000000000},
	{0x40861b075d4955c9, 0x40861b075d4955c9, 0x3ff0000000000000},
	{0x408684a51779ff12, 0x408684a51779ff12, 0x3ff0000000000000},
	{0x3bd02c92289c81c9, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xbbd02c92289c81c9, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x3c0437b6b2c3a23b, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xbc0437b6b2c3a23b, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x3c3945a45f748acb, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xbc3945a45f748acb, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x3c6f970d7751ad7e, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xbc6f970d7751ad7e, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x3ca3be686a930c6e, 0x3fe62e42fefa39f0, 0x3fe0000000000000},
	{0xbca3be686a930c6e, 0x3fe62e42fefa39ef, 0x3fdfffffffffffff},
	{0x3cd8ae028537cf8a, 0x3fe62e42fefa39f5, 0x3fe0000000000003},
	{0xbcd8ae028537cf8a, 0x3fe62e42fefa39e9, 0x3fdffffffffffffa},
	{0x3d0ed9832685c36c, 0x3fe62e42fefa3a2d, 0x3fe000000000001f},
	{0xbd0ed9832685c36c, 0x3fe62e42fefa39b2, 0x3fdfffffffffffc3},
	{0x3d4347f1f8139a24, 0x3fe62e42fefa3c58, 0x3fe0000000000135},
	{0xbd4347f1f8139a24, 0x3fe62e42fefa3786, 0x3fdffffffffffd97},
	{0x3d7819ee761880ac, 0x3fe62e42fefa5209, 0x3fe0000000000c0d},
	{0xbd7819ee761880ac, 0x3fe62e42fefa21d5, 0x3fdfffffffffe7e6},
	{0x3dae206a139ea0d7, 0x3fe62e42fefb2af3, 0x3fe0000000007882},
	{0xbdae206a139ea0d7, 0x3fe62e42fef948ec, 0x3fdfffffffff0efd},
	{0x3de2d4424c432487, 0x3fe62e42ff03a410, 0x3fe000000004b511},
	{0xbde2d4424c432487, 0x3fe62e42fef0cfce, 0x3fdffffffff695df},
	{0x3e178952df53eda9, 0x3fe62e42ff585f3b, 0x3fe00000002f12a6},
	{0xbe178952df53eda9, 0x3fe62e42fe9c14a4, 0x3fdfffffffa1dab5},
	{0x3e4d6ba79728e913, 0x3fe62e4302a7aee2, 0x3fe0000001d6ba79},
	{0xbe4d6ba79728e913, 0x3fe62e42fb4cc4fc, 0x3fdffffffc528b0d},
	{0x3e826348be7991ab, 0x3fe62e4323c0cb82, 0x3fe00000126348be},
	{0xbe826348be7991ab, 0x3fe62e42da33a888, 0x3fdfffffdb396e83},
	{0x3eb6fc1aee17f616, 0x3fe62e446ebbf112, 0x3fe00000b7e0d771},
	{0xbeb6fc1aee17f616, 0x3fe62e418f38934f, 0x3fdffffe903e511f},
	{0x3eecbb21a99df39d, 0x3fe62e515c8e4836, 0x3fe000072ec86a67},
	{0xbeecbb21a99df39d, 0x3fe62e34a16c9e98, 0x3fdffff1a26f2b32},
	{0x3f21f4f50a02b842, 0x3fe62ed2a7e4fcf5, 0x3fe00047d3d42628},
	{0xbf21f4f50a02b842, 0x3fe62db358945cc9, 0x3fdfff705857b3af},
	{0x3f5672324c836652, 0x3fe633e009823fa2, 0x3fe002ce4642339b},
	{0xbf5672324c836652, 0x3fe628a6f05bfdef, 0x3fdffa63737b98cb},
	{0x3f8c0ebedfa43fe7, 0x3fe66691b049f0ac, 0x3fe01c0ea21d31f1},
	{0xbf8c0ebedfa43fe7, 0x3fe5f656b4cb5fac, 0x3fdfc7e2bbc59c1d},
	{0x3fc189374bc6a7f0, 0x3fe8729e3eea540d, 0x3fe1182352845c83},
	{0xbfc189374bc6a7f0, 0x3fe410506bf8aa11, 0x3fddcfb95af746fb},
	{0x3ff5eb851eb851ec, 0x3ff98af39ccf6bc5, 0x3fe984236241d91c},
	{0xbff5eb851eb851ec, 0x3fccfb73f0b8cecb, 0x3fc9ef7276f89b90},
	{0x402b666666666667, 0x402b66668c1022ad, 0x3feffffda56451c4},
	{0xc02b666666666667, 0x3eb2d4de23334446, 0x3eb2d4dd71e329d0},
	{0x4061200000000000, 0x4061200000000000, 0x3ff0000000000000},
	{0xc061200000000000, 0x3394676be491d129, 0x3394676be491d129},
	{0x4095680000000000, 0x4095680000000000, 0x3ff0000000000000},
	{0xc095680000000000, 0x0000000000000000, 0x0000000000000000},
	{0x7f6c280beaa8e3e7, 0x7f6c280beaa8e3e7, 0x3ff0000000000000},
	{0xe47119871cf9abe0, 0x0000000000000000, 0x0000000000000000},
	{0x35174a4158b8a0b7, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x62ce1ffad85b1c36, 0x62ce1ffad85b1c36, 0x3ff0000000000000},
	{0xec83972c97b6678e, 0x0000000000000000, 0x0000000000000000},
	{0x0cf91633be7328c1, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x101f5e859d7dded0, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x1fd897255030916d, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x87944c6b12870b0f, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x36ca1465c9b326d9, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x34bc346ca79ad6d4, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x34e846ab6e48d679, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x9e2c31e94344f995, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x6f44842fb582b526, 0x6f44842fb582b526, 0x3ff0000000000000},
	{0x1ecb49baaf7839cc, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xbfc9e24f766f3abf, 0x3fe31bc6926ce773, 0x3fdcc685b39edbdf},
	{0x9bb024aec20eab0a, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xf0362594a0f934dc, 0x0000000000000000, 0x0000000000000000},
	{0x453c9a34720471b5, 0x453c9a34720471b5, 0x3ff0000000000000},
	{0x176ecbc97de6b416, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x58f14bd839cebcfe, 0x58f14bd839cebcfe, 0x3ff0000000000000},
	{0xc19903639183de07, 0x0000000000000000, 0x0000000000000000},
	{0xd754009e3d61b87b, 0x0000000000000000, 0x0000000000000000},
	{0xc691944865ec05cb, 0x0000000000000000, 0x0000000000000000},
	{0xa678b4fb909fcf00, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xa34d7a3fd891309e, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x244dded04f81f57f, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x6fb49b16a3664955, 0x6fb49b16a3664955, 0x3ff0000000000000},
	{0x3ae6ded47f967087, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xb3f7d04fc7a99da6, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xe0bad7014fcf671d, 0x0000000000000000, 0x0000000000000000},
	{0x2d24efd06f4c9e93, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x0e44413209bbc36e, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0x0f64326e25e5af68, 0x3fe62e42fefa39ef, 0x3fe0000000000000},
	{0xc245cf6e4944be36, 0x0000000000000000, 0x0000000000000000},
	{0xd7cbf034a6ab7aca, 0x0000000000000000, 0x0000000000000000},
	{0x54ceeaebb71fdebf, 0x54ceeaebb71fdebf, 0x3ff0000000000000},
	{0xfee0039301d5aec2, 0x0000000000000000, 0x0000000000000000},
	{0x71b289a50d5bf51f, 0x71b289a50d5bf51f, 0x3ff0000000000000},
	{0x687bfa61a575e535, 0x687bfa61a575e535, 0x3ff0000000000000},
}
