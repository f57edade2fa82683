package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// multipliers writes the multipliers of the working set on the caller's
// scale into the Result: a unit-normal multiplier lam_k is lam_k / sigma_k
// on the unit row and lam_k / (sigma_k ||a_k||) on the caller's row.
func (s *Solver) multipliers() {
	clear(s.res.Lambda)
	clear(s.res.Nu)
	clear(s.res.Z)
	for i, sign := range s.capSign {
		if s.l1 > 0 {
			s.res.W[i] = float64(sign) * s.l1
		}
	}
	xr, nan := 0.0, false // PenaltyWeight, as package solver's penaltyWeight forms it
	weigh := func(v float64) {
		if v > xr {
			xr = v
		} else if v != v {
			nan = true
		}
	}
	for i, c := range s.ws {
		l := s.lam[i] / s.sigma[i]
		switch c.kind {
		case kindRow:
			s.res.Lambda[c.i] = l * s.ainv[c.i]
			weigh(2 * s.res.Lambda[c.i])
		case kindEq:
			s.res.Nu[c.i] = l * s.eqinv[c.i]
			weigh(2 * math.Abs(s.res.Nu[c.i]))
		case kindKink:
			// In [-l1, l1] as the dual needs it (l1 |x| >= w x for
			// every x): lam_k / sigma_k can pass l1 by its rounding.
			s.res.W[c.i] = min(max(l, -s.l1), s.l1)
		case kindLower:
			s.res.Z[c.i] = -l
		default:
			s.res.Z[c.i] = l
		}
	}
	if nan {
		xr = math.NaN()
	}
	s.res.weight = xr
}

// certify fills the Result with x, the multipliers and their certificate,
// all computed from the caller's data:
//
//	objective  F(x) = 1/2 x'Hx + c'x + l1 ||x||_1
//	dual       G = -1/2 q'H^{-1}q - b'lambda - beq'nu - sum_i z_i bound_i,
//	           q = c + A'lambda + Aeq'nu + z + w, bound_i = up_i if z_i > 0 else lo_i
//
// G is the minimum over x of the Lagrangian (l1 |x_i| >= w_i x_i for
// |w_i| <= l1), so G <= F* for any lambda >= 0, z of the bound signs and
// |w| <= l1, and Gap = F(x) - G bounds F(x) - F* for a feasible x
// (MaxViolation says how feasible x is). Gap is taken in the form
// GapRounding names, from the Lagrangian's gradient at x and the
// constraints' complementary terms (gradientGap, violation).
func (s *Solver) certify() {
	s.multipliers()
	r := &s.res
	// x leaves the loop within PrimalTol of its bounds; the answer lies in
	// the box exactly, so that only rows and equalities can be violated.
	s.clipped = false
	for i, v := range s.x {
		w := min(max(v, s.lo[i]), s.up[i])
		held := s.boundIn[i] != 0 // x_i on a member's bound to rounding
		if s.l1 > 0 && s.kinkIn[i] {
			w, held = 0, true // held at its kink
		}
		if w != v {
			// Onto a bound outside the working set x may move by more
			// than rounding, and off the members' equalities.
			s.x[i], s.hxOK = w, false
			s.clipped = s.clipped || !held
		}
	}
	copy(r.X, s.x)
	if !s.hxOK {
		s.chol.mulH(s.hx, s.x)
	}
	copy(s.r, s.hx)
	r.Objective = 0.5*vec.Dot(s.x, s.r) + vec.Dot(s.c, s.x)
	if s.l1 > 0 {
		for _, v := range s.x {
			r.Objective += s.l1 * math.Abs(v)
		}
	}
	// g = Hx + q in s.r, q = c + w + sum of the members' multipliers
	// times their normals (w: the capped kinks' l1 sign(x_i) here, the
	// held kinks' among the members). q starts from c and W, not from
	// cEff: cEff is c + w only up to the roundings of every cap and
	// uncap it has seen.
	copy(s.t, s.c)
	if s.l1 > 0 {
		for i, sign := range s.capSign {
			if sign != 0 {
				s.t[i] += r.W[i]
			}
		}
	}
	lamAbs := 0.0
	for i, c := range s.ws {
		l := s.lam[i] / s.sigma[i]
		if l == 0 {
			continue
		}
		s.addNormal(l, c, s.t)
		lamAbs += math.Abs(l)
	}
	vec.Axpy(1, s.t, s.r)
	r.Stationarity = vec.MaxAbs(s.r)
	s.violation()
	s.gradientGap(lamAbs)
	r.Gap = r.Rounding.Half + r.Rounding.Terms
	r.Dual = r.Objective - r.Gap
}

// gradientGap sets Rounding's Half, YNorm, GNorm, Grad and Solve from g =
// s.r (H x + q as certify computed it, lamAbs the sum of the members'
// |multipliers| on their unit normals), using s.t.
//
// Each entry of g is a sum of at most n + k + 3 terms (k members), so its
// rounding is within gamma_{n+k+3} T_i, T_i = ||H_i|| ||x|| + |c_i| + l1 +
// lamAbs (|H_i|'|x| by Cauchy-Schwarz; each unit normal's entries are at
// most 1). Where that bound would weigh in PenaltyGap (Options.Mu; H
// ill-conditioned, x large: then g is near its own rounding and
// 1/2 g'H^{-1}g is mostly noise), g is summed again in twice the working
// precision (exactStationarity; never without Options.Mu): within
// 2 eps |g_i| + 4 gamma_{2N}^2 T_i (Ogita, Rump and Oishi's bound with a
// factor 2 of margin, N = n + k + 2 terms), nearly exact.
func (s *Solver) gradientGap(lamAbs float64) {
	r := &s.res
	f := &s.chol
	f.measure()
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	gamma := vec.DotErrorBound(s.n + len(s.ws) + 3)
	// 1 + gamma: the rounding of the norms themselves.
	hx := xn * (1 + gamma)
	lam := lamAbs * (1 + gamma)
	size := func(i int) float64 {
		t := f.rowNorm[i]*hx + math.Abs(s.c[i]) + lam
		if s.l1 > 0 {
			t += s.l1
		}
		return t
	}
	grad := 0.0
	for i := range s.r {
		t := size(i)
		grad += t * t
	}
	grad = gamma * math.Sqrt(grad)
	g := &r.Rounding
	g.Solve = f.solveError()
	s.halfGap(grad)
	mu := s.opt.Mu
	if !(mu > 0) {
		return // no mu to weigh the bound with: it stands (Options.Mu)
	}
	// What the bound adds to PenaltyGap: negligible against Gap and
	// Objective, or g is summed again.
	u := 2 * g.YNorm * math.Sqrt(2/mu)
	if g.Solve > mu/2 {
		u = g.GNorm / mu
	}
	if grad*u+grad*grad/(2*mu) <= 0x1p-46*(1+math.Abs(r.Objective)+math.Abs(g.Half+g.Terms)) {
		return
	}
	s.exactStationarity(s.r, s.x)
	g2 := 2 * vec.DotErrorBound(2*(s.n+len(s.ws)+2))
	g2 *= g2
	grad = 0
	for i, v := range s.r {
		e := 0x1p-52*math.Abs(v) + g2*size(i)
		grad += e * e
	}
	s.halfGap(math.Sqrt(grad))
	r.Stationarity = vec.MaxAbs(s.r)
}

// halfGap sets Rounding's Half, YNorm, GNorm and Grad (= grad) from g in
// s.r, solving L y = g into s.t.
func (s *Solver) halfGap(grad float64) {
	g := &s.res.Rounding
	s.chol.SolveL(s.t, s.r)
	// Each norm carries gamma_{n+1} of rounding: taken up by it.
	gn := 1 + vec.DotErrorBound(s.n+1)
	yy := vec.Dot(s.t, s.t) * gn
	g.Half = 0.5 * yy
	g.YNorm = math.Sqrt(yy) * gn
	g.GNorm = math.Sqrt(vec.Dot(s.r, s.r)*gn) * gn
	g.Grad = grad
}

// violation sets MaxViolation, SumViolation and Complementarity over every
// constraint, Feasible, worstRow: the row outside the working set violated
// most beyond rounding (on the unit-row scale), -1 if none, and the rows
// outside the working set violated most in exact arithmetic (their
// residuals summed in twice the precision, on the unit-row scale, in eps
// (||x|| + |bhat|), WithinRounding's scale), most violated first
// (exact), and those that hold in exact arithmetic but within their
// evaluation's rounding of zero (near). A row outside the working set (multiplier 0) whose stored
// violation plus the drift since (mostViolated's bound) is below zero by
// more than their rounding is satisfied at x and adds nothing to any of
// them: it is skipped. After the last scan of mostViolated that is most
// rows, and on many rows the pass over them is most of the certificate's
// cost (BenchmarkLargeQP).
//
// It also sums Gap's terms other than the Lagrangian's into Rounding
// (gapTerms): from the residuals as computed, and again from residuals
// summed in twice the working precision if the rounding the first sums
// charge is not negligible (exactTerms).
func (s *Solver) violation() {
	t := s.violationPass()
	g := &s.res.Rounding
	if g.TermsError+t.xi*g.ViolationError > 0x1p-46*(1+math.Abs(s.res.Objective)) {
		s.exactTerms()
	}
}

// violationPass is violation's pass over every constraint, with Gap's
// terms from the residuals as computed, and returns the terms. It lists
// in s.termRows, in order, the rows whose residuals add to the terms
// (exactTerms): those with a multiplier, and those whose residual may be
// positive in exact arithmetic; the others add nothing. A few rows are
// at most violated within rounding at an answer, so the list is short;
// termsAll says it overflowed.
func (s *Solver) violationPass() gapTerms {
	r := &s.res
	viol, sum, comp := 0.0, 0.0, 0.0
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	skip := s.newRowSkip(xn, vec.MaxAbs(s.x))
	r.Feasible, r.NearlyImplied = true, s.eqNear+s.skipNear
	s.worstRow, s.ownViolated, s.ownRow = -1, false, -1
	ownWorst := 0.0
	s.exact.reset()
	s.near.reset()
	s.termRows, s.termsAll = s.termRows[:0], false
	worst := 0.0
	gn := vec.DotErrorBound(s.n + 1)
	terms := s.newGapTerms()
	var c rowChunk
	for s.nextChunk(&c, skip, false) {
		for i, j32 := range c.rows[:c.k] {
			j, res := int(j32), c.res[i] // a_j'x - b_j on the caller's scale
			if math.IsNaN(res) && !oddScale(s.ainv[j]) {
				// The row's products with x overflow with both signs: float64
				// cannot tell whether x satisfies it, and x is not an answer.
				// (A row of unusual norm is judged on the unit scale:
				// unusualViolations.)
				r.Feasible = false
				res = math.Inf(1)
			}
			viol = max(viol, res)
			if res > 0 {
				sum += res
				v := res * s.ainv[j]
				bhat := s.bOrig[j] * s.ainv[j]
				if !WithinRounding(v, xn, bhat, s.n) {
					r.Feasible = false
					if v > worst && !s.rowIn[j] {
						worst, s.worstRow = v, j
					}
				} else if s.ainv[j] > 0 {
					terms := s.absNormalDot(constraint{kindRow, int32(j)}, s.x) + math.Abs(bhat)
					if !WithinRounding(v, terms, 0, s.n) {
						s.ownViolated = true
						if !s.rowIn[j] && v/terms > ownWorst {
							ownWorst, s.ownRow = v/terms, j
						}
					}
				}
			}
			// A row whose residual is within its evaluation's rounding of
			// zero or above may be violated in exact arithmetic: its
			// residual summed in twice the precision says. So may, on the
			// members' exact face, a row that holds at x by no more than a
			// member may be violated there (WithinRounding): one nearly
			// opposite to a member that x violates within rounding holds by
			// that much (nearlyImpliedRows).
			if !s.rowIn[j] && s.ainv[j] > 0 && WithinRounding(-res*s.ainv[j], xn, s.b[j], s.n) {
				s.noteExact(j, xn)
			}
			comp = max(comp, math.Abs(r.Lambda[j]*res))
			if s.ainv[j] > 0 {
				err, adds := s.rowTermError(j, res, xn, gn, terms.under)
				if adds {
					if len(s.termRows) < cap(s.termRows) {
						s.termRows = append(s.termRows, int32(j))
					} else {
						s.termsAll = true
					}
				}
				terms.row(r.Lambda[j], res, err)
			}
		}
	}
	viol = max(viol, s.unusualViolations(xn))
	viol, sum = s.equalityTerms(&terms, xn, viol, sum)
	r.SumViolation = sum
	bviol, bcomp := s.boundTerms(&terms)
	r.MaxViolation, r.Complementarity = max(viol, bviol), max(comp, bcomp)
	terms.finish(&r.Rounding)
	return terms
}

// unusualViolations takes the residuals of the rows of unusual norm
// outside the working set on the unit scale, (a_j/||a_j||)'x -
// b_j/||a_j||, summed in twice the precision (xn = ||x||): on the
// caller's scale a row of norm 1e230 at an x of 1e87 has products beyond
// float64's range, and its residual, the exact 7e316, came out -Inf, a
// row that holds, and x the unconstrained minimiser was answered solved.
// A row violated beyond rounding (with the scaling's rounding) makes x
// infeasible, and is the row the solve admits next when it is the
// most violated (worstRow). It returns the largest such violation on the
// caller's scale (+Inf where that overflows), 0 if none.
func (s *Solver) unusualViolations(xn float64) (viol float64) {
	worst := 0.0
	if s.worstRow >= 0 {
		worst = math.Inf(1) // a row found by the pass comes first
	}
	for _, j32 := range s.unusual {
		j := int(j32)
		if s.rowIn[j] {
			continue
		}
		inv := s.ainv[j]
		var e vec.ExactSum
		for i, v := range s.a[j] {
			e.AddProduct(v*inv, s.x[i])
		}
		bhat := s.bOrig[j] * inv
		e.Add(-bhat)
		v := e.Value()
		if v > 0 && !WithinRounding(v, 2*xn, 2*math.Abs(bhat), s.n) {
			s.res.Feasible = false
			viol = max(viol, v/inv)
			if v > worst {
				worst, s.worstRow = v, j
			}
		}
	}
	return viol
}

// oddScale reports whether a row's inverse norm inv is that of a row of
// unusual norm (Solver.unusual): outside 2^-450..2^450.
func oddScale(inv float64) bool { return inv > 0 && (inv < 0x1p-450 || inv > 0x1p450) }

// residualChunk is the rows violationPass and exactTerms list before
// computing their residuals together (rowResiduals): on the stack.
const residualChunk = 64

// rowChunk is one chunk of the walk over the rows that violationPass and
// exactTerms share: up to residualChunk rows and their residuals, and the
// row the next chunk starts from.
type rowChunk struct {
	rows    [residualChunk]int32
	res     [residualChunk]float64
	k, next int
}

// nextChunk lists in c the next rows that skip does not rule out (and,
// with nonzero, that are not zero rows), up to residualChunk of them, with
// their residuals (rowResiduals). It reports false once every row has
// been walked.
func (s *Solver) nextChunk(c *rowChunk, skip rowSkip, nonzero bool) bool {
	if c.next >= s.m {
		return false
	}
	c.k = 0
	for ; c.next < s.m && c.k < residualChunk; c.next++ {
		if j := c.next; !skip.holds(s, j) && (!nonzero || s.ainv[j] > 0) {
			c.rows[c.k] = int32(j)
			c.k++
		}
	}
	s.rowResiduals(c.rows[:c.k], c.res[:c.k])
	return true
}

// rowResiduals sets res[i] = a_j'x - b_j on the caller's scale for
// j = rows[i]. Dense rows go four at a time through one vec.Dot4, which
// reads x once for the four (a Dot a row was most of a warm re-solve's
// certificate), and a last one to three are padded with copies of the
// last: each row's product is thus the bits of a Dot4 lane, whatever rows
// it is grouped with, so two passes over different sets of rows agree on
// the rows they share. Rows held sparse go over their entries. Each
// product is within gamma_n of its terms, as a Dot's.
func (s *Solver) rowResiduals(rows []int32, res []float64) {
	sparse := s.sp.sparse
	var four [4]int
	k := 0
	for i, j32 := range rows {
		j := int(j32)
		if sparse != nil && sparse[j] {
			res[i] = s.sp.dot(j, s.x) - s.bOrig[j]
			continue
		}
		four[k] = i
		if k++; k == 4 {
			s.fourResiduals(rows, res, four[:])
			k = 0
		}
	}
	if k > 0 {
		for p := k; p < 4; p++ {
			four[p] = four[k-1]
		}
		s.fourResiduals(rows, res, four[:])
	}
}

// fourResiduals sets res[i] for the four (dense) rows rows[i], i in at.
func (s *Solver) fourResiduals(rows []int32, res []float64, at []int) {
	a, b := s.a, s.bOrig
	j0, j1, j2, j3 := rows[at[0]], rows[at[1]], rows[at[2]], rows[at[3]]
	d0, d1, d2, d3 := vec.Dot4(s.x, a[j0], a[j1], a[j2], a[j3])
	res[at[0]], res[at[1]], res[at[2]], res[at[3]] = d0-b[j0], d1-b[j1], d2-b[j2], d3-b[j3]
}

// residualSize is ||a_j|| ||x|| + |b_j| on the caller's scale, a bound on
// the terms of row j's residual (xn = ||x||), rounded up.
func (s *Solver) residualSize(j int, xn float64) float64 {
	return xn/s.ainv[j]*(1+0x1p-50) + math.Abs(s.bOrig[j])
}

// rowTermError is the rounding of row j's residual res as computed
// (within gn = gamma_{n+1} of its terms, xn = ||x||, plus under) and
// whether the row adds to Gap's terms: it has a multiplier, or its
// residual may be positive in exact arithmetic.
func (s *Solver) rowTermError(j int, res, xn, gn, under float64) (float64, bool) {
	err := gn*s.residualSize(j, xn) + under
	return err, s.res.Lambda[j] != 0 || res+err > 0
}

// rowSkip is violationPass's test for the rows it skips.
type rowSkip struct{ xn, driftErr, margin float64 }

// newRowSkip measures the drift since the last scan and returns the test
// at x (||x|| = xn, ||x||_inf = xInf).
func (s *Solver) newRowSkip(xn, xInf float64) rowSkip {
	// As in mostViolated: account for x's moves since the last scan (the
	// answer's clipping to its bounds, refinement).
	s.measureDrift(xInf)
	// The stored a_j'x/||a_j|| - b_j/||a_j|| is within
	// gamma_{n+2} (||x||_2 + |b_j|/||a_j||) of its value, the drift within
	// gamma_{n+2} (1 + ||x||_inf) of its value (path <= 1 + ||x||_inf):
	// twice both is a safe margin for a row's sign. A row skipped must also
	// hold by more than rounding (WithinRounding's allowance, which has
	// x's own rounding in it), or it would never be noted in the near
	// list, whose rows void the distance bound when nearly opposite a
	// member (nearlyImpliedRows).
	g := 2 * vec.DotErrorBound(s.n+2)
	return rowSkip{xn: xn, driftErr: g * (1 + xInf), margin: g + roundingAllowance(s.n)}
}

// holds reports whether row j, outside the working set (multiplier 0),
// holds at x by more than rounding by its stored violation plus the
// drift since (mostViolated's bound): it adds nothing to any of
// violationPass's sums and lists.
func (k rowSkip) holds(s *Solver, j int) bool {
	return !s.rowIn[j] && s.ainv[j] > 0 && s.violationBound(j) < -(k.driftErr+k.margin*(k.xn+math.Abs(s.b[j])))
}

// exactTerms sums Gap's terms again as violationPass did, with the
// residuals of its rows (s.termRows), of the equalities and of the bounds
// summed in twice the working precision, and writes them into Rounding.
// Every other row adds nothing to the terms, so only those are evaluated
// again, unless the list overflowed (termsAll). x, the multipliers and
// s.termRows must be violationPass's.
func (s *Solver) exactTerms() {
	r := &s.res
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	terms := s.newGapTerms()
	if s.termsAll {
		gn := vec.DotErrorBound(s.n + 1)
		skip := s.newRowSkip(xn, vec.MaxAbs(s.x))
		var c rowChunk
		for s.nextChunk(&c, skip, true) {
			for i, j := range c.rows[:c.k] {
				if _, adds := s.rowTermError(int(j), c.res[i], xn, gn, terms.under); adds {
					s.exactRowTerm(&terms, int(j), xn)
				}
			}
		}
	} else {
		for _, j := range s.termRows {
			s.exactRowTerm(&terms, int(j), xn)
		}
	}
	for i := 0; i < s.meq; i++ {
		e := s.exactEqResidual(i, s.x)
		terms.equality(r.Nu[i], e, terms.exactError(e, s.eqResidualSize(i, xn)))
	}
	s.boundTerms(&terms)
	terms.finish(&r.Rounding)
}

// exactRowTerm adds row j's term to terms with its residual summed in
// twice the working precision (xn = ||x||).
func (s *Solver) exactRowTerm(terms *gapTerms, j int, xn float64) {
	res := s.exactResidual(j, s.x)
	terms.row(s.res.Lambda[j], res, terms.exactError(res, s.residualSize(j, xn)))
}

// equalityTerms is violationPass's part for the equalities: it adds their
// residuals to terms, marks the Result infeasible, or x as violating one
// only beyond its own terms' rounding (ownViolated), and returns the
// largest violation and the sum of violations, viol and sum (the rows')
// taken on in order.
func (s *Solver) equalityTerms(terms *gapTerms, xn float64, viol, sum float64) (float64, float64) {
	r := &s.res
	gn := vec.DotErrorBound(s.n + 1)
	for i := 0; i < s.meq; i++ {
		res := vec.Dot(s.aeq[i], s.x) - s.beqOrig[i]
		terms.equality(r.Nu[i], res, gn*s.eqResidualSize(i, xn)+terms.under)
		res = math.Abs(res)
		viol = max(viol, res)
		sum += res
		v, bhat := res*s.eqinv[i], s.beqOrig[i]*s.eqinv[i]
		if !WithinRounding(v, xn, bhat, s.n) {
			r.Feasible = false
		} else if s.eqinv[i] > 0 && !WithinRounding(v, s.absNormalDot(constraint{kindEq, int32(i)}, s.x)+math.Abs(bhat), 0, s.n) {
			s.ownViolated = true
		}
	}
	return viol, sum
}

// eqResidualSize is residualSize for equality i; a zero row's residual
// is exact.
func (s *Solver) eqResidualSize(i int, xn float64) float64 {
	size := math.Abs(s.beqOrig[i])
	if s.eqinv[i] > 0 {
		size += xn / s.eqinv[i] * (1 + 0x1p-50)
	}
	return size
}

// noteExact files row j, whose residual at x is within its evaluation's
// rounding of zero or above, by its residual summed in twice the
// precision, in eps (||x|| + |bhat|) on the unit-row scale: in the exact
// list when it is violated, in the near list when it holds.
func (s *Solver) noteExact(j int, xn float64) {
	unit := 0x1p-52 * (xn + math.Abs(s.b[j]))
	if e := s.exactResidual(j, s.x) * s.ainv[j]; e > 0 {
		s.exact.note(j, e/unit)
	} else {
		s.near.note(j, e/unit)
	}
}

// boundTerms adds the bounds' and the l1 term's parts of Gap to terms and
// returns the bounds' largest violation by x and the largest
// complementarity product among them.
func (s *Solver) boundTerms(terms *gapTerms) (viol, comp float64) {
	r := &s.res
	// Without a finite bound none is violated or in the working set
	// (every z_i is 0): the pass would add nothing.
	if s.boxed {
		for i, x := range s.x {
			viol = max(viol, max(x-s.up[i], s.lo[i]-x))
			switch z := r.Z[i]; {
			case z > 0:
				comp = max(comp, math.Abs(z*(s.up[i]-x)))
				terms.exact(z * (s.up[i] - x))
			case z < 0:
				comp = max(comp, math.Abs(z*(x-s.lo[i])))
				terms.exact(z * (s.lo[i] - x))
			}
		}
	}
	if s.l1 > 0 {
		for i, x := range s.x {
			v := l1Term(s.l1, r.W[i], x)
			comp = max(comp, math.Abs(v))
			terms.exact(v)
		}
	}
	return viol, comp
}

// l1Term is l1 |x| - w x, the l1 term's part of Gap, >= 0 for |w| <= l1
// and 0 where w matches x's sign, within 3 eps of its value as
// gapTerms.exact charges, for every w in [-l1, l1] and every x: it is
// formed as |x| (l1 -+ w), the difference in one rounding (exactly 0 for
// w = l1 sign(x), >= 0 for |w| <= l1) and the product in one more. As the
// difference of two products it would be off by their rounding, not by a
// few eps of the term (or, fused into one multiply-subtract as on arm64,
// by one product's error: -2.4e-14 at x = 8937, l1 = 0.385, which made a
// gap of exactly 0); there is no a*b - c here for the compiler to fuse.
func l1Term(l1, w, x float64) float64 {
	if x < 0 {
		return -x * (l1 + w)
	}
	return x * (l1 - w)
}

// gapTerms sums Gap's terms other than the Lagrangian's (GapRounding) and
// bounds their rounding: sum (-Lambda_j r_j) over the rows, (-Nu_i
// req_i) over the equalities, the bounds' and the l1 term's, and the
// violations the exact penalty charges.
//
// A residual evaluated in float64 is within gamma_{n+1} (||a|| ||x|| +
// |b|) of its value, and the certificate charges that at its multiplier,
// and at the penalty weight where the row may be violated: at a vertex
// with multipliers of 1e6 that alone is 1e-7, far above what x's own
// rounding makes of the exact penalty gap. Where the charge is not
// negligible (against the objective; xi taken as 2 max |multiplier|, the
// weight package solver uses) the residuals are summed in twice the
// working precision instead (violation), each within 2 eps |r| +
// 2 gamma_{2n+2}^2 (||a|| ||x|| + |b|) of its value.
//
// Both bounds are relative, and hold only while the products a_k x_k and
// their rounding errors are normal numbers. Below the normal range a
// product, or the error that the compensated sum takes of it, is rounded
// to a multiple of 2^-1074: up to 2^-1075 more per product. On a row of
// entries about 1e-302, whose residual at x is about 1e-318 and whose
// multiplier on the caller's scale is about 1e302, that is 1e-21 of a
// gap of 5e-16 (relative 1e-6): the terms charge under = (n+1) 2^-1074
// for it on every residual.
type gapTerms struct {
	sum, size float64 // the terms' sum and the sum of their |.|
	err       float64 // their residuals' rounding, weighed by the multipliers
	viol      float64 // the sum of the violations
	violErr   float64 // its rounding
	count, nv int     // the terms, the violations
	xi        float64 // 2 max |multiplier| (Result.PenaltyWeight)
	g2        float64 // 2 gamma_{2n+2}^2
	under     float64 // (n+1) 2^-1074: a residual's rounding below the normal range
}

// newGapTerms prepares the sums for the Result's multipliers, which
// multipliers has written (with their PenaltyWeight, xi).
func (s *Solver) newGapTerms() gapTerms {
	g := vec.DotErrorBound(2*s.n + 2)
	return gapTerms{xi: s.res.weight, g2: 2 * g * g, under: float64(s.n+1) * 0x1p-1074}
}

// exactError bounds the error of a residual r summed in twice the working
// precision from terms of total size.
func (t *gapTerms) exactError(r, size float64) float64 {
	return 0x1p-51*math.Abs(r) + t.g2*size + t.under
}

// row adds -lambda r for a row of residual r (computed within err), and
// r's violation where the exact residual may be positive, or is not
// finite (a residual whose sum overflowed).
func (t *gapTerms) row(lambda, r, err float64) {
	if !(r+err <= 0) {
		t.viol += max(r, 0)
		t.violErr += err
		t.nv++
	}
	if lambda != 0 {
		t.add(-lambda * r)
		t.err += lambda * err
	}
}

// equality adds -nu r and the violation |r| for an equality of residual r
// (computed within err).
func (t *gapTerms) equality(nu, r, err float64) {
	t.viol += math.Abs(r)
	t.violErr += err
	t.nv++
	t.add(-nu * r)
	t.err += math.Abs(nu) * err
}

// exact adds a term computed from exact data in at most three roundings.
func (t *gapTerms) exact(v float64) {
	t.add(v)
	t.err += 3 * 0x1p-53 * math.Abs(v)
}

func (t *gapTerms) add(v float64) {
	t.sum += v
	t.size += math.Abs(v)
	t.count++
}

// finish writes the sums into g, with the rounding of the sums themselves.
func (t *gapTerms) finish(g *GapRounding) {
	g.Terms = t.sum
	g.TermsError = t.err + vec.DotErrorBound(t.count+1)*t.size
	g.Violation = t.viol
	g.ViolationError = t.violErr + vec.DotErrorBound(t.nv+1)*t.viol
}

// WithinRounding reports whether a violation v = a'x - b > 0 of a unit row
// a (||a|| = 1, b on the same scale) by a point of norm xNorm in R^n is
// within rounding: v <= (gamma_{n+1} + 16 sqrt(n+1) eps) (xNorm + |b|).
// gamma_{n+1} (vec.DotErrorBound) bounds the error of evaluating a'x - b;
// the second term allows for x itself being rounded, a few ulp per entry,
// the same allowance the certified gaps carry. (Zero rows scale to v = 0:
// one with b < 0 makes the problem infeasible, found at setup.)
func WithinRounding(v, xNorm, b float64, n int) bool {
	if v <= 0 {
		return true
	}
	return v <= roundingAllowance(n)*(xNorm+math.Abs(b))
}

// roundingAllowance is WithinRounding's relative allowance for a unit row
// in R^n: gamma_{n+1} + 16 sqrt(n+1) eps.
func roundingAllowance(n int) float64 {
	return vec.DotErrorBound(n+1) + 16*math.Sqrt(float64(n+1))*0x1p-52
}

// exactRows is how many rows a rowList keeps.
const exactRows = 4

// rowList keeps the exactRows rows of largest value among those noted,
// largest first, and counts every row noted.
type rowList struct {
	row   [exactRows]int32
	val   [exactRows]float64
	n     int // kept: row[:n]
	noted int // noted, kept or not
}

func (l *rowList) reset() { l.n, l.noted = 0, 0 }

// note offers row j with value v.
func (l *rowList) note(j int, v float64) {
	l.noted++
	i := l.n
	if i == exactRows {
		if v <= l.val[i-1] {
			return
		}
		i--
	} else {
		l.n++
	}
	for ; i > 0 && l.val[i-1] < v; i-- {
		l.row[i], l.val[i] = l.row[i-1], l.val[i-1]
	}
	l.row[i], l.val[i] = int32(j), v
}
