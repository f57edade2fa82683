package activeset

import (
	"math"
	"math/big"

	"github.com/softpen/softpen/vec"
)

// exactFarkasMaxSupport is the most rows and equalities a certificate
// that holds only approximately (A'y + Aeq'yeq counted as zero where it is
// not) may have for farkasExact to decide it in rational arithmetic: the
// elimination costs O(n k^2) operations on rationals that grow with k, k
// the support's size (about 1 ms at k = 8, n = 48; a support of n + 1 =
// 49 rows took 4 s). Nearly dependent rows and equalities make supports
// of a few members.
const exactFarkasMaxSupport = 8

// farkasExact decides, in rational arithmetic, whether the support of the
// certificate in the Result carries an exact one: y >= 0 on the rows and
// any sign on the equalities, w = A'y + Aeq'yeq exactly zero on every
// coordinate where the box does not absorb it, and b'y + beq'yeq below the
// box's minimum of w'x. A certificate whose w is zero only to rounding
// proves no x with ||x||_inf below margin / ||w||_1 exists: nearly
// dependent equalities and rows made such certificates of feasible
// problems, with solutions at ||x*|| = 2e4 to 1e16 (the nearly
// dependent QPs of TestInfeasibleOnlyExactly, against exact rationals),
// and no threshold on the margin or the radius told them from those of
// infeasible ones (of 1090 such answers, 111 false, with relative margins
// from 2e-11 to 1 among both). An exact one proves
// the rows infeasible outright; the data are dyadic rationals, and if no
// x satisfies them, Farkas's lemma gives a rational y on a basic support,
// the kind the method's null direction lands on.
//
// The entry of largest magnitude is held at its value and the others
// solve w_U = 0 (U: the coordinates without a bound on the side the
// float w needs, and those where the float w counted as zero), the
// columns without a pivot held at their values. On success the
// certificate in the Result is replaced by the exact one, rounded, largest
// entry 1. On a support above exactFarkasMaxSupport it reports true: the
// float check (farkasHolds) stands alone there.
func (s *Solver) farkasExact() bool {
	r := &s.res
	var S []exactMember
	for j, v := range r.FarkasA {
		if v != 0 {
			S = append(S, exactMember{s.a[j], s.bOrig[j], v, false, &r.FarkasA[j]})
		}
	}
	for j, v := range r.FarkasEq {
		if v != 0 {
			S = append(S, exactMember{s.aeq[j], s.beqOrig[j], v, true, &r.FarkasEq[j]})
		}
	}
	if len(S) == 0 {
		return false
	}
	if len(S) > exactFarkasMaxSupport {
		return true
	}
	inU, sign := s.exactCoordinates(S)
	y, ok := solveExactNull(S, inU)
	if !ok || !s.exactMargin(S, y, inU, sign) {
		return false
	}
	top := new(big.Rat)
	for _, v := range y {
		if a := new(big.Rat).Abs(v); a.Cmp(top) > 0 {
			top = a
		}
	}
	for a, m := range S {
		*m.dst, _ = new(big.Rat).Quo(y[a], top).Float64()
	}
	return true
}

// exactMember is a row or equality of the certificate's support: the
// caller's row and right-hand side, its float multiplier, and where the
// exact one goes.
type exactMember struct {
	row []float64
	b   float64
	y   float64
	eq  bool
	dst *float64
}

// exactCoordinates classifies the coordinates by the float w = sum y row
// and its terms, as farkasHolds sums them: in U (w must vanish exactly:
// counted as zero, or its needed bound infinite), or of a sign whose
// bound is finite (sign +-1; 0 where both bounds are).
func (s *Solver) exactCoordinates(S []exactMember) (inU []bool, sign []int) {
	n := s.n
	inU, sign = make([]bool, n), make([]int, n)
	for c := 0; c < n; c++ {
		var e vec.ExactSum
		ws := 0.0
		for _, m := range S {
			e.AddProduct(m.y, m.row[c])
			ws += math.Abs(m.y * m.row[c])
		}
		wc := e.Value()
		switch {
		case math.Abs(wc) <= farkasTol*ws:
			inU[c] = math.IsInf(s.lo[c], -1) || math.IsInf(s.up[c], 1)
		case wc > 0 && !math.IsInf(s.lo[c], -1):
			sign[c] = 1
		case wc < 0 && !math.IsInf(s.up[c], 1):
			sign[c] = -1
		default:
			inU[c] = true
		}
	}
	return inU, sign
}

func ratOf(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// solveExactNull returns the multipliers, exact, with the largest entry
// held at its float value and the others solving sum_a y_a row_a[c] = 0
// for every c in U, and false if no such y exists. The equations are
// taken one at a time into an echelon basis: one that reduces to no
// unknowns and a nonzero right-hand side shows there is no exact
// certificate on this support, and a feasible problem's direction
// usually shows it at once. Columns without a pivot keep their values.
func solveExactNull(S []exactMember, inU []bool) ([]*big.Rat, bool) {
	piv := 0
	for a, m := range S {
		if math.Abs(m.y) > math.Abs(S[piv].y) {
			piv = a
		}
	}
	y := make([]*big.Rat, len(S))
	for a, m := range S {
		y[a] = ratOf(m.y)
	}
	unknown := make([]int, 0, len(S)-1)
	for a := range S {
		if a != piv {
			unknown = append(unknown, a)
		}
	}
	k := len(unknown)
	type pivotRow struct {
		col int
		row []*big.Rat // coefficients of the unknowns, then the right-hand side
	}
	var basis []pivotRow
	tmp, f := new(big.Rat), new(big.Rat)
	for c, u := range inU {
		if !u {
			continue
		}
		e := make([]*big.Rat, k+1)
		for t, a := range unknown {
			e[t] = ratOf(S[a].row[c])
		}
		e[k] = new(big.Rat).Neg(new(big.Rat).Mul(y[piv], ratOf(S[piv].row[c])))
		for _, b := range basis {
			if e[b.col].Sign() == 0 {
				continue
			}
			f.Quo(e[b.col], b.row[b.col])
			for t := range e {
				if b.row[t].Sign() != 0 {
					e[t].Sub(e[t], tmp.Mul(f, b.row[t]))
				}
			}
		}
		col := -1
		for t := 0; t < k; t++ {
			if e[t].Sign() != 0 {
				col = t
				break
			}
		}
		if col < 0 {
			if e[k].Sign() != 0 {
				return nil, false
			}
			continue
		}
		basis = append(basis, pivotRow{col, e})
	}
	// Back-substitution, last pivot first: each basis row is zero in the
	// pivot columns of the rows before it.
	for i := len(basis) - 1; i >= 0; i-- {
		b := basis[i]
		v := new(big.Rat).Set(b.row[k])
		for t := 0; t < k; t++ {
			if t != b.col && b.row[t].Sign() != 0 {
				v.Sub(v, tmp.Mul(b.row[t], y[unknown[t]]))
			}
		}
		y[unknown[b.col]] = v.Quo(v, b.row[b.col])
	}
	return y, true
}

// exactMargin checks the exact y as a certificate: y >= 0 on the rows,
// w = sum y row of the sign its bound needs outside U (zero in U, where
// every equation held), and b'y below the box's minimum of w'x.
func (s *Solver) exactMargin(S []exactMember, y []*big.Rat, inU []bool, sign []int) bool {
	for a, m := range S {
		if !m.eq && y[a].Sign() < 0 {
			return false
		}
	}
	tmp := new(big.Rat)
	minBox, rhs := new(big.Rat), new(big.Rat)
	for a, m := range S {
		rhs.Add(rhs, tmp.Mul(y[a], ratOf(m.b)))
	}
	for c, u := range inU {
		if u {
			continue
		}
		w := new(big.Rat)
		for a, m := range S {
			if m.row[c] != 0 {
				w.Add(w, tmp.Mul(y[a], ratOf(m.row[c])))
			}
		}
		switch w.Sign() {
		case 0:
			continue
		case 1:
			if math.IsInf(s.lo[c], -1) || sign[c] < 0 {
				return false
			}
			minBox.Add(minBox, tmp.Mul(w, ratOf(s.lo[c])))
		default:
			if math.IsInf(s.up[c], 1) || sign[c] > 0 {
				return false
			}
			minBox.Add(minBox, tmp.Mul(w, ratOf(s.up[c])))
		}
	}
	return rhs.Cmp(minBox) < 0
}

// impliedExactly reports whether c, whose unit normal depends to rounding
// on those of the members s.ws[:k] along p (p[:k] over the members, p[k]
// != 0 over c's normal, whose norm factor is s.sigma[k]), is implied by
// them in exact arithmetic, the caller's rows and bounds as they are:
// whether the support of p has exact multipliers y with sum y_a row_a = 0
// and, for an equality, sum y_a b_a = 0; for a row or bound, which need
// only hold where the members hold with equality, sum y_a b_a of the sign
// of its own multiplier (zero if possible). Two equalities whose rows
// agree to 1e-10 and whose right-hand sides agree to rounding pass the
// float tests; their exact solution can lie at any distance along the
// near-null direction from the answer that leaves one of them out (0.06
// to 0.2 on the nearly dependent QPs of TestDistanceBoundNearlyImplied),
// and no distance bound holds for it. A row or equality that repeats a
// member, or its negation, bit for bit is decided without rationals (the
// duplicated rows of real data). A support above exactFarkasMaxSupport
// is taken as implied, as float64 finds it: the rational elimination
// costs O(n k^2) operations on growing rationals, seconds at a support of
// 50 (an SVM's degenerate rows in the span of 100 support vectors), and
// the nearly dependent rows that float64 cannot tell from dependent ones
// make supports of a few members. Held l1 kinks are left out of the
// support (heldKink).
func (s *Solver) impliedExactly(p []float64, k int, c constraint) bool {
	support := 0
	for a, v := range p[:k+1] {
		if v != 0 && !s.heldKink(a, k) {
			support++
		}
	}
	switch {
	case p[k] == 0 || support < 2:
		return false
	case support > exactFarkasMaxSupport:
		return true
	}
	S, last, ok := s.supportMembers(p, k, c)
	if !ok {
		return false
	}
	if len(S) == 2 {
		if implied, ok := repeatImplied(S, last, c.kind == kindEq || c.kind == kindFixed); ok {
			return implied
		}
	}
	inU := make([]bool, s.n+1)
	for c := range inU {
		inU[c] = true
	}
	if _, ok := solveExactNull(S, inU); ok {
		return true
	}
	if c.kind == kindEq || c.kind == kindFixed {
		return false
	}
	inU[s.n] = false
	y, ok := solveExactNull(S, inU)
	if !ok || y[last].Sign() == 0 {
		return false
	}
	rhs, tmp := new(big.Rat), new(big.Rat)
	for a, m := range S {
		rhs.Add(rhs, tmp.Mul(y[a], ratOf(m.b)))
	}
	return rhs.Sign()*y[last].Sign() >= 0
}

// heldKink reports whether member a of p's support (a < k) is a held l1
// kink. A kink is no constraint of the problem: a row that the
// constraints among the members imply is implied whatever the kink's
// float coefficient in p, which is at rounding level where the row
// repeats a member (a row and its opposite, in another scale, with x_i
// held at its kink: FuzzTinyQP). A row that needs the kink is not implied,
// and the exact test of the rest says so.
func (s *Solver) heldKink(a, k int) bool {
	return a < k && s.ws[a].kind == kindKink
}

// apartFromConstraints reports whether c, whose unit normal lies in the
// span of the members' normals to rounding along p (as impliedExactly
// takes p and k), lies there only through held l1 kinks: whether its
// normal is at least sqrt(nearPivot) from the span of the members that
// are not held kinks.
// A kink is no constraint: the feasible set near x is cut by the other
// members, and a row that far from their span is an ordinary row of it
// that meets the kinks' face where x lies (a'x + t x_i <= b beside the
// member a'x <= b with x_i held at its kink, FuzzTinyQP; a row on held
// kinks alone), not one that cuts the members' face at a distance
// rounding decides.
//
// With y the entries of p on the kinks (over p[k], zero elsewhere) and G
// the Gram matrix of the members' normals, the squared distance is at
// least y'S y, S the Schur complement of the other members in G, whose
// inverse is G^{-1} on the kinks; by Cauchy-Schwarz, y'S y >= ||y||^4 /
// y'G^{-1}y: one solve with G's factor, O(k^2). It is decided only where
// every pivot of the factor is at least basisPivot, where the solve's
// error is far below the margin between rounding and sqrt(nearPivot);
// false otherwise.
func (s *Solver) apartFromConstraints(p []float64, k int) bool {
	if p[k] == 0 || k > s.fac.k {
		return false
	}
	var yy float64
	for a, v := range p[:k] {
		if v != 0 && s.heldKink(a, k) {
			yy += (v / p[k]) * (v / p[k])
		}
	}
	if yy == 0 {
		return false
	}
	for _, d := range s.fac.d[:k] {
		if !(d >= basisPivot) {
			return false
		}
	}
	// w = G^{-1} y in s.lamTry, scratch here: the callers have read it
	// (nearlyImpliedRows copied it into p) or do not use it
	// (noNullStep); a Solve allocates nothing.
	w := s.lamTry[:k]
	for a, v := range p[:k] {
		w[a] = 0
		if v != 0 && s.heldKink(a, k) {
			w[a] = v / p[k]
		}
	}
	s.fac.solve(w, k)
	var q float64 // y'G^{-1}y > 0; anything else decides nothing
	for a, v := range p[:k] {
		if v != 0 && s.heldKink(a, k) {
			q += v / p[k] * w[a]
		}
	}
	return q > 0 && yy*yy >= nearPivot*q
}

// supportMembers returns the members of impliedExactly's support, held
// kinks left out, each the caller's row with its right-hand side as one
// more coordinate, its float multiplier on that row, and the index of c
// among them.
func (s *Solver) supportMembers(p []float64, k int, c constraint) (S []exactMember, last int, ok bool) {
	for a, v := range p[:k+1] {
		if v == 0 || s.heldKink(a, k) {
			continue
		}
		m := c
		if a < k {
			m = s.ws[a]
		} else {
			last = len(S)
		}
		y := v / s.sigma[a]
		var row []float64
		var b float64
		switch m.kind {
		case kindRow:
			row, b, y = s.a[m.i], s.bOrig[m.i], y*s.ainv[m.i]
		case kindEq:
			row, b, y = s.aeq[m.i], s.beqOrig[m.i], y*s.eqinv[m.i]
		case kindFixed, kindUpper:
			row, b = make([]float64, s.n), s.up[m.i]
			row[m.i] = 1
		case kindLower:
			row, b = make([]float64, s.n), -s.lo[m.i]
			row[m.i] = -1
		default:
			return nil, 0, false
		}
		S = append(S, exactMember{row: append(row[:s.n:s.n], b), b: b, y: y})
	}
	return S, last, true
}

// repeatImplied decides a support of two members whose rows, the
// right-hand side last, are equal or opposite bit for bit on every
// coordinate but the right-hand side's: S[last] is implied by the other
// if their right-hand sides are equal (negated), or, if it is a row
// (eq false) and the rows equal, if its own is at least the other's. ok
// is false when the rows are not such a pair.
func repeatImplied(S []exactMember, last int, eq bool) (implied, ok bool) {
	a, o := S[last].row, S[1-last].row
	n := len(a) - 1
	same, neg := true, true
	for c := 0; c < n && (same || neg); c++ {
		same = same && a[c] == o[c]
		neg = neg && a[c] == -o[c]
	}
	switch {
	case same:
		return a[n] == o[n] || !eq && a[n] > o[n], true
	case neg:
		return a[n] == -o[n], true
	}
	return false, false
}

// nearlyImpliedRows counts the rows outside the working set within
// rounding of zero at the answer (violation's exact and near lists: the
// exactly violated ones it let pass, and those that hold), whose unit
// normals lie in the members' span to rounding, and which are not
// implied by the members exactly (impliedExactly) nor lie in the span only
// through held l1 kinks (apartFromConstraints). The members' residuals
// are not zero in exact arithmetic, and such a row can be violated at the
// exact point of the members' face nearest x; it then cuts the face at a
// distance float64 cannot resolve (a row 1e-16 from the span of two
// equalities placed x* 0.16 from an answer that satisfies every row to
// rounding). Where the members span every direction (k = n), the edges
// of their vertex are the faces such a row can cut (vertexCuts). Only
// the rows the lists keep are checked, the exactRows nearest to
// violation on either side: an SVM's degenerate answer has
// thousands of rows within rounding of active (repeated data points), and
// checking each (O(n^2 + k n)) made the mushrooms SVM's solve 4 times
// slower.
func (s *Solver) nearlyImpliedRows() int {
	k := len(s.ws)
	if k >= s.n {
		return s.vertexCuts()
	}
	if k == 0 {
		return 0
	}
	count := 0
	for _, l := range [2]*rowList{&s.exact, &s.near} {
		for _, j := range l.row[:l.n] {
			if near, _, _ := s.rowSpan(int(j)); near != inSpan {
				continue
			}
			p := s.dir[:k+1]
			for i, y := range s.lamTry[:k] {
				p[i] = -y
			}
			p[k] = 1
			if !s.impliedExactly(p, k, constraint{kindRow, j}) && !s.apartFromConstraints(p, k) {
				count++
			}
		}
	}
	return count
}
