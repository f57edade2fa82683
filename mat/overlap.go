package mat

import "unsafe"

// Overlaps reports whether x and y share an element: x[i] and y[j] at the
// same address for some i < len(x) and j < len(y). A workspace that is
// cleared and refilled from a caller's vectors (a Solver's Load) checks
// first that none of them lives in it. It allocates nothing.
func Overlaps(x, y []float64) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	const size = unsafe.Sizeof(x[0])
	xlo, ylo := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	return xlo < ylo+uintptr(len(y))*size && ylo < xlo+uintptr(len(x))*size
}
