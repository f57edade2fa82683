package activeset

import "github.com/softpen/softpen/vec"

// normalSet holds the unit normals of the working set in the v = L'x
// coordinates, one row of storage per member, each with its support: the
// index range [lo, hi) outside of which the normal is exactly zero. Every
// product with a normal runs over its support only. A bound's normal
// L^{-1} e_i is zero above i (L^{-1} is lower triangular) and, when H is
// diagonal, zero everywhere but at i, so the products with it cost O(n - i),
// or O(1) for a diagonal H; a sparse row's normal for a diagonal H spans
// only its first to last nonzero.
//
// A normal with at most sparseLimit(n) nonzeros (a sparse row for a
// diagonal H, whose support range can still be wide) also lists their
// indices, and its products run over the list.
//
// Members refer to their storage rows through slot, so removing a member
// moves no normal: it returns the row to the free list.
type normalSet struct {
	n      int
	data   []float64 // cap rows of n
	slot   []int32   // member i -> storage row
	lo, hi []int32   // member i's support
	free   []int32   // unused storage rows (a stack)
	limit  int       // sparseLimit(n)
	nnz    []int32   // member i's number of listed nonzeros, -1: not listed
	idx    []int32   // storage row r's list at idx[r*limit:]
	// A normal with a single nonzero (a bound for a diagonal H) is also
	// kept as that entry: one[i] its index (-1: not single), oneVal[i] its
	// value, so the loops over the members use it inline.
	one    []int32
	oneVal []float64
}

// normalSetFloats and normalSetInts are the float64s and int32s
// newNormalSet takes from its slabs.
func normalSetFloats(capacity, n int) int { return capacity*n + capacity }
func normalSetInts(capacity, n int) int   { return 6*capacity + capacity*sparseLimit(n) }

// newNormalSet returns a set of room capacity for normals of length n, its
// storage taken from fl and in (normalSetFloats and normalSetInts entries).
func newNormalSet(capacity, n int, fl *slab[float64], in *slab[int32]) normalSet {
	limit := sparseLimit(n)
	s := normalSet{n: n, data: fl.take(capacity * n),
		slot: in.take(capacity), lo: in.take(capacity), hi: in.take(capacity),
		free: in.take(capacity), limit: limit, nnz: in.take(capacity),
		idx: in.take(capacity * limit), one: in.take(capacity), oneVal: fl.take(capacity)}
	for i := range s.free {
		s.free[i] = int32(capacity - 1 - i) // row 0 on top
	}
	return s
}

// reset returns every row to the free list (the working set is empty).
func (s *normalSet) reset() {
	s.free = s.free[:cap(s.free)]
	for i := range s.free {
		s.free[i] = int32(len(s.free) - 1 - i)
	}
}

// take gives member k a storage row and returns it, full length, for the
// caller to fill; trim then sets the support.
func (s *normalSet) take(k int) []float64 {
	r := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	s.slot[k] = r
	return s.data[int(r)*s.n : int(r+1)*s.n]
}

// trim sets member k's support to the range from the first to the last
// nonzero entry of its row (the whole row if every entry is zero); the
// entries before from are known to be zero.
func (s *normalSet) trim(k, from int) {
	r := s.full(k)
	lo, hi := from, len(r)
	for lo < hi && r[lo] == 0 {
		lo++
	}
	for hi > lo && r[hi-1] == 0 {
		hi--
	}
	if lo == hi {
		lo, hi = 0, len(r)
	}
	s.lo[k], s.hi[k] = int32(lo), int32(hi)
	// List the nonzeros if there are few.
	s.nnz[k] = -1
	if hi-lo <= 1 || s.limit == 0 {
		return
	}
	list := s.idx[int(s.slot[k])*s.limit:][:s.limit]
	c := 0
	for i := lo; i < hi; i++ {
		if r[i] != 0 {
			if c == s.limit {
				return
			}
			list[c] = int32(i)
			c++
		}
	}
	s.nnz[k] = int32(c)
}

// setOne records member k's single entry, if its support has one entry;
// called once its normal is final.
func (s *normalSet) setOne(k int) {
	s.one[k] = -1
	if lo := s.lo[k]; s.hi[k]-lo == 1 {
		s.one[k], s.oneVal[k] = lo, s.full(k)[lo]
	}
}

// list is member k's listed nonzeros, or nil.
func (s *normalSet) list(k int) []int32 {
	c := s.nnz[k]
	if c < 0 {
		return nil
	}
	return s.idx[int(s.slot[k])*s.limit:][:c]
}

// full is member k's storage row, full length.
func (s *normalSet) full(k int) []float64 {
	r := int(s.slot[k])
	return s.data[r*s.n : (r+1)*s.n]
}

// support is member k's normal on its support, and the support's start.
func (s *normalSet) support(k int) (int, []float64) {
	r, lo, hi := int(s.slot[k])*s.n, int(s.lo[k]), int(s.hi[k])
	return lo, s.data[r+lo : r+hi]
}

// dot is n_k'v.
func (s *normalSet) dot(k int, v []float64) float64 {
	if o := s.one[k]; o >= 0 {
		return s.oneVal[k] * v[o]
	}
	if l := s.list(k); l != nil {
		r, d := s.full(k), 0.0
		for _, c := range l {
			d += r[c] * v[c]
		}
		return d
	}
	lo, r := s.support(k)
	return dot(r, v[lo:lo+len(r)])
}

// wide reports whether products with member k's normal go over its full
// row, four members at a time (dots): the normal is neither a single entry
// nor listed. The entries outside its support are exact zeros (normal
// writes every row in full, and trim's support runs from the first to the
// last nonzero), so the full row's product is the support's up to
// rounding. A Dot4 of four members over n entries loads about 5n/4 floats
// a member where a Dot over a support of length l loads 2l: the full row
// costs more only for supports shorter than about 5n/8 (a bound's normal
// L^{-1} e_i for a dense H, zero above i), at most twice as much.
func (s *normalSet) wide(k int) bool {
	return s.one[k] < 0 && s.nnz[k] < 0
}

// dots sets d[i] = n_i'v for the members i < len(d): for n >= shortLen the
// wide ones (wide) four at a time in one vec.Dot4 over their full rows
// (dot4), a last one to three padded with copies of the last, the others
// one by one (dot); for n < shortLen all one by one.
// Each lane of Dot4 depends only on v and its own row, and every wide row
// has the same length n, so a member's product has the same bits whatever
// members it is grouped with, or repeated with to fill a group: a product
// kept from one call (memberViolations) is the one a later call at the
// same v gives.
func (s *normalSet) dots(v, d []float64) {
	var four [4]int
	g := 0
	for i := range d {
		if s.n < shortLen || !s.wide(i) {
			// dot takes single entries and lists itself, and below
			// shortLen its Go loop is cheaper than a kernel's call.
			d[i] = s.dot(i, v)
			continue
		}
		four[g] = i
		if g++; g == 4 {
			s.dot4(v, d, four)
			g = 0
		}
	}
	if g > 0 {
		for p := g; p < 4; p++ {
			four[p] = four[g-1]
		}
		s.dot4(v, d, four)
	}
}

// dot4 sets d[i] = n_i'v for the four wide members i in at, over their
// full rows.
func (s *normalSet) dot4(v, d []float64, at [4]int) {
	d[at[0]], d[at[1]], d[at[2]], d[at[3]] = vec.Dot4(v, s.full(at[0]), s.full(at[1]), s.full(at[2]), s.full(at[3]))
}

// axpy adds alpha n_k to v.
func (s *normalSet) axpy(alpha float64, k int, v []float64) {
	if o := s.one[k]; o >= 0 {
		v[o] += alpha * s.oneVal[k]
		return
	}
	if l := s.list(k); l != nil {
		r := s.full(k)
		for _, c := range l {
			v[c] += alpha * r[c]
		}
		return
	}
	lo, r := s.support(k)
	axpy(alpha, r, v[lo:lo+len(r)])
}

// gram is n_i'n_k, over the intersection of their supports.
func (s *normalSet) gram(i, k int) float64 {
	lo, hi := max(s.lo[i], s.lo[k]), min(s.hi[i], s.hi[k])
	if lo >= hi {
		return 0
	}
	if o := s.one[i]; o >= 0 {
		return s.oneVal[i] * s.full(k)[o]
	}
	if o := s.one[k]; o >= 0 {
		return s.full(i)[o] * s.oneVal[k]
	}
	if s.nnz[k] >= 0 && (s.nnz[i] < 0 || s.nnz[k] < s.nnz[i]) {
		i, k = k, i
	}
	if l := s.list(i); l != nil {
		ri, rk, d := s.full(i), s.full(k), 0.0
		for _, c := range l {
			d += ri[c] * rk[c]
		}
		return d
	}
	ri, rk := int(s.slot[i])*s.n, int(s.slot[k])*s.n
	return dot(s.data[ri+int(lo):ri+int(hi)], s.data[rk+int(lo):rk+int(hi)])
}

// shortLen is the length below which dot and axpy loop in Go: a bound's
// normal for a diagonal H and many rows of the Gram factor are that short,
// and the kernels' call and dispatch cost more than the loop.
const shortLen = 8

// dot is vec.Dot, in Go for short vectors.
func dot(x, y []float64) float64 {
	if len(x) < shortLen {
		y = y[:len(x)]
		d := 0.0
		for i, v := range x {
			d += v * y[i]
		}
		return d
	}
	return vec.Dot(x, y)
}

// axpy is vec.Axpy, in Go for short vectors.
func axpy(alpha float64, x, y []float64) {
	if len(x) < shortLen {
		y = y[:len(x)]
		for i, v := range x {
			y[i] += alpha * v
		}
		return
	}
	vec.Axpy(alpha, x, y)
}

// gramAll sets g[i] = n_i'n_k for the members i < k. A new member with a
// single entry (a bound for a diagonal H) reads that entry off each
// member's normal inline.
func (s *normalSet) gramAll(k int, g []float64) {
	o := s.one[k]
	if o < 0 {
		for i := range g {
			g[i] = s.gram(i, k)
		}
		return
	}
	val := s.oneVal[k]
	for i := range g {
		switch {
		case o < s.lo[i] || o >= s.hi[i]:
			g[i] = 0
		case s.one[i] >= 0:
			g[i] = s.oneVal[i] * val // the same single entry
		default:
			g[i] = s.data[int(s.slot[i])*s.n+int(o)] * val
		}
	}
}

// remove deletes member p of k members: its row goes back to the free
// list and the later members move down one place.
func (s *normalSet) remove(p, k int) {
	s.free = append(s.free, s.slot[p])
	copy(s.slot[p:k-1], s.slot[p+1:k])
	copy(s.lo[p:k-1], s.lo[p+1:k])
	copy(s.hi[p:k-1], s.hi[p+1:k])
	copy(s.nnz[p:k-1], s.nnz[p+1:k])
	copy(s.one[p:k-1], s.one[p+1:k])
	copy(s.oneVal[p:k-1], s.oneVal[p+1:k])
}
