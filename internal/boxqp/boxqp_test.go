package boxqp

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/softpen/softpen/mat"
)

// gramOf returns K = B B' for a random n x r B (rank min(n, r)) and a
// random c.
func gramOf(rng *rand.Rand, n, r int) (*mat.Dense, []float64) {
	b := mat.NewDense(n, r)
	for i := range b.Data {
		b.Data[i] = rng.NormFloat64()
	}
	k := mat.NewDense(n, n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for q := 0; q < r; q++ {
				s += b.Data[i*r+q] * b.Data[j*r+q]
			}
			k.Data[i*n+j], k.Data[j*n+i] = s, s
		}
	}
	c := make([]float64, n)
	for i := range c {
		c[i] = rng.NormFloat64() * float64(r)
	}
	return k, c
}

// objective is 1/2 x'Kx + c'x.
func objective(k *mat.Dense, c, x []float64) float64 {
	kx := make([]float64, len(x))
	k.MulVec(kx, x)
	var f float64
	for i := range x {
		f += x[i] * (0.5*kx[i] + c[i])
	}
	return f
}

// kktResidual is the largest violation of x >= 0, g >= 0 where x = 0 and
// g = 0 where x > 0 (g = Kx + c), the optimality conditions of the convex
// problem.
func kktResidual(k *mat.Dense, c, x []float64) float64 {
	g := make([]float64, len(x))
	k.MulVec(g, x)
	var r float64
	for i := range x {
		g[i] += c[i]
		switch {
		case x[i] < 0:
			r = math.Max(r, -x[i])
		case x[i] == 0:
			r = math.Max(r, -g[i])
		default:
			r = math.Max(r, math.Abs(g[i]))
		}
	}
	return r
}

// bruteForce is the minimum of f over x >= 0 for a positive definite K, by
// trying every free set: the answer is the one whose Newton point on its
// free set is nonnegative with nonnegative gradients elsewhere.
func bruteForce(k *mat.Dense, c []float64) float64 {
	n := k.Rows
	best := math.Inf(1)
	for mask := 0; mask < 1<<n; mask++ {
		var free []int
		for i := 0; i < n; i++ {
			if mask>>i&1 == 1 {
				free = append(free, i)
			}
		}
		x := make([]float64, n)
		if len(free) > 0 {
			kf := mat.NewDense(len(free), len(free))
			rhs := make([]float64, len(free))
			for a, i := range free {
				for b, j := range free {
					kf.Data[a*len(free)+b] = k.Data[i*n+j]
				}
				rhs[a] = -c[i]
			}
			var ch mat.Cholesky
			if ch.Factor(kf) != nil {
				continue
			}
			ch.Solve(rhs, rhs)
			ok := true
			for a, i := range free {
				if rhs[a] < 0 {
					ok = false
				}
				x[i] = rhs[a]
			}
			if !ok {
				continue
			}
		}
		best = math.Min(best, objective(k, c, x))
	}
	return best
}

func TestSolveAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w Workspace
	for trial := 0; trial < 300; trial++ {
		n := 1 + trial%8
		k, c := gramOf(rng, n, n+2)
		x := make([]float64, n)
		res := w.Solve(k, c, x, Options{})
		if res.Status != Converged {
			t.Fatalf("trial %d (n=%d): status %v after %d iterations, pg %.3g", trial, n, res.Status, res.Iterations, res.PGNorm)
		}
		want := bruteForce(k, c)
		got := objective(k, c, x)
		if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Fatalf("trial %d (n=%d): f = %.17g, enumeration %.17g", trial, n, got, want)
		}
	}
}

// TestSolveSingular: K of rank r < n (a Gram matrix of more rows than
// columns, as the SVM's dual on dependent rows): the minimizer is not
// unique and K_FF may have no factor; the answer must still satisfy the
// optimality conditions.
func TestSolveSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var w Workspace
	for trial := 0; trial < 40; trial++ {
		n := 20 + trial
		k, c := gramOf(rng, n, n/2)
		// A bounded problem: c >= 0 on a direction of K's null space
		// would be unbounded below; shift c so that c = K z + s, s >= 0.
		z := make([]float64, n)
		for i := range z {
			z[i] = rng.Float64()
		}
		k.MulVec(c, z)
		for i := range c {
			c[i] = -c[i] + rng.Float64()
		}
		x := make([]float64, n)
		res := w.Solve(k, c, x, Options{})
		if res.Status == Stopped {
			t.Fatalf("trial %d: stopped after %d iterations, pg %.3g", trial, res.Iterations, res.PGNorm)
		}
		scale := 0.0
		for _, v := range k.Data {
			scale = math.Max(scale, math.Abs(v))
		}
		if r := kktResidual(k, c, x); r > 1e-9*scale*float64(n) {
			t.Fatalf("trial %d: KKT residual %.3g (status %v, %d iterations)", trial, r, res.Status, res.Iterations)
		}
	}
}

// TestSolveLarge: an ill-conditioned order-400 problem with about half
// the bounds active converges in few factorisations (many bounds change a
// step) and satisfies the optimality conditions to rounding.
func TestSolveLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 400
	k, c := gramOf(rng, n, n+10)
	x := make([]float64, n)
	var w Workspace
	res := w.Solve(k, c, x, Options{})
	if res.Status != Converged {
		t.Fatalf("status %v after %d iterations, pg %.3g", res.Status, res.Iterations, res.PGNorm)
	}
	var zero int
	for _, v := range x {
		if v == 0 {
			zero++
		}
	}
	if zero < n/5 || zero > 4*n/5 {
		t.Fatalf("%d of %d at the bound: not the mixed problem meant", zero, n)
	}
	if res.Factorizations > 40 {
		t.Fatalf("%d factorisations for %d bounds", res.Factorizations, zero)
	}
	t.Logf("%d iterations, %d factorisations, %d bounds active", res.Iterations, res.Factorizations, zero)
}

// TestSolveWarmAllocs: a second solve of the same order allocates nothing.
func TestSolveWarmAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	k, c := gramOf(rng, 30, 40)
	x := make([]float64, 30)
	var w Workspace
	w.Solve(k, c, x, Options{})
	allocs := testing.AllocsPerRun(10, func() {
		clear(x)
		w.Solve(k, c, x, Options{})
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a solve", allocs)
	}
}

// TestSolveUnbounded: K d = 0 and c'd < 0 for d = (1, 1, 0) >= 0, so f is
// unbounded below (the dual of infeasible rows): the solve says so
// instead of running to its iteration limit.
func TestSolveUnbounded(t *testing.T) {
	k := &mat.Dense{Rows: 3, Cols: 3, Stride: 3, Data: []float64{1, -1, 0, -1, 1, 0, 0, 0, 1}}
	c := []float64{-1, -1, 0}
	x := make([]float64, 3)
	var w Workspace
	res := w.Solve(k, c, x, Options{})
	if res.Status != Unbounded || res.Iterations > 20 {
		t.Fatalf("status %v after %d iterations, x %v", res.Status, res.Iterations, x)
	}
}

// TestSolveOverflowedDiagonal: K's diagonal overflowed to +Inf (a dual
// coordinate descent's Farkas reduction over rows of norm 1e61 and more)
// makes every step fail; the damping had climbed to +Inf, never above its
// bound 1e4 dmax = +Inf, and the solve spun for good. It ends now, not
// Converged, within a few hundred factorisations.
func TestSolveOverflowedDiagonal(t *testing.T) {
	k := &mat.Dense{Rows: 2, Cols: 2, Stride: 2, Data: []float64{math.Inf(1), 1, 1, 1}}
	c := []float64{-1, -1}
	x := make([]float64, 2)
	done := make(chan Result, 1)
	go func() {
		var w Workspace
		done <- w.Solve(k, c, x, Options{})
	}()
	select {
	case res := <-done:
		if res.Status == Converged {
			t.Errorf("converged on a K with an infinite diagonal: x %v", x)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the solve did not end in 30 s")
	}
}
