//go:build !purego

package vec

// dotSparseAsmMin is the shortest row DotSparse hands to the gather kernel:
// below it the fixed cost of the kernel (range checks, reduction, call)
// outweighs what the gathers save, and the Go loop is as fast or faster
// (BenchmarkDotSparse at nnz 16 and 256).
const dotSparseAsmMin = 128

// dotSparseAVX512Min is the shortest row DotSparse hands to the AVX-512
// kernel on the avx512 path: its fixed cost (call, range checks, reduction,
// the masked tail) is about that of the Go loop at 16 to 20 entries, and
// from 24 on the kernel is the faster (BenchmarkDotSparseShort). Shorter
// rows run the Go loop.
const dotSparseAVX512Min = 24

// dotSparseAsm is DotSparse on the avx2 path, at every row length (the Path
// runs it so, for the tests). The assembly checks every
// block of indices against len(x) before it gathers through them and
// reports a block with an index outside as !ok, having read nothing
// outside x; the generic code then runs and panics at that index with Go's
// own error, so both paths fail alike.
func dotSparseAsm(idx []int32, val, x []float64) float64 {
	val = val[:len(idx)]
	if len(x) > 0 {
		// Indices are compared as unsigned 32-bit numbers with last, so a
		// negative one is out of range; x beyond 2^31 elements cannot be
		// reached by an int32 anyway.
		last := uint32(min(len(x), 1<<31) - 1)
		if d, ok := dotSparseAVX2(idx, val, x, last); ok {
			return d
		}
	}
	return dotSparseGeneric(idx, val, x)
}

// dotSparseAVX2 returns the sum of val[k]*x[idx[k]] (sparse_amd64.s), or
// ok = false as soon as a block of indices holds one above last (as an
// unsigned number). len(val) must be len(idx); last must be below len(x).
//
//go:noescape
func dotSparseAVX2(idx []int32, val, x []float64, last uint32) (dot float64, ok bool)

// dotSparseAVX512Path is DotSparse on the avx512 path, at every row length
// (the Path runs it so, for the tests). Like dotSparseAsm it leaves a row
// with an index outside x to the generic code, which panics at that index.
func dotSparseAVX512Path(idx []int32, val, x []float64) float64 {
	val = val[:len(idx)]
	if len(x) > 0 {
		last := uint32(min(len(x), 1<<31) - 1) // as in dotSparseAsm
		if d, ok := dotSparseAVX512(idx, val, x, last); ok {
			return d
		}
	}
	return dotSparseGeneric(idx, val, x)
}

// dotSparseAVX512 returns the sum of val[k]*x[idx[k]]
// (sparse_avx512_amd64.s), or ok = false as soon as a block of indices holds
// one above last (as an unsigned number). len(val) must be len(idx); last
// must be below len(x).
//
//go:noescape
func dotSparseAVX512(idx []int32, val, x []float64, last uint32) (dot float64, ok bool)
