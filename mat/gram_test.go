package mat

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/softpen/softpen/vec"
)

// Tests of Gram, GramRows and GramWeighted on the kernel path in use; run
// them also with -tags purego (the Go micro-kernel) and for arm64 under
// qemu.

const gramGuard = -0x1.5p77 // in dst outside the n x n block and around the rows

// gramInput is an l x n matrix as rows with unaligned starts: row k sits at
// offset k%8 in its own backing array, behind and before guard values that
// must never be read into a result.
type gramInput struct {
	rows [][]float64
	back [][]float64
}

func newGramInput(l, n int, f func(k, j int) float64) gramInput {
	var in gramInput
	for k := 0; k < l; k++ {
		off := k % 8
		back := make([]float64, off+n+5)
		for i := range back {
			back[i] = gramGuard
		}
		r := back[off : off+n : off+n]
		for j := range r {
			r[j] = f(k, j)
		}
		in.rows = append(in.rows, r)
		in.back = append(in.back, back)
	}
	return in
}

func (in gramInput) dense() *Dense {
	l, n := len(in.rows), 0
	if l > 0 {
		n = len(in.rows[0])
	}
	m := NewDense(l, n)
	for k, r := range in.rows {
		copy(m.Row(k), r)
	}
	return m
}

// guardedDst is an n x n Dense with Stride n+3 whose Data starts 5 entries
// into a backing array; everything of the array outside the n x n block
// holds gramGuard. check reports any guard overwritten.
func guardedDst(n int) (*Dense, func(t *testing.T, what string)) {
	const lead, pad = 5, 3
	st := n + pad
	back := make([]float64, lead+n*st+7)
	for i := range back {
		back[i] = gramGuard
	}
	d := &Dense{Rows: n, Cols: n, Stride: st, Data: back[lead : lead+n*st]}
	inside := func(i int) bool {
		i -= lead
		return i >= 0 && i < n*st && i%st < n
	}
	return d, func(t *testing.T, what string) {
		t.Helper()
		for i, v := range back {
			if !inside(i) && v != gramGuard {
				t.Fatalf("%s: guard at %d overwritten with %v", what, i-lead, v)
			}
		}
	}
}

// gramInt is a small integer entry, dense (about one in eleven is zero),
// so sums of products are exact and the blocked path is taken.
func gramInt(k, j int) float64 { return float64((k*7+j*5+k*j)%11) - 5 }

// gramSparseInt keeps one gramInt entry in five: the by-rows path.
func gramSparseInt(k, j int) float64 {
	if (k+2*j)%5 != 0 {
		return 0
	}
	return gramInt(k, j)
}

func gramWeight(k int) float64 { return float64(k%5) - 1 }

// checkGramExact: dst is exactly scale * A' diag(w) A for integer data
// (scale a power of two), bit-for-bit symmetric.
func checkGramExact(t *testing.T, what string, d *Dense, in gramInput, w []float64, scale float64) {
	t.Helper()
	n := d.Cols
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k, r := range in.rows {
				wk := 1.0
				if w != nil {
					wk = w[k]
				}
				s += wk * r[i] * r[j]
			}
			got, mir := d.Data[i*d.Stride+j], d.Data[j*d.Stride+i]
			if got != scale*s {
				t.Fatalf("%s: [%d][%d] = %v, want %v", what, i, j, got, scale*s)
			}
			if math.Float64bits(got) != math.Float64bits(mir) {
				t.Fatalf("%s: [%d][%d] = %v but [%d][%d] = %v", what, i, j, got, j, i, mir)
			}
		}
	}
}

// gramShapes: every l, n in 1..70 (in steps under -short), and larger odd
// shapes that cross the row block (gramKC) and column block (gramNC).
func gramShapes() [][2]int {
	var s [][2]int
	step := 1
	if testing.Short() {
		step = 3
	}
	for l := 1; l <= 70; l += step {
		for n := 1; n <= 70; n++ {
			s = append(s, [2]int{l, n})
		}
	}
	// Beyond 70: several row blocks on the stack's buffer (n <= 28),
	// the padded block at its limits (n = 40 and 41), and the heap's.
	return append(s, [2]int{131, 97}, [2]int{300, 300}, [2]int{517, 141}, [2]int{257, 13}, [2]int{3, 259},
		[2]int{150, 28}, [2]int{200, 20}, [2]int{200, 29}, [2]int{130, 40}, [2]int{129, 41})
}

// TestGramExactEveryShape: GramRows, Gram and GramWeighted on integer data
// are exact at every shape, dense and sparse, with the rows at unaligned
// starts and dst a strided view: no guard around dst or the rows is
// touched, and the rows are unchanged.
func TestGramExactEveryShape(t *testing.T) {
	for _, sh := range gramShapes() {
		l, n := sh[0], sh[1]
		for _, pat := range []struct {
			name string
			f    func(k, j int) float64
		}{{"dense", gramInt}, {"sparse", gramSparseInt}} {
			if pat.name == "sparse" && n > 70 {
				continue
			}
			in := newGramInput(l, n, pat.f)
			what := fmt.Sprintf("%s %dx%d", pat.name, l, n)

			d, chk := guardedDst(n)
			GramRows(d, in.rows, 0.5)
			checkGramExact(t, what+" GramRows", d, in, nil, 0.5)
			chk(t, what+" GramRows")

			g, chkG := guardedDst(n)
			in.dense().Gram(g, 0.5)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if g.Data[i*g.Stride+j] != d.Data[i*d.Stride+j] {
						t.Fatalf("%s: Gram and GramRows differ at [%d][%d]", what, i, j)
					}
				}
			}
			chkG(t, what+" Gram")

			if l <= 70 && n%3 != 0 && n <= 70 {
				continue // GramWeighted on a third of the small shapes
			}
			w := make([]float64, l)
			for k := range w {
				w[k] = gramWeight(k)
			}
			dw, chkW := guardedDst(n)
			GramWeighted(dw, in.rows, w, -2)
			checkGramExact(t, what+" GramWeighted", dw, in, w, -2)
			chkW(t, what+" GramWeighted")

			for k, r := range in.rows {
				for j, v := range r {
					if v != pat.f(k, j) {
						t.Fatalf("%s: row %d changed at %d", what, k, j)
					}
				}
				for i, v := range in.back[k] {
					if (i < k%8 || i >= k%8+n) && v != gramGuard {
						t.Fatalf("%s: guard of row %d changed", what, k)
					}
				}
			}
		}
	}
}

// TestGramSplitSameBits: the product split over goroutines
// (gramDenseSplit, called directly so that small shapes are split too)
// gives the bits of gramDense on shapes of one and several row and column
// blocks, for 2 to 7 goroutines (more than the panels at
// the smallest), and writes nothing outside dst's n x n block; GramRowsThreads
// above its size threshold equals GramRows.
func TestGramSplitSameBits(t *testing.T) {
	shapes := [][2]int{{1, 13}, {5, 24}, {40, 25}, {257, 64}, {300, 97}, {513, 141}, {77, 200}, {600, 259}}
	for _, sh := range shapes {
		l, n := sh[0], sh[1]
		in := newGramInput(l, n, func(k, j int) float64 { return math.Sin(float64(k*n + j + 1)) })
		want := NewDense(n, n)
		gramDense(want, l, n, func(i int) []float64 { return in.rows[i] }, nil)
		for threads := 2; threads <= 7; threads++ {
			what := fmt.Sprintf("%dx%d threads %d", l, n, threads)
			d, chk := guardedDst(n)
			for j := range n {
				clear(d.Row(j)[:n])
			}
			gramDenseSplit(d, in.rows, threads)
			chk(t, what)
			for i := range n {
				for j := i; j < n; j++ { // the upper triangle, all gramDense guarantees
					if math.Float64bits(d.Data[i*d.Stride+j]) != math.Float64bits(want.Data[i*n+j]) {
						t.Fatalf("%s: [%d][%d] = %v, gramDense %v", what, i, j, d.Data[i*d.Stride+j], want.Data[i*n+j])
					}
				}
			}
		}
	}
	l, n := 4000, 100 // l n^2 / 2 above gramSplitMin
	in := newGramInput(l, n, gramInt)
	want, got := NewDense(n, n), NewDense(n, n)
	GramRows(want, in.rows, 0.5)
	GramRowsThreads(got, in.rows, 0.5, 2)
	for i := range want.Data {
		if math.Float64bits(got.Data[i]) != math.Float64bits(want.Data[i]) {
			t.Fatalf("GramRowsThreads differs from GramRows at %d: %v, %v", i, got.Data[i], want.Data[i])
		}
	}
	checkGramExact(t, "GramRowsThreads", got, in, nil, 0.5)
}

// TestGramOverwrites: whatever dst held before (NaN here) does not leak
// into the result, on both paths.
func TestGramOverwrites(t *testing.T) {
	for _, f := range []func(k, j int) float64{gramInt, gramSparseInt} {
		in := newGramInput(29, 31, f)
		d, _ := guardedDst(31)
		for i := 0; i < 31; i++ {
			for j := 0; j < 31; j++ {
				d.Data[i*d.Stride+j] = math.NaN()
			}
		}
		GramRows(d, in.rows, 0.5)
		checkGramExact(t, "NaN-filled dst", d, in, nil, 0.5)
	}
}

// gramDot2 is sum_k a_ki a_kj in twice the working precision (Ogita, Rump
// and Oishi's Dot2: error-free products and sums), rounded once, and
// sum_k |a_ki a_kj|. Its own error is below u |s| + gamma_l^2 sum |a a|,
// negligible against the bound tested.
func gramDot2(rows [][]float64, i, j int) (s, abs float64) {
	var hi, lo float64
	for _, r := range rows {
		p := float64(r[i] * r[j]) // rounded: no fused multiply-add with the sum
		pe := math.FMA(r[i], r[j], -p)
		t := hi + p
		z := t - hi
		e := (hi - (t - z)) + (p - z)
		hi = t
		lo += e + pe
		abs += math.Abs(p)
	}
	return hi + lo, abs
}

// TestGramRoundingBound: on inexact data of mixed sign and magnitude every
// entry of GramRows is within
//
//	gamma_{l+1} * |scale| * sum_k |a_ki a_kj|  (+ u |entry| when scale is
//	not a power of two: one more rounding),
//
// gamma_m = vec.DotErrorBound(m), of the exact value (compensated
// reference), whatever the summation order of the path.
func TestGramRoundingBound(t *testing.T) {
	shapes := [][2]int{{131, 97}, {300, 300}, {517, 141}, {1000, 20}, {7, 50}}
	for _, sh := range shapes {
		l, n := sh[0], sh[1]
		in := newGramInput(l, n, func(k, j int) float64 {
			return math.Sin(float64(k*n+j+1)) * math.Exp(float64((k+3*j)%11-5))
		})
		for _, scale := range []float64{0.5, 1 / 3.0} {
			d, _ := guardedDst(n)
			GramRows(d, in.rows, scale)
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					s, abs := gramDot2(in.rows, i, j)
					got := d.Data[i*d.Stride+j]
					bound := vec.DotErrorBound(l+1)*math.Abs(scale)*abs + 0x1p-53*math.Abs(scale*s)
					if err := math.Abs(got - scale*s); err > bound {
						t.Fatalf("%dx%d scale %v [%d][%d]: error %g > bound %g", l, n, scale, i, j, err, bound)
					}
				}
			}
		}
	}
}

// TestGramSpecials: a NaN in A makes its column's row and column of the
// result NaN; an Inf makes its entries Inf, or NaN where it meets a zero
// in the same row of A; on the blocked path, at positions in full and edge
// blocks and in the first and a later row block.
func TestGramSpecials(t *testing.T) {
	for _, sh := range [][2]int{{40, 30}, {300, 29}, {20, 7}} {
		l, n := sh[0], sh[1]
		for _, pos := range [][3]int{{0, 1, 2}, {l - 1, n - 1, 0}, {l / 2, n / 2, n - 1}} {
			k, i, z := pos[0], pos[1], pos[2]
			f := func(kk, j int) float64 {
				switch {
				case kk == k && j == i:
					return math.Inf(1)
				case kk == k && j == z:
					return 0
				case kk == (k+1)%l && j == (i+3)%n:
					return math.NaN()
				}
				return float64((kk+j)%3 + 1) // positive: no Inf - Inf
			}
			in := newGramInput(l, n, f)
			d, chk := guardedDst(n)
			GramRows(d, in.rows, 0.5)
			chk(t, "specials")
			for p := 0; p < n; p++ {
				for q := 0; q < n; q++ {
					var s float64
					for kk := 0; kk < l; kk++ {
						s += f(kk, p) * f(kk, q)
					}
					want, got := 0.5*s, d.Data[p*d.Stride+q]
					if math.IsNaN(want) != math.IsNaN(got) || (!math.IsNaN(want) && want != got) {
						t.Fatalf("%dx%d special at %v: [%d][%d] = %v, want %v", l, n, pos, p, q, got, want)
					}
				}
			}
		}
	}
}

func TestGramPanics(t *testing.T) {
	rows := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	for _, tc := range []struct {
		name, fn string
		call     func()
	}{
		{"dst rows", "GramRows", func() { GramRows(NewDense(3, 2), rows, 1) }},
		{"row length", "GramRows", func() { GramRows(NewDense(3, 3), rows, 1) }},
		{"dst cols", "Gram", func() { NewDense(3, 2).Gram(NewDense(2, 3), 1) }},
		{"w length", "GramWeighted", func() { GramWeighted(NewDense(2, 2), rows, []float64{1, 2}, 1) }},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.fn) {
					t.Errorf("%s: panic %v, want one naming %s", tc.name, r, tc.fn)
				}
			}()
			tc.call()
		}()
	}
}

// TestGramAllocs: the by-rows path allocates nothing, the blocked path its
// one packing buffer, or none with at most 28 columns.
func TestGramAllocs(t *testing.T) {
	for _, tc := range []struct {
		f    func(k, j int) float64
		n    int
		want float64
	}{{gramSparseInt, 40, 0}, {gramInt, 40, 1}, {gramInt, 28, 0}} {
		in := newGramInput(300, tc.n, tc.f)
		d := NewDense(tc.n, tc.n)
		if n := testing.AllocsPerRun(5, func() { GramRows(d, in.rows, 1) }); n > tc.want {
			t.Errorf("GramRows allocates %v times, want %v", n, tc.want)
		}
	}
}

// gramDot4 is A'A as Dot4 over a copy of A by columns, entry (j, k) =
// scale * Dot(column j, column k): the baseline of BenchmarkGram.
func gramDot4(dst *Dense, a *Dense, scale float64) {
	l, n := a.Rows, a.Cols
	t := make([]float64, l*n)
	for i := 0; i < l; i++ {
		for j, v := range a.Row(i) {
			t[j*l+i] = v
		}
	}
	col := func(k int) []float64 { return t[k*l : (k+1)*l] }
	set := func(j, k int, v float64) {
		dst.Data[j*dst.Stride+k] = scale * v
		dst.Data[k*dst.Stride+j] = scale * v
	}
	for j := 0; j < n; j++ {
		cj := col(j)
		k := 0
		for ; k+4 <= j+1; k += 4 {
			d0, d1, d2, d3 := vec.Dot4(cj, col(k), col(k+1), col(k+2), col(k+3))
			set(j, k, d0)
			set(j, k+1, d1)
			set(j, k+2, d2)
			set(j, k+3, d3)
		}
		for ; k <= j; k++ {
			set(j, k, vec.Dot(cj, col(k)))
		}
	}
}

// rowsOf returns a's rows as slices of its storage.
func rowsOf(a *Dense) [][]float64 {
	rows := make([][]float64, a.Rows)
	for i := range rows {
		rows[i] = a.Row(i)
	}
	return rows
}

// BenchmarkGram: scale * A'A for dense l x n A, the blocked kernel
// (impl=tiled, Gram; impl=tiled-threads=2, GramRowsThreads on two
// goroutines) against Dot4 over copied columns (impl=dot4), in
// GFLOP/s counting l*n*(n+1) flops (the symmetric half). Under -short the
// largest size is l = 4e4 instead of 2e5.
func BenchmarkGram(b *testing.B) {
	big := 200000
	if testing.Short() {
		big = 40000
	}
	for _, sz := range [][2]int{{200, 20}, {1000, 100}, {20000, 400}, {big, 400}} {
		l, n := sz[0], sz[1]
		a := NewDense(l, n)
		for i := range a.Data {
			a.Data[i] = math.Sin(float64(i + 1))
		}
		g := NewDense(n, n)
		rows := rowsOf(a)
		for _, impl := range []struct {
			name string
			f    func()
		}{
			{"dot4", func() { gramDot4(g, a, 1) }},
			{"tiled", func() { a.Gram(g, 1) }},
			{"tiled-threads=2", func() { GramRowsThreads(g, rows, 1, 2) }},
		} {
			b.Run(fmt.Sprintf("l=%d/n=%d/impl=%s", l, n, impl.name), func(b *testing.B) {
				for b.Loop() {
					impl.f()
				}
				b.ReportMetric(float64(l)*float64(n)*float64(n+1)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// TestGramQuadSameBits: with the 24 x 8 blocks of vec.TileMulAddQuad
// (tileQuad, on the avx512 path) GramRows, GramWeighted and the split
// product give the bits of the 4 x 12 tiles alone, on inexact data at
// shapes whose panels pair up or not, inside the padded block and out,
// across row and column blocks. (Where tileQuad is false both runs are
// the 4 x 12 tiles.)
func TestGramQuadSameBits(t *testing.T) {
	defer func(q bool) { tileQuad = q }(tileQuad)
	quad := tileQuad
	for _, sh := range [][2]int{{5, 24}, {40, 25}, {33, 36}, {70, 47}, {257, 64}, {300, 97}, {513, 141}, {600, 259}} {
		l, n := sh[0], sh[1]
		in := newGramInput(l, n, func(k, j int) float64 { return math.Sin(float64(k*n + j + 1)) })
		w := make([]float64, l)
		for k := range w {
			w[k] = gramWeight(k)
		}
		run := func(q bool) [3]*Dense {
			tileQuad = q
			var d [3]*Dense
			for i := range d {
				d[i] = NewDense(n, n)
			}
			GramRows(d[0], in.rows, 1)
			GramWeighted(d[1], in.rows, w, 1)
			gramDenseSplit(d[2], in.rows, 3)
			return d
		}
		want, got := run(false), run(quad)
		for v := range want {
			for i := range want[v].Data {
				if math.Float64bits(got[v].Data[i]) != math.Float64bits(want[v].Data[i]) {
					t.Fatalf("%dx%d product %d: [%d][%d] = %v, %v by 4 x 12 tiles", l, n, v, i/n, i%n, got[v].Data[i], want[v].Data[i])
				}
			}
		}
	}
}
