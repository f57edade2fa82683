package mat

import (
	"fmt"
	"math"
	"sync"

	"github.com/softpen/softpen/vec"
)

// Cholesky holds the factor L (lower triangular, row-major) of a symmetric
// positive definite matrix A = L L^T. The zero value is ready for Factor;
// refactoring a matrix of the same size allocates nothing.
type Cholesky struct {
	// Threads is the number of goroutines among which Factor splits each
	// trailing update above order cholUnblockedMax (0 or 1: the calling
	// goroutine alone). Each entry of L is computed by the same operations
	// in the same order whatever the number, so the factor is the same bit
	// for bit.
	Threads int

	n    int
	l    []float64 // L in the lower triangle, L^T above it (mirror)
	diag bool      // L is diagonal (a was): the solves take O(n)
}

// Reserve sizes the factor's storage for order n: a later Factor or
// FactorShifted of order at most n allocates nothing for it.
func (c *Cholesky) Reserve(n int) {
	if cap(c.l) < n*n {
		c.l = make([]float64, n*n)
	}
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
//
// Up to n = cholUnblockedMax the factor is computed column by column
// (each entry a dot product over the row before it); above, in panels of
// cholBlock columns, each panel's product with itself subtracted from the
// rest of the matrix at once by vec.TileMulAdd on packed panels (a blocked,
// right-looking factorisation: most of the n^3/3 flops run at the rate of
// a matrix product instead of that of dot products). Either way each entry
// of L is an ordered sum of the products that define it, so L L^T is
// within vec.DotErrorBound(n+1) |L| |L^T| of a entrywise; the summation
// order, and with it the last bits, differ between the two. Above
// cholUnblockedMax it allocates the packing buffers, about 2 cholBlock n
// floats, on each call.
func (c *Cholesky) Factor(a *Dense) error {
	_, err := c.factor(a, 0)
	return err
}

// FactorShifted is Factor for a matrix that may be singular to rounding
// (semidefinite, or with rows dependent on others): a pivot that comes out
// <= 0 is replaced by shift (> 0) instead of failing, and the number of
// pivots so replaced is returned. The factor is then that of a + E, E
// diagonal with shift - d_j >= shift at each replaced pivot j (d_j its
// value) and zero elsewhere: a is perturbed only in the directions along
// which it is singular, where a shift of every diagonal entry would also
// perturb the others and, tried after a failed Factor, costs a second
// factorisation. Where Factor succeeds, FactorShifted computes the same
// factor bit for bit. A pivot that is NaN still fails (*NotPDError), as
// does a shift that is not > 0 and finite.
func (c *Cholesky) FactorShifted(a *Dense, shift float64) (int, error) {
	if !(shift > 0) || math.IsInf(shift, 1) {
		return 0, fmt.Errorf("mat: Cholesky.FactorShifted: shift %g, want a finite number > 0", shift)
	}
	return c.factor(a, shift)
}

// FactorLess is Factor of a - mu I, formed in the factor's own storage:
// the factor is the one Factor computes for a copy of a with mu subtracted
// from each diagonal entry, bit for bit, without the copy. A nil error
// proves that a - mu I is numerically positive definite, i.e. that mu is
// (to within the factorisation's rounding) below a's smallest eigenvalue.
func (c *Cholesky) FactorLess(a *Dense, mu float64) error {
	_, err := c.factorLess(a, mu, 0)
	return err
}

// factor is Factor (shift 0) and FactorShifted.
func (c *Cholesky) factor(a *Dense, shift float64) (int, error) {
	return c.factorLess(a, 0, shift)
}

// factorLess factors a - mu I, with shift as in FactorShifted.
func (c *Cholesky) factorLess(a *Dense, mu, shift float64) (int, error) {
	n := a.Rows
	check("Cholesky.Factor", a.Cols, n, "cols")
	c.Reserve(n)
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
		if mu != 0 {
			l[i*n+i] -= mu
		}
	}
	if n <= cholUnblockedMax {
		shifted, err := factorPanel(l, n, 0, n, n, shift)
		if err != nil {
			c.n = 0
			return shifted, err
		}
		mirror(l, n)
		return shifted, nil
	}
	pk := newTrailingPack(n)
	shifted := 0
	for k0 := 0; k0 < n; k0 += cholBlock {
		k1 := min(k0+cholBlock, n)
		s, err := factorPanel(l, n, k0, k1, k1, shift)
		shifted += s
		if err != nil {
			c.n = 0
			return shifted, err
		}
		if k1 < n {
			panelBelow(l, n, k0, k1, c.Threads)
			pk.update(l, n, k0, k1, c.Threads)
		}
	}
	mirror(l, n)
	return shifted, nil
}

// cholBlock is the panel width of the blocked factorisation, and
// cholUnblockedMax the order up to which Factor is unblocked
// (BenchmarkCholesky: panels of 32 to 64 columns perform alike, 27 GFLOP/s
// at n = 1000 and 31 at n = 2000 against 12 unblocked; 96 and 128 are
// slower at n = 1000; the blocked factor overtakes the unblocked one
// between n = 200 and 300).
const (
	cholBlock        = 64
	cholUnblockedMax = 256
	columnGroup      = 8
)

// factorPanel computes columns k0..k1-1 of L in l (row-major, n x n, lower
// triangle), rows k0..end-1, from entries from which the products with
// columns 0..k0-1 have already been subtracted (Factor's trailing
// updates): column j's pivot is l_jj - sum_{k0<=p<j} l_jp^2 and its entries
// below (l_ij - sum_p l_ip l_jp) / pivot. A pivot <= 0 is an error, or
// with shift > 0 replaced by shift and counted (FactorShifted).
func factorPanel(l []float64, n, k0, k1, end int, shift float64) (int, error) {
	shifted := 0
	for j := k0; j < k1; j++ {
		lj := l[j*n+k0 : j*n+j]
		d := l[j*n+j] - vec.Dot(lj, lj)
		if !(d > 0) {
			if !(shift > 0) || math.IsNaN(d) {
				return shifted, &NotPDError{Pivot: j, Value: d}
			}
			d = shift
			shifted++
		}
		d = math.Sqrt(d)
		l[j*n+j] = d
		// Column j below the diagonal, four rows per Dot4 (which reads lj
		// once for the four).
		row := func(i int) []float64 { return l[i*n+k0 : i*n+j] }
		i := j + 1
		for ; i+4 <= end; i += 4 {
			s0, s1, s2, s3 := vec.Dot4(lj, row(i), row(i+1), row(i+2), row(i+3))
			l[i*n+j] = (l[i*n+j] - s0) / d
			l[(i+1)*n+j] = (l[(i+1)*n+j] - s1) / d
			l[(i+2)*n+j] = (l[(i+2)*n+j] - s2) / d
			l[(i+3)*n+j] = (l[(i+3)*n+j] - s3) / d
		}
		for ; i < end; i++ {
			l[i*n+j] = (l[i*n+j] - vec.Dot(row(i), lj)) / d
		}
	}
	return shifted, nil
}

// panelBelow computes columns k0..k1-1 of L in rows k1..n-1, once
// factorPanel has computed rows k0..k1-1: each row is a triangular solve
// with the panel's diagonal block, independent of the others, so the rows
// are split among threads goroutines in groups of four (one Dot4 a column
// for a group). The groups are fixed from k1 on, so every entry is
// computed the same way whatever threads is.
func panelBelow(l []float64, n, k0, k1, threads int) {
	groups := (n - k1 + 3) / 4
	const minParallel = 64 // rows a goroutine is worth
	threads = max(1, min(threads, (n-k1)/minParallel))
	if threads == 1 {
		solveRows(l, n, k0, k1, k1, n)
		return
	}
	per := (groups + threads - 1) / threads
	var wg sync.WaitGroup
	for t := 1; t < threads; t++ {
		lo, hi := k1+4*t*per, min(k1+4*(t+1)*per, n)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			solveRows(l, n, k0, k1, lo, hi)
		}()
	}
	solveRows(l, n, k0, k1, k1, min(k1+4*per, n))
	wg.Wait()
}

// solveRows is panelBelow for rows lo..hi-1 (lo - k1 a multiple of 4).
func solveRows(l []float64, n, k0, k1, lo, hi int) {
	row := func(i, j int) []float64 { return l[i*n+k0 : i*n+j] }
	i := lo
	for ; i+4 <= hi; i += 4 {
		for j := k0; j < k1; j++ {
			d := l[j*n+j]
			s0, s1, s2, s3 := vec.Dot4(row(j, j), row(i, j), row(i+1, j), row(i+2, j), row(i+3, j))
			l[i*n+j] = (l[i*n+j] - s0) / d
			l[(i+1)*n+j] = (l[(i+1)*n+j] - s1) / d
			l[(i+2)*n+j] = (l[(i+2)*n+j] - s2) / d
			l[(i+3)*n+j] = (l[(i+3)*n+j] - s3) / d
		}
	}
	for ; i < hi; i++ {
		for j := k0; j < k1; j++ {
			l[i*n+j] = (l[i*n+j] - vec.Dot(row(i, j), row(j, j))) / l[j*n+j]
		}
	}
}

// trailingPack holds the packed panels of a trailing update.
type trailingPack struct {
	ap, bp []float64
}

func newTrailingPack(n int) *trailingPack {
	const ta, tb = vec.TileA, vec.TileB
	return &trailingPack{ap: make([]float64, cholBlock*((n+ta-1)/ta*ta)), bp: make([]float64, cholBlock*((n+tb-1)/tb*tb))}
}

// update subtracts L21 L21^T from the lower triangle of the trailing block
// l[k1:, k1:], L21 = l[k1:, k0:k1] the panel just factored. The m = n-k1
// rows of L21 are packed, negated, into panels of vec.TileA rows (ap) and
// as they are into panels of vec.TileB rows (bp), each panel kc = k1-k0
// deep and padded with zero rows; then TileMulAdd adds -L21_J L21_I^T for
// each 4-row block J and 12-row block I with J's last row at or below
// I's first, into rows J, columns I of the trailing block. Blocks that
// straddle the diagonal also write entries above it, which no reader of
// the factor looks at; blocks that cross the bottom edge go through a
// buffer and only their rows inside are added.
func (pk *trailingPack) update(l []float64, n, k0, k1, threads int) {
	const ta, tb = vec.TileA, vec.TileB
	m, kc := n-k1, k1-k0
	na := (m + ta - 1) / ta * ta
	nb := (m + tb - 1) / tb * tb
	ap, bp := pk.ap[:kc*na], pk.bp[:kc*nb]
	clear(ap[m/ta*ta*kc:])
	clear(bp[m/tb*tb*kc:])
	for i := 0; i < m; i++ {
		src := l[(k1+i)*n+k0 : (k1+i)*n+k1]
		a := ap[(i/ta)*ta*kc+i%ta:]
		b := bp[(i/tb)*tb*kc+i%tb:]
		for p, v := range src {
			a[p*ta] = -v
			b[p*tb] = v
		}
	}
	c := l[k1*n+k1:]
	// The column groups go to the goroutines in turn (group g to
	// goroutine g mod threads: the work of a column shrinks with its
	// index, so this shares it out evenly); every tile is written by one
	// goroutine only.
	// Below minParallel rows a goroutine costs more than it saves.
	const minParallel = 64
	threads = max(1, min(threads, m/minParallel))
	if threads == 1 {
		updateColumns(c, n, m, kc, ap, bp, 0, 1)
		return
	}
	var wg sync.WaitGroup
	for t := 1; t < threads; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			updateColumns(c, n, m, kc, ap, bp, t, threads)
		}()
	}
	updateColumns(c, n, m, kc, ap, bp, 0, threads)
	wg.Wait()
}

// updateColumns adds the tiles of column groups first, first+stride, ...
// of the trailing update (see update) into c, the trailing block (row
// stride n, order m). A group is columnGroup blocks of vec.TileA columns:
// goroutines writing neighbouring 4-column blocks would share cache lines.
func updateColumns(c []float64, n, m, kc int, ap, bp []float64, first, stride int) {
	const ta, tb = vec.TileA, vec.TileB
	var edge [tb * ta]float64
	for i0 := 0; i0 < m; i0 += ta {
		if (i0/(ta*columnGroup))%stride != first {
			continue
		}
		a := ap[i0*kc : (i0+ta)*kc]
		for j0 := i0; j0 < m; j0 += tb {
			b := bp[j0*kc : (j0+tb)*kc]
			if j0+tb <= m && i0+ta <= m {
				vec.TileMulAdd(c[j0*n+i0:], n, a, b)
				continue
			}
			edge = [tb * ta]float64{}
			vec.TileMulAdd(edge[:], ta, a, b)
			for jj := 0; jj < tb && j0+jj < m; jj++ {
				d := c[(j0+jj)*n+i0:]
				for ii := 0; ii < ta && i0+ii < m; ii++ {
					d[ii] += edge[jj*ta+ii]
				}
			}
		}
	}
}

// N is the order of the factored matrix (0 before a successful Factor).
func (c *Cholesky) N() int { return c.n }

// SolveL solves L y = b (forward substitution; O(n) when the factored
// matrix was diagonal, O(n^2) otherwise). dst may alias b.
//
// Up to order smallSolve each row's products are subtracted one at a time
// in Go; above, rows are taken four at a time: their products with the y
// found so far come from one vec.Dot4, which reads y once for all four,
// and the 4 x 4 triangle below the diagonal is finished by hand. Each y_i is still an
// ordered sum of the products that define it, so the solve's backward
// error is that of any order of summation (|dL| <= gamma_n |L|, Higham,
// Accuracy and Stability of Numerical Algorithms, Thm 8.5). At n = 100 it
// takes about half the time of a Dot per row (BenchmarkTriangularSolve).
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
	if n <= smallSolve {
		for i := 0; i < n; i++ {
			r, s := l[i*n:i*n+i], b[i]
			for k, v := range r {
				s -= v * dst[k]
			}
			dst[i] = s / l[i*n+i]
		}
		return
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		r0, r1, r2, r3 := l[i*n:i*n+i+1], l[(i+1)*n:(i+1)*n+i+2], l[(i+2)*n:(i+2)*n+i+3], l[(i+3)*n:(i+3)*n+i+4]
		s0, s1, s2, s3 := vec.Dot4(dst[:i], r0[:i], r1[:i], r2[:i], r3[:i])
		y0 := (b[i] - s0) / r0[i]
		y1 := (b[i+1] - (s1 + r1[i]*y0)) / r1[i+1]
		y2 := (b[i+2] - (s2 + r2[i]*y0 + r2[i+1]*y1)) / r2[i+2]
		y3 := (b[i+3] - (s3 + r3[i]*y0 + r3[i+1]*y1 + r3[i+2]*y2)) / r3[i+3]
		dst[i], dst[i+1], dst[i+2], dst[i+3] = y0, y1, y2, y3
	}
	for ; i < n; i++ {
		dst[i] = (b[i] - vec.Dot(l[i*n:i*n+i], dst[:i])) / l[i*n+i]
	}
}

// SolveLT solves L^T x = y (backward substitution). dst may alias y.
//
// It reads the rows of L^T, which Factor keeps in the strict upper
// triangle of its storage (mirror): each x_i is then a dot product over a
// contiguous row, four rows from one vec.Dot4 as in SolveL (one at a time
// in Go up to order smallSolve), where the columns of L would be strided.
// The backward error is SolveL's.
func (c *Cholesky) SolveLT(dst, y []float64) {
	n, l := c.n, c.l
	check("Cholesky.SolveLT", len(dst), n, "dst")
	check("Cholesky.SolveLT", len(y), n, "y")
	if c.diag {
		for i := range dst {
			dst[i] = y[i] / l[i*n+i]
		}
		return
	}
	// Row i of L^T is l[i*n+i : (i+1)*n]: its diagonal entry, then the
	// entries right of it, which multiply x_{i+1}, ..., x_{n-1}.
	if n <= smallSolve {
		for i := n - 1; i >= 0; i-- {
			r, s := l[i*n+i+1:(i+1)*n], y[i]
			for k, v := range r {
				s -= v * dst[i+1+k]
			}
			dst[i] = s / l[i*n+i]
		}
		return
	}
	i := n - 1
	for ; i >= 3; i -= 4 {
		r0, r1, r2, r3 := l[i*n+i:(i+1)*n], l[(i-1)*n+i-1:i*n], l[(i-2)*n+i-2:(i-1)*n], l[(i-3)*n+i-3:(i-2)*n]
		s0, s1, s2, s3 := vec.Dot4(dst[i+1:n], r0[1:], r1[2:], r2[3:], r3[4:])
		x0 := (y[i] - s0) / r0[0]
		x1 := (y[i-1] - (s1 + r1[1]*x0)) / r1[0]
		x2 := (y[i-2] - (s2 + r2[2]*x0 + r2[1]*x1)) / r2[0]
		x3 := (y[i-3] - (s3 + r3[3]*x0 + r3[2]*x1 + r3[1]*x2)) / r3[0]
		dst[i], dst[i-1], dst[i-2], dst[i-3] = x0, x1, x2, x3
	}
	for ; i >= 0; i-- {
		dst[i] = (y[i] - vec.Dot(l[i*n+i+1:(i+1)*n], dst[i+1:n])) / l[i*n+i]
	}
}

// smallSolve is the order up to which SolveL and SolveLT subtract the
// products one at a time in Go: below it a call of the vector kernels
// costs more than the few products it would take (BenchmarkTriangularSolve).
const smallSolve = 16

// mirror copies the strict lower triangle of l (order n, row-major) into
// the strict upper one, transposed: l[j*n+i] = l[i*n+j] for i > j, so that
// the rows of L^T are contiguous (SolveLT). It goes by 32 x 32 tiles, so
// that the strided writes stay within a few pages at a time: O(n^2)
// against the factorisation's n^3/3.
func mirror(l []float64, n int) {
	const t = 32
	for i0 := 0; i0 < n; i0 += t {
		for j0 := 0; j0 <= i0; j0 += t {
			for i := i0; i < min(i0+t, n); i++ {
				for j := j0; j < min(j0+t, i); j++ {
					l[j*n+i] = l[i*n+j]
				}
			}
		}
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
// A - mu I). v and w (length n) are its scratch; it allocates nothing.
func (c *Cholesky) MinEigen(iters int, v, w []float64) float64 {
	n := c.n
	if n == 0 {
		return 0
	}
	check("Cholesky.MinEigen", len(v), n, "v")
	check("Cholesky.MinEigen", len(w), n, "w")
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
