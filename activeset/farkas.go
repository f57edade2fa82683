package activeset

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// rayStart is the largest multiplier (unit-normal scale) at which the
// multipliers are first checked as a Farkas certificate, and rayGrowth the
// factor by which they must grow before the next check. Feasible problems
// with multipliers of 1e10 exist (separable raw-feature SVMs, the root
// package's TestUnscaledSVM): the start stays above them, since a check
// costs O(k^2 n) when it gets to the polish. rayPrecheck is the relative
// size of N lambda below which the multipliers are checked at all.
const (
	rayStart    = 1e12
	rayGrowth   = 100
	rayPrecheck = 1e-6
)

// lamLimit is the multiplier (unit-normal scale) beyond which a solve
// ends undecided (StatusPrecisionLimit): v = v_u - N lambda has lost every
// digit long before, and the next steps would overflow.
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
	// feasible problem (|c| large, or nearly parallel active rows) end
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
	ok, _ := s.tryFarkas()
	return ok
}

// eqCertificate writes the certificate of the contradiction pushEquality
// found among the equalities (and fixed variables), rebuilt from its
// direction as found (s.eqDir): buildFarkas refines s.dir in place, and a
// certificate built again from the refined direction would be one nobody
// checked, and would differ from one answer to the next. It is checked
// again all the same; a refusal (which the same data and the same direction
// cannot give) is answered as a precision limit, not as infeasible.
func (s *Solver) eqCertificate() Status {
	copy(s.dir, s.eqDir[:len(s.ws)])
	if ok, _ := s.tryFarkas(); ok {
		return StatusInfeasible
	}
	return s.undecided(StatusPrecisionLimit)
}

// tryFarkas builds the certificate of the null direction s.dir into the
// Result (buildFarkas, which refines s.dir in place) and checks it
// (farkasHolds, whose results it returns); one that does not hold is
// cleared from the Result.
func (s *Solver) tryFarkas() (ok, consistent bool) {
	s.buildFarkas()
	if ok, consistent = s.farkasHolds(); !ok {
		s.clearFarkas()
	}
	return ok, consistent
}

// clearFarkas clears the certificate from the Result.
func (s *Solver) clearFarkas() {
	clear(s.res.FarkasA)
	clear(s.res.FarkasEq)
	s.farkasBuilt = false
}

// answerInfeasible writes the Farkas certificate: a zero row that cannot
// hold, or the null direction of the last step (s.dir), whose bound entries
// make up the box part of the certificate. Largest row entry 1.
func (s *Solver) answerInfeasible() {
	r := &s.res
	if s.infeasible > 0 {
		clear(r.FarkasA)
		clear(r.FarkasEq)
	}
	switch {
	case s.infeasible > s.m:
		i := s.infeasible - s.m - 1
		r.FarkasEq[i] = math.Copysign(1, -s.beqOrig[i])
	case s.infeasible > 0:
		r.FarkasA[s.infeasible-1] = 1
	case !s.farkasBuilt:
		s.buildFarkas()
	}
	s.primal()
	copy(r.X, s.x)
	r.Objective, r.Dual, r.Gap = math.NaN(), math.NaN(), math.Inf(1)
	s.multipliers()
	s.violationPass() // the violations; no gap to sum terms for
}

// buildFarkas writes the certificate of the null direction s.dir (whose
// bound entries make up its box part) into the Result, refined and
// polished in the caller's variables. Largest row entry 1.
func (s *Solver) buildFarkas() {
	r := &s.res
	clear(r.FarkasA)
	clear(r.FarkasEq)
	s.refineFarkas()
	s.polishFarkas()
	for i, c := range s.ws {
		y := s.dir[i] / s.sigma[i]
		switch c.kind {
		case kindRow:
			r.FarkasA[c.i] = y * s.ainv[c.i]
		case kindEq:
			r.FarkasEq[c.i] = y * s.eqinv[c.i]
		}
	}
	big := max(vec.MaxAbs(r.FarkasA), vec.MaxAbs(r.FarkasEq))
	if big > 0 {
		vec.Scale(1/big, r.FarkasA)
		vec.Scale(1/big, r.FarkasEq)
	}
	// Entries at the rounding level of the largest are noise.
	for _, y := range [][]float64{r.FarkasA, r.FarkasEq} {
		for i, v := range y {
			if math.Abs(v) < 1e-15 {
				y[i] = 0
			}
		}
	}
	s.polishScaledFarkas()
	s.tiltFarkas()
	s.farkasBuilt = true
}

// polishScaledFarkas finishes the certificate on the caller's scale. The
// direction polishFarkas leaves is null to the rounding of the normals,
// but its scaling to the caller's rows (by sigma, the rows' norms and the
// largest entry) rounds each entry again: a row and an equality with the
// same normal, contradicting each other, came out as y = (1 - 1e-16,
// -(1 - 8.8e-15)), whose A'y of 2e-14 farkasHolds rightly refuses to count
// as zero (a system can be feasible that far out; FuzzActiveSet
// 0c73fa28). Here the entries of y other than its largest solve
//
//	min || sum_{j in S} delta_j a_j|_U + w_U ||,  w = A'y + Aeq'yeq,
//
// U the coordinates without a finite bound on some side, w summed in
// twice the working precision, twice; rows' entries stay >= 0. The
// result is kept only if farkasHolds prefers it. It allocates (only
// infeasible answers come here).
func (s *Solver) polishScaledFarkas() {
	r := &s.res
	type member struct {
		row []float64
		y   *float64
		eq  bool
	}
	var S []member
	fixed, big := -1, 0.0
	for j, v := range r.FarkasA {
		if v != 0 {
			S = append(S, member{s.a[j], &r.FarkasA[j], false})
		}
	}
	for i, v := range r.FarkasEq {
		if v != 0 {
			S = append(S, member{s.aeq[i], &r.FarkasEq[i], true})
		}
	}
	for a, m := range S {
		if math.Abs(*m.y) > big {
			fixed, big = a, math.Abs(*m.y)
		}
	}
	if len(S) < 2 || len(S) > s.n+1 {
		return
	}
	before, _ := s.farkasHolds()
	if before {
		return
	}
	keep := make([]float64, len(S))
	for a, m := range S {
		keep[a] = *m.y
	}
	free := make([]int, 0, len(S)-1)
	for a := range S {
		if a != fixed {
			free = append(free, a)
		}
	}
	rows := mat.NewDense(len(free), s.n)
	for f, a := range free {
		for c, v := range S[a].row {
			if math.IsInf(s.lo[c], -1) || math.IsInf(s.up[c], 1) {
				rows.Row(f)[c] = v
			}
		}
	}
	var chol mat.Cholesky
	if !factorGram(rows, &chol) {
		return
	}
	w, rhs := make([]float64, s.n), make([]float64, len(free))
	for round := 0; round < 2; round++ {
		for c := range w {
			var e vec.ExactSum
			for _, m := range S {
				e.AddProduct(*m.y, m.row[c])
			}
			w[c] = e.Value()
		}
		for f := range free {
			rhs[f] = -vec.Dot(rows.Row(f), w)
		}
		chol.Solve(rhs, rhs)
		for f, a := range free {
			y := S[a].y
			*y += rhs[f]
			if !S[a].eq && *y < 0 {
				*y = 0
			}
		}
	}
	if ok, _ := s.farkasHolds(); !ok {
		for a, m := range S {
			*m.y = keep[a]
		}
	}
}

// tiltFarkas gives the components of w = A'y + Aeq'yeq that are zero only
// to the rounding of their terms the sign whose bound the box's minimum of
// w'x pays least for. A row and its exact opposite (or any support whose
// terms cancel in exact arithmetic) leave such a component after the
// scaling to the caller's rows, of either sign: on a coordinate in
// [0, 1e19] a w_c of -8e-20 costs the box's minimum -0.8, which can
// swamp the certificate's margin, while +8e-20 costs nothing at the
// lower bound 0. Then the loop took the contradiction for a consistent
// dependent row and cycled (TestOppositeHugeBoundInfeasible). For each
// such coordinate where the other sign pays less (the bound it needs
// finite and smaller in its product), the member whose term of that sign
// is largest grows (a row's entry stays >= 0) until the exactly summed
// w_c has that sign. The result is kept only if farkasHolds accepts it:
// the nudge is rounding-sized, and the check decides. O(m) per moved
// entry; it allocates only when an entry moves.
func (s *Solver) tiltFarkas() {
	if ok, _ := s.farkasHolds(); ok {
		return
	}
	type saved struct {
		y *float64
		v float64
	}
	var undo []saved // allocated only when an entry moves
	for c := 0; c < s.n; c++ {
		// farkasHolds left w_c in s.t and s.xTry (high and low parts)
		// and the sum of its terms' magnitudes in s.r.
		wc := s.t[c] + s.xTry[c]
		if wc == 0 || math.Abs(wc) > farkasTol*s.r[c] {
			continue
		}
		// The box's minimum of w_c x_c per unit of |w_c|: lo_c for a
		// positive w_c, -up_c for a negative one.
		pos, neg := s.lo[c], -s.up[c]
		want := 1.0
		switch {
		case math.IsInf(pos, -1) && math.IsInf(neg, -1):
			continue
		case neg > pos:
			want = -1
		}
		if want*wc > 0 {
			continue
		}
		y, a := s.tiltMember(c, want)
		if y == nil {
			continue
		}
		undo = append(undo, saved{y, *y})
		// Steps of |w_c| / |a|, doubled until the exact sum turns: the
		// new entry's own rounding is far below the first.
		step := want * math.Abs(wc) / a
		for try := 0; try < 8 && want*wc <= 0; try++ {
			*y += step
			step *= 2
			wc = s.farkasComponent(c)
		}
	}
	if len(undo) == 0 {
		return
	}
	if ok, _ := s.farkasHolds(); !ok {
		for i := len(undo) - 1; i >= 0; i-- {
			*undo[i].y = undo[i].v
		}
	}
}

// farkasComponent is component c of w = A'y + Aeq'yeq for the certificate
// in the Result, summed in twice the working precision as farkasHolds
// sums it.
func (s *Solver) farkasComponent(c int) float64 {
	var e vec.ExactSum
	r := &s.res
	for j, y := range r.FarkasA {
		if y != 0 && s.a[j][c] != 0 {
			e.AddProduct(y, s.a[j][c])
		}
	}
	for j, y := range r.FarkasEq {
		if y != 0 && s.aeq[j][c] != 0 {
			e.AddProduct(y, s.aeq[j][c])
		}
	}
	return e.Value()
}

// tiltMember returns the entry of the certificate in the Result whose
// term on coordinate c is largest among those that can move w_c towards
// the sign want (a row's entry only grows: its a_j[c] must have that
// sign; an equality's moves either way), and its coefficient on c: a
// change dy of the entry moves w_c by dy a. nil if there is none.
func (s *Solver) tiltMember(c int, want float64) (y *float64, a float64) {
	r := &s.res
	best := 0.0
	for j, v := range r.FarkasA {
		if v > 0 && want*s.a[j][c] > 0 && v*math.Abs(s.a[j][c]) > best {
			y, a, best = &r.FarkasA[j], s.a[j][c], v*math.Abs(s.a[j][c])
		}
	}
	for j, v := range r.FarkasEq {
		if v != 0 && s.aeq[j][c] != 0 && math.Abs(v*s.aeq[j][c]) > best {
			y, a, best = &r.FarkasEq[j], s.aeq[j][c], math.Abs(v*s.aeq[j][c])
		}
	}
	return y, a
}

// farkasTol is the relative size, against the terms it is made of, of a
// component of w = A'y + Aeq'yeq on a coordinate without the bound its
// sign needs that farkasHolds counts as zero, and the margin it requires
// when there is none: an order below the 1e-12 an independent check allows,
// above the rounding of computing w in float64.
const farkasTol = 1e-13

// farkasMargin is the margin, relative to the terms it is made of, that
// farkasHolds requires when such a component is not exactly zero: then
// the direction proves infeasibility only up to that component, and an
// independent check (qpgen.CheckFarkas) asks for a margin above 1e-12 of
// the terms; farkasHolds asks for an order more, as farkasTol asks for an
// order less of the component. Equalities 1e-12 apart contradicted by a
// row have a relative margin of 1e-13: float64 does not decide them.
const farkasMargin = 1e-11

// farkasHolds checks the certificate in the Result in the caller's data:
// y >= 0 on the rows, and with w = A'y + Aeq'yeq, b'y + beq'yeq below the
// minimum of w'x over the box, every component of w on a coordinate
// without the bound its sign needs zero to farkasTol, by a margin above
// farkasTol of its terms, or above farkasMargin if such a component is
// not exactly zero. w is summed in twice the working precision (an exact
// certificate of dyadic data has w = 0 exactly). O(n) per nonzero of y.
// consistent reports a direction that fails only by its margin: A'y
// vanishes where it must but b'y is not below the box's minimum by more
// than farkasTol, so the rows are consistent along it (a dependent member
// at a degenerate vertex). A margin between the two tolerances is neither.
// For consistent, a component of A'y vanishes also when it is within
// farkasTol of the largest terms of any component.
func (s *Solver) farkasHolds() (ok, consistent bool) {
	r := &s.res
	w, lo, ws := s.t, s.xTry, s.r
	clear(w)
	clear(lo)
	clear(ws)
	rhs, size := 0.0, 0.0
	add := func(rows [][]float64, b, y []float64, signed bool) bool {
		for j, yj := range y {
			if yj == 0 {
				continue
			}
			if signed && yj < 0 || math.IsNaN(yj) || math.IsInf(yj, 0) {
				return false
			}
			for c, a := range rows[j] {
				if a == 0 {
					continue
				}
				e := vec.ExactSum{Hi: w[c], Lo: lo[c]}
				e.AddProduct(yj, a)
				w[c], lo[c] = e.Hi, e.Lo
				ws[c] += math.Abs(yj * a)
			}
			rhs += yj * b[j]
			size += math.Abs(yj * b[j])
		}
		return true
	}
	if !add(s.a, s.bOrig, r.FarkasA, true) || !add(s.aeq, s.beqOrig, r.FarkasEq, false) {
		return false, false
	}
	wsMax := vec.MaxAbs(ws)
	minBox, approx, loose := 0.0, false, false
	resid, wsSum := 0.0, 0.0 // sum |w_c| counted as zero; sum of all terms
	for _, v := range ws {
		wsSum += v
	}
	for c, wc := range w {
		wc += lo[c]
		var bound float64
		switch {
		case wc > 0:
			bound = s.lo[c]
		case wc < 0:
			bound = s.up[c]
		default:
			continue
		}
		if math.IsInf(bound, 0) {
			if math.Abs(wc) > farkasTol*ws[c] {
				if math.Abs(wc) > farkasTol*wsMax {
					return false, false
				}
				// Zero against the direction's largest terms, not
				// against its own (entries of y at rounding that
				// alone touch a coordinate): no certificate, but no
				// sign that the rows are not consistent along it.
				loose = true
			}
			approx = true
			resid += math.Abs(wc)
			continue
		}
		minBox += wc * bound
		size += math.Abs(wc * bound)
	}
	margin := minBox - rhs
	switch {
	case loose:
		return false, margin <= farkasTol*size
	case approx:
		// w counted as zero proves only that no x with ||x||_inf below
		// margin / resid satisfies the rows: the system may be feasible
		// beyond, as Aeq rows (1, 1) and (1, 1 + 1e-14) with beq
		// (1, 1 + 1e-9) are at |x| = 1e5, which farkasTol alone called
		// infeasible. Beyond that radius y'A x is evaluated with a
		// rounding of at least resid times it only when resid is within
		// the rounding of the direction's own terms: then float64 cannot
		// tell such an x from an infeasible one.
		// Up to exactFarkasMaxN such a certificate must also hold
		// exactly on its support (farkasExact), which no certificate of
		// a feasible problem does.
		rounded := resid <= vec.DotErrorBound(len(r.FarkasA)+len(r.FarkasEq)+len(w))*wsSum
		return margin > farkasMargin*size && rounded && s.farkasExact(), margin <= farkasTol*size
	}
	ok = margin > farkasTol*size
	return ok, !ok
}

// refineFarkas makes the null direction p (s.dir over the working set, last
// member fixed at 1) null in the caller's variables, not only through L:
// the residual rho = sum_i p_i/sigma_i ahat_i is removed in the least-squares
// sense by the other members, G delta = -N' L^{-1} rho (ahat_i = sigma_i L
// n_i), three times. Without it, A'y misses zero on unbounded coordinates
// by the error of the transformation, which grows with n and cond(H).
func (s *Solver) refineFarkas() {
	k := len(s.ws)
	p := s.dir[:k]
	s.refineNull(p)
	for i, c := range s.ws[:k-1] {
		if !c.isEquality() && p[i] < 0 {
			p[i] = 0
		}
	}
}

// polishFarkas finishes the certificate where it matters: on the
// coordinates U that no bound of the working set covers, A'y + Aeq'yeq must
// vanish (a bound absorbs any value on its own coordinate). With the rows
// and equalities R among the members other than the last (whose entry stays
// fixed), it solves the least-squares problem
//
//	min || sum_{i in R} delta_i ahat_i|_U + w_U ||,  w = sum_k p_k/sigma_k ahat_k,
//
// weighted (farkasWeights), by its normal equations in the caller's
// variables, twice: refineFarkas works through L and stalls at its
// rounding, which grows with cond(H); this does not. It allocates its
// workspace (O(|R|^2 + |R| n)): only infeasible answers come here.
func (s *Solver) polishFarkas() {
	k := len(s.ws)
	var R []int
	for i, c := range s.ws[:k-1] {
		if !c.isBound() {
			R = append(R, i)
		}
	}
	if len(R) == 0 {
		return
	}
	p := s.dir[:k]
	wt := s.farkasWeights(p)
	if wt == nil {
		return
	}
	rows := s.farkasRows(R, wt)
	var chol mat.Cholesky
	if !factorGram(rows, &chol) {
		return
	}
	w, rhs := make([]float64, s.n), make([]float64, len(R))
	for round := 0; round < 2; round++ {
		clear(w)
		for i, c := range s.ws {
			s.addNormal(p[i]/s.sigma[i], c, w)
		}
		for c := range w {
			if s.boundIn[c] != 0 {
				w[c] = 0
			}
			w[c] *= wt[c]
		}
		for a := range R {
			rhs[a] = -vec.Dot(rows.Row(a), w)
		}
		chol.Solve(rhs, rhs)
		for a, i := range R {
			p[i] += rhs[a] * s.sigma[i]
		}
	}
	for i, c := range s.ws[:k-1] {
		if !c.isEquality() && p[i] < 0 {
			p[i] = 0
		}
	}
}

// farkasWeights returns the weight of each coordinate in polishFarkas's
// least-squares problem, the inverse of the size of the terms that make up
// its component of w = sum_k p_k/sigma_k ahat_k (as a checker measures
// it): with column scales far apart, the plain 2-norm leaves the small
// columns relatively inexact. It returns nil when w has no terms.
func (s *Solver) farkasWeights(p []float64) []float64 {
	wt := make([]float64, s.n)
	for i, c := range s.ws {
		clear(s.t)
		s.addNormal(p[i]/s.sigma[i], c, s.t)
		for c, v := range s.t {
			wt[c] += math.Abs(v)
		}
	}
	top := vec.MaxAbs(wt)
	for c, v := range wt {
		wt[c] = 1 / max(v, 0x1p-52*top)
	}
	if top == 0 {
		return nil
	}
	return wt
}

// farkasRows returns, for each member i of R, its unit row ahat_i on the
// coordinates no bound of the working set covers (zero on the others),
// weighted by wt.
func (s *Solver) farkasRows(R []int, wt []float64) *mat.Dense {
	rows := mat.NewDense(len(R), s.n)
	for a, i := range R {
		dst := rows.Row(a)
		s.addNormal(1, s.ws[i], dst)
		for c := range dst {
			if s.boundIn[c] != 0 {
				dst[c] = 0
			}
		}
		for c := range wt {
			dst[c] *= wt[c]
		}
	}
	return rows
}

// factorGram factors rows' Gram matrix, its diagonal raised by 1e-15 of
// the largest entry, into chol, and reports whether it is positive
// definite.
func factorGram(rows *mat.Dense, chol *mat.Cholesky) bool {
	k := rows.Rows
	rr := mat.NewDense(k, k)
	trace := 0.0
	for a := 0; a < k; a++ {
		for b := 0; b <= a; b++ {
			v := vec.Dot(rows.Row(a), rows.Row(b))
			rr.Row(a)[b], rr.Row(b)[a] = v, v
		}
		trace = max(trace, rr.Row(a)[a])
	}
	rr.AddDiag(1e-15 * trace)
	return chol.Factor(rr) == nil
}
