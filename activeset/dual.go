package activeset

import (
	"math"
	"time"

	"github.com/softpen/softpen/vec"
)

// Solve runs the dual active-set method from the current working set (the
// last solve's, or the one HotStart set) and returns the certified answer.
// It allocates nothing.
func (s *Solver) Solve() *Result {
	s.res.Iter = 0
	s.farkasBuilt, s.skipRow, s.skipBound = false, -1, noBound
	s.short.clear()
	s.rayTrial = rayStart
	for k := range s.ws {
		s.lam[k] = 0
	}
	s.xFresh, s.vFresh = false, false
	status := s.iterate()
	if status != StatusInfeasible {
		if !s.xFresh {
			s.primal()
		}
		s.refineAnswer()
	}
	// The refined x is accurate to its own (smaller) rounding floor, which
	// can show rows the loop's x could not tell from satisfied: admit the
	// worst and go on, a bounded number of times.
	for resume := 0; status == StatusOptimal && resume < maxResumes; resume++ {
		j, ok := s.mostViolated(s.memberResidual(), normInf(s.x))
		if !ok {
			break
		}
		s.admit(j)
		s.res.Iter++
		if status = s.iterate(); status != StatusInfeasible {
			if !s.xFresh {
				s.primal()
			}
			s.refineAnswer()
		}
	}
	if status != StatusInfeasible {
		s.certify()
		if status == StatusOptimal && !s.res.Feasible {
			// Rows violated beyond rounding may be x's rounding
			// amplified by nearly dependent members (compensated.go).
			s.refineCompensated()
		}
		// A loop that settled at a point violating rows beyond rounding
		// (multipliers so large that the factor cannot tell violations
		// from noise) may be missing a plain contradiction: two opposite
		// rows, as the loop's own failures look for (undecided).
		if status == StatusOptimal && !s.res.Feasible && s.oppositeCertificate() {
			status = StatusInfeasible
		}
	}
	if status == StatusInfeasible {
		s.answerInfeasible()
	}
	s.res.Status = status
	s.res.Active = len(s.ws)
	return &s.res
}

// driftTol is the members' residual, relative to 1 + ||x||_inf, above which
// the working set's factor is rebuilt: rounding, even with multipliers of
// 1e8, stays orders of magnitude below it (1e-8 seen on the generator's
// many-rows family), while a factor downdated hundreds of times was seen
// 3e-2 off (a separable SVM with m = 1e5, n = 50, 886 changes).
const driftTol = 1e-6

// driftGrowth is how many times the members' residual on the factor as
// built from the normals (resBuilt) it may grow to, after downdates, before
// the factor is rebuilt even below driftTol: with multipliers of 1e9 (an
// unscaled SVM, n = 10, a full working set changed by null steps) the
// residual grew from 4e-13 to 2e-4 over 60 changes, still below driftTol
// (1 + ||x||_inf) = 8e-4, and the loop could then neither take the next
// null step nor certify its failure (precision_limit, gap 1e8). Rounding
// alone moves the residual by far less than this factor between two
// rebuilds; a rebuild costs O(k^2 n), rare at this growth.
const driftGrowth = 1e3

// maxResumes bounds the rounds of refinement and admission after the loop
// first finds its point optimal (the loop refines its own x when it is
// noisy, so a resume is rare: none was needed in the generator's families).
const maxResumes = 8

// iterate is the loop of the method (see the package comment). Every
// iteration changes the working set once.
func (s *Solver) iterate() Status {
	if s.infeasible != 0 || s.eqInconsistent {
		return StatusInfeasible
	}
	for ; s.res.Iter < s.opt.MaxIter; s.res.Iter++ {
		if !s.deadline.IsZero() && s.res.Iter%16 == 0 && time.Now().After(s.deadline) {
			return StatusTimeLimit
		}
		s.xFresh = false
		k := len(s.ws)
		if big := s.lamMax(); k > 0 && big > s.rayTrial {
			// Multipliers this large are the dual objective running off
			// along a ray: their direction is a Farkas certificate if the
			// rows are infeasible. Tried (and checked) every time they
			// grow by rayGrowth; past lamLimit the point is noise.
			if s.rayCertificate() {
				return StatusInfeasible
			}
			if big > lamLimit {
				return s.undecided()
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
		if (s.skipRow >= 0 || s.skipBound.i >= 0) && s.level() > s.skipLevel*(1+1e-12) {
			// Progress: the skipped row or bound may come back.
			s.skipRow, s.skipBound = -1, noBound
		}
		res, xn := s.memberResidual(), normInf(s.x)
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
			res, xn = s.memberResidual(), normInf(s.x)
			s.resBuilt = res
		}
		if res > s.opt.PrimalTol*(1+xn) {
			// x is too noisy to tell nearly active rows from violated
			// ones (large multipliers cancel in v): refine it first.
			s.refine(false)
			res, xn = s.memberResidual(), normInf(s.x)
		}
		j, ok := s.mostViolated(res, xn)
		if !ok {
			return StatusOptimal
		}
		s.admit(j)
	}
	return s.undecided()
}

// noNullStep handles a dependent last member along whose null direction no
// multiplier blocks: infeasible, if the certificate holds in the caller's
// data; the member leaves and is skipped, if it is consistent along p;
// otherwise the solve ends undecided. It reports the status and whether
// the solve ends. The certificate fails when p is not null to the accuracy
// a certificate needs, and the method cannot decide in float64.
func (s *Solver) noNullStep() (Status, bool) {
	k := len(s.ws)
	s.buildFarkas()
	ok, consistent := s.farkasHolds()
	if ok {
		return StatusInfeasible, true
	}
	clear(s.res.FarkasA)
	clear(s.res.FarkasEq)
	s.farkasBuilt = false
	last := s.ws[k-1]
	if !consistent || !(last.kind == kindRow || last.kind == kindUpper || last.kind == kindLower) {
		return s.undecided(), true
	}
	// Consistent along p: the row's violation is the members' residuals
	// amplified by p, not a contradiction. It leaves, and is not admitted
	// again until the objective has risen: allowed back as soon as the
	// working set changed, it was admitted again at the same point and
	// the loop cycled (FuzzTinyQP: a degenerate vertex of R^4 where three
	// rows fix x_1 = 0, 600 changes). A bound likewise (FuzzActiveSet: x_0
	// fixed at 0 and a row make x_1 >= 0, and x_1 <= 0 is violated by
	// rounding; it ended undecided).
	s.pop(k - 1)
	if !s.vFresh {
		s.primalV()
	}
	if last.kind == kindRow {
		s.skipRow = last.i
	} else {
		s.skipBound = last
	}
	s.skipLevel = s.level()
	return 0, false
}

// undecided ends a solve that could not settle its working set:
// StatusInfeasible if two opposite rows contradict each other (their
// certificate checked, and left in the Result), StatusIterLimit otherwise.
func (s *Solver) undecided() Status {
	if s.oppositeCertificate() {
		return StatusInfeasible
	}
	return StatusIterLimit
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
	if !s.vFresh {
		s.primalV()
	}
	s.vFresh = false // lambda changes below
	ls := s.lamStar[:k]
	one, oneVal := s.normals.one[:k], s.normals.oneVal[:k]
	for i := range ls {
		if o := one[i]; o >= 0 {
			ls[i] = oneVal[i]*s.v[o] - s.beta[i]
		} else {
			ls[i] = s.normals.dot(i, s.v) - s.beta[i]
		}
	}
	s.fac.solve(ls, k)
	vec.Axpy(1, s.lam[:k], ls)
	scale := max(1, normInf(ls))
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
	for i := range s.ws {
		s.lam[i] += alpha * (ls[i] - s.lam[i])
	}
	s.lam[block] = at
	s.leave(block)
	return true
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

// nullStep handles a last member whose normal depends on the others. Along
// p = (-G^{-1}g, 1) the primal point does not move and the dual objective
// rises at the rate of the member's violation, so lambda moves along p until
// an inequality multiplier of the others reaches zero and that member
// leaves. If none can, it returns false: the rows are infeasible (p is the
// Farkas direction, left in s.dir). Equalities never get here: Reset
// settles their dependencies (pushEquality).
func (s *Solver) nullStep() bool {
	k := len(s.ws)
	p := s.dir[:k] // dependent left it
	// The dual objective rises along p at the rate of the last member's
	// violation n'v - beta, positive for a row or bound (it entered
	// violated); a kink enters from a cap and must move away from it.
	if last := s.ws[k-1]; last.kind == kindKink && s.lam[k-1] > 0 {
		vec.Scale(-1, p)
	}
	// A member's entry of p at the rounding of p itself is zero: a step
	// that such an entry blocks is a step of 1/eps, multipliers of 1e17
	// and more, and v lost (FuzzTinyQP: rows 3 and 4 tight imply row 2;
	// p's entries on two other members were 5e-15 of noise against 25, the
	// step set multipliers of 6e17, and the loop cycled). Without them
	// the row is found consistent-dependent (the caller's Farkas check).
	tiny := indepRatio * normOne(p)
	for i := range p[:k-1] {
		if math.Abs(p[i]) <= tiny {
			p[i] = 0
		}
	}
	block, alpha, at := s.nullBlock(p)
	if block < 0 {
		return false
	}
	vec.Axpy(alpha, p, s.lam[:k])
	s.vFresh = false
	s.lam[block] = at
	s.leave(block)
	return true
}

// dependent decides whether the last member, whose pivot is at most
// singularPivot, depends on the others, and leaves the null direction
// p = (-G^{-1}g, 1), refined in the caller's variables, in s.dir. The
// pivot is the squared distance of the member's normal from the others'
// span, formed with an absolute rounding of a few k eps that a factor
// downdated many times can raise far above that (a pivot of -1.6e-11 was
// seen): it cannot tell a distance below 1e-7 from zero. The direction
// can: r = N p is that distance's vector, computed to about eps ||p||_1.
// A member of at most n whose ||r|| is far above that rounding is
// independent: its pivot becomes ||r||^2 (lastIndep) and dependent
// returns false, once a factor rebuilt from the stored normals confirms it
// if this one was downdated (a small ||r|| needs no confirmation: it bounds
// the distance whatever p's accuracy). n+1 normals in R^n always depend.
func (s *Solver) dependent() bool {
	k := len(s.ws)
	if i := s.twin(k - 1); i >= 0 {
		// A repeated or negated row: the null direction is exact,
		// p = e_last -+ e_i, whatever the conditioning of the others.
		p := s.dir[:k]
		clear(p)
		p[k-1], p[i] = 1, -vec.Dot(s.normals.full(i), s.normals.full(k-1))
		s.fac.d[k-1] = 0
		return true
	}
	p := s.dir[:k]
	s.fac.nullDirection(p)
	s.refineNull(p)
	if k > s.n {
		return true
	}
	r := s.nullResidual(p)
	if r > indepRatio*normOne(p) && !s.fresh {
		s.refactor()
		s.fac.nullDirection(p)
		s.refineNull(p)
		r = s.nullResidual(p)
	}
	if !(r > indepRatio*normOne(p)) {
		s.fac.d[k-1] = 0
		return true
	}
	r *= r
	s.fac.d[k-1] = r
	s.lastIndep = true
	return false
}

// nullResidual is ||N p||_2, computed from the stored normals.
func (s *Solver) nullResidual(p []float64) float64 {
	clear(s.t)
	for i, pi := range p {
		vec.Axpy(pi, s.normals.full(i), s.t)
	}
	return math.Sqrt(vec.Dot(s.t, s.t))
}

// normOne is ||p||_1.
func normOne(p []float64) float64 {
	t := 0.0
	for _, v := range p {
		t += math.Abs(v)
	}
	return t
}

// indepRatio is the distance from the others' span, relative to the null
// direction's 1-norm, above which dependent counts a member independent:
// a thousand times the rounding of the residual.
const indepRatio = 1e3 * 0x1p-52

// rayStart is the largest multiplier (unit-normal scale) at which the
// multipliers are first tried as a Farkas certificate, and rayGrowth the
// factor by which they must grow before the next try. Feasible problems
// with multipliers of 1e10 exist (separable raw-feature SVMs): the start
// stays above them, where a try (O(k^2 n) when it gets to the polish)
// cost 4% of such a solve at 1e6. rayPrecheck is the relative size of
// N lambda below which the multipliers are tried at all.
const (
	rayStart    = 1e12
	rayGrowth   = 100
	rayPrecheck = 1e-6
)

// lamLimit is the multiplier (unit-normal scale) beyond which a solve
// stops with StatusIterLimit: v = v_u - N lambda has lost every digit long
// before, and the next steps would overflow.
const lamLimit = 1e30

// lamMax is the largest |lambda_k| of the working set, +Inf if one is not
// finite.
func (s *Solver) lamMax() float64 {
	m := 0.0
	for _, l := range s.lam[:len(s.ws)] {
		a := math.Abs(l)
		if !(a <= math.MaxFloat64) {
			return math.Inf(1)
		}
		m = max(m, a) // builtin: inlined (a is not NaN here)
	}
	return m
}

// rayCertificate tries the direction of the multipliers as the Farkas
// certificate (refined, polished and checked like a null direction's),
// and if it fails, two opposite rows (oppositeCertificate: multipliers
// this large are where the loop loses track of such a pair), and reports
// whether one holds. On failure the Result's certificate is cleared.
func (s *Solver) rayCertificate() bool {
	return s.multiplierCertificate() || s.oppositeCertificate()
}

// multiplierCertificate tries the direction of the multipliers as the
// Farkas certificate (see rayCertificate).
func (s *Solver) multiplierCertificate() bool {
	k := len(s.ws)
	for _, c := range s.ws {
		if c.kind == kindKink {
			return false // a capped or held kink is not a constraint
		}
	}
	// Along a ray N lambda = v_u - v grows slower than lambda; if it is
	// not yet far below sum |lambda_i| ||n_i||, the certificate's polish
	// (O(k^2 n)) is not worth its cost: the large multipliers of a
	// feasible problem (|c| large, or nearly parallel active rows) stop
	// here.
	clear(s.t)
	size := 0.0
	for i, l := range s.lam[:k] {
		vec.Axpy(l, s.normals.full(i), s.t)
		size += math.Abs(l)
	}
	if math.Sqrt(vec.Dot(s.t, s.t)) > rayPrecheck*size {
		return false
	}
	copy(s.dir[:k], s.lam[:k])
	s.buildFarkas()
	if ok, _ := s.farkasHolds(); ok {
		return true
	}
	clear(s.res.FarkasA)
	clear(s.res.FarkasEq)
	s.farkasBuilt = false
	return false
}

// nullBlock returns the member whose multiplier first reaches its bound
// along p, the step and the bound, or block -1 if none does.
func (s *Solver) nullBlock(p []float64) (block int, alpha, at float64) {
	block = -1
	for i, c := range s.ws {
		lo, hi := s.multiplierRange(i, c)
		var target float64
		switch {
		case p[i] < 0 && !math.IsInf(lo, -1):
			target = lo
		case p[i] > 0 && !math.IsInf(hi, 1):
			target = hi
		default:
			continue
		}
		if a := (target - s.lam[i]) / p[i]; block < 0 || a < alpha {
			block, alpha, at = i, a, target
		}
	}
	return block, alpha, at
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

// mostViolated returns, given the working set's residual res (memberResidual
// at s.x) and ||s.x||_inf, the constraint outside the working set with the
// largest violation of the unit rows and bounds at x, if one exceeds both
// PrimalTol (1 + ||x||_inf) and twice the largest residual of the working
// set's own constraints. The latter is the rounding floor of this x: with
// large multipliers v = v_u - N lambda cancels, and the members, which the
// method holds at equality, are off by that much. A row violated by less
// is within rounding of satisfied, and admitting it makes the method cycle
// on rows whose multiplier comes out of the noise with either sign. Ties go
// to the lowest index, rows first.
func (s *Solver) mostViolated(res, xn float64) (constraint, bool) {
	// The floor from the members' residual is capped at driftTol: above it
	// the residual is not rounding (iterate refactors then), and it must
	// never hide a real violation.
	worst := max(s.opt.PrimalTol*(1+xn), min(2*res, driftTol*(1+xn)))
	best, found := constraint{}, false
	// A row whose stored violation plus the drift since is below the
	// threshold is not recomputed (drift.go). Late in a solve x moves
	// little and most rows are skipped.
	s.measureDrift(xn)
	// The last scan's most violated rows are tried first (shortlist.go).
	// Then the rows most likely to be violated (the pool) are scanned;
	// all rows only when none of them is, and then the pool is rebuilt.
	// Optimality is declared only after a scan of every row. A full scan
	// moves the anchor to x first: the rows it computes are stamped exact.
	if c, v, ok := s.fromShortlist(worst); ok {
		worst, best, found = v, c, true
	} else {
		s.short.filling = true
		if s.poolOK {
			worst, best, found = s.checkRows(s.pool, worst, best, found)
		}
		if !found {
			s.drift.reanchor()
			worst, best, found = s.checkRows(nil, worst, best, found)
			s.rebuildPool()
		}
		s.short.filling, s.short.max = false, worst
	}
	for i, x := range s.x {
		if s.boundIn[i] != 0 {
			continue
		}
		if v := x - s.up[i]; v > worst && s.skipBound != (constraint{kindUpper, int32(i)}) {
			worst, best, found = v, constraint{kindUpper, int32(i)}, true
		}
		if v := s.lo[i] - x; v > worst && s.skipBound != (constraint{kindLower, int32(i)}) {
			worst, best, found = v, constraint{kindLower, int32(i)}, true
		}
	}
	if s.l1 > 0 {
		// A kink capped at +l1 needs x_i >= 0, at -l1 x_i <= 0.
		for i, x := range s.x {
			if v := -float64(s.capSign[i]) * x; !s.kinkIn[i] && v > worst {
				worst, best, found = v, constraint{kindKink, int32(i)}, true
			}
		}
	}
	return best, found
}

// forgetViolations marks every row's stored violation as unknown (after
// the right-hand sides change, or when a row leaves the working set).
func (s *Solver) forgetViolations() {
	for j := range s.rowBnd {
		s.rowBnd[j] = unknownBound
		if s.ainv[j] == 0 {
			s.rowBnd[j] = zeroRowBound // never computed: its bound never passes
		}
	}
	s.poolOK = false
	s.short.clear()
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

// checkRows computes the violation of each row of js (nil: every row) unless
// it is in the working set, zero, or provably below worst (its stored
// violation plus the drift since), and makes the first largest above worst
// the best so far. The rows to compute are taken four at a time
// (violations): a scan's rows come from memory, and four dense rows in one
// vec.Dot4 overlap their loads and read x once (the large QP's 1e5 rows of
// 100: 25.5 -> 22.4 ms of the engine's scans per solve). A row chosen while
// worst was lower than it becomes before the four are computed is computed
// for nothing, never skipped wrongly.
func (s *Solver) checkRows(js []int32, worst float64, best constraint, found bool) (float64, constraint, bool) {
	rowIn, ainv, bnd := s.rowIn, s.ainv, s.rowBnd
	path, anchor := s.drift.offsets()
	count := s.m
	if js != nil {
		count = len(js)
	}
	var four [4]int32
	k := 0
	for t := 0; t < count; t++ {
		j := int32(t)
		if js != nil {
			j = js[t]
		}
		// The bound first: it alone rules out most rows, and a scan then
		// reads 16 bytes a row from one array.
		if b := bnd[j]; min(b.p+path, b.a+anchor) <= worst || rowIn[j] || ainv[j] == 0 || j == s.skipRow {
			continue
		}
		four[k] = j
		if k++; k == 4 {
			worst, best, found = s.violations(four[:], worst, best, found)
			k = 0
		}
	}
	return s.violations(four[:k], worst, best, found)
}

// violations computes and stores the violations at s.x of the rows js (at
// most four; vec.Dot4 when there are four dense ones) and, in the order of
// js, makes the first largest above worst the best so far.
func (s *Solver) violations(js []int32, worst float64, best constraint, found bool) (float64, constraint, bool) {
	var d [4]float64
	sparse := s.sp.sparse
	if len(js) == 4 && (sparse == nil || !sparse[js[0]] && !sparse[js[1]] && !sparse[js[2]] && !sparse[js[3]]) {
		d[0], d[1], d[2], d[3] = vec.Dot4(s.x, s.a[js[0]], s.a[js[1]], s.a[js[2]], s.a[js[3]])
	} else {
		for i, j := range js {
			d[i] = s.rowDot(int(j), s.x)
		}
	}
	path, anchor := s.drift.stamps()
	for i, j := range js {
		v := d[i]*s.ainv[j] - s.b[j]
		s.rowBnd[j] = computedBound(v, path, anchor)
		if v > 0 && s.short.filling {
			s.short.add(j, v)
		}
		if v > worst {
			worst, best, found = v, constraint{kindRow, j}, true
		}
	}
	return worst, best, found
}

// measureDrift moves the drift bounds to s.x (||s.x||_inf = xn) and
// restarts those that have grown too long (drift.go).
func (s *Solver) measureDrift(xn float64) {
	path, anchors := s.drift.measure(s.x, xn)
	switch {
	case anchors:
		s.forgetViolations()
		s.drift.restart(s.x)
	case path:
		s.drift.restartPath()
		for j := range s.rowBnd {
			s.rowBnd[j].p = math.Inf(1) // the path bound no longer holds
		}
	}
}

// violationBound is an upper bound on row j's violation at the current
// point: its stored value plus the drift since (drift.go).
func (s *Solver) violationBound(j int) float64 {
	path, anchor := s.drift.offsets()
	return s.rowBnd[j].at(path, anchor)
}

// rebuildPool keeps in the pool the cap(s.pool) rows outside the working
// set whose violation bound (stored violation plus drift) is largest: the
// rows the next iterations are likely to admit. The pool only orders the
// scan, so any choice is correct.
//
// The k-th largest bound of all rows is estimated first as the
// (k/poolStride)-th largest of every poolStride-th row; only the rows at or
// above that estimate are then ranked (up to 4k of them, else all rows
// are). A selection over all m bounds was half the cost of a rebuild, and a
// solve of the large QP (m = 1e5) rebuilds after each of its ~8 full scans.
func (s *Solver) rebuildPool() {
	k := cap(s.pool)
	if k == 0 || s.m <= k {
		s.poolOK = false
		return
	}
	path, anchor := s.drift.offsets()
	bnd := s.rowBnd
	bound := func(j int) float64 { return min(bnd[j].p+path, bnd[j].a+anchor) } // violationBound, inlined
	score := s.poolScore[:0]
	for j := 0; j < s.m; j += poolStride {
		if !s.rowIn[j] && s.ainv[j] != 0 {
			score = append(score, bound(j))
		}
	}
	if len(score) <= k/poolStride {
		s.poolOK = false // nearly every row is in the working set or zero
		return
	}
	cut := vec.SelectLargest(score, k/poolStride)
	// The rows at or above the estimated cut, and their bounds.
	cand, score := s.poolCand[:0], s.poolScore[:0]
	all := false // too many of them (ties after forgetViolations): rank all rows
	for j := 0; j < s.m && !all; j++ {
		if v := bound(j); v >= cut && !s.rowIn[j] && s.ainv[j] != 0 {
			if all = len(cand) == cap(cand); !all {
				cand, score = append(cand, int32(j)), append(score, v)
			}
		}
	}
	if all {
		score = s.poolScore[:0]
		for j := 0; j < s.m; j++ {
			if !s.rowIn[j] && s.ainv[j] != 0 {
				score = append(score, bound(j))
			}
		}
	}
	s.pool = s.pool[:0]
	if !all && len(cand) <= k {
		s.pool = append(s.pool, cand...)
		s.poolOK = true
		return
	}
	if len(score) <= k {
		s.poolOK = false
		return
	}
	cut = vec.SelectLargest(score, k)
	if !all {
		for _, j := range cand {
			if len(s.pool) < k && bound(int(j)) >= cut {
				s.pool = append(s.pool, j)
			}
		}
	} else {
		for j := 0; j < s.m && len(s.pool) < k; j++ {
			if !s.rowIn[j] && s.ainv[j] != 0 && bound(j) >= cut {
				s.pool = append(s.pool, int32(j))
			}
		}
	}
	s.poolOK = true
}

// poolStride is the spacing of the rows whose bounds estimate the pool's
// cut (rebuildPool).
const poolStride = 8

// refactor rebuilds the factor of the working set's Gram matrix from the
// stored normals (O(k^2 n)), dropping the rounding that adds and rank-one
// removes have accumulated.
func (s *Solver) refactor() {
	s.fresh, s.lastIndep = true, false
	s.resBuilt = -1
	s.fac.k = 0
	for k := range s.ws {
		for i := 0; i < k; i++ {
			s.g[i] = s.normals.gram(i, k)
		}
		s.fac.add(s.g, 1)
		if k >= s.n {
			s.fac.d[k] = 0 // as in push: n+1 normals in R^n depend
		}
	}
}
