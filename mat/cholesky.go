package mat

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/vec"
)

// Cholesky holds the factor L (lower triangular, row-major) of a symmetric
// positive definite matrix A = L L^T. The zero value is ready for Factor;
// refactoring a matrix of the same size allocates nothing.
type Cholesky struct {
	n    int
	l    []float64
	diag bool // L is diagonal (a was): the solves take O(n)
}

// NotPDError reports the pivot at which a factorisation failed.
type NotPDError struct {
	Pivot int
	Value float64
}

func (e *NotPDError) Error() string {
	return fmt.Sprintf("not positive definite: pivot %d is %g", e.Pivot, e.Value)
}

// Factor computes the factor of the symmetric a (only its lower triangle is
// read). It returns a *NotPDError when a is not numerically positive
// definite; the receiver is then unusable until the next successful Factor.
func (c *Cholesky) Factor(a *Dense) error {
	n := a.Rows
	check("Cholesky.Factor", a.Cols, n, "cols")
	if cap(c.l) < n*n {
		c.l = make([]float64, n*n)
	}
	c.n = n
	l := c.l[:n*n]
	c.diag = true
	for i := 0; i < n; i++ {
		copy(l[i*n:i*n+i+1], a.Row(i)[:i+1])
		for _, v := range l[i*n : i*n+i] {
			if v != 0 {
				c.diag = false
			}
		}
	}
	for j := 0; j < n; j++ {
		lj := l[j*n : j*n+j]
		d := l[j*n+j] - vec.Dot(lj, lj)
		if !(d > 0) {
			c.n = 0
			return &NotPDError{Pivot: j, Value: d}
		}
		d = math.Sqrt(d)
		l[j*n+j] = d
		// Column j below the diagonal, four rows per Dot4 (which reads lj
		// once for the four).
		row := func(i int) []float64 { return l[i*n : i*n+j] }
		i := j + 1
		for ; i+4 <= n; i += 4 {
			s0, s1, s2, s3 := vec.Dot4(lj, row(i), row(i+1), row(i+2), row(i+3))
			l[i*n+j] = (l[i*n+j] - s0) / d
			l[(i+1)*n+j] = (l[(i+1)*n+j] - s1) / d
			l[(i+2)*n+j] = (l[(i+2)*n+j] - s2) / d
			l[(i+3)*n+j] = (l[(i+3)*n+j] - s3) / d
		}
		for ; i < n; i++ {
			l[i*n+j] = (l[i*n+j] - vec.Dot(row(i), lj)) / d
		}
	}
	return nil
}

// N is the order of the factored matrix (0 before a successful Factor).
func (c *Cholesky) N() int { return c.n }

// SolveL solves L y = b (forward substitution; O(n) when the factored
// matrix was diagonal, O(n^2) otherwise). dst may alias b.
func (c *Cholesky) SolveL(dst, b []float64) {
	n, l := c.n, c.l
	check("Cholesky.SolveL", len(dst), n, "dst")
	check("Cholesky.SolveL", len(b), n, "b")
	if c.diag {
		for i := 0; i < n; i++ {
			dst[i] = b[i] / l[i*n+i]
		}
		return
	}
	for i := 0; i < n; i++ {
		dst[i] = (b[i] - vec.Dot(l[i*n:i*n+i], dst[:i])) / l[i*n+i]
	}
}

// SolveLT solves L^T x = y (backward substitution, by columns of L^T so
// every inner loop is an Axpy over a row of L). dst may alias y.
func (c *Cholesky) SolveLT(dst, y []float64) {
	n, l := c.n, c.l
	check("Cholesky.SolveLT", len(dst), n, "dst")
	check("Cholesky.SolveLT", len(y), n, "y")
	copy(dst, y)
	if c.diag {
		for i := range dst {
			dst[i] /= l[i*n+i]
		}
		return
	}
	for i := n - 1; i >= 0; i-- {
		dst[i] /= l[i*n+i]
		vec.Axpy(-dst[i], l[i*n:i*n+i], dst[:i])
	}
}

// Solve sets dst = A^{-1} b. dst may alias b. It allocates nothing and
// writes only dst, so several goroutines may solve with one factor at once.
func (c *Cholesky) Solve(dst, b []float64) {
	c.SolveL(dst, b)
	c.SolveLT(dst, dst)
}

// MinEigen estimates the smallest eigenvalue of A by iters steps of inverse
// iteration from a fixed start. The estimate approaches from above; callers
// that need a certified lower bound must verify it (e.g. by factoring
// A - mu I). It allocates two vectors of length n.
func (c *Cholesky) MinEigen(iters int) float64 {
	n := c.n
	if n == 0 {
		return 0
	}
	v := make([]float64, n)
	w := make([]float64, n)
	for i := range v {
		v[i] = 1 + 0.25*float64(i%5)
	}
	var ev float64
	for it := 0; it < iters; it++ {
		vec.Scale(1/math.Sqrt(vec.Dot(v, v)), v)
		c.Solve(w, v)
		ev = vec.Dot(v, w)
		copy(v, w)
	}
	return 1 / ev
}

// SemidefiniteShift returns delta = 4 (n+1) eps ||a||, ||a|| bounded by the
// largest absolute row sum of the symmetric n x n matrix a: the computed
// Cholesky factor of a + delta I is exact for a + delta I + E with ||E||
// below about n eps ||a||, so a positive semidefinite a always factors with
// this shift, and a factor of a + delta I proves lambda_min(a) > -delta.
// (CheckSemidefinite does the factorisation.)
func SemidefiniteShift(a *Dense) float64 {
	return 4 * float64(a.Rows+1) * 0x1p-52 * a.NormInf()
}

// CheckSemidefinite factors a + delta I, delta = SemidefiniteShift(a), in
// a copy: nil proves lambda_min(a) > -delta (a is positive semidefinite to
// within its rounding); a *NotPDError says at which pivot it fails, and
// then a has an eigenvalue below -delta. The zero matrix (delta = 0) is
// positive semidefinite. It allocates 2 n^2 floats.
func CheckSemidefinite(a *Dense) error {
	n := a.Rows
	check("CheckSemidefinite", a.Cols, n, "cols")
	d := SemidefiniteShift(a)
	if d == 0 {
		return nil // a = 0
	}
	s := NewDense(n, n)
	copy(s.Data, a.Data)
	for i := 0; i < n; i++ {
		s.Data[i*n+i] += d
	}
	var c Cholesky
	return c.Factor(s)
}
