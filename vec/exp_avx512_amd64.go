//go:build !purego

package vec

// AVX-512 versions of the softplus and sigmoid kernels
// (exp_avx512_amd64.s). They run the algorithm of the avx2 kernels
// (exp_amd64.s) on eight lanes, operation for operation, and return the
// same bits as the avx2 and neon paths for every input, NaN payloads
// included (TestAsmMatchesModel, TestModelMatchesGolden); so the accuracy,
// the IEEE behaviour and the summation order documented in exp_amd64.go
// hold here unchanged. The exported wrappers in vec.go check lengths, so
// these trust their inputs: x has at least len(dst) elements. dst may be x;
// partial overlap is not allowed. Nothing allocates, and nothing outside the
// slices is read or written.
//
// They run at every length, with no avx2 kernel below a threshold: at
// lengths under 8 they take about as long as the avx2 kernels, and where
// dst and x lie next to each other in memory (two allocations of one size
// class often do) they are several times faster there, since their tails
// are loaded and stored in exact pieces where avx2 masks them
// (exp_avx512_amd64.s, MAPLOOPS).

// softplusAVX512 sets dst[i] = log(1 + e^x[i]).
func softplusAVX512(dst, x []float64) { softplusScaledAVX512(dst, x, 1) }

// sigmoidAVX512 sets dst[i] = 1/(1 + e^-x[i]).
func sigmoidAVX512(dst, x []float64) { sigmoidScaledAVX512(dst, x, 1, 1) }

// softplusScaledAVX512 sets dst[i] = softplus(scale*x[i]), the product
// rounded once. With scale = 1 the product is x[i] itself, bit for bit.
//
//go:noescape
func softplusScaledAVX512(dst, x []float64, scale float64)

// sigmoidScaledAVX512 sets dst[i] = mul*sigmoid(scale*x[i]), the product
// scale*x[i] rounded once.
//
//go:noescape
func sigmoidScaledAVX512(dst, x []float64, scale, mul float64)

// softplusSumAVX512 returns the sum of softplus(scale*x[i]) in the order of
// softplusSumAsm (four partial sums, element i into sum i%4, combined as
// (s0+s2) + (s1+s3)), so the result equals its bit for bit.
//
//go:noescape
func softplusSumAVX512(x []float64, scale float64) float64
