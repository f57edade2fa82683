package vec

import (
	"math"
	"slices"
	"testing"
)

// TestPrefetch: Prefetch changes nothing, at every index in range and
// outside it (negative, at the length, far beyond, on nil and empty
// slices), on every element type the solver passes it, and does not
// allocate.
func TestPrefetch(t *testing.T) {
	type entry struct {
		p, y float64
		k    int
	}
	f := []float64{1, math.NaN(), math.Inf(-1), -0.0, 5}
	i32 := []int32{3, -1, math.MaxInt32}
	in := []int{7, 0, -7}
	st := []entry{{1, 2, 3}, {4, 5, 6}}
	want := [][]byte{bitsOf(f), bitsOfInts(i32), bitsOfInts(in)}
	idx := []int{math.MinInt, -1, 0, 1, 2, 3, 4, 5, 6, 1 << 30, math.MaxInt}
	allocs := testing.AllocsPerRun(10, func() {
		for _, i := range idx {
			Prefetch(f, i)
			Prefetch(f[1:3], i) // an interior window: the guard elements around it stay
			Prefetch(i32, i)
			Prefetch(in, i)
			Prefetch(st, i)
			Prefetch([]float64(nil), i)
			Prefetch(f[:0], i)
		}
	})
	if allocs != 0 {
		t.Errorf("Prefetch allocates %v times a run", allocs)
	}
	got := [][]byte{bitsOf(f), bitsOfInts(i32), bitsOfInts(in)}
	for k := range want {
		if !slices.Equal(got[k], want[k]) {
			t.Errorf("slice %d changed by Prefetch", k)
		}
	}
	if st[0] != (entry{1, 2, 3}) || st[1] != (entry{4, 5, 6}) {
		t.Errorf("struct slice changed by Prefetch: %v", st)
	}
}

// bitsOf returns the bytes of x's bit patterns (NaN compares by its bits).
func bitsOf(x []float64) []byte {
	var b []byte
	for _, v := range x {
		u := math.Float64bits(v)
		for s := 0; s < 64; s += 8 {
			b = append(b, byte(u>>s))
		}
	}
	return b
}

// bitsOfInts returns the bytes of x's values.
func bitsOfInts[T int | int32](x []T) []byte {
	var b []byte
	for _, v := range x {
		u := uint64(v)
		for s := 0; s < 64; s += 8 {
			b = append(b, byte(u>>s))
		}
	}
	return b
}
