// Package mat is a tiny dense, row-major matrix layer built only on the
// kernels of package vec: products with a vector and its transpose, the Gram
// matrix, and a Cholesky factorisation for small n.
//
// Guarantees: no function allocates when given its destinations (Cholesky
// allocates on its first Factor of a size, then reuses the storage);
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

// MulVec sets dst = A x. dst must not alias x.
func (m *Dense) MulVec(dst, x []float64) {
	check("MulVec", len(dst), m.Rows, "dst")
	check("MulVec", len(x), m.Cols, "x")
	for i := range dst {
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

// Gram sets dst = scale * A^T A (Cols x Cols, exactly symmetric); see
// GramRows.
func (m *Dense) Gram(dst *Dense, scale float64) {
	gram(dst, m.Rows, m.Cols, m.Row, scale)
}

// GramRows sets dst = scale * A^T A for the matrix A whose rows are rows
// (each of length dst.Cols): Gram without first copying the rows into a
// Dense. It computes the lower triangle and copies it to the upper. When
// at least a quarter of A's entries are nonzero it copies A by columns
// (allocating len(rows)*Cols floats) and takes each entry as one Dot of
// two columns; otherwise it walks A by rows, a rank-one update of the
// lower triangle per row that skips zero entries. By columns is about
// twice as fast on dense rows, by rows skips the zeros of sparse ones
// (BenchmarkGramCholesky).
func GramRows(dst *Dense, rows [][]float64, scale float64) {
	gram(dst, len(rows), dst.Cols, func(i int) []float64 { return rows[i] }, scale)
}

func gram(dst *Dense, l, n int, row func(int) []float64, scale float64) {
	check("Gram", dst.Rows, n, "dst rows")
	check("Gram", dst.Cols, n, "dst cols")
	nz := 0
	for i := 0; i < l; i++ {
		r := row(i)
		check("Gram", len(r), n, "row length")
		for _, v := range r {
			if v != 0 {
				nz++
			}
		}
	}
	if 4*nz >= l*n && l > 0 {
		gramByColumns(dst, l, n, row, scale)
		return
	}
	for j := 0; j < n; j++ {
		clear(dst.Row(j))
	}
	for i := 0; i < l; i++ {
		r := row(i)
		for j, v := range r {
			if v != 0 {
				vec.Axpy(scale*v, r[:j+1], dst.Row(j)[:j+1])
			}
		}
	}
	for j := 1; j < n; j++ {
		row := dst.Row(j)
		for k := 0; k < j; k++ {
			dst.Data[k*dst.Stride+j] = row[k]
		}
	}
}

// gramByColumns is Gram for a dense A: the columns copied contiguously,
// then entry (j, k) = scale * Dot(column j, column k) for k <= j.
func gramByColumns(dst *Dense, l, n int, row func(int) []float64, scale float64) {
	t := make([]float64, l*n)
	for i := 0; i < l; i++ {
		for j, v := range row(i) {
			t[j*l+i] = v
		}
	}
	col := func(k int) []float64 { return t[k*l : (k+1)*l] }
	set := func(j, k int, v float64) {
		dst.Data[j*dst.Stride+k] = scale * v
		dst.Data[k*dst.Stride+j] = scale * v
	}
	for j := 0; j < n; j++ {
		cj := col(j)
		k := 0
		for ; k+4 <= j+1; k += 4 {
			d0, d1, d2, d3 := vec.Dot4(cj, col(k), col(k+1), col(k+2), col(k+3))
			set(j, k, d0)
			set(j, k+1, d1)
			set(j, k+2, d2)
			set(j, k+3, d3)
		}
		for ; k <= j; k++ {
			set(j, k, vec.Dot(cj, col(k)))
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
		mx = math.Max(mx, s)
	}
	return mx
}
