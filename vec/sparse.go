package vec

// Sparse rows. A sparse row is a pair of slices of equal length: column
// indices idx (int32, the width rows are stored with) and the values val
// at those columns, val[k] at column idx[k]. The kernels below combine one
// such row with a dense vector: DotSparse gathers, AxpySparse scatters.
// Neither needs the indices sorted or distinct; sorted indices only make
// the accesses to the dense vector cheaper.

// DotSparse returns the sum over k of val[k]*x[idx[k]]: the product of the
// sparse row (idx, val) with the dense vector x.
//
// It panics, with a message naming DotSparse, if len(idx) != len(val).
// Every idx[k] must lie in [0, len(x)): an index outside panics on every
// path with the runtime error of the Go index expression x[idx[k]], and
// nothing outside x is read (the assembly checks each block of indices
// before it loads through them).
//
// The result is within DotErrorBound(len(idx)) * sum_k |val[k] x[idx[k]]|
// of the exact value; it need not equal the generic path bit for bit (the
// avx2 and avx512 paths fuse multiply-adds and sum in other orders). A NaN
// in val or at an indexed position of x makes the result NaN, as does Inf
// times 0; entries of x no index names are not read. The result is deterministic:
// the same inputs on the same path give the same bits. An empty row gives
// +0. Repeated indices read the same entry again. x and val may share
// memory (DotSparse only reads). DotSparse does not allocate.
//
// On the avx512 path rows of at least dotSparseAVX512Min entries use the
// AVX-512 kernel, on the avx2 path rows of at least dotSparseAsmMin the
// gather kernel, and shorter rows the Go loop of the generic path: the
// fastest at each length (BenchmarkDotSparse, BenchmarkDotSparseShort).
// Which one runs depends only on the path and len(idx).
func DotSparse(idx []int32, val, x []float64) float64 {
	checkLen("DotSparse", len(idx), len(val))
	switch {
	case useAVX512 && len(idx) >= dotSparseAVX512Min:
		return dotSparseAVX512Path(idx, val, x)
	case useAsm && len(idx) >= dotSparseAsmMin:
		return dotSparseAsm(idx, val, x)
	}
	return dotSparseGeneric(idx, val, x)
}

// AxpySparse adds alpha times the sparse row (idx, val) into the dense
// vector y: y[idx[k]] += alpha*val[k] for k = 0, 1, ..., len(idx)-1, in
// that order.
//
// It panics, with a message naming AxpySparse, if len(idx) != len(val).
// Every idx[k] must lie in [0, len(y)): an index outside panics with the
// runtime error of the Go index expression y[idx[k]], and nothing outside
// y is written; the updates for the indices before it have then been
// made.
//
// AxpySparse gives the bits of the Go loop y[j] += alpha*val[k] on every
// path of one build (but for the payload of a NaN made where two NaNs meet
// in one operation: Go leaves the operands' order to the compiler, and x86
// keeps the first NaN): the generic, avx2 and neon paths run that loop (AVX2
// has no scatter instruction and NEON neither gather nor scatter), and the
// avx512 path, for rows of at least axpySparseAVX512Min entries on a CPU
// with AVX-512 CD, an assembly kernel that multiplies and adds eight
// entries at a time with the same two roundings and runs a block of eight
// with a repeated index one entry at a time. With distinct indices
// y[idx[k]] ends with exactly the bits the generic path's Axpy(alpha, x,
// y) gives an element y[i] whose x[i] is val[k] (on amd64 the product and
// the sum are rounded separately; the compiler may fuse them on other
// architectures, and then does so in both). Entries of y no index names
// are not touched. A repeated index adds each of its values in turn, in
// the order of the row, each addition rounded. val must not share memory
// with y. AxpySparse does not allocate.
func AxpySparse(alpha float64, idx []int32, val, y []float64) {
	checkLen("AxpySparse", len(idx), len(val))
	if useAVX512 && len(idx) >= axpySparseAVX512Min {
		axpySparseAVX512Path(alpha, idx, val, y)
		return
	}
	axpySparseGeneric(alpha, idx, val, y)
}
