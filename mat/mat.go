// Package mat is a tiny dense, row-major matrix layer built only on the
// kernels of package vec: products with a vector and its transpose, the Gram
// matrix, and a Cholesky factorisation for small n.
//
// Guarantees: no function allocates when given its destinations, except
// Cholesky (on its first Factor of a size, then it reuses the storage) and
// the Gram functions on dense input (their packing buffers, each call);
// mismatched sizes are programmer errors and panic with a message naming the
// function; a matrix that is not positive definite is an error value.
package mat

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/vec"
)

// Dense is a row-major matrix: element (i, j) is Data[i*Stride+j].
// Stride >= Cols; the matrix owns no hidden state, so a Dense may be a view
// into a larger one.
type Dense struct {
	Rows, Cols, Stride int
	Data               []float64
}

// NewDense returns a zeroed rows x cols matrix with Stride = cols.
func NewDense(rows, cols int) *Dense {
	return &Dense{Rows: rows, Cols: cols, Stride: cols, Data: make([]float64, rows*cols)}
}

// ZeroDense returns a zeroed rows x cols matrix with Stride = cols: m
// itself, its storage cleared, when m's storage holds rows*cols entries
// (a workspace reused for the next problem; Data keeps the storage's
// capacity), else NewDense's. A nil m allocates.
func ZeroDense(m *Dense, rows, cols int) *Dense {
	k := rows * cols
	if m == nil || cap(m.Data) < k {
		return NewDense(rows, cols)
	}
	d := m.Data[:k]
	clear(d)
	*m = Dense{Rows: rows, Cols: cols, Stride: cols, Data: d}
	return m
}

// Row returns row i as a slice of length Cols that aliases the matrix.
func (m *Dense) Row(i int) []float64 {
	off := i * m.Stride
	return m.Data[off : off+m.Cols : off+m.Cols]
}

func check(fn string, got, want int, what string) {
	if got != want {
		panic(fmt.Sprintf("mat: %s: %s has length %d, want %d", fn, what, got, want))
	}
}

// MulVec sets dst = A x. dst must not alias x. Rows go four at a time
// through vec.Dot4, which reads x once for all four: each entry is within
// vec.DotErrorBound(Cols) of its terms, though not bit for bit vec.Dot's.
func (m *Dense) MulVec(dst, x []float64) {
	check("MulVec", len(dst), m.Rows, "dst")
	check("MulVec", len(x), m.Cols, "x")
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		dst[i], dst[i+1], dst[i+2], dst[i+3] = vec.Dot4(x, m.Row(i), m.Row(i+1), m.Row(i+2), m.Row(i+3))
	}
	for ; i < len(dst); i++ {
		dst[i] = vec.Dot(m.Row(i), x)
	}
}

// MulVecAdd sets dst += A x. dst must not alias x.
func (m *Dense) MulVecAdd(dst, x []float64) {
	check("MulVecAdd", len(dst), m.Rows, "dst")
	check("MulVecAdd", len(x), m.Cols, "x")
	for i := range dst {
		dst[i] += vec.Dot(m.Row(i), x)
	}
}

// MulVecSub sets dst = A x - b, the residual. dst may alias b, not x.
func (m *Dense) MulVecSub(dst, x, b []float64) {
	check("MulVecSub", len(dst), m.Rows, "dst")
	check("MulVecSub", len(b), m.Rows, "b")
	check("MulVecSub", len(x), m.Cols, "x")
	for i := range dst {
		dst[i] = vec.Dot(m.Row(i), x) - b[i]
	}
}

// MulTransVec sets dst = A^T y. Rows with y_i = 0 are skipped, which is what
// makes inactive constraints cheap. dst must not alias y.
func (m *Dense) MulTransVec(dst, y []float64) {
	check("MulTransVec", len(dst), m.Cols, "dst")
	clear(dst)
	m.MulTransVecAdd(dst, y)
}

// MulTransVecAdd sets dst += A^T y, skipping rows with y_i = 0.
func (m *Dense) MulTransVecAdd(dst, y []float64) {
	check("MulTransVecAdd", len(dst), m.Cols, "dst")
	check("MulTransVecAdd", len(y), m.Rows, "y")
	for i, v := range y {
		if v != 0 {
			vec.Axpy(v, m.Row(i), dst)
		}
	}
}

// NormInf returns max_i sum_j |m_ij|, the largest absolute row sum: the
// infinity norm of m, and for a symmetric m a bound on every eigenvalue's
// magnitude (Gershgorin).
func (m *Dense) NormInf() float64 {
	var mx float64
	for i := 0; i < m.Rows; i++ {
		var s float64
		for _, v := range m.Row(i) {
			s += math.Abs(v)
		}
		mx = max(mx, s)
	}
	return mx
}
