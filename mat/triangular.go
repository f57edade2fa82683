package mat

import "github.com/softpen/softpen/vec"

// UnitColumn sets dst = L^{-1} e_i, column i of the inverse factor. The
// first i entries are zero (L^{-1} is lower triangular), so the forward
// substitution starts at row i and costs O((n-i)^2), O(n) when the factored
// matrix was diagonal. Like SolveL it multiplies by the reciprocals of
// the diagonal, off the chain from one entry to the next, and its backward
// error is SolveL's. It allocates nothing.
func (c *Cholesky) UnitColumn(dst []float64, i int) {
	n, l, inv := c.n, c.l, c.inv
	check("Cholesky.UnitColumn", len(dst), n, "dst")
	clear(dst)
	dst[i] = inv[i]
	if c.diag {
		return
	}
	for r := i + 1; r < n; r++ {
		dst[r] = -vec.Dot(l[r*n+i:r*n+r], dst[i:r]) * inv[r]
	}
}
