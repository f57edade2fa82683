package activeset

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

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

// compensatedRounds is the number of compensated Newton steps: each gains
// the factors' -log10(cond * eps) digits, so a few reach x at working
// accuracy wherever cond * eps is well below 1.
const compensatedRounds = 4

// refineCompensated takes compensatedRounds Newton steps on the final
// working set's KKT system (as refine) from residuals computed in twice
// the working precision, certifies the answer again, and keeps it if its
// exact-penalty gap (penaltyGap) is below that of the answer it started
// from, which must be certified, or if the steps converged (the last one
// below compensatedConverged of x, and no multiplier clamped by it) to an
// answer that is Feasible; otherwise it restores and re-certifies the
// answer it started from. It reports whether it kept the refined answer,
// and does nothing if the last member depends on the others. O(n^2 + k n)
// per step and two certificates; only run on answers whose violations
// matter. The first call allocates n + 2k floats.
//
// Every step starts from the latest iterate, whatever a residual measure
// says of it: near-parallel members make the KKT residual a poor judge of
// x (a step can bring x to its exact value while the compensated KKT
// residual rises at its own rounding). Nor can the certificate always
// judge: with members 1e-10 apart, x off by 1e-6 along their near-null
// direction violates them by 1e-16, the rounding of x itself, and the
// exact answer carries the same violation, charged at multipliers of
// 1e10. Steps that converge are the proof there: each removes all but
// a fraction of the error of the last (about cond eps of the factor that
// solves them), so a last step at the rounding of x leaves x at its
// working accuracy. Not when the last step asks a member for a multiplier
// outside its range (wrongSign): a step whose multipliers are clamped is
// not the Newton step of the working set's system, and its x proves
// nothing of the multipliers. With a member 7e-13 from the others' span
// the multipliers' part of a step is R's inverse applied to Q'r, whose
// error is eps/7e-13 of r: it asked a wedge of a row and its near-copy
// for -4e4 at every round while x converged, the clamp zeroed the pair's
// O(1) multipliers, and the answer kept was "solved" at a relative
// stationarity of 1e-2 (TestCompensatedStepsClampedMultipliers).
//
// With a nearly dependent working set (nearlyDependent) the steps are
// solved through a QR factorisation of the normals (refineOrtho's), whose
// error grows with cond(N) where the Gram factor's grows with its square:
// members 1e-12 apart are still refined to working accuracy.
func (s *Solver) refineCompensated() bool {
	k := len(s.ws)
	if k == 0 || s.fac.d[k-1] <= singularPivot && !s.lastIndep {
		return false
	}
	s.compensatedWork()
	var q *orthoQR
	if k <= s.n && s.nearlyDependent() {
		q = s.orthoWork(k)
		for i := 0; i < k; i++ {
			copy(q.col(i), s.normals.full(i))
		}
		if !q.factor(orthoTiny) {
			q = nil
		}
	}
	before := s.penaltyGap()
	copy(s.keptX, s.x)
	copy(s.rare.keptLam, s.lam[:k])
	step, clamped := math.Inf(1), false
	for round := 0; round < compensatedRounds; round++ {
		// s.r = Hx + cEff + A_W'lamhat and s.rare.memberRes the members'
		// residuals on the unit-row scale; t = L^{-1} r.
		s.compensatedResiduals(s.x, s.lam)
		s.chol.SolveL(s.t, s.r)
		dl := s.lamTry[:k]
		if q != nil {
			s.orthoStep(q, dl)
		} else {
			s.normals.dots(s.t, dl)
			for i := range s.ws {
				dl[i] = s.rare.memberRes[i]/s.sigma[i] - dl[i]
			}
			s.fac.solve(dl, k)
			for i := range dl {
				s.normals.axpy(dl[i], i, s.t)
			}
			s.chol.SolveLT(s.xTry, s.t)
		}
		step = vec.MaxAbs(s.xTry)
		for i := range s.x {
			s.x[i] -= s.xTry[i]
		}
		clamped = s.wrongSign(dl) >= 0
		for i, c := range s.ws {
			lo, hi := s.multiplierRange(i, c)
			s.lam[i] = min(max(dl[i]+s.lam[i], lo), hi)
		}
	}
	s.xFresh, s.vFresh, s.hxOK = false, false, false
	s.certify()
	if s.penaltyGap() < before || step <= compensatedConverged*vec.MaxAbs(s.x) && !clamped && s.res.Feasible {
		return true
	}
	copy(s.x, s.keptX)
	copy(s.lam[:k], s.rare.keptLam)
	s.certify()
	return false
}

// exactResidual is a_j'x - b_j for row j, on the caller's scale, summed in
// twice the working precision: exact to about eps of itself.
func (s *Solver) exactResidual(j int, x []float64) float64 {
	var e vec.ExactSum
	if sp := &s.sp; sp.sparse != nil && sp.sparse[j] {
		lo, hi := sp.pos[j], sp.pos[j+1]
		for p, k := range sp.idx[lo:hi] {
			e.AddProduct(sp.val[lo+int32(p)], x[k])
		}
	} else {
		e.AddDot(s.a[j], x)
	}
	e.Add(-s.bOrig[j])
	return e.Value()
}

// exactEqResidual is aeq_i'x - beq_i for equality i, on the caller's
// scale, summed in twice the working precision.
func (s *Solver) exactEqResidual(i int, x []float64) float64 {
	var e vec.ExactSum
	e.AddDot(s.aeq[i], x)
	e.Add(-s.beqOrig[i])
	return e.Value()
}

// exactMemberResidual is ahat_c'x - bhat_c for a member on the unit-row
// scale, summed in twice the working precision.
func (s *Solver) exactMemberResidual(c constraint) float64 {
	var e vec.ExactSum
	switch c.kind {
	case kindRow:
		return s.exactResidual(int(c.i), s.x) * s.ainv[c.i]
	case kindEq:
		return s.exactEqResidual(int(c.i), s.x) * s.eqinv[c.i]
	case kindLower:
		e.Add(s.lo[c.i])
		e.Add(-s.x[c.i])
	case kindKink:
		e.Add(s.x[c.i])
	default:
		e.Add(s.x[c.i])
		e.Add(-s.up[c.i])
	}
	return e.Value()
}

// compensatedWork allocates the workspace of refineCompensated and
// memberAnswer on first use.
func (s *Solver) compensatedWork() {
	if r := s.rareWork(); r.memberRes == nil {
		r.memberRes = make([]float64, cap(s.ws))
		r.keptLam = make([]float64, cap(s.ws))
		s.keptX = make([]float64, s.n)
	}
}

// memberAnswer replaces x by the minimiser of the objective (with the
// capped l1 terms) on the members' affine set, computed in the caller's
// variables through a QR factorisation of the members' unit rows M
// (k <= n of them, M' = QR): in the rows' space the component their own
// equations M x = bhat fix, Q1 R^{-T} bhat, refined from compensated
// residuals; in their null space Q2 z with (Q2'HQ2) z = -Q2'(H x_p + c).
// It certifies the result, keeps it if it is Feasible and restores the
// answer it started from otherwise, and reports whether it kept it.
// x = v_u - N lambda carries the rounding of the terms it cancels: where
// x* = 0 on constraints through the origin x comes out at 1e-94 to 1e-30,
// violating them beyond the rounding of x itself (an equality x_1 = 0
// whose normal c lies along; a fixed x_1 = 0 with the rows that then pin
// x_2 = 0 weakly; a degenerate cone of rows, n of them held), while these
// equations give exactly 0 where c has no component (FuzzActiveSet,
// TestVertexAnswerAtOrigin). The multipliers are kept. O(n^3); the first
// call allocates refineCompensated's workspace, refineOrtho's and n^2
// floats for the reduced Hessian.
func (s *Solver) memberAnswer() bool {
	k, n := len(s.ws), s.n
	if k == 0 || k > n {
		return false
	}
	s.compensatedWork()
	q := s.orthoWork(k)
	for i, c := range s.ws {
		col := q.col(i)
		clear(col)
		s.addNormal(1, c, col)
	}
	if !q.factor(orthoTiny) {
		return false
	}
	copy(s.keptX, s.x)
	u, y := s.rare.orthoW, s.rare.orthoY[:k]
	for i, c := range s.ws {
		y[i] = s.rhs(c)
	}
	q.solveRT(y)
	clear(u)
	copy(u[:k], y)
	if k < n && !s.reducedStep(q, u) {
		return false
	}
	for round := 0; round < compensatedRounds; round++ {
		// M x = R'(Q1'x): the rows' space coefficients, then their
		// corrections from the members' residuals.
		if round > 0 {
			q.solveRT(y)
			vec.Axpy(-1, y, u[:k])
		}
		copy(s.x, u)
		q.applyQ(s.x)
		s.compensatedResiduals(s.x, s.lam)
		copy(y, s.rare.memberRes[:k])
	}
	return s.keepIfFeasible()
}

// keepIfFeasible certifies the point now in x and keeps it if it is
// Feasible; otherwise it restores keptX, the answer before, with its
// certificate. It reports whether it kept the new point.
func (s *Solver) keepIfFeasible() bool {
	s.xFresh, s.vFresh, s.hxOK = false, false, false
	s.certify()
	if s.res.Feasible {
		return true
	}
	copy(s.x, s.keptX)
	s.certify()
	return false
}

// reducedStep sets u[k:] (u = Q'x, u[:k] the rows' space coefficients
// already set) to the minimiser z of the objective over the null space:
// (Q2'HQ2) z = -Q2'(H x_p + cEff), x_p = Q (u[:k]; 0), Q from q. It
// reports false if Q2'HQ2 is not numerically positive definite.
func (s *Solver) reducedStep(q *orthoQR, u []float64) bool {
	k, n := q.k, s.n
	m := n - k
	r := s.rareWork()
	if r.reduced == nil {
		r.reduced = make([]float64, n*n)
	}
	hr := r.reduced[:m*m]
	col, w := s.t, s.r
	for i := 0; i < m; i++ {
		clear(col)
		col[k+i] = 1
		q.applyQ(col)
		s.chol.mulH(w, col)
		q.applyQT(w)
		copy(hr[i*m:(i+1)*m], w[k:])
	}
	// g = Q'(H x_p + cEff), x_p = Q (u[:k]; 0).
	copy(col, u)
	clear(col[k:])
	q.applyQ(col)
	s.chol.mulH(w, col)
	vec.Axpy(1, s.cEff, w)
	q.applyQT(w)
	z := u[k:]
	for i := range z {
		z[i] = -w[k+i]
	}
	a := mat.Dense{Rows: m, Cols: m, Stride: m, Data: hr}
	if r.reducedChol.Factor(&a) != nil {
		return false
	}
	r.reducedChol.Solve(z, z)
	return true
}

// compensatedConverged is the last compensated step, relative to
// ||x||_inf, at which the steps have converged: a few ulp of x.
const compensatedConverged = 8 * 0x1p-52

// orthoStep solves a compensated step through the QR factor q of the
// normals, from s.t = L^{-1} r and s.rare.memberRes (refineOrtho's step):
// the correction of x in s.xTry, of the multipliers in dl.
func (s *Solver) orthoStep(q *orthoQR, dl []float64) {
	k := len(dl)
	u, y := s.rare.orthoW, s.rare.orthoY[:k]
	copy(u, s.t)
	q.applyQT(u)
	for i := range s.ws {
		y[i] = s.rare.memberRes[i] / s.sigma[i]
	}
	q.solveRT(y)
	for i := range dl {
		dl[i] = y[i] - u[i]
	}
	q.solveR(dl)
	copy(u[:k], y)
	q.applyQ(u)
	s.chol.SolveLT(s.xTry, u)
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
// s.rare.memberRes[k] = ahat_k'x - bhat_k (the members' residuals on the
// unit-row scale), each computed in twice the working precision.
func (s *Solver) compensatedResiduals(x, lam []float64) {
	s.stationarity(s.r, x, lam, s.cEff, false)
	for k, c := range s.ws {
		var e vec.ExactSum
		scale := 1.0
		switch c.kind {
		case kindRow:
			e.AddDot(s.a[c.i], x)
			e.Add(-s.bOrig[c.i])
			scale = s.ainv[c.i]
		case kindEq:
			e.AddDot(s.aeq[c.i], x)
			e.Add(-s.beqOrig[c.i])
			scale = s.eqinv[c.i]
		case kindLower:
			e.Add(-x[c.i])
			e.Add(s.lo[c.i])
		case kindKink:
			e.Add(x[c.i])
		default:
			e.Add(x[c.i])
			e.Add(-s.up[c.i])
		}
		s.rare.memberRes[k] = e.Value() * scale
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

// exactStationarity sets dst = H x + c + W + sum_W lamhat_k ahat_k, the
// Lagrangian's gradient at x with the multipliers the Result reports,
// summed in twice the working precision (certify).
func (s *Solver) exactStationarity(dst, x []float64) {
	s.stationarity(dst, x, s.lam, s.c, true)
}

// stationarity sets dst = H x + base + sum_W lamhat_k ahat_k in twice the
// working precision, adding the capped kinks' capSign_i l1 when capped
// (base then being the caller's c, not cEff).
func (s *Solver) stationarity(dst, x, lam, base []float64, capped bool) {
	for i := 0; i < s.n; i++ {
		var e vec.ExactSum
		if s.chol.hd != nil {
			e.AddProduct(s.chol.hd[i], x[i])
		} else {
			e.AddDot(s.chol.h.Row(i), x)
		}
		e.Add(base[i])
		if capped && s.capSign[i] != 0 {
			e.Add(float64(float64(s.capSign[i]) * s.l1))
		}
		for k, c := range s.ws {
			if lam[k] == 0 {
				continue
			}
			l := lam[k] / s.sigma[k]
			switch c.kind {
			case kindRow:
				e.AddProduct(l*s.ainv[c.i], s.a[c.i][i])
			case kindEq:
				e.AddProduct(l*s.eqinv[c.i], s.aeq[c.i][i])
			case kindLower:
				if int(c.i) == i {
					e.Add(-l)
				}
			default:
				if int(c.i) == i {
					e.Add(l)
				}
			}
		}
		dst[i] = e.Value()
	}
}
