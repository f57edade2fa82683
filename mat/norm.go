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
	check("NormEstimate", len(v), m.Cols, "v")
	check("NormEstimate", len(w), m.Cols, "w")
	check("NormEstimate", len(r), m.Rows, "r")
	return math.Sqrt(powerIteration(iters, v, w, func(dst, x []float64) {
		m.MulVec(r, x)
		m.MulTransVec(dst, r)
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
	check("Sparse.NormEstimate", len(v), m.Cols, "v")
	check("Sparse.NormEstimate", len(w), m.Cols, "w")
	check("Sparse.NormEstimate", len(r), m.Rows, "r")
	return math.Sqrt(powerIteration(iters, v, w, func(dst, x []float64) {
		m.MulVec(r, x)
		clear(dst)
		m.MulTransVecAdd(dst, r)
	}))
}
