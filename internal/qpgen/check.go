package qpgen

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// Prec is the mantissa precision, in bits, of every big.Float in the
// checkers. A product of two float64 values needs 106 bits, so sums of such
// products are exact as long as the magnitudes involved span fewer than
// about 150 binary orders (true for all generated data); otherwise the
// relative rounding is 2^-256 per operation.
const Prec = 256

// BigCholeskyMaxN is the largest n for which KKT solves with H by a
// Cholesky factorisation carried out entirely in big.Float; above it, a
// float64 Cholesky factorisation with iterative refinement whose residuals
// are computed in big.Float.
const BigCholeskyMaxN = 64

// Residuals are the KKT measures of a claimed answer (x, lambda, nu, z),
// computed in big.Float and rounded to float64 at the end. The absolute
// forms come first, then relative forms that compare each quantity with the
// size of the terms it is made of (so that rounding-level errors give
// relative values of order 1e-16 whatever the scaling of the data).
type Residuals struct {
	// Stationarity is ||H x + c + A'lambda + Aeq'nu + z||_inf.
	Stationarity float64
	// RelStationarity is Stationarity / max(1, max_i S_i) where S_i is the
	// sum of the absolute values of the terms of component i
	// (|H_i1 x_1| + ... + |c_i| + |A_1i lambda_1| + ... + |z_i|).
	RelStationarity float64

	// PrimalViolation is the largest of (a_j'x - b_j)_+, |aeq_j'x - beq_j|,
	// (lower_i - x_i)_+ and (x_i - upper_i)_+.
	PrimalViolation float64
	// RelPrimal is the largest violation of a row divided by
	// max(1, |b_j| + sum_k |a_jk x_k|), of a bound divided by
	// max(1, |bound|).
	RelPrimal float64

	// DualViolation is the largest of -lambda_j (lambda_j < 0), z_i > 0 on a
	// variable without upper bound, -z_i on one without lower bound.
	DualViolation float64
	// RelDual is DualViolation / max(1, largest |multiplier|).
	RelDual float64

	// Complementarity is the largest of |lambda_j (b_j - a_j'x)| and
	// |z_i^+ (upper_i - x_i)|, |z_i^- (x_i - lower_i)| (z^+ = max(z, 0),
	// z^- = max(-z, 0); terms on infinite bounds are left out).
	Complementarity float64
	// RelComplementarity divides each product |mult * slack| by
	// max(1, |mult| * (|b_j| + sum_k |a_jk x_k|)) (for a bound:
	// max(1, |z_i| * (|bound| + |x_i|))): about the relative slack of the
	// rows that carry a multiplier.
	RelComplementarity float64

	// Objective is F(x) = 1/2 x'Hx + c'x.
	Objective float64
	// Dual is G = min_y L(y, lambda, nu, z), the Lagrangian's minimum over
	// y (see Gap); a lower bound on the optimal value when the multipliers
	// are dual feasible (DualViolation == 0).
	Dual float64
	// Gap is F(x) - G. For any x, with r = H x + c + A'lambda + Aeq'nu + z
	// the stationarity residual, L(., lambda, nu, z) is a quadratic with
	// Hessian H whose gradient at x is r, so
	//	G = L(x) - 1/2 r'H^-1 r,
	//	Gap = sum_j lambda_j (b_j - a_j'x) + sum_j nu_j (beq_j - aeq_j'x)
	//	    + sum_i [z_i^+ (upper_i - x_i) + z_i^- (x_i - lower_i)] + 1/2 r'H^-1 r
	// (computed in that form, without cancellation against F). When x is
	// primal feasible and the multipliers are dual feasible, 0 <= F(x) - F*
	// <= Gap and ||x - x*||^2 <= 2 Gap / lambda_min(H). Terms on infinite
	// bounds are left out of L (their multiplier is a dual violation).
	Gap float64
	// RelGap is Gap / max(1, |F(x)|).
	RelGap float64

	// ObjectiveBig and GapBig are F(x) and Gap before rounding to float64.
	ObjectiveBig *big.Float
	GapBig       *big.Float
}

// Worst is the largest of the relative measures RelStationarity,
// RelPrimal, RelDual, RelComplementarity and |RelGap|: an answer is
// optimal to relative accuracy tol when Worst() <= tol.
func (r Residuals) Worst() float64 {
	return max(max(max(r.RelStationarity, r.RelPrimal), max(r.RelDual, r.RelComplementarity)), math.Abs(r.RelGap))
}

func nf() *big.Float { return new(big.Float).SetPrec(Prec) }

func bfv(v float64) *big.Float { return nf().SetFloat64(v) }

func f64(x *big.Float) float64 {
	v, _ := x.Float64()
	return v
}

func at(v []float64, i int) float64 {
	if v == nil {
		return 0
	}
	return v[i]
}

func lowerOf(q *QP, i int) float64 {
	if q.Lower == nil {
		return math.Inf(-1)
	}
	return q.Lower[i]
}

func upperOf(q *QP, i int) float64 {
	if q.Upper == nil {
		return math.Inf(1)
	}
	return q.Upper[i]
}

// KKT computes the residuals of the claimed answer x with multipliers
// lambda (rows of A, want >= 0), nu (rows of Aeq) and z (bounds: z_i > 0
// upper bound active, z_i < 0 lower bound active). lambda, nu and z may be
// nil (all zero). All sums are formed in big.Float with Prec bits; the
// solve with H for the gap uses a Cholesky factorisation in big.Float for
// n <= BigCholeskyMaxN and float64 Cholesky with big.Float iterative
// refinement above. It returns an error on mismatched lengths, non-finite
// entries of x or of the multipliers, or H not positive definite.
func KKT(q *QP, x, lambda, nu, z []float64) (Residuals, error) {
	var res Residuals
	if err := checkAnswer(q, x, lambda, nu, z); err != nil {
		return res, err
	}
	xb := make([]*big.Float, q.N)
	for i := range xb {
		xb[i] = bfv(x[i])
	}

	r, hx := stationarityResidual(q, xb, lambda, nu, z, &res)
	F := objectiveFromHx(q, xb, hx)

	acc := kktAccum{gap: nf()}
	acc.rows(q.A, q.B, lambda, xb, false)
	acc.rows(q.Aeq, q.Beq, nu, xb, true)
	acc.bounds(q, x, xb, z)
	res.PrimalViolation, res.RelPrimal = acc.pv, acc.rpv
	res.DualViolation, res.RelDual = acc.dv, acc.dv/max(1, acc.maxMult)
	res.Complementarity, res.RelComplementarity = acc.cv, acc.rcv

	gap := acc.gap
	if err := addHalfRHinvR(gap, q.H, r); err != nil {
		return res, err
	}

	res.ObjectiveBig = F
	res.GapBig = gap
	res.Objective = f64(F)
	res.Gap = f64(gap)
	res.Dual = f64(nf().Sub(F, gap))
	res.RelGap = res.Gap / max(1, math.Abs(res.Objective))
	return res, nil
}

// checkAnswer rejects mismatched lengths and non-finite entries of the
// answer passed to KKT.
func checkAnswer(q *QP, x, lambda, nu, z []float64) error {
	n := q.N
	if len(x) != n {
		return fmt.Errorf("qpgen: len(x) = %d, want %d", len(x), n)
	}
	if lambda != nil && len(lambda) != len(q.A) {
		return fmt.Errorf("qpgen: len(lambda) = %d, want %d", len(lambda), len(q.A))
	}
	if nu != nil && len(nu) != len(q.Aeq) {
		return fmt.Errorf("qpgen: len(nu) = %d, want %d", len(nu), len(q.Aeq))
	}
	if z != nil && len(z) != n {
		return fmt.Errorf("qpgen: len(z) = %d, want %d", len(z), n)
	}
	for _, v := range [][]float64{x, lambda, nu, z} {
		for _, e := range v {
			if math.IsNaN(e) || math.IsInf(e, 0) {
				return errors.New("qpgen: non-finite entry in the answer")
			}
		}
	}
	return nil
}

// stationarityResidual forms r = Hx + c + A'lambda + Aeq'nu + z and the
// term sizes S_i, sets res.Stationarity and res.RelStationarity, and
// returns r and H x (for the objective).
func stationarityResidual(q *QP, xb []*big.Float, lambda, nu, z []float64, res *Residuals) (r, hx []*big.Float) {
	n := q.N
	t := nf()
	r = make([]*big.Float, n)
	sc := make([]*big.Float, n)
	hx = make([]*big.Float, n)
	for i := 0; i < n; i++ {
		s, a := nf(), nf()
		addRowTerms((*big.Float).Add, s, a, q.H[i], xb)
		hx[i] = new(big.Float).Copy(s)
		t.SetFloat64(q.C[i])
		s.Add(s, t)
		a.Add(a, t.Abs(t))
		if z != nil && z[i] != 0 {
			t.SetFloat64(z[i])
			s.Add(s, t)
			a.Add(a, t.Abs(t))
		}
		r[i], sc[i] = s, a
	}
	addT := func(rows [][]float64, mult []float64) {
		for j, row := range rows {
			m := at(mult, j)
			if m == 0 {
				continue
			}
			addScaledRow(r, sc, row, bfv(m))
		}
	}
	addT(q.A, lambda)
	addT(q.Aeq, nu)
	statMax, scaleMax := nf(), bfv(1)
	for i := 0; i < n; i++ {
		if t.Abs(r[i]).Cmp(statMax) > 0 {
			statMax.Set(t)
		}
		if sc[i].Cmp(scaleMax) > 0 {
			scaleMax.Set(sc[i])
		}
	}
	res.Stationarity = f64(statMax)
	res.RelStationarity = f64(t.Quo(statMax, scaleMax))
	return r, hx
}

// objectiveFromHx returns F = 1/2 x'Hx + c'x given H x.
func objectiveFromHx(q *QP, xb, hx []*big.Float) *big.Float {
	t := nf()
	F := nf()
	for i := 0; i < q.N; i++ {
		t.Mul(hx[i], xb[i])
		t.Quo(t, big.NewFloat(2))
		F.Add(F, t)
		t.SetFloat64(q.C[i])
		t.Mul(t, xb[i])
		F.Add(F, t)
	}
	return F
}

// kktAccum accumulates, over the rows and the bounds, the primal and dual
// violations, the complementarity products and the gap terms
// mult * slack.
type kktAccum struct {
	gap         *big.Float
	pv, rpv     float64
	dv, maxMult float64
	cv, rcv     float64
}

// rows adds the rows (A, b, lambda) or (Aeq, beq, nu): the slack
// s_j = b_j - a_j'x, its size, violation, complementarity and gap term.
func (acc *kktAccum) rows(rows [][]float64, rhs, mult []float64, xb []*big.Float, eq bool) {
	t, u := nf(), nf()
	for j, row := range rows {
		s, a := bfv(rhs[j]), nf()
		a.Abs(s)
		addRowTerms((*big.Float).Sub, s, a, row, xb)
		// violation
		var viol float64
		if eq {
			viol = math.Abs(f64(s))
		} else if s.Sign() < 0 {
			viol = -f64(s)
		}
		acc.pv = max(acc.pv, viol)
		acc.rpv = max(acc.rpv, viol/max(1, f64(a)))
		m := at(mult, j)
		acc.maxMult = max(acc.maxMult, math.Abs(m))
		if !eq && m < 0 {
			acc.dv = max(acc.dv, -m)
		}
		if m == 0 {
			continue
		}
		t.SetFloat64(m)
		t.Mul(t, s)
		acc.gap.Add(acc.gap, t)
		if !eq {
			p := math.Abs(f64(t))
			acc.cv = max(acc.cv, p)
			u.SetFloat64(math.Abs(m))
			u.Mul(u, a)
			acc.rcv = max(acc.rcv, p/max(1, f64(u)))
		}
	}
}

// bounds adds the bounds: for each finite bound the slack upper - x or
// x - lower, its violation, and with z^+ or z^- its complementarity and gap
// term; a multiplier on a missing bound is a dual violation.
func (acc *kktAccum) bounds(q *QP, x []float64, xb []*big.Float, z []float64) {
	t := nf()
	for i := 0; i < q.N; i++ {
		lo, hi := lowerOf(q, i), upperOf(q, i)
		zi := at(z, i)
		acc.maxMult = max(acc.maxMult, math.Abs(zi))
		type side struct {
			bound float64
			mult  float64 // z^+ for upper, z^- for lower
			upper bool
		}
		for _, sd := range []side{{hi, max(zi, 0), true}, {lo, max(-zi, 0), false}} {
			if math.IsInf(sd.bound, 0) {
				if sd.mult != 0 {
					acc.dv = max(acc.dv, sd.mult) // multiplier on a missing bound
				}
				continue
			}
			// s = upper - x or x - lower
			s := bfv(sd.bound)
			if sd.upper {
				s.Sub(s, xb[i])
			} else {
				s.Sub(xb[i], s)
			}
			if s.Sign() < 0 {
				viol := -f64(s)
				acc.pv = max(acc.pv, viol)
				acc.rpv = max(acc.rpv, viol/max(1, math.Abs(sd.bound)))
			}
			if sd.mult == 0 {
				continue
			}
			t.SetFloat64(sd.mult)
			t.Mul(t, s)
			acc.gap.Add(acc.gap, t)
			p := math.Abs(f64(t))
			acc.cv = max(acc.cv, p)
			acc.rcv = max(acc.rcv, p/max(1, sd.mult*(math.Abs(sd.bound)+math.Abs(x[i]))))
		}
	}
}

// addHalfRHinvR adds 1/2 r'H^-1 r to gap.
func addHalfRHinvR(gap *big.Float, h [][]float64, r []*big.Float) error {
	y, err := solveH(h, r)
	if err != nil {
		return err
	}
	t := nf()
	rq := nf()
	for i := range r {
		t.Mul(r[i], y[i])
		rq.Add(rq, t)
	}
	rq.Quo(rq, big.NewFloat(2))
	gap.Add(gap, rq)
	return nil
}

// addRowTerms applies op(s, s, t) to each term t = row[k]*x[k] of row'x in
// turn (op is (*big.Float).Add or (*big.Float).Sub) and adds |t| to a,
// skipping the zero entries of row.
func addRowTerms(op func(z, x, y *big.Float) *big.Float, s, a *big.Float, row []float64, x []*big.Float) {
	t := nf()
	for k, v := range row {
		if v == 0 {
			continue
		}
		t.SetFloat64(v)
		t.Mul(t, x[k])
		op(s, s, t)
		a.Add(a, t.Abs(t))
	}
}

// addScaledRow adds the terms m*row[k] to sum[k] and their absolute
// values to size[k], skipping the zero entries of row.
func addScaledRow(sum, size []*big.Float, row []float64, m *big.Float) {
	t := nf()
	for k, v := range row {
		if v == 0 {
			continue
		}
		t.SetFloat64(v)
		t.Mul(t, m)
		sum[k].Add(sum[k], t)
		size[k].Add(size[k], t.Abs(t))
	}
}

// ObjectiveBig returns F(x) = 1/2 x'Hx + c'x in big.Float with Prec bits.
func ObjectiveBig(q *QP, x []float64) *big.Float {
	F, t := nf(), nf()
	for i := 0; i < q.N; i++ {
		s := nf()
		for k, h := range q.H[i] {
			t.SetFloat64(h)
			t.Mul(t, bfv(x[k]))
			s.Add(s, t)
		}
		s.Quo(s, big.NewFloat(2))
		t.SetFloat64(q.C[i])
		s.Add(s, t)
		s.Mul(s, bfv(x[i]))
		F.Add(F, s)
	}
	return F
}

// solveH returns y with H y = r to about Prec bits (see BigCholeskyMaxN), or
// an error when H is not (numerically) positive definite.
func solveH(h [][]float64, r []*big.Float) ([]*big.Float, error) {
	if len(h) <= BigCholeskyMaxN {
		return solveHBig(h, r)
	}
	return solveHRefined(h, r)
}

// solveHBig solves H y = r by Cholesky factorisation in big.Float.
func solveHBig(h [][]float64, r []*big.Float) ([]*big.Float, error) {
	n := len(h)
	l := make([][]*big.Float, n)
	t := nf()
	for i := 0; i < n; i++ {
		l[i] = make([]*big.Float, i+1)
		for j := 0; j <= i; j++ {
			s := bfv(h[i][j])
			for k := 0; k < j; k++ {
				t.Mul(l[i][k], l[j][k])
				s.Sub(s, t)
			}
			if i == j {
				if s.Sign() <= 0 {
					return nil, fmt.Errorf("qpgen: H is not positive definite (pivot %d)", i)
				}
				l[i][i] = s.Sqrt(s)
			} else {
				l[i][j] = s.Quo(s, l[j][j])
			}
		}
	}
	y := make([]*big.Float, n)
	for i := 0; i < n; i++ {
		s := nf().Set(r[i])
		for k := 0; k < i; k++ {
			t.Mul(l[i][k], y[k])
			s.Sub(s, t)
		}
		y[i] = s.Quo(s, l[i][i])
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			t.Mul(l[k][i], y[k])
			s.Sub(s, t)
		}
		s.Quo(s, l[i][i])
	}
	return y, nil
}

// cholesky64 factors H = L L' in float64; ok is false when a pivot is not
// positive.
func cholesky64(h [][]float64) ([][]float64, bool) {
	n := len(h)
	l := make([][]float64, n)
	for i := 0; i < n; i++ {
		l[i] = make([]float64, i+1)
		for j := 0; j <= i; j++ {
			s := h[i][j]
			li, lj := l[i], l[j]
			for k := 0; k < j; k++ {
				s -= li[k] * lj[k]
			}
			if i == j {
				if !(s > 0) {
					return nil, false
				}
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	return l, true
}

func cholSolve64(l [][]float64, b []float64) []float64 {
	n := len(l)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * y[k]
		}
		y[i] = s / l[i][i]
	}
	return y
}

// solveHRefined solves H y = r by float64 Cholesky and iterative
// refinement: y += L'^-1 L^-1 (r - H y) with the residual r - H y formed in
// big.Float, until the correction is below 2^-120 of y (each step gains
// about -log2(cond(H) eps) bits; an error if 60 steps do not get there).
func solveHRefined(h [][]float64, r []*big.Float) ([]*big.Float, error) {
	n := len(h)
	l, ok := cholesky64(h)
	if !ok {
		return nil, errors.New("qpgen: H is not positive definite (float64 Cholesky failed)")
	}
	y := make([]*big.Float, n)
	for i := range y {
		y[i] = nf()
	}
	t := nf()
	rf := make([]float64, n)
	for it := 0; it < 60; it++ {
		allZero := true
		for i := 0; i < n; i++ {
			s := nf().Set(r[i])
			for k, v := range h[i] {
				if v == 0 {
					continue
				}
				t.SetFloat64(v)
				t.Mul(t, y[k])
				s.Sub(s, t)
			}
			rf[i] = f64(s)
			if rf[i] != 0 {
				allZero = false
			}
		}
		if allZero {
			return y, nil
		}
		d := cholSolve64(l, rf)
		dmax, ymax := 0.0, 0.0
		for i := range d {
			y[i].Add(y[i], t.SetFloat64(d[i]))
			dmax = max(dmax, math.Abs(d[i]))
			ymax = max(ymax, math.Abs(f64(y[i])))
		}
		if dmax <= math.Ldexp(ymax, -120) {
			return y, nil
		}
	}
	return nil, errors.New("qpgen: iterative refinement with H did not converge (H too ill-conditioned)")
}

// PrimalBackward returns the largest violation of x, computed exactly (in
// big.Float with Prec bits), in units of eps = 2^-52 times the norms it
// is measured against: max over the rows of (a_j'x - b_j)_+ and over the
// equalities of |aeq_j'x - beq_j|, each over 2^-52 (||a_j||_2 ||x||_2 +
// |b_j|) (bounds are not measured). This is the normwise backward error of
// x as a solution of the constraints held: a float64 x that rounds an
// exact solution to nearest violates a constraint by at most half a unit
// (|a'dx| <= ||a|| ||dx||, ||dx|| <= eps/2 ||x||), an x refined to working
// accuracy by a few. On nearly dependent constraints (the near-copy
// families, QP.NearGap) it is the judge of x: x* itself moves by about
// eps/gap under the data's rounding, while an x off by O(1) along the
// near-copies' near-null direction violates one of them by about the gap
// times that: issue 27's answer x = (1/2, 1/2) of two equalities 1e-7
// apart, 1e8 units, and 1e3 units at a gap of 1e-12. When QP.NearA and
// QP.NearEq are set it measures only the constraints they mark, the
// witnesses of that error; the others are the KKT residuals' to judge.
func PrimalBackward(q *QP, x []float64) float64 {
	xb := make([]*big.Float, q.N)
	xx := 0.0
	for i := range xb {
		xb[i] = bfv(x[i])
		xx += x[i] * x[i]
	}
	xn := math.Sqrt(xx)
	worst := 0.0
	measure := func(rows [][]float64, b []float64, eq bool, only []bool) {
		for j, row := range rows {
			if only != nil && !only[j] {
				continue
			}
			s, a := nf(), nf()
			addRowTerms((*big.Float).Add, s, a, row, xb)
			s.Sub(s, bfv(b[j]))
			if !eq && s.Sign() <= 0 || s.Sign() == 0 {
				continue
			}
			unit := 0x1p-52 * (norm2(row)*xn + math.Abs(b[j]))
			worst = max(worst, math.Abs(f64(s))/unit)
		}
	}
	measure(q.A, q.B, false, q.NearA)
	measure(q.Aeq, q.Beq, true, q.NearEq)
	return worst
}

// FarkasRelTol is the tolerance CheckFarkas allows on the components of
// w = A'yA + Aeq'yEq that multiply a variable without the bound the sign of
// w_k would need: |w_k| <= FarkasRelTol * sum_j |a_jk y_j| counts as zero
// (an exact certificate has w_k = 0 there; rounding in computing y leaves
// w_k at this level). When any such component is nonzero, the margin must
// also exceed FarkasRelTol times the size of the terms it is made of.
const FarkasRelTol = 1e-12

// CheckFarkas checks that (yA, yEq) proves the constraints
// A x <= b, Aeq x = beq, lower <= x <= upper infeasible: with w = A'yA +
// Aeq'yEq, every feasible x would give w'x = yA'Ax + yEq'Aeq x <= b'yA +
// beq'yEq, so
//
//	yA >= 0  and  b'yA + beq'yEq < min over the box of w'x
//
// leaves no feasible x. The minimum over the box is sum_k w_k lower_k
// (w_k > 0) or w_k upper_k (w_k < 0); a component whose bound is infinite
// must be zero (see FarkasRelTol). Everything is computed in big.Float
// with Prec bits. why explains the verdict (the margin when ok).
func CheckFarkas(q *QP, yA, yEq []float64) (ok bool, why string) {
	n := q.N
	if len(yA) != len(q.A) || len(yEq) != len(q.Aeq) {
		return false, fmt.Sprintf("lengths %d, %d, want %d, %d", len(yA), len(yEq), len(q.A), len(q.Aeq))
	}
	for j, v := range yA {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return false, fmt.Sprintf("yA[%d] = %g, want finite >= 0", j, v)
		}
	}
	for j, v := range yEq {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false, fmt.Sprintf("yEq[%d] = %g, want finite", j, v)
		}
	}
	w := make([]*big.Float, n)
	ws := make([]*big.Float, n)
	for k := range w {
		w[k], ws[k] = nf(), nf()
	}
	rhs, rhsSize := nf(), nf()
	t := nf()
	add := func(rows [][]float64, b, y []float64) {
		for j, row := range rows {
			if y[j] == 0 {
				continue
			}
			yb := bfv(y[j])
			addScaledRow(w, ws, row, yb)
			t.SetFloat64(b[j])
			t.Mul(t, yb)
			rhs.Add(rhs, t)
			rhsSize.Add(rhsSize, t.Abs(t))
		}
	}
	add(q.A, q.B, yA)
	add(q.Aeq, q.Beq, yEq)

	minBox, size := nf(), nf().Set(rhsSize)
	approx := false
	for k := 0; k < n; k++ {
		if w[k].Sign() == 0 {
			continue
		}
		var bound float64
		if w[k].Sign() > 0 {
			bound = lowerOf(q, k)
		} else {
			bound = upperOf(q, k)
		}
		if math.IsInf(bound, 0) {
			lim := nf().Mul(ws[k], bfv(FarkasRelTol))
			if t.Abs(w[k]).Cmp(lim) > 0 {
				return false, fmt.Sprintf("w[%d] = %g but x[%d] is unbounded in that direction", k, f64(w[k]), k)
			}
			approx = true
			continue
		}
		t.Mul(w[k], bfv(bound))
		minBox.Add(minBox, t)
		size.Add(size, t.Abs(t))
	}
	margin := nf().Sub(minBox, rhs)
	if margin.Sign() <= 0 {
		return false, fmt.Sprintf("b'y = %g is not below min over the box of w'x = %g (margin %g)", f64(rhs), f64(minBox), f64(margin))
	}
	if approx {
		lim := nf().Mul(size, bfv(FarkasRelTol))
		if margin.Cmp(lim) <= 0 {
			return false, fmt.Sprintf("margin %g is within the tolerance %g left by rounded w components", f64(margin), f64(lim))
		}
		return true, fmt.Sprintf("infeasible up to FarkasRelTol: margin %g (relative %g)", f64(margin), f64(margin)/max(1, f64(size)))
	}
	return true, fmt.Sprintf("infeasible: margin %g (relative %g)", f64(margin), f64(margin)/max(1, f64(size)))
}
