//go:build purego || !amd64

package vec

// The AVX-512 TileMulAdd exists only on amd64 (useAVX512 is false
// elsewhere); this stub lets TileMulAdd dispatch the same way on every
// platform, and the compiler removes the dead branch.
func tileMulAddAVX512(c []float64, ldc int, a, b []float64) { tileMulAddGeneric(c, ldc, a, b) }

func tileQuadAVX512(c []float64, ldc int, a0, a1, b0, b1 []float64) {
	tileQuadGeneric(c, ldc, a0, a1, b0, b1)
}
