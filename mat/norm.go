package mat

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// NormEstimate estimates ||A||_2, the largest singular value, by iters power
// iterations on A^T A from a fixed start (deterministic). The estimate
// approaches from below: callers that need an upper bound must add a margin
// or cap it (by the Frobenius norm, say). v and w need Cols entries and r
// needs Rows; nothing is allocated.
func (m *Dense) NormEstimate(iters int, v, w, r []float64) float64 {
	return normEstimate("NormEstimate", m.Rows, m.Cols, iters, v, w, r, m.MulVec, m.MulTransVec)
}

// normEstimate is NormEstimate for the rows x cols operator of mul (dst =
// M x) and mulT (dst = M'y, dst overwritten), with its lengths checked.
func normEstimate(name string, rows, cols, iters int, v, w, r []float64, mul, mulT func(dst, x []float64)) float64 {
	check(name, len(v), cols, "v")
	check(name, len(w), cols, "w")
	check(name, len(r), rows, "r")
	return math.Sqrt(powerIteration(iters, v, w, func(dst, x []float64) {
		mul(r, x)
		mulT(dst, r)
	}))
}

// SymNormEstimate estimates the largest eigenvalue of the symmetric
// positive semidefinite m by iters power iterations (from below, like
// NormEstimate). v and w need Rows entries.
func (m *Dense) SymNormEstimate(iters int, v, w []float64) float64 {
	check("SymNormEstimate", len(v), m.Rows, "v")
	check("SymNormEstimate", len(w), m.Rows, "w")
	return powerIteration(iters, v, w, m.MulVec)
}

// powerIteration runs the power method for the operator apply from a fixed,
// non-degenerate start and returns the last Rayleigh quotient.
func powerIteration(iters int, v, w []float64, apply func(dst, x []float64)) float64 {
	for i := range v {
		v[i] = 1 + 0.1*float64(i%7)
	}
	vec.Scale(1/math.Sqrt(vec.Dot(v, v)), v)
	var ev float64
	for it := 0; it < iters; it++ {
		apply(w, v)
		ev = vec.Dot(v, w)
		nw := math.Sqrt(vec.Dot(w, w))
		if nw == 0 {
			return 0
		}
		copy(v, w)
		vec.Scale(1/nw, v)
	}
	return ev
}

// NormEstimate estimates ||M||_2 of the sparse M as Dense.NormEstimate
// does (from below; iters power iterations on M'M, two passes over the
// nonzeros each). v and w need Cols entries and r needs Rows; nothing is
// allocated.
func (m *Sparse) NormEstimate(iters int, v, w, r []float64) float64 {
	return normEstimate("Sparse.NormEstimate", m.Rows, m.Cols, iters, v, w, r, m.MulVec, func(dst, y []float64) {
		clear(dst)
		m.MulTransVecAdd(dst, y)
	})
}
