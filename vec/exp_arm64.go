//go:build !purego

package vec

// Placeholder: forwards to the generic kernels until exp_arm64.s lands.

func softplusAsm(dst, x []float64)                          { softplusGeneric(dst, x) }
func sigmoidAsm(dst, x []float64)                           { sigmoidGeneric(dst, x) }
func sigmoidScaledAsm(dst, x []float64, scale, mul float64) { sigmoidScaledGeneric(dst, x, scale, mul) }
func softplusSumAsm(x []float64, scale float64) float64     { return softplusSumGeneric(x, scale) }
