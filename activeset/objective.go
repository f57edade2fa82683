package activeset

import (
	"fmt"

	"github.com/softpen/softpen/mat"
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
// metric (O(k n^2) for k members): the equalities as Reset settles them,
// the other members in their order, leaving out one whose normal now
// depends on those before it, and the l1 kinks, whose caps are recomputed.
// It returns an *InputError for a wrong size or a non-finite entry of c,
// and allocates nothing.
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
	// A dense H read in place with the caller's factor (a diagonal H
	// given at New loses its diagonal path: the new one need not be).
	s.chol.h, s.chol.chol, s.chol.hd, s.chol.ld, s.chol.ldi, s.chol.sized = h, *f, nil, nil, nil, false
	copy(s.c, c)
	s.hxOK = false
	s.tNormals.forget()
	s.rebuildWorkingSet()
	return nil
}

// SetC replaces c alone for the following solves, H staying what it is:
// the next Solve starts hot from the last working set, as after SetB. The
// members' normals and their Gram factor depend on H only, so they are
// kept; v_u = -L^{-1} c is recomputed (O(n^2)). With an l1 term the caps
// of the kinks follow c, and the working set is rebuilt as SetObjective
// rebuilds it (O(k n^2) for k members). It returns an *InputError for a
// wrong length or a non-finite entry of c, and allocates nothing.
//
// A receding-horizon controller changes c at every step; rebuilding the
// normals then took about a fifth of a warm re-solve of the MPC sequences
// (BenchmarkMPCWarm).
func (s *Solver) SetC(c []float64) error {
	if c == nil {
		return &InputError{"C", -1, "missing"}
	}
	if err := checkVec("C", c, s.n, false); err != nil {
		return err
	}
	copy(s.c, c)
	if s.l1 > 0 {
		s.rebuildWorkingSet()
		return nil
	}
	// Without l1 no kink is a member; the multipliers start from 0 at
	// the next Solve, which is dual feasible for any c.
	s.capKinks()
	return nil
}

// rebuildWorkingSet pushes the working set again under the current H and
// c: Reset settles the equalities and recomputes the capped l1 terms and
// v_u = -L^{-1} cEff; the other members are pushed again in their order,
// as HotStart does, and a member whose normal now depends on those before
// it is left out. Kinks are not pushed (their caps are recomputed; the
// loop admits them again where x_i = 0 is active).
func (s *Solver) rebuildWorkingSet() {
	prev := append(s.wsPrev[:0], s.ws...)
	s.Reset()
	for _, con := range prev {
		if s.eqInconsistent || con.isEquality() || con.kind == kindKink || len(s.ws) >= s.n {
			continue
		}
		if d := s.pushChecked(con); d <= singularPivot {
			s.pop(len(s.ws) - 1)
		}
	}
}
