//go:build !purego

package vec

// The AVX2+FMA micro-kernel (tile_amd64.s), on the same CPU test as the
// other kernels (vec_amd64.go), and the AVX-512 one
// (tile_avx512_amd64.s), which TileMulAdd prefers whenever useAVX512.
// TileMulAdd checks the lengths, so the assembly trusts them.
var useTileAsm = useAsm

//go:noescape
func tileMulAddAsm(c []float64, ldc int, a, b []float64)

//go:noescape
func tileMulAddAVX512(c []float64, ldc int, a, b []float64)

//go:noescape
func tileQuadAVX512(c []float64, ldc int, a0, a1, b0, b1 []float64)
