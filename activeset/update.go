package activeset

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// SetObjective replaces H and c by h and c for the following solves,
// keeping the rows, bounds, l1 term and the working set: the next Solve
// starts hot from the last working set under the new objective. It is the
// step of sequential quadratic programming, which solves one QP per Newton
// step of a smooth convex objective over the same constraints.
//
// f must be h's Cholesky factor (h = L L', as mat.Cholesky.Factor leaves
// it); h must be symmetric, both triangles stored. From the call on the
// Solver reads h and f in place, as it reads Problem.H and Problem.Factor
// when New is given a factor: they must not change while it uses them (the
// caller may overwrite and refactor them before its next SetObjective). The
// working set's normals and their Gram factor are rebuilt under the new
// metric (O(k n^2) for k members); a member whose normal now depends on
// those before it leaves the set, and if that member is an equality the
// working set is reset (Reset). It returns an *InputError for a wrong size
// or a non-finite entry of c, and allocates nothing.
func (s *Solver) SetObjective(h *mat.Dense, c []float64, f *mat.Cholesky) error {
	n := s.n
	switch {
	case h == nil || h.Rows != n || h.Cols != n:
		return &InputError{"H", -1, fmt.Sprintf("want an %d x %d matrix", n, n)}
	case f == nil || f.N() != n:
		return &InputError{"Factor", -1, fmt.Sprintf("want the factor of an %d x %d matrix", n, n)}
	case c == nil:
		return &InputError{"C", -1, "missing"}
	}
	if err := checkVec("C", c, n, false); err != nil {
		return err
	}
	s.h, s.chol = h, *f
	copy(s.c, c)
	s.hxOK = false
	// Rebuild the members' normals L^{-1} ahat_k and the factor of their
	// Gram matrix in working-set order, in place (member w's new normal
	// goes to row w <= its old row, which has been read already).
	fac := &s.fac
	fac.k = 0
	w := 0
	for _, con := range s.ws {
		nk := s.normals.Row(w)
		s.sigma[w] = s.normal(con, nk)
		for j := 0; j < w; j++ {
			s.g[j] = vec.Dot(s.normals.Row(j), nk)
		}
		if d := fac.add(s.g, 1); w < n && d > singularPivot {
			s.ws[w] = con
			w++
			continue
		}
		fac.k--
		if con.isEquality() {
			// The equalities' dependencies are settled by Reset.
			s.ws = s.ws[:w]
			s.Reset()
			return nil
		}
		s.mark(con, false)
		if con.kind == kindRow {
			s.rowViol[con.i] = math.Inf(1) // as pop leaves it
		}
		if con.kind == kindKink {
			s.capSign[con.i] = 1 // capped at +l1; the loop admits it again if x_i < 0
		}
	}
	s.ws = s.ws[:w]
	// cEff = c plus the capped l1 terms, v_u = -L^{-1} cEff (the invariant
	// admit and leave keep).
	for i := range s.cEff {
		s.cEff[i] = c[i] + float64(s.capSign[i])*s.l1
	}
	s.chol.SolveL(s.vu, s.cEff)
	vec.Scale(-1, s.vu)
	return nil
}
