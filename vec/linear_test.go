package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tests of the linear kernels (Dot, Dot4, Axpy, Scale, AxpbyTo, Step) that
// complement vec_test.go: every offset for the fused kernels, Axpy with
// x == y, special values at every position of the unrolled loops and their
// tails, signed zeros, and allocations kernel by kernel. Helpers (vtGuarded,
// vtVal, vtLengths) are in vec_test.go.

// TestFusedEveryOffset: AxpbyTo and Step are exact on integer data at every
// length and every pair of offsets 0..7 of output and inputs, never touch
// the guards around any slice, and leave their read-only inputs unchanged.
func TestFusedEveryOffset(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			for off := 0; off < 8; off++ {
				u, chkU := vtGuarded(n, off, func(i int) float64 { return vtVal(3, i) })
				v, chkV := vtGuarded(n, (off+3)%8, func(i int) float64 { return vtVal(4, i) })
				x, chkX := vtGuarded(n, (off+6)%8, func(i int) float64 { return vtVal(5, i) })
				d, chkD := vtGuarded(n, 7-off, func(int) float64 { return 0 })
				p.AxpbyTo(d, -1, u, 5, v)
				p.Step(-0.25, 3, u, -2, v, x)
				for i := 0; i < n; i++ {
					if w := -vtVal(3, i) + 5*vtVal(4, i); d[i] != w {
						t.Fatalf("%s AxpbyTo n=%d off=%d [%d]: %v, want %v", p.Name, n, off, i, d[i], w)
					}
					if w := -0.25 * (vtVal(5, i) + 3*vtVal(3, i) - 2*vtVal(4, i)); x[i] != w {
						t.Fatalf("%s Step n=%d off=%d [%d]: %v, want %v", p.Name, n, off, i, x[i], w)
					}
					if u[i] != vtVal(3, i) || v[i] != vtVal(4, i) {
						t.Fatalf("%s n=%d off=%d: read-only input changed at %d", p.Name, n, off, i)
					}
				}
				chkU(t, p.Name+" AxpbyTo/Step u")
				chkV(t, p.Name+" AxpbyTo/Step v")
				chkX(t, p.Name+" Step x")
				chkD(t, p.Name+" AxpbyTo dst")
			}
		}
	}
}

// TestAxpySameSlice: Axpy(alpha, y, y) is allowed and gives y*(1+alpha)
// exactly on integer data, at every length and offset, guards intact.
func TestAxpySameSlice(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			for off := 0; off < 8; off++ {
				y, chk := vtGuarded(n, off, func(i int) float64 { return vtVal(6, i) })
				p.Axpy(3, y, y)
				for i := range y {
					if w := 4 * vtVal(6, i); y[i] != w {
						t.Fatalf("%s Axpy(x==y) n=%d off=%d [%d]: %v, want %v", p.Name, n, off, i, y[i], w)
					}
				}
				chk(t, p.Name+" Axpy(x==y)")
			}
		}
	}
}

// TestStepSameUV: Step with u == v (allowed) is exact on integer data.
func TestStepSameUV(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range []int{0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 100} {
			u := make([]float64, n)
			x := make([]float64, n)
			for i := range u {
				u[i], x[i] = vtVal(7, i), vtVal(8, i)
			}
			p.Step(2, 1, u, 3, u, x)
			for i := range x {
				if w := 2 * (vtVal(8, i) + 4*vtVal(7, i)); x[i] != w {
					t.Fatalf("%s Step(u==v) n=%d [%d]: %v, want %v", p.Name, n, i, x[i], w)
				}
			}
		}
	}
}

// TestSpecialValuesEveryPosition puts NaN or Inf at every index of vectors
// whose lengths exercise the 16-, 8- and 4-element loops and the scalar tail
// (avx2), the 64- and 32-element loops, the 32-, 16- and 8-element steps and
// the masked tail (avx512),
// and checks that IEEE rules hold on every path: NaN propagates, Inf times a
// positive number is Inf, Inf - Inf is NaN, and no other element is disturbed.
func TestSpecialValuesEveryPosition(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, p := range Paths() {
		for _, n := range []int{1, 3, 4, 5, 8, 11, 16, 19, 31, 32, 35, 63, 64, 71, 127} {
			for k := 0; k < n; k++ {
				ones := func() []float64 {
					s := make([]float64, n)
					for i := range s {
						s[i] = 1
					}
					return s
				}
				x, y := ones(), ones()
				x[k] = nan
				if got := p.Dot(x, y); !math.IsNaN(got) {
					t.Fatalf("%s Dot n=%d NaN at %d: %v", p.Name, n, k, got)
				}
				x[k] = inf
				if got := p.Dot(x, y); !math.IsInf(got, 1) {
					t.Fatalf("%s Dot n=%d +Inf at %d: %v", p.Name, n, k, got)
				}
				// +Inf and -Inf in different lanes/accumulators: NaN.
				x[(k+5)%n] = math.Inf(-1)
				if got := p.Dot(x, y); n > 1 && (k+5)%n != k && !math.IsNaN(got) {
					t.Fatalf("%s Dot n=%d +Inf at %d, -Inf at %d: %v, want NaN", p.Name, n, k, (k+5)%n, got)
				}

				x, y = ones(), ones()
				x[k] = nan
				p.Axpy(2, x, y)
				p.Scale(-1, x)
				d := make([]float64, n)
				p.AxpbyTo(d, 1, x, 1, y)
				z := ones()
				z[k] = inf
				p.Step(2, 1, y, 1, y, z)
				for i := 0; i < n; i++ {
					if i == k {
						if !math.IsNaN(y[i]) || !math.IsNaN(x[i]) || !math.IsNaN(d[i]) || !math.IsNaN(z[i]) {
							t.Fatalf("%s n=%d NaN at %d: Axpy %v Scale %v AxpbyTo %v Step %v", p.Name, n, k, y[i], x[i], d[i], z[i])
						}
						continue
					}
					if y[i] != 3 || x[i] != -1 || d[i] != 2 || z[i] != 14 {
						t.Fatalf("%s n=%d NaN at %d disturbed [%d]: Axpy %v Scale %v AxpbyTo %v Step %v", p.Name, n, k, i, y[i], x[i], d[i], z[i])
					}
				}

				w := ones()
				w[k] = inf
				p.Scale(0.5, w)
				if !math.IsInf(w[k], 1) {
					t.Fatalf("%s Scale(0.5) n=%d +Inf at %d: %v", p.Name, n, k, w[k])
				}
				p.Scale(0, w)
				if !math.IsNaN(w[k]) {
					t.Fatalf("%s Scale(0) n=%d Inf*0 at %d: %v, want NaN", p.Name, n, k, w[k])
				}
			}
		}
	}
}

// TestSignedZeros: Scale by -1 flips the sign of zeros at every position,
// AxpbyTo of -0 terms gives -0 ((-0) + (-0) = -0), and Dot of no elements
// is +0.
func TestSignedZeros(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, p := range Paths() {
		if got := p.Dot(nil, nil); got != 0 || math.Signbit(got) {
			t.Errorf("%s Dot of empty: %v, want +0", p.Name, got)
		}
		for _, n := range []int{1, 3, 4, 7, 8, 9, 16, 17, 35} {
			x := make([]float64, n)
			p.Scale(-1, x)
			d := make([]float64, n)
			p.AxpbyTo(d, 1, x, 1, x)
			for i := range x {
				if !math.Signbit(x[i]) || x[i] != 0 {
					t.Fatalf("%s Scale(-1, +0) n=%d [%d]: %v, want -0", p.Name, n, i, x[i])
				}
				if !math.Signbit(d[i]) || d[i] != 0 {
					t.Fatalf("%s AxpbyTo(-0 + -0) n=%d [%d]: %v, want -0", p.Name, n, i, d[i])
				}
			}
			for i := range x {
				x[i] = negZero
			}
			y := make([]float64, n)
			p.Axpy(-1, y, x) // -0 + (-1)(+0) = -0 + -0 = -0
			for i := range x {
				if !math.Signbit(x[i]) || x[i] != 0 {
					t.Fatalf("%s Axpy(-1, +0, -0) n=%d [%d]: %v, want -0", p.Name, n, i, x[i])
				}
			}
		}
	}
}

// TestLinearKernelsDoNotAllocate checks each exported linear kernel on its
// own, at a length that runs every loop of the assembly (16-, 4-element and
// scalar tail).
func TestLinearKernelsDoNotAllocate(t *testing.T) {
	const n = 16*3 + 4 + 3
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	for name, f := range map[string]func(){
		"Dot":  func() { sink += Dot(x, y) },
		"Dot4": func() { sink += dot4Sum(Dot4(x, y, z, x, y)) },
		"SumSqDot": func() {
			ss, d := SumSqDot(x, y)
			sink += ss + d
		},
		"MaxAbs":  func() { sink += MaxAbs(x) },
		"Axpy":    func() { Axpy(1e-3, x, y) },
		"Scale":   func() { Scale(1, x) },
		"AxpbyTo": func() { AxpbyTo(z, 1, x, 2, y) },
		"Step":    func() { Step(1, 2, x, 3, y, z) },
	} {
		if allocs := testing.AllocsPerRun(100, f); allocs != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, allocs)
		}
	}
}

// --- Dot4 ---

// TestDot4EveryLengthAndOffset: on integer data (every product and partial
// sum exact) Dot4 is exact on every path, at every length of vtLengths and
// every offset 0..7, each of the five slices at a different offset so the
// loads of x and of every y are misaligned differently. The guards around
// every slice survive, the inputs are unchanged, and a second call returns
// the same bits.
func TestDot4EveryLengthAndOffset(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			var want [4]int64
			for i := 0; i < n; i++ {
				for k := range want {
					want[k] += int64(vtVal(1, i)) * int64(vtVal(2+k, i))
				}
			}
			for off := 0; off < 8; off++ {
				var s [5][]float64
				var chk [5]func(*testing.T, string)
				for j := range s {
					seed := 1 + j
					s[j], chk[j] = vtGuarded(n, (off+3*j)%8, func(i int) float64 { return vtVal(seed, i) })
				}
				d0, d1, d2, d3 := p.Dot4(s[0], s[1], s[2], s[3], s[4])
				got := [4]float64{d0, d1, d2, d3}
				for k := range got {
					if got[k] != float64(want[k]) {
						t.Fatalf("%s Dot4 n=%d off=%d: d%d = %v, want %v", p.Name, n, off, k, got[k], want[k])
					}
				}
				e0, e1, e2, e3 := p.Dot4(s[0], s[1], s[2], s[3], s[4])
				for k, e := range [4]float64{e0, e1, e2, e3} {
					if math.Float64bits(e) != math.Float64bits(got[k]) {
						t.Fatalf("%s Dot4 n=%d off=%d: d%d is %v, then %v", p.Name, n, off, k, got[k], e)
					}
				}
				for j := range s {
					for i, v := range s[j] {
						if v != vtVal(1+j, i) {
							t.Fatalf("%s Dot4 n=%d off=%d: input %d changed at %d", p.Name, n, off, j, i)
						}
					}
					chk[j](t, p.Name+" Dot4")
				}
			}
		}
	}
}

// TestDot4WithinBound: on inexact data each result of every path is within
// DotErrorBound(n) * sum_i |x[i] yk[i]| of the exact (big.Float) dot
// product, so every path agrees with the generic one within twice that, and
// the same bits come back on a second call.
func TestDot4WithinBound(t *testing.T) {
	lengths := []int{1000, 4099}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	paths := Paths()
	for _, n := range lengths {
		var s [5][]float64
		for j := range s {
			s[j] = make([]float64, n)
			for i := range s[j] {
				s[j][i] = vtWide(11*j+1, i)
			}
		}
		var exact, bound [4]float64
		for k := range exact {
			var abs float64
			exact[k], abs = vtExactDot(s[0], s[1+k])
			// abs is itself rounded: 1.01 covers its relative error, at
			// most about n u.
			bound[k] = DotErrorBound(n) * abs * 1.01
		}
		var generic [4]float64
		for _, p := range paths {
			d0, d1, d2, d3 := p.Dot4(s[0], s[1], s[2], s[3], s[4])
			got := [4]float64{d0, d1, d2, d3}
			if p.Name == "generic" {
				generic = got
			}
			e0, e1, e2, e3 := p.Dot4(s[0], s[1], s[2], s[3], s[4])
			for k := range got {
				if err := math.Abs(got[k] - exact[k]); !(err <= bound[k]) {
					t.Errorf("%s Dot4 n=%d: |d%d - exact| = %.3e > %.3e", p.Name, n, k, err, bound[k])
				}
				if d := math.Abs(got[k] - generic[k]); !(d <= 2*bound[k]) {
					t.Errorf("%s Dot4 n=%d: d%d differs from generic by %.3e > %.3e", p.Name, n, k, d, 2*bound[k])
				}
				if e := [4]float64{e0, e1, e2, e3}[k]; math.Float64bits(e) != math.Float64bits(got[k]) {
					t.Errorf("%s Dot4 n=%d: d%d is %v, then %v", p.Name, n, k, got[k], e)
				}
			}
		}
	}
}

// TestDot4Aliasing: any y may be x or another y (Dot4 only reads), at
// every offset; results are exact on integer data.
func TestDot4Aliasing(t *testing.T) {
	for _, p := range Paths() {
		for n := 0; n <= 70; n++ {
			for off := 0; off < 8; off++ {
				x, chkX := vtGuarded(n, off, func(i int) float64 { return vtVal(1, i) })
				y, chkY := vtGuarded(n, 7-off, func(i int) float64 { return vtVal(2, i) })
				var xx, xy, yy float64
				for i := 0; i < n; i++ {
					xx += vtVal(1, i) * vtVal(1, i)
					xy += vtVal(1, i) * vtVal(2, i)
					yy += vtVal(2, i) * vtVal(2, i)
				}
				for _, tc := range []struct {
					name       string
					a, b, c, d []float64
					want       [4]float64
				}{
					{"(x, x, x, y, y)", x, x, y, y, [4]float64{xx, xx, xy, xy}},
					{"(x, y, x, y, x)", y, x, y, x, [4]float64{xy, xx, xy, xx}},
					{"(x, x, x, x, x)", x, x, x, x, [4]float64{xx, xx, xx, xx}},
				} {
					d0, d1, d2, d3 := p.Dot4(x, tc.a, tc.b, tc.c, tc.d)
					if got := [4]float64{d0, d1, d2, d3}; got != tc.want {
						t.Fatalf("%s Dot4%s n=%d off=%d: %v, want %v", p.Name, tc.name, n, off, got, tc.want)
					}
				}
				d0, d1, d2, d3 := p.Dot4(y, y, y, y, y)
				if got := [4]float64{d0, d1, d2, d3}; got != [4]float64{yy, yy, yy, yy} {
					t.Fatalf("%s Dot4(y, y, y, y, y) n=%d off=%d: %v, want %v", p.Name, n, off, got, yy)
				}
				chkX(t, p.Name+" Dot4 aliased x")
				chkY(t, p.Name+" Dot4 aliased y")
			}
		}
	}
}

// TestDot4SpecialValuesEveryPosition puts NaN, Inf, or Inf against a zero
// at every index of lengths that exercise the main loop, the 8- and
// 4-element steps and the scalar or masked tail, in x and in each y in
// turn. A NaN in x makes every
// result NaN, a NaN in yk makes dk NaN and leaves the others exact; Inf
// times a positive number is Inf, Inf times 0 and Inf - Inf are NaN.
func TestDot4SpecialValuesEveryPosition(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	ones := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	for _, p := range Paths() {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 19, 23, 24, 31, 32, 35, 47} {
			for pos := 0; pos < n; pos++ {
				for j := 0; j < 5; j++ { // the slice holding the special value
					for _, c := range []struct {
						name     string
						v, other float64 // s[j][pos] = v; the other slices' [pos] = other
						want     float64 // the affected results
					}{
						{"NaN", nan, 1, nan},
						{"+Inf", inf, 1, inf},
						{"-Inf", -inf, 1, -inf},
						{"Inf*0", inf, 0, nan},
					} {
						var s [5][]float64
						for i := range s {
							s[i] = ones(n)
							s[i][pos] = c.other
						}
						s[j][pos] = c.v
						d0, d1, d2, d3 := p.Dot4(s[0], s[1], s[2], s[3], s[4])
						for k, got := range [4]float64{d0, d1, d2, d3} {
							want := float64(n)
							if c.other == 0 {
								want = float64(n - 1)
							}
							if j == 0 || j == k+1 {
								want = c.want
							}
							if math.IsNaN(want) != math.IsNaN(got) || (!math.IsNaN(want) && got != want) {
								t.Fatalf("%s Dot4 n=%d %s in slice %d at %d: d%d = %v, want %v", p.Name, n, c.name, j, pos, k, got, want)
							}
						}
					}
				}
				if n == 1 {
					continue
				}
				// +Inf and -Inf at different positions, so in different lanes
				// or accumulators (or one in the tail): NaN.
				x, y := ones(n), ones(n)
				x[pos], y[(pos+5)%n] = inf, -inf
				if (pos+5)%n == pos {
					continue
				}
				d0, d1, d2, d3 := p.Dot4(x, y, ones(n), y, ones(n))
				if !math.IsNaN(d0) || !math.IsInf(d1, 1) || !math.IsNaN(d2) || !math.IsInf(d3, 1) {
					t.Fatalf("%s Dot4 n=%d +Inf in x at %d, -Inf in y0, y2 at %d: %v %v %v %v, want NaN +Inf NaN +Inf",
						p.Name, n, pos, (pos+5)%n, d0, d1, d2, d3)
				}
			}
		}
	}
}

func dot4Sum(d0, d1, d2, d3 float64) float64 { return d0 + d1 + d2 + d3 }

// TestDot4Empty: no elements give four +0.
func TestDot4Empty(t *testing.T) {
	for _, p := range Paths() {
		d0, d1, d2, d3 := p.Dot4(nil, nil, nil, nil, nil)
		for k, d := range [4]float64{d0, d1, d2, d3} {
			if d != 0 || math.Signbit(d) {
				t.Errorf("%s Dot4 of empty: d%d = %v, want +0", p.Name, k, d)
			}
		}
	}
	if d0, d1, d2, d3 := Dot4([]float64{}, nil, nil, nil, []float64{}); d0 != 0 || d1 != 0 || d2 != 0 || d3 != 0 {
		t.Errorf("Dot4 of empty: %v %v %v %v", d0, d1, d2, d3)
	}
}

// TestDot4LengthMismatchPanics: a y of another length than x, in any of the
// four places, shorter or longer, panics with a message naming Dot4.
func TestDot4LengthMismatchPanics(t *testing.T) {
	for k := 0; k < 4; k++ {
		for _, m := range []int{0, 4, 6} {
			y := [4][]float64{make([]float64, 5), make([]float64, 5), make([]float64, 5), make([]float64, 5)}
			y[k] = make([]float64, m)
			func() {
				defer func() {
					r := recover()
					if r == nil || !strings.Contains(fmt.Sprint(r), "Dot4") {
						t.Errorf("len(y%d) = %d, len(x) = 5: panic %v, want a message naming Dot4", k, m, r)
					}
				}()
				Dot4(make([]float64, 5), y[0], y[1], y[2], y[3])
			}()
		}
	}
}

// --- SumSqDot ---

// TestSumSqDotEveryLengthAndOffset: on integer data SumSqDot is exact on
// every path, at every length of vtLengths and every offset 0..7 of x and
// of y (misaligned differently), and with y the same slice as x; the
// guards survive, the inputs are unchanged, a second call returns the same
// bits, and ss does not depend on y.
func TestSumSqDotEveryLengthAndOffset(t *testing.T) {
	for _, p := range Paths() {
		for _, n := range vtLengths() {
			var wantSS, wantDot int64
			for i := 0; i < n; i++ {
				wantSS += int64(vtVal(1, i)) * int64(vtVal(1, i))
				wantDot += int64(vtVal(1, i)) * int64(vtVal(2, i))
			}
			for off := 0; off < 8; off++ {
				x, chkX := vtGuarded(n, off, func(i int) float64 { return vtVal(1, i) })
				y, chkY := vtGuarded(n, (off+3)%8, func(i int) float64 { return vtVal(2, i) })
				ss, d := p.SumSqDot(x, y)
				if ss != float64(wantSS) || d != float64(wantDot) {
					t.Fatalf("%s SumSqDot n=%d off=%d: (%v, %v), want (%v, %v)", p.Name, n, off, ss, d, wantSS, wantDot)
				}
				ss2, d2 := p.SumSqDot(x, y)
				if math.Float64bits(ss2) != math.Float64bits(ss) || math.Float64bits(d2) != math.Float64bits(d) {
					t.Fatalf("%s SumSqDot n=%d off=%d: (%v, %v), then (%v, %v)", p.Name, n, off, ss, d, ss2, d2)
				}
				if ssx, dx := p.SumSqDot(x, x); ssx != float64(wantSS) || dx != float64(wantSS) {
					t.Fatalf("%s SumSqDot(x, x) n=%d off=%d: (%v, %v), want %v twice", p.Name, n, off, ssx, dx, wantSS)
				}
				for i := 0; i < n; i++ {
					if x[i] != vtVal(1, i) || y[i] != vtVal(2, i) {
						t.Fatalf("%s SumSqDot n=%d off=%d: input changed at %d", p.Name, n, off, i)
					}
				}
				chkX(t, p.Name+" SumSqDot x")
				chkY(t, p.Name+" SumSqDot y")
			}
		}
	}
}

// TestSumSqDotWithinBound: on inexact data both results of every path are
// within DotErrorBound(n) times the sum of the products' magnitudes of the
// exact (big.Float) values; ss is the same bits whatever y is.
func TestSumSqDotWithinBound(t *testing.T) {
	lengths := []int{1000, 4099}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i], z[i] = vtWide(1, i), vtWide(12, i), vtWide(23, i)
		}
		exact := func(u, v []float64) (float64, float64) {
			e, abs := vtExactDot(u, v)
			return e, DotErrorBound(n) * abs * 1.01 // 1.01: abs's own rounding
		}
		exSS, bSS := exact(x, x)
		exDot, bDot := exact(x, y)
		for _, p := range Paths() {
			ss, d := p.SumSqDot(x, y)
			if err := math.Abs(ss - exSS); !(err <= bSS) {
				t.Errorf("%s SumSqDot n=%d: |ss - exact| = %.3e > %.3e", p.Name, n, err, bSS)
			}
			if err := math.Abs(d - exDot); !(err <= bDot) {
				t.Errorf("%s SumSqDot n=%d: |dot - exact| = %.3e > %.3e", p.Name, n, err, bDot)
			}
			if ssz, _ := p.SumSqDot(x, z); math.Float64bits(ssz) != math.Float64bits(ss) {
				t.Errorf("%s SumSqDot n=%d: ss %v with one y, %v with another", p.Name, n, ss, ssz)
			}
		}
	}
}

// TestSumSqDotSpecialValues puts NaN or Inf at every index of vectors whose
// lengths exercise the 32-, 16-, 8-, 4- and 2-element blocks and the
// scalar or masked tail: NaN in x makes both results NaN, NaN in y only the dot; Inf in x
// makes ss +Inf (and the dot +Inf against positive y); -Inf in y makes the
// dot -Inf and leaves ss finite.
func TestSumSqDotSpecialValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, p := range Paths() {
		for _, n := range []int{1, 2, 3, 4, 5, 8, 11, 16, 19, 31, 32, 35, 63, 71} {
			for k := 0; k < n; k++ {
				x, y := make([]float64, n), make([]float64, n)
				reset := func() {
					for i := range x {
						x[i], y[i] = 1, 1
					}
				}
				reset()
				x[k] = nan
				if ss, d := p.SumSqDot(x, y); !math.IsNaN(ss) || !math.IsNaN(d) {
					t.Fatalf("%s n=%d NaN in x at %d: (%v, %v)", p.Name, n, k, ss, d)
				}
				reset()
				y[k] = nan
				if ss, d := p.SumSqDot(x, y); ss != float64(n) || !math.IsNaN(d) {
					t.Fatalf("%s n=%d NaN in y at %d: (%v, %v)", p.Name, n, k, ss, d)
				}
				reset()
				x[k] = inf
				if ss, d := p.SumSqDot(x, y); !math.IsInf(ss, 1) || !math.IsInf(d, 1) {
					t.Fatalf("%s n=%d +Inf in x at %d: (%v, %v)", p.Name, n, k, ss, d)
				}
				reset()
				y[k] = math.Inf(-1)
				if ss, d := p.SumSqDot(x, y); ss != float64(n) || !math.IsInf(d, -1) {
					t.Fatalf("%s n=%d -Inf in y at %d: (%v, %v)", p.Name, n, k, ss, d)
				}
			}
		}
	}
}

func TestSumSqDotPanicsOnLengths(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "SumSqDot") {
			t.Fatalf("recovered %v, want a panic naming SumSqDot", r)
		}
	}()
	SumSqDot(make([]float64, 3), make([]float64, 4))
}

// TestAVX512ReduceThreshold: Dot, Dot4 and SumSqDot run the avx2 kernels
// below avx512ReduceMin elements and the avx512 kernels from it on, bit for
// bit, on a CPU with the avx512 path.
func TestAVX512ReduceThreshold(t *testing.T) {
	var avx2, avx512 Path
	for _, p := range Paths() {
		switch p.Name {
		case "avx2":
			avx2 = p
		case "avx512":
			avx512 = p
		}
	}
	if avx512.Dot == nil || !useAVX512 {
		t.Skip("no avx512 path on this CPU")
	}
	for _, n := range []int{1, 7, avx512ReduceMin - 1, avx512ReduceMin, avx512ReduceMin + 1, 200} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = vtWide(1, i), vtWide(2, i)
		}
		want := avx512
		if n < avx512ReduceMin {
			want = avx2
		}
		if g, w := Dot(x, y), want.Dot(x, y); math.Float64bits(g) != math.Float64bits(w) {
			t.Errorf("n=%d: Dot = %v, %s path %v", n, g, want.Name, w)
		}
		gs, gd := SumSqDot(x, y)
		ws, wd := want.SumSqDot(x, y)
		if math.Float64bits(gs) != math.Float64bits(ws) || math.Float64bits(gd) != math.Float64bits(wd) {
			t.Errorf("n=%d: SumSqDot = (%v, %v), %s path (%v, %v)", n, gs, gd, want.Name, ws, wd)
		}
		g0, g1, g2, g3 := Dot4(x, y, x, y, y)
		w0, w1, w2, w3 := want.Dot4(x, y, x, y, y)
		for k, pair := range [][2]float64{{g0, w0}, {g1, w1}, {g2, w2}, {g3, w3}} {
			if math.Float64bits(pair[0]) != math.Float64bits(pair[1]) {
				t.Errorf("n=%d: Dot4[%d] = %v, %s path %v", n, k, pair[0], want.Name, pair[1])
			}
		}
	}
}

// --- MaxAbs ---

// maxAbsLoop is the Go loop MaxAbs is defined by (its doc comment), written
// out here so that every path, the generic one included, is held to it.
func maxAbsLoop(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		if a := math.Abs(v); a > m {
			m = a
		}
	}
	return m
}

// maxAbsLengths are 0..140, which take every combination of the kernels'
// blocks (the 16- and 32-element loops, the 16-, 8-, 4- and 2-element steps
// and the single elements), and a few longer.
func maxAbsLengths() []int {
	var ls []int
	for n := 0; n <= 140; n++ {
		ls = append(ls, n)
	}
	return append(ls, 255, 256, 257, 1000, 1031)
}

// maxAbsGuarded returns a slice of length n at element offset 8+off of a
// backing array whose other entries, 8+off before and 8 after, are -Inf:
// MaxAbs ignores NaNs, so the NaN guards of vtGuarded would not show a read
// outside x, but one -Inf read makes the result +Inf. The function returned
// fails if x or a guard changed.
func maxAbsGuarded(vals []float64, off int) ([]float64, func(t *testing.T, what string)) {
	n := len(vals)
	back := make([]float64, 8+off+n+8)
	for i := range back {
		back[i] = math.Inf(-1)
	}
	lo := 8 + off
	x := back[lo : lo+n : lo+n]
	copy(x, vals)
	return x, func(t *testing.T, what string) {
		t.Helper()
		for i, v := range back {
			w := math.Inf(-1)
			if i >= lo && i < lo+n {
				w = vals[i-lo]
			}
			if math.Float64bits(v) != math.Float64bits(w) {
				t.Fatalf("%s: element %d of the backing array (x at [%d, %d)) is %v, was %v", what, i, lo, lo+n, v, w)
			}
		}
	}
}

// TestMaxAbsEveryLengthAndOffset: on random data of mixed signs and
// magnitudes, with the largest magnitude at every index in turn (of either
// sign, and sometimes tied with its negation elsewhere), MaxAbs on every
// path returns the bits of the Go loop at every offset 0..7, reads nothing
// outside x (maxAbsGuarded) and changes nothing.
func TestMaxAbsEveryLengthAndOffset(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range Paths() {
		for _, n := range maxAbsLengths() {
			base := make([]float64, n)
			for i := range base {
				base[i] = (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(40)-20)
			}
			for k := 0; k < max(n, 1); k++ {
				want := make([]float64, n)
				copy(want, base)
				if n > 0 {
					want[k] = math.Copysign(math.Ldexp(1+rng.Float64(), 25), rng.Float64()-0.5)
					if k%3 == 0 {
						want[(k*7+1)%n] = -want[k] // a tie of opposite sign
					}
				}
				for off := 0; off < 8; off++ {
					x, chk := maxAbsGuarded(want, off)
					got := p.MaxAbs(x)
					if w := maxAbsLoop(want); math.Float64bits(got) != math.Float64bits(w) {
						t.Fatalf("%s MaxAbs n=%d off=%d max at %d: %v, want %v", p.Name, n, off, k, got, w)
					}
					chk(t, p.Name+" MaxAbs")
				}
			}
		}
	}
}

// maxAbsSpecials are the values MaxAbs must handle as the Go loop does:
// NaNs of both signs, quiet and signalling, with several payloads (all to
// be ignored), infinities, signed zeros, subnormals and the extremes of the
// normal range.
var maxAbsSpecials = []uint64{
	0x7ff8000000000000, // quiet NaN (math.NaN)
	0xfff8000000000000, // negative quiet NaN
	0x7ff8dead0000beef, // quiet NaN with a payload
	0x7fffffffffffffff, // quiet NaN, every payload bit
	0xffffffffffffffff, // negative quiet NaN, every payload bit
	0x7ff0000000000001, // signalling NaN, smallest payload
	0x7ff4000000000000, // signalling NaN
	0x7ff7ffffffffffff, // signalling NaN, largest payload
	0xfff0000000000001, // negative signalling NaN
	0xfff5555555555555, // negative signalling NaN with a payload
	0x7ff0000000000000, // +Inf
	0xfff0000000000000, // -Inf
	0x0000000000000000, // +0
	0x8000000000000000, // -0
	0x0000000000000001, // smallest subnormal
	0x8000000000000001, // its negation
	0x000fffffffffffff, // largest subnormal
	0x800fffffffffffff, // its negation
	0x0010000000000000, // smallest normal
	0x7fefffffffffffff, // MaxFloat64
	0xffefffffffffffff, // -MaxFloat64
	0x3ff0000000000000, // 1
	0xbff0000000000000, // -1
}

// TestMaxAbsSpecialValues puts each special value at every index of
// vectors of every length the kernels treat differently, over several
// backgrounds: random numbers, zeros of both signs, subnormals, NaNs (all
// the same, or of every kind in turn), and every other element NaN. The
// result must have the bits of the Go loop on every path: NaNs ignored,
// +Inf for an infinity, +0 (not -0) for zeros and for all-NaN vectors.
func TestMaxAbsSpecialValues(t *testing.T) {
	lengths := maxAbsLengths()[1:]
	rng := rand.New(rand.NewPCG(3, 4))
	backgrounds := []struct {
		name string
		val  func(i int) float64
	}{
		{"random", func(int) float64 { return (rng.Float64() - 0.5) * 1e3 }},
		{"+0", func(int) float64 { return 0 }},
		{"-0", func(int) float64 { return math.Copysign(0, -1) }},
		{"subnormals", func(i int) float64 { return math.Float64frombits(uint64(i+1) | uint64(i&1)<<63) }},
		{"NaN", func(int) float64 { return math.NaN() }},
		{"NaNs of every kind", func(i int) float64 { return math.Float64frombits(maxAbsSpecials[i%10]) }},
		{"alternate NaN", func(i int) float64 {
			if i%2 == 0 {
				return math.Float64frombits(maxAbsSpecials[(i/2)%10])
			}
			return (rng.Float64() - 0.5) * 1e3
		}},
	}
	for _, p := range Paths() {
		for _, n := range lengths {
			for _, bg := range backgrounds {
				x := make([]float64, n)
				for i := range x {
					x[i] = bg.val(i)
				}
				if got, w := p.MaxAbs(x), maxAbsLoop(x); math.Float64bits(got) != math.Float64bits(w) {
					t.Fatalf("%s MaxAbs n=%d of %s: %v (%#x), want %v (%#x)", p.Name, n, bg.name, got, math.Float64bits(got), w, math.Float64bits(w))
				}
				for _, s := range maxAbsSpecials {
					for k := 0; k < n; k++ {
						old := x[k]
						x[k] = math.Float64frombits(s)
						got, w := p.MaxAbs(x), maxAbsLoop(x)
						if math.Float64bits(got) != math.Float64bits(w) {
							t.Fatalf("%s MaxAbs n=%d of %s, %#x at %d: %v (%#x), want %v (%#x)",
								p.Name, n, bg.name, s, k, got, math.Float64bits(got), w, math.Float64bits(w))
						}
						x[k] = old
					}
				}
			}
		}
	}
}

// TestMaxAbsKnownResults spells out what the loop gives for the cases the
// doc comment names, so that they do not rest on maxAbsLoop alone.
func TestMaxAbsKnownResults(t *testing.T) {
	nan, snan := math.NaN(), math.Float64frombits(0x7ff0000000000001)
	negZero := math.Copysign(0, -1)
	for _, p := range Paths() {
		for _, c := range []struct {
			x    []float64
			want float64
		}{
			{nil, 0},
			{[]float64{}, 0},
			{[]float64{negZero}, 0},
			{[]float64{negZero, negZero, negZero, negZero, negZero}, 0},
			{[]float64{nan}, 0},
			{[]float64{snan, nan, -nan, snan, nan, nan, nan, nan, nan}, 0},
			{[]float64{nan, -3, snan, 2}, 3},
			{[]float64{1, 2, math.Inf(-1), nan, 5}, math.Inf(1)},
			{[]float64{-0x1p-1074, nan, 0}, 0x1p-1074},
			{[]float64{-math.MaxFloat64, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, math.MaxFloat64},
		} {
			got := p.MaxAbs(c.x)
			if math.Float64bits(got) != math.Float64bits(c.want) {
				t.Errorf("%s MaxAbs(%v) = %v (%#x), want %v", p.Name, c.x, got, math.Float64bits(got), c.want)
			}
			if got := MaxAbs(c.x); math.Float64bits(got) != math.Float64bits(c.want) {
				t.Errorf("MaxAbs(%v) = %v (%#x), want %v", c.x, got, math.Float64bits(got), c.want)
			}
		}
	}
}

// TestMaxAbsDispatch: the exported MaxAbs, which picks the avx2 or avx512
// kernel by length on the avx512 path, gives the loop's bits at every
// length around maxAbsAVX512Min and at the lengths of the engine's vectors.
func TestMaxAbsDispatch(t *testing.T) {
	for n := 0; n <= 300; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = vtWide(5, i)
		}
		if n > 2 {
			x[n/2] = math.NaN()
		}
		if got, w := MaxAbs(x), maxAbsLoop(x); math.Float64bits(got) != math.Float64bits(w) {
			t.Fatalf("MaxAbs n=%d (%s): %v, want %v", n, Impl(), got, w)
		}
	}
}

// BenchmarkMaxAbs times MaxAbs on every path at the lengths of the
// active-set method's vectors and at a longer one.
func BenchmarkMaxAbs(b *testing.B) {
	for _, p := range Paths() {
		for _, n := range []int{4, 8, 16, 32, 64, 100, 128, 200, 1000} {
			x := make([]float64, n)
			for i := range x {
				x[i] = vtWide(1, i)
			}
			b.Run(fmt.Sprintf("%s/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += p.MaxAbs(x)
				}
			})
		}
	}
}

// BenchmarkMaxAbsAfterStore times MaxAbs of a vector written just before,
// as the active-set method takes the norm of a vector it has just updated:
// each iteration rewrites x (the same values) with Scale(1, x), the kernel
// of the path in use, or with a Go loop (8-byte stores), then calls
// MaxAbs on every path. The sub-benchmarks "write-only" time the write
// alone; the difference is the cost of MaxAbs in that setting, where a load
// that spans two recent stores is not forwarded from the store buffer and
// waits for them.
func BenchmarkMaxAbsAfterStore(b *testing.B) {
	writers := []struct {
		name  string
		write func(x []float64)
	}{
		{"Scale", func(x []float64) { Scale(1, x) }},
		{"loop", func(x []float64) {
			for i := range x {
				x[i] *= 1
			}
		}},
	}
	for _, w := range writers {
		for _, n := range []int{8, 10, 16, 20, 32, 50, 64, 100, 128, 200} {
			x := make([]float64, n)
			for i := range x {
				x[i] = vtWide(1, i)
			}
			b.Run(fmt.Sprintf("%s/write-only/n=%d", w.name, n), func(b *testing.B) {
				for b.Loop() {
					w.write(x)
					sink += x[0]
				}
			})
			for _, p := range Paths() {
				b.Run(fmt.Sprintf("%s/%s/n=%d", w.name, p.Name, n), func(b *testing.B) {
					for b.Loop() {
						w.write(x)
						sink += p.MaxAbs(x)
					}
				})
			}
		}
	}
}
