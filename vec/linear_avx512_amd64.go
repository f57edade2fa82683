//go:build !purego

package vec

// AVX-512 versions of the linear kernels (linear_avx512_amd64.s). Until
// they exist these run the avx2 kernels.

func dotAVX512(x, y []float64) float64 { return dotAsm(x, y) }
func dot4AVX512(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64) {
	return dot4Asm(x, y0, y1, y2, y3)
}
func sumSqDotAVX512(x, y []float64) (ss, dot float64) { return sumSqDotAsm(x, y) }
func axpyAVX512(alpha float64, x, y []float64)        { axpyAsm(alpha, x, y) }
func scaleAVX512(alpha float64, x []float64)          { scaleAsm(alpha, x) }
func axpbyToAVX512(dst []float64, a float64, x []float64, b float64, y []float64) {
	axpbyToAsm(dst, a, x, b, y)
}
func stepAVX512(s, a float64, u []float64, b float64, v []float64, x []float64) {
	stepAsm(s, a, u, b, v, x)
}
