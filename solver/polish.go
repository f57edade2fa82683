package solver

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// polishWork is the storage of active-set polishing, sized once in New: at
// most kmax = min(working rows, n) rows can be active in a non-degenerate
// KKT system.
type polishWork struct {
	kmax  int
	act   []int      // working rows in the active set
	inAct []bool     // by working row
	u     *mat.Dense // row k: H^{-1} a_act[k]
	sm    *mat.Dense // Schur complement A_S H^{-1} A_S^T (k x k, stride kmax)
	chol  mat.Cholesky
	lam   []float64 // multipliers of the active rows
	rhs   []float64
	x     []float64 // polished point
	lamW  []float64 // multipliers on all working rows
}

func (p *polishWork) alloc(s *Solver) {
	if !s.quad {
		return
	}
	p.kmax = min(s.mw, s.n)
	p.act = make([]int, 0, p.kmax+1)
	p.inAct = make([]bool, s.mw)
	p.u = mat.NewDense(p.kmax+1, s.n)
	p.sm = mat.NewDense(p.kmax+1, p.kmax+1)
	p.lam = make([]float64, p.kmax+1)
	p.rhs = make([]float64, p.kmax+1)
	p.x = make([]float64, s.n)
	p.lamW = make([]float64, s.mw)
	if s.mw > 0 || s.quad {
		// xu = -H^{-1} c, the unconstrained minimiser.
		s.chol.Solve(s.state.xu, s.c)
		vec.Scale(-1, s.state.xu)
	}
}

// polishable reports whether polishing applies: the quadratic model without
// l1 or box terms (the KKT system is then linear).
func (s *Solver) polishable() bool {
	return s.quad && !s.hasProx() && s.kept > 0
}

// polish guesses the active set from the best multipliers, solves the KKT
// system of the equality-constrained QP on it
//
//	H x + c + A_S^T lam_S = 0,  A_S x = b_S
//
// through the Schur complement with the factor of H, and corrects the guess
// until the point is primal and dual feasible or the rounds run out. The
// polished point is kept only if its certified gap beats the best one
// (OSQP's rule). It reports whether it improved the best point.
//
// The corrections are primal-dual active-set rounds (Hintermüller, Ito,
// Kunisch 2002): the next set keeps the rows with positive multipliers and
// adds every violated row, S' = {j in S: lam_j > 0} + {j not in S: r_j > 0}.
// It usually settles in a few rounds; past pdasRounds it continues one row
// at a time (drop the most negative multiplier, else add the most violated
// row), which cannot cycle in the non-degenerate case.
func (s *Solver) polish(rn *run) bool {
	p := &s.state.pol
	var lmax float64
	for _, v := range s.state.lamBest[:s.kept] {
		lmax = math.Max(lmax, v)
	}
	if !s.guessActive(lmax, rn.sched.xi) {
		return false // degenerate: more active rows than variables
	}
	feasTol := 1e-14 * (1 + vec.Dot(s.state.xu, s.state.xu))
	r := s.state.r[:s.kept]
	const pdasRounds = 8
	for round := 0; round < 2*s.n+10+pdasRounds; round++ {
		if !s.solveKKT() {
			return false
		}
		s.residual(r, p.x)
		bulk := round < pdasRounds
		dropped, wk := s.dropNegative(bulk, lmax)
		if wk >= 0 {
			s.removeActive(wk)
			continue
		}
		added, wk, ok := s.addViolated(r, feasTol, bulk)
		if !ok {
			return false
		}
		if wk >= 0 {
			if len(p.act) == p.kmax {
				return false
			}
			s.addActive(wk)
			continue
		}
		if !dropped && !added {
			break
		}
	}
	// Multipliers on the working rows (equalities split by sign), >= 0.
	lw := p.lamW[:s.kept]
	clear(lw)
	for i, k := range p.act {
		v := p.lam[i]
		switch {
		case s.code[k].isEqPlus() && v < 0:
			lw[k+1] = -v
		case v > 0:
			lw[k] = v
		}
	}
	before := rn.best.gap
	s.certifyPoint(rn, p.x, lw, true)
	return rn.best.gap < before
}

// guessActive makes the first active set: every equality (its plus row)
// and the rows whose best multiplier exceeds 1% of the largest, lmax, or
// 5% of xi. It reports false when they are more than the KKT system takes.
func (s *Solver) guessActive(lmax, xi float64) bool {
	p := &s.state.pol
	lamB := s.state.lamBest[:s.kept]
	p.act = p.act[:0]
	clear(p.inAct)
	for k := 0; k < s.kept; k++ {
		if s.code[k].isEqMinus() {
			continue
		}
		if s.code[k].isEqPlus() || lamB[k] > 0.01*lmax || lamB[k] > 0.05*xi {
			if len(p.act) == p.kmax {
				return false
			}
			s.addActive(k)
		}
	}
	return true
}

// dropNegative is the first half of an active-set round: in a bulk round
// it drops every inequality row with a negative multiplier (below
// -1e-13 (1 + lmax)) and reports whether it dropped one; otherwise it
// returns the position of the most negative (-1: none) for the caller to
// drop.
func (s *Solver) dropNegative(bulk bool, lmax float64) (dropped bool, worstAt int) {
	p := &s.state.pol
	worst, wk := 0.0, -1
	for i := len(p.act) - 1; i >= 0; i-- {
		k := p.act[i]
		if s.code[k].isEqPlus() || p.lam[i] >= -1e-13*(1+lmax) {
			continue
		}
		if bulk {
			s.removeActive(i)
			dropped = true
		} else if p.lam[i] < worst {
			worst, wk = p.lam[i], i
		}
	}
	return dropped, wk
}

// addViolated is the second half of an active-set round, on the residuals
// r of the KKT point: in a bulk round it adds every row violated by more
// than feasTol (an equality's minus row through its plus row, whose
// multiplier is free) and reports whether it added one; otherwise it
// returns the most violated row (-1: none) for the caller to add. ok is
// false when the active set would outgrow the KKT system.
func (s *Solver) addViolated(r []float64, feasTol float64, bulk bool) (added bool, worstRow int, ok bool) {
	p := &s.state.pol
	worst, wk := feasTol, -1
	for k, v := range r {
		if v <= feasTol || p.inAct[k] {
			continue
		}
		if s.code[k].isEqMinus() {
			k-- // the equality's + row, with a free-sign multiplier
			if p.inAct[k] {
				continue
			}
		}
		if bulk {
			if len(p.act) == p.kmax {
				return added, -1, false
			}
			s.addActive(k)
			added = true
		} else if v > worst {
			worst, wk = v, k
		}
	}
	return added, wk, true
}

// addActive appends working row k to the active set with its column
// H^{-1} a_k (one Cholesky solve; the columns of earlier rows are kept).
func (s *Solver) addActive(k int) {
	p := &s.state.pol
	s.chol.Solve(p.u.Row(len(p.act)), s.a.Row(k))
	p.act = append(p.act, k)
	p.inAct[k] = true
}

// removeActive drops position i of the active set and its column.
func (s *Solver) removeActive(i int) {
	p := &s.state.pol
	p.inAct[p.act[i]] = false
	for j := i; j+1 < len(p.act); j++ {
		copy(p.u.Row(j), p.u.Row(j+1))
	}
	p.act = append(p.act[:i], p.act[i+1:]...)
}

// solveKKT solves the KKT system on the current active set into p.x, p.lam,
// with one step of iterative refinement. It reports false if the Schur
// complement is singular (dependent active rows).
func (s *Solver) solveKKT() bool {
	p := &s.state.pol
	k := len(p.act)
	xs := p.x
	copy(xs, s.state.xu)
	if k == 0 {
		return true
	}
	sm := &mat.Dense{Rows: k, Cols: k, Stride: k, Data: p.sm.Data[:k*k]}
	for i, ji := range p.act {
		ai := s.a.Row(ji)
		for c := 0; c <= i; c++ {
			v := vec.Dot(ai, p.u.Row(c))
			sm.Data[i*k+c] = v
			sm.Data[c*k+i] = v
		}
	}
	if p.chol.Factor(sm) != nil {
		return false
	}
	// S lam = A_S xu - b_S; x = xu - U^T lam. Then refine on the residual
	// of A_S x = b_S.
	lam, rhs := p.lam[:k], p.rhs[:k]
	clear(lam)
	for pass := 0; pass < 2; pass++ {
		for i, j := range p.act {
			rhs[i] = vec.Dot(s.a.Row(j), xs) - s.b[j]
		}
		p.chol.Solve(rhs, rhs)
		for i := range rhs {
			lam[i] += rhs[i]
			vec.Axpy(-rhs[i], p.u.Row(i), xs)
		}
	}
	return true
}
