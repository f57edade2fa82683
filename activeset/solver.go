package activeset

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Solver holds a factored problem and the working set of its last solve,
// which the next Solve starts from (a hot start: after SetB only the
// multipliers change).
type Solver struct {
	n, m, meq int
	opt       Options
	budget    budget // what may end a solve early (budget.go)

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
	// boxed: some entry of lo or up is finite (setBoxed). Without one no
	// bound can be violated or enter the working set, and the passes over
	// the bounds (mostViolated, boundTerms) are skipped.
	boxed bool

	ws       []constraint       // the working set, in factor order
	wsPrev   []constraint       // SetObjective's copy of ws
	lam      []float64          // multipliers of ws on the unit-normal scale
	sigma    []float64          // ||L^{-1} ahat_k|| of each member
	beta     []float64          // rhs / sigma of each member (its right-hand side for n_k'v)
	normals  normalSet          // member i: L^{-1} ahat_k / sigma_k of ws[i]
	tNormals transformedNormals // allocated by the first re-solve
	solves   int                // the solves begun
	fac      gramLDL
	basis    orthoBasis // N = QR, kept while a member is nearly dependent (basis.go)
	fresh    bool       // fac has had no downdate since it was built from the normals
	// resBuilt: the members' residual at the first point on the factor
	// as last built from the normals (New, Reset, refactor); -1 until
	// the loop has computed it.
	resBuilt float64
	// lastIndep: the last member's pivot is at most singularPivot, but
	// dependent found it independent and set its pivot.
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
	poolTeam   *poolTeam // rebuildPool's passes on the team (nil without one)
	short      shortlist // the last scan's most violated rows (shortlist.go)
	kinkIn     []bool    // the kink of x_i is in ws (l1 only)
	boundIn    []int8    // +1 upper, -1 lower, 2 fixed, 0 none in ws
	eqRedund   []bool    // equality i depends on the others consistently
	infeasible int       // index+1 of a zero row that cannot hold (rows then equalities), 0 if none
	worstRow   int       // the row violated most beyond rounding at the certified answer (violation), -1 if none
	// unusual lists the rows whose norm is outside 2^-450..2^450: their
	// products with x can overflow (or underflow) on the caller's scale,
	// where a sum of terms beyond float64's range comes out infinite with
	// the sign of whichever overflowed first, and violation takes their
	// residuals on the unit scale again (unusualViolations).
	unusual []int32
	// ownViolated: a row or equality of the certified answer is violated
	// within the rounding of ||x|| but beyond that of its own terms
	// (violation); ownRow is the row outside the working set most so
	// violated, relative to its terms, -1 if none.
	ownViolated bool
	ownRow      int
	// exact: the rows violated most in exact arithmetic at the certified
	// answer, most violated first, by how much in eps (||x|| + |bhat|);
	// near: those that hold exactly but within rounding of zero, nearest
	// first (violation).
	exact, near rowList
	// termRows: the rows whose residuals add to Gap's terms, in order
	// (violationPass), unless there are more than its capacity, 2 (n+1):
	// then termsAll is set.
	termRows []int32
	termsAll bool
	// eqInconsistent: the equalities (and fixed variables) contradict each
	// other; eqDir holds the Farkas direction over s.ws as pushEquality
	// found it, before buildFarkas refined it in s.dir: every answer
	// rebuilds its certificate from it (eqCertificate).
	eqInconsistent bool
	eqDir          []float64
	// eqNear counts the equalities (and fixed variables) left out of the
	// working set as implied by the others to rounding only, not exactly
	// (pushEquality): Result.NearlyImplied.
	eqNear int
	// skipNear counts the rows and bounds of this solve skipped as
	// consistent-dependent but not implied exactly (noNullStep).
	skipNear    int
	farkasBuilt bool    // the Result holds the certificate of s.dir (this solve)
	rayTrial    float64 // multipliers above this are checked as a certificate (farkas.go)
	// The rows and bounds found consistent-dependent (noNullStep), not
	// admitted until the objective rises above skipLevel: rowSkip[j] for
	// row j, boundSkip[i] the bounds of x_i (skipUpper, skipLower);
	// skips counts them (0: none).
	rowSkip   []bool
	boundSkip []int8
	skips     int
	skipLevel float64 // ||v - v_u||^2 (2 f(x) + const) when the last was skipped

	// scratch of length n, n+1 or rows
	v, x, t, r, xTry []float64
	hx               []float64 // H x, valid for s.x when hxOK
	hxOK             bool
	// clipped: certify moved x onto a bound outside the working set, off
	// the members' equalities (raiseWeight).
	clipped bool
	// xFresh: s.x is what primal would compute from the current working
	// set, multipliers and v_u (set by primal; cleared by every change of
	// them and by a refinement step), so the primal after the loop can be
	// skipped. vFresh: s.v is v_u - N lambda for them (set by primalV,
	// cleared by every change but the admission of a member with a zero
	// multiplier, which primalV skips, and towardsLamStar's leave of one
	// that moved no multiplier).
	xFresh, vFresh          bool
	g, lamStar, dir, lamTry []float64
	// keptViol[:keptK]: the members' violations n_i'v - beta_i at s.v
	// as towardsLamStar last computed them, for its next call after a
	// leave that moved no multiplier (memberViolations); keptK = -1:
	// none. Every push and pop clears keptK.
	keptViol []float64
	keptK    int
	// spanU (nnlsMax x n) and spanY (spanRows x capacity): raiseWeight's
	// normals of the constraints it holds, or their parts off the members'
	// span and their coefficients on it (spanWork). New sizes them unless
	// Options.OneShot: a solve raises the weight only when the answer
	// violates a row in exact arithmetic or was clipped to its box.
	spanU, spanY []float64
	// rare holds the workspace of the steps most solves never take,
	// allocated on first use (rareWork).
	rare *rareWork
	// keptX (n): the answer refineCompensated started from, allocated on
	// first use.
	keptX []float64
	// team runs the passes over every row on several goroutines
	// (Options.Threads; nil: one), scan is its pricing scan's storage.
	team  *rowTeam
	scan  parallelScan
	block int    // the rows of a span of a scan of every row (checkRows)
	split splits // which of the passes run on the team
	// seedJob is HotStartAt's pass on the team (made once: a closure made
	// at each call would allocate), seedAt its x during the pass.
	seedJob func(k, lo, hi int)
	seedAt  []float64
	res     Result
	mem     storage // what the Solver allocated for itself, for Load
	// unloaded: the last Load failed, and s holds no problem.
	unloaded bool
}

// rareWork is the workspace of the steps most solves never take, kept out
// of the Solver, whose every byte a cold set-up pays for (zeroed, and
// scanned by the collector while it lives). Each field is allocated on
// first use.
type rareWork struct {
	// ortho, orthoW (n) and orthoY (capacity): refineOrtho's workspace.
	ortho          orthoQR
	orthoW, orthoY []float64
	// heldBounds: the bounds memberHoldCost holds beside the members.
	heldBounds []int32
	// memberRes, keptLam (capacity): refineCompensated's members'
	// residuals and the multipliers it started from.
	memberRes, keptLam []float64
	// reduced: memberAnswer's reduced Hessian (n^2).
	reduced     []float64
	reducedChol mat.Cholesky
	opp         oppositeRows // built when first needed (opposite.go)
}

// rareWork returns s.rare, allocated on first use.
func (s *Solver) rareWork() *rareWork {
	if s.rare == nil {
		s.rare = new(rareWork)
	}
	return s.rare
}

// New checks and factors p. It returns an *InputError for malformed data
// and a *mat.NotPDError when H is not numerically positive definite.
func New(p *Problem, opt *Options) (*Solver, error) { return newSolver(p, opt, &guess{}) }

// guess is NewAt's x and the scratch for the rows' products with it
// (newPool).
type guess struct{ x, dots []float64 }

// newSolver is New; with at.x set it also leaves every row's product with
// at.x in at.dots (newPool), computed in the same pass as the rows' norms.
func newSolver(p *Problem, opt *Options, at *guess) (*Solver, error) {
	s := new(Solver)
	if err := s.build(p, opt, at); err != nil {
		return nil, err
	}
	return s, nil
}

// build makes s the Solver of p (newSolver), in the storage s allocated
// for an earlier problem where it fits (Load; storage.go) and in new
// allocations elsewhere. Every reused piece is cleared first, so the
// Solver is the one newSolver makes, bit for bit. After an error s holds
// no problem (only its storage): it must be built again before a solve.
func (s *Solver) build(p *Problem, opt *Options, at *guess) error {
	diagH, err := p.check()
	if err != nil {
		return err
	}
	if err := opt.check(); err != nil {
		return err
	}
	n, m, meq := p.N, p.rowsA(), rows(p.Aeq)
	if p.Factor != nil && p.Factor.N() != n {
		return &InputError{"Factor", -1, fmt.Sprintf("order %d, want %d", p.Factor.N(), n)}
	}
	old := s.storage()
	*s = Solver{n: n, m: m, meq: meq, opt: opt.resolved()}
	s.mem = old
	s.keepRare()
	if err := s.chol.setup(p.H, p.Factor, diagH, &s.mem); err != nil {
		return err
	}
	capacity := n + 1
	s.block = scanBlockRows(n)
	if s.team = newRowTeam(m, n, s.block, s.opt.Threads); s.team != nil {
		s.newParallelScan()
		s.seedJob = func(_, lo, hi int) { s.seedRows(s.seedAt, lo, hi) }
	}
	s.newPool(at)
	// The solver's vectors come from one allocation per element type
	// (the cold set-up of a small problem is mostly allocation): floats,
	// int32s, bools and int8s.
	spInts, spFloats, spBools := sparseBuilderSlab(m, n)
	span := 0
	if !s.opt.OneShot {
		span = spanFloats(n)
	}
	vecs := 16 // of length n: one more for the Result's W with l1
	if p.L1 > 0 {
		vecs++
	}
	s.mem.fl = reuse(s.mem.fl, vecs*n+9*capacity+span+5*m+5*meq+normalSetFloats(capacity, n)+gramLDLFloats(capacity)+spFloats)
	s.mem.in = reuse(s.mem.in, 2*capacity+normalSetInts(capacity, n)+gramLDLInts(capacity)+spInts)
	s.mem.bl = reuse(s.mem.bl, n+2*m+meq+spBools)
	s.mem.i8 = reuse(s.mem.i8, 3*n)
	fl, in, bl, i8 := slab[float64](s.mem.fl), slab[int32](s.mem.in), slab[bool](s.mem.bl), slab[int8](s.mem.i8)
	s.c = fl.take(n)
	copy(s.c, p.C)
	s.l1 = p.L1
	s.capSign, s.cEff, s.kinkIn = i8.take(n), fl.take(n), bl.take(n)
	if err := s.readRows(p, at, &fl, &in, &bl); err != nil {
		return err
	}
	s.b, s.beq = fl.take(m), fl.take(meq)
	s.lo, s.up = fl.take(n), fl.take(n)
	for i := 0; i < n; i++ {
		s.lo[i], s.up[i] = bound(p.Lower, i, math.Inf(-1)), bound(p.Upper, i, math.Inf(1))
	}
	s.setBoxed()
	s.mem.ws = reuse(s.mem.ws, 2*capacity)
	wsBoth := s.mem.ws
	s.ws, s.wsPrev = wsBoth[:0:capacity], wsBoth[capacity:capacity:2*capacity]
	s.lam, s.sigma, s.beta = fl.take(capacity), fl.take(capacity), fl.take(capacity)
	s.normals = newNormalSet(capacity, n, &fl, &in)
	s.fac = newGramLDL(capacity, &fl, &in)
	s.rowIn, s.boundIn, s.eqRedund = bl.take(m), i8.take(n), bl.take(meq)
	s.rowSkip, s.boundSkip = bl.take(m), i8.take(n)
	s.mem.rowBnd = reuse(s.mem.rowBnd, m)
	s.rowBnd = s.mem.rowBnd[:m:m]
	s.termRows = in.take(2 * capacity)[:0]
	s.drift.seen, s.drift.anchor = fl.take(n), fl.take(n)
	s.v, s.x, s.t, s.r, s.xTry = fl.take(n), fl.take(n), fl.take(n), fl.take(n), fl.take(n)
	s.hx, s.chol.rowNorm = fl.take(n), fl.take(n)
	s.g, s.lamStar, s.dir, s.lamTry = fl.take(capacity), fl.take(capacity), fl.take(capacity), fl.take(capacity)
	s.keptViol, s.keptK = fl.take(capacity), -1
	s.eqDir = fl.take(capacity)
	if span > 0 {
		s.spanWork(&fl)
	}
	s.res = Result{X: fl.take(n), Lambda: fl.take(m), Nu: fl.take(meq),
		Z: fl.take(n), FarkasA: fl.take(m), FarkasEq: fl.take(meq)}
	if s.l1 > 0 {
		s.res.W = fl.take(n)
	}
	s.vu = fl.take(n)
	s.setRHS()
	if at.x == nil {
		s.Reset() // NewAt's HotStart resets
	}
	return nil
}

// readRows lists the rows of A and Aeq (read in place), their inverse
// norms and sparse forms, and the copies of B and Beq, from the slabs: the
// pass of build that checks every row. A row that is not finite, or whose
// scaling overflows, is an *InputError naming it.
func (s *Solver) readRows(p *Problem, at *guess, fl *slab[float64], in *slab[int32], bl *slab[bool]) error {
	m, meq := s.m, s.meq
	s.a, s.aeq = denseRows(&s.mem.a, p.A, p.ARows), denseRows(&s.mem.aeq, p.Aeq, nil)
	var sbv sparseBuilder
	sb := newSparseBuilder(&sbv, m, s.n, in, fl, bl)
	s.ainv, s.eqinv = fl.take(m), fl.take(meq)
	if err := s.rowNorms(p.A == nil, sb, *at); err != nil {
		return err
	}
	s.unusual = s.unusual[:0]
	for j, v := range s.ainv {
		if oddScale(v) {
			s.unusual = append(s.unusual, int32(j))
		}
	}
	if err := inverseNorms(s.eqinv, "Aeq", 0, s.aeq, false, nil, nil, nil); err != nil {
		return err
	}
	s.sp = sb.rows()
	s.bOrig, s.beqOrig = fl.take(m), fl.take(meq)
	copy(s.bOrig, p.B)
	copy(s.beqOrig, p.Beq)
	if err := checkScaled("B", s.bOrig, s.ainv); err != nil {
		return err
	}
	return checkScaled("Beq", s.beqOrig, s.eqinv)
}

// newPool allocates the pool and its scratch, and with at.x set points
// at.dots at scratch for the rows' products with it: the pool's
// (poolScore, m floats), which no rebuild uses before NewAt's products
// are stored, where there is a pool.
func (s *Solver) newPool(at *guess) {
	n, m := s.n, s.m
	if k := poolSize(n, m); m > k {
		s.mem.pool, s.mem.cand, s.mem.score = reuse(s.mem.pool, k), reuse(s.mem.cand, 4*k), reuse(s.mem.score, m)
		s.pool, s.poolCand, s.poolScore = s.mem.pool[:0:k], s.mem.cand[:0:4*k], s.mem.score[:0:m]
		if s.team != nil {
			s.newPoolTeam()
		}
	}
	if s.team != nil {
		s.split = newSplits(m)
	}
	if at.x != nil {
		if at.dots = s.poolScore[:cap(s.poolScore)]; len(at.dots) < m {
			at.dots = make([]float64, m)
		}
	}
}

// slab hands out consecutive pieces of one allocation.
type slab[T any] []T

// take returns the next k entries (capacity k, so an append cannot reach
// the next piece).
func (p *slab[T]) take(k int) []T {
	s := (*p)[:k:k]
	*p = (*p)[k:]
	return s
}

// denseRows lists the rows of a in *list (reused where it fits), or
// returns rows when a is nil.
func denseRows(list *[][]float64, a *mat.Dense, rows [][]float64) [][]float64 {
	if a == nil {
		return rows
	}
	// The whole list cleared: no row of an earlier matrix stays
	// reachable from it.
	clear((*list)[:cap(*list)])
	*list = reuse(*list, a.Rows)
	out := (*list)[:a.Rows:a.Rows]
	for i := range out {
		out[i] = a.Row(i)
	}
	return out
}

// rowNorms is inverseNorms for the rows of A (s.a into s.ainv), on the
// team's goroutines when there is one: chunk 0 lists its sparse rows in
// sb, each other chunk in lists of its own (sb.chunk; their flags and
// offsets go to sb's directly), appended to sb's in chunk order, so that
// the result is the one pass's bit for bit, and the first bad row in row
// order is the error. Chunk 0 works on a copy of *sb, copied back after
// the pass, so that sb does not escape (New's is on its stack).
func (s *Solver) rowNorms(asRows bool, sb *sparseBuilder, at guess) error {
	if s.team == nil {
		return inverseNorms(s.ainv, "A", 0, s.a, asRows, sb, at.x, at.dots)
	}
	c := s.team.chunks()
	errs := make([]error, c)
	parts := make([]*sparseBuilder, c)
	if sb != nil {
		parts[0] = new(sparseBuilder)
		*parts[0] = *sb
	}
	for k := 1; k < c; k++ {
		parts[k] = sb.chunk(s.team.bounds[k], s.team.bounds[k+1])
	}
	s.team.do(func(k, lo, hi int) {
		var dots []float64
		if at.x != nil {
			dots = at.dots[lo:hi]
		}
		errs[k] = inverseNorms(s.ainv[lo:hi], "A", lo, s.a[lo:hi], asRows, parts[k], at.x, dots)
	})
	if sb != nil {
		*sb = *parts[0]
	}
	for k, err := range errs {
		if err != nil {
			return err
		}
		if k > 0 {
			sb.appendChunk(parts[k])
		}
	}
	return nil
}

// inverseNorms sets inv[j] = 1/||a_j|| for every row (0 for a zero row), and
// adds each row to sb when sb is not nil (while the row is in cache). A row
// whose norm is not finite (a NaN or infinite entry, or an overflow) or
// whose inverse overflows is an *InputError naming the row (field "ARows"
// when the rows came as ARows).
//
// With x not nil it also sets dots[j] = a_j'x for every row (NewAt), by
// guessDot, a dense row's product taken in the same read of the row as its
// norm (vec.SumSqDot). On rows that do not fit in the cache the pass runs
// at the speed of the stream, most of it in SumSqDot (BenchmarkLargeQP,
// BenchmarkSumSqDot).
//
// The rows are rows first, first+1, ... of the field: an error names row
// first + j.
func inverseNorms(inv []float64, field string, first int, rows [][]float64, asRows bool, sb *sparseBuilder, x, dots []float64) error {
	if asRows {
		field = "ARows"
	}
	for j, r := range rows {
		y := x
		if y == nil {
			y = r // the sum of squares does not depend on y
		}
		ss, dense := vec.SumSqDot(r, y)
		if ss > 0x1p-900 && ss < 0x1p900 {
			// Nearly every row: the norm and its inverse are finite and
			// not zero, and need no check.
			inv[j] = 1 / math.Sqrt(ss)
		} else if err := unusualNorm(&inv[j], field, first+j, r); err != nil {
			return err
		}
		if sb != nil {
			sb.add(j, r)
		}
		if x != nil {
			dots[j] = sb.guessDot(inv[j], j, x, dense)
		}
	}
	return nil
}

// unusualNorm sets *inv = 1/||r|| for a row whose sum of squares is not
// within 2^-900..2^900 (inverseNorms): the norm taken again scaled, so that
// no entry's square overflows or underflows; 0 for a zero row, and an
// *InputError naming the row when a norm or its inverse is not finite.
func unusualNorm(inv *float64, field string, row int, r []float64) error {
	nr := mat.Norm(r)
	switch {
	case nr == 0:
	case math.IsNaN(nr) || math.IsInf(nr, 0) || math.IsInf(1/nr, 0):
		for k, x := range r {
			if x-x != 0 {
				return &InputError{field, row, fmt.Sprintf("column %d is %v", k, x)}
			}
		}
		return &InputError{field, row, fmt.Sprintf("the row's norm overflows when the row is scaled to unit norm (norm %v)", nr)}
	default:
		*inv = 1 / nr
	}
	return nil
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
	s.setEqRHS()
}

// setEqRHS is setRHS for the equalities, after the rows.
func (s *Solver) setEqRHS() {
	for i, inv := range s.eqinv {
		if inv > 0 {
			s.beq[i] = s.beqOrig[i] * inv
		} else if s.beqOrig[i] != 0 && s.infeasible == 0 {
			s.infeasible = s.m + i + 1
		}
	}
}
