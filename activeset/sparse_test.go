package activeset

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// TestSparseRowsEveryShape: rows with up to sparseLimit(n) + 2 nonzeros at
// every n from 8 to 160, thousands of them, so that the entry lists grow
// many times, and every seventh row dense (no zero at all): New must not fail (the lists' two slices grow to different
// capacities, and checking one of them once let the other run short), and
// every row, listed or not, must give the dense row's products.
func TestSparseRowsEveryShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := 8; n <= 160; n++ {
		limit := sparseLimit(n)
		m := 3000
		rows, b := make([][]float64, m), make([]float64, m)
		for j := range rows {
			r := make([]float64, n)
			for k := 0; k < 1+j%(limit+2); k++ {
				r[rng.IntN(n)] = rng.NormFloat64()
			}
			if j%7 == 6 { // dense from its first entry (add's shortcut)
				for i := range r {
					r[i] = 1 + rng.Float64()
				}
			}
			rows[j], b[j] = r, 1
		}
		h := mat.NewDense(n, n)
		h.AddDiag(1)
		s := mustNew(t, &Problem{N: n, H: h, C: make([]float64, n), ARows: rows, B: b})
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for j, r := range rows {
			want := vec.Dot(r, x)
			if got := s.rowDot(j, x); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("n %d row %d: rowDot %v, dense %v", n, j, got, want)
			}
		}
	}
}
