package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// noNullStep handles a dependent last member along whose null direction no
// multiplier blocks: infeasible, if the certificate holds in the caller's
// data; the member leaves and is skipped, if it is consistent along p;
// otherwise the solve ends undecided. It reports the status and whether
// the solve ends. The certificate fails when p is not null to the accuracy
// a certificate needs, and the method cannot decide in float64.
func (s *Solver) noNullStep() (Status, bool) {
	k := len(s.ws)
	ok, consistent := s.tryFarkas()
	if ok {
		return StatusInfeasible, true
	}
	last := s.ws[k-1]
	if !consistent || !(last.kind == kindRow || last.kind == kindUpper || last.kind == kindLower) {
		return s.undecided(StatusPrecisionLimit), true
	}
	// Consistent along p: the row's violation is the members' residuals
	// amplified by p, not a contradiction. It leaves, and is not admitted
	// again until the objective has risen: allowed back as soon as the
	// working set changes, it would be admitted again at the same point
	// and the loop would cycle on the degenerate vertex
	// (TestConsistentDependentNoCycle). A bound likewise
	// (TestConsistentDependentBound). So do the rows and bounds skipped
	// before it at this level: one let back in when the next is skipped
	// is admitted again, and two such rows alternate
	// (TestSkippedRowsStaySkipped). One not implied exactly
	// (impliedExactly) can cut the face at any distance: the answer's
	// distance to the solution is then unbounded (Result.NearlyImplied),
	// unless it depends on the others only through held l1 kinks, which
	// are no constraints (apartFromConstraints).
	if !s.impliedExactly(s.dir[:k], k-1, last) && !s.apartFromConstraints(s.dir[:k], k-1) {
		s.skipNear++
	}
	s.pop(k - 1)
	if !s.vFresh {
		s.primalV()
	}
	switch last.kind {
	case kindRow:
		s.rowSkip[last.i] = true
	case kindUpper:
		s.boundSkip[last.i] |= skipUpper
	default:
		s.boundSkip[last.i] |= skipLower
	}
	s.skips++
	s.skipLevel = s.level()
	return 0, false
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
	// and more, and v lost, after which the loop cycles
	// (TestNullStepIgnoresRounding). Without them the row is found
	// consistent-dependent (the caller's Farkas check).
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

// dependent decides whether the last member, whose pivot is at most
// singularPivot, depends on the others, and leaves the null direction
// p = (-G^{-1}g, 1), refined in the caller's variables, in s.dir. The
// pivot is the squared distance of the member's normal from the others'
// span, formed with an absolute rounding of a few k eps that a factor
// downdated many times can raise far above that (to a negative pivot): it
// cannot tell a distance below 1e-7 from zero. The direction
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
	if s.basis.on {
		// R's diagonal entry is the distance of the computed normal
		// from the span of the others' (basis.go), with no rounding of
		// its own to speak of; the normals' rounding, amplified by p,
		// is that of N p (indepRatio).
		if k > s.n || !(s.basisDistance() > indepRatio*normOne(p)) {
			s.fac.d[k-1] = 0
			s.refineNull(p)
			return true
		}
		s.lastIndep = true
		return false
	}
	s.refineNull(p)
	if k > s.n {
		return true
	}
	r := s.nullResidual(p)
	if r > indepRatio*normOne(p) && !s.fresh {
		s.refactor()
		if s.basis.on {
			return s.dependent()
		}
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
	if r < basisPivot {
		// Held as independent this close to the others' span, the
		// member's pivot would spoil the rows after it: the working set
		// keeps a QR factor from here on (basis.go).
		s.startBasis()
		s.lastIndep = true
	}
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

// refineNull refines a null direction p of the first len(p) members of
// the working set (last entry fixed), whose leading len(p)-1 members the
// factor holds with positive pivots, by three rounds of iterative
// refinement in the caller's variables (see refineFarkas). The rounds
// solve through the Gram factor, whose error grows with the square of the
// normals' condition: with the QR factor kept (nearly dependent members,
// basis.go) a round can make p worse, and one whose residual N p comes
// out more than twice its predecessor's is undone and ends the rounds.
func (s *Solver) refineNull(p []float64) {
	k := len(p)
	q := k - 1
	if q == 0 {
		return
	}
	d := s.lamTry[:q]
	guard := s.basis.on
	last := math.Inf(1)
	for round := 0; round <= 3; round++ {
		if round == 3 && !guard {
			break
		}
		clear(s.r)
		for i, c := range s.ws[:k] {
			s.addNormal(p[i]/s.sigma[i], c, s.r)
		}
		s.chol.SolveL(s.t, s.r)
		if guard {
			res := vec.Dot(s.t, s.t)
			if res > 4*last {
				vec.Axpy(-1, d, p[:q])
				return
			}
			last = res
		}
		if round == 3 {
			break
		}
		s.normals.dots(s.t, d)
		for i := range d {
			d[i] = -d[i]
		}
		s.fac.solve(d, q)
		vec.Axpy(1, d, p[:q])
	}
}

// The bits of Solver.boundSkip: the upper and the lower bound of x_i
// skipped.
const (
	skipUpper int8 = 1 << iota
	skipLower
)

// clearSkips lets every skipped row and bound be admitted again. O(m + n)
// when any was skipped.
func (s *Solver) clearSkips() {
	if s.skips > 0 {
		clear(s.rowSkip)
		clear(s.boundSkip)
		s.skips = 0
	}
}
