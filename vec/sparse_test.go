package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// Tests of DotSparse and AxpySparse on every path: exact results on
// integer data at every row length 0..70 and some long ones, every offset
// 0..7 of the slices, indices at both ends of the dense vector and in every
// lane of the gathers, repeated indices; rounding bounds on inexact data;
// AxpySparse bit for bit as Axpy on the same path; special values; and
// out-of-range indices, which must panic as Go's index expression does and
// touch nothing outside the vectors. Helpers (vtGuarded, vtVal, vtWide,
// vtExactDot) are in vec_test.go; the guard-page test is in
// sparse_unix_test.go.

// vsLengths are the row lengths (nnz) the sparse kernels are tested at:
// every length through the 16-element loop, the 4-element loop and the
// scalar tail several times over, and a few longer rows.
func vsLengths() []int {
	var ls []int
	for n := 0; n <= 70; n++ {
		ls = append(ls, n)
	}
	ls = append(ls, 255, 256, 257, 1000, 4099)
	if !testing.Short() {
		ls = append(ls, 100003)
	}
	return ls
}

// vsGuardedIdx returns an index slice of length nnz at offset off into a
// backing array of guard values, and a function that checks that neither
// the indices nor the guards changed (idx is read-only for both kernels).
func vsGuardedIdx(nnz, off int, fill func(k int) int32) ([]int32, func(t *testing.T, what string)) {
	const guard, pad = -0x2152_4111, 9
	back := make([]int32, off+nnz+pad)
	for i := range back {
		back[i] = guard
	}
	s := back[off : off+nnz : off+nnz]
	for k := range s {
		s[k] = fill(k)
	}
	want := append([]int32(nil), back...)
	return s, func(t *testing.T, what string) {
		t.Helper()
		for i := range back {
			if back[i] != want[i] {
				t.Fatalf("%s: idx backing [%d] (slice at [%d, %d)) changed from %d to %d", what, i, off, off+nnz, want[i], back[i])
			}
		}
	}
}

// vsSpread is an index into [0, n) for entry k of a row: both ends of the
// dense vector in turn at every position mod 4 (every gather lane), and
// elsewhere a scattered walk that repeats indices when n is small.
func vsSpread(k, n, off int) int32 {
	switch (k + off) % 5 {
	case 0:
		return int32(n - 1)
	case 3:
		return 0
	}
	return int32((k*k*7 + 3*k + off) % n)
}

// vsDistinct returns nnz distinct indices in [0, n) in random order.
func vsDistinct(r *rand.Rand, nnz, n int) []int32 {
	perm := r.Perm(n)[:nnz]
	idx := make([]int32, nnz)
	for k, j := range perm {
		idx[k] = int32(j)
	}
	return idx
}

// TestDotSparseExactOnIntegers: on integer data (every product and partial
// sum exact) DotSparse is exact on every path, at every row length of
// vsLengths, offsets 0..7 of idx, val and x (each misaligned differently),
// dense vectors from one element (every index repeated) to wider than the
// row, and indices at both ends of x in every lane. Guards survive, inputs
// are unchanged, and a second call gives the same bits.
func TestDotSparseExactOnIntegers(t *testing.T) {
	for _, p := range Paths() {
		for _, nnz := range vsLengths() {
			for off := 0; off < 8; off++ {
				n := 1 + (nnz*(off+1))%(2*nnz+3) // 1 when nnz = 0, otherwise 1..2nnz+2
				idx, chkIdx := vsGuardedIdx(nnz, off, func(k int) int32 { return vsSpread(k, n, off) })
				val, chkVal := vtGuarded(nnz, (off+3)%8, func(k int) float64 { return vtVal(1, k) })
				x, chkX := vtGuarded(n, (off+6)%8, func(i int) float64 { return vtVal(2, i) })
				var want int64
				for k, j := range idx {
					want += int64(vtVal(1, k)) * int64(vtVal(2, int(j)))
				}
				got := p.DotSparse(idx, val, x)
				if got != float64(want) {
					t.Fatalf("%s DotSparse nnz=%d n=%d off=%d: %v, want %v", p.Name, nnz, n, off, got, want)
				}
				if again := p.DotSparse(idx, val, x); math.Float64bits(again) != math.Float64bits(got) {
					t.Fatalf("%s DotSparse nnz=%d n=%d off=%d: %v, then %v", p.Name, nnz, n, off, got, again)
				}
				for k := range val {
					if val[k] != vtVal(1, k) {
						t.Fatalf("%s DotSparse nnz=%d off=%d: val changed at %d", p.Name, nnz, off, k)
					}
				}
				for i := range x {
					if x[i] != vtVal(2, i) {
						t.Fatalf("%s DotSparse nnz=%d off=%d: x changed at %d", p.Name, nnz, off, i)
					}
				}
				chkIdx(t, p.Name+" DotSparse idx")
				chkVal(t, p.Name+" DotSparse val")
				chkX(t, p.Name+" DotSparse x")
			}
		}
	}
}

// TestDotSparseWithinBound: on inexact data every path is within
// DotErrorBound(nnz) * sum_k |val[k] x[idx[k]]| of the exact (big.Float)
// value, so within twice that of the generic path, for rows of every
// length 0..300 and longer, with distinct and with repeated indices; x and
// val may be the same slice.
func TestDotSparseWithinBound(t *testing.T) {
	lengths := []int{1000, 4099}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const n = 5000
	x := make([]float64, n)
	for i := range x {
		x[i] = vtWide(3, i)
	}
	for _, nnz := range lengths {
		for _, distinct := range []bool{true, false} {
			idx := vsDistinct(r, nnz, n)
			if !distinct {
				for k := range idx {
					idx[k] = int32(r.IntN(nnz/3 + 1))
				}
			}
			val := make([]float64, nnz)
			gathered := make([]float64, nnz)
			for k := range val {
				val[k] = vtWide(4, k)
				gathered[k] = x[idx[k]]
			}
			exact, abs := vtExactDot(val, gathered)
			bound := DotErrorBound(nnz) * abs * 1.01 // 1.01: abs's own rounding
			var generic float64
			for _, p := range Paths() {
				got := p.DotSparse(idx, val, x)
				if p.Name == "generic" {
					generic = got
				}
				if err := math.Abs(got - exact); !(err <= bound) {
					t.Errorf("%s DotSparse nnz=%d distinct=%v: |dot - exact| = %.3e > %.3e", p.Name, nnz, distinct, err, bound)
				}
				if d := math.Abs(got - generic); !(d <= 2*bound) {
					t.Errorf("%s DotSparse nnz=%d distinct=%v: differs from generic by %.3e > %.3e", p.Name, nnz, distinct, d, 2*bound)
				}
			}
		}
	}
	// val the same memory as x: the squared norm of x's first entries.
	for _, p := range Paths() {
		idx := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
		v := []float64{3, -1, 2, 5, 1, -4, 2, 2, 1, 7, -3, 1, 1, 2, -2, 6, 1, 1, 3}
		var want float64
		for _, e := range v {
			want += e * e
		}
		if got := p.DotSparse(idx, v, v); got != want {
			t.Errorf("%s DotSparse(idx, v, v): %v, want %v", p.Name, got, want)
		}
	}
}

// TestAxpySparseAsAxpy: with distinct indices, in random order, AxpySparse
// on every path gives each y[idx[k]] exactly the bits the generic path's
// Axpy gives an element whose x is val[k], on inexact data, at every row
// length and offset;
// entries of y no index names keep their bits (here -0 and a NaN with a
// payload, which an Axpy by 0 would not keep), guards survive and idx and
// val are unchanged.
func TestAxpySparseAsAxpy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	negZero := math.Copysign(0, -1)
	untouched := func(i int) float64 {
		if i%2 == 0 {
			return negZero
		}
		return math.Float64frombits(0x7ff8_0000_0000_1234)
	}
	g := Paths()[0]
	for _, p := range Paths() {
		for _, nnz := range vsLengths() {
			for off := 0; off < 8; off++ {
				n := nnz + 1 + off*nnz/4
				perm := vsDistinct(r, nnz, n)
				idx, chkIdx := vsGuardedIdx(nnz, off, func(k int) int32 { return perm[k] })
				val, chkVal := vtGuarded(nnz, (off+5)%8, func(k int) float64 { return vtWide(5, k) })
				inRow := make([]bool, n)
				for _, j := range perm {
					inRow[j] = true
				}
				y0 := make([]float64, n)
				for i := range y0 {
					y0[i] = untouched(i)
					if inRow[i] {
						y0[i] = vtWide(6, i)
					}
				}
				y, chkY := vtGuarded(n, 7-off, func(i int) float64 { return y0[i] })
				const alpha = -0.3
				p.AxpySparse(alpha, idx, val, y)

				// The dense reference: x holds val at the row's columns.
				xd := make([]float64, n)
				for k, j := range perm {
					xd[j] = val[k]
				}
				yd := append([]float64(nil), y0...)
				g.Axpy(alpha, xd, yd)
				for i := range y {
					want := y0[i]
					if inRow[i] {
						want = yd[i]
					}
					if math.Float64bits(y[i]) != math.Float64bits(want) {
						t.Fatalf("%s AxpySparse nnz=%d n=%d off=%d: y[%d] = %v, want %v (in row: %v)", p.Name, nnz, n, off, i, y[i], want, inRow[i])
					}
				}
				for k := range val {
					if val[k] != vtWide(5, k) {
						t.Fatalf("%s AxpySparse nnz=%d off=%d: val changed at %d", p.Name, nnz, off, k)
					}
				}
				chkIdx(t, p.Name+" AxpySparse idx")
				chkVal(t, p.Name+" AxpySparse val")
				chkY(t, p.Name+" AxpySparse y")
			}
		}
	}
}

// TestAxpySparseRepeatedIndices: a repeated index adds each of its values in
// turn, in the order of the row, each addition rounded as the generic
// path's Axpy rounds (the reference applies it to one element at a time);
// on integer data the result is exact. Dense vectors of 1..5 entries make
// every index repeat, in every lane.
func TestAxpySparseRepeatedIndices(t *testing.T) {
	g := Paths()[0]
	for _, p := range Paths() {
		for _, nnz := range vsLengths() {
			for n := 1; n <= 5; n++ {
				idx, chkIdx := vsGuardedIdx(nnz, nnz%8, func(k int) int32 { return vsSpread(k, n, nnz%3) })
				val := make([]float64, nnz)
				for k := range val {
					val[k] = vtWide(7, k)
				}
				y, chkY := vtGuarded(n, n%8, func(i int) float64 { return vtWide(8, i) })
				ref := append([]float64(nil), y...)
				const alpha = 0.7
				p.AxpySparse(alpha, idx, val, y)
				for k, j := range idx {
					g.Axpy(alpha, val[k:k+1], ref[j:j+1])
				}
				for i := range y {
					if math.Float64bits(y[i]) != math.Float64bits(ref[i]) {
						t.Fatalf("%s AxpySparse nnz=%d n=%d: y[%d] = %v, want %v (one update at a time)", p.Name, nnz, n, i, y[i], ref[i])
					}
				}
				chkIdx(t, p.Name+" AxpySparse idx")
				chkY(t, p.Name+" AxpySparse y")

				// Integer data: exact.
				yi := make([]float64, n)
				want := make([]int64, n)
				for i := range yi {
					yi[i] = vtVal(9, i)
					want[i] = int64(vtVal(9, i))
				}
				vi := make([]float64, nnz)
				for k, j := range idx {
					vi[k] = vtVal(10, k)
					want[j] += -3 * int64(vtVal(10, k))
				}
				p.AxpySparse(-3, idx, vi, yi)
				for i := range yi {
					if yi[i] != float64(want[i]) {
						t.Fatalf("%s AxpySparse integers nnz=%d n=%d: y[%d] = %v, want %d", p.Name, nnz, n, i, yi[i], want[i])
					}
				}
			}
		}
	}
}

// TestSparseSpecialValues puts NaN or Inf at every position of rows whose
// lengths exercise the 16- and 4-element loops and the scalar tail of the
// avx2 kernel, and the 32- and 8-element loops, the tail that reloads the
// last eight and the masked gather of rows under eight of the avx512 one,
// in val and at the indexed entry of x: NaN propagates, Inf times a
// positive number is Inf, Inf times 0 and Inf - Inf are NaN, and a NaN in
// an entry of x no index names changes nothing. AxpySparse puts the special value
// in the one entry it updates and leaves the others exact.
func TestSparseSpecialValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	ones := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	for _, p := range Paths() {
		for _, nnz := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 19, 20, 23, 24, 25, 31, 32, 33, 35, 36, 39, 40, 41, 71} {
			n := nnz + 2
			idx := make([]int32, nnz)
			for k := range idx {
				idx[k] = int32(nnz - 1 - k) // distinct, never n-2 or n-1
			}
			for k := 0; k < nnz; k++ {
				j := idx[k]
				for _, c := range []struct {
					name    string
					v, xj   float64 // val[k], x[idx[k]]
					want    float64
					special bool // want is NaN or Inf
				}{
					{"NaN in val", nan, 1, nan, true},
					{"NaN in x", 1, nan, nan, true},
					{"+Inf in val", inf, 1, inf, true},
					{"-Inf in x", 1, -inf, -inf, true},
					{"Inf*0", inf, 0, nan, true},
					{"0*Inf", 0, inf, nan, true},
					{"-0", math.Copysign(0, -1), 1, float64(nnz - 1), false},
				} {
					val, x := ones(nnz), ones(n)
					x[n-1] = nan // never indexed
					val[k], x[j] = c.v, c.xj
					got := p.DotSparse(idx, val, x)
					if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && got != c.want) {
						t.Fatalf("%s DotSparse nnz=%d %s at %d: %v, want %v", p.Name, nnz, c.name, k, got, c.want)
					}
				}
				if nnz > 1 {
					val, x := ones(nnz), ones(n)
					val[k], val[(k+3)%nnz] = inf, -inf
					if got := p.DotSparse(idx, val, x); (k+3)%nnz != k && !math.IsNaN(got) {
						t.Fatalf("%s DotSparse nnz=%d +Inf at %d, -Inf at %d: %v, want NaN", p.Name, nnz, k, (k+3)%nnz, got)
					}
				}
				for _, v := range []float64{nan, inf, -inf} {
					val, y := ones(nnz), ones(n)
					val[k] = v
					p.AxpySparse(1, idx, val, y)
					for i := range y {
						want := 2.0
						switch {
						case i == int(j):
							want = v
						case i == n-1 || !vsHas(idx, int32(i)):
							want = 1
						}
						if math.IsNaN(want) != math.IsNaN(y[i]) || (!math.IsNaN(want) && y[i] != want) {
							t.Fatalf("%s AxpySparse nnz=%d %v at %d: y[%d] = %v, want %v", p.Name, nnz, v, k, i, y[i], want)
						}
					}
				}
			}
		}
	}
}

func vsHas(idx []int32, j int32) bool {
	for _, i := range idx {
		if i == j {
			return true
		}
	}
	return false
}

// TestSparseSignedZeros: an empty row has dot +0; AxpySparse adds
// -1 * (+0) to -0 and keeps -0 ((-0) + (-0) = -0), in every position.
func TestSparseSignedZeros(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, p := range Paths() {
		for _, x := range [][]float64{nil, {1, 2}} {
			if got := p.DotSparse(nil, nil, x); got != 0 || math.Signbit(got) {
				t.Errorf("%s DotSparse of an empty row: %v, want +0", p.Name, got)
			}
		}
		for _, nnz := range []int{1, 3, 4, 5, 16, 17, 21, 35} {
			idx := make([]int32, nnz)
			for k := range idx {
				idx[k] = int32(nnz - 1 - k)
			}
			y := make([]float64, nnz)
			for i := range y {
				y[i] = negZero
			}
			p.AxpySparse(-1, idx, make([]float64, nnz), y)
			for i := range y {
				if y[i] != 0 || !math.Signbit(y[i]) {
					t.Fatalf("%s AxpySparse(-1, +0) into -0, nnz=%d: y[%d] = %v, want -0", p.Name, nnz, i, y[i])
				}
			}
		}
	}
}

// TestAxpySparseNaNPayloads: with NaNs of different payloads in alpha, val
// and y, every path leaves y with the bits of the generic path, so the
// assembly multiplies and adds with the NaN operand's payload, as the Go
// loop does; where two NaNs meet in one operation only NaN is required:
// Go leaves the operands' order to the compiler, and of two NaNs x86 keeps
// the first operand's (a race-detector build orders the Go loop's sum the
// other way). Rows of 1..40 indices, some repeated, run every block and
// tail of the kernels.
func TestAxpySparseNaNPayloads(t *testing.T) {
	nan := func(payload uint64) float64 { return math.Float64frombits(0x7ff8_0000_0000_0000 | payload) }
	g := Paths()[0]
	for _, p := range Paths() {
		for nnz := 1; nnz <= 40; nnz++ {
			for _, alpha := range []float64{1.5, nan(0xa1)} {
				idx := make([]int32, nnz)
				val := make([]float64, nnz)
				y0 := make([]float64, nnz+3)
				for k := range idx {
					idx[k] = int32((k * 7) % (nnz + 3))
					val[k] = vtWide(11, k)
					if k%3 != 1 {
						val[k] = nan(0xb00 + uint64(k))
					}
				}
				for i := range y0 {
					y0[i] = vtWide(12, i)
					if i%2 == 0 {
						y0[i] = nan(0xc00 + uint64(i))
					}
				}
				want := append([]float64(nil), y0...)
				g.AxpySparse(alpha, idx, val, want)
				y := append([]float64(nil), y0...)
				p.AxpySparse(alpha, idx, val, y)
				twoNaNs := vsTwoNaNs(alpha, idx, val, y0)
				for i := range y {
					if twoNaNs[i] && math.IsNaN(y[i]) && math.IsNaN(want[i]) {
						continue
					}
					if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
						t.Fatalf("%s AxpySparse nnz=%d alpha=%v: y[%d] = %#x, generic %#x", p.Name, nnz, alpha, i, math.Float64bits(y[i]), math.Float64bits(want[i]))
					}
				}
			}
		}
	}
}

// vsTwoNaNs reports, for each element of y0, whether AxpySparse(alpha, idx,
// val, y0) meets two NaNs in one operation there: a NaN alpha times a NaN
// val[k], or a NaN product added to a NaN y.
func vsTwoNaNs(alpha float64, idx []int32, val, y0 []float64) []bool {
	two := make([]bool, len(y0))
	y := append([]float64(nil), y0...)
	for k, j := range idx {
		prod := alpha * val[k]
		if math.IsNaN(alpha) && math.IsNaN(val[k]) || math.IsNaN(prod) && math.IsNaN(y[j]) {
			two[j] = true
		}
		y[j] += prod
	}
	return two
}

// vsPanic runs f and returns what it panicked with (nil if it returned).
func vsPanic(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// TestSparseIndexOutOfRange: an index below 0 or at or beyond the dense
// vector's length, at every position of rows that exercise every loop and
// tail of the avx2 and avx512 kernels, makes both kernels panic on every
// path with the runtime error Go's x[j] would raise, word for word.
// DotSparse touches nothing; AxpySparse has made the updates before the
// bad index and none after, and writes nothing outside y.
func TestSparseIndexOutOfRange(t *testing.T) {
	for _, p := range Paths() {
		for _, nnz := range []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 19, 20, 21, 23, 24, 25, 32, 35, 36, 39, 40, 51, 71} {
			n := nnz/2 + 1
			for k := 0; k < nnz; k++ {
				for _, bad := range []int32{-1, int32(n), int32(n + 1000), math.MaxInt32, math.MinInt32, -int32(n)} {
					idx := make([]int32, nnz)
					for i := range idx {
						idx[i] = int32(i % n)
					}
					idx[k] = bad
					val := make([]float64, nnz)
					for i := range val {
						val[i] = 1
					}
					x, chkX := vtGuarded(n, k%8, func(i int) float64 { return float64(i) })
					want := vsPanic(func() { _ = x[bad] })
					what := fmt.Sprintf("%s nnz=%d, idx[%d] = %d, len %d", p.Name, nnz, k, bad, n)

					got := vsPanic(func() { sink += p.DotSparse(idx, val, x) })
					if _, ok := got.(runtime.Error); !ok || fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%s DotSparse: panic %v, want %v", what, got, want)
					}
					chkX(t, what+" DotSparse x")

					got = vsPanic(func() { p.AxpySparse(1, idx, val, x) })
					if _, ok := got.(runtime.Error); !ok || fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%s AxpySparse: panic %v, want %v", what, got, want)
					}
					wantY := make([]float64, n)
					for i := range wantY {
						wantY[i] = float64(i)
					}
					for _, j := range idx[:k] {
						wantY[j]++
					}
					for i := range x {
						if x[i] != wantY[i] {
							t.Fatalf("%s AxpySparse: y[%d] = %v after the panic, want %v (updates before the bad index only)", what, i, x[i], wantY[i])
						}
					}
					chkX(t, what+" AxpySparse y")
				}
			}
		}
		// An empty dense vector: every index is out of range, no index is fine.
		if got := vsPanic(func() { sink += p.DotSparse([]int32{0}, []float64{1}, nil) }); got == nil {
			t.Errorf("%s DotSparse with an empty x: no panic", p.Name)
		}
		if got := vsPanic(func() { p.AxpySparse(1, []int32{0}, []float64{1}, nil) }); got == nil {
			t.Errorf("%s AxpySparse with an empty y: no panic", p.Name)
		}
		p.AxpySparse(1, nil, nil, nil)
	}
}

// TestSparseLengthMismatchPanics: idx and val of different lengths panic,
// with a message naming the kernel, before any index is used.
func TestSparseLengthMismatchPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"DotSparse":  func() { DotSparse(make([]int32, 3), make([]float64, 2), make([]float64, 5)) },
		"AxpySparse": func() { AxpySparse(1, make([]int32, 2), make([]float64, 3), make([]float64, 5)) },
	} {
		r := vsPanic(f)
		if r == nil || !strings.Contains(fmt.Sprint(r), name) || !strings.Contains(fmt.Sprint(r), "lengths differ") {
			t.Errorf("%s: panic %v, want a length message naming the kernel", name, r)
		}
	}
}

// TestSparseDispatch: the exported kernels run the path Impl names, except
// that DotSparse runs the Go loop of the generic path for rows shorter than
// that path's threshold (dotSparseAsmMin on avx2; on avx512 the avx2 kernel
// from dotSparseAsmMin and the Go loop below it for rows shorter than
// dotSparseAVX512Min), on both sides of each threshold.
func TestSparseDispatch(t *testing.T) {
	var p Path
	byName := map[string]Path{}
	for _, q := range Paths() {
		byName[q.Name] = q
		if q.Name == Impl() {
			p = q
		}
	}
	if p.DotSparse == nil {
		t.Fatalf("no path named %q in Paths()", Impl())
	}
	runs := func(nnz int) Path { // the path DotSparse runs at nnz
		switch {
		case p.Name == "avx512" && nnz >= dotSparseAVX512Min:
			return p
		case (p.Name == "avx512" || p.Name == "avx2") && nnz >= dotSparseAsmMin:
			return byName["avx2"]
		case p.Name == "avx512" || p.Name == "avx2":
			return Paths()[0] // short rows run the Go loop
		}
		return p
	}
	idx := []int32{4, 0, 9, 9, 3, 1, 7, 2, 8, 5, 6, 0, 4, 3, 2, 1, 9, 8, 7}
	val := make([]float64, len(idx))
	x := make([]float64, 10)
	for k := range val {
		val[k] = vtWide(1, k)
	}
	for i := range x {
		x[i] = vtWide(2, i)
	}
	for _, nnz := range []int{len(idx), dotSparseAVX512Min - 1, dotSparseAVX512Min, dotSparseAVX512Min + 1,
		dotSparseAsmMin - 1, dotSparseAsmMin, 300} {
		if nnz < 0 {
			continue
		}
		ri, rv := make([]int32, nnz), make([]float64, nnz)
		for k := range ri {
			ri[k], rv[k] = idx[k%len(idx)], vtWide(3, k)
		}
		q := runs(nnz)
		if a, b := DotSparse(ri, rv, x), q.DotSparse(ri, rv, x); math.Float64bits(a) != math.Float64bits(b) {
			t.Errorf("DotSparse nnz=%d: %v, %s path %v", nnz, a, q.Name, b)
		}
	}
	// AxpySparse gives the same bits at every length on every path, on both
	// sides of the avx512 kernel's threshold; repeated indices included.
	for _, nnz := range []int{len(idx), axpySparseAVX512Min - 1, axpySparseAVX512Min, axpySparseAVX512Min + 1, 300} {
		if nnz < 0 {
			continue
		}
		ri, rv := make([]int32, nnz), make([]float64, nnz)
		for k := range ri {
			ri[k], rv[k] = idx[k%len(idx)], vtWide(3, k)
		}
		y1, y2 := append([]float64(nil), x...), append([]float64(nil), x...)
		AxpySparse(0.3, ri, rv, y1)
		p.AxpySparse(0.3, ri, rv, y2)
		for i := range y1 {
			if math.Float64bits(y1[i]) != math.Float64bits(y2[i]) {
				t.Errorf("AxpySparse nnz=%d: y[%d] = %v, %s path %v", nnz, i, y1[i], p.Name, y2[i])
			}
		}
	}
}

// TestSparseKernelsDoNotAllocate, at a row length that runs every loop of
// the avx2 assembly (16-, 4-element and scalar tail) and of the avx512 one
// (32-, 8-element and the reloaded last eight).
func TestSparseKernelsDoNotAllocate(t *testing.T) {
	const nnz = 16*3 + 4 + 3
	idx := make([]int32, nnz)
	val := make([]float64, nnz)
	y := make([]float64, 2*nnz)
	for k := range idx {
		idx[k] = int32(k * 2)
	}
	for name, f := range map[string]func(){
		"DotSparse":  func() { sink += DotSparse(idx, val, y) },
		"AxpySparse": func() { AxpySparse(1e-3, idx, val, y) },
	} {
		if allocs := testing.AllocsPerRun(100, f); allocs != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, allocs)
		}
	}
}
