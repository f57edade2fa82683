package activeset

import (
	"fmt"
	"math"
	"time"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Solver holds a factored problem and the working set of its last solve,
// which the next Solve starts from (a hot start: after SetB only the
// multipliers change).
type Solver struct {
	n, m, meq int
	opt       Options
	deadline  time.Time // zero: none (SetDeadline)

	chol hFactor // H = L L', and H itself for the refinement and the certificate
	c    []float64

	// The l1 term: the kink of |x_i| is either in the working set (x_i = 0
	// held, its multiplier w_i in [-l1, l1]) or capped, w_i = capSign_i l1
	// fixed, which adds w_i to the linear term: cEff = c + sum of the
	// capped w_i e_i. Without l1, cEff = c.
	l1      float64
	capSign []int8
	cEff    []float64
	vu      []float64 // -L^{-1} cEff, the minimiser of the capped objective in v = L'x

	// The caller's rows, read in place (New copies none of them): row j
	// a_j'x <= b_j is used scaled to unit norm, ahat_j = a_j ainv_j,
	// bhat_j = b_j ainv_j, ainv_j = 1/||a_j||. Zero rows (ainv_j = 0) are
	// checked once and never enter the working set.
	a, aeq         [][]float64
	b, beq         []float64
	ainv, eqinv    []float64
	sp             sparseRows // the rows of A with few nonzeros, as lists
	bOrig, beqOrig []float64
	lo, up         []float64 // length n, -Inf / +Inf where absent

	ws      []constraint // the working set, in factor order
	wsPrev  []constraint // SetObjective's copy of ws
	lam     []float64    // multipliers of ws on the unit-normal scale
	sigma   []float64    // ||L^{-1} ahat_k|| of each member
	beta    []float64    // rhs / sigma of each member (its right-hand side for n_k'v)
	normals normalSet    // member i: L^{-1} ahat_k / sigma_k of ws[i]
	fac     gramLDL
	fresh   bool // fac has had no downdate since it was built from the normals
	// resBuilt: the members' residual at the first point on the factor
	// as last built from the normals (New, Reset, refactor); -1 until
	// measured.
	resBuilt float64
	// lastIndep: the last member's pivot is at most singularPivot, but
	// dependent measured it independent and set its pivot.
	lastIndep bool
	rowIn     []bool // row j of A is in ws

	// The rows' violation bounds (rowBound, drift.go).
	rowBnd []rowBound
	drift  drift
	// pool: the rows scanned first (rebuildPool), valid when poolOK;
	// poolCand and poolScore are its scratch.
	pool       []int32
	poolCand   []int32
	poolScore  []float64
	poolOK     bool
	short      shortlist // the last scan's most violated rows (shortlist.go)
	kinkIn     []bool    // the kink of x_i is in ws (l1 only)
	boundIn    []int8    // +1 upper, -1 lower, 2 fixed, 0 none in ws
	eqRedund   []bool    // equality i depends on the others consistently
	infeasible int       // index+1 of a zero row that cannot hold (rows then equalities), 0 if none
	// eqInconsistent: the equalities (and fixed variables) contradict each
	// other; s.dir holds the Farkas direction over s.ws.
	eqInconsistent bool
	farkasBuilt    bool         // the Result holds the certificate of s.dir (this solve)
	rayTrial       float64      // multipliers above this are tried as a certificate (dual.go)
	skipRow        int32        // a row found consistent-dependent, not admitted until the objective rises (skipLevel); -1 none
	skipBound      constraint   // a bound found so; noBound none
	skipLevel      float64      // ||v - v_u||^2 (2 f(x) + const) when skipRow or skipBound was set
	opp            oppositeRows // built when first needed (opposite.go)

	// scratch of length n, n+1 or rows
	v, x, t, r, xTry []float64
	hx               []float64 // H x, valid for s.x when hxOK
	hxOK             bool
	// xFresh: s.x is what primal would compute from the current working
	// set, multipliers and v_u (set by primal; cleared by every change of
	// them and by a refinement step), so the primal after the loop can be
	// skipped. vFresh: s.v is v_u - N lambda for them (set by primalV,
	// cleared by every change but the admission of a member with a zero
	// multiplier, which primalV skips).
	xFresh, vFresh          bool
	g, lamStar, dir, lamTry []float64
	// ortho, orthoW (n) and orthoY (capacity): refineOrtho's workspace,
	// allocated on first use.
	ortho          orthoQR
	orthoW, orthoY []float64
	// memberRes, keptLam (capacity) and keptX (n): refineCompensated's
	// members' residuals and the answer it started from, allocated on
	// first use.
	memberRes, keptLam, keptX []float64
	res                       Result
}

// New checks and factors p. It returns an *InputError for malformed data
// and a *mat.NotPDError when H is not numerically positive definite.
func New(p *Problem, opt *Options) (*Solver, error) { return newSolver(p, opt, guess{}) }

// guess is NewAt's x and the scratch for the rows' products with it.
type guess struct{ x, dots []float64 }

// newSolver is New; with at.x set it also leaves every row's product with
// at.x in at.dots, computed in the same pass as the rows' norms.
func newSolver(p *Problem, opt *Options, at guess) (*Solver, error) {
	diagH, err := p.check()
	if err != nil {
		return nil, err
	}
	n, m, meq := p.N, p.rowsA(), rows(p.Aeq)
	s := &Solver{n: n, m: m, meq: meq, opt: opt.resolved(n, m+meq)}
	if p.Factor != nil && p.Factor.N() != n {
		return nil, &InputError{"Factor", -1, fmt.Sprintf("order %d, want %d", p.Factor.N(), n)}
	}
	if err := s.chol.setup(p.H, p.Factor, diagH); err != nil {
		return nil, err
	}
	capacity := n + 1
	// Every float64 vector of the solver comes from one allocation.
	fl := slab(make([]float64, 17*n+7*capacity+4*m+4*meq))
	s.c = fl.take(n)
	copy(s.c, p.C)
	s.l1 = p.L1
	s.capSign, s.cEff, s.kinkIn = make([]int8, n), fl.take(n), make([]bool, n)
	s.a, s.aeq = denseRows(p.A, p.ARows), denseRows(p.Aeq, nil)
	sb := newSparseBuilder(m, n)
	if s.ainv, err = inverseNorms("A", s.a, p.A == nil, sb, at.x, at.dots); err != nil {
		return nil, err
	}
	if s.eqinv, err = inverseNorms("Aeq", s.aeq, false, nil, nil, nil); err != nil {
		return nil, err
	}
	s.sp = sb.rows()
	s.bOrig, s.beqOrig = fl.take(m), fl.take(meq)
	copy(s.bOrig, p.B)
	copy(s.beqOrig, p.Beq)
	if err := checkScaled("B", s.bOrig, s.ainv); err != nil {
		return nil, err
	}
	if err := checkScaled("Beq", s.beqOrig, s.eqinv); err != nil {
		return nil, err
	}
	s.b, s.beq = fl.take(m), fl.take(meq)
	s.lo, s.up = fl.take(n), fl.take(n)
	for i := 0; i < n; i++ {
		s.lo[i], s.up[i] = bound(p.Lower, i, math.Inf(-1)), bound(p.Upper, i, math.Inf(1))
	}
	s.ws = make([]constraint, 0, capacity)
	s.wsPrev = make([]constraint, 0, capacity)
	s.lam, s.sigma, s.beta = fl.take(capacity), fl.take(capacity), fl.take(capacity)
	s.normals = newNormalSet(capacity, n)
	s.fac = newGramLDL(capacity)
	s.rowIn, s.boundIn, s.eqRedund = make([]bool, m), make([]int8, n), make([]bool, meq)
	s.rowBnd = make([]rowBound, m)
	s.drift.seen, s.drift.anchor = fl.take(n), fl.take(n)
	if k := poolSize(n, m); m > k {
		s.pool, s.poolCand, s.poolScore = make([]int32, 0, k), make([]int32, 0, 4*k), make([]float64, 0, m)
	}
	s.v, s.x, s.t, s.r, s.xTry = fl.take(n), fl.take(n), fl.take(n), fl.take(n), fl.take(n)
	s.hx = fl.take(n)
	s.g, s.lamStar, s.dir, s.lamTry = fl.take(capacity), fl.take(capacity), fl.take(capacity), fl.take(capacity)
	s.res = Result{X: fl.take(n), Lambda: fl.take(m), Nu: fl.take(meq),
		Z: fl.take(n), FarkasA: fl.take(m), FarkasEq: fl.take(meq)}
	if s.l1 > 0 {
		s.res.W = fl.take(n)
	}
	s.vu = fl.take(n)
	s.setRHS()
	s.Reset()
	return s, nil
}

// slab hands out consecutive pieces of one allocation.
type slab []float64

// take returns the next k entries (capacity k, so an append cannot reach
// the next piece).
func (p *slab) take(k int) []float64 {
	s := (*p)[:k:k]
	*p = (*p)[k:]
	return s
}

// denseRows lists the rows of a, or returns rows when a is nil.
func denseRows(a *mat.Dense, rows [][]float64) [][]float64 {
	if a == nil {
		return rows
	}
	out := make([][]float64, a.Rows)
	for i := range out {
		out[i] = a.Row(i)
	}
	return out
}

// inverseNorms returns 1/||a_j|| for every row (0 for a zero row), and
// adds each row to sb when sb is not nil (while the row is in cache). A row
// whose norm is not finite (a NaN or infinite entry, or an overflow) or
// whose inverse overflows is an *InputError naming the row (field "ARows"
// when the rows came as ARows).
//
// With x not nil it also sets dots[j] = a_j'x for every row (NewAt), by
// guessDot, a dense row's product taken in the same read of the row as its
// norm (vec.SumSqDot). On rows that do not fit in the cache the pass runs
// at the speed of the stream (the large QP, m = 250000: 200 MB of rows,
// 22 ms in SumSqDot of the 30 ms of this function).
func inverseNorms(field string, rows [][]float64, asRows bool, sb *sparseBuilder, x, dots []float64) ([]float64, error) {
	if asRows {
		field = "ARows"
	}
	inv := make([]float64, len(rows))
	for j, r := range rows {
		y := x
		if y == nil {
			y = r // the sum of squares does not depend on y
		}
		ss, dense := vec.SumSqDot(r, y)
		nr := math.Sqrt(ss)
		if !(ss > 0x1p-900 && ss < 0x1p900) {
			nr = mat.Norm(r) // scaled, so that no entry's square overflows or underflows
		}
		switch {
		case nr == 0:
		case math.IsNaN(nr) || math.IsInf(nr, 0) || math.IsInf(1/nr, 0):
			for k, x := range r {
				if x-x != 0 {
					return nil, &InputError{field, j, fmt.Sprintf("column %d is %v", k, x)}
				}
			}
			return nil, &InputError{field, j, fmt.Sprintf("the row's norm overflows when the row is scaled to unit norm (norm %v)", nr)}
		default:
			inv[j] = 1 / nr
		}
		if sb != nil {
			sb.add(j, r)
		}
		if x != nil {
			sp := sb.view()
			dots[j] = guessDot(inv[j], &sp, j, x, dense)
		}
	}
	return inv, nil
}

// checkScaled checks that every right-hand side b_j over its row's norm
// (b_j inv_j, inv_j = 1/||a_j||) is finite: a row too short for its b_j
// (1e-300 with b_j = 1e10) is an *InputError naming the entry.
func checkScaled(field string, b, inv []float64) error {
	for j, v := range inv {
		if q := b[j] * v; math.IsInf(q, 0) {
			return &InputError{field, j, fmt.Sprintf("%v over the row's norm %v overflows", b[j], 1/v)}
		}
	}
	return nil
}

// setRHS scales the right-hand sides to the unit rows and notes the first
// zero row that cannot hold (0 <= b_j < 0, or 0 = beq_i != 0).
func (s *Solver) setRHS() {
	s.infeasible = 0
	for j, inv := range s.ainv {
		if inv > 0 {
			s.b[j] = s.bOrig[j] * inv
		} else if s.bOrig[j] < 0 && s.infeasible == 0 {
			s.infeasible = j + 1
		}
	}
	for i, inv := range s.eqinv {
		if inv > 0 {
			s.beq[i] = s.beqOrig[i] * inv
		} else if s.beqOrig[i] != 0 && s.infeasible == 0 {
			s.infeasible = s.m + i + 1
		}
	}
}

// SetB replaces the right-hand side of the rows of A (length m). The
// working set and its factor are kept: the next Solve starts from them.
// It allocates nothing.
func (s *Solver) SetB(b []float64) error {
	if err := checkVec("B", b, s.m, false); err != nil {
		return err
	}
	if err := checkScaled("B", b, s.ainv); err != nil {
		return err
	}
	copy(s.bOrig, b)
	s.setRHS()
	for i, c := range s.ws {
		s.beta[i] = s.rhs(c) / s.sigma[i]
	}
	s.forgetViolations()
	return nil
}

// SetDeadline makes the following solves stop, with StatusTimeLimit and the
// certificate of the point reached, once t has passed (checked every 16
// working-set changes); the zero time removes the limit.
func (s *Solver) SetDeadline(t time.Time) { s.deadline = t }

// Reset empties the working set down to the equalities (the next Solve
// starts cold).
func (s *Solver) Reset() {
	s.ws = s.ws[:0]
	s.normals.reset()
	s.fac.k = 0
	s.fresh, s.lastIndep, s.skipRow, s.skipBound = true, false, -1, noBound
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
	s.eqInconsistent = false
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

// pushEquality adds an equality to a working set of equalities. If its
// normal depends on theirs, the null direction p (N p = 0, p_last = 1)
// decides: b'p = 0 means the equality is implied by the others and it is
// left out (eqRedund); otherwise no x satisfies them all, and p, signed so
// that b'p < 0, is the Farkas certificate (eqInconsistent, left in s.dir).
func (s *Solver) pushEquality(c constraint) {
	if d := s.push(c); d > singularPivot {
		return
	}
	k := len(s.ws)
	p := s.dir[:k]
	s.fac.nullDirection(p)
	// p through the factor is off by about eps over the pivots: with two
	// equalities nearly parallel in H's metric (pivot 6.5e-4) an entry
	// that is exactly zero came out 5e-13, and b'p on a consistent set
	// looked like a contradiction (FuzzActiveSet: x_0 fixed at 0 and an
	// equality -2.5 x_0 = 0, reported infeasible). Refined in the caller's
	// variables it is accurate to their rounding.
	s.refineNull(p)
	rate, size := 0.0, 0.0
	for i, c := range s.ws {
		t := p[i] * s.rhs(c) / s.sigma[i]
		rate += t
		size += math.Abs(t)
	}
	if rate > 0 {
		vec.Scale(-1, p)
	}
	if math.Abs(rate) > s.opt.PrimalTol*(1+size) {
		// A contradiction is claimed only with its certificate checked in
		// the caller's data; one that fails by its margin alone is the
		// rounding of an implied equality.
		s.buildFarkas()
		ok, consistent := s.farkasHolds()
		clear(s.res.FarkasA)
		clear(s.res.FarkasEq)
		s.farkasBuilt = false
		if ok || !consistent {
			s.eqInconsistent = true
			return
		}
	}
	if c.kind == kindEq {
		s.eqRedund[c.i] = true
	}
	s.pop(k - 1)
}

// poolSize is the number of rows scanned first (rebuildPool): enough for
// the rows a solve admits (at most n are active) and those it tries, and
// 4 sqrt(m), which balances the pool's scan at every working-set change
// against the full scans that follow once no pool row is violated.
// Measured on separable SVMs (n = 50) hot-started from a 5% sample's
// active set, the best pool was 1024 at m = 62500 and 125000, 2048 at
// 250000, 1024..4096 at 1e6, where the fixed 512 took 2.5 s instead of
// 0.24 s (more full scans of 400 MB of rows); the large QP (n = 100,
// m = 1e5) does not mind (800, 1265, 2048: within noise).
func poolSize(n, m int) int { return max(512, 8*n, 4*int(math.Sqrt(float64(m)))) }

// singularPivot is the pivot below which a new unit normal counts as
// dependent on the working set: its distance from their span is below
// 1e-7 (the pivot is the squared distance), where the pivot's own rounding
// (about k eps for k members) is still two orders of magnitude smaller.
// In the loop it only flags the member: dependent (dual.go) decides by the
// distance measured directly, since a downdated factor's pivot can be far
// off (negative pivots were seen).
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

// pushChecked is push, and a pivot below nearPivot that is within its
// rounding (pivotRounding k eps ||p||^2) counts as zero: it returns 0 and
// sets the factor's pivot to 0, so that the loop asks dependent, which
// measures the distance directly (FuzzActiveSet: three rows of a plane in
// R^3, the third's pivot 3.4e-13 = 0.3 eps ||p||^2; taken as independent,
// the step put x at 3.5e15 and the loop called an infeasible problem
// optimal). It overwrites s.dir; O(k^2) more than push, only for pivots
// below nearPivot.
func (s *Solver) pushChecked(c constraint) float64 {
	d := s.push(c)
	k := len(s.ws)
	if d <= singularPivot || d >= nearPivot || k < 2 {
		return d
	}
	p := s.dir[:k]
	s.fac.nullDirection(p)
	if d > pivotRounding*float64(k)*0x1p-52*vec.Dot(p, p) {
		return d
	}
	s.fac.d[k-1] = 0
	return 0
}

// normal makes the unit normal of c in the v = L'x coordinates member k's
// normal and returns its scale sigma = ||L^{-1} ahat_c|| (= ||L^{-1} a_c|| /
// ||a_c|| for a row, solved with the caller's row).
func (s *Solver) normal(c constraint, k int) float64 {
	dst := s.normals.take(k)
	scale := 1.0 // ||ahat|| / ||the vector solved with||
	from := 0    // dst is zero before from
	switch c.kind {
	case kindRow:
		s.chol.SolveL(dst, s.a[c.i])
		scale = s.ainv[c.i]
	case kindEq:
		s.chol.SolveL(dst, s.aeq[c.i])
		scale = s.eqinv[c.i]
	default: // bounds and kinks: e_i or -e_i
		s.chol.UnitColumn(dst, int(c.i))
		from = int(c.i)
	}
	s.normals.trim(k, from)
	_, r := s.normals.support(k)
	if c.kind == kindLower {
		vec.Scale(-1, r)
	}
	nrm := mat.Norm(r)
	vec.Scale(1/nrm, r)
	s.normals.setOne(k)
	return nrm * scale
}

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
	s.xFresh = false
	k := len(s.ws)
	s.sigma[k] = s.normal(c, k)
	s.beta[k] = s.rhs(c) / s.sigma[k]
	s.normals.gramAll(k, s.g[:k])
	near := false
	for _, g := range s.g[:k] {
		near = near || math.Abs(g) > 1-1e-12
	}
	d := s.fac.add(s.g, 1)
	if k >= s.n || near && s.twin(k) >= 0 {
		// n+1 normals in n dimensions depend on each other, and so does
		// a repeated (or negated) row, whatever the rounded pivot says.
		d, s.fac.d[k] = 0, 0
	}
	s.ws = append(s.ws, c)
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
	s.xFresh, s.vFresh = false, false
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
