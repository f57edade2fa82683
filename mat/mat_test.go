package mat

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
)

func seq(r, c, stride int, f func(i, j int) float64) *Dense {
	m := &Dense{Rows: r, Cols: c, Stride: stride, Data: make([]float64, r*stride)}
	for i := range m.Data {
		m.Data[i] = math.NaN() // padding must never be read
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Data[i*stride+j] = f(i, j)
		}
	}
	return m
}

func entry(i, j int) float64 { return float64((i*7+j*3)%11) - 5 }

// TestProductsMatchNaiveLoops checks MulVec, MulVecAdd, MulVecSub,
// MulTransVec, MulTransVecAdd and Gram against naive loops on views whose
// stride exceeds the column count (the padding holds NaN and must not leak).
func TestProductsMatchNaiveLoops(t *testing.T) {
	for _, sz := range [][3]int{{1, 1, 1}, {3, 5, 8}, {17, 4, 4}, {40, 33, 35}} {
		r, c, st := sz[0], sz[1], sz[2]
		a := seq(r, c, st, entry)
		x := make([]float64, c)
		y := make([]float64, r)
		for j := range x {
			x[j] = float64(j%4) - 1.5
		}
		for i := range y {
			y[i] = float64(i%3) - 1
		}
		ax := make([]float64, r)
		a.MulVec(ax, x)
		sub := make([]float64, r)
		a.MulVecSub(sub, x, y)
		add := append([]float64(nil), y...)
		a.MulVecAdd(add, x)
		for i := 0; i < r; i++ {
			var s float64
			for j := 0; j < c; j++ {
				s += entry(i, j) * x[j]
			}
			if ax[i] != s || sub[i] != s-y[i] || add[i] != s+y[i] {
				t.Fatalf("%v row %d: MulVec %v MulVecSub %v MulVecAdd %v, want %v", sz, i, ax[i], sub[i], add[i], s)
			}
		}
		aty := make([]float64, c)
		a.MulTransVec(aty, y)
		for j := 0; j < c; j++ {
			var s float64
			for i := 0; i < r; i++ {
				s += entry(i, j) * y[i]
			}
			if aty[j] != s {
				t.Fatalf("%v col %d: MulTransVec %v, want %v", sz, j, aty[j], s)
			}
		}
		// Gram on the dense entries (by columns) and on a sparse pattern,
		// one entry in five (by rows); integers, so every sum is exact.
		sparse := func(i, j int) float64 {
			if (i+2*j)%5 != 0 {
				return 0
			}
			return entry(i, j)
		}
		for _, e := range []func(int, int) float64{entry, sparse} {
			a := seq(r, c, st, e)
			g := NewDense(c, c)
			a.Gram(g, 0.5)
			rows := make([][]float64, r)
			for i := range rows {
				rows[i] = a.Row(i)
			}
			gr := NewDense(c, c)
			GramRows(gr, rows, 0.5)
			if !slices.Equal(gr.Data, g.Data) {
				t.Fatalf("%v: GramRows differs from Gram", sz)
			}
			for p := 0; p < c; p++ {
				for q := 0; q < c; q++ {
					var s float64
					for i := 0; i < r; i++ {
						s += e(i, p) * e(i, q)
					}
					if got := g.Data[p*c+q]; got != 0.5*s {
						t.Fatalf("%v Gram[%d][%d] = %v, want %v", sz, p, q, got, 0.5*s)
					}
				}
			}
		}
	}
}

func TestSizeMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MulVec with a short dst did not panic")
		}
	}()
	NewDense(3, 2).MulVec(make([]float64, 2), make([]float64, 2))
}

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
		if ev := c.MinEigen(100); !(ev >= 1-1e-8) {
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

func TestNoAllocs(t *testing.T) {
	a := seq(50, 20, 20, entry)
	x, y, g := make([]float64, 20), make([]float64, 50), NewDense(20, 20)
	for i := 0; i < 20; i++ {
		x[i] = 1
	}
	var c Cholesky
	a.Gram(g, 1)
	for i := 0; i < 20; i++ {
		g.Data[i*20+i] += 1
	}
	c.Factor(g)
	allocs := testing.AllocsPerRun(10, func() {
		a.MulVec(y, x)
		a.MulVecSub(y, x, y)
		a.MulTransVec(x, y)
		a.MulTransVecAdd(x, y)
		c.Factor(g)
		c.Solve(x, x)
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// BenchmarkGramCholesky: forming A'A (by columns: Dot4 on four columns at
// once) and factoring A'A + I, at the paper QP's size and a larger one.
func BenchmarkGramCholesky(b *testing.B) {
	for _, sz := range [][2]int{{100, 100}, {2000, 200}} {
		a := seq(sz[0], sz[1], sz[1], func(i, j int) float64 { return math.Sin(float64(i*sz[1] + j + 1)) })
		g := NewDense(sz[1], sz[1])
		name := fmt.Sprintf("%dx%d", sz[0], sz[1])
		b.Run("Gram/"+name, func(b *testing.B) {
			for b.Loop() {
				a.Gram(g, 1)
			}
		})
		g.AddDiag(1)
		var c Cholesky
		b.Run(fmt.Sprintf("Cholesky/n=%d", sz[1]), func(b *testing.B) {
			for b.Loop() {
				if err := c.Factor(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMulVec(b *testing.B) {
	for _, sz := range [][2]int{{100, 100}, {1000, 100}, {100000, 100}} {
		a := seq(sz[0], sz[1], sz[1], entry)
		x, y := make([]float64, sz[1]), make([]float64, sz[0])
		for i := range x {
			x[i] = 1
		}
		name := fmt.Sprintf("%dx%d", sz[0], sz[1])
		b.Run("MulVec/"+name, func(b *testing.B) {
			b.SetBytes(int64(8 * len(a.Data)))
			for b.Loop() {
				a.MulVec(y, x)
			}
		})
		b.Run("MulTransVec/"+name, func(b *testing.B) {
			for i := range y {
				y[i] = 1 // nonzero, so MulTransVec skips no row
			}
			b.SetBytes(int64(8 * len(a.Data)))
			for b.Loop() {
				a.MulTransVec(x, y)
			}
		})
	}
}

// TestNormEstimates: diag(3, 1, 0.5) rotated has ||A||_2 = 3; its Gram
// matrix has largest eigenvalue 9.
func TestNormEstimates(t *testing.T) {
	c, s := math.Cos(0.3), math.Sin(0.3)
	a := NewDense(3, 3)
	copy(a.Data, []float64{3 * c, -3 * s, 0, s, c, 0, 0, 0, 0.5})
	v, w, r := make([]float64, 3), make([]float64, 3), make([]float64, 3)
	if got := a.NormEstimate(100, v, w, r); math.Abs(got-3) > 1e-12 {
		t.Errorf("NormEstimate = %v, want 3", got)
	}
	g := NewDense(3, 3)
	a.Gram(g, 1)
	if got := g.SymNormEstimate(100, v, w); math.Abs(got-9) > 1e-11 {
		t.Errorf("SymNormEstimate = %v, want 9", got)
	}
	if a := testing.AllocsPerRun(5, func() { a.NormEstimate(10, v, w, r) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
