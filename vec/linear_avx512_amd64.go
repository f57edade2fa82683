//go:build !purego

package vec

// AVX-512 versions of the linear kernels (linear_avx512_amd64.s). The
// exported wrappers in vec.go check lengths, so these trust their inputs:
// every slice argument has at least len(x) (or len(dst)) elements.

//go:noescape
func dotAVX512(x, y []float64) float64

//go:noescape
func sumSqDotAVX512(x, y []float64) (ss, dot float64)

//go:noescape
func maxAbsAVX512(x []float64) float64

//go:noescape
func dot4AVX512(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64)

//go:noescape
func axpyAVX512(alpha float64, x, y []float64)

//go:noescape
func scaleAVX512(alpha float64, x []float64)

//go:noescape
func axpbyToAVX512(dst []float64, a float64, x []float64, b float64, y []float64)

//go:noescape
func stepAVX512(s, a float64, u []float64, b float64, v []float64, x []float64)
