package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// raiseWeight raises the penalty weight (Result.PenaltyWeight) of a solved
// answer to what the multipliers would be, to first order, at the point
// nearest x where the members, the rows x violates in exact arithmetic
// (the exact list) and those it meets within rounding all hold.
//
// The distance bound sqrt(2 gap/mu) that package solver derives from the
// exact penalty's gap holds for x* only once the weight is at least
// ||lambda*||_inf. A row violated within rounding is left out of the
// working set, with multiplier 0, yet x* may hold it at equality with a
// positive multiplier: the unconstrained optimum just outside three rows
// (b scaled by 1 - 1e-12) gave working-set multipliers of 1e-11 against
// lambda* of 1.7e-8, and ||x - x*|| = 1.6e-12 above a bound of 1.0e-12
// (TestWeaklyActiveRowWeight). Rows at narrow angles to one another ask
// together for far more than each alone: four rows that each hold within
// rounding at the unconstrained optimum met at an x* 9.1e-13 away with
// multipliers up to 8.6e-10, and each row's own multiplier gave a bound
// of 2.8e-13 (TestWeaklyActiveRowsJointly). At a vertex the rows cannot
// all hold beside every member, and x* leaves some
// (TestWeaklyActiveVertexWeight); x clipped to its box by certify is off
// its members' equalities (TestClippedAnswerWeight).
//
// The constraints held beside the members are listHeld's: the exact and
// near lists' rows and the bounds x meets. With at most
// exactFarkasMaxSupport members, localWeight takes the multipliers of the
// nearest point with the members free to leave, their residuals counted;
// with more (and fewer than n), faceWeight keeps the members at equality
// and takes the rows' multipliers off the members' span. The weight
// becomes twice the largest row or equality multiplier so obtained, on the
// caller's scale, when that is larger; it costs the gap only the weight
// times the violations within rounding. Rows in the members' span to
// rounding are nearlyImpliedRows' (their distance from x* is unbounded
// unless the members imply them), and a vertex of more than
// exactFarkasMaxSupport members is vertexCuts' alone.
//
// It sums the certificate's terms again (exactTerms) when the larger weight
// makes their residuals' rounding weigh in the gap (violation). It runs
// only when the exact list is not empty or x was clipped, in O((n^2 +
// k n) r + n r^2) for r <= spanRows constraints held, and does not
// allocate but under Options.OneShot, once (spanWork).
func (s *Solver) raiseWeight() {
	k, n := len(s.ws), s.n
	if s.exact.n == 0 && !s.clipped {
		return
	}
	var w float64
	switch {
	case k <= exactFarkasMaxSupport:
		w = s.localWeight()
	case k < n:
		w = s.faceWeight()
	default:
		return
	}
	if !(w > s.res.weight) {
		return // also for a NaN weight, which stays NaN
	}
	s.res.weight = w
	g := &s.res.Rounding
	if g.TermsError+w*g.ViolationError > 0x1p-46*(1+math.Abs(s.res.Objective)) {
		s.exactTerms()
	}
}

// faceWeight is raiseWeight's weight with fewer members than variables,
// the members held at equality. In v = L'x (H = L L', the members' unit
// normals N), a held constraint of norm factor sigma_j has the residual
// rho_j = e_j/sigma_j along its unit normal n_j = N y_j + u_j, u_j its
// part off the members' span: the rows' multipliers are
// spanMultipliers', and the members' change by Y mu.
func (s *Solver) faceWeight() float64 {
	k, n := len(s.ws), s.n
	s.spanWork(nil)
	var rows [spanRows]int32 // the row of column a, -1 for a bound
	var sigma, mu [spanRows]float64
	r := 0
	s.listHeld(func(c constraint, resid float64) {
		if r == spanRows {
			return
		}
		u := s.spanU[r*n : (r+1)*n]
		if k == 0 {
			sigma[r] = s.normal(c, 0)
			copy(u, s.normals.full(0))
			s.normals.remove(0, 1)
		} else {
			if near, _, _ := s.constraintSpan(c); near == inSpan {
				return
			}
			sigma[r] = s.sigma[k]
			copy(u, s.t)
			copy(s.spanY[r*k:(r+1)*k], s.lamTry[:k])
		}
		mu[r] = resid / sigma[r]
		rows[r] = -1
		if c.kind == kindRow {
			rows[r] = c.i
		}
		r++
	})
	s.spanMultipliers(mu[:r], r)
	rowMax := 0.0 // the rows' own multipliers, on the caller's scale
	for a, j := range rows[:r] {
		if j >= 0 {
			rowMax = max(rowMax, math.Abs(mu[a])/sigma[a]*s.ainv[j])
		}
	}
	w := 2 * rowMax
	for i, c := range s.ws {
		shift := 0.0 // (Y mu)_i
		for a := range r {
			shift += s.spanY[a*k+i] * mu[a]
		}
		l := (math.Abs(s.lam[i]) + math.Abs(shift)) / s.sigma[i]
		switch c.kind {
		case kindRow:
			w = max(w, 2*l*s.ainv[c.i])
		case kindEq:
			w = max(w, 2*l*s.eqinv[c.i])
		}
	}
	return w
}

// listHeld calls f with each constraint outside the working set that
// the point near x where all hold may hold at equality, and its residual
// at x on the unit-row scale: the rows of the exact and near lists, and
// the bounds that x meets to within a few ulps (x clipped to its box, a
// bound the members do not hold).
func (s *Solver) listHeld(f func(c constraint, resid float64)) {
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	for _, l := range [2]*rowList{&s.exact, &s.near} {
		for i, j := range l.row[:l.n] {
			f(constraint{kindRow, j}, l.val[i]*0x1p-52*(xn+math.Abs(s.b[j])))
		}
	}
	if !s.boxed {
		return
	}
	for i, x := range s.x {
		if s.boundIn[i] != 0 {
			continue
		}
		lo, up := s.lo[i], s.up[i]
		switch {
		case !math.IsInf(lo, 0) && lo-x >= -0x1p-50*(math.Abs(x)+math.Abs(lo)):
			f(constraint{kindLower, int32(i)}, lo-x)
		case !math.IsInf(up, 0) && x-up >= -0x1p-50*(math.Abs(x)+math.Abs(up)):
			f(constraint{kindUpper, int32(i)}, x-up)
		}
	}
}

// localWeight is raiseWeight's weight with at most exactFarkasMaxSupport
// members, which may leave: at a vertex the rows listed cannot be held
// beside every member, and x* leaves some; and x clipped to its box is off
// the members' equalities, by more than rounding when a member crosses
// the clipped bound at a narrow angle. With the members' and the
// rows' unit normals the columns of M (an equality's, or a fixed
// variable's, twice, with both signs: its multiplier is the difference of
// the two), G = M'M, the multipliers of the nearest point to v_u where all
// of them hold (the problem near x, to first order) are the minimiser mu
// >= 0 of 1/2 mu'G mu - h'mu, h_a = (M'N lambda)_a + r_a, r_a the
// residual at x on the unit normal (rows listed: their exact residuals;
// members: theirs, zero but for rounding); mu gives lambda back when no
// row is listed. 0 (no raise) with a held kink among the members.
func (s *Solver) localWeight() float64 {
	k, n := len(s.ws), s.n
	s.spanWork(nil)
	cols := s.spanU // column a of M at a*n
	var sigma, h [nnlsMax]float64
	var rows [nnlsMax]int32            // the row of a listed row's column
	var neg [exactFarkasMaxSupport]int // an equality member's negated column
	for i, c := range s.ws {
		if c.kind == kindKink {
			return 0
		}
		copy(cols[i*n:(i+1)*n], s.normals.full(i))
		sigma[i] = s.sigma[i]
		h[i] = s.exactMemberResidual(c) / sigma[i]
	}
	d := k
	s.listHeld(func(c constraint, resid float64) {
		if d == k+spanRows {
			return
		}
		sigma[d] = s.normal(c, k)
		copy(cols[d*n:(d+1)*n], s.normals.full(k))
		s.normals.remove(k, k+1)
		h[d] = resid / sigma[d]
		rows[d] = -1
		if c.kind == kindRow {
			rows[d] = c.i
		}
		d++
	})
	listed := d
	for i, c := range s.ws {
		if c.isEquality() {
			for t := range n {
				cols[d*n+t] = -cols[i*n+t]
			}
			h[d], neg[i] = -h[i], d
			d++
		}
	}
	var g [nnlsMax * nnlsMax]float64
	columnGram(&g, cols, d, n)
	for a := range d {
		for i := range k {
			h[a] += g[a*nnlsMax+i] * s.lam[i]
		}
	}
	nnls(&g, h[:d], d)
	w := 0.0
	for i, c := range s.ws {
		switch c.kind {
		case kindRow:
			w = max(w, 2*h[i]/sigma[i]*s.ainv[c.i])
		case kindEq:
			w = max(w, 2*math.Abs(h[i]-h[neg[i]])/sigma[i]*s.eqinv[c.i])
		}
	}
	for a := k; a < listed; a++ {
		if rows[a] >= 0 {
			w = max(w, 2*h[a]/sigma[a]*s.ainv[rows[a]])
		}
	}
	return w
}

// spanFloats is the length of spanWork's storage for n variables.
func spanFloats(n int) int { return nnlsMax*n + spanRows*(n+1) }

// spanWork sizes s.spanU and s.spanY from fl, or from an allocation of
// their own when fl is nil and they have none (Options.OneShot, whose
// solves raise the weight rarely). Their entries are written before they
// are read: the storage needs no clearing.
func (s *Solver) spanWork(fl *slab[float64]) {
	if s.spanU != nil {
		return
	}
	n := s.n
	if fl == nil {
		f := slab[float64](make([]float64, spanFloats(n)))
		fl = &f
	}
	s.spanU, s.spanY = fl.take(nnlsMax*n), fl.take(spanRows*(n+1))
}

// spanRows is how many constraints raiseWeight holds beside the members:
// the rows of the exact list and of the near list, and bounds at x.
const spanRows = 2*exactRows + exactFarkasMaxSupport

// spanMultipliers overwrites rho with the multipliers mu >= 0 of the rows
// of s.spanU in the least move Delta (in v) that holds the members and
// brings each row j's residual rho_j (on its unit normal) to at most 0:
// min 1/2 ||Delta||^2 subject to rho_j + u_j'Delta <= 0, whose dual is
// min 1/2 mu'S mu - rho'mu over mu >= 0, S = U'U (nnls). A row of the
// near list (rho < 0) takes a multiplier only if the move towards the
// others would violate it.
func (s *Solver) spanMultipliers(rho []float64, r int) {
	var sm [nnlsMax * nnlsMax]float64
	columnGram(&sm, s.spanU, r, s.n)
	nnls(&sm, rho, r)
}

// columnGram sets g (row stride nnlsMax) to the Gram matrix of the d
// columns of length n stored one after another in cols.
func columnGram(g *[nnlsMax * nnlsMax]float64, cols []float64, d, n int) {
	for a := range d {
		for b := 0; b <= a; b++ {
			v := vec.Dot(cols[a*n:(a+1)*n], cols[b*n:(b+1)*n])
			g[a*nnlsMax+b], g[b*nnlsMax+a] = v, v
		}
	}
}

// nnlsMax is the most unknowns nnls takes: the rows raiseWeight lists and
// the members of a vertex it reweighs, its equalities twice.
const nnlsMax = spanRows + 2*exactFarkasMaxSupport

// nnls overwrites h[:d] with the minimiser mu >= 0 of 1/2 mu'G mu - h'mu,
// G symmetric positive semidefinite (d x d, row stride nnlsMax), by
// Lawson and Hanson's active-set method (Solving Least Squares Problems,
// 1974, ch. 23). An unknown whose column is in the span of the others in
// the set to rounding (gramSolve) leaves it for good, at 0.
func nnls(g *[nnlsMax * nnlsMax]float64, h []float64, d int) {
	scale := 0.0
	for _, v := range h[:d] {
		scale = max(scale, math.Abs(v))
	}
	var mu, z [nnlsMax]float64
	var in, gone [nnlsMax]bool
	for range 3*d + 3 {
		// The unknown whose rise would lower the objective most enters.
		enter, best := -1, 0x1p-40*scale
		for j := range d {
			if in[j] || gone[j] {
				continue
			}
			w := h[j]
			for b := range d {
				w -= g[j*nnlsMax+b] * mu[b]
			}
			if w > best {
				enter, best = j, w
			}
		}
		if enter < 0 {
			break
		}
		in[enter] = true
		if !gramSolve(g, h, in[:d], z[:d]) {
			in[enter] = false
			if !exchange(g, h, mu[:d], in[:d], enter) {
				gone[enter] = true
				continue
			}
		}
		// mu moves towards the minimiser z on the set, and an unknown
		// that reaches 0 on the way leaves it, until z >= 0.
		for range d + 1 {
			if !gramSolve(g, h, in[:d], z[:d]) {
				break // not reached: the set is independent
			}
			alpha, hit := 1.0, -1
			for j := range d {
				if in[j] && z[j] <= 0 {
					if t := mu[j] / (mu[j] - z[j]); t < alpha {
						alpha, hit = t, j
					}
				}
			}
			for j := range d {
				if in[j] {
					mu[j] += alpha * (z[j] - mu[j])
				}
			}
			if hit < 0 {
				break
			}
			for j := range d {
				if in[j] && mu[j] <= 0 {
					in[j], mu[j] = false, 0
				}
			}
			in[hit], mu[hit] = false, 0
		}
	}
	copy(h[:d], mu[:d])
}

// exchange is nnls's step for an unknown e whose column is in the span of
// those of the set P, to rounding (the rows of a vertex with one more):
// with g_e = G_P y, mu moving along d = (d_e = 1, d_P = -y) keeps G mu
// and lowers the objective at the rate h_e - h_P'y. If that is positive,
// mu moves along d until the first unknown of P reaches 0, which leaves P
// for e, and exchange returns true; false (nothing done) otherwise,
// including when no unknown of P falls (the rows hold nowhere near x, to
// first order).
func exchange(g *[nnlsMax * nnlsMax]float64, h, mu []float64, in []bool, e int) bool {
	d := len(mu)
	var col, y [nnlsMax]float64
	for a := range d {
		col[a] = g[a*nnlsMax+e]
	}
	if !gramSolve(g, col[:d], in, y[:d]) {
		return false
	}
	rate := h[e]
	for a := range d {
		rate -= h[a] * y[a]
	}
	if !(rate > 0) {
		return false
	}
	t, hit := math.Inf(1), -1
	for a := range d {
		if in[a] && y[a] > 0 {
			if r := mu[a] / y[a]; r < t {
				t, hit = r, a
			}
		}
	}
	if hit < 0 {
		return false
	}
	for a := range d {
		if in[a] {
			mu[a] -= t * y[a]
		}
	}
	mu[e] += t
	in[hit], mu[hit], in[e] = false, 0, true
	return true
}

// gramSolve solves G_PP z_P = h_P for the unknowns P marked in, by
// Cholesky, with z = 0 outside P; false if a pivot (a column's squared
// distance from the span of the columns before it) is below indepRatio^2
// of its own squared length: that column is in their span to rounding.
func gramSolve(g *[nnlsMax * nnlsMax]float64, h []float64, in []bool, z []float64) bool {
	d := len(z)
	var l [nnlsMax * nnlsMax]float64 // the factor of G_PP, row-major
	for a := range d {
		if !in[a] {
			continue
		}
		for b := 0; b <= a; b++ {
			if !in[b] {
				continue
			}
			v := g[a*nnlsMax+b]
			for c := range b {
				v -= l[a*nnlsMax+c] * l[b*nnlsMax+c]
			}
			if b < a {
				l[a*nnlsMax+b] = v / l[b*nnlsMax+b]
			} else if !(v > indepRatio*indepRatio*g[a*nnlsMax+a]) {
				return false
			} else {
				l[a*nnlsMax+a] = math.Sqrt(v)
			}
		}
	}
	for a := range d { // L y = h
		z[a] = 0
		if in[a] {
			z[a] = h[a]
			for c := range a {
				z[a] -= l[a*nnlsMax+c] * z[c]
			}
			z[a] /= l[a*nnlsMax+a]
		}
	}
	for a := d - 1; a >= 0; a-- { // L' z = y
		if in[a] {
			for c := a + 1; c < d; c++ {
				z[a] -= l[c*nnlsMax+a] * z[c]
			}
			z[a] /= l[a*nnlsMax+a]
		}
	}
	return true
}
