//go:build !purego

package vec

// AVX2+FMA versions of the linear kernels (linear_amd64.s). The exported
// wrappers in vec.go check lengths, so these trust their inputs: every slice
// argument has at least len(x) (or len(dst)) elements.

//go:noescape
func dotAsm(x, y []float64) float64

//go:noescape
func sumSqDotAsm(x, y []float64) (ss, dot float64)

//go:noescape
func maxAbsAsm(x []float64) float64

//go:noescape
func dot4Asm(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64)

//go:noescape
func axpyAsm(alpha float64, x, y []float64)

//go:noescape
func scaleAsm(alpha float64, x []float64)

//go:noescape
func axpbyToAsm(dst []float64, a float64, x []float64, b float64, y []float64)

//go:noescape
func stepAsm(s, a float64, u []float64, b float64, v []float64, x []float64)
