// Package vec holds the numerical kernels every layer above stands on: dot
// products (Dot, and Dot4 for four sharing one vector), the infinity norm
// (MaxAbs), axpy-style updates, the fused update of one stochastic step,
// vectorized softplus and sigmoid, ExactSum, a sum of products in twice
// the working precision (pure Go on every path), and Prefetch, a hint to
// the caches (prefetch.go).
//
// Each kernel has a pure-Go version (vec_generic.go) and, on amd64 with AVX2
// and FMA and on arm64 with ASIMD (NEON), an assembly version. The path is
// chosen once at init from golang.org/x/sys/cpu and never changes; Impl names
// it. Building with the purego tag, or for another GOARCH, compiles only the
// Go code. On amd64, GODEBUG=cpu.avx512f=off selects the avx2 path and
// GODEBUG=cpu.avx2=off the generic path.
//
// Status: on the avx2 and neon paths every dense kernel is assembly; of the
// sparse-row kernels (sparse.go) only DotSparse on avx2 is. On the avx512
// path (amd64 with AVX-512 F, DQ and VL) every dense kernel, TileMulAdd,
// DotSparse and (with AVX-512 CD) AxpySparse are AVX-512 assembly, the
// sparse ones from a row length where they beat the Go loop. Softplus,
// Sigmoid, SigmoidScaled and SoftplusSum run one algorithm on all three
// assembly paths (exp_arm64.s, exp_amd64.s, exp_avx512_amd64.s) and return
// the same bits on avx512, avx2 and neon.
//
// Guarantees, on every path:
//   - No kernel allocates.
//   - Slices of different lengths are a programmer error and panic with a
//     message naming the kernel; no other input (NaN, Inf, any length,
//     any alignment) panics.
//   - Dot, Dot4, Axpy and the fused linear kernels may differ from the
//     generic path by rounding (FMA and a different summation order), within
//     the usual bound n*eps*sum|x_i*y_i| (DotErrorBound). The same inputs on
//     the same path give the same bits.
//   - MaxAbs is exact and gives the same bits on every path.
//   - Softplus and Sigmoid are within 4 ulp of the exact value for every
//     finite input, never overflow, and follow IEEE rules for ±Inf and NaN.
//   - An output may be the same slice as an input where the doc says so;
//     partial overlap is not allowed.
package vec

import "math"

// Impl names the kernel path in use: "avx512", "avx2", "neon" or "generic".
func Impl() string {
	if useAVX512 {
		return "avx512"
	}
	if useAsm {
		return asmName
	}
	return "generic"
}

func checkLen(kernel string, a, b int) {
	if a != b {
		panic(lengthError{kernel, a, b})
	}
}

type lengthError struct {
	kernel string
	a, b   int
}

func (e lengthError) Error() string {
	return "vec: " + e.kernel + ": slice lengths differ (" + itoa(e.a) + " != " + itoa(e.b) + ")"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// Dot returns the sum of x[i]*y[i]. It panics if len(x) != len(y).
func Dot(x, y []float64) float64 {
	checkLen("Dot", len(x), len(y))
	switch {
	case useAVX512 && len(x) >= avx512ReduceMin:
		return dotAVX512(x, y)
	case useAsm:
		return dotAsm(x, y)
	}
	return dotGeneric(x, y)
}

// Dot4 returns the four dot products x'y0, x'y1, x'y2, x'y3, reading x once
// for all four: the building block of Gram matrices and left-looking
// Cholesky, where many short dot products share one vector. It panics, with
// a message naming Dot4, unless len(y0), len(y1), len(y2) and len(y3) all
// equal len(x).
//
// Each result dk is within DotErrorBound(len(x)) * sum_i |x[i] yk[i]| of the
// exact value; it need not equal Dot(x, yk) bit for bit, as the summation
// order differs. A NaN in x or yk makes dk NaN, as does Inf times 0. The
// result is deterministic: the same inputs on the same path give the same
// bits. Any of the y's may be the same slice as x or as each other. Dot4
// does not allocate.
func Dot4(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64) {
	checkLen("Dot4", len(x), len(y0))
	checkLen("Dot4", len(x), len(y1))
	checkLen("Dot4", len(x), len(y2))
	checkLen("Dot4", len(x), len(y3))
	switch {
	case useAVX512 && len(x) >= avx512ReduceMin:
		return dot4AVX512(x, y0, y1, y2, y3)
	case useAsm:
		return dot4Asm(x, y0, y1, y2, y3)
	}
	return dot4Generic(x, y0, y1, y2, y3)
}

// SumSqDot returns x'x and x'y in one pass over x: a row's squared norm
// and its product with a point, where the row comes from memory and the
// second pass over it was most of the cost (the active-set method's set-up
// over many rows). It panics, with a message naming SumSqDot, if
// len(x) != len(y).
//
// ss is within DotErrorBound(len(x)) * ss of the exact x'x and dot within
// DotErrorBound(len(x)) * sum_i |x[i] y[i]| of the exact x'y; neither need
// equal Dot(x, x) or Dot(x, y) bit for bit (the summation order differs),
// and ss does not depend on y. A NaN in x makes both NaN, one in y makes dot
// NaN; an infinite x[i] makes ss +Inf. The results are deterministic: the
// same inputs on the same path give the same bits. x and y may be the same
// slice. SumSqDot does not allocate.
func SumSqDot(x, y []float64) (ss, dot float64) {
	checkLen("SumSqDot", len(x), len(y))
	switch {
	case useAVX512 && len(x) >= avx512ReduceMin:
		return sumSqDotAVX512(x, y)
	case useAsm:
		return sumSqDotAsm(x, y)
	}
	return sumSqDotGeneric(x, y)
}

// MaxAbs returns the largest magnitude max_i |x[i]|, the infinity norm of
// x, and +0 for an empty x. It has exactly the bits of the Go loop
//
//	m := 0.0
//	for _, v := range x {
//		if a := math.Abs(v); a > m {
//			m = a
//		}
//	}
//	return m
//
// on every path, for every input:
//   - The result is exact: it is one of the |x[i]|, or +0. It is never
//     negative and never -0 (|-0| = +0 does not exceed the start, +0).
//   - NaN entries are ignored, as if absent: a NaN of either sign, quiet
//     or signalling, with any payload, never changes the result, and a
//     slice of NaNs only gives +0.
//   - An infinite entry of either sign gives +Inf; subnormals compare as
//     the numbers they are.
//
// The maximum of a set of magnitudes is one value with one bit pattern
// (equal magnitudes have equal bits, the sign being cleared), so the order
// in which the kernels compare (several lanes and accumulators at a time)
// cannot change the result. MaxAbs reads only x[0:len(x)], takes any length
// and alignment, does not modify x and does not allocate. On the avx512
// path vectors shorter than maxAbsAVX512Min (64) elements run the avx2
// kernel, which is as fast or faster there (BenchmarkMaxAbs).
func MaxAbs(x []float64) float64 {
	switch {
	case useAVX512 && len(x) >= maxAbsAVX512Min:
		return maxAbsAVX512(x)
	case useAsm:
		return maxAbsAsm(x)
	}
	return maxAbsGeneric(x)
}

// DotErrorBound returns gamma_n = n u / (1 - n u), u = 2^-53: on every
// path, |Dot(x, y) - x'y| <= DotErrorBound(len(x)) * sum_i |x[i] y[i]|
// (any summation order, with or without fused multiply-adds; Higham,
// Accuracy and Stability of Numerical Algorithms, section 3.1). +Inf once
// n u >= 1.
func DotErrorBound(n int) float64 {
	nu := float64(n) * 0x1p-53
	if nu >= 1 {
		return math.Inf(1)
	}
	return nu / (1 - nu)
}

// Axpy sets y[i] += alpha*x[i]. x and y may be the same slice.
// It panics if len(x) != len(y).
func Axpy(alpha float64, x, y []float64) {
	checkLen("Axpy", len(x), len(y))
	switch {
	case useAVX512:
		axpyAVX512(alpha, x, y)
		return
	case useAsm:
		axpyAsm(alpha, x, y)
		return
	}
	axpyGeneric(alpha, x, y)
}

// Scale sets x[i] *= alpha.
func Scale(alpha float64, x []float64) {
	switch {
	case useAVX512:
		scaleAVX512(alpha, x)
		return
	case useAsm:
		scaleAsm(alpha, x)
		return
	}
	scaleGeneric(alpha, x)
}

// AxpbyTo sets dst[i] = a*x[i] + b*y[i]. dst may be x or y.
// It panics unless all three lengths agree.
func AxpbyTo(dst []float64, a float64, x []float64, b float64, y []float64) {
	checkLen("AxpbyTo", len(dst), len(x))
	checkLen("AxpbyTo", len(dst), len(y))
	switch {
	case useAVX512:
		axpbyToAVX512(dst, a, x, b, y)
		return
	case useAsm:
		axpbyToAsm(dst, a, x, b, y)
		return
	}
	axpbyToGeneric(dst, a, x, b, y)
}

// Step sets x[i] = s*(x[i] + a*u[i] + b*v[i]) in one pass: one stochastic
// (variance-reduced) gradient step followed by the proximal map of a ridge
// term, which is a scaling. u and v may be the same slice; x must not
// overlap u or v. It panics unless all three lengths agree.
func Step(s, a float64, u []float64, b float64, v []float64, x []float64) {
	checkLen("Step", len(x), len(u))
	checkLen("Step", len(x), len(v))
	switch {
	case useAVX512:
		stepAVX512(s, a, u, b, v, x)
		return
	case useAsm:
		stepAsm(s, a, u, b, v, x)
		return
	}
	stepGeneric(s, a, u, b, v, x)
}

// Softplus sets dst[i] = log(1 + exp(x[i])). dst may be x.
// It panics if len(dst) != len(x).
func Softplus(dst, x []float64) {
	checkLen("Softplus", len(dst), len(x))
	switch {
	case useAVX512:
		softplusAVX512(dst, x)
		return
	case useAsm:
		softplusAsm(dst, x)
		return
	}
	softplusGeneric(dst, x)
}

// Sigmoid sets dst[i] = 1/(1 + exp(-x[i])). dst may be x.
// It panics if len(dst) != len(x).
func Sigmoid(dst, x []float64) {
	checkLen("Sigmoid", len(dst), len(x))
	switch {
	case useAVX512:
		sigmoidAVX512(dst, x)
		return
	case useAsm:
		sigmoidAsm(dst, x)
		return
	}
	sigmoidGeneric(dst, x)
}

// SigmoidScaled sets dst[i] = mul * sigmoid(scale*x[i]): the dual map
// lambda = xi*sigmoid(r/delta) with scale = 1/delta, mul = xi. The product
// scale*x[i] is rounded once before the sigmoid. dst may be x.
// It panics if len(dst) != len(x).
func SigmoidScaled(dst, x []float64, scale, mul float64) {
	checkLen("SigmoidScaled", len(dst), len(x))
	switch {
	case useAVX512:
		sigmoidScaledAVX512(dst, x, scale, mul)
		return
	case useAsm:
		sigmoidScaledAsm(dst, x, scale, mul)
		return
	}
	sigmoidScaledGeneric(dst, x, scale, mul)
}

// SoftplusSum returns the sum of softplus(scale*x[i]): with scale = 1/delta
// and the result times xi*delta it is the penalty term of (2.3).
func SoftplusSum(x []float64, scale float64) float64 {
	switch {
	case useAVX512:
		return softplusSumAVX512(x, scale)
	case useAsm:
		return softplusSumAsm(x, scale)
	}
	return softplusSumGeneric(x, scale)
}
