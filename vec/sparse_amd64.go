//go:build !purego

package vec

import "golang.org/x/sys/cpu"

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

// axpySparseAVX512Min is the shortest row AxpySparse hands to the AVX-512
// kernel on the avx512 path. Its fixed cost (call, checks, the Go call that
// finishes the row) puts the crossover with the Go loop between 24 entries
// (timing the two alternately) and 48 (BenchmarkAxpySparseShort, which runs
// each alone); from 48 on the kernel is faster in both, and at 32 it is
// within a few percent in either direction. Shorter rows run the Go loop,
// which gives the same bits.
const axpySparseAVX512Min = 32

// useAxpySparseAVX512 is whether axpySparseAVX512Path can run the AVX-512
// kernel, which finds repeated indices with VPCONFLICTD (AVX-512 CD, which
// the avx512 path does not otherwise require).
var useAxpySparseAVX512 = useAVX512 && cpu.X86.HasAVX512CD

// axpySparseAVX512Path is AxpySparse on the avx512 path, at every row length
// (the Path runs it so, for the tests); without AVX-512 CD it runs the Go
// loop. The kernel gives y the bits of the Go loop: it multiplies and adds
// with separate roundings, in the Go loop's operand order, and runs blocks
// with a repeated index one element at a time, in order. It stops before a
// block with an index outside y; the Go loop then finishes the row, making
// the updates before that index and panicking at it with Go's own error.
func axpySparseAVX512Path(alpha float64, idx []int32, val, y []float64) {
	val = val[:len(idx)]
	k := 0
	if useAxpySparseAVX512 && len(y) > 0 {
		k = axpySparseAVX512(alpha, idx, val, y, uint32(min(len(y), 1<<31)-1))
	}
	axpySparseGeneric(alpha, idx[k:], val[k:], y)
}

// axpySparseAVX512 does y[idx[k]] += alpha*val[k] (sparse_avx512_amd64.s)
// for k from 0 until the first block of indices (eight, or the last 1..7)
// holding one above last (as an unsigned number), and returns that k
// (len(idx) if none).
// len(val) must be len(idx); last must be below len(y).
//
//go:noescape
func axpySparseAVX512(alpha float64, idx []int32, val, y []float64, last uint32) (done int)
