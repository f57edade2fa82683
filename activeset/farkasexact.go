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
