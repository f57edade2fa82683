//go:build !purego

package vec

// Placeholder: forwards to the generic kernels until the assembly lands.

func dotAsm(x, y []float64) float64         { return dotGeneric(x, y) }
func axpyAsm(alpha float64, x, y []float64) { axpyGeneric(alpha, x, y) }
func scaleAsm(alpha float64, x []float64)   { scaleGeneric(alpha, x) }
func axpbyToAsm(dst []float64, a float64, x []float64, b float64, y []float64) {
	axpbyToGeneric(dst, a, x, b, y)
}
func stepAsm(s, a float64, u []float64, b float64, v []float64, x []float64) {
	stepGeneric(s, a, u, b, v, x)
}
