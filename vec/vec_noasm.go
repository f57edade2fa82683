//go:build purego || !(amd64 || arm64)

package vec

// Without assembly every kernel is the generic one; these stubs let vec.go
// read the same on every platform. The compiler removes the dead branches.

const useAsm = false

const asmName = "generic"

func dotAsm(x, y []float64) float64         { return dotGeneric(x, y) }
func axpyAsm(alpha float64, x, y []float64) { axpyGeneric(alpha, x, y) }
func scaleAsm(alpha float64, x []float64)   { scaleGeneric(alpha, x) }
func axpbyToAsm(dst []float64, a float64, x []float64, b float64, y []float64) {
	axpbyToGeneric(dst, a, x, b, y)
}
func stepAsm(s, a float64, u []float64, b float64, v []float64, x []float64) {
	stepGeneric(s, a, u, b, v, x)
}
func softplusAsm(dst, x []float64)                          { softplusGeneric(dst, x) }
func sigmoidAsm(dst, x []float64)                           { sigmoidGeneric(dst, x) }
func sigmoidScaledAsm(dst, x []float64, scale, mul float64) { sigmoidScaledGeneric(dst, x, scale, mul) }
func softplusSumAsm(x []float64, scale float64) float64     { return softplusSumGeneric(x, scale) }

func sumSqDotAsm(x, y []float64) (ss, dot float64) { return sumSqDotGeneric(x, y) }
func maxAbsAsm(x []float64) float64                { return maxAbsGeneric(x) }

func dot4Asm(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64) {
	return dot4Generic(x, y0, y1, y2, y3)
}

// asmPaths lists no path: there is no assembly in this build.
func asmPaths() []Path { return nil }
