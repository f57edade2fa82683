package activeset

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// hFactor is H = L L' for the solver: a mat.Cholesky, or, for a diagonal
// H that New factors itself, only the diagonal of L. A diagonal H is common
// (ridge terms, scaled identities) and then New neither copies H nor
// allocates and fills an n x n factor, and every product and solve is O(n).
// The diagonal path multiplies by 1/l_ii (l_ii = sqrt(h_ii)) where
// mat.Cholesky divides by l_ii: within an ulp of it.
type hFactor struct {
	chol mat.Cholesky
	h    *mat.Dense // H, nil when hd is set
	hd   []float64  // the diagonal of H when H is diagonal, else nil
	ld   []float64  // sqrt(hd) when the factor is diagonal and not chol's, else nil
	ldi  []float64  // 1 / ld
	// rowNorm (||H_i||_2) and trace (of H) size the certificate's
	// rounding (certify); measured when first needed after each setup or
	// SetObjective (sized false), into storage New allocates.
	rowNorm []float64
	trace   float64
	sized   bool
}

// isDiagonal reports whether every off-diagonal entry of the square h is
// zero (both triangles: the products with H read both); a NaN or an
// infinity off the diagonal is not zero.
func isDiagonal(h *mat.Dense) bool {
	for i := 0; i < h.Rows; i++ {
		r := h.Row(i)
		if !allZero(r[:i]) || !allZero(r[i+1:]) {
			return false
		}
	}
	return true
}

// allZero reports whether every entry of r is +0 or -0, by or-ing their
// bits eight at a time into two accumulators (no branch per entry).
func allZero(r []float64) bool {
	var a, b uint64
	c := 0
	for ; c+8 <= len(r); c += 8 {
		q := r[c : c+8 : c+8]
		a |= math.Float64bits(q[0]) | math.Float64bits(q[1]) | math.Float64bits(q[2]) | math.Float64bits(q[3])
		b |= math.Float64bits(q[4]) | math.Float64bits(q[5]) | math.Float64bits(q[6]) | math.Float64bits(q[7])
	}
	for ; c < len(r); c++ {
		a |= math.Float64bits(r[c])
	}
	return (a|b)<<1 == 0
}

// setup factors h (copying what it keeps into mem's storage, reused where
// it fits), or takes the caller's factor; diag says whether h is diagonal
// (isDiagonal).
func (f *hFactor) setup(h *mat.Dense, given *mat.Cholesky, diag bool, mem *storage) error {
	n := h.Rows
	if diag {
		mem.hd = reuse(mem.hd, n)
		f.hd = mem.hd[:n:n]
		for i := range f.hd {
			f.hd[i] = h.Data[i*h.Stride+i]
		}
	}
	switch {
	case given != nil:
		f.chol = *given
		if !diag {
			f.h = h
		}
	case diag:
		mem.ld, mem.ldi = reuse(mem.ld, n), reuse(mem.ldi, n)
		f.ld, f.ldi = mem.ld[:n:n], mem.ldi[:n:n]
		for i, d := range f.hd {
			if !(d > 0) {
				return &mat.NotPDError{Pivot: i, Value: d}
			}
			f.ld[i] = math.Sqrt(d)
			f.ldi[i] = 1 / f.ld[i]
		}
	default:
		mem.h = mat.ZeroDense(mem.h, n, n)
		f.h = mem.h
		for i := 0; i < n; i++ {
			copy(f.h.Row(i), h.Row(i))
		}
		f.chol = mem.chol
		err := f.chol.Factor(f.h)
		mem.chol = f.chol
		if err != nil {
			return err
		}
	}
	return nil
}

// measure sets rowNorm and trace if H changed since they were last set.
func (f *hFactor) measure() {
	if f.sized {
		return
	}
	f.trace = 0
	for i := range f.rowNorm {
		if f.hd != nil {
			f.rowNorm[i] = math.Abs(f.hd[i])
			f.trace += f.hd[i]
			continue
		}
		row := f.h.Row(i)
		f.rowNorm[i] = math.Sqrt(vec.Dot(row, row))
		f.trace += row[i]
	}
	f.sized = true
}

// solveError bounds ||E||_2 for SolveL: its computed y = L^{-1} b has
// ||y||^2 = b'(H + E)^{-1} b exactly, y solving (L + dL) y = b with
// |dL| <= gamma_{n+1} |L| (mat.Cholesky.SolveL), and L L' = H + dH with
// |dH| <= gamma_{n+1} |L||L'| (Higham, Accuracy and Stability of Numerical
// Algorithms, Thm 10.3): |E| <= gamma_{3n+3} |L||L'|, and || |L||L'| ||_2 <= ||L||_F^2 =
// trace(L L'), trace(H) up to the factor's own error (the factor
// 1 + 2 gamma). The diagonal path rounds sqrt, 1/sqrt and a product per
// entry: within 8 ulp of h_ii relative. measure must have run.
func (f *hFactor) solveError() float64 {
	n := len(f.rowNorm)
	if f.ld != nil {
		dmax := 0.0
		for _, d := range f.hd {
			dmax = max(dmax, d)
		}
		return 8 * 0x1p-53 * dmax
	}
	g := vec.DotErrorBound(3*n + 3)
	return g * (1 + 2*g) * f.trace
}

// mulH sets dst = H x (dst must not alias x).
func (f *hFactor) mulH(dst, x []float64) {
	if f.hd == nil {
		f.h.MulVec(dst, x)
		return
	}
	for i, d := range f.hd {
		dst[i] = d * x[i]
	}
}

// SolveL solves L y = b; dst may alias b.
func (f *hFactor) SolveL(dst, b []float64) {
	if f.ld == nil {
		f.chol.SolveL(dst, b)
		return
	}
	_ = dst[len(f.ldi)-1]
	_ = b[len(f.ldi)-1]
	for i, l := range f.ldi {
		dst[i] = b[i] * l // within an ulp of b[i] / ld[i]: no division in the loop
	}
}

// SolveLT solves L' x = y; dst may alias y.
func (f *hFactor) SolveLT(dst, y []float64) {
	if f.ld == nil {
		f.chol.SolveLT(dst, y)
		return
	}
	f.SolveL(dst, y)
}

// Solve sets dst = H^{-1} b; dst may alias b.
func (f *hFactor) Solve(dst, b []float64) {
	f.SolveL(dst, b)
	f.SolveLT(dst, dst)
}

// UnitColumn sets dst = L^{-1} e_i.
func (f *hFactor) UnitColumn(dst []float64, i int) {
	if f.ld == nil {
		f.chol.UnitColumn(dst, i)
		return
	}
	clear(dst)
	dst[i] = f.ldi[i]
}
