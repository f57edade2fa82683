package activeset

import "math"

// Refinement with compensated residuals: the last resort of a solve whose
// answer violates rows beyond rounding.
//
// Newton steps on the KKT system (refine, refineOrtho) end at the rounding
// floor of the residuals they are computed from, about eps times the
// residual's terms. At a vertex fixed by two nearly parallel rows a
// coordinate of x is that floor amplified by the rows' near-dependence:
// two rows tight that imply x_1 = 0 through a small coefficient leave x_1
// off zero by the floor over that coefficient, which can violate a bound
// x_1 >= 0 beyond rounding, and with large multipliers the certificate
// charges much for it (TestCompensatedRefinement). Residuals
// computed with error-free transformations (the sum and dot product in
// twice the working precision of Ogita, Rump and Oishi, 2005) are exact to
// about eps times the residual itself, and the same factors' steps then
// converge to x at working accuracy: classic mixed-precision iterative
// refinement, which needs cond * eps < 1 of the factors only.

// exactSum accumulates a sum of products in twice the working precision:
// hi + lo is the sum, with error about eps |sum| + n^2 eps^2 sum |terms|.
type exactSum struct{ hi, lo float64 }

// addProduct adds a*b: fl(a*b) and its rounding error (FMA) go to the
// error-free sum.
func (e *exactSum) addProduct(a, b float64) {
	p := a * b
	e.add(p)
	e.lo += math.FMA(a, b, -p)
}

// add adds a: the rounding error of hi + a (TwoSum) goes to lo.
func (e *exactSum) add(a float64) {
	s := e.hi + a
	z := s - e.hi
	e.lo += (e.hi - (s - z)) + (a - z)
	e.hi = s
}

func (e *exactSum) value() float64 { return e.hi + e.lo }

// compensatedRounds is the number of compensated Newton steps: each gains
// the factors' -log10(cond * eps) digits, so a few reach x at working
// accuracy wherever cond * eps is well below 1.
const compensatedRounds = 4

// refineCompensated takes compensatedRounds Newton steps on the final
// working set's KKT system (as refine) from residuals computed in twice
// the working precision, certifies the answer again, and keeps it if its
// exact-penalty gap (penaltyGap) is below that of the answer it started
// from, which must be certified; otherwise it restores and re-certifies
// that one. It reports whether it kept the refined answer, and does
// nothing if the last member depends on the others. O(n^2 + k n) per step
// and two certificates; only run on answers whose violations matter. The
// first call allocates n + 2k floats.
//
// Every step starts from the latest iterate, whatever a residual measure
// says of it: near-parallel members make the KKT residual a poor judge of
// x (a step can bring x to its exact value while the compensated KKT
// residual rises at its own rounding); the certificate decides.
func (s *Solver) refineCompensated() bool {
	k := len(s.ws)
	if k == 0 || s.fac.d[k-1] <= singularPivot && !s.lastIndep {
		return false
	}
	if s.memberRes == nil {
		s.memberRes = make([]float64, cap(s.ws))
		s.keptLam = make([]float64, cap(s.ws))
		s.keptX = make([]float64, s.n)
	}
	before := s.penaltyGap()
	copy(s.keptX, s.x)
	copy(s.keptLam, s.lam[:k])
	for round := 0; round < compensatedRounds; round++ {
		// s.r = Hx + cEff + A_W'lamhat and s.memberRes the members'
		// residuals on the unit-row scale; t = L^{-1} r.
		s.compensatedResiduals(s.x, s.lam)
		s.chol.SolveL(s.t, s.r)
		dl := s.lamTry[:k]
		for i := range s.ws {
			dl[i] = s.memberRes[i]/s.sigma[i] - s.normals.dot(i, s.t)
		}
		s.fac.solve(dl, k)
		for i := range dl {
			s.normals.axpy(dl[i], i, s.t)
		}
		s.chol.SolveLT(s.xTry, s.t)
		for i := range s.x {
			s.x[i] -= s.xTry[i]
		}
		for i, c := range s.ws {
			lo, hi := s.multiplierRange(i, c)
			s.lam[i] = min(max(dl[i]+s.lam[i], lo), hi)
		}
	}
	s.xFresh, s.vFresh, s.hxOK = false, false, false
	s.certify()
	if s.penaltyGap() < before {
		return true
	}
	copy(s.x, s.keptX)
	copy(s.lam[:k], s.keptLam)
	s.certify()
	return false
}

// penaltyGap is the certified answer's gap for the exact penalty
// F(x) + 2 max|multiplier| (sum of violations), as package solver charges
// it (without its rounding allowance).
func (s *Solver) penaltyGap() float64 {
	r := &s.res
	lmax := 0.0
	for _, l := range r.Lambda {
		lmax = max(lmax, l)
	}
	for _, l := range r.Nu {
		lmax = max(lmax, math.Abs(l))
	}
	return r.Gap + 2*lmax*r.SumViolation
}

// compensatedResiduals sets s.r = Hx + cEff + sum_W lamhat_k ahat_k and
// s.memberRes[k] = ahat_k'x - bhat_k (the members' residuals on the
// unit-row scale), each computed in twice the working precision.
func (s *Solver) compensatedResiduals(x, lam []float64) {
	for i := 0; i < s.n; i++ {
		var e exactSum
		if s.chol.hd != nil {
			e.addProduct(s.chol.hd[i], x[i])
		} else {
			for j, h := range s.chol.h.Row(i) {
				e.addProduct(h, x[j])
			}
		}
		e.add(s.cEff[i])
		for k, c := range s.ws {
			if lam[k] == 0 {
				continue
			}
			l := lam[k] / s.sigma[k]
			switch c.kind {
			case kindRow:
				e.addProduct(l*s.ainv[c.i], s.a[c.i][i])
			case kindEq:
				e.addProduct(l*s.eqinv[c.i], s.aeq[c.i][i])
			case kindLower:
				if int(c.i) == i {
					e.add(-l)
				}
			default:
				if int(c.i) == i {
					e.add(l)
				}
			}
		}
		s.r[i] = e.value()
	}
	for k, c := range s.ws {
		var e exactSum
		scale := 1.0
		switch c.kind {
		case kindRow:
			for i, a := range s.a[c.i] {
				e.addProduct(a, x[i])
			}
			e.add(-s.bOrig[c.i])
			scale = s.ainv[c.i]
		case kindEq:
			for i, a := range s.aeq[c.i] {
				e.addProduct(a, x[i])
			}
			e.add(-s.beqOrig[c.i])
			scale = s.eqinv[c.i]
		case kindLower:
			e.add(-x[c.i])
			e.add(s.lo[c.i])
		case kindKink:
			e.add(x[c.i])
		default:
			e.add(x[c.i])
			e.add(-s.up[c.i])
		}
		s.memberRes[k] = e.value() * scale
	}
}

// Polish refines the answer of the last Solve, if it was StatusSolved,
// with Newton steps from compensated residuals (as Solve itself does for
// an answer that violates rows beyond rounding), and keeps the refined
// answer if its exact-penalty gap is lower (refineCompensated); it
// reports whether it kept it (the Result returned by Solve then holds it,
// certified). It is for a caller whose certificate charges
// violations within rounding at the multipliers' scale: the exact-penalty
// gap of package solver charges 2 max lambda for each unit of violation,
// and with multipliers of 1e6 a violation of 1e-13 is 3e-9 of the
// objective. O(n^2 + k n) per step, and two certificates; the first call
// allocates n + 2k floats.
func (s *Solver) Polish() bool {
	return s.res.Status == StatusSolved && s.refineCompensated()
}
