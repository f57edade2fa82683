package activeset

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// SetB replaces the right-hand side of the rows of A (length m). The
// working set and its factor are kept: the next Solve starts from them.
// Each row's stored violation bound moves with its right-hand side
// (shiftViolation); the pool and the shortlist, which rank rows by the old
// right-hand sides, are dropped: the next search scans every row, as after
// forgetViolations. A valid b costs one pass of checks (finiteScaled;
// checkVec and checkScaled name the bad entry otherwise) and one over the
// rows. It allocates nothing.
func (s *Solver) SetB(b []float64) error {
	if !finiteScaled(b, s.ainv) {
		if err := checkVec("B", b, s.m, false); err != nil {
			return err
		}
		if err := checkScaled("B", b, s.ainv); err != nil {
			return err
		}
	}
	s.infeasible = 0
	for j, inv := range s.ainv {
		bj := b[j]
		s.bOrig[j] = bj
		if inv > 0 {
			s.b[j] = s.shiftViolation(j, inv)
		} else if bj < 0 && s.infeasible == 0 {
			s.infeasible = j + 1 // setRHS's zero row that cannot hold
		}
	}
	s.poolOK = false
	s.short.clear()
	s.setEqRHS()
	for i, c := range s.ws {
		s.beta[i] = s.rhs(c) / s.sigma[i]
	}
	return nil
}

// finiteScaled reports whether b has one entry per row, each finite and
// finite over its row's norm (b_j inv_j): what checkVec and checkScaled
// accept, in one pass. x - x is 0 for a finite x and NaN otherwise.
func finiteScaled(b, inv []float64) bool {
	if len(b) != len(inv) {
		return false
	}
	for j, v := range inv {
		if x := b[j]; x-x != 0 || x*v-x*v != 0 {
			return false
		}
	}
	return true
}

// shiftViolation moves row j's stored violation bound (drift.go) by the
// change of its right-hand side on the unit-row scale, from s.b[j] to
// s.bOrig[j] inv (inv = 1/||a_j|| > 0), and returns the new one, which
// SetB stores: at a fixed point a row's violation ahat'x - bhat falls by
// exactly the change of bhat, so the next scan still skips the rows that
// stay satisfied, where forgetting every bound would make it compute every
// row. The shifted bound is raised by 4 ulp of its terms (the stored
// value, both right-hand sides), more than the roundings of the change and
// of the shift: it stays a bound to the rounding the stored violations
// already carry.
func (s *Solver) shiftViolation(j int, inv float64) float64 {
	old, b := s.b[j], s.bOrig[j]*inv
	d, e := b-old, 0x1p-50*(math.Abs(old)+math.Abs(b))
	r := &s.rowBnd[j]
	r.p += e + 0x1p-50*math.Abs(r.p) - d // +Inf (unknown) stays +Inf
	r.a += e + 0x1p-50*math.Abs(r.a) - d
	return b
}

// SetBounds replaces the bounds (each nil, for none, or of length n; an
// infinite entry is no bound) for the next Solve. The working set and the
// rows' stored violations are kept and the next Solve starts from them,
// unless a member's bound becomes infinite or a variable becomes fixed,
// stops being fixed or is fixed at another value: the next Solve then
// starts cold (Reset). Fixed variables are held with the equalities, and
// whether those contradict each other or one of them is implied by the
// rest (pushEquality) depends on the values. It allocates nothing. An
// error names the bad entry; the Solver is then unchanged.
func (s *Solver) SetBounds(lower, upper []float64) error {
	if err := checkBounds(lower, upper, s.n); err != nil {
		return err
	}
	cold := false
	for i := range s.lo {
		lo, up := bound(lower, i, math.Inf(-1)), bound(upper, i, math.Inf(1))
		if (lo == up) != (s.lo[i] == s.up[i]) || (lo == up && lo != s.lo[i]) {
			cold = true
		}
		s.lo[i], s.up[i] = lo, up
	}
	s.setBoxed()
	for _, c := range s.ws {
		if (c.kind == kindLower && math.IsInf(s.lo[c.i], -1)) || (c.kind == kindUpper && math.IsInf(s.up[c.i], 1)) {
			cold = true
		}
	}
	if cold {
		s.Reset()
		return nil
	}
	for i, c := range s.ws {
		s.beta[i] = s.rhs(c) / s.sigma[i]
	}
	// The rows' stored violation bounds stay: a row's violation at a
	// point does not depend on the bounds, and the drift bookkeeping
	// (drift.go), which the next scan measures from the last point seen,
	// covers every move of x the new bounds cause. The pool and the
	// shortlist are dropped, as by SetB: the next search scans every row,
	// skipping those whose bound rules them out.
	s.poolOK = false
	s.short.clear()
	return nil
}

// setBoxed sets s.boxed from s.lo and s.up.
func (s *Solver) setBoxed() {
	s.boxed = false
	for i, lo := range s.lo {
		if !math.IsInf(lo, -1) || !math.IsInf(s.up[i], 1) {
			s.boxed = true
			return
		}
	}
}

// Reset empties the working set down to the equalities (the next Solve
// starts cold).
func (s *Solver) Reset() {
	s.ws = s.ws[:0]
	s.normals.reset()
	s.fac.k = 0
	s.basis.on, s.basis.k = false, 0
	s.fresh, s.lastIndep = true, false
	s.clearSkips()
	s.resBuilt = -1
	s.forgetViolations()
	// The drift bookkeeping as New leaves it: where the stored bounds next
	// expire decides the pool's content and so the order of admissions,
	// and a Reset solve must repeat a new Solver's bit for bit.
	clear(s.drift.seen) // the drift as New leaves it: at the origin
	s.drift.restart(s.drift.seen)
	s.capKinks()
	clear(s.rowIn)
	clear(s.boundIn)
	clear(s.eqRedund)
	s.eqInconsistent, s.eqNear = false, 0
	for i := 0; i < s.meq && !s.eqInconsistent; i++ {
		if s.eqinv[i] > 0 {
			s.pushEquality(constraint{kindEq, int32(i)})
		}
	}
	for i := 0; i < s.n && !s.eqInconsistent; i++ {
		if s.lo[i] == s.up[i] {
			s.pushEquality(constraint{kindFixed, int32(i)})
		}
	}
}

// capKinks caps every l1 kink on the side of the sign of the unconstrained
// minimiser -H^{-1}c (a guess; kinks on the wrong side are admitted by the
// loop) and sets cEff and v_u to match. Without l1, v_u = -L^{-1}c.
func (s *Solver) capKinks() {
	s.vFresh = false
	copy(s.cEff, s.c)
	clear(s.kinkIn)
	if s.l1 > 0 {
		s.chol.Solve(s.t, s.c)
		for i, v := range s.t {
			s.capSign[i] = 1
			if v > 0 { // x_u = -t
				s.capSign[i] = -1
			}
			s.cEff[i] += float64(s.capSign[i]) * s.l1
		}
	}
	s.chol.SolveL(s.vu, s.cEff)
	vec.Scale(-1, s.vu)
}

// admit adds c to the working set; a capped kink enters with its capped
// multiplier, which leaves cEff and v_u (so v does not move).
func (s *Solver) admit(c constraint) float64 {
	d := s.pushChecked(c)
	if c.kind == kindKink {
		s.vFresh = false
		k := len(s.ws) - 1
		w := float64(s.capSign[c.i]) * s.l1
		s.lam[k] = w * s.sigma[k]
		s.cEff[c.i] -= w
		s.normals.axpy(s.lam[k], k, s.vu)
		s.capSign[c.i] = 0
	}
	return d
}

// leave removes member p from the working set; a kink whose multiplier
// reached +-l1 becomes capped there and moves its term into cEff and v_u.
func (s *Solver) leave(p int) {
	c := s.ws[p]
	if c.kind == kindKink {
		sign := int8(1)
		if s.lam[p] < 0 {
			sign = -1
		}
		w := float64(sign) * s.l1
		s.capSign[c.i] = sign
		s.cEff[c.i] += w
		s.normals.axpy(-w*s.sigma[p], p, s.vu)
	}
	s.pop(p)
}

// pushEquality adds an equality to a working set of equalities. A pivot
// at most singularPivot does not decide whether its normal depends on
// theirs: two equalities 1e-8 apart have a pivot of 1e-17, and an answer
// that leaves one of them out is off by O(1). dependent decides, from the
// distance of the normal to their span: a normal far from it (to its
// rounding) is a member with that pivot, and the answer holds it. One that
// depends on them to rounding is decided by the null direction p (N p = 0,
// p_last = 1): b'p at the rounding of the right-hand sides means the
// equality is implied by the others and it is left out (eqRedund); a
// larger b'p is a contradiction if p, signed so that b'p < 0, passes
// farkasHolds as the Farkas certificate (eqInconsistent, kept in s.eqDir).
// Otherwise float64 cannot tell the two apart; the equality is left out
// too, and the answer, which must satisfy every equality to rounding
// (Solve: Feasible), says whether it is implied at the point the others
// determine. Left out, it is checked in rational arithmetic
// (impliedExactly): one implied only to rounding makes the answer's
// distance to the solution unbounded (Result.NearlyImplied).
func (s *Solver) pushEquality(c constraint) {
	if d := s.pushChecked(c); d > singularPivot {
		return
	}
	if !s.dependent() {
		return
	}
	k := len(s.ws)
	p := s.dir[:k]
	rate, size := 0.0, 0.0
	for i, c := range s.ws {
		t := p[i] * s.rhs(c) / s.sigma[i]
		rate += t
		size += math.Abs(t)
	}
	if rate > 0 {
		vec.Scale(-1, p)
	}
	// b'p beyond PrimalTol (1 + size), or beyond the rounding of its own
	// terms: rows of norm 1e9 have right-hand sides of 1e-9 on the unit
	// scale, and a contradiction of 0.1 between them is 1e-10 there
	// (TestInconsistentEqualitiesFarOut).
	if math.Abs(rate) > min(s.opt.PrimalTol*(1+size), 16*vec.DotErrorBound(k+1)*size) {
		// A contradiction is claimed only with its certificate checked in
		// the caller's data. buildFarkas refines s.dir in place; each
		// answer rebuilds the certificate from p as found here
		// (eqCertificate), so that it is the one checked.
		copy(s.eqDir[:k], p)
		ok, _ := s.tryFarkas()
		s.clearFarkas()
		if ok {
			s.eqInconsistent = true
			return
		}
	}
	if !s.impliedExactly(p, k-1, c) {
		s.eqNear++
	}
	if c.kind == kindEq {
		s.eqRedund[c.i] = true
	}
	s.pop(k - 1)
}

// singularPivot is the pivot below which a new unit normal counts as
// dependent on the working set: its distance from their span is below
// 1e-7 (the pivot is the squared distance), where the pivot's own rounding
// (about k eps for k members) is still two orders of magnitude smaller.
// In the loop it only flags the member: dependent (nullstep.go) decides by
// the distance computed directly, since a downdated factor's pivot can be
// far off, even negative.
const singularPivot = 1e-14

// nearPivot is the pivot (squared distance of a new member's unit normal
// from the others' span) below which pushChecked compares it with its
// rounding.
const nearPivot = 1e-6

// pivotRounding is the multiple of k eps ||p||^2 that a pivot's rounding
// can reach: the factor is exact for G + E with ||E|| about k eps, and the
// last pivot, 1/(G^{-1})_kk, moves by about p'Ep under such an E, where
// p = (-G^{-1}g, 1) is the direction that is null when the member depends
// on the others. Nearly parallel members make ||p|| large and the pivot's
// rounding far larger than singularPivot.
const pivotRounding = 16

// pushChecked is push, and a pivot within its rounding (pivotRounding
// k eps ||p||^2) counts as zero: it returns 0 and sets the factor's pivot
// to 0, so that the loop asks dependent, which computes the distance
// directly: taken as independent, such a member's step puts x at 1/eps
// scale and the loop can call an infeasible problem solved
// (TestPivotWithinRounding). Only a pivot below nearPivot can be within
// its rounding while every member before it has a pivot of at least
// nearPivot (||p|| is then moderate); behind a smaller pivot (a nearly
// dependent pair of members, 1e-10 apart: pivot 1e-20) p carries its
// inverse, and a pivot of any size can be rounding: the bound that a
// nearly dependent pair of equalities implies exactly came out at 3.5e-6
// (TestBoundBesideNearCopies). It overwrites s.dir; O(k^2) more than push,
// only for pivots below nearPivot or behind one.
func (s *Solver) pushChecked(c constraint) float64 {
	d := s.push(c)
	k := len(s.ws)
	if d <= singularPivot || k < 2 {
		return d
	}
	p := s.dir[:k]
	if s.basis.on {
		// R's diagonal entry against the normals' rounding amplified
		// by p, as dependent decides.
		s.fac.nullDirection(p)
		if s.basisDistance() > indepRatio*normOne(p) {
			return d
		}
		s.fac.d[k-1] = 0
		return 0
	}
	if d >= nearPivot && !s.fac.smallPivot(k-1) {
		return d
	}
	s.fac.nullDirection(p)
	if d > pivotRounding*float64(k)*0x1p-52*vec.Dot(p, p) {
		if d < basisPivot {
			s.startBasis()
			d = s.fac.d[k-1]
		}
		return d
	}
	s.fac.d[k-1] = 0
	return 0
}

// normal makes the unit normal of c in the v = L'x coordinates member k's
// normal and returns its scale sigma = ||L^{-1} ahat_c|| (= ||L^{-1} a_c|| /
// ||a_c|| for a row, solved with the caller's row). The normal of a row or
// bound comes from the transformed normals when they hold it
// (transformedNormals), and goes into them otherwise.
func (s *Solver) normal(c constraint, k int) float64 {
	dst := s.normals.take(k)
	from := 0 // dst is zero before from
	if c.isBound() {
		from = int(c.i)
	}
	key := s.tNormals.key(c, s.m)
	if key >= 0 && s.tNormals.sigma[key] > 0 {
		copy(dst, s.tNormals.row(key))
		s.normals.trim(k, from)
		if c.kind == kindLower {
			_, r := s.normals.support(k)
			vec.Scale(-1, r) // kept as for x_i <= u: the negation is exact
		}
		s.normals.setOne(k)
		return s.tNormals.sigma[key]
	}
	scale := 1.0 // ||ahat|| / ||the vector solved with||
	switch c.kind {
	case kindRow:
		s.chol.SolveL(dst, s.a[c.i])
		scale = s.ainv[c.i]
	case kindEq:
		s.chol.SolveL(dst, s.aeq[c.i])
		scale = s.eqinv[c.i]
	default: // bounds and kinks: e_i or -e_i
		s.chol.UnitColumn(dst, int(c.i))
	}
	s.normals.trim(k, from)
	_, r := s.normals.support(k)
	if c.kind == kindLower {
		vec.Scale(-1, r)
	}
	nrm := mat.Norm(r)
	vec.Scale(1/nrm, r)
	s.normals.setOne(k)
	if key >= 0 {
		t := s.tNormals.row(key)
		copy(t, dst)
		if c.kind == kindLower {
			lo, r := s.normals.support(k)
			vec.Scale(-1, t[lo:lo+len(r)])
		}
		s.tNormals.sigma[key] = nrm * scale
	}
	return nrm * scale
}

// transformedNormals keeps the unit normals in v = L'x of the rows and
// bounds the working set has admitted, L^{-1} ahat_j / sigma_j for row j
// and L^{-1} e_i / sigma for bound i (the upper bound's; the lower's is its
// negation), with their sigma (0: not yet computed), so that a constraint
// admitted again, as in every re-solve of a receding-horizon controller,
// costs a copy instead of a triangular solve (O(n^2)). DAQP precomputes
// every row's so; here each is computed on its first admission in a
// re-solve, and a Solver solved once (a cold solve) neither computes nor
// allocates anything more: the first re-solve allocates them. A normal depends on H alone:
// SetObjective forgets them. They are kept only when they take at most
// transformedMax floats ((m + n) n): they cost as much memory as the rows
// themselves.
type transformedNormals struct {
	n     int
	data  []float64 // row j's at data[j*n:], bound i's at data[(m+i)*n:]
	sigma []float64 // nil: none kept
}

// transformedMax is the largest (m + n) n for which New keeps the
// transformed normals: half a megabyte, within a core's L2 cache, which
// holds those of the paper's QP (2e4) and of every receding-horizon
// benchmark (BenchmarkMPCWarm) but the largest (quadcopter N = 50, 9e4).
const transformedMax = 1 << 16

// transformedFloats is what the transformed normals of m rows and n
// bounds take from New's slab: none above transformedMax.
func transformedFloats(m, n int) int {
	if (m+n)*n > transformedMax {
		return 0
	}
	return (m+n)*n + m + n
}

// newTransformedNormals allocates them, none above transformedMax, or
// reuses old's storage (load) where it fits.
func newTransformedNormals(old transformedNormals, m, n int) transformedNormals {
	k := transformedFloats(m, n)
	if k == 0 {
		return transformedNormals{}
	}
	var fl []float64
	if old.data != nil {
		fl = old.data[:cap(old.data)]
	}
	fl = reuse(fl, k)
	return transformedNormals{n: n, data: fl[:(m+n)*n], sigma: fl[(m+n)*n:]}
}

// key is where c's normal is kept (m rows of A), -1 if it is not
// (equalities and kinks, or none kept).
func (t *transformedNormals) key(c constraint, m int) int {
	switch {
	case t.sigma == nil:
		return -1
	case c.kind == kindRow:
		return int(c.i)
	case c.kind == kindUpper || c.kind == kindLower || c.kind == kindFixed:
		return m + int(c.i)
	}
	return -1
}

// row is the storage of the normal kept at key.
func (t *transformedNormals) row(key int) []float64 { return t.data[key*t.n : (key+1)*t.n] }

// forget marks every normal as not computed (H changed).
func (t *transformedNormals) forget() { clear(t.sigma) }

// rhs is the right-hand side of c on the unit-row scale (bhat for rows,
// the bound itself for bounds, negated for lower bounds).
func (s *Solver) rhs(c constraint) float64 {
	switch c.kind {
	case kindRow:
		return s.b[c.i]
	case kindEq:
		return s.beq[c.i]
	case kindLower:
		return -s.lo[c.i]
	case kindKink:
		return 0
	default:
		return s.up[c.i]
	}
}

// push appends c to the working set and its factor, with multiplier zero,
// and returns its pivot.
func (s *Solver) push(c constraint) float64 {
	s.xFresh, s.keptK = false, -1
	k := len(s.ws)
	s.sigma[k] = s.normal(c, k)
	s.beta[k] = s.rhs(c) / s.sigma[k]
	s.normals.gramAll(k, s.g[:k])
	near := false
	for _, g := range s.g[:k] {
		near = near || math.Abs(g) > 1-1e-12
	}
	s.ws = append(s.ws, c)
	var d float64
	if s.basis.on {
		s.extendBasis()
		d = s.fac.d[k]
	} else {
		d = s.fac.add(s.g, 1)
	}
	if k >= s.n || near && s.twin(k) >= 0 {
		// n+1 normals in n dimensions depend on each other, and so does
		// a repeated (or negated) row, whatever the rounded pivot says.
		d, s.fac.d[k] = 0, 0
	}
	s.lastIndep = false
	s.lam[k] = 0
	s.mark(c, true)
	return d
}

// twin returns a member before k whose unit normal is that of member k or
// its negation, bit for bit (a repeated row, or a row and its negation:
// L^{-1} is applied to both alike), or -1.
func (s *Solver) twin(k int) int {
	nk := s.normals.full(k)
	for i := 0; i < k; i++ {
		ni := s.normals.full(i)
		same, neg := true, true
		for c, v := range nk {
			same = same && ni[c] == v
			neg = neg && ni[c] == -v
			if !same && !neg {
				break
			}
		}
		if same || neg {
			return i
		}
	}
	return -1
}

// pop removes member p from the working set and its factor.
func (s *Solver) pop(p int) {
	s.xFresh, s.vFresh, s.keptK = false, false, -1
	s.fresh, s.lastIndep = false, false // the downdate's rounding is in the factor
	s.mark(s.ws[p], false)
	if c := s.ws[p]; c.kind == kindRow {
		s.rowBnd[c.i] = unknownBound
	}
	s.fac.remove(p)
	k := len(s.ws)
	copy(s.ws[p:], s.ws[p+1:])
	s.ws = s.ws[:k-1]
	copy(s.lam[p:k-1], s.lam[p+1:k])
	copy(s.sigma[p:k-1], s.sigma[p+1:k])
	copy(s.beta[p:k-1], s.beta[p+1:k])
	s.normals.remove(p, k)
	if s.basis.on {
		// The members after p are orthogonalised again, and their rows
		// of the factor set from R, in place of the downdate's.
		s.basis.k = min(s.basis.k, p)
		s.extendBasis()
		s.fresh = true
	}
}

func (s *Solver) mark(c constraint, in bool) {
	switch c.kind {
	case kindRow:
		s.rowIn[c.i] = in
	case kindEq:
	case kindKink:
		s.kinkIn[c.i] = in
	default:
		var v int8
		switch {
		case !in:
		case c.kind == kindUpper:
			v = 1
		case c.kind == kindLower:
			v = -1
		default:
			v = 2
		}
		s.boundIn[c.i] = v
	}
}
