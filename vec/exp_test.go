package vec

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Tests of Softplus, Sigmoid, SigmoidScaled and SoftplusSum that complement
// vec_test.go: every hard value at every position of short slices (the lanes
// of the unrolled loops and every tail shape), and an opt-in accuracy sweep.

// vtHardValues are inputs where the kernels switch behaviour or need care:
// zeros, ±1, infinities, NaNs, subnormals, the ends of exp's range (e^u
// subnormal from -708.4, zero below -745.13, the clamp at -746), the largest
// finite values, |u| near asinh(1) = 0.8814 where 1+e^-|u| crosses sqrt 2
// (the k switch of log1p), |u| near 36.7 where e^-|u| drops below 2^-53, and
// v/ln2 near a half-integer (the rounding of n).
func vtHardValues() []float64 {
	inf := math.Inf(1)
	tiny := math.SmallestNonzeroFloat64
	maxSub := math.Float64frombits(0x000fffffffffffff)
	vals := []float64{
		0, math.Copysign(0, -1), 1, -1, inf, -inf, math.NaN(), -math.NaN(),
		tiny, -tiny, maxSub, -maxSub, 0x1p-1022, -0x1p-1022, 1e-300, -1e-300, 1e-17, -1e-17,
		-745.2, -746, -746.5, -745.1332191019412, -745.1332191019411, -744.4400719213812,
		-708.3964185322641, -708.4, -700, -800,
		709.78, 709.8, 710, 745.2, 800,
		1e308, -1e308, math.MaxFloat64, -math.MaxFloat64,
		36.7, -36.7, 37.5, -37.5, 18.5, -18.5,
		-0.34657359027997264, 0.34657359027997264, -1.0397207708399179, 1.0397207708399179,
		-0.5 * math.Ln2, 1.5 * math.Ln2,
	}
	a := math.Asinh(1)
	for _, s := range []float64{1, -1} {
		v := s * a
		for k := 0; k < 6; k++ {
			vals = append(vals, v)
			v = math.Nextafter(v, 0)
		}
		v = s * a
		for k := 0; k < 6; k++ {
			v = math.Nextafter(v, s*inf)
			vals = append(vals, v)
		}
	}
	return vals
}

// vtSameBits reports whether a and b are the same float64, any NaN
// counting as the same as any other.
func vtSame(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

// vtExpected checks a Softplus or Sigmoid result against the exact value:
// specials exactly (NaN for NaN, the IEEE limits for ±Inf), finite results
// within 4 ulp of the reference.
func vtCheckResult(what string, x, got, ref float64) string {
	switch {
	case math.IsNaN(x) != math.IsNaN(got):
		return fmt.Sprintf("%s(%v) = %v, want NaN iff the input is NaN", what, x, got)
	case math.IsNaN(x):
		return ""
	case math.IsInf(x, 0) || math.IsInf(ref, 0):
		if !vtSame(got, ref) {
			return fmt.Sprintf("%s(%v) = %v, want %v exactly", what, x, got, ref)
		}
	case got < 0 || math.Signbit(got):
		return fmt.Sprintf("%s(%v) = %v: negative", what, x, got)
	case vtUlps(got, ref) > 4:
		return fmt.Sprintf("%s(%v) = %v, want %v (%.2f ulp)", what, x, got, ref, vtUlps(got, ref))
	}
	return ""
}

// TestTranscendentalEveryPosition puts each hard value at every position of
// slices of lengths 1..34 (between ordinary values, at offsets 0..3 into a
// guarded buffer, and in place; 34 so that the assembly's sixteen- and
// eight-element loops and its masked tail meet in every combination) and
// checks every element: the hard value as
// vtCheckResult says, and every element bit for bit equal to the result for
// the same input alone in a slice of length 1, so that no lane, tail shape
// or alignment changes a result. SoftplusSum must equal, bit for bit, the sum
// of the path's own Softplus results in its documented order (sequential on
// the generic path, four lane sums on the assembly paths).
func TestTranscendentalEveryPosition(t *testing.T) {
	hard := vtHardValues()
	refSp := make([]float64, len(hard))
	refSg := make([]float64, len(hard))
	for i, v := range hard {
		switch {
		case math.IsNaN(v):
			refSp[i], refSg[i] = v, v
		default: // also ±Inf and huge |v| (see vtRefSoftplus)
			refSp[i], refSg[i] = vtRefSoftplus(v), vtRefSigmoid(v)
		}
	}
	filler := func(i int) float64 { return vtWide(11, i) * 8 }
	const scale, mul = 0.75, -2.5
	for _, p := range Paths() {
		// single[v] is the path's result for v alone in a slice.
		single := func(f func(dst, x []float64), v float64) float64 {
			d := []float64{0}
			f(d, []float64{v})
			return d[0]
		}
		sgScaled := func(d, x []float64) { p.SigmoidScaled(d, x, scale, mul) }
		fails := 0
		fail := func(format string, args ...any) {
			t.Helper()
			if fails < 20 {
				t.Errorf("%s: "+format, append([]any{p.Name}, args...)...)
			}
			fails++
		}
		for h, v := range hard {
			for _, f := range []struct {
				name string
				fn   func(dst, x []float64)
				ref  float64
			}{{"Softplus", p.Softplus, refSp[h]}, {"Sigmoid", p.Sigmoid, refSg[h]}, {"SigmoidScaled", sgScaled, math.NaN()}} {
				alone := single(f.fn, v)
				if f.name != "SigmoidScaled" {
					if msg := vtCheckResult(f.name, v, alone, f.ref); msg != "" {
						fail("%s", msg)
					}
				}
				for n := 1; n <= 34; n++ {
					for pos := 0; pos < n; pos++ {
						off := (n + pos) % 4
						x, chkX := vtGuarded(n, off, func(i int) float64 {
							if i == pos {
								return v
							}
							return filler(i)
						})
						d, chkD := vtGuarded(n, 3-off, func(int) float64 { return 0 })
						f.fn(d, x)
						in := append([]float64(nil), x...)
						f.fn(in, in) // in place
						for i := range d {
							w := single(f.fn, x[i])
							if math.Float64bits(d[i]) != math.Float64bits(w) || math.Float64bits(in[i]) != math.Float64bits(w) {
								fail("%s n=%d, %v at %d: element %d (x=%v) is %v (in place %v), alone %v",
									f.name, n, v, pos, i, x[i], d[i], in[i], w)
							}
						}
						chkX(t, p.Name+" "+f.name+" x")
						chkD(t, p.Name+" "+f.name+" dst")
						if f.name != "Softplus" {
							continue
						}
						// The sum of the same slice, in the path's order.
						var want float64
						if p.Name == "generic" {
							for _, r := range d {
								want += r
							}
						} else {
							want = emSum4(d)
						}
						if got := p.SoftplusSum(x, 1); !vtSame(got, want) {
							fail("SoftplusSum n=%d, %v at %d: %v, want %v", n, v, pos, got, want)
						}
					}
				}
			}
		}
		if fails > 0 {
			t.Errorf("%s: %d failures", p.Name, fails)
		}
	}
}

// emSum4 sums r the way the assembly SoftplusSum does: element i into
// partial sum i%4, then (s0+s2) + (s1+s3).
func emSum4(r []float64) float64 {
	var s [4]float64
	for i, v := range r {
		s[i%4] = emAdd(s[i%4], v)
	}
	return emAdd(emAdd(s[0], s[2]), emAdd(s[1], s[3]))
}

// TestPrintGolden prints emGolden (exp_model_test.go) from the neon path. It
// runs only when asked, on arm64 (under qemu-aarch64 on another host):
//
//	GOARCH=arm64 go test -c -o /tmp/vec.arm64 ./vec
//	VEC_PRINT_GOLDEN=1 qemu-aarch64 /tmp/vec.arm64 -test.run '^TestPrintGolden$' -test.v
func TestPrintGolden(t *testing.T) {
	if os.Getenv("VEC_PRINT_GOLDEN") == "" {
		t.Skip("set VEC_PRINT_GOLDEN=1 to print the golden table")
	}
	if Impl() != "neon" {
		t.Fatalf("the golden table is recorded on the neon path, not %s", Impl())
	}
	in := emGoldenInputs()
	sp := make([]float64, len(in))
	sg := make([]float64, len(in))
	Softplus(sp, in)
	Sigmoid(sg, in)
	var b strings.Builder
	for i, x := range in {
		fmt.Fprintf(&b, "\t{%#016x, %#016x, %#016x},\n", math.Float64bits(x), math.Float64bits(sp[i]), math.Float64bits(sg[i]))
	}
	fmt.Printf("GOLDEN BEGIN\n%sGOLDEN END\n", b.String())
}

// emGoldenInputs are the inputs of the golden table: the hard values, a
// spread over the whole range, and raw bit patterns.
func emGoldenInputs() []float64 {
	in := vtHardValues()
	for i := 0; i <= 120; i++ {
		in = append(in, -750+12.25*float64(i)+math.Sin(float64(i))) // [-750, 720]
	}
	for e := -20; e <= 3; e++ {
		in = append(in, math.Pow(10, float64(e))*1.37, -math.Pow(10, float64(e))*1.37)
	}
	state := uint64(0x2545f4914f6cdd1d)
	for i := 0; i < 40; i++ {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		in = append(in, math.Float64frombits(state))
	}
	return in
}

// sweepULP are the README's accuracy figures ("Softplus / Sigmoid
// accuracy"): the largest error in ulp of Softplus and Sigmoid over the
// full sweep, per path. neon's are those measured under qemu-user, whose
// sweep points differ from amd64's in the last bits; on the same inputs
// neon returns avx2's bits.
var sweepULP = map[string][2]float64{
	"generic": {1.95, 2.44},
	"avx2":    {1.52, 2.13},
	"avx512":  {1.52, 2.13},
	"neon":    {1.54, 2.21},
}

// sweepWorst are the inputs at which the full sweep on amd64 found each
// path's largest errors (generic Softplus, Sigmoid; avx2 Softplus,
// Sigmoid). Every sweep includes them, so that a reduced one reaches the
// figures too.
var sweepWorst = []float64{-29.436329436329437, -14.8983148983149, 0.4311221988358465, -1.9789705215082711}

// sweepSlack is how far a measured maximum may be from sweepULP.
const sweepSlack = 1.2

// TestAccuracySweep measures the maximum error of every path against the
// exact value (math/big, before rounding) on points uniform on [-50, 50]
// and log-spaced tails out to -745 and +710, plus sweepWorst, and checks
// the README's figures: every path's maximum is at most sweepSlack times
// its figure, and (on amd64, where sweepWorst was found) at least the
// figure over sweepSlack, so a figure can be neither exceeded nor stale.
// The README's size, 1e6 points (about 25 s on two cores), runs with
// VEC_SWEEP=1; by default 1e5 points (2e4 with -short); VEC_SWEEP_N sets
// the number.
func TestAccuracySweep(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 20000
	}
	if os.Getenv("VEC_SWEEP") != "" {
		n = 1000000
	}
	if s := os.Getenv("VEC_SWEEP_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	pts := make([]float64, 0, n+len(sweepWorst))
	third := n / 3
	for i := 0; i < third; i++ {
		pts = append(pts, -50+100*(float64(i)+0.5)/float64(third))
	}
	// log-spaced |u| in [1e-8, 745] and [1e-8, 710], golden-ratio walk.
	for i := 0; len(pts) < n; i++ {
		f := math.Mod(float64(i)*0.6180339887498949, 1)
		if i%2 == 0 {
			pts = append(pts, -math.Pow(10, -8+f*(8+math.Log10(745))))
		} else {
			pts = append(pts, math.Pow(10, -8+f*(8+math.Log10(710))))
		}
	}
	pts = append(pts, sweepWorst...)
	// The references as pairs hi + lo, hi the rounded exact value and lo
	// the rounded rest, so that errors are measured against the exact
	// value and not against its rounding.
	refSp := make([][2]float64, len(pts))
	refSg := make([][2]float64, len(pts))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(pts); i += workers {
				refSp[i], refSg[i] = vtPair(vtBigSoftplus(pts[i])), vtPair(vtBigSigmoid(pts[i]))
			}
		}(w)
	}
	wg.Wait()
	for _, p := range Paths() {
		fig, ok := sweepULP[p.Name]
		if !ok {
			t.Errorf("%s: no accuracy figure in the README", p.Name)
			continue
		}
		sp := make([]float64, len(pts))
		sg := make([]float64, len(pts))
		p.Softplus(sp, pts)
		p.Sigmoid(sg, pts)
		type worst struct{ e, at float64 }
		var ws, wg worst
		var hist [2][]float64
		for i, u := range pts {
			es, eg := vtUlpsPair(sp[i], refSp[i]), vtUlpsPair(sg[i], refSg[i])
			hist[0] = append(hist[0], es)
			hist[1] = append(hist[1], eg)
			if es > ws.e {
				ws = worst{es, u}
			}
			if eg > wg.e {
				wg = worst{eg, u}
			}
		}
		q := func(h []float64, f float64) float64 {
			sort.Float64s(h)
			return h[int(f*float64(len(h)-1))]
		}
		t.Logf("%s, %d points: Softplus max %.3f ulp (at %v), p99.9 %.3f; Sigmoid max %.3f ulp (at %v), p99.9 %.3f",
			p.Name, len(pts), ws.e, ws.at, q(hist[0], 0.999), wg.e, wg.at, q(hist[1], 0.999))
		for k, w := range []worst{ws, wg} {
			name := [2]string{"Softplus", "Sigmoid"}[k]
			if w.e > sweepSlack*fig[k] {
				t.Errorf("%s %s: %.3f ulp at %v, above %g x the README's %g", p.Name, name, w.e, w.at, sweepSlack, fig[k])
			}
			if runtime.GOARCH == "amd64" && w.e < fig[k]/sweepSlack {
				t.Errorf("%s %s: at most %.3f ulp, below the README's %g / %g", p.Name, name, w.e, fig[k], sweepSlack)
			}
		}
	}
}

// vtBigSoftplus and vtBigSigmoid are vtRefSoftplus and vtRefSigmoid before
// the final rounding (|u| <= 800).
func vtBigSoftplus(u float64) *big.Float {
	const prec = 160
	x := new(big.Float).SetPrec(prec).SetFloat64(-math.Abs(u))
	r := vtBigLog1p(vtBigExp(x, prec), prec)
	if u > 0 {
		r.Add(r, new(big.Float).SetPrec(prec).SetFloat64(u))
	}
	return r
}

func vtBigSigmoid(u float64) *big.Float {
	const prec = 160
	e := vtBigExp(new(big.Float).SetPrec(prec).SetFloat64(-math.Abs(u)), prec)
	den := new(big.Float).SetPrec(prec).Add(e, big.NewFloat(1))
	if u >= 0 {
		return new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), den)
	}
	return new(big.Float).SetPrec(prec).Quo(e, den)
}

// vtPair splits r into hi = r rounded and lo = (r - hi) rounded.
func vtPair(r *big.Float) [2]float64 {
	hi, _ := r.Float64()
	rest := new(big.Float).SetPrec(r.Prec()).Sub(r, new(big.Float).SetFloat64(hi))
	lo, _ := rest.Float64()
	return [2]float64{hi, lo}
}

// vtUlpsPair is |got - (hi+lo)| in units of the spacing at hi (the
// subnormal spacing for tiny values); got - hi is exact when it matters.
func vtUlpsPair(got float64, ref [2]float64) float64 {
	a := math.Abs(ref[0])
	sp := math.Nextafter(a, math.Inf(1)) - a
	return math.Abs((got-ref[0])-ref[1]) / sp
}
