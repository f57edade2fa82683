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
