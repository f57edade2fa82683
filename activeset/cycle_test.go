package activeset

import (
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestConsistentDependentNoCycle: FuzzTinyQP's degenerate vertex of R^4
// (rows 2, 3 and 4 together fix x_1 = 0, and their normals depend on each
// other). Row 4 is found consistent-dependent and leaves; allowed back as
// soon as the working set changed, it was admitted again at the same point
// and the solve cycled through the same ten changes to the iteration
// limit. Skipped until the objective rises, it solves.
func TestConsistentDependentNoCycle(t *testing.T) {
	n := 4
	h := mat.NewDense(n, n)
	h.AddDiag(2.6)
	p := &Problem{N: n, H: h, C: []float64{-2.5, -2.5, -2.5, -2.5}, A: dense([][]float64{
		{-2.5, -2.5, -2.5, -2.46875},
		{-2.5, -2.5, -2.46875, -2.5},
		{-2.5, 2.71875, 2.71875, 2.71875},
		{2.71875, -2.5, -2.5, -2.5},
		{-2.5, 0, 0, 0},
		{0, 0, 0, 0},
	}), B: []float64{-2.5, -2.5, 2.71875, -2.5, 0, 0}}
	r := mustNew(t, p).Solve()
	certified(t, "degenerate vertex", r, 1e-12)
	if r.Iter > 50 {
		t.Errorf("%d working-set changes for 6 rows in R^4", r.Iter)
	}
}
