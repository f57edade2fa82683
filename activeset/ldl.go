package activeset

import "github.com/softpen/softpen/vec"

// gramLDL is the factor L D L' of the Gram matrix G = N'N of the working
// set's unit normals, in working-set order: L unit lower triangular, stored
// by rows, packed (row i holds L[i][0..i-1] at l[i(i-1)/2:]), D in d. The
// last member may have a zero pivot (it depends on the others); every
// other pivot is positive.
//
// Row i of L is zero before first[i] (a lower bound on its first nonzero),
// and every product with the row starts there. Normals with disjoint
// supports (bounds of a diagonal H, sparse rows) are orthogonal, so L is
// mostly zero where bounds are many (the generator's cond-diag family,
// BenchmarkFamilies), and the spans from first[i] skip most of it.
type gramLDL struct {
	k     int
	l, d  []float64
	first []int32
}

// gramLDLFloats and gramLDLInts are the float64s and int32s newGramLDL
// takes from its slabs.
func gramLDLFloats(capacity int) int { return capacity*(capacity-1)/2 + capacity }
func gramLDLInts(capacity int) int   { return capacity }

// newGramLDL returns a factor of room capacity, its storage taken from fl
// and in.
func newGramLDL(capacity int, fl *slab[float64], in *slab[int32]) gramLDL {
	return gramLDL{l: fl.take(capacity * (capacity - 1) / 2), d: fl.take(capacity),
		first: in.take(capacity)}
}

// off is where row i starts in l.
func off(i int) int { return i * (i - 1) / 2 }

func (f *gramLDL) row(i int) []float64 { return f.l[off(i) : off(i)+i] }

// span is row i of L from first[i] on, and first[i].
func (f *gramLDL) span(i int) (int, []float64) {
	lo := int(f.first[i])
	return lo, f.l[off(i)+lo : off(i)+i]
}

// add appends a member whose inner products with the current members are g
// (length k; overwritten) and with itself gkk, and returns its pivot
// d_k = gkk - g'G^{-1}g: the squared distance of the new unit normal from
// the span of the others. O(k^2).
func (f *gramLDL) add(g []float64, gkk float64) float64 {
	k := f.k
	r := f.row(k)
	copy(r, g[:k])
	// The solve with L keeps g's leading zeros: start at its first nonzero.
	g0 := 0
	for g0 < k && r[g0] == 0 {
		g0++
	}
	for i := g0; i < k; i++ {
		lo, li := f.span(i)
		if lo < g0 {
			lo, li = g0, li[g0-lo:]
		}
		if len(li) > 0 {
			r[i] -= dot(li, r[lo:i])
		}
	}
	dk := gkk
	for i := g0; i < k; i++ {
		y := r[i]
		r[i] = y / f.d[i]
		dk -= y * r[i]
	}
	for g0 < k && r[g0] == 0 {
		g0++
	}
	f.first[k] = int32(g0)
	f.d[k] = dk
	f.k++
	return dk
}

// smallPivot reports whether one of the first q pivots is below nearPivot.
func (f *gramLDL) smallPivot(q int) bool {
	for _, d := range f.d[:q] {
		if d < nearPivot {
			return true
		}
	}
	return false
}

// remove deletes member p: the trailing block's factor absorbs d_p w w'
// (w the column of L below p) by the rank-one update of Gill, Golub, Murray
// and Saunders (1974, method C1), then row and column p are cut out. O(k^2).
func (f *gramLDL) remove(p int) {
	k := f.k
	alpha := f.d[p]
	for j := p + 1; j < k; j++ {
		wj := f.l[off(j)+p]
		if wj == 0 {
			continue // the step would change nothing (beta = 0, alpha kept)
		}
		dj := f.d[j] + alpha*wj*wj
		if dj == 0 {
			continue // only the dependent last member can have a zero pivot
		}
		beta := alpha * wj / dj
		alpha *= f.d[j] / dj
		f.d[j] = dj
		for i := j + 1; i < k; i++ {
			if int(f.first[i]) > j {
				continue // ri[p] and ri[j] are zero: nothing changes
			}
			ri := f.row(i)
			wi := ri[p] - wj*ri[j]
			ri[p] = wi
			ri[j] += beta * wi
		}
	}
	for i := p + 1; i < k; i++ {
		src, dst := f.row(i), f.row(i-1)
		copy(dst[:p], src[:p])
		copy(dst[p:i-1], src[p+1:i])
		f.d[i-1] = f.d[i]
		// The update fills row i only after its first nonzero (its column
		// p work entry stays zero until then), so first[i] stays a bound,
		// shifted with the columns after p.
		fi := f.first[i]
		if int(fi) > p {
			fi--
		}
		f.first[i-1] = fi
	}
	f.k--
}

// solve overwrites x[:kk] with G_kk^{-1} x[:kk], G_kk the leading kk x kk
// block (every pivot of which must be positive). O(kk^2).
func (f *gramLDL) solve(x []float64, kk int) {
	for i := 0; i < kk; {
		if i+4 <= kk && f.forward4(x, i) {
			i += 4
			continue
		}
		if lo, li := f.span(i); len(li) > 0 {
			x[i] -= dot(li, x[lo:i])
		}
		i++
	}
	for i := 0; i < kk; i++ {
		x[i] /= f.d[i]
	}
	for i := kk - 1; i > 0; i-- {
		if lo, li := f.span(i); len(li) > 0 {
			axpy(-x[i], li, x[lo:i])
		}
	}
}

// forward4 takes rows i..i+3 of the forward substitution of solve, their
// products with x[:i] in one vec.Dot4 (over the columns from the
// smallest of their first nonzeros), where the dots one row at a time
// cost four kernel calls on rows of a few dozen entries (a working set of
// bounds for a dense H: the warm re-solve of a portfolio solves with G
// several times). It reports false, doing nothing, where the rows start
// too far apart for one product to pay (bounds of a diagonal H, sparse
// rows: most of L is zero) or are short; solve then goes on row by row.
func (f *gramLDL) forward4(x []float64, i int) bool {
	lo := int(min(f.first[i], f.first[i+1], f.first[i+2], f.first[i+3]))
	hi := int(max(f.first[i], f.first[i+1], f.first[i+2], f.first[i+3]))
	if i-lo < shortLen || 4*(hi-lo) > i-lo {
		return false
	}
	r0, r1, r2, r3 := f.row(i), f.row(i+1), f.row(i+2), f.row(i+3)
	s0, s1, s2, s3 := vec.Dot4(x[lo:i], r0[lo:i], r1[lo:i], r2[lo:i], r3[lo:i])
	x[i] -= s0
	x[i+1] -= s1 + r1[i]*x[i]
	x[i+2] -= s2 + r2[i]*x[i] + r2[i+1]*x[i+1]
	x[i+3] -= s3 + r3[i]*x[i] + r3[i+1]*x[i+1] + r3[i+2]*x[i+2]
	return true
}

// nullDirection sets p[:k] to the direction that keeps N p = 0 when the
// last member depends on the others: p_last = 1 and
// p[:k-1] = -G_{k-1}^{-1} g = -L^{-T} (D^{-1} L^{-1} g), whose inner
// factor is the last row of L.
func (f *gramLDL) nullDirection(p []float64) {
	q := f.k - 1
	copy(p[:q], f.row(q))
	for i := q - 1; i > 0; i-- {
		if lo, li := f.span(i); len(li) > 0 {
			axpy(-p[i], li, p[lo:i])
		}
	}
	for i := 0; i < q; i++ {
		p[i] = -p[i]
	}
	p[q] = 1
}

// refactor rebuilds the factor of the working set's Gram matrix from the
// stored normals (O(k^2 n)), dropping the rounding that adds and rank-one
// removes have accumulated. With the QR factor kept (basis.go), or when
// the rebuild leaves a member before the last with a pivot below
// basisPivot (whose rows after it the Gram factor forms with an error
// amplified by its inverse), the factor is rebuilt from a QR factor of the
// normals instead.
func (s *Solver) refactor() {
	s.fresh, s.lastIndep = true, false
	s.resBuilt = -1
	if s.basis.on {
		s.startBasis()
		return
	}
	if s.refactorGram() {
		s.startBasis()
	}
}

// refactorGram rebuilds the factor from the Gram matrix of the stored
// normals and reports whether a member before the last has a pivot below
// basisPivot.
func (s *Solver) refactorGram() bool {
	s.fac.k = 0
	small := false
	for k := range s.ws {
		for i := 0; i < k; i++ {
			s.g[i] = s.normals.gram(i, k)
		}
		d := s.fac.add(s.g, 1)
		if k >= s.n {
			s.fac.d[k] = 0 // as in push: n+1 normals in R^n depend
		}
		small = small || k < len(s.ws)-1 && d < basisPivot
	}
	return small
}
