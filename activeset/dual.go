package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// Solve runs the dual active-set method from the current working set (the
// last solve's, or the one HotStart set) and returns the certified answer.
// It allocates nothing.
func (s *Solver) Solve() *Result {
	s.res.Iter = 0
	status := s.iterate()
	switch status {
	case StatusInfeasible:
		s.answerInfeasible()
	default:
		s.primal()
		s.refine()
		s.certify()
	}
	s.res.Status = status
	s.res.Active = len(s.ws)
	return &s.res
}

// iterate is the loop of the method (see the package comment). Every
// iteration changes the working set once.
func (s *Solver) iterate() Status {
	if s.infeasible != 0 || s.eqInconsistent {
		return StatusInfeasible
	}
	for k := range s.ws {
		s.lam[k] = 0
	}
	for ; s.res.Iter < s.opt.MaxIter; s.res.Iter++ {
		k := len(s.ws)
		if k > 0 && s.fac.d[k-1] <= singularPivot {
			if !s.nullStep() {
				return StatusInfeasible
			}
			continue
		}
		if s.towardsLamStar() {
			continue
		}
		s.primal()
		j, ok := s.mostViolated()
		if !ok {
			return StatusOptimal
		}
		s.push(j)
	}
	return StatusIterLimit
}

// towardsLamStar solves the working set's system for lambda*. If lambda* is
// dual feasible it becomes lambda and towardsLamStar returns false;
// otherwise lambda moves towards lambda* until the first inequality
// multiplier reaches zero, that member leaves the set, and it returns true.
func (s *Solver) towardsLamStar() bool {
	k := len(s.ws)
	ls := s.lamStar[:k]
	for i, c := range s.ws {
		ls[i] = vec.Dot(s.normals.Row(i), s.vu) - s.rhs(c)/s.sigma[i]
	}
	s.fac.solve(ls, k)
	scale := 1.0
	for _, l := range ls {
		scale = math.Max(scale, math.Abs(l))
	}
	tol := s.opt.DualTol * scale
	block, alpha := -1, 1.0
	for i, c := range s.ws {
		if c.isEquality() || ls[i] >= -tol {
			continue
		}
		if a := s.lam[i] / (s.lam[i] - ls[i]); a < alpha || block < 0 {
			block, alpha = i, a
		}
	}
	if block < 0 {
		for i, c := range s.ws {
			s.lam[i] = ls[i]
			if !c.isEquality() && ls[i] < 0 {
				s.lam[i] = 0
			}
		}
		return false
	}
	for i := range s.ws {
		s.lam[i] += alpha * (ls[i] - s.lam[i])
	}
	s.pop(block)
	return true
}

// nullStep handles a last member whose normal depends on the others. Along
// p = (-G^{-1}g, 1) the primal point does not move and the dual objective
// rises at the rate of the member's violation, so lambda moves along p until
// an inequality multiplier of the others reaches zero and that member
// leaves. If none can, it returns false: the rows are infeasible (p is the
// Farkas direction, left in s.dir). Equalities never get here: Reset
// settles their dependencies (pushEquality).
func (s *Solver) nullStep() bool {
	k := len(s.ws)
	p := s.dir[:k]
	s.fac.nullDirection(p)
	block, alpha := -1, 0.0
	for i, c := range s.ws[:k-1] {
		if c.isEquality() || p[i] >= 0 {
			continue
		}
		if a := s.lam[i] / -p[i]; block < 0 || a < alpha {
			block, alpha = i, a
		}
	}
	if block < 0 {
		return false
	}
	vec.Axpy(alpha, p, s.lam[:k])
	s.lam[block] = 0
	s.pop(block)
	return true
}

// primal sets v = v_u - N lambda and x = L^{-T} v.
func (s *Solver) primal() {
	copy(s.v, s.vu)
	for i := range s.ws {
		if s.lam[i] != 0 {
			vec.Axpy(-s.lam[i], s.normals.Row(i), s.v)
		}
	}
	s.chol.SolveLT(s.x, s.v)
}

// mostViolated returns the constraint outside the working set with the
// largest violation of the unit rows and bounds at x, if one exceeds
// PrimalTol (1 + ||x||_inf). Ties go to the lowest index, rows first.
func (s *Solver) mostViolated() (constraint, bool) {
	xmax := 0.0
	for _, v := range s.x {
		xmax = math.Max(xmax, math.Abs(v))
	}
	worst := s.opt.PrimalTol * (1 + xmax)
	best, found := constraint{}, false
	for j := 0; j < s.m; j++ {
		if s.rowIn[j] || s.anorm[j] == 0 {
			continue
		}
		if v := vec.Dot(s.a.Row(j), s.x) - s.b[j]; v > worst {
			worst, best, found = v, constraint{kindRow, int32(j)}, true
		}
	}
	for i, x := range s.x {
		if s.boundIn[i] != 0 {
			continue
		}
		if v := x - s.up[i]; v > worst {
			worst, best, found = v, constraint{kindUpper, int32(i)}, true
		}
		if v := s.lo[i] - x; v > worst {
			worst, best, found = v, constraint{kindLower, int32(i)}, true
		}
	}
	return best, found
}
