package vec

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// vsRow returns nnz distinct indices in [0, n), sorted, drawn from a
// generator seeded with seed, and values for them.
func vsRow(seed uint64, nnz, n int) ([]int32, []float64) {
	r := rand.New(rand.NewPCG(seed, 31))
	seen := make(map[int32]bool, nnz)
	idx := make([]int32, 0, nnz)
	for len(idx) < nnz {
		j := int32(r.IntN(n))
		if !seen[j] {
			seen[j] = true
			idx = append(idx, j)
		}
	}
	slices.Sort(idx)
	val := make([]float64, nnz)
	for k := range val {
		val[k] = r.Float64() - 0.5
	}
	return idx, val
}

// benchSparse runs one sparse kernel on every path for rows of 16, 256 and
// 4096 entries spread over dense vectors of 1e4, 1e5 and 1e6, reporting MB/s
// (bytes of idx, val and the touched entries of the dense vector, read and
// written, per call) and ns per row entry. The paths run one after the
// other for each row, so that on a shared machine the load changes little
// between the runs compared.
func benchSparse(b *testing.B, bytesPerElem int, body func(p Path, idx []int32, val, x []float64)) {
	for _, n := range []int{10000, 100000, 1000000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i%13)*0.1 - 0.6
		}
		for _, nnz := range []int{16, 256, 4096} {
			idx, val := vsRow(uint64(nnz), nnz, n)
			for _, p := range pathsHook() {
				b.Run(fmt.Sprintf("%s/nnz=%d/n=%d", p.Name, nnz, n), func(b *testing.B) {
					b.SetBytes(int64(bytesPerElem * nnz))
					for b.Loop() {
						body(p, idx, val, x)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nnz), "ns/elem")
				})
			}
		}
	}
}

func BenchmarkDotSparse(b *testing.B) {
	benchSparse(b, 20, func(p Path, idx []int32, val, x []float64) { sink += p.DotSparse(idx, val, x) })
}

func BenchmarkAxpySparse(b *testing.B) {
	benchSparse(b, 28, func(p Path, idx []int32, val, y []float64) { p.AxpySparse(1e-9, idx, val, y) })
}

var pathsHook = Paths

// benchSparseShort compares the paths on the short rows where the fixed
// cost of the assembly kernels matters, for the length thresholds
// dotSparseAsmMin, dotSparseAVX512Min and axpySparseAVX512Min, with a dense
// vector that stays in cache (1e4) and one that does not (1e6).
func benchSparseShort(b *testing.B, body func(p Path, idx []int32, val, x []float64)) {
	for _, n := range []int{10000, 1000000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i%13)*0.1 - 0.6
		}
		for _, nnz := range []int{8, 16, 24, 32, 48, 64, 96, 128, 192} {
			idx, val := vsRow(uint64(nnz), nnz, n)
			for _, p := range pathsHook() {
				b.Run(fmt.Sprintf("%s/nnz=%d/n=%d", p.Name, nnz, n), func(b *testing.B) {
					for b.Loop() {
						body(p, idx, val, x)
					}
				})
			}
		}
	}
}

func BenchmarkDotSparseShort(b *testing.B) {
	benchSparseShort(b, func(p Path, idx []int32, val, x []float64) { sink += p.DotSparse(idx, val, x) })
}

func BenchmarkAxpySparseShort(b *testing.B) {
	benchSparseShort(b, func(p Path, idx []int32, val, y []float64) { p.AxpySparse(1e-9, idx, val, y) })
}
