package solver

import (
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestNotStronglyConvex: ridge 0 and a singular quadratic part is an error.
func TestNotStronglyConvex(t *testing.T) {
	P := mat.NewDense(2, 2)
	copy(P.Data, []float64{1, 0, 0, 0})
	if _, err := New(&Problem{N: 2, Loss: LossNone, P: P}, nil); err == nil {
		t.Error("singular P with ridge 0 accepted")
	}
}
