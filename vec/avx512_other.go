//go:build purego || !amd64

package vec

// The avx512 path exists only on amd64. These stubs let vec.go dispatch the
// same way on every platform; the compiler removes the dead branches.

const useAVX512 = false

const avx512ReduceMin = 0

const maxAbsAVX512Min = 0

func dotAVX512(x, y []float64) float64 { return dotGeneric(x, y) }
func dot4AVX512(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64) {
	return dot4Generic(x, y0, y1, y2, y3)
}
func sumSqDotAVX512(x, y []float64) (ss, dot float64) { return sumSqDotGeneric(x, y) }
func maxAbsAVX512(x []float64) float64                { return maxAbsGeneric(x) }
func axpyAVX512(alpha float64, x, y []float64)        { axpyGeneric(alpha, x, y) }
func scaleAVX512(alpha float64, x []float64)          { scaleGeneric(alpha, x) }
func axpbyToAVX512(dst []float64, a float64, x []float64, b float64, y []float64) {
	axpbyToGeneric(dst, a, x, b, y)
}
func stepAVX512(s, a float64, u []float64, b float64, v []float64, x []float64) {
	stepGeneric(s, a, u, b, v, x)
}
func softplusAVX512(dst, x []float64) { softplusGeneric(dst, x) }
func sigmoidAVX512(dst, x []float64)  { sigmoidGeneric(dst, x) }
func sigmoidScaledAVX512(dst, x []float64, scale, mul float64) {
	sigmoidScaledGeneric(dst, x, scale, mul)
}
func softplusSumAVX512(x []float64, scale float64) float64 { return softplusSumGeneric(x, scale) }
