package vec

import (
	"math"
	"testing"
	"unsafe"
)

// TestReductionsSameBitsEveryOffset: on inexact data (where the summation
// order shows in the bits, unlike the integer data of
// TestDot4EveryLengthAndOffset and TestSumSqDotEveryLengthAndOffset), Dot,
// Dot4 and SumSqDot on every path return the same bits with their slices at
// every offset 0..7 (each misaligned differently) as at offset 0, and are
// within DotErrorBound(n) of the exact values.
func TestReductionsSameBitsEveryOffset(t *testing.T) {
	lengths := []int{}
	for n := 0; n <= 140; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, 1000, 1031)
	same := func(a, b []float64) bool {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	for _, n := range lengths {
		var v [5][]float64
		for j := range v {
			v[j] = make([]float64, n)
			for i := range v[j] {
				v[j][i] = vtWide(7*j+1, i)
			}
		}
		for _, p := range Paths() {
			var first []float64
			for off := 0; off < 8; off++ {
				var s [5][]float64
				for j := range s {
					s[j], _ = vtGuarded(n, (off+3*j)%8, func(i int) float64 { return v[j][i] })
				}
				d0, d1, d2, d3 := p.Dot4(s[0], s[1], s[2], s[3], s[4])
				ss, sd := p.SumSqDot(s[0], s[1])
				got := []float64{p.Dot(s[0], s[1]), d0, d1, d2, d3, ss, sd}
				if off == 0 {
					first = got
					for k, y := range [][]float64{v[1], v[1], v[2], v[3], v[4], v[0], v[1]} {
						ex, abs := vtExactDot(v[0], y)
						if err := math.Abs(got[k] - ex); !(err <= DotErrorBound(n)*abs*1.01) {
							t.Fatalf("%s n=%d result %d (Dot, Dot4 d0..d3, SumSqDot ss, dot): error %.3e > bound", p.Name, n, k, err)
						}
					}
					continue
				}
				if !same(got, first) {
					t.Fatalf("%s n=%d off=%d: Dot, Dot4, SumSqDot = %v, at offset 0 %v", p.Name, n, off, got, first)
				}
			}
		}
	}
}

// TestDot4SameBitsAlignedOrNot: the avx512 Dot4 takes a different loop
// when all five vectors start on a 64-byte boundary (whole-vector loads)
// than when one does not (loads by halves); both must give the same bits,
// on every path, for every length up to 300 and every placement: all
// aligned, one vector at a time 8 or 32 bytes off, and all off by 32.
func TestDot4SameBitsAlignedOrNot(t *testing.T) {
	type placement [5]int
	places := []placement{{0, 0, 0, 0, 0}, {4, 4, 4, 4, 4}, {1, 3, 5, 7, 2}}
	for j := range 5 {
		for _, off := range []int{1, 4} {
			var p placement
			p[j] = off
			places = append(places, p)
		}
	}
	for n := 0; n <= 300; n++ {
		var v [5][]float64
		for j := range v {
			v[j] = make([]float64, n)
			for i := range v[j] {
				v[j][i] = vtWide(5*j+2, i)
			}
		}
		for _, p := range Paths() {
			var first [4]float64
			for k, pl := range places {
				var s [5][]float64
				for j := range s {
					s[j] = vtLineAt(v[j], pl[j])
				}
				var got [4]float64
				got[0], got[1], got[2], got[3] = p.Dot4(s[0], s[1], s[2], s[3], s[4])
				if k == 0 {
					first = got
					continue
				}
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(first[i]) {
						t.Fatalf("%s n=%d placement %v: d%d = %v, all aligned %v", p.Name, n, pl, i, got[i], first[i])
					}
				}
			}
		}
	}
}

// vtLineAt returns a copy of v that starts off elements past a 64-byte
// (cache line) boundary.
func vtLineAt(v []float64, off int) []float64 {
	back := make([]float64, len(v)+off+8)
	start := 0
	for uintptr(unsafe.Pointer(&back[start]))%64 != 0 {
		start++
	}
	s := back[start+off : start+off+len(v) : start+off+len(v)]
	copy(s, v)
	return s
}
