package solver

import (
	"errors"
	"fmt"
	"math"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/vec"
)

// The updates between solves of one Solver (a service re-solving with new
// data, a receding-horizon controller): each keeps the warm start and
// passes the new data to every engine that holds a copy of it.

// SetQ replaces the linear term q (length n, all finite) for the next
// Solve, keeping the warm start: the quadratic model's c = c_loss + q is
// formed afresh (no drift over many updates), and the engines that hold it
// (the direct path's with its samples', the exact finish's) take it with
// their working sets kept (activeset.Solver.SetC). It allocates
// nothing, except a q the problem did not have, once.
func (s *Solver) SetQ(q []float64) error {
	if err := checkUpdate("q", q, s.n, "n"); err != nil {
		return err
	}
	if s.q == nil {
		s.q = make([]float64, s.n)
	}
	copy(s.q, q)
	s.state.phiX.forgetGrads() // the cached gradients hold the old q
	if s.sparse != nil {
		s.sparse.SetQ(s.q)
		if s.sparseSVRG != nil {
			s.sparseSVRG.q = s.q
		}
		return nil
	}
	if s.cd != nil {
		s.cd.SetQ(s.q)
		return nil
	}
	if !s.quad {
		return nil // smoothGrad reads s.q; Newton forms its model from it
	}
	vec.AxpbyTo(s.c, 1, s.cLoss, 1, q)
	if s.pending != nil {
		if err := s.buildDirect(); err != nil {
			return err
		}
	}
	set := func(e *activeset.Solver) error {
		if e == nil {
			return nil
		}
		return e.SetC(s.c)
	}
	if err := set(s.direct); err != nil {
		return err
	}
	for i := range s.sample.levels {
		if err := set(s.sample.levels[i].eng); err != nil {
			return err
		}
	}
	if s.sample.presolved {
		// The engine's hot start came from the samples on the old q.
		s.sample.cold, s.sample.presolved = true, false
	}
	return set(s.fin.eng)
}

// SetB replaces the right-hand side of the caller's inequality rows for the
// next Solve (the warm start is kept). It returns an error naming the index
// of a non-finite entry, or a length mismatch, and allocates nothing.
func (s *Solver) SetB(b []float64) error {
	if err := checkUpdate("b", b, s.m, "rows of A"); err != nil {
		return err
	}
	if s.cd != nil {
		for i, v := range b {
			if !(v < 0) {
				return fmt.Errorf("b[%d]: %g, want < 0 on the sparse-rows path (dual-cd)", i, v)
			}
		}
		copy(s.b, b)
		return nil
	}
	if s.sparse != nil {
		copy(s.b, b) // newtoncg reads it in place
		if s.sparseSVRG != nil {
			s.sparseSVRG.setB(b)
		}
		return nil
	}
	if s.pending != nil {
		if err := s.buildDirect(); err != nil {
			return err
		}
	}
	if s.direct != nil {
		if err := s.direct.SetB(b); err != nil {
			return err
		}
		return s.sample.setB(b)
	}
	if s.newton != nil {
		if err := s.newton.eng.SetB(b); err != nil {
			return err
		}
	}
	if s.fin.eng != nil {
		// The exact finish answers, and certifies, on the engine's own
		// copy of b.
		if err := s.fin.eng.SetB(b); err != nil {
			return err
		}
	}
	for k := 0; k < s.mw; k++ {
		if c := s.code[k]; !c.isEq() {
			s.b[k] = b[c.ineqRow()] / s.norm[k]
			s.bSrc[k] = b[c.ineqRow()]
		}
	}
	// A zero row whose new right-hand side is negative makes the problem
	// infeasible.
	if !s.infeasibleRow.isEq() {
		s.infeasibleRow = noRow
	}
	for _, j := range s.zeroRows {
		if b[j] < 0 && s.infeasibleRow == noRow {
			s.infeasibleRow = ineqCode(j)
		}
	}
	return nil
}

// SetBounds replaces the bounds for the next Solve: lower and upper of
// length n (nil: none), -Inf / +Inf for a missing bound, no NaN, lower <=
// upper. The warm start is kept, moved into the new box; the engines that
// hold the bounds take them with their working sets (activeset.Solver.
// SetBounds). It returns an error naming the bad entry (the Solver is then
// unchanged) and allocates nothing, except the bounds of a problem that
// had none, once.
func (s *Solver) SetBounds(lower, upper []float64) error {
	bnd := func(v []float64, i int, none float64) float64 {
		if v == nil {
			return none
		}
		return v[i]
	}
	for _, v := range [][]float64{lower, upper} {
		if v != nil && len(v) != s.n {
			return fmt.Errorf("bounds: length %d, want %d (n)", len(v), s.n)
		}
	}
	for i := 0; i < s.n; i++ {
		lo, up := bnd(lower, i, math.Inf(-1)), bnd(upper, i, math.Inf(1))
		switch {
		case math.IsNaN(lo) || math.IsInf(lo, 1):
			return fmt.Errorf("lower[%d]: %g is not a lower bound", i, lo)
		case math.IsNaN(up) || math.IsInf(up, -1):
			return fmt.Errorf("upper[%d]: %g is not an upper bound", i, up)
		case lo > up:
			return fmt.Errorf("lower[%d]: %g is above upper[%d] = %g", i, lo, i, up)
		}
	}
	if s.cd != nil {
		return errors.New("bounds: the sparse-rows path (dual-cd) takes none")
	}
	if s.sparseSVRG != nil && s.sparseSVRG.kind == lazySGDM && !SGDMLazy(0, lower, upper) {
		return errSparseSGDM
	}
	if s.pending != nil {
		if err := s.buildDirect(); err != nil {
			return err
		}
	}
	if s.lower == nil {
		s.lower, s.upper = make([]float64, s.n), make([]float64, s.n)
		if s.fin.eng != nil {
			s.fin.upper, s.fin.lower = make([]bool, s.n), make([]bool, s.n)
		}
	}
	for i := range s.lower {
		s.lower[i], s.upper[i] = bnd(lower, i, math.Inf(-1)), bnd(upper, i, math.Inf(1))
	}
	if s.sparse != nil {
		s.sparse.SetBounds(s.lower, s.upper)
		if s.sparseSVRG != nil {
			s.sparseSVRG.lower, s.sparseSVRG.upper = s.lower, s.upper
		}
		return nil
	}
	if len(s.state.x) == s.n { // the penalty method's warm start
		for i, v := range s.state.x {
			s.state.x[i] = min(max(v, s.lower[i]), s.upper[i])
		}
	}
	for _, e := range []*activeset.Solver{s.direct, s.fin.eng} {
		if e != nil {
			if err := e.SetBounds(s.lower, s.upper); err != nil {
				return err
			}
		}
	}
	if s.newton != nil {
		if err := s.newton.eng.SetBounds(s.lower, s.upper); err != nil {
			return err
		}
	}
	if s.sample.presolved {
		s.sample.cold, s.sample.presolved = true, false
	}
	for i := range s.sample.levels {
		if err := s.sample.levels[i].eng.SetBounds(s.lower, s.upper); err != nil {
			return err
		}
	}
	return nil
}

// checkUpdate checks an update's vector: length want (what) and every
// entry finite; the error names the vector and the entry.
func checkUpdate(name string, v []float64, want int, what string) error {
	if len(v) != want {
		return fmt.Errorf("%s: length %d, want %d (%s)", name, len(v), want, what)
	}
	for i, x := range v {
		if x-x != 0 { // NaN for a NaN or an infinity, 0 otherwise
			return fmt.Errorf("%s[%d]: %g is not finite", name, i, x)
		}
	}
	return nil
}
