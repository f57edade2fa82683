package mat

import (
	"fmt"
	"math"
	"slices"
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

// BenchmarkGramCholesky: forming A'A (the blocked kernel, see BenchmarkGram)
// and factoring A'A + I, at the paper QP's size and a larger one.
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

// BenchmarkCholesky: Factor (blocked above cholUnblockedMax) against the
// unblocked column-by-column factorisation (factorPanel over all columns,
// what Factor does up to cholUnblockedMax; not at n = 3000, where it takes
// most of a second) of B'B + I, in GFLOP/s of the n^3/3 flops. Both copy
// the lower triangle first.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{100, 200, 300, 400, 500, 1000, 2000, 3000} {
		src := seq(n, n, n, func(i, j int) float64 { return math.Sin(float64(i*n + j + 1)) })
		a := NewDense(n, n)
		src.Gram(a, 1)
		a.AddDiag(1)
		flops := float64(n) * float64(n) * float64(n) / 3
		b.Run(fmt.Sprintf("n=%d/impl=factor", n), func(b *testing.B) {
			var c Cholesky
			for b.Loop() {
				if err := c.Factor(a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		if n > cholUnblockedMax {
			b.Run(fmt.Sprintf("n=%d/impl=factor-threads2", n), func(b *testing.B) {
				c := Cholesky{Threads: 2}
				for b.Loop() {
					if err := c.Factor(a); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		if n > 2000 {
			continue
		}
		b.Run(fmt.Sprintf("n=%d/impl=unblocked", n), func(b *testing.B) {
			l := make([]float64, n*n)
			for b.Loop() {
				for i := 0; i < n; i++ {
					copy(l[i*n:i*n+i+1], a.Row(i)[:i+1])
				}
				if _, err := factorPanel(l, n, 0, n, n, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkTriangularSolve: the factor's solves SolveL and SolveLT and the
// product MulVec at the orders the active-set engine re-solves (a small
// controller's n = 10 to a dense problem's n = 1000), each O(n^2).
func BenchmarkTriangularSolve(b *testing.B) {
	for _, n := range []int{10, 30, 100, 300, 1000} {
		src := seq(n, n, n, func(i, j int) float64 { return math.Sin(float64(i*n + j + 1)) })
		a := NewDense(n, n)
		src.Gram(a, 1)
		a.AddDiag(1)
		var c Cholesky
		if err := c.Factor(a); err != nil {
			b.Fatal(err)
		}
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = math.Cos(float64(i))
		}
		b.Run(fmt.Sprintf("n=%d/op=SolveL", n), func(b *testing.B) {
			for b.Loop() {
				c.SolveL(y, x)
			}
		})
		b.Run(fmt.Sprintf("n=%d/op=SolveLT", n), func(b *testing.B) {
			for b.Loop() {
				c.SolveLT(y, x)
			}
		})
		b.Run(fmt.Sprintf("n=%d/op=MulVec", n), func(b *testing.B) {
			for b.Loop() {
				a.MulVec(y, x)
			}
		})
	}
}

// TestZeroDense: ZeroDense reuses storage that holds the shape, clearing
// it, and allocates where it does not.
func TestZeroDense(t *testing.T) {
	m := NewDense(3, 4)
	for i := range m.Data {
		m.Data[i] = float64(i + 1)
	}
	z := ZeroDense(m, 2, 5)
	if z != m || z.Rows != 2 || z.Cols != 5 || z.Stride != 5 || len(z.Data) != 10 || &z.Data[0] != &m.Data[0] {
		t.Fatalf("ZeroDense(3x4, 2, 5): %d x %d stride %d, len %d, same %v", z.Rows, z.Cols, z.Stride, len(z.Data), z == m)
	}
	for i, v := range z.Data {
		if v != 0 {
			t.Fatalf("entry %d is %v after ZeroDense", i, v)
		}
	}
	if g := ZeroDense(m, 4, 4); g == m || len(g.Data) != 16 {
		t.Error("ZeroDense(2x5 storage, 4, 4) did not allocate")
	}
	if g := ZeroDense(nil, 2, 2); g == nil || len(g.Data) != 4 {
		t.Error("ZeroDense(nil, 2, 2)")
	}
}

// TestOverlaps: pieces of one array overlap exactly when their index
// ranges do; separate arrays and empty slices never do.
func TestOverlaps(t *testing.T) {
	a := make([]float64, 20)
	b := make([]float64, 20)
	for _, c := range []struct {
		x, y []float64
		want bool
	}{
		{a[0:5], a[4:9], true}, {a[0:5], a[5:9], false}, {a[5:9], a[0:5], false},
		{a[3:4], a[0:20], true}, {a[0:20], a[19:20], true}, {a, b, false},
		{a[0:0], a, false}, {a[2:2:20], a[0:5], false}, {nil, a, false}, {a[7:8], a[7:8], true},
	} {
		if got := Overlaps(c.x, c.y); got != c.want {
			t.Errorf("Overlaps(len %d, len %d): %v, want %v", len(c.x), len(c.y), got, c.want)
		}
	}
}
