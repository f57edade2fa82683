package mat

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/vec"
)

// Sparse is a matrix in compressed sparse rows: row i holds the entries
// Val[Ptr[i]:Ptr[i+1]] in the columns Idx[Ptr[i]:Ptr[i+1]] (0-based), and
// every other entry of the row is zero. len(Ptr) = Rows+1, Ptr[0] = 0,
// Ptr[Rows] = len(Idx) = len(Val). Memory grows with the nonzeros: 12 bytes
// an entry and 8 a row, whatever Cols is.
//
// Check says whether a Sparse is well formed; the products assume it is
// (an index out of range panics, never reads out of bounds).
type Sparse struct {
	Rows, Cols int
	Ptr        []int
	Idx        []int32
	Val        []float64
}

// Row returns row i's column indices and values; both alias the matrix.
func (m *Sparse) Row(i int) ([]int32, []float64) {
	lo, hi := m.Ptr[i], m.Ptr[i+1]
	return m.Idx[lo:hi:hi], m.Val[lo:hi:hi]
}

// NNZ returns the number of stored entries.
func (m *Sparse) NNZ() int { return len(m.Idx) }

// SparseError is a malformed Sparse: the row and the position k within the
// row (-1 when the fault is not one entry's) and what is wrong.
type SparseError struct {
	Row, K int
	Msg    string
}

func (e *SparseError) Error() string {
	switch {
	case e.Row < 0:
		return e.Msg
	case e.K < 0:
		return fmt.Sprintf("row %d: %s", e.Row, e.Msg)
	}
	return fmt.Sprintf("row %d, entry %d: %s", e.Row, e.K, e.Msg)
}

// Check returns nil when m is well formed: Rows, Cols >= 0, Cols <= 2^31
// (indices are int32), Ptr as described on Sparse and nondecreasing, every
// row's indices strictly increasing within [0, Cols), every value finite.
// Otherwise a *SparseError naming the first fault. Check never panics (m
// nil included) and reads each entry once.
func (m *Sparse) Check() error {
	if m == nil {
		return &SparseError{Row: -1, K: -1, Msg: "nil"}
	}
	switch {
	case m.Rows < 0 || m.Cols < 0:
		return &SparseError{Row: -1, K: -1, Msg: fmt.Sprintf("%d x %d: negative size", m.Rows, m.Cols)}
	case int64(m.Cols) > math.MaxInt32+1:
		return &SparseError{Row: -1, K: -1, Msg: fmt.Sprintf("%d columns: at most 2^31", m.Cols)}
	case len(m.Ptr) != m.Rows+1:
		return &SparseError{Row: -1, K: -1, Msg: fmt.Sprintf("ptr has length %d, want rows+1 = %d", len(m.Ptr), m.Rows+1)}
	case len(m.Idx) != len(m.Val):
		return &SparseError{Row: -1, K: -1, Msg: fmt.Sprintf("idx has length %d but val %d", len(m.Idx), len(m.Val))}
	case m.Ptr[0] != 0 || m.Ptr[m.Rows] != len(m.Idx):
		return &SparseError{Row: -1, K: -1, Msg: fmt.Sprintf("ptr runs from %d to %d, want 0 to %d", m.Ptr[0], m.Ptr[m.Rows], len(m.Idx))}
	}
	for i := 0; i < m.Rows; i++ {
		lo, hi := m.Ptr[i], m.Ptr[i+1]
		if lo > hi || hi > len(m.Idx) {
			return &SparseError{Row: i, K: -1, Msg: fmt.Sprintf("ptr[%d] = %d, ptr[%d] = %d: not nondecreasing", i, lo, i+1, hi)}
		}
		prev := int32(-1)
		for k := lo; k < hi; k++ {
			j, v := m.Idx[k], m.Val[k]
			switch {
			case j < 0 || int(j) >= m.Cols:
				return &SparseError{Row: i, K: k - lo, Msg: fmt.Sprintf("column %d out of range [0, %d)", j, m.Cols)}
			case j <= prev:
				return &SparseError{Row: i, K: k - lo, Msg: fmt.Sprintf("column %d after %d: indices must increase", j, prev)}
			case math.IsNaN(v) || math.IsInf(v, 0):
				return &SparseError{Row: i, K: k - lo, Msg: fmt.Sprintf("value %v at column %d", v, j)}
			}
			prev = j
		}
	}
	return nil
}

// MulVec sets dst = M x. dst must not alias x.
func (m *Sparse) MulVec(dst, x []float64) {
	check("Sparse.MulVec", len(dst), m.Rows, "dst")
	check("Sparse.MulVec", len(x), m.Cols, "x")
	for i := range dst {
		idx, val := m.Row(i)
		dst[i] = vec.DotSparse(idx, val, x)
	}
}

// MulTransVecAdd sets dst += M' y, adding the rows scaled by y in order
// (so the result is the same bits on every run). Rows with y[i] = 0 are
// skipped. dst must not alias y.
func (m *Sparse) MulTransVecAdd(dst, y []float64) {
	check("Sparse.MulTransVecAdd", len(dst), m.Cols, "dst")
	check("Sparse.MulTransVecAdd", len(y), m.Rows, "y")
	for i, yi := range y {
		if yi != 0 {
			idx, val := m.Row(i)
			vec.AxpySparse(yi, idx, val, dst)
		}
	}
}

// ToDense returns M as a dense matrix (Rows x Cols, zero where M stores
// nothing). It allocates Rows*Cols float64s: the caller decides whether
// that is affordable.
func (m *Sparse) ToDense() *Dense {
	d := NewDense(m.Rows, m.Cols)
	for i := 0; i < m.Rows; i++ {
		idx, val := m.Row(i)
		r := d.Row(i)
		for k, j := range idx {
			r[j] = val[k]
		}
	}
	return d
}

// SparseFromRows returns the rows (each of length cols) in compressed
// form, keeping the nonzero entries (a -0 is kept as a zero would be: not
// at all).
func SparseFromRows(rows [][]float64, cols int) *Sparse {
	nnz := 0
	for _, r := range rows {
		check("SparseFromRows", len(r), cols, "a row")
		for _, v := range r {
			if v != 0 {
				nnz++
			}
		}
	}
	m := &Sparse{Rows: len(rows), Cols: cols, Ptr: make([]int, len(rows)+1), Idx: make([]int32, 0, nnz), Val: make([]float64, 0, nnz)}
	for i, r := range rows {
		for j, v := range r {
			if v != 0 {
				m.Idx = append(m.Idx, int32(j))
				m.Val = append(m.Val, v)
			}
		}
		m.Ptr[i+1] = len(m.Idx)
	}
	return m
}
