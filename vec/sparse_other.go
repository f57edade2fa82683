//go:build purego || !amd64

package vec

// DotSparse has assembly on amd64 only. NEON has no gather: an arm64 kernel
// would load x[idx[k]] one element at a time, as the Go loop does (and the
// compiler already fuses its multiply-adds there), so the neon path, like
// the generic one, runs dotSparseGeneric.
func dotSparseAsm(idx []int32, val, x []float64) float64 { return dotSparseGeneric(idx, val, x) }

// Nor has it an avx512 path (useAVX512 is false there).
func dotSparseAVX512Path(idx []int32, val, x []float64) float64 {
	return dotSparseGeneric(idx, val, x)
}

func axpySparseAVX512Path(alpha float64, idx []int32, val, y []float64) {
	axpySparseGeneric(alpha, idx, val, y)
}

const (
	dotSparseAsmMin     = 0
	dotSparseAVX512Min  = 0
	axpySparseAVX512Min = 0
)
