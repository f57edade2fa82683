package vec

import (
	"math"
	"testing"
)

// Tests of the linear kernels (Dot, Axpy, Scale, AxpbyTo, Step) that
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
// whose lengths exercise the 16-, 8- and 4-element loops and the scalar tail,
// and checks that IEEE rules hold on every path: NaN propagates, Inf times a
// positive number is Inf, Inf - Inf is NaN, and no other element is disturbed.
func TestSpecialValuesEveryPosition(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, p := range Paths() {
		for _, n := range []int{1, 3, 4, 5, 8, 11, 16, 19, 31, 32, 35} {
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
		"Dot":     func() { sink += Dot(x, y) },
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
