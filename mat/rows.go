package mat

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// Norm returns ||r||_2 without overflow or underflow for entries anywhere
// in the float64 range: the sum of squares by vec.Dot when it lies safely
// inside the normal range, otherwise a second pass scaled by the largest
// magnitude. ±Inf gives +Inf and NaN gives NaN. Allocates nothing.
func Norm(r []float64) float64 {
	if ss := vec.Dot(r, r); ss > 0x1p-900 && ss < 0x1p900 {
		return math.Sqrt(ss)
	}
	var mx float64
	for _, v := range r {
		mx = max(mx, math.Abs(v))
	}
	if mx == 0 || math.IsInf(mx, 0) || math.IsNaN(mx) {
		return mx
	}
	var s float64
	for _, v := range r {
		q := v / mx
		s += q * q
	}
	return mx * math.Sqrt(s)
}

// AddDiag adds alpha to every diagonal entry of the square m (H += alpha I).
func (m *Dense) AddDiag(alpha float64) {
	check("AddDiag", m.Cols, m.Rows, "cols")
	for i := 0; i < m.Rows; i++ {
		m.Data[i*m.Stride+i] += alpha
	}
}
