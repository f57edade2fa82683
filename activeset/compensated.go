package activeset

import "math"

// Refinement with compensated residuals: the last resort of a solve whose
// answer violates rows beyond rounding.
//
// Newton steps on the KKT system (refine, refineOrtho) stop at the rounding
// floor of the residuals they are computed from, about eps times the
// residual's terms. At a vertex fixed by two nearly parallel rows a
// coordinate of x is that floor amplified by the rows' near-dependence: in
// FuzzTinyQP's corpus rows 0 and 1 tight imply x_1 = 0 through a
// coefficient of 0.0074, the members' residuals were 1e-14 (terms of 40),
// x_1 came out -1.9e-13, and x_1 >= 0 was violated beyond rounding; with
// multipliers of 1.9e6 the certificate charged 1.8e-6 for it. Residuals
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

// maxCompensatedRounds is the number of compensated Newton steps: each
// gains the factors' -log10(cond * eps) digits, and x at working accuracy
// was reached in two or three on the vertices that needed them.
const maxCompensatedRounds = 4

// refineCompensated takes Newton steps on the final working set's KKT
// system (as refine) from residuals computed in twice the working
// precision, keeps the iterate with the lowest compensated KKT residual,
// and reports whether that is not the one it started from. It does
// nothing if the last member depends on the others. O(n^2 + k n) per
// step, and only run on answers that violate rows beyond rounding.
func (s *Solver) refineCompensated() bool {
	k := len(s.ws)
	if k == 0 || s.fac.d[k-1] <= singularPivot && !s.lastIndep {
		return false
	}
	if s.memberRes == nil {
		s.memberRes = make([]float64, cap(s.ws))
	}
	// Classic refinement: every step from the latest iterate (cur,
	// curLam), whether or not it lowered the measure (one step can raise
	// it and the next land far below: seen on the test's vertex, 2.5e-17,
	// 4.9e-17, 6.9e-19); the best iterate goes to s.x and s.lam.
	took := false
	best := s.compensatedResidual(s.x, s.lam)
	cur, curLam := s.xTry, s.lamStar[:k]
	copy(cur, s.x)
	copy(curLam, s.lam[:k])
	got := best
	for round := 0; round < maxCompensatedRounds && got > 0; round++ {
		// s.r = H cur + cEff + A_W'lamhat and s.memberRes the members'
		// residuals on the unit-row scale, from compensatedResidual of
		// cur and curLam; t = L^{-1} r.
		s.chol.SolveL(s.t, s.r)
		dl := s.lamTry[:k]
		for i := range s.ws {
			dl[i] = s.memberRes[i]/s.sigma[i] - s.normals.dot(i, s.t)
		}
		s.fac.solve(dl, k)
		for i := range dl {
			s.normals.axpy(dl[i], i, s.t)
		}
		s.chol.SolveLT(s.v, s.t) // v is scratch here: xFresh, vFresh are cleared below
		for i := range cur {
			cur[i] -= s.v[i]
		}
		for i, c := range s.ws {
			lo, hi := s.multiplierRange(i, c)
			curLam[i] = min(max(dl[i]+curLam[i], lo), hi)
		}
		got = s.compensatedResidual(cur, curLam)
		if got < best {
			best, took = got, true
			copy(s.x, cur)
			copy(s.lam[:k], curLam)
		}
	}
	s.xFresh, s.vFresh, s.hxOK = false, false, false
	return took
}

// compensatedResidual is kktResidual's common-scale measure with every
// residual computed in twice the working precision: it leaves
// r = Hx + cEff + sum_W lamhat_k ahat_k in s.r and the members' residuals
// ahat_k'x - bhat_k in s.memberRes, and returns
// max(||r||_inf / (1 + ||c||_inf + ||Hx||_inf + sum |lamhat|),
// max_W |residual| / (1 + ||x||_inf)).
func (s *Solver) compensatedResidual(x, lam []float64) float64 {
	n := s.n
	hx, lamSum := 0.0, 0.0
	for i := range s.ws {
		lamSum += math.Abs(lam[i] / s.sigma[i])
	}
	for i := 0; i < n; i++ {
		var e exactSum
		if s.chol.hd != nil {
			e.addProduct(s.chol.hd[i], x[i])
		} else {
			for j, h := range s.chol.h.Row(i) {
				e.addProduct(h, x[j])
			}
		}
		hx = max(hx, math.Abs(e.value()))
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
	stat := normInf(s.r) / (1 + normInf(s.cEff) + hx + lamSum)
	prim, xn := 0.0, 1+normInf(x)
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
		r := e.value() * scale
		s.memberRes[k] = r
		prim = max(prim, math.Abs(r)/xn)
	}
	return max(stat, prim)
}

// Polish refines the answer of the last Solve, if it was StatusOptimal,
// with Newton steps from compensated residuals (as Solve itself does for
// an answer that violates rows beyond rounding), certifies it again, and
// reports whether the answer changed (the Result returned by Solve then
// holds the new one). It is for a caller whose certificate charges
// violations within rounding at the multipliers' scale: the exact-penalty
// gap of package solver charges 2 max lambda for each unit of violation,
// and with multipliers of 1e6 a violation of 1e-13 is 3e-9 of the
// objective. O(n^2 + k n) per step, four steps at most; the first call
// allocates k floats.
func (s *Solver) Polish() bool {
	if s.res.Status != StatusOptimal || !s.refineCompensated() {
		return false
	}
	s.certify()
	return true
}
