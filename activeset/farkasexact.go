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
	type member struct {
		row []float64
		b   float64
		y   float64
		eq  bool
		dst *float64
	}
	var S []member
	for j, v := range r.FarkasA {
		if v != 0 {
			S = append(S, member{s.a[j], s.bOrig[j], v, false, &r.FarkasA[j]})
		}
	}
	for j, v := range r.FarkasEq {
		if v != 0 {
			S = append(S, member{s.aeq[j], s.beqOrig[j], v, true, &r.FarkasEq[j]})
		}
	}
	if len(S) == 0 {
		return false
	}
	if len(S) > exactFarkasMaxSupport {
		return true
	}
	n := s.n
	// The float w and its terms, as farkasHolds sums them, classify the
	// coordinates: zero (in U), or of a sign whose bound is finite.
	inU := make([]bool, n)
	sign := make([]int, n)
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
	piv := 0
	for a, m := range S {
		if math.Abs(m.y) > math.Abs(S[piv].y) {
			piv = a
		}
	}
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	y := make([]*big.Rat, len(S))
	for a, m := range S {
		y[a] = rat(m.y)
	}
	// The system: for c in U, sum_{a != piv} y_a row_a[c] =
	// -y_piv row_piv[c], taken one equation at a time into an echelon
	// basis: an equation that reduces to no unknowns and a nonzero
	// right-hand side shows there is no exact certificate on this support,
	// and a feasible problem's direction usually shows it at once.
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
	for c := 0; c < n; c++ {
		if !inU[c] {
			continue
		}
		e := make([]*big.Rat, k+1)
		for t, a := range unknown {
			e[t] = rat(S[a].row[c])
		}
		e[k] = new(big.Rat).Neg(new(big.Rat).Mul(y[piv], rat(S[piv].row[c])))
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
				return false // no exact certificate on this support
			}
			continue
		}
		basis = append(basis, pivotRow{col, e})
	}
	// Back-substitution, last pivot first; the columns without a pivot
	// keep their values.
	solved := make([]bool, k)
	for _, b := range basis {
		solved[b.col] = true
	}
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
	// The checks, exactly.
	for a, m := range S {
		if !m.eq && y[a].Sign() < 0 {
			return false
		}
	}
	minBox, rhs := new(big.Rat), new(big.Rat)
	for a, m := range S {
		rhs.Add(rhs, tmp.Mul(y[a], rat(m.b)))
	}
	for c := 0; c < n; c++ {
		if inU[c] {
			continue // zero: every equation of U held
		}
		w := new(big.Rat)
		for a, m := range S {
			if m.row[c] != 0 {
				w.Add(w, tmp.Mul(y[a], rat(m.row[c])))
			}
		}
		switch w.Sign() {
		case 0:
			continue
		case 1:
			if math.IsInf(s.lo[c], -1) || sign[c] < 0 {
				return false
			}
			minBox.Add(minBox, tmp.Mul(w, rat(s.lo[c])))
		default:
			if math.IsInf(s.up[c], 1) || sign[c] > 0 {
				return false
			}
			minBox.Add(minBox, tmp.Mul(w, rat(s.up[c])))
		}
	}
	if rhs.Cmp(minBox) >= 0 {
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
