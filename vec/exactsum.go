package vec

import "math"

// ExactSum accumulates a sum of products in twice the working precision
// (Ogita, Rump and Oishi, "Accurate sum and dot product", 2005): Hi + Lo
// is the sum, within about eps |sum| + n^2 eps^2 sum |terms| after n
// terms, where a float64 sum is within n eps sum |terms|. The zero value
// is the empty sum; a sum kept in two slices goes on as
// ExactSum{Hi: hi[i], Lo: lo[i]}. It is pure Go on every path (a few
// times a float64 Dot's cost) and allocates nothing.
type ExactSum struct{ Hi, Lo float64 }

// AddProduct adds a*b: fl(a*b) joins the error-free sum and its rounding
// error (math.FMA, exact) goes to Lo.
func (e *ExactSum) AddProduct(a, b float64) {
	p := float64(a * b) // rounded: a fused a*b + Hi would break the error-free sum
	e.Add(p)
	e.Lo += math.FMA(a, b, -p)
}

// Add adds a: the rounding error of Hi + a (TwoSum, exact) goes to Lo.
// a must be a float64 already rounded: a product passed as Add(x*y) may be
// fused into Hi + x*y once inlined (arm64), and the sum is no longer
// error-free; use AddProduct, or Add(float64(x*y)).
func (e *ExactSum) Add(a float64) {
	s := e.Hi + a
	z := s - e.Hi
	e.Lo += (e.Hi - (s - z)) + (a - z)
	e.Hi = s
}

// Value is the sum rounded once more, Hi + Lo.
func (e *ExactSum) Value() float64 { return e.Hi + e.Lo }

// AddDot adds the dot product sum_i a_i b_i (b at least as long as a) in
// twice the working precision, as AddProduct term by term would, but with
// the terms dealt round four running sums of their own that are added in
// at the end (TwoSum, exact): the four chains of dependent additions
// overlap, and the sums stay in registers. Each sum's rounding errors
// are still kept exactly (TwoSum and math.FMA) and added to Lo, so the
// bound is AddProduct's: every error term is at most eps times a partial
// sum over fewer terms than one running sum would see, and Lo holds
// about 2 n such terms. The sum may differ from AddProduct's in its last
// bits (the same errors, added in another order). A running sum can
// overflow where the sum in column order does not (1e308, -1e308, 1e308,
// -1e308, 1e308 puts the first and the fifth in one): then, and for terms
// that are not finite, the terms are added again one by one by
// AddProduct, whose result this is. It is pure Go on every path and
// allocates nothing.
func (e *ExactSum) AddDot(a, b []float64) {
	b = b[:len(a)]
	var h0, h1, h2, h3, l0, l1, l2, l3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		// Each product rounded explicitly: a fused product and sum would
		// not be error-free (Add).
		p0, p1, p2, p3 := float64(a[i]*b[i]), float64(a[i+1]*b[i+1]), float64(a[i+2]*b[i+2]), float64(a[i+3]*b[i+3])
		s0, s1, s2, s3 := h0+p0, h1+p1, h2+p2, h3+p3
		z0, z1, z2, z3 := s0-h0, s1-h1, s2-h2, s3-h3
		l0 += ((h0 - (s0 - z0)) + (p0 - z0)) + math.FMA(a[i], b[i], -p0)
		l1 += ((h1 - (s1 - z1)) + (p1 - z1)) + math.FMA(a[i+1], b[i+1], -p1)
		l2 += ((h2 - (s2 - z2)) + (p2 - z2)) + math.FMA(a[i+2], b[i+2], -p2)
		l3 += ((h3 - (s3 - z3)) + (p3 - z3)) + math.FMA(a[i+3], b[i+3], -p3)
		h0, h1, h2, h3 = s0, s1, s2, s3
	}
	for ; i < len(a); i++ {
		p := float64(a[i] * b[i])
		s := h0 + p
		z := s - h0
		l0 += ((h0 - (s - z)) + (p - z)) + math.FMA(a[i], b[i], -p)
		h0 = s
	}
	if (h0-h0)+(h1-h1)+(h2-h2)+(h3-h3) != 0 { // NaN: a sum is not finite
		for i := range a {
			e.AddProduct(a[i], b[i])
		}
		return
	}
	e.Add(h0)
	e.Add(h1)
	e.Add(h2)
	e.Add(h3)
	e.Lo += (l0 + l1) + (l2 + l3)
}
