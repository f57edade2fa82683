package mat

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/softpen/softpen/vec"
)

// Cholesky holds the factor L (lower triangular, row-major) of a symmetric
// positive definite matrix A = L L^T. The zero value is ready for Factor;
// refactoring a matrix of the same size allocates nothing.
type Cholesky struct {
	// Threads is the number of goroutines among which Factor splits the
	// copy of a and the work of each block column above order
	// cholUnblockedMax (0 or 1: the calling goroutine alone). Each entry of L is computed by the same
	// operations in the same order whatever the number, so the factor is
	// the same bit for bit.
	Threads int

	n    int
	l    []float64 // L in the lower triangle, L^T above it (mirror, transposeRows)
	inv  []float64 // 1 / L_ii, which the solves multiply by (after l in one allocation)
	diag bool      // L is diagonal (a was): the solves take O(n)
	work *cholWork // the blocked factorisation's packed panels and goroutines
}

// Reserve sizes the factor's storage and workspace for order n: a later
// Factor, FactorShifted or FactorLess of order at most n allocates nothing
// for them (the first one with more Threads than before makes the
// goroutines' functions).
func (c *Cholesky) Reserve(n int) {
	if cap(c.l) < n*n+n {
		c.l = make([]float64, n*n+n)
	}
	if n > cholUnblockedMax {
		if c.work == nil {
			c.work = new(cholWork)
		}
		c.work.reserve(n, 1)
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
// (each entry a dot product over the row before it); above, in block
// columns of up to cholBlock columns, each block column's product with itself
// subtracted from the rest of the matrix at once by vec.TileMulAdd on
// packed panels, and the block column itself computed by halves whose
// products are subtracted the same way (a blocked, right-looking
// factorisation: nearly all of the n^3/3 flops run at the rate of a matrix
// product instead of that of dot products). Either way each entry of L is
// a sum, in a fixed order, of the products that define it, so L L^T is
// within vec.DotErrorBound(n+1) |L| |L^T| of a entrywise; the summation
// order, and with it the last bits, differ between the two. Above
// cholUnblockedMax the first call at an order allocates the packed
// panels, at most n^2/4 floats, which the Cholesky keeps (Reserve).
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
	var shifted int
	var err error
	if n <= cholUnblockedMax {
		c.diag = !copyLower(l, n, a.Data, a.Stride, mu, 0, n)
		if shifted, err = factorPanel(l, n, 0, n, n, shift); err == nil {
			mirror(l, n)
		}
	} else {
		c.diag, shifted, err = c.work.factor(l, a, mu, shift, c.Threads)
	}
	if err != nil {
		c.n = 0
		return shifted, err
	}
	c.inv = c.l[n*n : n*n+n]
	for i := range c.inv {
		c.inv[i] = 1 / l[i*n+i]
	}
	return shifted, nil
}

// copyLower copies rows lo..hi-1 of the lower triangle of a (order n,
// row-major in src with row stride stride) into l (row stride n), with mu
// subtracted from the diagonal, and reports whether any entry left of the
// diagonal is nonzero.
func copyLower(l []float64, n int, src []float64, stride int, mu float64, lo, hi int) bool {
	offDiag := false
	for i := lo; i < hi; i++ {
		copy(l[i*n:i*n+i+1], src[i*stride:i*stride+i+1])
		for _, v := range l[i*n : i*n+i] {
			if offDiag || v != 0 {
				offDiag = true // and one is enough
				break
			}
		}
		if mu != 0 {
			l[i*n+i] -= mu
		}
	}
	return offDiag
}

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

// substitute computes columns c0..c1-1 of L in rows lo..hi-1 (below
// c1, c1 - c0 <= cholInner), once rows c0..c1-1 are: row i's entry in
// column j is (l_ij - l_i,c0 l_j,c0 - ... - l_i,j-1 l_j,j-1) / l_jj, the
// products subtracted one at a time in order. It goes column by column:
// each entry found is at once multiplied into the entries right of it,
// whose chains of operations are independent, where a row's own sums
// would wait on each other (column j's sum for the entry just divided).
// Four rows are taken at once, each by the same operations as alone.
func substitute(l []float64, n, c0, c1, lo, hi int) {
	// lt[j*cholInner+k] = L[c0+k, c0+j], k >= j: the columns of the
	// diagonal block, contiguous.
	var lt [cholInner * cholInner]float64
	w := c1 - c0
	for k := 0; k < w; k++ {
		for j := 0; j <= k; j++ {
			lt[j*cholInner+k] = l[(c0+k)*n+c0+j]
		}
	}
	i := lo
	for ; i+4 <= hi; i += 4 {
		r0 := l[i*n+c0 : i*n+c1]
		r1 := l[(i+1)*n+c0 : (i+1)*n+c1]
		r2 := l[(i+2)*n+c0 : (i+2)*n+c1]
		r3 := l[(i+3)*n+c0 : (i+3)*n+c1]
		r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
		for j := range r0 {
			col := lt[j*cholInner : j*cholInner+len(r0)]
			d := col[j]
			x0, x1, x2, x3 := r0[j]/d, r1[j]/d, r2[j]/d, r3[j]/d
			r0[j], r1[j], r2[j], r3[j] = x0, x1, x2, x3
			for k := j + 1; k < len(col); k++ {
				v := col[k]
				r0[k] -= v * x0
				r1[k] -= v * x1
				r2[k] -= v * x2
				r3[k] -= v * x3
			}
		}
	}
	for ; i < hi; i++ {
		r := l[i*n+c0 : i*n+c1]
		for j := range r {
			col := lt[j*cholInner : j*cholInner+len(r)]
			x := r[j] / col[j]
			r[j] = x
			for k := j + 1; k < len(col); k++ {
				r[k] -= col[k] * x
			}
		}
	}
}

// cholWork is the blocked factorisation's workspace: the packed copies of
// the current block column of L and the goroutines' functions, made once
// and kept by the Cholesky so that refactoring allocates nothing.
//
// The block column k0..k1-1 (k1 - k0 = nb, less in the last one) is
// packed, as its columns are computed, for vec.TileMulAdd: rows k0, k0+1,
// ... of L[:, k0:k1] negated into panels of vec.TileA rows (ap) and as they
// are into panels of vec.TileB rows (bp), each panel nb deep (row p
// of a panel holds column k0+p) and padded with zero rows past n. Rows
// p0..p1-1 of a panel are then the panel of columns k0+p0..k0+p1-1.
type cholWork struct {
	ap, bp []float64
	nb     int // the width of the block columns (blockWidth)

	// The step in progress, read by every goroutine of a run.
	l       []float64
	n       int
	k0, k1  int // the block column
	shift   float64
	step    int // stepCopy, stepBelow or stepTrailing
	threads int // goroutines of the step
	// a's entries and row stride, not a: storing a would move it to the
	// heap in every caller that keeps it on its stack.
	src     []float64
	stride  int
	mu      float64
	offDiag []bool // offDiag[t]: goroutine t's rows of a have a nonzero left of the diagonal
	start   []func()
	wg      sync.WaitGroup
}

// The steps of the blocked factorisation that run on several goroutines.
const (
	stepCopy     = iota // copyLower
	stepBelow           // the rows below a block column's diagonal block
	stepTrailing        // the trailing update
)

// cholBlock is the widest block column (see blockWidth), the depth of
// the trailing update's tiles; cholInner the width of the narrowest column
// blocks into which a block column is halved (see columns), computed by
// substitution. Both are multiples of vec.TileA, so that a block column's
// tiles start on panel boundaries. cholRowChunk is the number of rows
// below a block column computed at once, and of the trailing update's
// rows whose packed panels (cholBlock x cholRowChunk floats at most) are
// reused, from the core's cache, by every column block before the next
// rows; a multiple of vec.TileA too (packA). cholUnblockedMax is the order
// up to which Factor is unblocked. (BenchmarkCholesky: block columns of
// 144 to 288 perform alike from n = 1000 on, and so do chunks of 128 to
// 512 rows.)
const (
	cholBlock        = 192
	cholInner        = 12
	cholRowChunk     = 252
	cholUnblockedMax = 256
	columnGroup      = 8
	// minParallelRows is the fewest rows a goroutine is given.
	minParallelRows = 64
)

// blockWidth is the width of the block columns at order n: cholBlock, or
// less below order 8 cholBlock, so that the two sets of panels, each
// about n by the width, take at most a quarter of the factor's own n^2
// floats (the panels of a Cholesky at n = 300 were most of a solver's
// footprint beyond its matrices, TestNewSolverCopiesOfP); a multiple of
// cholInner, at least cholInner.
func blockWidth(n int) int {
	return min(cholBlock, max(cholInner, n/8/cholInner*cholInner))
}

// reserve sizes the panels for order n and makes the functions of threads
// goroutines.
func (w *cholWork) reserve(n, threads int) {
	const ta = vec.TileA
	// Both sets of panels hold n rows padded to whole TileA panels (the
	// TileB ones for packA).
	size := (n + ta - 1) / ta * ta * blockWidth(n)
	if len(w.ap) < size {
		w.ap = make([]float64, size)
	}
	if len(w.bp) < size {
		w.bp = make([]float64, size)
	}
	for t := len(w.start); t < threads; t++ {
		w.start = append(w.start, func() {
			w.do(t)
			w.wg.Done()
		})
		w.offDiag = append(w.offDiag, false)
	}
}

// factor copies a - mu I (lower triangle) into l and computes L there
// (order n > cholUnblockedMax), by block columns; diag reports that a is
// diagonal. Each block column is computed from entries from which the
// products of the earlier block columns have been subtracted: its
// diagonal block first, on the calling goroutine, then the rows below it,
// split among goroutines (columns); then its product with itself is
// subtracted from the trailing block (updateTrailing).
func (w *cholWork) factor(l []float64, a *Dense, mu, shift float64, threads int) (diag bool, shifted int, err error) {
	n := a.Rows
	threads = max(1, threads)
	w.reserve(n, threads)
	w.l, w.n, w.shift, w.src, w.stride, w.mu = l, n, shift, a.Data, a.Stride, mu
	defer func() { w.l, w.src = nil, nil }()
	w.step = stepCopy
	w.run(max(1, min(threads, n/minParallelRows)))
	diag = !slices.Contains(w.offDiag[:w.threads], true)
	w.nb = blockWidth(n)
	for k0 := 0; k0 < n; k0 += w.nb {
		w.k0, w.k1 = k0, min(k0+w.nb, n)
		w.clearPadding()
		s, err := w.columns(w.k0, w.k1, w.k0, w.k1)
		shifted += s
		if err != nil {
			return diag, shifted, err
		}
		w.transposeDiagonal()
		if w.k1 == n {
			break
		}
		m := n - w.k1
		w.step = stepBelow
		w.run(max(1, min(threads, m/minParallelRows)))
		w.step = stepTrailing
		w.run(max(1, min(threads, m/minParallelRows)))
	}
	return diag, shifted, nil
}

// run does the step on threads goroutines (the caller's among them).
func (w *cholWork) run(threads int) {
	w.threads = threads
	w.wg.Add(threads - 1)
	for t := 1; t < threads; t++ {
		go w.start[t]()
	}
	w.do(0)
	w.wg.Wait()
}

// do is goroutine t's share of the step: a range of the rows of a to
// copy, a range of the rows below the block column, or column groups of
// the trailing update.
func (w *cholWork) do(t int) {
	switch w.step {
	case stepCopy:
		// Row i has i+1 entries: rows up to n sqrt(t/threads) hold about
		// t/threads of the triangle.
		bound := func(t int) int { return int(float64(w.n) * math.Sqrt(float64(t)/float64(w.threads))) }
		w.offDiag[t] = copyLower(w.l, w.n, w.src, w.stride, w.mu, bound(t), bound(t+1))
		return
	case stepTrailing:
		w.updateTrailing(t)
		return
	}
	// Rows k1.. in ranges of whole vec.TileA panels, so that no two
	// goroutines write one panel row.
	const ta = vec.TileA
	per := ((w.n-w.k1+ta-1)/ta + w.threads - 1) / w.threads * ta
	lo, hi := w.k1+t*per, min(w.k1+(t+1)*per, w.n)
	// cholRowChunk rows at a time through all the block column's columns:
	// their part of the panels and of l stays in the core's cache.
	for ; lo < hi; lo += cholRowChunk {
		end := min(lo+cholRowChunk, hi)
		w.columns(w.k0, w.k1, lo, end) // below the diagonal: no pivots
		w.transposeRows(lo, end)
		w.packA(lo, end)
	}
}

// transposeRows writes columns k0..k1-1 of rows lo..hi-1 of L (lo - k0 a
// multiple of vec.TileB) into rows k0..k1-1 of L^T, the upper triangle of
// l, from the TileB panels (where each column's TileB entries lie
// together). Nothing writes those entries of the upper triangle later.
func (w *cholWork) transposeRows(lo, hi int) {
	const tb = vec.TileB
	n, k0, kc := w.n, w.k0, w.k1-w.k0
	for i := lo; i < hi; i += tb {
		b := w.bpPanel(i, k0, w.k1)
		if i+tb > hi {
			for p := range kc {
				copy(w.l[(k0+p)*n+i:(k0+p)*n+hi], b[p*tb:])
			}
			continue
		}
		for p := range kc {
			d := w.l[(k0+p)*n+i : (k0+p)*n+i+tb : (k0+p)*n+i+tb]
			s := b[p*tb : p*tb+tb : p*tb+tb]
			d[0], d[1], d[2], d[3] = s[0], s[1], s[2], s[3]
		}
	}
}

// transposeDiagonal writes the lower triangle of the block column's
// diagonal block into its upper triangle (L^T), once the block column is
// done: the tiles of its own updates write there too.
func (w *cholWork) transposeDiagonal() {
	n := w.n
	for i := w.k0; i < w.k1; i++ {
		for j := w.k0; j < i; j++ {
			w.l[j*n+i] = w.l[i*n+j]
		}
	}
}

// columns computes columns c0..c1-1 of L in rows lo..hi-1, either the
// diagonal block's (lo = c0, hi = c1) or rows below it (lo >= c1, once the
// diagonal block is done), and packs them. Up to cholInner columns: the
// diagonal block by factorPanel, the rows below it by substitution. Wider:
// the left half, then its product with itself subtracted from the right
// half (by tiles: the left half's own panels of depth mid - c0), then the
// right half. Every entry is thus computed the same way whatever rows lo..hi
// it was computed with.
func (w *cholWork) columns(c0, c1, lo, hi int) (int, error) {
	const ta = vec.TileA
	if c1-c0 <= cholInner {
		var s int
		if lo == c0 {
			var err error
			if s, err = factorPanel(w.l, w.n, c0, c1, c1, w.shift); err != nil {
				return s, err
			}
		}
		substitute(w.l, w.n, c0, c1, max(lo, c1), hi)
		w.pack(c0, c1, lo, hi)
		return s, nil
	}
	mid := c0 + ((c1-c0+ta-1)/ta+1)/2*ta
	s, err := w.columns(c0, mid, lo, hi)
	if err != nil {
		return s, err
	}
	lo = max(lo, mid)
	w.updateColumns(c0, mid, c1, lo, hi)
	s1, err := w.columns(mid, c1, lo, hi)
	return s + s1, err
}

// clearPadding zeroes the padding rows, past n, of the block column's last
// panels (the panels' other rows are all written before they are read).
func (w *cholWork) clearPadding() {
	const ta, tb = vec.TileA, vec.TileB
	m := w.n - w.k0
	clear(w.ap[m/ta*ta*w.nb : (m+ta-1)/ta*ta*w.nb])
	clear(w.bp[m/tb*tb*w.nb : (m+ta-1)/ta*ta*w.nb])
}

// apPanel and bpPanel are the packed panels holding row i of L (k0 <= i)
// in the block column, for its columns c0..c1-1.
func (w *cholWork) apPanel(i, c0, c1 int) []float64 {
	const ta = vec.TileA
	o := (i - w.k0) / ta * ta * w.nb
	return w.ap[o+(c0-w.k0)*ta : o+(c1-w.k0)*ta]
}

func (w *cholWork) bpPanel(i, c0, c1 int) []float64 {
	const tb = vec.TileB
	o := (i - w.k0) / tb * tb * w.nb
	return w.bp[o+(c0-w.k0)*tb : o+(c1-w.k0)*tb]
}

// pack copies columns c0..c1-1 of rows lo..hi-1 of L into the TileB
// panels, and into the TileA panels if they are rows of the diagonal
// block (whose TileA panels the rows below read, in updateColumns). The
// TileA panels of the rows below are read only by the trailing update:
// packA makes them from the TileB panels at once, one TileA row (one
// column of L) at a time, where writing each entry as it is found would
// write every cache line of them a TileA-th at a time.
func (w *cholWork) pack(c0, c1, lo, hi int) {
	const ta, tb = vec.TileA, vec.TileB
	n, p0 := w.n, c0-w.k0
	for i := lo; i < hi; i++ {
		src := w.l[i*n+c0 : i*n+c1]
		r := i - w.k0
		b := w.bp[r/tb*tb*w.nb+p0*tb+r%tb:]
		for q, v := range src {
			b[q*tb] = v
		}
		if i < w.k1 {
			a := w.ap[r/ta*ta*w.nb+p0*ta+r%ta:]
			for q, v := range src {
				a[q*ta] = -v
			}
		}
	}
}

// packA fills the TileA panels of rows lo..hi-1 (lo - k0 a multiple of
// TileA) from their TileB panels, negated: row p of a TileA panel is row p
// of each of the three TileB panels of its rows.
func (w *cholWork) packA(lo, hi int) {
	const ta, tb = vec.TileA, vec.TileB
	for i := lo; i < hi; i += ta {
		a := w.apPanel(i, w.k0, w.k1)
		b0, b1, b2 := w.bpPanel(i, w.k0, w.k1), w.bpPanel(i+tb, w.k0, w.k1), w.bpPanel(i+2*tb, w.k0, w.k1)
		for p := 0; p < len(a)/ta; p++ {
			d := a[p*ta : p*ta+ta : p*ta+ta]
			s0 := b0[p*tb : p*tb+tb : p*tb+tb]
			s1 := b1[p*tb : p*tb+tb : p*tb+tb]
			s2 := b2[p*tb : p*tb+tb : p*tb+tb]
			d[0], d[1], d[2], d[3] = -s0[0], -s0[1], -s0[2], -s0[3]
			d[4], d[5], d[6], d[7] = -s1[0], -s1[1], -s1[2], -s1[3]
			d[8], d[9], d[10], d[11] = -s2[0], -s2[1], -s2[2], -s2[3]
		}
	}
}

// updateColumns subtracts from rows lo..hi-1, columns mid..c1-1 of l their
// products with columns c0..mid-1 of L (packed), by tiles of vec.TileB
// rows from lo, each row's tiles in turn (its panel read once for all).
// Tiles that straddle the diagonal also write entries above it, which
// hold nothing the factorisation reads; tiles wholly above it are left out.
//
// Below the diagonal block (lo >= c1), where every row's tiles span all
// the columns, and where tileQuad (gram.go), pairs of row tiles take
// pairs of column blocks by vec.TileMulAddQuad, with the bits of their
// four tiles.
func (w *cholWork) updateColumns(c0, mid, c1, lo, hi int) {
	const ta, tb = vec.TileA, vec.TileB
	if tileQuad && lo >= c1 {
		for ; lo+2*tb <= hi; lo += 2 * tb {
			b0, b1 := w.bpPanel(lo, c0, mid), w.bpPanel(lo+tb, c0, mid)
			j := mid
			for ; j+2*ta <= c1; j += 2 * ta {
				vec.TileMulAddQuad(w.l[lo*w.n+j:], w.n, w.apPanel(j, c0, mid), w.apPanel(j+ta, c0, mid), b0, b1)
			}
			for ; j < c1; j += ta {
				addTile(w.l, w.n, lo, j, tb, min(ta, c1-j), w.apPanel(j, c0, mid), b0)
				addTile(w.l, w.n, lo+tb, j, tb, min(ta, c1-j), w.apPanel(j, c0, mid), b1)
			}
		}
	}
	for i := lo; i < hi; i += tb {
		b := w.bpPanel(i, c0, mid)
		for j := mid; j < c1 && j < i+tb; j += ta {
			addTile(w.l, w.n, i, j, min(tb, hi-i), min(ta, c1-j), w.apPanel(j, c0, mid), b)
		}
	}
}

// updateTrailing is goroutine t's share of the trailing update: it
// subtracts L21 L21^T, L21 = L[k1:, k0:k1] (packed), from the lower
// triangle of the trailing block l[k1:, k1:], in the column groups (of
// columnGroup blocks of vec.TileA columns) that groupOwner deals it
// (goroutines writing neighbouring columns would share cache lines).
// Within a range of cholRowChunk rows it takes all its column blocks (each
// TileB x TileA tile from a TileA panel of L21 and a TileB one) before the
// next range, so that the range's TileB panels come from the cache.
func (w *cholWork) updateTrailing(t int) {
	const g = columnGroup * vec.TileA
	n, k1 := w.n, w.k1
	for r0 := k1; r0 < n; r0 += cholRowChunk {
		r1 := min(r0+cholRowChunk, n)
		for q, j0 := 0, k1; j0 < r1; q, j0 = q+1, j0+g {
			if groupOwner(q, w.threads) != t {
				continue
			}
			w.trailingGroup(j0, min(j0+g, r1), r0, r1)
		}
	}
}

// trailingGroup subtracts from l the trailing update's tiles of the
// column blocks j0, j0+TileA, ... below jend (multiples of TileA from k1)
// in rows r0..r1-1: for column block j, the tiles of rows max(j, r0)..,
// TileB at a time. Where tileQuad (gram.go), two column blocks are
// taken at once, and their tiles by vec.TileMulAddQuad in pairs of row
// blocks where both are wanted and inside l; the rest one by one. Either
// way each tile has the bits of its own vec.TileMulAdd.
func (w *cholWork) trailingGroup(j0, jend, r0, r1 int) {
	const ta, tb = vec.TileA, vec.TileB
	n, k0, k1 := w.n, w.k0, w.k1
	for j := j0; j < jend; {
		a := w.apPanel(j, k0, k1)
		if !tileQuad || j+ta >= jend || j+2*ta > n {
			for i := max(j, r0); i < r1; i += tb {
				addTile(w.l, n, i, j, min(tb, n-i), min(ta, n-j), a, w.bpPanel(i, k0, k1))
			}
			j += ta
			continue
		}
		a1 := w.apPanel(j+ta, k0, k1)
		i := max(j, r0)
		for ; i < min(max(j+ta, r0), r1); i += tb { // rows only column block j reaches
			addTile(w.l, n, i, j, min(tb, n-i), ta, a, w.bpPanel(i, k0, k1))
		}
		for ; i+2*tb <= r1; i += 2 * tb {
			vec.TileMulAddQuad(w.l[i*n+j:], n, a, a1, w.bpPanel(i, k0, k1), w.bpPanel(i+tb, k0, k1))
		}
		for ; i < r1; i += tb {
			addTile(w.l, n, i, j, min(tb, n-i), ta, a, w.bpPanel(i, k0, k1))
			addTile(w.l, n, i, j+ta, min(tb, n-i), ta, a1, w.bpPanel(i, k0, k1))
		}
		j += 2 * ta
	}
}

// groupOwner is the goroutine, of threads, that takes column group q of
// a trailing update: 0, 1, ..., threads-1, then back from threads-1 to 0,
// and so on. The work of a group shrinks with q (its columns are shorter),
// so dealing them round and round would give goroutine 0 the most each
// round; back and forth, the excess of one round is the deficit of the
// next.
func groupOwner(q, threads int) int {
	r := q % (2 * threads)
	if r < threads {
		return r
	}
	return 2*threads - 1 - r
}

// addTile adds vec.TileMulAdd(a, b) into rows i.. and columns j.. of l
// (row stride n), rows x cols entries of it: a tile that crosses an edge
// of l goes through a buffer. Both ways each entry is l's plus the
// kernel's sum, so the bits do not depend on the way.
func addTile(l []float64, n, i, j, rows, cols int, a, b []float64) {
	const ta, tb = vec.TileA, vec.TileB
	if rows == tb && cols == ta {
		vec.TileMulAdd(l[i*n+j:], n, a, b)
		return
	}
	var edge [tb * ta]float64
	vec.TileMulAdd(edge[:], ta, a, b)
	for r := 0; r < rows; r++ {
		d := l[(i+r)*n+j : (i+r)*n+j+cols]
		for q := range d {
			d[q] += edge[r*ta+q]
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
// and the 4 x 4 triangle below the diagonal is finished by hand. Each y_i is
// an ordered sum of the products that define it, multiplied by 1 / L_ii
// (computed once by the factorisation): a division's 13-20 cycles on the
// chain from one y_i to the next cost more than the rest of a row at
// n = 100, and the reciprocal's rounding only adds one to the diagonal's.
// The solve's backward error is therefore |dL| <= gamma_{n+1} |L| (Higham,
// Accuracy and Stability of Numerical Algorithms, Thm 8.5, with the
// diagonal rounded twice). BenchmarkTriangularSolve times it.
func (c *Cholesky) SolveL(dst, b []float64) {
	n, l, inv := c.n, c.l, c.inv
	check("Cholesky.SolveL", len(dst), n, "dst")
	check("Cholesky.SolveL", len(b), n, "b")
	if c.diag {
		// Independent divisions pipeline: no reciprocal's rounding here.
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
			dst[i] = s * inv[i]
		}
		return
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		r0, r1, r2, r3 := l[i*n:i*n+i+1], l[(i+1)*n:(i+1)*n+i+2], l[(i+2)*n:(i+2)*n+i+3], l[(i+3)*n:(i+3)*n+i+4]
		s0, s1, s2, s3 := vec.Dot4(dst[:i], r0[:i], r1[:i], r2[:i], r3[:i])
		// b - s first, off the chain through y0..y3.
		t1, t2, t3 := b[i+1]-s1, b[i+2]-s2, b[i+3]-s3
		y0 := (b[i] - s0) * inv[i]
		y1 := (t1 - r1[i]*y0) * inv[i+1]
		y2 := (t2 - r2[i]*y0 - r2[i+1]*y1) * inv[i+2]
		y3 := (t3 - r3[i]*y0 - r3[i+1]*y1 - r3[i+2]*y2) * inv[i+3]
		dst[i], dst[i+1], dst[i+2], dst[i+3] = y0, y1, y2, y3
	}
	for ; i < n; i++ {
		dst[i] = (b[i] - vec.Dot(l[i*n:i*n+i], dst[:i])) * inv[i]
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
	n, l, inv := c.n, c.l, c.inv
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
			dst[i] = s * inv[i]
		}
		return
	}
	i := n - 1
	for ; i >= 3; i -= 4 {
		r0, r1, r2, r3 := l[i*n+i:(i+1)*n], l[(i-1)*n+i-1:i*n], l[(i-2)*n+i-2:(i-1)*n], l[(i-3)*n+i-3:(i-2)*n]
		s0, s1, s2, s3 := vec.Dot4(dst[i+1:n], r0[1:], r1[2:], r2[3:], r3[4:])
		t1, t2, t3 := y[i-1]-s1, y[i-2]-s2, y[i-3]-s3
		x0 := (y[i] - s0) * inv[i]
		x1 := (t1 - r1[1]*x0) * inv[i-1]
		x2 := (t2 - r2[2]*x0 - r2[1]*x1) * inv[i-2]
		x3 := (t3 - r3[3]*x0 - r3[2]*x1 - r3[1]*x2) * inv[i-3]
		dst[i], dst[i-1], dst[i-2], dst[i-3] = x0, x1, x2, x3
	}
	for ; i >= 0; i-- {
		dst[i] = (y[i] - vec.Dot(l[i*n+i+1:(i+1)*n], dst[i+1:n])) * inv[i]
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
