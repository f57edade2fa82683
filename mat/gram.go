package mat

import (
	"sync"

	"github.com/softpen/softpen/vec"
)

// Gram sets dst = scale * A^T A (Cols x Cols, exactly symmetric); see
// GramRows.
func (m *Dense) Gram(dst *Dense, scale float64) {
	gram("Gram", dst, m.Rows, m.Cols, m.Row, nil, scale)
}

// GramRows sets dst = scale * A^T A for the matrix A whose rows are rows
// (each of length dst.Cols): Gram without first copying the rows into a
// Dense. The result is exactly symmetric: the upper triangle is computed
// and copied to the lower. dst must be Cols x Cols and must not overlap
// the rows; only its Cols x Cols block is written.
//
// When at least a quarter of A's entries are nonzero the product is
// blocked (gramDense): per block of gramKC rows, A's columns are packed
// into panels and multiplied by vec.TileMulAdd. This allocates the packing
// buffers, about 2*min(len(rows), gramKC)*Cols floats, on each call, except
// with at most 28 columns, where they fit on the stack.
// Otherwise A is walked by rows, a rank-one update per row that skips zero
// entries, and nothing is allocated (BenchmarkGram,
// BenchmarkGramCholesky).
//
// Each entry is within vec.DotErrorBound(len(rows)+1) * |scale| *
// sum_k |a_ki a_kj| of the exact value (for |scale| a power of two; one
// more rounding otherwise), on every kernel path. NaN and Inf propagate as
// in the sums: an entry is NaN if any of its terms is.
func GramRows(dst *Dense, rows [][]float64, scale float64) {
	gram("GramRows", dst, len(rows), dst.Cols, func(i int) []float64 { return rows[i] }, nil, scale)
}

// GramRowsThreads is GramRows on up to threads goroutines (threads <= 1:
// GramRows itself). Each goroutine computes its own tiles of the upper
// triangle over all rows, in the order GramRows does, so the result is the
// same bit for bit whatever threads is. Only the blocked product (dense
// rows, more than gramSplitMin multiply-adds and at least gramSplitCols
// columns) is split; each goroutine allocates packing buffers of its own,
// gramKC = 256 rows of its own columns of A and of the columns before
// them (at most 2*(256+gramSkew)*Cols floats, 12 MB at 3000 columns; the goroutine
// with the first columns packs the fewest).
func GramRowsThreads(dst *Dense, rows [][]float64, scale float64, threads int) {
	gramThreads(dst, rows, scale, threads)
}

// GramWeighted sets dst = scale * A^T diag(w) A, the Hessian Phi'D Phi of
// a Newton step, for the matrix A whose rows are rows (each of length
// dst.Cols), len(w) = len(rows): GramRows with row k's products weighted
// by w[k]. The weight multiplies one factor of each product (w_k a_ki,
// rounded, times a_kj), so entries are within the bound of GramRows with
// a_ki replaced by w_k a_ki. Symmetry, aliasing and allocation are as for
// GramRows.
func GramWeighted(dst *Dense, rows [][]float64, w []float64, scale float64) {
	check("GramWeighted", len(w), len(rows), "w")
	gram("GramWeighted", dst, len(rows), dst.Cols, func(i int) []float64 { return rows[i] }, w, scale)
}

// gram is Gram, GramRows and GramWeighted (w nil: all weights one) for the
// l x n matrix whose row i is row(i).
func gram(fn string, dst *Dense, l, n int, row func(int) []float64, w []float64, scale float64) {
	if gramPrepare(fn, dst, l, n, row) {
		gramDense(dst, l, n, row, w)
	} else {
		gramSparse(dst, l, row, w)
	}
	gramFinish(dst, n, scale)
}

// gramThreads is GramRowsThreads. (It passes the rows, not a function
// of them, to the goroutines, which would make every caller of gram
// allocate its row function.)
func gramThreads(dst *Dense, rows [][]float64, scale float64, threads int) {
	n := dst.Cols
	row := func(i int) []float64 { return rows[i] }
	l := len(rows)
	switch dense := gramPrepare("GramRows", dst, l, n, row); {
	case dense && threads > 1 && n >= gramSplitCols && float64(l)*float64(n)*float64(n) > 2*gramSplitMin:
		gramDenseSplit(dst, rows, threads)
	case dense:
		gramDense(dst, l, n, row, nil)
	default:
		gramSparse(dst, l, row, nil)
	}
	gramFinish(dst, n, scale)
}

// gramPrepare checks the shapes, clears dst's n x n block, and reports
// whether the product takes the dense path: at least a quarter of the
// entries nonzero (and l > 0).
func gramPrepare(fn string, dst *Dense, l, n int, row func(int) []float64) bool {
	check(fn, dst.Rows, n, "dst rows")
	check(fn, dst.Cols, n, "dst cols")
	nz := 0 // nonzeros counted until there are enough for the dense path
	for i := 0; i < l; i++ {
		r := row(i)
		check(fn, len(r), n, "row length")
		if 4*nz < l*n {
			for _, v := range r {
				if v != 0 {
					nz++
				}
			}
		}
	}
	for j := 0; j < n; j++ {
		clear(dst.Row(j))
	}
	return 4*nz >= l*n && l > 0
}

// gramFinish scales the unscaled upper triangle in dst and copies it down.
func gramFinish(dst *Dense, n int, scale float64) {
	for j := 0; j < n; j++ {
		r := dst.Row(j)
		for i := j; i < n; i++ {
			v := scale * r[i]
			r[i] = v
			dst.Data[i*dst.Stride+j] = v
		}
	}
}

// gramSparse adds the upper triangle of A' diag(w) A to dst by rows: for
// each row r and each nonzero r[j], row j of dst gets w r[j] times r[j:].
// Zero entries cost nothing.
func gramSparse(dst *Dense, l int, row func(int) []float64, w []float64) {
	for k := 0; k < l; k++ {
		r := row(k)
		wk := 1.0
		if w != nil {
			wk = w[k]
		}
		for j, v := range r {
			if v != 0 {
				vec.Axpy(wk*v, r[j:], dst.Row(j)[j:])
			}
		}
	}
}

// Blocking of gramDense. A panel of vec.TileA packed columns, kc x 12, is
// the operand that stays in L1 (gramKC = 256: 24 KiB of a 32 KiB L1) while
// the kernel streams 4-column panels of B past it from L2; gramNC columns
// of packed B (kc x 128, 256 KiB) are one L2-sized block of those.
// BenchmarkGram measures the choice: kc from 192 to 384 and any gramNC
// from 64 up perform alike at n = 400; kc = 128 is slower.
const (
	gramKC = 256
	gramNC = 128
)

// gramSkew is the rows of padding after each packed panel: with panels
// of exactly kc rows, 8 KiB or 24 KiB apart at kc = 256, the rows of all
// the panels that packing a row of A writes fall in one set of the L1
// and L2 caches, which hold only a few of them. Two rows more shift each
// panel by one or three cache lines. (Not on the stack's buffer, of few
// panels.)
const gramSkew = 2

// gramStack is the size, in floats, of the packing buffer gramDense keeps
// on its stack (32 KiB) instead of allocating: with few columns (n up to
// about 30, where a block of 64 rows or more fits) the allocation, its
// zeroing and the garbage collection it brings cost more than the product
// itself (BenchmarkGram at l = 200, n = 20). The row blocks are then as
// deep as fit, at least 64 rows.
const gramStack = 4096

// gramPad is the size, in floats, of the padded block in which gramDense
// accumulates a product of few columns (na x nb up to 16 KiB, n up to 28),
// so that no tile takes the edge's path through a buffer of its own.
const gramPad = 2048

// gramDense adds the upper triangle of A' diag(w) A to dst (zero on entry),
// for dense A, as a blocked product on packed panels.
//
// For each block of kc <= gramKC rows of A, the block's columns are packed
// twice (padded with zero columns to the panel width): into panels of
// vec.TileA = 12 columns, weighted (ap: column i's entries w_k a_ki), and
// into panels of vec.TileB = 4 columns (bp: a_kj). Each panel is kc rows of
// its width, contiguous, and followed by gramSkew rows of padding. Then for each block of gramNC columns j of B, each
// 12-panel i that reaches the upper triangle of that block (i0+11 >= j0),
// and each 4-panel j in the block on or above the diagonal, TileMulAdd adds
// the 4 x 12 block ap_i' bp_j (transposed: row j, columns i) to dst rows
// j0..j0+3, columns i0..i0+11. Blocks that cross dst's right or bottom edge
// go through a 4 x 12 buffer and only their part inside n x n is added, so
// the padding is never written to dst. Blocks straddling the diagonal also
// write entries below it, which gram overwrites with the mirror.
//
// The sums over rows of A run in row order within a row block (one chain
// per entry) and block by block, so each entry is a sum of l products
// within the bound of vec.DotErrorBound(l+1).
func gramDense(dst *Dense, l, n int, row func(int) []float64, w []float64) {
	const ta, tb = vec.TileA, vec.TileB
	na := (n + ta - 1) / ta * ta // columns of A padded to whole panels
	nb := (n + tb - 1) / tb * tb
	depth := gramKC
	skew := gramSkew
	if 64*(na+nb) <= gramStack {
		depth, skew = min(gramKC, gramStack/(na+nb)), 0
	}
	kmax := min(l, depth)
	var stack [gramStack]float64
	var buf []float64
	if size := (kmax + skew) * (na + nb); size <= gramStack {
		buf = stack[:size]
	} else {
		buf = make([]float64, size)
	}
	// With few columns most blocks cross dst's edge: the product is then
	// accumulated in a padded na x nb block of its own (row j, column i at
	// j*na + i) that every tile adds to directly, and copied out at the end.
	var padded [gramPad]float64
	out, ldc := dst.Data, dst.Stride
	pad := na*nb <= gramPad
	if pad {
		out, ldc = padded[:na*nb], na
	}
	gramBlocks(dst, out, ldc, pad, buf, depth, skew, l, n, row, w, 0, na)
	if pad {
		for j := 0; j < n; j++ {
			copy(dst.Row(j)[j:n], out[j*na+j:j*na+n])
		}
	}
}

// packA stores row p of a block, r, times s into the panels of width
// vec.TileA, ks rows apart (the block's depth plus any skew), that make up
// pk: column c of the block at pk[(c/12)*12*ks + p*12 + c%12], the columns past len(r) up to the last
// whole panel zero. The unweighted product passes s = 1, which changes no
// bit. Whole panels go through fixed-size array pointers, whose indices
// the compiler proves in range: the packing cost three times the
// products at n = 20 with a bounds check per entry.
func packA(pk, r []float64, p, ks int, s float64) {
	const wd = vec.TileA
	c0 := 0
	for ; c0+wd <= len(r); c0 += wd {
		o := c0*ks + p*wd
		d, src := (*[wd]float64)(pk[o:o+wd]), (*[wd]float64)(r[c0:c0+wd])
		for t := range d {
			d[t] = s * src[t]
		}
	}
	if c0 < len(r) {
		packTail(pk[c0*ks+p*wd:c0*ks+(p+1)*wd], r[c0:], s)
	}
}

// packTail stores the last, partial panel's row: s times src, then zeros
// to the panel's width len(d).
func packTail(d, src []float64, s float64) {
	for t := range d {
		d[t] = 0
		if t < len(src) {
			d[t] = s * src[t]
		}
	}
}

// packB is packA for the panels of width vec.TileB, unweighted.
func packB(pk, r []float64, p, ks int) {
	const wd = vec.TileB
	c0 := 0
	for ; c0+wd <= len(r); c0 += wd {
		o := c0*ks + p*wd
		// Through a local array: a copy between the slices, which might
		// overlap, would call memmove.
		v := *(*[wd]float64)(r[c0 : c0+wd])
		*(*[wd]float64)(pk[o : o+wd]) = v
	}
	if c0 < len(r) {
		packTail(pk[c0*ks+p*wd:c0*ks+(p+1)*wd], r[c0:], 1) // times 1: the same bits
	}
}

// gramBlocks is gramDense's product for the 12-panels of A from column
// i0lo up to i0hi (multiples of vec.TileA): for each block of depth rows,
// the block's columns i0lo..i0hi-1 are packed into 12-panels and its
// columns 0..i0hi-1, the ones the tiles of those panels on or above the
// diagonal reach, into 4-panels of depth + skew rows each (buf holds
// (depth + skew) * gramBuf(n, i0lo, i0hi) floats), and each such tile is added to out (stride ldc; dst's own
// storage unless pad, the padded block of few columns).
func gramBlocks(dst *Dense, out []float64, ldc int, pad bool, buf []float64, depth, skew, l, n int, row func(int) []float64, w []float64, i0lo, i0hi int) {
	const ta, tb = vec.TileA, vec.TileB
	end := min(i0hi, n) // the last column packed, plus one
	na := i0hi - i0lo
	var edge [tb * ta]float64
	for k0 := 0; k0 < l; k0 += depth {
		kc := min(depth, l-k0)
		ks := kc + skew // the panels' stride, in rows
		ap := buf[:ks*na]
		bp := buf[ks*na : ks*gramBuf(n, i0lo, i0hi)]
		for p := 0; p < kc; p++ {
			r := row(k0 + p)
			wp := 1.0
			if w != nil {
				wp = w[k0+p]
			}
			packA(ap, r[i0lo:end], p, ks, wp)
			packB(bp, r[:end], p, ks)
		}
		for jc := 0; jc < min(n, i0hi); jc += gramNC {
			gramColumns(dst, out, ldc, pad, ap, bp, kc, ks, n, i0lo, i0hi, jc, &edge)
		}
	}
}

// tileQuad is whether gramColumns and the Cholesky's trailing update
// take two panels of each kind at once by vec.TileMulAddQuad: where
// vec.TileShape is wider than one TileMulAdd tile (avx512). The tests turn
// it off to check that the wider blocks change no bit.
var tileQuad = func() bool { a, _ := vec.TileShape(); return a > vec.TileA }()

// gramColumns adds to out the tiles of gramBlocks' row block (panels ap
// and bp of depth kc, ks rows apart) in the block of gramNC columns of B
// from jc: for each 12-panel i0 that reaches its upper triangle (i0+11 >=
// jc), each 4-panel j0 of the block on or above the diagonal (j0 <=
// i0+11). Where tileQuad, the 12-panels inside n x n (or pad) are taken
// two at a time, and their tiles by vec.TileMulAddQuad in pairs of
// 4-panels while all four tiles are wanted and inside; the rest one by
// one. The pairs end at the last whole panel (a first panel goes alone if
// their number is odd), so that a panel crossing the edge does not turn
// its partner's tiles into single ones. Either way each tile has the bits
// of its own vec.TileMulAdd.
func gramColumns(dst *Dense, out []float64, ldc int, pad bool, ap, bp []float64, kc, ks, n, i0lo, i0hi, jc int, edge *[vec.TileB * vec.TileA]float64) {
	const ta, tb = vec.TileA, vec.TileB
	jend := min(jc+gramNC, n)
	iend := min(n, i0hi)
	panel := func(i0 int) []float64 { return ap[(i0-i0lo)*ks : (i0-i0lo)*ks+ta*kc] }
	bpanel := func(j0 int) []float64 { return bp[j0*ks : j0*ks+tb*kc] }
	i0 := max(i0lo, jc/ta*ta)
	whole := min(iend, n/ta*ta) // the end of the panels that pair
	if pad {
		whole = (iend + ta - 1) / ta * ta
	}
	lone := whole > i0 && (whole-i0)/ta%2 == 1 // the first panel goes alone
	for i0 < iend {
		a := panel(i0)
		if !tileQuad || lone || i0+2*ta > whole {
			for j0 := jc; j0 < jend && j0 <= i0+ta-1; j0 += tb {
				gramTile(dst, out, ldc, pad, n, i0, j0, a, bpanel(j0), edge)
			}
			i0 += ta
			lone = false
			continue
		}
		a1 := panel(i0 + ta)
		j0 := jc
		for ; j0+tb < jend && j0+tb <= i0+ta-1 && (pad || j0+2*tb <= n); j0 += 2 * tb {
			vec.TileMulAddQuad(out[j0*ldc+i0:], ldc, a, a1, bpanel(j0), bpanel(j0+tb))
		}
		for j := j0; j < jend && j <= i0+ta-1; j += tb {
			gramTile(dst, out, ldc, pad, n, i0, j, a, bpanel(j), edge)
		}
		for j := j0; j < jend && j <= i0+2*ta-1; j += tb {
			gramTile(dst, out, ldc, pad, n, i0+ta, j, a1, bpanel(j), edge)
		}
		i0 += 2 * ta
	}
}

// gramTile adds the 4 x 12 tile of the 12-panel a of columns i0.. and the
// 4-panel b of columns j0.. to out (rows j0.., columns i0..). A tile that
// crosses dst's right or bottom edge (never with pad) goes through edge,
// and only its part inside n x n is added to dst.
func gramTile(dst *Dense, out []float64, ldc int, pad bool, n, i0, j0 int, a, b []float64, edge *[vec.TileB * vec.TileA]float64) {
	const ta, tb = vec.TileA, vec.TileB
	if pad || i0+ta <= n && j0+tb <= n {
		vec.TileMulAdd(out[j0*ldc+i0:], ldc, a, b)
		return
	}
	*edge = [tb * ta]float64{}
	vec.TileMulAdd(edge[:], ta, a, b)
	for jj := 0; jj < tb && j0+jj < n; jj++ {
		d := dst.Row(j0 + jj)[i0:]
		for ii := 0; ii < ta && i0+ii < n; ii++ {
			d[ii] += edge[jj*ta+ii]
		}
	}
}

// gramBuf is the floats a row of a block takes in gramBlocks' packed
// panels for the 12-panels from column i0lo to i0hi: i0hi - i0lo of
// them, and the 4-panels of columns 0..min(i0hi, n)-1.
func gramBuf(n, i0lo, i0hi int) int {
	const tb = vec.TileB
	return i0hi - i0lo + (min(i0hi, n)+tb-1)/tb*tb
}

// gramSplitMin is the multiply-adds, l n^2 / 2, below which a Gram matrix
// is formed on one goroutine, and gramSplitCols the fewest columns split:
// the goroutines' start, their packing (the columns before each one's own
// are packed by every later one) and their buffers cost more than they
// save below (BenchmarkGram: two goroutines took 525 µs against one's 488
// at l = 1000, n = 100, 5e6 multiply-adds; 1.8 times less at 1.6e9).
const (
	gramSplitMin  = 1 << 24
	gramSplitCols = 64
)

// gramDenseSplit is gramDense (unweighted) on up to threads goroutines:
// the 12-panels of A are split into contiguous ranges of about equal work
// (panel i0 reaches (i0 + 12) / 4 tiles of the upper triangle), and each
// goroutine runs gramBlocks on its range with buffers of its own. Every
// tile is summed over the row blocks in the same order as by gramDense,
// so the bits do not depend on threads.
func gramDenseSplit(dst *Dense, rows [][]float64, threads int) {
	const ta, tb = vec.TileA, vec.TileB
	l, n := len(rows), dst.Cols
	panels := (n + ta - 1) / ta
	threads = min(threads, panels)
	work := func(q int) int { return (q*ta + ta + tb - 1) / tb } // tiles of panel q
	total := 0
	for q := range panels {
		total += work(q)
	}
	depth := gramKC
	kmax := min(l, depth)
	var wg sync.WaitGroup
	q, done := 0, 0
	for t := range threads {
		lo := q
		// Panels until this goroutine's share of what is left.
		share := (total - done) / (threads - t)
		got := 0
		for q < panels && (got < share || q == lo) {
			got += work(q)
			q++
		}
		if t == threads-1 {
			for ; q < panels; q++ {
				got += work(q)
			}
		}
		done += got
		i0lo, i0hi := lo*ta, q*ta
		if i0lo >= i0hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]float64, (kmax+gramSkew)*gramBuf(n, i0lo, i0hi))
			row := func(i int) []float64 { return rows[i] }
			gramBlocks(dst, dst.Data, dst.Stride, false, buf, depth, gramSkew, l, n, row, nil, i0lo, i0hi)
		}()
	}
	wg.Wait()
}
