package mat

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// RowNorms sets dst[i] = ||row i||_2. Each row is scaled by its largest
// magnitude before squaring, so entries anywhere in the float64 range
// neither overflow nor underflow. Allocates nothing.
func (m *Dense) RowNorms(dst []float64) {
	check("RowNorms", len(dst), m.Rows, "dst")
	for i := range dst {
		dst[i] = Norm(m.Row(i))
	}
}

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
		mx = math.Max(mx, math.Abs(v))
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

// ScaleRows multiplies row i by s[i]. Allocates nothing.
func (m *Dense) ScaleRows(s []float64) {
	check("ScaleRows", len(s), m.Rows, "s")
	for i, v := range s {
		vec.Scale(v, m.Row(i))
	}
}

// Compact moves the rows listed in keep (strictly increasing indices) to the
// front, in order, in place, and returns the view of its first len(keep)
// rows (same Data and Stride). Rows past len(keep) are left unspecified.
// It panics if keep is not strictly increasing or out of range.
func (m *Dense) Compact(keep []int) *Dense {
	prev := -1
	for k, i := range keep {
		if i <= prev || i >= m.Rows {
			panic("mat: Compact: keep must be strictly increasing and < Rows")
		}
		prev = i
		if i != k {
			copy(m.Row(k), m.Row(i))
		}
	}
	return &Dense{Rows: len(keep), Cols: m.Cols, Stride: m.Stride, Data: m.Data}
}

// AddDiag adds alpha to every diagonal entry of the square m (H += alpha I).
func (m *Dense) AddDiag(alpha float64) {
	check("AddDiag", m.Cols, m.Rows, "cols")
	for i := 0; i < m.Rows; i++ {
		m.Data[i*m.Stride+i] += alpha
	}
}

// AddScaled sets m += alpha * b, row by row (for H = Gram + P).
func (m *Dense) AddScaled(alpha float64, b *Dense) {
	check("AddScaled", b.Rows, m.Rows, "b rows")
	check("AddScaled", b.Cols, m.Cols, "b cols")
	for i := 0; i < m.Rows; i++ {
		vec.Axpy(alpha, b.Row(i), m.Row(i))
	}
}

// NormUpperBound returns min(||A||_F, sqrt(||A||_1 ||A||_inf)), a certified
// upper bound on ||A||_2 (up to rounding of a few ulp per entry), to pair
// with the from-below NormEstimate when a safe smoothness constant is needed.
// work needs Cols entries; nothing is allocated.
func (m *Dense) NormUpperBound(work []float64) float64 {
	check("NormUpperBound", len(work), m.Cols, "work")
	clear(work)
	var fro, inf float64
	for i := 0; i < m.Rows; i++ {
		r := m.Row(i)
		var s float64
		for j, v := range r {
			a := math.Abs(v)
			s += a
			work[j] += a
		}
		inf = math.Max(inf, s)
		n := Norm(r)
		fro = math.Hypot(fro, n)
	}
	var one float64
	for _, v := range work {
		one = math.Max(one, v)
	}
	return math.Min(fro, math.Sqrt(one)*math.Sqrt(inf))
}
