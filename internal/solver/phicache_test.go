package solver

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// TestPhiCacheSameBits: objective and smoothGrad through the cache return
// the bits of a solver without it (its slots never allocated), on a
// sequence of points that repeats points, changes a cached point in place,
// passes the same values in another slice, flips the sign of a zero
// (-0 is another point), and changes q (SetQ) between two calls at one
// point, with l1 and P in the model.
func TestPhiCacheSameBits(t *testing.T) {
	n, l := 6, 40
	g := testqp.LCG(4)
	phi := randDense(&g, l, n)
	y := make([]float64, l)
	for i := range y {
		y[i] = 1
		if g.Normal() < 0 {
			y[i] = -1
		}
	}
	p := &Problem{N: n, Loss: LossLogistic, Phi: phi, Y: y, Ridge: 0.01, L1: 1e-3,
		P: randDense(&g, n, n), Q: make([]float64, n)}
	// P'P is positive semidefinite.
	pp := randDense(&g, n, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += pp.Data[k*n+i] * pp.Data[k*n+j]
			}
			p.P.Data[i*n+j] = s
		}
	}
	cached, err := New(p, &Options{Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(p, &Options{Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	if cached.state.phiX.slots[0].z == nil {
		t.Fatal("the logistic model's solver has no cache")
	}
	plain.state.phiX = phiCache{} // no slots: every call computes
	a, b, c := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range a {
		a[i], b[i] = g.Normal(), g.Normal()
	}
	c[0] = 0
	ga, gb := make([]float64, n), make([]float64, n)
	step := 0
	check := func(x []float64) {
		t.Helper()
		step++
		if fa, fb := cached.objective(x), plain.objective(x); math.Float64bits(fa) != math.Float64bits(fb) {
			t.Fatalf("call %d: objective %v, want %v", step, fa, fb)
		}
		cached.smoothGrad(ga, x)
		plain.smoothGrad(gb, x)
		for i := range ga {
			if math.Float64bits(ga[i]) != math.Float64bits(gb[i]) {
				t.Fatalf("call %d: gradient[%d] %v, want %v", step, i, ga[i], gb[i])
			}
		}
	}
	check(a)
	check(b)
	check(a) // both cached
	check(c)
	check(b) // a was evicted, b kept
	a[2] += 1e-9
	check(a) // changed in place
	d := append([]float64(nil), b...)
	check(d) // b's values in another slice
	c[0] = math.Copysign(0, -1)
	check(c)
	check(c)
	q := make([]float64, n)
	for i := range q {
		q[i] = g.Normal()
	}
	for _, s := range []*Solver{cached, plain} {
		if err := s.SetQ(q); err != nil {
			t.Fatal(err)
		}
	}
	check(c) // cached phi x, gradient with the new q
	check(b)
}

// TestPhiCacheLeastRecentlyUsed: with two slots, a third point replaces
// the one used least recently, and a hit counts as a use.
func TestPhiCacheLeastRecentlyUsed(t *testing.T) {
	var c phiCache
	c.alloc(2, 3)
	x, y, z := []float64{1, 2}, []float64{3, 4}, []float64{5, 6}
	c.fill(x)
	c.fill(y)
	if c.find(x) == nil || c.find(y) == nil {
		t.Fatal("x or y not found after filling both")
	}
	c.find(x) // x used last: y is the older
	c.fill(z)
	if c.find(y) != nil {
		t.Error("y kept, want it replaced (used least recently)")
	}
	if c.find(x) == nil || c.find(z) == nil {
		t.Error("x or z lost")
	}
	if !sameBits([]float64{math.NaN()}, []float64{math.NaN()}) || sameBits([]float64{0}, []float64{math.Copysign(0, -1)}) {
		t.Error("sameBits: want NaN equal to the same NaN and 0 unequal to -0")
	}
}
