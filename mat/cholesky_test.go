package mat

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/softpen/softpen/vec"
)

// TestCholeskySolves factors a well-conditioned SPD matrix and checks the
// residual of A x = b, including in place (dst == b), at every order up to
// 13 (Factor takes four rows of a column per Dot4, then one at a time) and
// a few larger ones.
func TestCholeskySolves(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 64, 150} {
		b := seq(n, n, n, func(i, j int) float64 { return math.Sin(float64(i*n + j + 1)) })
		a := NewDense(n, n)
		b.Gram(a, 1)
		for i := 0; i < n; i++ {
			a.Data[i*n+i] += 1
		}
		var c Cholesky
		if err := c.Factor(a); err != nil {
			t.Fatal(err)
		}
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = float64(i%5) - 2
		}
		x := append([]float64(nil), rhs...)
		c.Solve(x, x)
		r := make([]float64, n)
		a.MulVecSub(r, x, rhs)
		var rn, an float64
		for i := range r {
			rn = math.Max(rn, math.Abs(r[i]))
		}
		for _, v := range a.Data {
			an = math.Max(an, math.Abs(v))
		}
		if rn > 1e-12*an*float64(n) {
			t.Errorf("n=%d: residual %.3e", n, rn)
		}
		if ev := c.MinEigen(100, make([]float64, c.N()), make([]float64, c.N())); !(ev >= 1-1e-8) {
			t.Errorf("n=%d: min eigenvalue estimate %v, want >= 1 (A = B'B + I)", n, ev)
		}
	}
}

// TestCholeskyDiagonal: a diagonal matrix takes the O(n) solves, which give
// b_i / sqrt(a_ii) exactly as computed and b_i / a_ii to within the roundings
// of the two divisions and the square root; the same
// factor object then refactors a full matrix and solves it correctly.
func TestCholeskyDiagonal(t *testing.T) {
	n := 9
	a := NewDense(n, n)
	b := make([]float64, n)
	for i := 0; i < n; i++ {
		a.Data[i*n+i] = float64(i + 2)
		b[i] = float64(i) - 3.5
	}
	var c Cholesky
	if err := c.Factor(a); err != nil {
		t.Fatal(err)
	}
	y, x := make([]float64, n), make([]float64, n)
	c.SolveL(y, b)
	c.Solve(x, b)
	for i := range b {
		if want := b[i] / math.Sqrt(a.Data[i*n+i]); y[i] != want {
			t.Errorf("SolveL[%d] = %v, want %v", i, y[i], want)
		}
		// (b/s)/s with s = sqrt(a) rounded: four roundings of 2^-53 each.
		if want := b[i] / a.Data[i*n+i]; math.Abs(x[i]-want) > 4*0x1p-53*math.Abs(want) {
			t.Errorf("Solve[%d] = %v, want %v", i, x[i], want)
		}
	}
	a.Data[n] = 0.5 // a[1][0]; Factor reads the lower triangle
	a.Data[1] = 0.5
	if err := c.Factor(a); err != nil {
		t.Fatal(err)
	}
	c.Solve(x, b)
	r := make([]float64, n)
	a.MulVecSub(r, x, b)
	for i, v := range r {
		if math.Abs(v) > 1e-14 {
			t.Errorf("full refactor: residual[%d] = %g", i, v)
		}
	}
}

// TestCholeskyDiagonalBlocked: above cholUnblockedMax, where goroutines
// share the copy of a, a diagonal a is still recognised as such (the
// solves then divide), and one nonzero entry left of the diagonal, in the
// first row or the last, makes it not so, on one goroutine or three.
func TestCholeskyDiagonalBlocked(t *testing.T) {
	n := cholUnblockedMax + cholBlock + 7
	for _, threads := range []int{1, 3} {
		a := NewDense(n, n)
		a.AddDiag(4)
		c := Cholesky{Threads: threads}
		if err := c.Factor(a); err != nil || !c.diag {
			t.Fatalf("threads=%d: diagonal: err %v, diag %v", threads, err, c.diag)
		}
		for _, i := range []int{1, n - 1} {
			a.Data[i*n+i-1] = 0.5
			if err := c.Factor(a); err != nil || c.diag {
				t.Fatalf("threads=%d: entry (%d,%d): err %v, diag %v", threads, i, i-1, err, c.diag)
			}
			a.Data[i*n+i-1] = 0
		}
	}
}

// TestCholeskyConcurrentSolve: Solve writes only its destination, so
// goroutines may share one factor (internal/repro's parallel runs do; an
// internal scratch vector was a data race under -race).
func TestCholeskyConcurrentSolve(t *testing.T) {
	n := 40
	b := seq(n, n, n, func(i, j int) float64 { return math.Cos(float64(3*i + j)) })
	a := NewDense(n, n)
	b.Gram(a, 1)
	a.AddDiag(1)
	var c Cholesky
	if err := c.Factor(a); err != nil {
		t.Fatal(err)
	}
	rhs := make([]float64, n)
	for i := range rhs {
		rhs[i] = float64(i%7) - 3
	}
	want := make([]float64, n)
	c.Solve(want, rhs)
	var wg sync.WaitGroup
	errs := make([]int, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := make([]float64, n)
			for it := 0; it < 200; it++ {
				c.Solve(x, rhs)
				if !slices.Equal(x, want) {
					errs[g]++
				}
			}
		}()
	}
	wg.Wait()
	for g, e := range errs {
		if e != 0 {
			t.Errorf("goroutine %d: %d solves differ from the sequential one", g, e)
		}
	}
}

func TestCholeskyNotPD(t *testing.T) {
	a := NewDense(3, 3)
	copy(a.Data, []float64{1, 2, 0, 2, 1, 0, 0, 0, 1})
	var c Cholesky
	err := c.Factor(a)
	var pe *NotPDError
	if !errors.As(err, &pe) || pe.Pivot != 1 {
		t.Errorf("err = %v, want NotPDError at pivot 1", err)
	}
}

// TestCheckSemidefinite: positive semidefinite matrices of every rank pass
// (B B' with B n x k, k = 0..n, rows of mixed scale), the zero matrix
// passes, and a matrix with an eigenvalue of -1e-9 ||a|| fails at some
// pivot; the shift is 4 (n+1) eps times the largest absolute row sum.
func TestCheckSemidefinite(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 7, 40, 120} {
		for _, k := range []int{0, 1, n / 2, n} {
			b := NewDense(n, max(k, 1))
			for i := range b.Data {
				b.Data[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(5)-2))
			}
			a := NewDense(n, n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					for c := 0; c < k; c++ {
						a.Data[i*n+j] += b.Row(i)[c] * b.Row(j)[c]
					}
				}
			}
			if err := CheckSemidefinite(a); err != nil {
				t.Errorf("n %d, rank %d: %v", n, k, err)
			}
			if k == 0 {
				continue
			}
			// a_11 - (a_11 + 1e-9 ||a||) < 0 on the diagonal: an
			// eigenvalue below -1e-9 ||a||.
			bad := NewDense(n, n)
			copy(bad.Data, a.Data)
			bad.Data[0] -= a.Data[0] + 1e-9*a.NormInf()
			if err := CheckSemidefinite(bad); err == nil {
				t.Errorf("n %d, rank %d: a negative diagonal entry passed", n, k)
			}
		}
	}
	a := NewDense(3, 3)
	if err := CheckSemidefinite(a); err != nil || SemidefiniteShift(a) != 0 {
		t.Errorf("zero matrix: %v, shift %g", err, SemidefiniteShift(a))
	}
	copy(a.Data, []float64{1, -2, 0, -2, 5, 3, 0, 3, -4})
	if got, want := a.NormInf(), 10.0; got != want {
		t.Errorf("NormInf %g, want %g", got, want)
	}
	if got, want := SemidefiniteShift(a), 16*0x1p-52*10; got != want {
		t.Errorf("shift %g, want %g", got, want)
	}
}

// TestCholeskyBlocked: above cholUnblockedMax the factor is computed in panels
// with packed trailing updates. At orders that cross one and several
// panels and leave every remainder of the 12- and 4-row tiles, L L^T is
// within twice DotErrorBound(n+1) |L| |L^T| of a entrywise (once for the
// factor, once for this check's own products), L agrees with the unblocked
// factor to 1e-12 relative (a is well conditioned), the upper triangle of a
// (NaN here) is never read, a refactor in a Cholesky used for a larger
// order gives the same bits as a fresh one, and a matrix whose leading
// minors fail at an order inside a later panel reports that pivot.
func TestCholeskyBlocked(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	var big Cholesky
	big.Factor(identity(600))
	u := cholUnblockedMax
	for _, n := range []int{u + 1, u + 2, u + 3, u + 11, u + 12, u + cholBlock - 1, u + cholBlock, u + cholBlock + 1, 350, 3*cholBlock + u + 5} {
		b := seq(n, n, n, func(i, j int) float64 { return (r.Float64() - 0.5) * math.Ldexp(1, i%7-3) })
		a := NewDense(n, n)
		b.Gram(a, 1)
		for i := 0; i < n; i++ {
			a.Data[i*n+i] += 1
			for j := i + 1; j < n; j++ {
				a.Data[i*n+j] = math.NaN()
			}
		}
		var c Cholesky
		if err := c.Factor(a); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		l := c.l[:n*n]
		if i, j, d, bound := cholResidual(a, l, n); d > bound {
			t.Fatalf("n=%d: (L L^T - A)[%d,%d] = %.3g, bound %.3g", n, i, j, d, bound)
		}
		ref := make([]float64, n*n)
		for i := 0; i < n; i++ {
			copy(ref[i*n:i*n+i+1], a.Data[i*n:i*n+i+1])
		}
		if _, err := factorPanel(ref, n, 0, n, n, 0); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				if d := math.Abs(l[i*n+j] - ref[i*n+j]); d > 1e-12*math.Abs(ref[i*n+i]) {
					t.Fatalf("n=%d: L[%d,%d] = %v, unblocked %v", n, i, j, l[i*n+j], ref[i*n+j])
				}
			}
		}
		if err := big.Factor(a); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if !slices.Equal(big.l[i*n:i*n+i+1], l[i*n:i*n+i+1]) {
				t.Fatalf("n=%d: row %d differs in a reused Cholesky", n, i)
			}
		}
		if n > u+cholBlock {
			f := n - cholBlock/2 // in the last panel
			a.Data[f*n+f] = -1
			err := c.Factor(a)
			var pe *NotPDError
			if !errors.As(err, &pe) || pe.Pivot != f {
				t.Fatalf("n=%d: err = %v, want NotPDError at pivot %d", n, err, f)
			}
		}
	}
}

// TestCholeskyThreads: the factor is the same bit for bit whatever
// Cholesky.Threads is, on orders where the trailing updates split among
// goroutines (above cholUnblockedMax with enough rows) and where the
// last ones do not, and a failure is reported at the same pivot.
func TestCholeskyThreads(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	for _, n := range []int{cholUnblockedMax + 1, 450, 701, 1000} {
		b := seq(n, n, n, func(i, j int) float64 { return r.Float64() - 0.5 })
		a := NewDense(n, n)
		b.Gram(a, 1)
		a.AddDiag(0.5)
		var one Cholesky
		if err := one.Factor(a); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for _, threads := range []int{2, 3, 8} {
			c := Cholesky{Threads: threads}
			if err := c.Factor(a); err != nil {
				t.Fatalf("n=%d threads=%d: %v", n, threads, err)
			}
			for i := 0; i < n; i++ {
				if !slices.Equal(c.l[i*n:i*n+i+1], one.l[i*n:i*n+i+1]) {
					t.Fatalf("n=%d threads=%d: row %d differs from one thread's", n, threads, i)
				}
			}
		}
		f := n - 3
		keep := a.Data[f*n+f]
		a.Data[f*n+f] = -1
		c := Cholesky{Threads: 4}
		var pe *NotPDError
		if err := c.Factor(a); !errors.As(err, &pe) || pe.Pivot != f {
			t.Fatalf("n=%d: err = %v, want NotPDError at pivot %d", n, err, f)
		}
		a.Data[f*n+f] = keep
	}
}

// TestCholeskyBlockedResidual: at odd orders spanning one to several
// block columns (and the trailing update's row ranges; from 1536 the
// block columns are cholBlock wide), on one, two and three goroutines, L L^T is within twice DotErrorBound(n+1) |L| |L^T| of
// a entrywise (once for the factor, once for this check's own products),
// on a matrix whose rows' scales span 2^-3..2^3 (so its entries 2^-6..2^6),
// and the three factors are the same bits. -short checks the residual on
// one goroutine only.
func TestCholeskyBlockedResidual(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 23))
	for _, n := range []int{257, 300, 511, 777, 1031, 8*cholBlock + 7} {
		b := seq(n, n, n, func(i, j int) float64 { return (r.Float64() - 0.5) * math.Ldexp(1, i%7-3) })
		a := NewDense(n, n)
		b.Gram(a, 1)
		a.AddDiag(0.25)
		var first []float64
		for _, threads := range []int{1, 2, 3} {
			c := Cholesky{Threads: threads}
			if err := c.Factor(a); err != nil {
				t.Fatalf("n=%d threads=%d: %v", n, threads, err)
			}
			l := c.l[:n*n]
			if first == nil {
				first = slices.Clone(l)
			} else {
				for i := 0; i < n; i++ {
					if !slices.Equal(l[i*n:i*n+i+1], first[i*n:i*n+i+1]) {
						t.Fatalf("n=%d threads=%d: row %d differs from one goroutine's", n, threads, i)
					}
				}
				if testing.Short() {
					continue
				}
			}
			if i, j, d, bound := cholResidual(a, l, n); d > bound {
				t.Fatalf("n=%d threads=%d: (L L^T - A)[%d,%d] = %.3g, bound %.3g", n, threads, i, j, d, bound)
			}
		}
	}
}

// cholResidual returns the entry (i, j) of L L^T - a (lower triangle) of
// largest |L L^T - a| / (|L| |L^T|), that difference and its bound
// 2 DotErrorBound(n+1) (|L| |L^T|)_ij.
func cholResidual(a *Dense, l []float64, n int) (wi, wj int, wd, wb float64) {
	bound := 2 * vec.DotErrorBound(n+1)
	worst := -1.0
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s, abs float64
			for p := 0; p <= j; p++ {
				s += l[i*n+p] * l[j*n+p]
				abs += math.Abs(l[i*n+p] * l[j*n+p])
			}
			d := math.Abs(s - a.Data[i*n+j])
			if q := d / (bound * abs); q > worst {
				worst, wi, wj, wd, wb = q, i, j, d, bound*abs
			}
		}
	}
	return wi, wj, wd, wb
}

// TestCholeskyAllocs: refactoring at an order already factored allocates
// nothing, on the unblocked and the blocked path, on one goroutine and on
// several (the blocked path's panels and goroutines' functions are kept),
// and a matrix header made for the call stays on the caller's stack (as
// internal/boxqp makes them: Factor keeps no pointer to it).
func TestCholeskyAllocs(t *testing.T) {
	for _, n := range []int{100, cholUnblockedMax + cholBlock + 5} {
		b := seq(n, n, n, func(i, j int) float64 { return math.Sin(float64(i*n + j + 1)) })
		a := NewDense(n, n)
		b.Gram(a, 1)
		a.AddDiag(1)
		for _, threads := range []int{1, 2} {
			c := Cholesky{Threads: threads}
			if err := c.Factor(a); err != nil {
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(5, func() {
				m := &Dense{Rows: n, Cols: n, Stride: n, Data: a.Data}
				c.Factor(m)
			})
			if allocs != 0 {
				t.Errorf("n=%d threads=%d: %v allocations per Factor", n, threads, allocs)
			}
		}
	}
}

func identity(n int) *Dense {
	a := NewDense(n, n)
	for i := 0; i < n; i++ {
		a.Data[i*n+i] = 1
	}
	return a
}

// TestCholeskyFactorShifted: on a positive definite matrix FactorShifted
// is Factor bit for bit and shifts nothing; on Gram matrices whose columns
// repeat or combine others (singular: Factor fails on them) it succeeds
// on the unblocked and the blocked path, on one thread and several with
// the same bits, and L L^T is a + E: off the diagonal within twice
// DotErrorBound(n+1) |L| |L^T| of a, on it never below a by more than
// that, and above it at no more entries than it reports shifted. A NaN
// pivot still fails, and so does a shift that is not finite and > 0.
func TestCholeskyFactorShifted(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	for _, n := range []int{5, 40, cholUnblockedMax + 1, 350, 600} {
		b := seq(n, n, n, func(i, j int) float64 { return r.Float64() - 0.5 })
		a := NewDense(n, n)
		b.Gram(a, 1)
		a.AddDiag(0.5)
		var c, s Cholesky
		if err := c.Factor(a); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if k, err := s.FactorShifted(a, 1e-14); err != nil || k != 0 {
			t.Fatalf("n=%d: positive definite: %d shifted, %v", n, k, err)
		}
		for i := 0; i < n; i++ {
			if !slices.Equal(c.l[i*n:i*n+i+1], s.l[i*n:i*n+i+1]) {
				t.Fatalf("n=%d: row %d differs from Factor's", n, i)
			}
		}
		// Columns that repeat an earlier one, and one the sum of two.
		for j := 3; j < n; j += 7 {
			for i := 0; i < n; i++ {
				b.Data[i*b.Stride+j] = b.Data[i*b.Stride+j/2]
			}
		}
		for i := 0; i < n; i++ {
			b.Data[i*b.Stride+n-1] = b.Data[i*b.Stride] + b.Data[i*b.Stride+1]
		}
		b.Gram(a, 1)
		if err := c.Factor(a); err == nil {
			t.Fatalf("n=%d: Factor of a singular Gram matrix succeeded", n)
		}
		var first []float64
		for _, threads := range []int{1, 2, 5} {
			s := Cholesky{Threads: threads}
			k, err := s.FactorShifted(a, 1e-14)
			if err != nil || k < 1 {
				t.Fatalf("n=%d threads=%d: %d shifted, %v", n, threads, k, err)
			}
			if first == nil {
				first = slices.Clone(s.l[:n*n])
				l := first
				bound := 2 * vec.DotErrorBound(n+1)
				above := 0
				for i := 0; i < n; i++ {
					for j := 0; j <= i; j++ {
						var sum, abs float64
						for p := 0; p <= j; p++ {
							sum += l[i*n+p] * l[j*n+p]
							abs += math.Abs(l[i*n+p] * l[j*n+p])
						}
						d := sum - a.Data[i*n+j]
						switch {
						case i != j && math.Abs(d) > bound*abs:
							t.Fatalf("n=%d: (L L^T - A)[%d,%d] = %.3g, bound %.3g", n, i, j, d, bound*abs)
						case i == j && d < -bound*abs:
							t.Fatalf("n=%d: (L L^T - A)[%d,%d] = %.3g < 0 beyond rounding %.3g", n, i, i, d, bound*abs)
						case i == j && d > bound*abs:
							above++
						}
					}
				}
				if above > k {
					t.Errorf("n=%d: the diagonal grew at %d entries, %d pivots shifted", n, above, k)
				}
				t.Logf("n=%d: %d pivots shifted, the diagonal grew at %d", n, k, above)
				continue
			}
			if !slices.Equal(first, s.l[:n*n]) {
				t.Fatalf("n=%d threads=%d: the factor differs from one thread's", n, threads)
			}
		}
		a.Data[(n/2)*n+n/2] = math.NaN()
		var pe *NotPDError
		if _, err := s.FactorShifted(a, 1e-14); !errors.As(err, &pe) || pe.Pivot != n/2 {
			t.Errorf("n=%d: NaN pivot: %v, want NotPDError at pivot %d", n, err, n/2)
		}
	}
	for _, shift := range []float64{0, -1, math.Inf(1), math.NaN()} {
		var c Cholesky
		if _, err := c.FactorShifted(identity(3), shift); err == nil {
			t.Errorf("shift %v accepted", shift)
		}
	}
}

// TestCholeskyFactorLess: FactorLess(a, mu) computes, bit for bit, the
// factor Factor computes for a copy of a with mu taken from its diagonal,
// on the unblocked and the blocked orders, and fails where that does: for
// a = B'B + I (smallest eigenvalue 1 + that of B'B), mu = 1/2 factors and
// mu = 1 + ||B||_F^2 + 1 (above the largest eigenvalue) does not. Only
// the lower triangle is read (the upper one is NaN).
func TestCholeskyFactorLess(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2))
	for _, n := range []int{1, 2, 5, 13, cholUnblockedMax, cholUnblockedMax + cholBlock + 3} {
		b := seq(n, n, n, func(i, j int) float64 { return r.Float64() - 0.5 })
		a := NewDense(n, n)
		b.Gram(a, 1)
		fro := 0.0
		for i := 0; i < n; i++ {
			a.Data[i*n+i] += 1
			fro += a.Data[i*n+i]
			for j := i + 1; j < n; j++ {
				a.Data[i*n+j] = math.NaN()
			}
		}
		for _, mu := range []float64{0.5, -3, 0} {
			shifted := NewDense(n, n)
			copy(shifted.Data, a.Data)
			for i := 0; i < n; i++ {
				shifted.Data[i*n+i] -= mu
			}
			var want, got Cholesky
			if err := want.Factor(shifted); err != nil {
				t.Fatalf("n=%d mu=%v: Factor: %v", n, mu, err)
			}
			if err := got.FactorLess(a, mu); err != nil {
				t.Fatalf("n=%d mu=%v: FactorLess: %v", n, mu, err)
			}
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					if g, w := got.l[i*n+j], want.l[i*n+j]; math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("n=%d mu=%v: L[%d,%d] = %v, want %v", n, mu, i, j, g, w)
					}
				}
			}
		}
		var c Cholesky
		var npd *NotPDError
		if err := c.FactorLess(a, fro+1); !errors.As(err, &npd) {
			t.Errorf("n=%d: FactorLess above the largest eigenvalue: %v, want a *NotPDError", n, err)
		}
	}
}

// TestTriangularSolves: SolveL and SolveLT at every order up to 40 (whole
// blocks of four rows and every remainder) and on both sides of
// cholUnblockedMax, on factors of widely scaled matrices: each solution's
// residual is within the substitution's backward error, |b - L y| <=
// gamma_{n+1} |L| |y| entrywise (the bound's own sum in float64 adds one
// more gamma), in place (dst == b) the same bits as into another slice,
// and no entry beside dst is written (NaN guard bands). The factor's upper
// triangle is L^T (mirror), also after a Cholesky is reused at another
// order.
func TestTriangularSolves(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 4))
	var c Cholesky
	orders := []int{}
	for n := 1; n <= 40; n++ {
		orders = append(orders, n)
	}
	orders = append(orders, 64, 255, cholUnblockedMax+1, cholUnblockedMax+cholBlock+3, 37)
	for _, n := range orders {
		b := seq(n, n, n, func(i, j int) float64 { return (r.Float64() - 0.5) * math.Ldexp(1, (i+j)%9-4) })
		a := NewDense(n, n)
		b.Gram(a, 1)
		a.AddDiag(1e-3)
		if err := c.Factor(a); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		l := c.l[:n*n]
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if l[j*n+i] != l[i*n+j] {
					t.Fatalf("n=%d: upper [%d,%d] = %v, want L[%d,%d] = %v", n, j, i, l[j*n+i], i, j, l[i*n+j])
				}
			}
		}
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = (r.Float64() - 0.5) * math.Ldexp(1, i%5)
		}
		const guard = 3
		buf := make([]float64, n+2*guard)
		for _, lower := range []bool{true, false} {
			for i := range buf {
				buf[i] = math.NaN()
			}
			y := buf[guard : guard+n]
			inPlace := append([]float64(nil), rhs...)
			if lower {
				c.SolveL(y, rhs)
				c.SolveL(inPlace, inPlace)
			} else {
				c.SolveLT(y, rhs)
				c.SolveLT(inPlace, inPlace)
			}
			for i := 0; i < guard; i++ {
				if !math.IsNaN(buf[i]) || !math.IsNaN(buf[guard+n+i]) {
					t.Fatalf("n=%d lower=%v: guard band written", n, lower)
				}
			}
			if !slices.Equal(y, inPlace) {
				t.Fatalf("n=%d lower=%v: in place %v, into another slice %v", n, lower, inPlace, y)
			}
			g := vec.DotErrorBound(n + 1)
			for i := 0; i < n; i++ {
				res, size := rhs[i], 0.0
				for k := 0; k < n; k++ {
					var lik float64 // (L)[i,k] or (L^T)[i,k]
					switch {
					case lower && k <= i:
						lik = l[i*n+k]
					case !lower && k >= i:
						lik = l[k*n+i]
					}
					res -= lik * y[k]
					size += math.Abs(lik * y[k])
				}
				if math.Abs(res) > 2*g*size {
					t.Fatalf("n=%d lower=%v: row %d residual %.3g, bound %.3g", n, lower, i, res, 2*g*size)
				}
			}
		}
	}
}

// TestUnitColumn: column i of L^{-1} for every i, at orders on both sides
// of smallSolve and on a diagonal factor: its first i entries are exactly
// zero, entry i is 1 / L_ii, and L times it is e_i within SolveL's
// backward error, gamma_{n+1} |L| |y| entrywise (twice that for the
// residual's own sum in float64).
func TestUnitColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	var c Cholesky
	for _, n := range []int{1, 2, 5, 16, 17, 40, 101} {
		for _, diag := range []bool{false, true} {
			a := NewDense(n, n)
			if diag {
				for i := 0; i < n; i++ {
					a.Data[i*n+i] = math.Ldexp(1+r.Float64(), i%7-3)
				}
			} else {
				b := seq(n, n, n, func(i, j int) float64 { return (r.Float64() - 0.5) * math.Ldexp(1, (i+2*j)%7-3) })
				b.Gram(a, 1)
				a.AddDiag(1e-2)
			}
			if err := c.Factor(a); err != nil {
				t.Fatalf("n=%d diag=%v: %v", n, diag, err)
			}
			l := c.l[:n*n]
			y := make([]float64, n)
			g := vec.DotErrorBound(n + 1)
			for i := 0; i < n; i++ {
				for k := range y {
					y[k] = math.NaN()
				}
				c.UnitColumn(y, i)
				for k := 0; k < i; k++ {
					if y[k] != 0 {
						t.Fatalf("n=%d diag=%v col %d: entry %d = %v, want 0", n, diag, i, k, y[k])
					}
				}
				if want := 1 / l[i*n+i]; y[i] != want {
					t.Fatalf("n=%d diag=%v col %d: entry %d = %v, want %v", n, diag, i, i, y[i], want)
				}
				for row := 0; row < n; row++ {
					res, size := 0.0, 0.0
					if row == i {
						res = 1
					}
					for k := 0; k <= row; k++ {
						res -= l[row*n+k] * y[k]
						size += math.Abs(l[row*n+k] * y[k])
					}
					if math.Abs(res) > 2*g*size {
						t.Fatalf("n=%d diag=%v col %d: row %d residual %.3g, bound %.3g", n, diag, i, row, res, 2*g*size)
					}
				}
			}
		}
	}
}

// TestCholeskyQuadSameBits: with the 24 x 8 blocks of vec.TileMulAddQuad
// in the trailing update (tileQuad, on the avx512 path) the factor has
// the bits of the 4 x 12 tiles alone, on one and three goroutines, at
// orders whose trailing blocks pair up or not (n - k1 odd multiples of
// TileA, ragged edges).
func TestCholeskyQuadSameBits(t *testing.T) {
	defer func(q bool) { tileQuad = q }(tileQuad)
	quad := tileQuad
	r := rand.New(rand.NewPCG(7, 13))
	for _, n := range []int{cholUnblockedMax + 1, cholUnblockedMax + 12 + 5, 469, 701} {
		b := seq(n, n, n, func(i, j int) float64 { return r.Float64() - 0.5 })
		a := NewDense(n, n)
		b.Gram(a, 1)
		a.AddDiag(0.5)
		for _, threads := range []int{1, 3} {
			tileQuad = false
			want := Cholesky{Threads: threads}
			if err := want.Factor(a); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			tileQuad = quad
			got := Cholesky{Threads: threads}
			if err := got.Factor(a); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			for i := 0; i < n; i++ {
				if !slices.Equal(got.l[i*n:i*n+i+1], want.l[i*n:i*n+i+1]) {
					t.Fatalf("n=%d threads=%d: row %d differs from the 4 x 12 tiles'", n, threads, i)
				}
			}
		}
	}
}
