package vec

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// vtGuard is the value written around every output slice; it must survive.
// A NaN with a payload no kernel produces.
var vtGuard = math.Float64frombits(0x7ff8dead0000beef)

// vtLengths are the lengths every kernel is tested at: all of 0..300 and a
// few larger ones that cross every unrolling boundary.
func vtLengths() []int {
	var ls []int
	for n := 0; n <= 300; n++ {
		ls = append(ls, n)
	}
	ls = append(ls, 1000, 4099)
	if !testing.Short() {
		ls = append(ls, 100000)
	}
	return ls
}

// vtGuarded returns a slice of length n at offset off into a backing array
// whose other entries are vtGuard, and a function that checks them.
func vtGuarded(n, off int, fill func(i int) float64) ([]float64, func(t *testing.T, what string)) {
	const pad = 9
	back := make([]float64, off+n+pad)
	for i := range back {
		back[i] = vtGuard
	}
	s := back[off : off+n : off+n]
	for i := range s {
		s[i] = fill(i)
	}
	return s, func(t *testing.T, what string) {
		t.Helper()
		for i, v := range back {
			if (i < off || i >= off+n) && math.Float64bits(v) != math.Float64bits(vtGuard) {
				t.Fatalf("%s: guard at %d (slice at [%d, %d)) overwritten with %v", what, i, off, off+n, v)
			}
		}
	}
}

// vtVal is a deterministic, sign-mixed input: small integers scaled so that
// sums and products are exact in float64 (exact results on every path).
func vtVal(seed, i int) float64 { return float64((i*7+seed*13)%17 - 8) }

// vtWide is a non-exact input for the rounding-bound checks.
func vtWide(seed, i int) float64 {
	return math.Sin(float64(i*31+seed)) * math.Exp(float64((i+seed)%9-4))
}

// vtExactDot is x'y computed exactly (big.Float) and rounded once, with
// sum |x_i y_i| (in float64) for the rounding bounds.
func vtExactDot(x, y []float64) (dot, abs float64) {
	sum := new(big.Float).SetPrec(2000)
	for i := range x {
		pr := new(big.Float).SetPrec(2000).SetFloat64(x[i])
		pr.Mul(pr, new(big.Float).SetFloat64(y[i]))
		sum.Add(sum, pr)
		abs += math.Abs(x[i] * y[i])
	}
	dot, _ = sum.Float64()
	return dot, abs
}

func TestDotAxpyScaleExactOnIntegers(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			for off := 0; off < 8; off++ {
				x, chkX := vtGuarded(n, off, func(i int) float64 { return vtVal(1, i) })
				y, chkY := vtGuarded(n, (off+3)%8, func(i int) float64 { return vtVal(2, i) })
				var want float64
				for i := range x {
					want += vtVal(1, i) * vtVal(2, i)
				}
				if got := p.Dot(x, y); got != want {
					t.Fatalf("%s Dot n=%d off=%d: %v, want %v", p.Name, n, off, got, want)
				}
				p.Axpy(3, x, y)
				for i := range y {
					if w := vtVal(2, i) + 3*vtVal(1, i); y[i] != w {
						t.Fatalf("%s Axpy n=%d off=%d [%d]: %v, want %v", p.Name, n, off, i, y[i], w)
					}
				}
				p.Scale(-2, x)
				for i := range x {
					if x[i] != -2*vtVal(1, i) {
						t.Fatalf("%s Scale n=%d [%d]: %v", p.Name, n, i, x[i])
					}
				}
				chkX(t, p.Name+" x")
				chkY(t, p.Name+" y")
			}
		}
	}
}

func TestFusedExactOnIntegers(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			off := n % 8
			u, chkU := vtGuarded(n, off, func(i int) float64 { return vtVal(3, i) })
			v, chkV := vtGuarded(n, 7-off, func(i int) float64 { return vtVal(4, i) })
			x, chkX := vtGuarded(n, (off+5)%8, func(i int) float64 { return vtVal(5, i) })
			d, chkD := vtGuarded(n, (off+1)%8, func(int) float64 { return 0 })
			p.AxpbyTo(d, 2, u, -3, v)
			p.Step(0.5, 2, u, 4, v, x)
			for i := 0; i < n; i++ {
				if w := 2*vtVal(3, i) - 3*vtVal(4, i); d[i] != w {
					t.Fatalf("%s AxpbyTo n=%d [%d]: %v, want %v", p.Name, n, i, d[i], w)
				}
				if w := 0.5 * (vtVal(5, i) + 2*vtVal(3, i) + 4*vtVal(4, i)); x[i] != w {
					t.Fatalf("%s Step n=%d [%d]: %v, want %v", p.Name, n, i, x[i], w)
				}
				if u[i] != vtVal(3, i) || v[i] != vtVal(4, i) {
					t.Fatalf("%s: read-only input changed at %d", p.Name, i)
				}
			}
			for _, c := range []func(*testing.T, string){chkU, chkV, chkX, chkD} {
				c(t, p.Name)
			}
			// Aliasing allowed by the API: AxpbyTo with dst == x and dst == y.
			a := append([]float64(nil), u...)
			p.AxpbyTo(a, 2, a, 1, v)
			b := append([]float64(nil), v...)
			p.AxpbyTo(b, 2, u, 1, b)
			for i := 0; i < n; i++ {
				if w := 2*vtVal(3, i) + vtVal(4, i); a[i] != w || b[i] != w {
					t.Fatalf("%s AxpbyTo aliased n=%d [%d]: %v %v, want %v", p.Name, n, i, a[i], b[i], w)
				}
			}
		}
	}
}

// TestDotWithinSummationBound: on inexact data every path agrees with an
// exact (big.Float) dot product within n*eps*sum|x_i y_i|.
func TestDotWithinSummationBound(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range []int{1, 7, 33, 100, 1000, 4099} {
			x := make([]float64, n)
			y := make([]float64, n)
			for i := range x {
				x[i], y[i] = vtWide(1, i), vtWide(2, i)
			}
			e, abs := vtExactDot(x, y)
			got := p.Dot(x, y)
			if bound := float64(n) * 0x1p-53 * abs * 1.01; math.Abs(got-e) > bound {
				t.Errorf("%s n=%d: |dot - exact| = %.3e > %.3e", p.Name, n, math.Abs(got-e), bound)
			}
		}
	}
}

// TestDotEveryLengthAndOffsetWithinBound: on inexact data Dot on every path
// is within DotErrorBound(n) * sum |x_i y_i| of the exact (big.Float) value
// at every length of vtLengths, with x and y at every offset 0..7
// (misaligned differently), and returns the same bits at every offset and
// on a second call: the summation order depends on the length only.
func TestDotEveryLengthAndOffsetWithinBound(t *testing.T) {
	for _, n := range vtLengths() {
		x0, y0 := make([]float64, n), make([]float64, n)
		for i := range x0 {
			x0[i], y0[i] = vtWide(3, i), vtWide(4, i)
		}
		exact, abs := vtExactDot(x0, y0)
		bound := DotErrorBound(n) * abs * 1.01 // 1.01: abs's own rounding
		for _, p := range Paths() {
			first := p.Dot(x0, y0)
			if err := math.Abs(first - exact); !(err <= bound) {
				t.Fatalf("%s Dot n=%d: |dot - exact| = %.3e > %.3e", p.Name, n, err, bound)
			}
			for off := 0; off < 8; off++ {
				x, chkX := vtGuarded(n, off, func(i int) float64 { return x0[i] })
				y, chkY := vtGuarded(n, (off+3)%8, func(i int) float64 { return y0[i] })
				for rep := 0; rep < 2; rep++ {
					if got := p.Dot(x, y); math.Float64bits(got) != math.Float64bits(first) {
						t.Fatalf("%s Dot n=%d off=%d call %d: %v, at offset 0 %v", p.Name, n, off, rep, got, first)
					}
				}
				chkX(t, p.Name+" Dot x")
				chkY(t, p.Name+" Dot y")
			}
		}
	}
}

func TestSpecialValuesPropagate(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, p := range Paths() {
		for _, n := range []int{1, 5, 16, 33} {
			x := make([]float64, n)
			y := make([]float64, n)
			for i := range x {
				x[i], y[i] = 1, 1
			}
			x[n-1] = nan
			if !math.IsNaN(p.Dot(x, y)) {
				t.Errorf("%s Dot with NaN at %d of %d is not NaN", p.Name, n-1, n)
			}
			x[n-1] = inf
			if !math.IsInf(p.Dot(x, y), 1) {
				t.Errorf("%s Dot with +Inf is not +Inf", p.Name)
			}
			p.Axpy(1, x, y)
			if !math.IsInf(y[n-1], 1) {
				t.Errorf("%s Axpy with +Inf: %v", p.Name, y[n-1])
			}
		}
	}
}

// --- Softplus and Sigmoid against math/big ---

// vtBigExp returns e^x to prec bits: x = k ln2 + r with |r| <= ln2/2, then
// r is halved 16 times, the Taylor series summed, and the result squared
// back, times 2^k.
func vtBigExp(x *big.Float, prec uint) *big.Float {
	ln2 := vtBigLn2(prec + 20)
	q := new(big.Float).SetPrec(prec+20).Quo(x, ln2)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(prec+20).Sub(x, new(big.Float).SetPrec(prec+20).Mul(ln2, big.NewFloat(k)))
	r.SetMantExp(r, -16)
	sum := new(big.Float).SetPrec(prec + 20).SetInt64(1)
	term := new(big.Float).SetPrec(prec + 20).SetInt64(1)
	for i := 1; i < 200; i++ {
		term.Mul(term, r)
		term.Quo(term, big.NewFloat(float64(i)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(prec)-30 {
			break
		}
	}
	for i := 0; i < 16; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

var vtLn2Cache *big.Float

// vtBigLn2 is ln 2 = 2 atanh(1/3) = 2 sum 1/((2k+1) 3^(2k+1)).
func vtBigLn2(prec uint) *big.Float {
	if vtLn2Cache != nil && vtLn2Cache.Prec() >= prec {
		return vtLn2Cache
	}
	s := new(big.Float).SetPrec(prec)
	p := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), big.NewFloat(3))
	for k := 0; k < int(prec); k++ {
		t := new(big.Float).SetPrec(prec).Quo(p, big.NewFloat(float64(2*k+1)))
		s.Add(s, t)
		p.Quo(p, big.NewFloat(9))
	}
	vtLn2Cache = s.Mul(s, big.NewFloat(2))
	return vtLn2Cache
}

// vtBigLog1p returns log(1+z) for z >= 0 as 2 atanh(z/(2+z)), series in
// s = z/(2+z) <= 1/3 after halving the argument with log(1+z) = 2 log(sqrt(1+z)).
func vtBigLog1p(z *big.Float, prec uint) *big.Float {
	w := new(big.Float).SetPrec(prec).Add(z, big.NewFloat(1)) // 1+z
	halvings := 0
	for w.Cmp(big.NewFloat(1.1)) > 0 {
		w.Sqrt(w)
		halvings++
	}
	zz := new(big.Float).SetPrec(prec).Sub(w, big.NewFloat(1))
	if halvings == 0 {
		zz.Set(z) // keep full relative accuracy for tiny z
	}
	s := new(big.Float).SetPrec(prec).Quo(zz, new(big.Float).SetPrec(prec).Add(zz, big.NewFloat(2)))
	s2 := new(big.Float).SetPrec(prec).Mul(s, s)
	sum := new(big.Float).SetPrec(prec)
	pw := new(big.Float).SetPrec(prec).Set(s)
	for k := 0; k < 400; k++ {
		t := new(big.Float).SetPrec(prec).Quo(pw, big.NewFloat(float64(2*k+1)))
		sum.Add(sum, t)
		pw.Mul(pw, s2)
		if pw.Sign() == 0 || sum.Sign() != 0 && pw.MantExp(nil)-sum.MantExp(nil) < -int(prec)-10 {
			break
		}
	}
	sum.Mul(sum, big.NewFloat(2))
	return sum.SetMantExp(sum, halvings)
}

// vtRefSoftplus and vtRefSigmoid are the exact values rounded to float64,
// for finite u. Outside [-746, 800] the rounded value is known without the
// series (which is not made for huge |u|): e^u < 2^-1075 rounds to +0 below
// -746 (softplus(u) < e^u, sigmoid(u) < e^u), and above 800 e^-u is far
// below half an ulp of u and of 1, so softplus(u) rounds to u, sigmoid(u)
// to 1.
func vtRefSoftplus(u float64) float64 {
	switch {
	case u < -746:
		return 0
	case u > 800:
		return u
	}
	const prec = 160
	x := new(big.Float).SetPrec(prec).SetFloat64(-math.Abs(u))
	r := vtBigLog1p(vtBigExp(x, prec), prec)
	if u > 0 {
		r.Add(r, new(big.Float).SetPrec(prec).SetFloat64(u))
	}
	f, _ := r.Float64()
	return f
}

func vtRefSigmoid(u float64) float64 {
	switch {
	case u < -746:
		return 0
	case u > 800:
		return 1
	}
	const prec = 160
	e := vtBigExp(new(big.Float).SetPrec(prec).SetFloat64(-math.Abs(u)), prec)
	den := new(big.Float).SetPrec(prec).Add(e, big.NewFloat(1))
	var r *big.Float
	if u >= 0 {
		r = new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), den)
	} else {
		r = new(big.Float).SetPrec(prec).Quo(e, den)
	}
	f, _ := r.Float64()
	return f
}

// vtUlps is |got - want| in units of the spacing at want (the subnormal
// spacing for tiny values).
func vtUlps(got, want float64) float64 {
	if got == want {
		return 0
	}
	a := math.Abs(want)
	sp := math.Nextafter(a, math.Inf(1)) - a
	return math.Abs(got-want) / sp
}

// vtPoints are the accuracy test inputs: a uniform grid on [-50, 50],
// log-spaced tails out to -745 and +710, and neighbourhoods of 0, ±1 and
// the ends of exp's range.
func vtPoints() []float64 {
	var pts []float64
	for i := 0; i <= 2000; i++ {
		pts = append(pts, -50+0.05*float64(i)+1e-3*math.Sin(float64(i)))
	}
	for e := -12.0; e <= math.Log10(745); e += 0.02 {
		pts = append(pts, -math.Pow(10, e), math.Pow(10, math.Min(e, math.Log10(709))))
	}
	for _, c := range []float64{0, 1, -1, 709.78, -708.39, -745.13, 36.7, -36.7} {
		v := c
		for k := 0; k < 40; k++ {
			pts = append(pts, v, math.Nextafter(c, math.Inf(1))+float64(k)*1e-13)
			v = math.Nextafter(v, math.Inf(-1))
		}
	}
	if !testing.Short() {
		// 1e5 more, spread over [-745, 710] by a fixed low-discrepancy walk.
		for i := 0; i < 100000; i++ {
			f := math.Mod(float64(i)*0.6180339887498949, 1)
			pts = append(pts, -745+f*1455)
		}
	}
	return pts
}

// TestSoftplusSigmoidAccuracy: every path within 4 ulp of the exact value
// (computed with math/big) on the points above; the max is logged per path.
func TestSoftplusSigmoidAccuracy(t *testing.T) {
	pts := vtPoints()
	if testing.Short() {
		pts = pts[:len(pts)/3]
	}
	spRef := make([]float64, len(pts))
	sgRef := make([]float64, len(pts))
	for i, u := range pts {
		spRef[i], sgRef[i] = vtRefSoftplus(u), vtRefSigmoid(u)
	}
	for _, p := range Paths() {
		sp := make([]float64, len(pts))
		sg := make([]float64, len(pts))
		p.Softplus(sp, pts)
		p.Sigmoid(sg, pts)
		var worstSp, worstSg float64
		var atSp, atSg float64
		for i, u := range pts {
			if e := vtUlps(sp[i], spRef[i]); e > worstSp {
				worstSp, atSp = e, u
			}
			if e := vtUlps(sg[i], sgRef[i]); e > worstSg {
				worstSg, atSg = e, u
			}
		}
		t.Logf("%s: max error Softplus %.2f ulp (at %v), Sigmoid %.2f ulp (at %v), %d points", p.Name, worstSp, atSp, worstSg, atSg, len(pts))
		// vec's contract is 4 ulp; the assembly paths document 2 and 3.
		limSp, limSg := 4.0, 4.0
		if p.Name != "generic" {
			limSp, limSg = 2, 3
		}
		if worstSp > limSp || worstSg > limSg {
			t.Errorf("%s: Softplus %.2f ulp at %v (limit %v), Sigmoid %.2f ulp at %v (limit %v)", p.Name, worstSp, atSp, limSp, worstSg, atSg, limSg)
		}
	}
}

func TestSoftplusSigmoidSpecials(t *testing.T) {
	inf := math.Inf(1)
	tiny := math.SmallestNonzeroFloat64
	in := []float64{inf, -inf, math.NaN(), 0, math.Copysign(0, -1), tiny, -tiny, 1e308, -1e308, 800, -800}
	for _, p := range Paths() {
		sp := make([]float64, len(in))
		sg := make([]float64, len(in))
		p.Softplus(sp, in)
		p.Sigmoid(sg, in)
		want := []struct{ sp, sg float64 }{{inf, 1}, {0, 0}, {math.NaN(), math.NaN()}, {math.Ln2, 0.5},
			{math.Ln2, 0.5}, {math.Ln2, 0.5}, {math.Ln2, 0.5}, {1e308, 1}, {0, 0}, {800, 1}, {0, 0}}
		for i := range in {
			okSp := sp[i] == want[i].sp || math.IsNaN(sp[i]) && math.IsNaN(want[i].sp)
			okSg := sg[i] == want[i].sg || math.IsNaN(sg[i]) && math.IsNaN(want[i].sg)
			if !okSp || !okSg {
				t.Errorf("%s(%v): softplus %v (want %v), sigmoid %v (want %v)", p.Name, in[i], sp[i], want[i].sp, sg[i], want[i].sg)
			}
		}
		// Softplus keeps full relative accuracy in the far left tail.
		x := []float64{-700}
		p.Softplus(sp[:1], x)
		if r := sp[0] / math.Exp(-700); math.Abs(r-1) > 1e-15 {
			t.Errorf("%s: softplus(-700)/e^-700 = %v", p.Name, r)
		}
	}
}

// TestTranscendentalGuardsAndAliasing: every length and offset, guard bands,
// in place, and the scaled and summed variants against the plain kernels.
func TestTranscendentalGuardsAndAliasing(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			if n > 4099 {
				continue
			}
			off := (n * 3) % 8
			x, chkX := vtGuarded(n, off, func(i int) float64 { return vtWide(7, i) * 10 })
			d, chkD := vtGuarded(n, 7-off, func(int) float64 { return 0 })
			p.Softplus(d, x)
			in := append([]float64(nil), x...)
			p.Softplus(in, in)
			var sum float64
			for i := range d {
				if math.Float64bits(d[i]) != math.Float64bits(in[i]) {
					t.Fatalf("%s Softplus in place differs at %d", p.Name, i)
				}
				sum += d[i]
			}
			if got := p.SoftplusSum(x, 1); math.Abs(got-sum) > 1e-13*math.Max(1, sum) {
				t.Fatalf("%s SoftplusSum n=%d: %v, want %v", p.Name, n, got, sum)
			}
			p.SigmoidScaled(d, x, 0.5, 3)
			for i := range d {
				if w := 3 * sigmoid1(0.5*x[i]); vtUlps(d[i], w) > 8 {
					t.Fatalf("%s SigmoidScaled n=%d [%d]: %v, want %v", p.Name, n, i, d[i], w)
				}
			}
			chkX(t, p.Name)
			chkD(t, p.Name)
		}
	}
}

func TestNoAllocations(t *testing.T) {
	x := make([]float64, 100)
	y := make([]float64, 100)
	allocs := testing.AllocsPerRun(10, func() {
		Dot(x, y)
		Dot4(x, y, y, x, y)
		MaxAbs(x)
		Axpy(1, x, y)
		Scale(2, x)
		AxpbyTo(y, 1, x, 2, y)
		Step(1, 2, x, 3, y, x[:100])
		Softplus(y, x)
		Sigmoid(y, x)
		SigmoidScaled(y, x, 1, 2)
		SoftplusSum(x, 1)
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Dot":      func() { Dot(make([]float64, 2), make([]float64, 3)) },
		"Dot4":     func() { Dot4(make([]float64, 2), nil, nil, nil, nil) },
		"Axpy":     func() { Axpy(1, make([]float64, 2), make([]float64, 3)) },
		"Softplus": func() { Softplus(make([]float64, 2), make([]float64, 3)) },
		"Step":     func() { Step(1, 1, make([]float64, 2), 1, make([]float64, 3), make([]float64, 2)) },
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), name) {
					t.Errorf("%s: panic %v, want a message naming the kernel", name, r)
				}
			}()
			f()
		}()
	}
}

// TestGODEBUGSelectsGeneric: GODEBUG=cpu.avx2=off makes the amd64 build
// use the generic path, and GODEBUG=cpu.asimd=off the arm64 build (x/sys/cpu
// honours both); cpu.avx2=off on arm64 would leave neon in use, so the
// setting is the running architecture's.
func TestGODEBUGSelectsGeneric(t *testing.T) {
	if os.Getenv("VEC_IMPL_CHILD") == "1" {
		fmt.Print("impl=" + Impl())
		return
	}
	off, ok := godebugGeneric[runtime.GOARCH]
	if !ok {
		if len(Paths()) > 1 {
			t.Fatalf("%s has an assembly path but no GODEBUG setting here to turn it off", runtime.GOARCH)
		}
		t.Skipf("no assembly path on %s: always generic", runtime.GOARCH)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUGSelectsGeneric$")
	cmd.Env = append(os.Environ(), "VEC_IMPL_CHILD=1", "GODEBUG="+off)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot re-run the test binary here: %v", err)
	}
	if !strings.Contains(string(out), "impl=generic") {
		t.Errorf("with GODEBUG=%s: %q, want impl=generic", off, out)
	}
}

// godebugGeneric is, per architecture with an assembly path, the GODEBUG
// setting that turns it off (the feature useAsm tests: vec_amd64.go,
// vec_arm64.go). GODEBUG=cpu.avx2=off changes nothing on arm64.
var godebugGeneric = map[string]string{"amd64": "cpu.avx2=off", "arm64": "cpu.asimd=off"}

// TestDotErrorBound: gamma_n = n u / (1 - n u), 0 for n = 0, +Inf once n u
// reaches 1, and it bounds the error of Dot on an adversarial sum.
func TestDotErrorBound(t *testing.T) {
	// n u reaches 1 only where int holds 2^53.
	huge, wantInf := math.MaxInt, math.MaxInt >= 1<<53
	if DotErrorBound(0) != 0 || DotErrorBound(1) != 0x1p-53/(1-0x1p-53) || math.IsInf(DotErrorBound(huge), 1) != wantInf {
		t.Fatalf("DotErrorBound(0, 1, %d) = %v, %v, %v", huge, DotErrorBound(0), DotErrorBound(1), DotErrorBound(huge))
	}
	// x_i y_i = 1, 1e-16, 1e-16, ...: each small term is lost to rounding in
	// a left-to-right sum; the exact sum is 1 + (n-1) 1e-16.
	for _, n := range []int{2, 10, 100, 1000} {
		x, y := make([]float64, n), make([]float64, n)
		x[0], y[0] = 1, 1
		for i := 1; i < n; i++ {
			x[i], y[i] = 1e-8, 1e-8
		}
		exact := 1 + float64(n-1)*1e-16
		if err := math.Abs(Dot(x, y) - exact); err > DotErrorBound(n)*exact {
			t.Errorf("n %d: |Dot - exact| = %.3g > gamma_n sum |x_i y_i| = %.3g", n, err, DotErrorBound(n)*exact)
		}
	}
}

var benchSizes = []int{4, 16, 100, 1000, 10000, 1000000}

// benchKernel runs one kernel on every path at every size, reporting MB/s
// (bytes read and written per call) and ns/element.
func benchKernel(b *testing.B, bytesPerElem int, body func(p Path, x, y, z []float64)) {
	for _, p := range Paths() {
		for _, n := range benchSizes {
			x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = float64(i%13)*0.1-0.6, float64(i%7)*0.2-0.5
			}
			b.Run(fmt.Sprintf("%s/n=%d", p.Name, n), func(b *testing.B) {
				b.SetBytes(int64(bytesPerElem * n))
				for b.Loop() {
					body(p, x, y, z)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
	}
}

var sink float64

func BenchmarkDot(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, y, _ []float64) { sink += p.Dot(x, y) })
}
func BenchmarkAxpy(b *testing.B) {
	benchKernel(b, 24, func(p Path, x, y, _ []float64) { p.Axpy(1e-9, x, y) })
}
func BenchmarkScale(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, _ []float64) { p.Scale(1, x) })
}
func BenchmarkAxpbyTo(b *testing.B) {
	benchKernel(b, 24, func(p Path, x, y, z []float64) { p.AxpbyTo(z, 0.5, x, 0.5, y) })
}
func BenchmarkStep(b *testing.B) {
	benchKernel(b, 32, func(p Path, x, y, z []float64) { p.Step(1, 1e-9, x, 1e-9, y, z) })
}
func BenchmarkSoftplus(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, z []float64) { p.Softplus(z, x) })
}
func BenchmarkSigmoid(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, z []float64) { p.Sigmoid(z, x) })
}
func BenchmarkSigmoidScaled(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, z []float64) { p.SigmoidScaled(z, x, 2, 3) })
}
func BenchmarkSoftplusSum(b *testing.B) {
	benchKernel(b, 8, func(p Path, x, _, _ []float64) { sink += p.SoftplusSum(x, 2) })
}

// BenchmarkSumSqDot compares SumSqDot with the two Dot calls it replaces
// (x'x and x'y), on every path, at row lengths of the active-set method's
// set-up and at longer ones. ns/op is the time of both results.
func BenchmarkSumSqDot(b *testing.B) {
	for _, p := range Paths() {
		for _, n := range []int{4, 16, 100, 256, 1000, 10000, 1000000} {
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = float64(i%13)*0.1-0.6, float64((i+3)%11)*0.1-0.5
			}
			b.Run(fmt.Sprintf("%s/SumSqDot/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					ss, d := p.SumSqDot(x, y)
					sink += ss + d
				}
			})
			b.Run(fmt.Sprintf("%s/2xDot/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += p.Dot(x, x) + p.Dot(x, y)
				}
			})
		}
	}
}

// BenchmarkDot4Rows is a pricing scan's shape: Dot4 of x against 256 rows
// of a matrix stored with stride n, four rows a call, with the matrix
// starting on a cache line (rows=aligned: at n = 100 every other row then
// starts 32 bytes into a line) or 32 bytes past one (rows=off32); x starts
// on a line. On avx512 the rows that do not start on a line are read by
// halves (dot4AVX512). ns/row is the time per row.
func BenchmarkDot4Rows(b *testing.B) {
	const m = 256
	for _, p := range Paths() {
		for _, n := range []int{100, 112} {
			for _, off := range []int{0, 4} {
				a := make([]float64, m*n)
				for i := range a {
					a[i] = float64(i%13)*0.1 - 0.6
				}
				a = vtLineAt(a, off)
				x := make([]float64, n)
				for i := range x {
					x[i] = float64(i%7)*0.2 - 0.5
				}
				x = vtLineAt(x, 0)
				place := map[int]string{0: "aligned", 4: "off32"}[off]
				b.Run(fmt.Sprintf("%s/n=%d/rows=%s", p.Name, n, place), func(b *testing.B) {
					for b.Loop() {
						for i := 0; i < m; i += 4 {
							sink += dot4Sum(p.Dot4(x, a[i*n:(i+1)*n], a[(i+1)*n:(i+2)*n], a[(i+2)*n:(i+3)*n], a[(i+3)*n:(i+4)*n]))
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/m, "ns/row")
				})
			}
		}
	}
}

// BenchmarkDot4 compares Dot4 with the four Dot calls it replaces, on every
// path, at the lengths of the Gram and Cholesky column products it is for
// and at longer ones.
// ns/dot is the time per dot product.
func BenchmarkDot4(b *testing.B) {
	for _, p := range Paths() {
		for _, n := range []int{4, 16, 100, 256, 1000, 10000, 1000000} {
			var s [5][]float64
			for j := range s {
				s[j] = make([]float64, n)
				for i := range s[j] {
					s[j][i] = float64((i+3*j)%13)*0.1 - 0.6
				}
			}
			x, y0, y1, y2, y3 := s[0], s[1], s[2], s[3], s[4]
			b.Run(fmt.Sprintf("%s/Dot4/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += dot4Sum(p.Dot4(x, y0, y1, y2, y3))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4, "ns/dot")
			})
			b.Run(fmt.Sprintf("%s/4xDot/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += p.Dot(x, y0) + p.Dot(x, y1) + p.Dot(x, y2) + p.Dot(x, y3)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4, "ns/dot")
			})
		}
	}
}
