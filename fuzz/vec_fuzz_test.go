package fuzz

// Fuzz targets for the vec kernels: every non-generic path in vec.Paths()
// against the generic one, and the exp-based kernels against their
// mathematical properties. On a machine (or build) with no assembly path
// the comparison targets compare the generic path with itself, which is
// still a valid (if weak) run.
//
// Error bounds, with u = 2^-53 the unit roundoff, eps = 2u and
// gamma_k = k*u/(1-k*u) (Higham, Accuracy and Stability of Numerical
// Algorithms, ch. 3):
//
// Linear kernels. Each output is a sum of terms t_1..t_k (products of
// inputs) in which every term passes through at most k roundings, whatever
// the order of summation, the number of accumulators, or FMA contraction:
// in a summation tree with k leaves no leaf sees more than k-1 inexact
// additions, plus at most one rounding of its product (none with FMA), and
// adding an exact zero is exact. Without underflow or overflow each path is
// therefore within gamma_k*sum|t_i| of the exact value, and two paths differ
// by at most
//
//	|a - b| <= 2*gamma_k*sum|t_i|  ~=  k * eps * sum|t_i|,
//
// which is the bound c*k*eps*sum|t_i| with c = 1 (to first order). The sum
// |t_i| computed here is itself within a factor 1/(1-gamma_k) of the exact
// one, so the test divides by that. The values of the terms are
//
//	Dot      k = n      t_i = x_i*y_i
//	Axpy     k = 2      y_i, alpha*x_i           (per element)
//	AxpbyTo  k = 2      a*x_i, b*y_i             (per element)
//	Step     k = 4      s*x_i, s*a*u_i, s*b*v_i  (per element; s*(x+a*u+b*v)
//	                    is at most four roundings deep, also if s*a or s*b
//	                    is formed first)
//	Scale    exact: one IEEE multiplication has one correctly rounded
//	         result, so every path must agree bit for bit.
//
// To keep underflow and overflow out of the bound, the linear target maps
// every input to zero or to a magnitude in [2^-300, 2^301): products of
// three stay normal and sums of a few million of them stay finite.
//
// Softplus, Sigmoid. vec promises each path is within 4 ulp of the exact
// value, so two paths are within 8 ulp of each other measured in the larger
// of their two ulps (if both lie below a power of two that the exact value
// lies above, each is within 4 ulp(exact) = 8 ulp(own) of it; otherwise one
// of them has ulp >= ulp(exact)). We compare paths with each other rather
// than with a scalar reference: the generic path's accuracy against math/big
// is vec's own test (TestSoftplusSigmoidAccuracy, TestAccuracySweep), and
// the 8-ulp bound is the one the contract implies. Inputs are raw bit
// patterns (all of NaN, ±Inf,
// subnormals), where the contract also fixes the NaN/Inf behaviour.
//
// SigmoidScaled computes mul*sigmoid(round(scale*x)): the product is rounded
// the same way on every path (vec's doc), the sigmoid is within 4 ulp <=
// 4*eps relative, and the final multiplication adds u, so two paths differ
// by at most 2*(4*eps + u) = 9*eps relative to the result, plus an absolute
// 2*|mul|*4*2^-1074 for a subnormal sigmoid. An ulp bound would be wrong
// here: a relative error converts to up to twice as many ulps.
//
// SoftplusSum sums n terms softplus(round(scale*x_i)) >= 0 (assuming, as for
// SigmoidScaled, that scale*x_i is rounded once), each within 4*eps relative
// (plus 4*2^-1074 absolute when subnormal), with at most n roundings in the
// sum: two paths differ by at most 2*(4*eps + gamma_n)*T + 2*n*4*2^-1074,
// where T is the exact sum.

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/softpen/softpen/vec"
)

const (
	vfU       = 0x1p-53   // unit roundoff
	vfEps     = 0x1p-52   // machine epsilon, 2u
	vfTiny    = 0x1p-1074 // smallest subnormal
	vfGuardN  = 4         // guard elements after each slice
	vfMaxLenF = 1 << 14   // longest slice the targets build
)

// vfGuard is the bit pattern of the guard elements: a NaN no kernel
// produces, so any write past the end (or before the start) shows.
const vfGuard = 0x7ff8_dead_beef_0001

// vfDecode decodes 8 little-endian bytes per float64 and applies m to each.
func vfDecode(b []byte, m func(uint64) float64) []float64 {
	n := len(b) / 8
	if n > vfMaxLenF {
		n = vfMaxLenF
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = m(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// vfRaw is the float64 with these bits.
func vfRaw(bits uint64) float64 { return math.Float64frombits(bits) }

// vfTame maps a bit pattern to zero (exponent field 0) or to a finite value
// of magnitude in [2^-300, 2^301), keeping sign and mantissa; values already
// in that range are unchanged.
func vfTame(bits uint64) float64 {
	const lo, span = 1023 - 300, 601
	e := bits >> 52 & 0x7ff
	sign := bits & (1 << 63)
	if e == 0 {
		return math.Float64frombits(sign) // ±0
	}
	if e < lo || e >= lo+span {
		e = lo + e%span
	}
	return math.Float64frombits(sign | e<<52 | bits&(1<<52-1))
}

// vfPlace copies v into a fresh buffer at element offset off, followed by
// vfGuardN guard elements (the off elements before are guards too), and
// returns the slice and the buffer.
func vfPlace(v []float64, off int) (s, buf []float64) {
	buf = make([]float64, off+len(v)+vfGuardN)
	for i := range buf {
		buf[i] = math.Float64frombits(vfGuard)
	}
	s = buf[off : off+len(v) : off+len(v)]
	copy(s, v)
	return s, buf
}

// vfCheckGuards fails if a guard element of buf around [off, off+n) changed.
func vfCheckGuards(t *testing.T, what string, buf []float64, off, n int) {
	t.Helper()
	for i, v := range buf {
		if (i < off || i >= off+n) && math.Float64bits(v) != vfGuard {
			t.Fatalf("%s wrote outside its slice: element %d of %d (slice at %d, len %d) is %v",
				what, i, len(buf), off, n, v)
		}
	}
}

func vfGamma(k int) float64 {
	ku := float64(k) * vfU
	return ku / (1 - ku)
}

// vfSumBound is the largest |a-b| between two evaluations of a k-term sum
// whose computed sum of |terms| is s (see the file comment).
func vfSumBound(k int, s float64) float64 {
	g := vfGamma(k)
	return 2 * g * s / (1 - g) * (1 + 8*vfU)
}

// vfUlp is the spacing of floats at |x|: ulp(0) is the smallest subnormal,
// ulp(±Inf) is +Inf.
func vfUlp(x float64) float64 {
	x = math.Abs(x)
	if math.IsInf(x, 0) {
		return math.Inf(1)
	}
	if x == math.MaxFloat64 {
		return x - math.Nextafter(x, 0)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

// vfUlpsApart is |a-b| in units of the larger ulp of a and b; 0 when a == b
// or both are NaN, +Inf when only one is NaN or an infinity meets anything
// else.
func vfUlpsApart(a, b float64) float64 {
	switch {
	case a == b, math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a), math.IsNaN(b), math.IsInf(a, 0), math.IsInf(b, 0):
		return math.Inf(1)
	}
	return math.Abs(a-b) / math.Max(vfUlp(a), vfUlp(b))
}

// vfClose reports whether |a-b| <= rel*max(|a|,|b|) + abs, with NaN only
// matching NaN. An infinity counts as ±MaxFloat64, so a result that
// overflowed on one path matches a finite one close enough to the overflow
// threshold.
func vfClose(a, b, rel, abs float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	clamp := func(v float64) float64 {
		if math.IsInf(v, 0) {
			return math.Copysign(math.MaxFloat64, v)
		}
		return v
	}
	a, b = clamp(a), clamp(b)
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+abs
}

func vfBytes(v ...float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

func vfRamp(n int, f func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// FuzzVecLinearPaths compares Dot, Axpy, Scale, AxpbyTo and Step on every
// non-generic path with the generic path, on fuzzer-chosen values (mapped by
// vfTame), lengths (the data holds three vectors of n = len(data)/24
// elements), element offsets 0..7 of each slice in its buffer (off), and
// aliasing (mode). Bounds: see the file comment. Each slice is followed and
// preceded by guard elements that must survive. MaxAbs, which is exact,
// must give the generic path's bits on the raw bit patterns of the whole
// data (NaNs of every payload, infinities, subnormals), at offset off&7,
// and leave its input unchanged.
func FuzzVecLinearPaths(f *testing.F) {
	for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 64, 100} {
		v := vfRamp(3*n, func(i int) float64 { return float64(i%7) - 3.25 })
		f.Add(uint8(n*37), uint8(n), vfBytes(v...), 0.5, -2.0, 0.75)
	}
	// Cancellation: the exact dot product is 1, the terms are 2^100.
	f.Add(uint8(0), uint8(0), vfBytes(0x1p100, 1, -0x1p100, 1, 1, 1, 1, 1, 1), 1.0, 1.0, 1.0)
	// NaNs (quiet, signalling, negative, with payloads) around the largest
	// magnitude, infinities and subnormals, for MaxAbs on raw bits.
	f.Add(uint8(3), uint8(0), vfBytes(math.NaN(), math.Float64frombits(0x7ff0000000000001), -3,
		math.Float64frombits(0xfff8dead0000beef), 0x1p-1074, math.Copysign(0, -1), 2, math.Inf(-1),
		math.Float64frombits(0x7ff7ffffffffffff), 5, -7, math.NaN(), 1, 1, 1, 1, 1, 1), 1.0, 1.0, 1.0)
	// Zeros of both signs, powers of two at the ends of the range.
	f.Add(uint8(0x5b), uint8(0xff), vfBytes(0, math.Copysign(0, -1), 0x1p300, -0x1p-300, 1, -1,
		0x1.fffffffffffffp300, 3, 0x1p-300, 5, 7, -11), -0.0, 0x1p-300, 0x1p300)
	f.Fuzz(func(t *testing.T, off, mode uint8, data []byte, alpha, beta, s float64) {
		all := vfDecode(data, vfTame)
		n := len(all) / 3
		x0, y0, z0 := all[:n], all[n:2*n], all[2*n:3*n]
		alpha = vfTame(math.Float64bits(alpha))
		beta = vfTame(math.Float64bits(beta))
		s = vfTame(math.Float64bits(s))
		ox, oy, oz := int(off&7), int(off>>3&7), int(off>>6)
		paths := vec.Paths()
		g := paths[0]
		raw := vfDecode(data, vfRaw)
		for _, p := range paths[1:] {
			// MaxAbs: bit for bit.
			r, rb := vfPlace(raw, ox)
			mg, mp := g.MaxAbs(r), p.MaxAbs(r)
			if math.Float64bits(mg) != math.Float64bits(mp) {
				t.Fatalf("%s MaxAbs over %d = %v (%#x), generic %v (%#x): not the same bits",
					p.Name, len(raw), mp, math.Float64bits(mp), mg, math.Float64bits(mg))
			}
			for i := range r {
				if math.Float64bits(r[i]) != math.Float64bits(raw[i]) {
					t.Fatalf("%s MaxAbs changed its input at %d of %d", p.Name, i, len(raw))
				}
			}
			vfCheckGuards(t, p.Name+" MaxAbs", rb, ox, len(raw))

			// Dot.
			x, xb := vfPlace(x0, ox)
			y, yb := vfPlace(y0, oy)
			var sum float64
			for i := range x {
				sum += math.Abs(x[i] * y[i])
			}
			dg, dp := g.Dot(x, y), p.Dot(x, y)
			if d := math.Abs(dg - dp); !(d <= vfSumBound(n, sum)) {
				t.Fatalf("%s Dot = %v, generic %v: differ by %g > bound %g (n=%d, sum|x*y|=%g)",
					p.Name, dp, dg, d, vfSumBound(n, sum), n, sum)
			}
			vfCheckGuards(t, p.Name+" Dot x", xb, ox, n)
			vfCheckGuards(t, p.Name+" Dot y", yb, oy, n)

			// Axpy, aliased (x, x) when mode&1.
			yg, _ := vfPlace(y0, oy)
			yp, ypb := vfPlace(y0, oy)
			xg, xp := x, x
			if mode&1 != 0 {
				xg, xp = yg, yp
			}
			xin := append([]float64(nil), xp...)
			g.Axpy(alpha, xg, yg)
			p.Axpy(alpha, xp, yp)
			for i := range yp {
				b := vfSumBound(2, math.Abs(y0[i])+math.Abs(alpha*xin[i]))
				if d := math.Abs(yg[i] - yp[i]); !(d <= b) {
					t.Fatalf("%s Axpy(alpha=%v, aliased=%v)[%d of %d]: %v, generic %v: differ by %g > %g",
						p.Name, alpha, mode&1 != 0, i, n, yp[i], yg[i], d, b)
				}
			}
			vfCheckGuards(t, p.Name+" Axpy", ypb, oy, n)

			// Scale: bit for bit.
			sg, _ := vfPlace(x0, ox)
			sp, spb := vfPlace(x0, ox)
			g.Scale(alpha, sg)
			p.Scale(alpha, sp)
			for i := range sp {
				if math.Float64bits(sg[i]) != math.Float64bits(sp[i]) {
					t.Fatalf("%s Scale(%v)[%d of %d] of %v: %v, generic %v (one multiplication is exact)",
						p.Name, alpha, i, n, x0[i], sp[i], sg[i])
				}
			}
			vfCheckGuards(t, p.Name+" Scale", spb, ox, n)

			// AxpbyTo into z, or into x (mode&2) or y (mode&4).
			run := func(q vec.Path) (dst, buf []float64, off int) {
				x, xb := vfPlace(x0, ox)
				y, yb := vfPlace(y0, oy)
				switch {
				case mode&2 != 0:
					dst, buf, off = x, xb, ox
				case mode&4 != 0:
					dst, buf, off = y, yb, oy
				default:
					dst, buf = vfPlace(z0, oz)
					off = oz
				}
				q.AxpbyTo(dst, alpha, x, beta, y)
				return dst, buf, off
			}
			ag, _, _ := run(g)
			ap, apb, aoff := run(p)
			for i := range ap {
				b := vfSumBound(2, math.Abs(alpha*x0[i])+math.Abs(beta*y0[i]))
				if d := math.Abs(ag[i] - ap[i]); !(d <= b) {
					t.Fatalf("%s AxpbyTo(a=%v, b=%v, mode=%d)[%d of %d]: %v, generic %v: differ by %g > %g",
						p.Name, alpha, beta, mode&6, i, n, ap[i], ag[i], d, b)
				}
			}
			vfCheckGuards(t, p.Name+" AxpbyTo", apb, aoff, n)

			// Step: x = s*(x + alpha*u + beta*v), u = v when mode&8.
			step := func(q vec.Path) (xs, xsb []float64) {
				u, _ := vfPlace(y0, oy)
				v, _ := vfPlace(z0, oz)
				if mode&8 != 0 {
					v = u
				}
				xs, xsb = vfPlace(x0, ox)
				q.Step(s, alpha, u, beta, v, xs)
				return xs, xsb
			}
			tg, _ := step(g)
			tp, tpb := step(p)
			for i := range tp {
				vi := z0[i]
				if mode&8 != 0 {
					vi = y0[i]
				}
				terms := math.Abs(s) * (math.Abs(x0[i]) + math.Abs(alpha*y0[i]) + math.Abs(beta*vi))
				b := vfSumBound(4, terms)
				if d := math.Abs(tg[i] - tp[i]); !(d <= b) {
					t.Fatalf("%s Step(s=%v, a=%v, b=%v, u==v %v)[%d of %d]: %v, generic %v: differ by %g > %g",
						p.Name, s, alpha, beta, mode&8 != 0, i, n, tp[i], tg[i], d, b)
				}
			}
			vfCheckGuards(t, p.Name+" Step", tpb, ox, n)
		}
	})
}

// vfSpecial are inputs where the exp-based kernels change regime: signed
// zeros, infinities, NaN, subnormals, the exp overflow and underflow
// thresholds, where sigmoid rounds to 1 and softplus(x) rounds to x, the
// largest finite values.
var vfSpecial = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	vfTiny, -vfTiny, 0x1p-1022, -0x1p-1022, 0x1p-60, -0x1p-60,
	709.782712893384, -709.782712893384, 745.1332191019412, -745.1332191019412,
	-708.3964185322641, 36.7368005696771, -36.7368005696771, 37.5, -37.5,
	0.5 * math.Ln2, -0.5 * math.Ln2, 1, -1, 20, -20, 1e6, -1e6,
	math.MaxFloat64, -math.MaxFloat64,
}

// FuzzVecExpPaths compares Softplus, Sigmoid (8 ulp), SigmoidScaled (9 eps
// relative) and SoftplusSum on every non-generic path with the generic path
// on raw 64-bit patterns, fuzzer-chosen lengths and offsets, in place
// (dst == x) when off&8, and the assembly paths with each other bit for bit.
// Bounds: see the file comment.
func FuzzVecExpPaths(f *testing.F) {
	f.Add(uint8(0), vfBytes(vfSpecial...), 1.0, 1.0)
	f.Add(uint8(3), vfBytes(vfSpecial...), 0.001, 7.0)
	f.Add(uint8(13), vfBytes(vfRamp(37, func(i int) float64 { return float64(i-18) * 41.3 })...), 1e3, 1e-300)
	f.Add(uint8(5), vfBytes(vfRamp(64, func(i int) float64 { return float64(i-32) / 3 })...), -1.0, 1e300)
	f.Fuzz(func(t *testing.T, off uint8, data []byte, scale, mul float64) {
		x0 := vfDecode(data, vfRaw)
		n := len(x0)
		o := int(off & 7)
		inPlace := off&8 != 0
		paths := vec.Paths()
		g := paths[0]
		apply := func(k func(dst, x []float64)) (dst, buf []float64) {
			x, xb := vfPlace(x0, o)
			dst, buf = x, xb
			if !inPlace {
				dst, buf = vfPlace(make([]float64, n), (o+3)&7)
			}
			k(dst, x)
			return dst, buf
		}
		dstOff := o
		if !inPlace {
			dstOff = (o + 3) & 7
		}
		for _, p := range paths[1:] {
			for _, k := range []struct {
				name string
				g, p func(dst, x []float64)
			}{{"Softplus", g.Softplus, p.Softplus}, {"Sigmoid", g.Sigmoid, p.Sigmoid}} {
				rg, _ := apply(k.g)
				rp, rpb := apply(k.p)
				for i := range rp {
					if d := vfUlpsApart(rg[i], rp[i]); !(d <= 8) {
						t.Fatalf("%s %s(%v) [%d of %d] = %v, generic %v: %.3g ulp apart > 8",
							p.Name, k.name, x0[i], i, n, rp[i], rg[i], d)
					}
				}
				vfCheckGuards(t, p.Name+" "+k.name, rpb, dstOff, n)
			}

			if !math.IsNaN(scale) && !math.IsInf(scale, 0) && !math.IsNaN(mul) && !math.IsInf(mul, 0) {
				ss := func(q vec.Path) func(dst, x []float64) {
					return func(dst, x []float64) { q.SigmoidScaled(dst, x, scale, mul) }
				}
				rg, _ := apply(ss(g))
				rp, rpb := apply(ss(p))
				abs := 2 * math.Abs(mul) * 4 * vfTiny
				for i := range rp {
					if !vfClose(rg[i], rp[i], 9*vfEps*(1+1e-12), abs) {
						t.Fatalf("%s SigmoidScaled(%v, scale=%v, mul=%v) [%d of %d] = %v, generic %v: beyond 9 eps",
							p.Name, x0[i], scale, mul, i, n, rp[i], rg[i])
					}
				}
				vfCheckGuards(t, p.Name+" SigmoidScaled", rpb, dstOff, n)
			}

			x, xb := vfPlace(x0, o)
			sg, sp := g.SoftplusSum(x, scale), p.SoftplusSum(x, scale)
			rel := 2 * (4*vfEps + vfGamma(n)) / (1 - 4*vfEps - vfGamma(n)) * (1 + 1e-12)
			if !vfClose(sg, sp, rel, 2*float64(n)*4*vfTiny) {
				t.Fatalf("%s SoftplusSum(scale=%v) over %d = %v, generic %v: beyond %.3g relative",
					p.Name, scale, n, sp, sg, rel)
			}
			vfCheckGuards(t, p.Name+" SoftplusSum", xb, o, n)
		}
		vfSameBitsAsm(t, paths, x0, o, scale, mul)
	})
}

// vfSameBitsAsm checks the promise of vec's exp kernels that every
// assembly path (avx512 and avx2 on amd64; neon alone on arm64) returns
// the same bits, NaN payloads included, for Softplus, Sigmoid,
// SigmoidScaled and SoftplusSum of x0 placed at element offset o.
func vfSameBitsAsm(t *testing.T, paths []vec.Path, x0 []float64, o int, scale, mul float64) {
	if len(paths) < 3 {
		return
	}
	n := len(x0)
	run := func(q vec.Path) (out [3][]float64, sum float64) {
		x, _ := vfPlace(x0, o)
		for k := range out {
			out[k] = make([]float64, n)
		}
		q.Softplus(out[0], x)
		q.Sigmoid(out[1], x)
		q.SigmoidScaled(out[2], x, scale, mul)
		return out, q.SoftplusSum(x, scale)
	}
	ref, refSum := run(paths[1])
	for _, q := range paths[2:] {
		got, sum := run(q)
		for k, name := range []string{"Softplus", "Sigmoid", "SigmoidScaled"} {
			for i := range got[k] {
				if math.Float64bits(got[k][i]) != math.Float64bits(ref[k][i]) {
					t.Fatalf("%s %s(%v) [%d of %d] = %#x, %s %#x: not the same bits",
						q.Name, name, x0[i], i, n, math.Float64bits(got[k][i]), paths[1].Name, math.Float64bits(ref[k][i]))
				}
			}
		}
		if math.Float64bits(sum) != math.Float64bits(refSum) {
			t.Fatalf("%s SoftplusSum(scale=%v) over %d = %#x, %s %#x: not the same bits",
				q.Name, scale, n, math.Float64bits(sum), paths[1].Name, math.Float64bits(refSum))
		}
	}
}

// vfKey maps a non-NaN float64 to an integer in the same order, with ±0
// both at 0; vfUnkey inverts it (0 -> +0).
func vfKey(x float64) int64 {
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return -int64(b &^ (1 << 63))
	}
	return int64(b)
}

func vfUnkey(k int64) float64 {
	if k < 0 {
		return math.Float64frombits(uint64(-k) | 1<<63)
	}
	return math.Float64frombits(uint64(k))
}

// FuzzVecExpProperties feeds Softplus, Sigmoid and SoftplusSum an arbitrary
// 64-bit pattern x, placed at a fuzzer-chosen position of a vector of its
// float neighbours (so every SIMD lane and the scalar tail see it), and
// checks on every path:
//   - NaN in, NaN out; never NaN from a non-NaN input;
//   - softplus(x) >= 0 and >= x; softplus(+Inf) = +Inf, softplus(-Inf) = 0;
//   - sigmoid(x) in [0, 1]; sigmoid(±Inf) = 1, 0;
//   - monotone along the neighbours up to the 4-ulp accuracy of each value:
//     f(next) >= f(prev) - 8 ulp (exact monotonicity between neighbours is
//     not promised, as each value carries its own rounding error);
//   - sigmoid(x) + sigmoid(-x) = 1 within 5 eps (4 eps from the two values,
//     one rounding in the test), and softplus(x) - softplus(-x) = x within
//     5 eps * (softplus(x) + softplus(-x)) (same reasoning, for finite x);
//   - SoftplusSum(x, 1) >= 0, NaN exactly when some element is NaN.
func FuzzVecExpProperties(f *testing.F) {
	for i, v := range vfSpecial {
		f.Add(math.Float64bits(v), uint8(i))
	}
	f.Add(uint64(0x7ff0000000000001), uint8(7)) // signalling NaN
	f.Add(uint64(0xfff8000000000000), uint8(1)) // negative quiet NaN
	f.Fuzz(func(t *testing.T, bits uint64, pos uint8) {
		x := math.Float64frombits(bits)
		L := 3 + int(pos%18)
		p0 := int(pos/18) % L
		xs := make([]float64, L)
		if math.IsNaN(x) {
			for i := range xs {
				xs[i] = x
			}
		} else {
			const inf = 0x7ff0_0000_0000_0000
			k := vfKey(x)
			for i := range xs {
				ki := k + int64(i-p0)
				ki = max(-inf, min(inf, ki))
				xs[i] = vfUnkey(ki)
			}
			xs[p0] = x // keep the sign of a zero
		}
		neg := make([]float64, L)
		for i, v := range xs {
			neg[i] = -v
		}
		sp, sg := make([]float64, L), make([]float64, L)
		spn, sgn := make([]float64, L), make([]float64, L)
		for _, p := range vec.Paths() {
			p.Softplus(sp, xs)
			p.Sigmoid(sg, xs)
			p.Softplus(spn, neg)
			p.Sigmoid(sgn, neg)
			for i, v := range xs {
				if math.IsNaN(v) {
					if !math.IsNaN(sp[i]) || !math.IsNaN(sg[i]) {
						t.Fatalf("%s: NaN [%d of %d] gave softplus %v, sigmoid %v", p.Name, i, L, sp[i], sg[i])
					}
					continue
				}
				if !(sp[i] >= 0 && sp[i] >= v) {
					t.Fatalf("%s Softplus(%v) [%d of %d] = %v, want >= max(x, 0)", p.Name, v, i, L, sp[i])
				}
				if !(sg[i] >= 0 && sg[i] <= 1) {
					t.Fatalf("%s Sigmoid(%v) [%d of %d] = %v, want in [0, 1]", p.Name, v, i, L, sg[i])
				}
				if math.IsInf(v, 0) {
					wsp, wsg := math.Inf(1), 1.0
					if v < 0 {
						wsp, wsg = 0, 0
					}
					if sp[i] != wsp || sg[i] != wsg {
						t.Fatalf("%s at %v: softplus %v, sigmoid %v; want %v, %v", p.Name, v, sp[i], sg[i], wsp, wsg)
					}
					continue
				}
				if d := math.Abs(sg[i] + sgn[i] - 1); !(d <= 5*vfEps) {
					t.Fatalf("%s: sigmoid(%v) + sigmoid(%v) = %v + %v, off 1 by %g", p.Name, v, -v, sg[i], sgn[i], d)
				}
				if d := math.Abs(sp[i] - spn[i] - v); !(d <= 5*vfEps*(sp[i]+spn[i])+16*vfTiny) {
					t.Fatalf("%s: softplus(%v) - softplus(%v) = %v - %v, off x by %g", p.Name, v, -v, sp[i], spn[i], d)
				}
				if i > 0 && !math.IsNaN(xs[i-1]) {
					if sp[i] < sp[i-1] && vfUlpsApart(sp[i], sp[i-1]) > 8 {
						t.Fatalf("%s: softplus decreases from %v at %v to %v at %v", p.Name, sp[i-1], xs[i-1], sp[i], v)
					}
					if sg[i] < sg[i-1] && vfUlpsApart(sg[i], sg[i-1]) > 8 {
						t.Fatalf("%s: sigmoid decreases from %v at %v to %v at %v", p.Name, sg[i-1], xs[i-1], sg[i], v)
					}
				}
			}
			s := p.SoftplusSum(xs, 1)
			if math.IsNaN(x) != math.IsNaN(s) || s < 0 {
				t.Fatalf("%s SoftplusSum of %d neighbours of %v = %v", p.Name, L, x, s)
			}
		}
	})
}
