package vec

import "math"

// The pure-Go kernels. They are compiled on every platform: they are the
// fallback when the CPU lacks the features the assembly needs, the only path
// under the purego tag, and the reference the assembly is tested against.

func dotGeneric(x, y []float64) float64 {
	var s0, s1, s2, s3 float64
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// sumSqDotGeneric keeps four accumulators for each sum, as dotGeneric does
// for its one: ss in s0..s3 and x'y in d0..d3, x[i] read once for both.
func sumSqDotGeneric(x, y []float64) (ss, dot float64) {
	var s0, s1, s2, s3, d0, d1, d2, d3 float64
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		a, b, c, e := x[i], x[i+1], x[i+2], x[i+3]
		s0 += a * a
		s1 += b * b
		s2 += c * c
		s3 += e * e
		d0 += a * y[i]
		d1 += b * y[i+1]
		d2 += c * y[i+2]
		d3 += e * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * x[i]
		d0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3), (d0 + d1) + (d2 + d3)
}

// dot4Generic keeps two accumulators per output, one for even and one for
// odd indices: eight independent chains, enough to hide the latency of an
// add, while x[i] and x[i+1] are each loaded once for all four products. The
// odd last element goes into the even accumulator.
func dot4Generic(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	var a0, a1, a2, a3, b0, b1, b2, b3 float64
	i := 0
	for ; i+2 <= n; i += 2 {
		u, v := x[i], x[i+1]
		a0 += u * y0[i]
		b0 += v * y0[i+1]
		a1 += u * y1[i]
		b1 += v * y1[i+1]
		a2 += u * y2[i]
		b2 += v * y2[i+1]
		a3 += u * y3[i]
		b3 += v * y3[i+1]
	}
	if i < n {
		u := x[i]
		a0 += u * y0[i]
		a1 += u * y1[i]
		a2 += u * y2[i]
		a3 += u * y3[i]
	}
	return a0 + b0, a1 + b1, a2 + b2, a3 + b3
}

// maxAbsGeneric is the loop MaxAbs is defined by: a > m is false for a NaN
// a, so NaNs never enter m. The assembly kernels compare in other orders
// and give the same bits (the maximum of a set is unique).
func maxAbsGeneric(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		if a := math.Abs(v); a > m {
			m = a
		}
	}
	return m
}

func axpyGeneric(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

func scaleGeneric(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

func axpbyToGeneric(dst []float64, a float64, x []float64, b float64, y []float64) {
	x = x[:len(dst)]
	y = y[:len(dst)]
	for i := range dst {
		dst[i] = a*x[i] + b*y[i]
	}
}

func stepGeneric(s, a float64, u []float64, b float64, v []float64, x []float64) {
	u = u[:len(x)]
	v = v[:len(x)]
	for i := range x {
		x[i] = s * (x[i] + a*u[i] + b*v[i])
	}
}

// softplus1 is the scalar softplus, log(1+e^u) = max(u,0) + log1p(e^-|u|).
func softplus1(u float64) float64 {
	if u > 0 {
		return u + math.Log1p(math.Exp(-u))
	}
	return math.Log1p(math.Exp(u))
}

// sigmoid1 is the scalar sigmoid, evaluated so that e^(-|u|) never overflows.
func sigmoid1(u float64) float64 {
	if u >= 0 {
		return 1 / (1 + math.Exp(-u))
	}
	e := math.Exp(u)
	return e / (1 + e)
}

func softplusGeneric(dst, x []float64) {
	x = x[:len(dst)]
	for i, u := range x {
		dst[i] = softplus1(u)
	}
}

func sigmoidGeneric(dst, x []float64) {
	x = x[:len(dst)]
	for i, u := range x {
		dst[i] = sigmoid1(u)
	}
}

func sigmoidScaledGeneric(dst, x []float64, scale, mul float64) {
	x = x[:len(dst)]
	for i, u := range x {
		dst[i] = mul * sigmoid1(scale*u)
	}
}

func softplusSumGeneric(x []float64, scale float64) float64 {
	var s float64
	for _, u := range x {
		s += softplus1(scale * u)
	}
	return s
}
