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

func newSparseRows(rows [][]float64, n int) sparseRows {
	limit := sparseLimit(n)
	var sp sparseRows
	if limit == 0 || len(rows) == 0 {
		return sp
	}
	// One pass: a row's entries are listed until it has more than limit,
	// then dropped again. The lists start with room for half the limit per
	// row (at most 4096 entries), enough for rows that are really sparse.
	pos := make([]int32, len(rows)+1)
	isSparse := make([]bool, len(rows))
	size := min(len(rows)*limit/2, 4096)
	idx, val := make([]int32, 0, size), make([]float64, 0, size)
	count := 0
	for j, r := range rows {
		at := len(idx)
		if cap(idx)-at < limit+9 {
			idx, val = slices.Grow(idx, limit+9), slices.Grow(val, limit+9)
		}
		k := nonzeros(r, limit+1, idx[at:at+limit+9], val[at:at+limit+9])
		if k <= limit {
			idx, val = idx[:at+k], val[:at+k]
			isSparse[j] = true
			count++
		}
		pos[j+1] = int32(len(idx))
	}
	if count > 0 {
		sp = sparseRows{sparse: isSparse, pos: pos, idx: idx, val: val}
	}
	return sp
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

// rowDot is a_j'x for row j of A.
func (s *Solver) rowDot(j int, x []float64) float64 {
	if sp := &s.sp; sp.sparse != nil && sp.sparse[j] {
		lo, hi := sp.pos[j], sp.pos[j+1]
		idx, val := sp.idx[lo:hi], sp.val[lo:hi]
		d := 0.0
		for p, c := range idx {
			d += val[p] * x[c]
		}
		return d
	}
	return vec.Dot(s.a[j], x)
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
