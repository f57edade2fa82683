package activeset

import (
	"context"
	"math"
	"time"

	"github.com/softpen/softpen/vec"
)

// Solve runs the dual active-set method from the current working set (the
// last solve's, or the one HotStart set) and returns the certified answer.
// It ends early, with the certificate of the point it reached, when ctx is
// canceled (StatusCanceled) or its deadline or Options.TimeLimit passes
// (StatusTimeLimit); a nil ctx means context.Background(). It is
// SolveFrom(ctx, time.Now()), and allocates nothing, but once: the first
// re-solve of a small problem allocates the transformed normals it keeps
// from then on ((m + n) n floats while that is at most 2^16; workingset.go,
// transformedNormals).
func (s *Solver) Solve(ctx context.Context) *Result {
	return s.SolveFrom(ctx, time.Now())
}

// SolveFrom is Solve with Options.TimeLimit counted from start, an instant
// before the call: for a caller whose time limit bounds its own set-up
// too.
func (s *Solver) SolveFrom(ctx context.Context, start time.Time) *Result {
	defer s.team.rest() // no pass until the next solve
	s.beginSolve(ctx, start)
	status := s.settle(s.iterate())
	admitted, objective := -1, 0.0 // the final rounds' last admission, and F before it
	for round := 0; status != StatusInfeasible; round++ {
		s.certify()
		if status == StatusSolved && (!s.res.Feasible || s.nearlyDependent()) {
			// Rows violated beyond rounding may be x's rounding
			// amplified by nearly dependent members, and with such
			// members x is off by that amplification along their
			// near-null direction even where no row shows it
			// (compensated.go).
			s.refineCompensated()
		}
		if status == StatusSolved && !s.res.Feasible && !s.memberAnswer() {
			s.zeroNoise()
		}
		if status != StatusSolved || round == maxResumes+s.n {
			break
		}
		var j int
		if j, status = s.rowToAdmit(round, status); j < 0 {
			break
		}
		if s.res.Feasible && j == admitted && s.res.Objective <= objective {
			// The row admitted last round left again and the answer did
			// not move: admitting it changes nothing float64 can see.
			break
		}
		admitted, objective = j, s.res.Objective
		s.admit(constraint{kindRow, int32(j)})
		s.res.Steps++
		status = s.settle(s.iterate())
	}
	if status == StatusSolved && !s.res.Feasible {
		// A loop that settled at a point violating rows beyond rounding
		// (multipliers so large that the factor cannot tell violations
		// from noise) may be missing a plain contradiction: two opposite
		// rows, as the loop's own failures look for (undecided).
		// Otherwise Solved would claim a point that satisfies every row
		// and equality to rounding, and this one does not: undecided in
		// float64.
		status = StatusPrecisionLimit
		if s.oppositeCertificate() {
			status = StatusInfeasible
		}
	}
	if status == StatusSolved && s.ownViolated && s.oppositeCertificate() {
		// A row violated only within the rounding of ||x||, which bounds
		// the error of a'x - b whatever x's entries, but beyond that of
		// its own terms |a|'|x|: x may be feasible to rounding or not.
		// Two opposite rows that contradict each other settle it: with
		// q pushing x far out, the loop can hold one at equality and see
		// the other's violation as the rounding of a large x.
		status = StatusInfeasible
	}
	s.res.HoldCost = 0
	if status == StatusSolved && s.ownViolated && s.holdExceedsGap() {
		// A member met only to the rounding of ||x||, whose exact hold
		// would cost F more than the gap of the exact penalty the
		// multipliers price its violation at: F(x) is no bound on F*
		// from above, and float64 cannot say where x* is (holdcost.go).
		status = StatusPrecisionLimit
	}
	if status == StatusSolved {
		s.raiseWeight()
		s.res.NearlyImplied += s.nearlyImpliedRows()
	}
	if status == StatusInfeasible {
		s.answerInfeasible()
	}
	s.res.Status = status
	s.res.Active = len(s.ws)
	s.budget.ctx = nil // the Solver keeps no caller's context
	return &s.res
}

// rowToAdmit chooses the row that the rounds after the loop (SolveFrom)
// admit after round rounds, or -1 when there is none; it returns the
// status the solve goes on with (a precision limit when a row float64
// cannot decide is found).
func (s *Solver) rowToAdmit(round int, status Status) (int, Status) {
	if !s.res.Feasible {
		if round < maxResumes {
			// A row violated beyond rounding that the loop's
			// threshold (PrimalTol) let pass: a row that x* holds at
			// equality with a zero multiplier (weakly active), which
			// x misses by its own error, or a row nearly dependent
			// on the members.
			return s.worstRow, status
		}
		return -1, status
	}
	if s.ownRow >= 0 && round < maxResumes {
		// A row violated within the rounding of ||x|| but beyond
		// that of its own terms: x may be off by its normwise
		// rounding there, or the row may be part of a contradiction
		// far out (an equality and a row, three rows summing to 0:
		// TestOwnTermsViolationAdmitted). Admitted, it is held
		// exactly, or the loop finds the contradiction.
		return s.ownRow, status
	}
	// A row violated within rounding, but in exact arithmetic,
	// whose normal is nearly in the span of the members': its
	// violation is x's distance from x* along their near-null
	// direction times the gap, and within rounding it can hide
	// an x off by O(1) (TestRowWedgeAdmitted). It is admitted;
	// one in the span to rounding cannot be, and is implied by
	// the members only if its violation is theirs, their
	// residuals combined by p and rounding; beyond that float64
	// cannot tell.
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	for i, r := range s.exact.row[:s.exact.n] {
		near, p1, comb := s.nearlyDependentRow(int(r))
		if near == nearSpan {
			return int(r), status
		}
		unit := 0x1p-52 * (xn + math.Abs(s.b[r]))
		if near == inSpan && s.exact.val[i]*unit > comb+impliedUnits*p1*unit {
			return -1, s.undecided(StatusPrecisionLimit)
		}
	}
	return -1, status
}

// beginSolve readies a solve that started at start under ctx: its budget,
// the per-solve state, the members' multipliers at zero (the loop solves
// for them from the working set), and, at the first re-solve, the
// transformed normals the re-solves keep (workingset.go).
func (s *Solver) beginSolve(ctx context.Context, start time.Time) {
	if s.unloaded {
		panic("activeset: Solve of a Solver whose last Load failed")
	}
	if s.solves == 1 && !s.opt.OneShot {
		s.tNormals = newTransformedNormals(s.mem.transformed, s.m, s.n)
		s.mem.transformed = s.tNormals
	}
	s.solves++
	s.startBudget(ctx, start)
	s.res.Steps, s.skipNear = 0, 0
	s.farkasBuilt = false
	s.clearSkips()
	s.short.clear()
	s.rayTrial = rayStart
	for k := range s.ws {
		s.lam[k] = 0
	}
	s.xFresh, s.vFresh, s.keptK = false, false, -1
}

// settle refines the answer of the loop that ended with status, and while
// the refined x shows rows violated beyond the loop's threshold (which
// the loop's x could not tell from satisfied: the refined x is accurate to
// its own, smaller, rounding floor), admits the worst and goes on, a
// bounded number of times. It returns the status the last loop ended
// with.
func (s *Solver) settle(status Status) Status {
	if status != StatusInfeasible {
		if !s.xFresh {
			s.primal()
		}
		s.refineAnswer()
	}
	for resume := 0; status == StatusSolved && resume < maxResumes; resume++ {
		j, ok := s.mostViolated(s.memberResidual(), vec.MaxAbs(s.x))
		if !ok {
			break
		}
		s.admit(j)
		s.res.Steps++
		if status = s.iterate(); status != StatusInfeasible {
			if !s.xFresh {
				s.primal()
			}
			s.refineAnswer()
		}
	}
	return status
}

// driftTol is the members' residual, relative to 1 + ||x||_inf, above which
// the working set's factor is rebuilt: rounding, even with multipliers of
// 1e8, stays orders of magnitude below it, while a factor downdated
// hundreds of times (a long solve on many rows, TestLongSolveStaysExact)
// can drift far above it.
const driftTol = 1e-6

// driftGrowth is how many times the members' residual on the factor as
// built from the normals (resBuilt) it may grow to, after downdates, before
// the factor is rebuilt even below driftTol: with multipliers of 1e9 (an
// unscaled SVM whose full working set changes by null steps, the root
// package's TestUnscaledSVMWide) the residual can grow by orders of magnitude and stay
// below driftTol (1 + ||x||_inf), and the loop could then neither take the
// next null step nor certify its failure. Rounding alone moves the
// residual by far less than this factor between two rebuilds; a rebuild
// costs O(k^2 n), rare at this growth.
const driftGrowth = 1e3

// compensatePivot is the smallest pivot of the working set's Gram factor
// (the squared distance of a member's unit normal from the span of those
// before it) below which a solved answer is refined from compensated
// residuals: x's error from the Gram factor's steps is about eps over that
// distance, 2e-11 relative at 1e-5, and grows beyond 1e-9 as the distance
// falls towards 1e-7 (equalities 1e-7 apart).
const compensatePivot = 1e-10

// nearlyDependent reports whether a pivot of the working set's factor is
// below compensatePivot.
func (s *Solver) nearlyDependent() bool {
	for _, d := range s.fac.d[:len(s.ws)] {
		if d < compensatePivot {
			return true
		}
	}
	return false
}

// impliedUnits is the exact violation, in eps (||x|| + |bhat|) and per
// unit of ||p||_1 (the coefficients that combine the members into the
// row), beyond the members' residuals combined by p, up to which a row
// that depends on the members to rounding counts as implied by them: the
// row's violation is theirs combined (the members hold to 10 or 20 such
// units where refinement stops at its floor, FuzzActiveSet 8c5d0ab2), and
// the rest is the rounding of the normals. (Against the row's own terms a
// row through the origin at x_1 = -1.6e-16, where x* has x_1 = 0, is
// violated by 1/eps units: FuzzActiveSet b279e399.)
const impliedUnits = 8

// maxResumes bounds the rounds of refinement and admission after the loop
// first finds its point optimal (the loop refines its own x when it is
// noisy, so a resume is rare), and the rounds that admit a row violated
// beyond rounding after the answer is certified; the rounds that admit a
// row nearly in the members' span stop at maxResumes + n (one such row
// per round, at most n of them in the working set).
const maxResumes = 8

// iterate is the loop of the method (see the package comment). Every
// round changes the working set once (a step, counted in Result.Steps).
func (s *Solver) iterate() Status {
	if s.eqInconsistent {
		return s.eqCertificate()
	}
	if s.infeasible != 0 {
		return StatusInfeasible
	}
	limit, atLimit := s.stepLimit()
	for ; s.res.Steps < limit; s.res.Steps++ {
		if st, ended := s.interrupted(); ended {
			return st
		}
		s.xFresh = false
		k := len(s.ws)
		if big := s.lamMax(); k > 0 && big > s.rayTrial {
			// Multipliers this large are the dual objective running off
			// along a ray: their direction is a Farkas certificate if the
			// rows are infeasible. It is checked every time they grow
			// by rayGrowth; past lamLimit the point is noise.
			if s.rayCertificate() {
				return StatusInfeasible
			}
			if big > lamLimit {
				return s.undecided(StatusPrecisionLimit)
			}
			s.rayTrial = big * rayGrowth
		}
		if k > 0 && s.fac.d[k-1] <= singularPivot && !s.lastIndep {
			if !s.dependent() {
				continue // the last member is independent: a regular step
			}
			if !s.nullStep() {
				if st, done := s.noNullStep(); done {
					return st
				}
			}
			continue
		}
		if s.towardsLamStar() {
			continue
		}
		s.primal()
		if s.skips > 0 && s.level() > s.skipLevel*(1+1e-12) {
			// Progress: the skipped rows and bounds may come back.
			s.clearSkips()
		}
		res, xn := s.memberResidual(), vec.MaxAbs(s.x)
		if s.resBuilt < 0 {
			s.resBuilt = res // the first point on a factor built from the normals
		}
		if res > driftTol*(1+xn) || !s.fresh && res > driftGrowth*max(s.resBuilt, 0x1p-52*(1+xn)) {
			// The members are far from equality, or much farther than
			// on the factor as built: not rounding but a factor that
			// drifted over many updates. Rebuild it and solve again.
			s.refactor()
			if s.towardsLamStar() {
				continue
			}
			s.primal()
			res, xn = s.memberResidual(), vec.MaxAbs(s.x)
			s.resBuilt = res
		}
		if res > s.opt.PrimalTol*(1+xn) {
			// x is too noisy to tell nearly active rows from violated
			// ones (large multipliers cancel in v): refine it first.
			s.refine(false)
			res, xn = s.memberResidual(), vec.MaxAbs(s.x)
		}
		j, ok := s.mostViolated(res, xn)
		if !ok {
			return StatusSolved
		}
		s.admit(j)
	}
	return s.undecided(atLimit)
}

// undecided ends a solve that could not settle its working set:
// StatusInfeasible if two opposite rows contradict each other (their
// certificate checked, and left in the Result), st otherwise.
func (s *Solver) undecided(st Status) Status {
	if s.oppositeCertificate() {
		return StatusInfeasible
	}
	return st
}

// towardsLamStar solves the working set's system for lambda*. If lambda* is
// dual feasible it becomes lambda and towardsLamStar returns false;
// otherwise lambda moves towards lambda* until the first inequality
// multiplier reaches zero, that member leaves the set, and it returns true.
//
// lambda* = lambda + delta with G delta = N'v - beta, the members'
// violations at the current v = v_u - N lambda (G lambda* = N'v_u - beta
// rearranged). Solving for the step rather than for lambda* itself keeps
// its accuracy relative to the step: with multipliers of 1e5 a new row
// violated by 1e-8 gets a multiplier of the right sign, which the direct
// solve, whose rounding is relative to lambda, does not give.
func (s *Solver) towardsLamStar() bool {
	k := len(s.ws)
	ls := s.lamStar[:k]
	s.memberViolations(ls)
	s.vFresh = false // lambda changes below
	s.fac.solve(ls, k)
	vec.Axpy(1, s.lam[:k], ls)
	scale := max(1, vec.MaxAbs(ls))
	tol := s.opt.DualTol * scale
	block, alpha, at := -1, 1.0, 0.0
	for i, c := range s.ws {
		lo, hi := s.multiplierRange(i, c)
		var target float64
		switch {
		case ls[i] < lo-tol:
			target = lo
		case ls[i] > hi+tol:
			target = hi
		default:
			continue
		}
		if a := (target - s.lam[i]) / (ls[i] - s.lam[i]); a < alpha || block < 0 {
			block, alpha, at = i, a, target
		}
	}
	if block < 0 {
		for i, c := range s.ws {
			lo, hi := s.multiplierRange(i, c)
			s.lam[i] = min(max(ls[i], lo), hi)
		}
		return false
	}
	same := alpha == 0 && at == 0 && s.ws[block].kind != kindKink
	for i := range s.ws {
		l := s.lam[i] + alpha*(ls[i]-s.lam[i])
		same = same && l == s.lam[i]
		s.lam[i] = l
	}
	s.lam[block] = at
	s.leave(block)
	if same {
		// No multiplier moved and the member left with a zero one (not
		// a kink, whose leaving moves v_u): v is what primalV would
		// compute now, bit for bit (it skips zero multipliers), and so
		// are the other members' violations at it.
		s.vFresh = true
		copy(s.keptViol[block:k-1], s.keptViol[block+1:k])
		s.keptK = k - 1
	}
	return true
}

// memberViolations sets ls to the members' violations at v, n_i'v - beta_i,
// with v = v_u - N lambda made fresh first. After a leave that moved no
// multiplier (towardsLamStar) v has not changed, and the violations kept
// from the last call, less the member that left, are taken as they are:
// a run of members leaving one by one, as a warm re-solve that starts
// from zero multipliers makes, then costs no product with the normals.
func (s *Solver) memberViolations(ls []float64) {
	k := len(ls)
	kept := s.keptK == k && s.vFresh
	s.keptK = -1
	if kept {
		copy(ls, s.keptViol[:k])
		return
	}
	if !s.vFresh {
		s.primalV()
	}
	if s.normals.n < shortLen {
		// normalSet.dots's short loop with beta folded in: below
		// shortLen the products are a few flops, and its call and
		// second pass cost as much again.
		one, oneVal := s.normals.one[:k], s.normals.oneVal[:k]
		for i := range ls {
			if o := one[i]; o >= 0 {
				ls[i] = oneVal[i]*s.v[o] - s.beta[i]
			} else {
				ls[i] = s.normals.dot(i, s.v) - s.beta[i]
			}
		}
	} else {
		s.normals.dots(s.v, ls)
		for i := range ls {
			ls[i] -= s.beta[i]
		}
	}
	copy(s.keptViol[:k], ls)
}

// multiplierRange is the interval a member's multiplier (unit-normal scale)
// must lie in: [0, inf) for inequalities and bounds, [-l1, l1] sigma for
// kinks, the whole line for equalities.
func (s *Solver) multiplierRange(i int, c constraint) (lo, hi float64) {
	switch {
	case c.isEquality():
		return math.Inf(-1), math.Inf(1)
	case c.kind == kindKink:
		return -s.l1 * s.sigma[i], s.l1 * s.sigma[i]
	}
	return 0, math.Inf(1)
}

// primal sets v = v_u - N lambda and x = L^{-T} v.
func (s *Solver) primal() {
	if !s.vFresh {
		s.primalV()
	}
	s.chol.SolveLT(s.x, s.v)
	s.hxOK = false
	s.xFresh = true
}

// level is ||v - v_u||^2 = 2 f(x) + ||v_u||^2 (v = L'x, v_u = -L^{-1}c):
// the dual method's objective, which its steps never lower (Goldfarb and
// Idnani) and degenerate steps leave unchanged. v must be fresh.
func (s *Solver) level() float64 {
	d := 0.0
	for i, v := range s.v {
		t := v - s.vu[i]
		d += t * t
	}
	return d
}

// primalV sets v = v_u - N lambda.
func (s *Solver) primalV() {
	copy(s.v, s.vu)
	k := len(s.ws)
	one, oneVal, lam := s.normals.one[:k], s.normals.oneVal[:k], s.lam[:k]
	for i, l := range lam {
		switch {
		case l == 0:
		case one[i] >= 0:
			s.v[one[i]] -= l * oneVal[i]
		default:
			s.normals.axpy(-l, i, s.v)
		}
	}
	s.vFresh = true
}

// memberResidual is the largest |ahat_k'x - bhat_k| over the working set:
// how far x is from the constraints the method holds at equality.
func (s *Solver) memberResidual() float64 {
	r := 0.0
	for _, c := range s.ws {
		r = max(r, math.Abs(s.rowValue(c, s.x)-s.rhs(c)))
	}
	return r
}
