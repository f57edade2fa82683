package activeset

import (
	"math"
	"slices"

	"github.com/softpen/softpen/vec"
)

// sparseRows holds a copy of the rows of A that are mostly zero as lists of
// their nonzero entries (at most n/8 of them), so that a product with such
// a row costs its nonzeros instead of n. The other rows are read in place.
type sparseRows struct {
	sparse []bool    // row j is held here (nil: no row is)
	pos    []int32   // row j's entries are idx, val[pos[j]:pos[j+1]]
	idx    []int32   // column of each entry
	val    []float64 // the entries
}

// sparseLimit is the most nonzeros of a row held as a list: below it the
// list's gathers beat the vector kernel's pass over all n entries.
func sparseLimit(n int) int { return n / 8 }

// sparseBuilder collects the sparse rows one row at a time (add), so that
// the listing shares New's one pass over the rows with inverseNorms: a
// second pass over a large A would cost as much again (every row fetched
// from memory twice; BenchmarkLargeQP).
type sparseBuilder struct {
	limit    int
	pos      []int32
	isSparse []bool
	idx      []int32
	val      []float64
	count    int
	rowLen   int // the entries of the last row listed
}

// sparseListRoom is the room the lists of m rows of length n start with:
// half the limit per row (at most 4096 entries), enough for rows that are
// really sparse (a row's entries are listed until it has more than limit,
// then dropped again); 0 when no row can be held sparse (n < 8) or there
// are none.
func sparseListRoom(m, n int) int {
	if sparseLimit(n) == 0 || m == 0 {
		return 0
	}
	return min(m*sparseLimit(n)/2, 4096)
}

// sparseBuilderSlab is what newSparseBuilder takes from its slabs: int32s,
// float64s and bools.
func sparseBuilderSlab(m, n int) (ints, floats, bools int) {
	room := sparseListRoom(m, n)
	if room == 0 {
		return 0, 0, 0
	}
	return m + 1 + room, room, m
}

// newSparseBuilder prepares b for m rows of length n, its storage taken
// from the slabs (sparseBuilderSlab: New's set-up of a small problem is
// mostly allocation), and returns it; nil when no row can be held sparse
// (n < 8) or there are none. The lists grow past their room by
// allocations of their own (take caps each piece).
func newSparseBuilder(b *sparseBuilder, m, n int, in *slab[int32], fl *slab[float64], bl *slab[bool]) *sparseBuilder {
	room := sparseListRoom(m, n)
	if room == 0 {
		return nil
	}
	*b = sparseBuilder{limit: sparseLimit(n), pos: in.take(m + 1), isSparse: bl.take(m),
		idx: in.take(room)[:0], val: fl.take(room)[:0]}
	return b
}

// add lists row j (rows are added in order 0, 1, ...) if it is sparse.
func (b *sparseBuilder) add(j int, r []float64) {
	limit := b.limit
	at := len(b.idx)
	if len(r) > limit && noZeros(r[:limit+1]) {
		// Dense at a glance: storing the nonzeros into the lists (up
		// to limit+1 entries a row) would add about half to New's pass
		// over a dense A (BenchmarkLargeQP).
		b.pos[j+1] = int32(at)
		return
	}
	// Each slice is checked on its own: growing rounds their capacities
	// up to allocation size classes, which differ for int32 and float64,
	// so idx's room says nothing of val's (TestSparseRowsEveryShape).
	if cap(b.idx)-at < limit+9 {
		b.idx = slices.Grow(b.idx, limit+9)
	}
	if cap(b.val)-at < limit+9 {
		b.val = slices.Grow(b.val, limit+9)
	}
	k := nonzeros(r, limit+1, b.idx[at:at+limit+9], b.val[at:at+limit+9])
	if k <= limit {
		b.idx, b.val = b.idx[:at+k], b.val[:at+k]
		b.isSparse[j] = true
		b.count++
		b.rowLen = k
	}
	b.pos[j+1] = int32(len(b.idx))
}

// chunk returns a builder for rows lo..hi-1 of b, added as rows 0, 1, ...
// of its own: it writes their flags and offsets into b's (offsets within
// its own lists, made b's by appendChunk), so chunks of disjoint rows may
// be built at once.
func (b *sparseBuilder) chunk(lo, hi int) *sparseBuilder {
	if b == nil {
		return nil
	}
	size := min((hi-lo)*b.limit/2, 4096)
	return &sparseBuilder{limit: b.limit, pos: b.pos[lo : hi+1], isSparse: b.isSparse[lo:hi],
		idx: make([]int32, 0, size), val: make([]float64, 0, size)}
}

// appendChunk appends the lists of o, made by b.chunk(lo, hi), to b's, as
// if its rows had been added to b in order after row lo-1.
func (b *sparseBuilder) appendChunk(o *sparseBuilder) {
	if b == nil {
		return
	}
	base := int32(len(b.idx))
	for r := 1; r < len(o.pos); r++ {
		o.pos[r] += base
	}
	b.idx = append(b.idx, o.idx...)
	b.val = append(b.val, o.val...)
	b.count += o.count
}

// guessDot is guessDot for row j, the last row added (a listed row's
// entries are the lists' last rowLen), without reading the offset where
// the row starts, which a neighbouring chunk may be writing.
func (b *sparseBuilder) guessDot(inv float64, j int, x []float64, dense float64) float64 {
	if inv == 0 || b == nil || !b.isSparse[j] {
		return guessDot(inv, &sparseRows{}, j, x, dense)
	}
	at := len(b.idx) - b.rowLen
	pos := [2]int32{0, int32(b.rowLen)}
	row := sparseRows{pos: pos[:], idx: b.idx[at:], val: b.val[at:]}
	return row.dot(0, x)
}

// noZeros reports whether no entry of r is zero (NaN counts as nonzero, as
// in nonzeros).
func noZeros(r []float64) bool {
	for _, v := range r {
		if v == 0 {
			return false
		}
	}
	return true
}

// rows returns the sparse rows added (none on a nil builder).
func (b *sparseBuilder) rows() sparseRows {
	if b == nil || b.count == 0 {
		return sparseRows{}
	}
	return sparseRows{sparse: b.isSparse, pos: b.pos, idx: b.idx, val: b.val}
}

// nonzeros lists the nonzero entries of r in idx and val (both of length
// at least most+8) and returns their number, or most once it reaches most.
// Branch-free: every entry is written at the next free place, which moves
// on only past a nonzero; the count is tested once per eight entries.
func nonzeros(r []float64, most int, idx []int32, val []float64) int {
	k, c := 0, 0
	for ; c+8 <= len(r); c += 8 {
		q := r[c : c+8 : c+8]
		for i, v := range q {
			idx[k], val[k] = int32(c+i), v
			b := math.Float64bits(v) << 1 // +0 and -0 are zero
			k += int((b | -b) >> 63)
		}
		if k >= most {
			return most
		}
	}
	for ; c < len(r); c++ {
		v := r[c]
		idx[k], val[k] = int32(c), v
		b := math.Float64bits(v) << 1
		k += int((b | -b) >> 63)
		if k >= most {
			return most
		}
	}
	return k
}

// dot is a_j'x for a row j held here, over its entries.
func (sp *sparseRows) dot(j int, x []float64) float64 {
	lo, hi := sp.pos[j], sp.pos[j+1]
	idx, val := sp.idx[lo:hi], sp.val[lo:hi]
	d := 0.0
	for p, c := range idx {
		d += val[p] * x[c]
	}
	return d
}

// rowDot is a_j'x for row j of A.
func (s *Solver) rowDot(j int, x []float64) float64 {
	if sp := &s.sp; sp.sparse != nil && sp.sparse[j] {
		return sp.dot(j, x)
	}
	return vec.Dot(s.a[j], x)
}

// guessDot is row j's product with a guess x as NewAt's pass over the rows
// and HotStartAt both take it, so that they give the same bits: 0 for a
// zero row (inv 0), over its entries for a row held sparse, else dense,
// the product SumSqDot gives with the row's sum of squares (in NewAt's
// pass, dense is that product, taken with the norm in one read of the
// row).
func guessDot(inv float64, sp *sparseRows, j int, x []float64, dense float64) float64 {
	switch {
	case inv == 0:
		return 0
	case sp.sparse != nil && sp.sparse[j]:
		return sp.dot(j, x)
	}
	return dense
}

// rowAxpy adds alpha a_j to dst for row j of A.
func (s *Solver) rowAxpy(alpha float64, j int, dst []float64) {
	if sp := &s.sp; sp.sparse != nil && sp.sparse[j] {
		lo, hi := sp.pos[j], sp.pos[j+1]
		idx, val := sp.idx[lo:hi], sp.val[lo:hi]
		for p, c := range idx {
			dst[c] += alpha * val[p]
		}
		return
	}
	vec.Axpy(alpha, s.a[j], dst)
}
