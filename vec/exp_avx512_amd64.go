//go:build !purego

package vec

// AVX-512 versions of the softplus and sigmoid kernels
// (exp_avx512_amd64.s). Until they exist these run the avx2 kernels.

func softplusAVX512(dst, x []float64)                          { softplusAsm(dst, x) }
func sigmoidAVX512(dst, x []float64)                           { sigmoidAsm(dst, x) }
func sigmoidScaledAVX512(dst, x []float64, scale, mul float64) { sigmoidScaledAsm(dst, x, scale, mul) }
func softplusSumAVX512(x []float64, scale float64) float64     { return softplusSumAsm(x, scale) }
