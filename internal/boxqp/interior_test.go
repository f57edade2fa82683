package boxqp

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestInteriorAgainstEnumeration: on small positive definite problems the
// interior point's objective is the enumeration's to 1e-9 relative, and
// Solve started from it converges to it exactly (1e-12).
func TestInteriorAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var w Workspace
	for trial := 0; trial < 300; trial++ {
		n := 1 + trial%8
		k, c := gramOf(rng, n, n+2)
		x := make([]float64, n)
		if trial%3 == 1 {
			for i := range x {
				x[i] = 10 * rng.Float64() // a start far from the answer
			}
		}
		res := w.SolveInterior(k, c, x, Options{})
		if res.Status != Converged {
			t.Fatalf("trial %d (n=%d): status %v after %d iterations, residual %.3g", trial, n, res.Status, res.Iterations, res.PGNorm)
		}
		want := bruteForce(k, c)
		for i, v := range x {
			if !(v > 0) {
				t.Fatalf("trial %d: x[%d] = %v, want > 0", trial, i, v)
			}
		}
		if got := objective(k, c, x); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("trial %d (n=%d): f = %.17g, enumeration %.17g", trial, n, got, want)
		}
		if res := w.Solve(k, c, x, Options{}); res.Status != Converged {
			t.Fatalf("trial %d: Solve from the interior point: %v", trial, res.Status)
		}
		if got := objective(k, c, x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Fatalf("trial %d (n=%d): after Solve f = %.17g, enumeration %.17g", trial, n, got, want)
		}
	}
}

// TestInteriorSingular: K of rank n/2 (the SVM dual's on dependent rows),
// bounded below: the interior point converges, and from it Solve meets
// the optimality conditions as TestSolveSingular asks.
func TestInteriorSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var w Workspace
	for trial := 0; trial < 40; trial++ {
		n := 20 + trial
		k, c := gramOf(rng, n, n/2)
		z := make([]float64, n)
		for i := range z {
			z[i] = rng.Float64()
		}
		k.MulVec(c, z)
		for i := range c {
			c[i] = -c[i] + rng.Float64()
		}
		x := make([]float64, n)
		res := w.SolveInterior(k, c, x, Options{})
		if res.Status != Converged {
			t.Fatalf("trial %d: status %v after %d iterations, residual %.3g", trial, res.Status, res.Iterations, res.PGNorm)
		}
		w.Solve(k, c, x, Options{})
		scale := 0.0
		for _, v := range k.Data {
			scale = math.Max(scale, math.Abs(v))
		}
		if r := kktResidual(k, c, x); r > 1e-9*scale*float64(n) {
			t.Fatalf("trial %d: KKT residual %.3g after Solve", trial, r)
		}
	}
}

// TestInteriorLarge: the order-400 problem of TestSolveLarge in tens of
// factorisations, and Solve from its point finishes in a few.
func TestInteriorLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 400
	k, c := gramOf(rng, n, n+10)
	x := make([]float64, n)
	var w Workspace
	res := w.SolveInterior(k, c, x, Options{Tol: 1e-8})
	if res.Status != Converged || res.Factorizations > 40 {
		t.Fatalf("status %v after %d factorisations", res.Status, res.Factorizations)
	}
	fin := w.Solve(k, c, x, Options{})
	if fin.Status != Converged || fin.Factorizations > 6 {
		t.Fatalf("Solve from the interior point: %v after %d factorisations", fin.Status, fin.Factorizations)
	}
	t.Logf("interior %d factorisations, then Solve %d", res.Factorizations, fin.Factorizations)
}

// TestInteriorFromContinues: a solve to 1e-3 and then, from its point
// (warm = n), to 1e-10 takes the steps of one solve to 1e-10: the same
// point, bit for bit, in the same number of iterations.
func TestInteriorFromContinues(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 120
	k, c := gramOf(rng, n, n/2)
	var w Workspace
	x1, z1 := make([]float64, n), make([]float64, n)
	one := w.SolveInteriorFrom(k, c, x1, z1, 0, Options{Tol: 1e-10})
	x2, z2 := make([]float64, n), make([]float64, n)
	loose := w.SolveInteriorFrom(k, c, x2, z2, 0, Options{Tol: 1e-3})
	tight := w.SolveInteriorFrom(k, c, x2, z2, n, Options{Tol: 1e-10})
	if one.Status != Converged || loose.Status != Converged || tight.Status != Converged {
		t.Fatalf("status %v; in two: %v, %v", one.Status, loose.Status, tight.Status)
	}
	if loose.Iterations == 0 || tight.Iterations == 0 || loose.Iterations+tight.Iterations != one.Iterations {
		t.Fatalf("iterations %d + %d, in one solve %d", loose.Iterations, tight.Iterations, one.Iterations)
	}
	for i := range x1 {
		if x1[i] != x2[i] || z1[i] != z2[i] {
			t.Fatalf("x[%d], z[%d] = %v, %v; in one solve %v, %v", i, i, x2[i], z2[i], x1[i], z1[i])
		}
	}
}

// TestInteriorFromNewVariables: the rows a restricted dual gains. From a
// solve to 0.1 of the leading block of order 190, the problem of order
// 200 converges, and Solve from its point reaches a cold solve's
// objective (1e-12 relative); the warm solve takes fewer iterations than
// the cold one.
func TestInteriorFromNewVariables(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	n, n0 := 200, 190
	k, c := gramOf(rng, n, n+20)
	var w Workspace
	cold := make([]float64, n)
	rc := w.SolveInterior(k, c, cold, Options{Tol: 1e-9})
	w.Solve(k, c, cold, Options{})
	want := objective(k, c, cold)

	k0 := &mat.Dense{Rows: n0, Cols: n0, Stride: k.Stride, Data: k.Data} // the leading block
	x, z := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], z[i] = math.NaN(), math.NaN() // new entries are not read
	}
	clear(x[:n0])
	r0 := w.SolveInteriorFrom(k0, c[:n0], x[:n0], z[:n0], 0, Options{Tol: 1e-1})
	r1 := w.SolveInteriorFrom(k, c, x, z, n0, Options{Tol: 1e-9})
	if r0.Status != Converged || r1.Status != Converged {
		t.Fatalf("status %v, then %v", r0.Status, r1.Status)
	}
	for i := range x {
		if !(x[i] > 0 && z[i] > 0) {
			t.Fatalf("x[%d] = %v, z[%d] = %v, want > 0", i, x[i], i, z[i])
		}
	}
	w.Solve(k, c, x, Options{})
	if got := objective(k, c, x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Fatalf("f = %.17g, cold %.17g", got, want)
	}
	if r1.Iterations >= rc.Iterations {
		t.Fatalf("warm: %d iterations, cold %d", r1.Iterations, rc.Iterations)
	}
	t.Logf("cold %d iterations; warm %d + %d", rc.Iterations, r0.Iterations, r1.Iterations)
}

// TestInteriorUnbounded: the unbounded problem of TestSolveUnbounded is
// reported Unbounded, not converged.
func TestInteriorUnbounded(t *testing.T) {
	k := &mat.Dense{Rows: 3, Cols: 3, Stride: 3, Data: []float64{1, -1, 0, -1, 1, 0, 0, 0, 1}}
	c := []float64{-1, -1, 0}
	x := make([]float64, 3)
	var w Workspace
	if res := w.SolveInterior(k, c, x, Options{}); res.Status != Unbounded {
		t.Fatalf("status %v after %d iterations, x %v", res.Status, res.Iterations, x)
	}
}

// TestInteriorAllocs: a second solve of the same order allocates nothing,
// cold or warm.
func TestInteriorAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	k, c := gramOf(rng, 30, 40)
	x := make([]float64, 30)
	var w Workspace
	w.SolveInterior(k, c, x, Options{})
	allocs := testing.AllocsPerRun(10, func() {
		clear(x)
		w.SolveInterior(k, c, x, Options{})
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a solve", allocs)
	}
	z := make([]float64, 30)
	w.SolveInteriorFrom(k, c, x, z, 0, Options{Tol: 1e-3})
	allocs = testing.AllocsPerRun(10, func() {
		w.SolveInteriorFrom(k, c, x, z, 20, Options{})
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a warm solve", allocs)
	}
}

// TestReserve: after Reserve(n) the first solves of orders up to n, by
// either method, allocate none of their storage (less than half a matrix
// of the order, where growing the workspace takes two; up to the order
// where mat.Cholesky blocks the factorisation, which then allocates its
// packed panels on its first factor at an order).
func TestReserve(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{10, 249, 250} {
		k, c := gramOf(rng, n, n+5)
		x := make([]float64, n)
		// The fewest bytes of five tries, each on a new workspace: the
		// counter is the process's, and a runtime allocation of its own
		// (seen once: 5 KB) must not count as the solve's.
		least := uint64(math.MaxUint64)
		for try := 0; try < 5; try++ {
			var w Workspace
			w.Reserve(250)
			clear(x)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			w.SolveInterior(k, c, x, Options{})
			w.Solve(k, c, x, Options{})
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		if least >= uint64(n*n*8/2) {
			t.Fatalf("order %d after Reserve(250): %d bytes allocated", n, least)
		}
	}
}

// TestInteriorCorrectors: the finisher's use on a family like its own
// (K of rank below its order, as nearly dependent rows make it; variables
// joining in rounds, the tolerance ten times tighter each round). With
// Gondzio's correctors every solve converges to the answer it reaches
// without them (projected Newton from either point, 1e-10 relative), and
// the family takes fewer factorisations in all than Mehrotra's steps
// alone.
func TestInteriorCorrectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var with, without int
	for trial := 0; trial < 12; trial++ {
		n := 60 + 20*trial
		k, c := gramOf(rng, n, n/2+trial)
		// c = -K z0 + u with z0, u >= 0: bounded below (f >= -z0'K z0/2),
		// with some multipliers at 0 at the answer and others not.
		z0 := make([]float64, n)
		for i := range z0 {
			if rng.IntN(2) == 0 {
				z0[i] = rng.Float64()
			}
		}
		k.MulVec(c, z0)
		for i := range c {
			c[i] = -c[i] + 0.1*rng.Float64()
		}
		var f [2]float64
		for v, off := range []bool{false, true} {
			w := Workspace{noCorrectors: off}
			x, z := make([]float64, n), make([]float64, n)
			warm := 0
			for round, size := range []int{n * 8 / 10, n * 9 / 10, n} {
				kr := &mat.Dense{Rows: size, Cols: size, Stride: k.Stride, Data: k.Data}
				res := w.SolveInteriorFrom(kr, c[:size], x[:size], z[:size], warm, Options{Tol: math.Pow(10, -float64(2+3*round))})
				if res.Status != Converged {
					t.Fatalf("trial %d, correctors off %v, round %d: status %v after %d factorisations", trial, off, round, res.Status, res.Factorizations)
				}
				if off {
					without += res.Factorizations
				} else {
					with += res.Factorizations
				}
				warm = size
			}
			if res := w.Solve(k, c, x, Options{}); res.Status != Converged {
				t.Fatalf("trial %d, correctors off %v: Solve from the interior point: %v", trial, off, res.Status)
			}
			f[v] = objective(k, c, x)
		}
		if math.Abs(f[0]-f[1]) > 1e-10*math.Max(1, math.Abs(f[1])) {
			t.Fatalf("trial %d: f = %.17g with correctors, %.17g without", trial, f[0], f[1])
		}
	}
	if with >= without {
		t.Fatalf("%d factorisations with correctors, %d without", with, without)
	}
	t.Logf("%d factorisations with correctors, %d without", with, without)
}
