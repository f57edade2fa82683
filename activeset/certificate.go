package activeset

import (
	"math"

	"github.com/softpen/softpen/mat"

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
	for i, c := range s.ws {
		l := s.lam[i] / s.sigma[i]
		switch c.kind {
		case kindRow:
			s.res.Lambda[c.i] = l * s.ainv[c.i]
		case kindEq:
			s.res.Nu[c.i] = l * s.eqinv[c.i]
		case kindKink:
			s.res.W[c.i] = l
		case kindLower:
			s.res.Z[c.i] = -l
		default:
			s.res.Z[c.i] = l
		}
	}
}

// certify fills the Result with x, the multipliers and their certificate,
// all computed from the caller's data:
//
//	objective  F(x) = 1/2 x'Hx + c'x + l1 ||x||_1
//	dual       g = -1/2 q'H^{-1}q - b'lambda - beq'nu - sum_i z_i bound_i,
//	           q = c + A'lambda + Aeq'nu + z + w, bound_i = up_i if z_i > 0 else lo_i
//
// g is the minimum over x of the Lagrangian (l1 |x_i| >= w_i x_i for
// |w_i| <= l1), so g <= F* for any lambda >= 0, z of the bound signs and
// |w| <= l1, and Gap = F(x) - g bounds F(x) - F* for a
// feasible x (MaxViolation says how feasible x is).
func (s *Solver) certify() {
	s.multipliers()
	r := &s.res
	// x leaves the loop within PrimalTol of its bounds; the answer lies in
	// the box exactly, so that only rows and equalities can be violated.
	for i, v := range s.x {
		w := min(max(v, s.lo[i]), s.up[i])
		if s.l1 > 0 && s.kinkIn[i] {
			w = 0 // held at its kink
		}
		if w != v {
			s.x[i], s.hxOK = w, false
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
	// q = c + A'lambda + Aeq'nu + z + w in s.t (cEff holds the capped w);
	// stationarity Hx + q.
	copy(s.t, s.cEff)
	lin, linAbs, lamAbs := 0.0, 0.0, 0.0
	for i, c := range s.ws {
		l := s.lam[i] / s.sigma[i]
		if l == 0 {
			continue
		}
		s.addNormal(l, c, s.t)
		lin += l * s.rhs(c)
		linAbs += math.Abs(l * s.rhs(c))
		lamAbs += math.Abs(l)
	}
	vec.Axpy(1, s.t, s.r)
	r.Stationarity = normInf(s.r)
	stat2 := math.Sqrt(vec.Dot(s.r, s.r))
	s.chol.SolveL(s.r, s.t)
	r.Dual = -0.5*vec.Dot(s.r, s.r) - lin
	s.dualError(r, lamAbs, linAbs, stat2)
	r.Gap = r.Objective - r.Dual
	s.violation()
}

// dualError sets DualError and DualResidualError: the rounding Dual takes
// from its sum q = cEff + sum lambda normal (lamAbs = sum |lambda| over
// the members, linAbs = sum |lambda rhs|, stat2 = ||Hx + q||_2). An error
// d in q moves Dual by H^{-1}q'd to first order, and H^{-1}q = -x +
// H^{-1}(Hx + q); each entry of d is within sqrt(k+1) eps (2 for the
// products) of u = |cEff| + sum |lambda| |normal|. So |x|'u, and the
// residual's share ||u|| stat2 ||H^{-1}||, the caller's to scale. |x|'u is
// bounded first by |x|'|cEff| + ||x|| lamAbs (unit normals); only when
// that bound is not negligible against Dual's own rounding (it is with
// moderate multipliers) are the members' |normal|'|x| summed one by one,
// which is tight where the bound is not (unscaled features: large entries
// of a row meet small entries of x).
func (s *Solver) dualError(r *Result, lamAbs, linAbs, stat2 float64) {
	e := 2 * math.Sqrt(float64(len(s.ws)+1)) * 0x1p-53
	xc, xx := 0.0, 0.0
	for i, v := range s.x {
		xc += math.Abs(v * s.cEff[i])
		xx += v * v
	}
	xu := xc + math.Sqrt(xx)*lamAbs
	if e*xu > 0x1p-40*(1+math.Abs(r.Dual)) {
		xu = xc
		for i, c := range s.ws {
			if l := s.lam[i] / s.sigma[i]; l != 0 {
				xu += math.Abs(l) * s.absNormalDot(c, s.x)
			}
		}
	}
	r.DualError = e * (xu + linAbs)
	r.DualResidualError = e * (math.Sqrt(vec.Dot(s.cEff, s.cEff)) + lamAbs) * stat2
}

// violation sets MaxViolation, SumViolation and Complementarity over every
// constraint. A row outside the working set (multiplier 0) whose stored
// violation plus the drift since (mostViolated's bound) is below zero by
// more than their rounding is satisfied at x and adds nothing to any of
// them: it is skipped. After the last scan of mostViolated that is most
// rows (the large QP, m = 1e5: a pass over 80 MB of rows, 7 ms).
func (s *Solver) violation() {
	r := &s.res
	viol, sum, comp := 0.0, 0.0, 0.0
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	xInf := normInf(s.x)
	// As in mostViolated: account for x's moves since the last scan (the
	// answer's clipping to its bounds, refinement).
	s.measureDrift(xInf)
	// The stored a_j'x/||a_j|| - b_j/||a_j|| is within
	// gamma_{n+2} (||x||_2 + |b_j|/||a_j||) of its value, the drift within
	// gamma_{n+2} (1 + ||x||_inf) of its value (path <= 1 + ||x||_inf):
	// twice both is a safe margin.
	g := 2 * vec.DotErrorBound(s.n+2)
	driftErr := g * (1 + xInf)
	r.Feasible = true
	for j := 0; j < s.m; j++ {
		if !s.rowIn[j] && s.ainv[j] > 0 {
			if bound := s.violationBound(j); bound < -(driftErr + g*(xn+math.Abs(s.b[j]))) {
				continue
			}
		}
		// a_j'x - b_j on the caller's scale.
		res := s.rowDot(j, s.x) - s.bOrig[j]
		viol = max(viol, res)
		if res > 0 {
			sum += res
			r.Feasible = r.Feasible && WithinRounding(res*s.ainv[j], xn, s.bOrig[j]*s.ainv[j], s.n)
		}
		comp = max(comp, math.Abs(r.Lambda[j]*res))
	}
	for i := 0; i < s.meq; i++ {
		res := math.Abs(vec.Dot(s.aeq[i], s.x) - s.beqOrig[i])
		viol = max(viol, res)
		sum += res
		r.Feasible = r.Feasible && WithinRounding(res*s.eqinv[i], xn, s.beqOrig[i]*s.eqinv[i], s.n)
	}
	r.SumViolation = sum
	for i, x := range s.x {
		viol = max(viol, max(x-s.up[i], s.lo[i]-x))
		switch z := r.Z[i]; {
		case z > 0:
			comp = max(comp, math.Abs(z*(s.up[i]-x)))
		case z < 0:
			comp = max(comp, math.Abs(z*(x-s.lo[i])))
		}
	}
	if s.l1 > 0 {
		// w_i x_i = l1 |x_i|: the subgradient matches x's sign.
		for i, x := range s.x {
			comp = max(comp, math.Abs(s.l1*math.Abs(x)-r.W[i]*x))
		}
	}
	r.MaxViolation, r.Complementarity = viol, comp
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
	g := vec.DotErrorBound(n+1) + 16*math.Sqrt(float64(n+1))*0x1p-52
	return v <= g*(xNorm+math.Abs(b))
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
	s.violation()
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
	big := math.Max(normInf(r.FarkasA), normInf(r.FarkasEq))
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
	s.farkasBuilt = true
}

// farkasTol is the relative size, against the terms it is made of, of a
// component of w = A'y + Aeq'yeq on a coordinate without the bound its
// sign needs that farkasHolds counts as zero, and the margin it requires
// when there is one: an order below the 1e-12 an independent check allows,
// above the rounding of computing w in float64.
const farkasTol = 1e-13

// farkasHolds checks the certificate in the Result in the caller's data:
// y >= 0 on the rows, and with w = A'y + Aeq'yeq, b'y + beq'yeq below the
// minimum of w'x over the box, every component of w on a coordinate
// without the bound its sign needs zero to farkasTol. O(n) per nonzero of y.
// consistent reports a direction that fails only by its margin: A'y
// vanishes where it must but b'y is not below the box's minimum, so the
// rows are consistent along it (a dependent member at a degenerate vertex).
func (s *Solver) farkasHolds() (ok, consistent bool) {
	r := &s.res
	w, ws := s.t, s.r
	clear(w)
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
				w[c] += yj * a
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
	minBox := 0.0
	for c, wc := range w {
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
				return false, false
			}
			continue
		}
		minBox += wc * bound
		size += math.Abs(wc * bound)
	}
	ok = minBox-rhs > farkasTol*size
	return ok, !ok
}

// refineFarkas makes the null direction p (s.dir over the working set, last
// member fixed at 1) null in the caller's variables, not only through L:
// the residual rho = sum_i p_i/sigma_i ahat_i is removed in the least-squares
// sense by the other members, G delta = -N' L^{-1} rho (ahat_i = sigma_i L
// n_i), three times. Without it, A'y misses zero on unbounded coordinates by the
// error of the transformation (1e-9 seen at n = 300).
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

// refineNull refines a null direction p of the working set (last entry
// fixed) by three rounds of iterative refinement in the caller's variables
// (see refineFarkas).
func (s *Solver) refineNull(p []float64) {
	k := len(s.ws)
	q := k - 1
	if q == 0 {
		return
	}
	d := s.lamTry[:q]
	for round := 0; round < 3; round++ {
		clear(s.r)
		for i, c := range s.ws {
			s.addNormal(p[i]/s.sigma[i], c, s.r)
		}
		s.chol.SolveL(s.t, s.r)
		for i := range d {
			d[i] = -s.normals.dot(i, s.t)
		}
		s.fac.solve(d, q)
		vec.Axpy(1, d, p[:q])
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
// by its normal equations in the caller's variables, twice: refineFarkas
// works through L and stalls at its rounding (1e-11 on n = 300), this does
// not. It allocates its workspace (O(|R|^2 + |R| n)): only infeasible
// answers come here.
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
	covered := func(i int) bool { return s.boundIn[i] != 0 }
	rowU := func(i int, dst []float64) {
		clear(dst)
		s.addNormal(1, s.ws[i], dst)
		for c := range dst {
			if covered(c) {
				dst[c] = 0
			}
		}
	}
	// Each coordinate is weighted by the inverse of the size of the terms
	// that make up its component of w (as a checker measures it): with
	// column scales far apart, the plain 2-norm leaves the small columns
	// relatively inexact.
	p := s.dir[:k]
	wt := make([]float64, s.n)
	for i, c := range s.ws {
		clear(s.t)
		s.addNormal(p[i]/s.sigma[i], c, s.t)
		for c, v := range s.t {
			wt[c] += math.Abs(v)
		}
	}
	top := normInf(wt)
	for c, v := range wt {
		wt[c] = 1 / math.Max(v, 0x1p-52*top)
	}
	if top == 0 {
		return
	}
	rows := mat.NewDense(len(R), s.n)
	for a, i := range R {
		rowU(i, rows.Row(a))
		for c := range wt {
			rows.Row(a)[c] *= wt[c]
		}
	}
	rr := mat.NewDense(len(R), len(R))
	trace := 0.0
	for a := range R {
		for b := 0; b <= a; b++ {
			v := vec.Dot(rows.Row(a), rows.Row(b))
			rr.Row(a)[b], rr.Row(b)[a] = v, v
		}
		trace = max(trace, rr.Row(a)[a])
	}
	rr.AddDiag(1e-15 * trace)
	var chol mat.Cholesky
	if chol.Factor(rr) != nil {
		return
	}
	w, rhs := make([]float64, s.n), make([]float64, len(R))
	for round := 0; round < 2; round++ {
		clear(w)
		for i, c := range s.ws {
			s.addNormal(p[i]/s.sigma[i], c, w)
		}
		for c := range w {
			if covered(c) {
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
