package activeset

import (
	"math"

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
	isSparse, pos := make([]bool, len(rows)), make([]int32, len(rows)+1)
	var idx []int32
	var val []float64
	count := 0
	for j, r := range rows {
		start, k := len(idx), 0
		for c := 0; c < len(r) && k >= 0; c += 4 {
			q := r[c:min(c+4, len(r))]
			if len(q) == 4 && (math.Float64bits(q[0])|math.Float64bits(q[1])|math.Float64bits(q[2])|math.Float64bits(q[3]))<<1 == 0 {
				continue // mostly zero rows: one test for four entries
			}
			for i, v := range q {
				if v != 0 {
					if k == limit {
						k = -1
						break
					}
					idx, val = append(idx, int32(c+i)), append(val, v)
					k++
				}
			}
		}
		if k < 0 {
			idx, val = idx[:start], val[:start]
		} else {
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
