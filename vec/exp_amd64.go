//go:build !purego

package vec

// AVX2+FMA versions of the softplus and sigmoid kernels (exp_amd64.s). They
// run the algorithm of the NEON kernels (exp_arm64.s) operation for
// operation, with the same constants and the same fused multiply-adds, and
// so return the same bits as the neon path for every input, NaN payloads
// included (TestAsmMatchesModel, TestModelMatchesGolden). The exported
// wrappers in vec.go check lengths, so these trust their inputs: x has at
// least len(dst) elements. dst may be x; partial overlap is not allowed.
// Nothing allocates, and nothing outside the slices is read or written.
//
// Accuracy, for every input: softplus within 2 ulp, sigmoid within 3 ulp of
// the exact function of the rounded argument scale*x[i] (measured maxima
// 1.52 and 2.13 ulp on amd64, 1.54 and 2.21 on arm64 under qemu, on
// TestAccuracySweep's 1e6 points against a 160-bit reference;
// sigmoidScaledAsm adds the rounding of the product by mul). The sigmoid is
// one division, N/(1+t): correcting it by the exact residual gave 1.34 ulp
// but cost 27% of its time. No overflow, no NaN from a finite input; ±Inf
// and NaN follow IEEE rules: softplus(-Inf) = +0, softplus(+Inf) = +Inf,
// sigmoid(-Inf) = +0, sigmoid(+Inf) = 1, NaN gives NaN. Subnormal results
// are rounded once, so softplus(u) = e^u keeps full relative accuracy for u
// << 0 until e^u is subnormal, and is then within one subnormal ulp.

// softplusAsm sets dst[i] = log(1 + e^x[i]).
func softplusAsm(dst, x []float64) { softplusScaledAsm(dst, x, 1) }

// sigmoidAsm sets dst[i] = 1/(1 + e^-x[i]).
func sigmoidAsm(dst, x []float64) { sigmoidScaledAsm(dst, x, 1, 1) }

// softplusScaledAsm sets dst[i] = softplus(scale*x[i]), the product rounded
// once. With scale = 1 the product is x[i] itself, bit for bit.
//
//go:noescape
func softplusScaledAsm(dst, x []float64, scale float64)

// sigmoidScaledAsm sets dst[i] = mul*sigmoid(scale*x[i]), the product
// scale*x[i] rounded once.
//
//go:noescape
func sigmoidScaledAsm(dst, x []float64, scale, mul float64)

// softplusSumAsm returns the sum of softplus(scale*x[i]). The summation
// order is fixed (four partial sums, element i into sum i%4, combined as
// (s0+s2) + (s1+s3)), so the result depends only on the values of x.
//
//go:noescape
func softplusSumAsm(x []float64, scale float64) float64
