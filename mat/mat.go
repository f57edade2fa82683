// Package mat is a tiny dense, row-major matrix layer built only on the
// kernels of package vec.
package mat

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
