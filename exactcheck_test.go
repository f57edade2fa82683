package softpen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
)

// randomOrthogonal draws an n x n orthogonal matrix, row by row: normal
// entries, orthonormalised against the rows before it (Gram-Schmidt).
func randomOrthogonal(rng *rand.Rand, n int) [][]float64 {
	q := make([][]float64, n)
	for i := range q {
		q[i] = make([]float64, n)
		for j := range q[i] {
			q[i][j] = rng.NormFloat64()
		}
		for k := 0; k < i; k++ {
			d := dotRows(q[i], q[k])
			for j := range q[i] {
				q[i][j] -= d * q[k][j]
			}
		}
		d := math.Sqrt(dotRows(q[i], q[i]))
		for j := range q[i] {
			q[i][j] /= d
		}
	}
	return q
}

// illConditionedQP draws a QP of 2 to 4 variables harder than most real
// ones: H = Q diag(10^U(-6,4)) Q' (Q random orthogonal), c up to 100, one
// to four rows of which about half are near-copies of an earlier row
// (each entry off by a relative 1e-14..1e-2), near-copy equalities in a
// third of the draws, and a box in 30%.
func illConditionedQP(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	q := randomOrthogonal(rng, n)
	ev := make([]float64, n)
	for i := range ev {
		ev[i] = math.Pow(10, -6+10*rng.Float64())
	}
	p := &Problem{N: n, Loss: "none", P: make([][]float64, n), Q: make([]float64, n)}
	for i := range p.P {
		p.P[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += q[k][i] * ev[k] * q[k][j]
			}
			p.P[i][j], p.P[j][i] = s, s
		}
		p.Q[i] = rng.NormFloat64() * math.Pow(10, 2*rng.Float64())
	}
	nearCopy := func(src []float64) []float64 {
		row := make([]float64, n)
		for i := range row {
			row[i] = src[i] * (1 + math.Pow(10, -14+12*rng.Float64())*rng.NormFloat64())
		}
		return row
	}
	m := 1 + rng.Intn(4)
	for j := 0; j < m; j++ {
		var row []float64
		if j > 0 && rng.Intn(2) == 0 {
			row = nearCopy(p.A[rng.Intn(j)])
		} else {
			row = make([]float64, n)
			for i := range row {
				row[i] = rng.NormFloat64()
			}
		}
		p.A = append(p.A, row)
		p.B = append(p.B, rng.NormFloat64())
	}
	if rng.Intn(3) == 0 {
		for e := 0; e < 1+rng.Intn(2) && e < n-1; e++ {
			p.Aeq = append(p.Aeq, nearCopy(p.A[rng.Intn(len(p.A))]))
			p.Beq = append(p.Beq, rng.NormFloat64())
		}
	}
	if rng.Intn(10) < 3 {
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range p.Lower {
			p.Lower[i] = -math.Pow(10, 4*rng.Float64())
			p.Upper[i] = math.Pow(10, 4*rng.Float64())
		}
	}
	return p
}

// exactOf is p as a qpgen.QP (P + Ridge I, q, the rows, equalities and
// bounds; no loss) and its exact answer (qpgen.Exact, in rationals); an
// error ends the test.
func exactOf(t *testing.T, label string, p *Problem) (*qpgen.QP, *qpgen.ExactResult) {
	t.Helper()
	h, c := p.P, p.Q
	if p.Ridge != 0 || h == nil {
		h = make([][]float64, p.N)
		for i := range h {
			h[i] = make([]float64, p.N)
			if p.P != nil {
				copy(h[i], p.P[i])
			}
			h[i][i] += p.Ridge
		}
	}
	if c == nil {
		c = make([]float64, p.N)
	}
	qp := &qpgen.QP{N: p.N, H: h, C: c, A: p.A, B: p.B, Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
	ex, err := qpgen.Exact(qp)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	return qp, ex
}

// withinExactReach reports whether qpgen.Exact can enumerate p's
// constraints with extra more: rows, equalities and finite bounds (p's
// bounds are finite when given) up to qpgen.ExactMaxCons.
func withinExactReach(p *Problem, extra int) bool {
	cons := len(p.A) + len(p.Aeq) + extra
	if p.Lower != nil {
		cons += 2 * p.N
	}
	return cons <= qpgen.ExactMaxCons
}

// checkSolved reports an error for a solved answer res whose gap is below
// F(x) - F*, given exactly as f and fStar, or, for a point that violates
// nothing, whose DistBound is below ||x - x*||, x* given exactly.
func checkSolved(t *testing.T, label string, res *Result, f, fStar *big.Rat, xStar []*big.Rat) {
	t.Helper()
	excess, _ := new(big.Rat).Sub(f, fStar).Float64()
	d := 0.0
	for j, v := range res.X {
		e, _ := new(big.Rat).Sub(new(big.Rat).SetFloat64(v), xStar[j]).Float64()
		d += e * e
	}
	d = math.Sqrt(d)
	if excess > res.Gap || (res.MaxViolation <= 0 && d > res.DistBound) {
		t.Errorf("%s: solved with gap %.3g and distance bound %.3g; F(x) - F* = %.3g, ||x - x*|| = %.3g",
			label, res.Gap, res.DistBound, excess, d)
	}
}

func dotRows(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestExactPathAgainstRationals: on 500 ill-conditioned QPs
// (illConditionedQP; those with a box on 4 variables are beyond
// qpgen.Exact's enumeration) every answer of the exact path is checked against
// the exact one (qpgen.Exact, in rationals): "solved" must carry a gap
// >= F(x) - F* and, for a point that violates nothing, a DistBound >=
// ||x - x*||; "infeasible" must be so, and "solved" never is on an
// infeasible problem. Precision limits are allowed (they claim nothing),
// but must stay the exception. With the gap taken as F(x) - G(lambda) and
// an allowance relative to F, 2 of these answers were false certificates
// (and 45 ended precision_limit, against 31 now).
func TestExactPathAgainstRationals(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const count = 500
	precision, checked := 0, 0
	for it := 0; it < count; it++ {
		p := illConditionedQP(rng)
		if !withinExactReach(p, 0) {
			continue // beyond the enumeration's reach
		}
		checked++
		qp, ex := exactOf(t, fmt.Sprintf("problem %d", it), p)
		res, err := Solve(context.Background(), p, &Options{Tol: 1e-9})
		if err != nil {
			t.Fatalf("problem %d: %v", it, err)
		}
		switch {
		case res.Status == StatusPrecisionLimit:
			precision++
			continue
		case ex.Infeasible:
			if res.Status != StatusInfeasible {
				t.Errorf("problem %d is infeasible, reported %v", it, res.Status)
			}
			continue
		case res.Status == StatusInfeasible:
			t.Errorf("problem %d is feasible (x* = %v), reported infeasible", it, ex.X)
			continue
		case res.Status != StatusSolved:
			t.Errorf("problem %d: %v (%s)", it, res.Status, res.Message)
			continue
		}
		checkSolved(t, fmt.Sprintf("problem %d", it), res, qpgen.ObjectiveRat(qp, res.X), ex.F, ex.XRat)
	}
	t.Logf("%d of %d checked ended precision_limit", precision, checked)
	if checked < count/2 || precision > checked/10 {
		t.Errorf("%d of %d checked (of %d drawn) ended precision_limit", precision, checked, count)
	}
}

// exactWithL1 is the exact answer of p with its l1 term (qpgen.Exact has
// none): the least, over the orthants sigma, of the QP with c + l1 sigma
// and the orthant's signs as rows -sigma_j x_j <= 0, each solved in
// rationals. p.Q and p.L1 must be such that every c_j +- l1 is exact in
// float64 (it panics otherwise); with n variables that is 2^n solves, and
// n more constraints than p has.
func exactWithL1(p *Problem) (ex *qpgen.ExactResult, err error) {
	n := p.N
	for orthant := 0; orthant < 1<<n; orthant++ {
		qp := &qpgen.QP{N: n, H: p.P, C: make([]float64, n), A: append([][]float64(nil), p.A...),
			B: append([]float64(nil), p.B...), Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
		for j := range n {
			sign := 1.0
			if orthant>>j&1 == 1 {
				sign = -1
			}
			qp.C[j] = p.Q[j] + sign*p.L1
			if qp.C[j]-p.Q[j] != sign*p.L1 {
				panic("exactWithL1: c +- l1 is not exact")
			}
			row := make([]float64, n)
			row[j] = -sign
			qp.A, qp.B = append(qp.A, row), append(qp.B, 0)
		}
		o, err := qpgen.Exact(qp)
		if err != nil {
			return nil, err
		}
		if !o.Infeasible && (ex == nil || ex.Infeasible || o.F.Cmp(ex.F) < 0) {
			ex = o
		}
		if ex == nil {
			ex = o // infeasible so far
		}
	}
	return ex, nil
}

// objectiveWithL1 is 1/2 x'Px + q'x + l1 ||x||_1 in rationals.
func objectiveWithL1(p *Problem, x []float64) *big.Rat {
	f := qpgen.ObjectiveRat(&qpgen.QP{N: p.N, H: p.P, C: p.Q}, x)
	abs := new(big.Rat)
	for _, v := range x {
		abs.Add(abs, new(big.Rat).SetFloat64(math.Abs(v)))
	}
	return f.Add(f, abs.Mul(abs, new(big.Rat).SetFloat64(p.L1)))
}

// TestCertificateL1IllConditioned: the penalty method's certificate with
// an l1 term, on illConditionedQP's problems with an l1 weight from 2^-25
// to 2^6 (q and l1 on a grid of 2^-20, so that the reference's c +- l1 is
// exact), against the exact answer (exactWithL1): "solved" must carry a
// gap >= F(x) - F* and, for a point that violates nothing, a DistBound >=
// ||x - x*||; "infeasible" must be so. With the gap taken as F(x) minus
// the proximal-gradient dual bound, 2 of the first 20 answers and 7 of
// 300 were false certificates, with gaps up to 5e4 times below
// F(x) - F* (-short: the first 20).
func TestCertificateL1IllConditioned(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	count := 80
	if testing.Short() {
		count = 20
	}
	checked, solved := 0, 0
	for it := 0; it < count; it++ {
		p := illConditionedQP(rng)
		p.L1 = math.Ldexp(float64(1+rng.Intn(1<<20)), -20) * math.Pow(2, float64(rng.Intn(12)-5))
		for i := range p.Q {
			p.Q[i] = math.Round(p.Q[i]*(1<<20)) / (1 << 20)
		}
		if !withinExactReach(p, p.N) {
			continue // beyond the enumeration's reach
		}
		checked++
		ex, err := exactWithL1(p)
		if err != nil {
			t.Fatalf("problem %d: %v", it, err)
		}
		res, err := Solve(context.Background(), p, &Options{Tol: 1e-9, Method: MethodAPG, TimeLimit: 2 * time.Second})
		if err != nil {
			t.Fatalf("problem %d: %v", it, err)
		}
		switch {
		case ex.Infeasible:
			if res.Status == StatusSolved {
				t.Errorf("problem %d is infeasible, reported solved", it)
			}
			continue
		case res.Status == StatusInfeasible:
			t.Errorf("problem %d is feasible (x* = %v), reported infeasible", it, ex.X)
			continue
		case res.Status != StatusSolved:
			continue
		}
		solved++
		checkSolved(t, fmt.Sprintf("problem %d", it), res, objectiveWithL1(p, res.X), ex.F, ex.XRat)
	}
	t.Logf("%d of %d checked solved", solved, checked)
	if solved < checked/2 {
		t.Errorf("only %d of %d checked solved", solved, checked)
	}
}

// collinearLeastSquares draws a least-squares problem of 2 to 4 variables
// and n to n+3 rows whose columns after the first are, each with
// probability 1/2, a near-copy of the first (entries off by a relative
// 1e-10..1e-2), with a ridge of 1e-12..1e-6 in half of the draws: x* is
// large, and the objective far below its terms.
func collinearLeastSquares(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	l := n + rng.Intn(4)
	p := &Problem{N: n, Loss: "squared"}
	for range l {
		row := make([]float64, n)
		row[0] = rng.NormFloat64()
		for j := 1; j < n; j++ {
			row[j] = rng.NormFloat64()
			if rng.Intn(2) == 0 {
				row[j] = row[0] * (1 + math.Pow(10, -10+8*rng.Float64())*rng.NormFloat64())
			}
		}
		p.Phi = append(p.Phi, row)
		p.Y = append(p.Y, rng.NormFloat64())
	}
	if rng.Intn(2) == 0 {
		p.Ridge = math.Pow(10, -12+6*rng.Float64())
	}
	return p
}

// leastSquaresModel returns p's objective, 1/(2l) ||phi x - y||^2 +
// ridge/2 ||x||^2 less its constant, as 1/2 x'hx + c'x in rationals:
// h = phi'phi/l + ridge I and c = -phi'y/l, exactly.
func leastSquaresModel(p *Problem) (h [][]*big.Rat, c []*big.Rat) {
	n, l := p.N, big.NewRat(int64(len(p.Phi)), 1)
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	h, c = make([][]*big.Rat, n), make([]*big.Rat, n)
	for j := range n {
		h[j] = make([]*big.Rat, n)
		for k := range n {
			s := new(big.Rat)
			for _, row := range p.Phi {
				s.Add(s, new(big.Rat).Mul(rat(row[j]), rat(row[k])))
			}
			h[j][k] = s.Quo(s, l)
		}
		h[j][j].Add(h[j][j], rat(p.Ridge))
		s := new(big.Rat)
		for i, row := range p.Phi {
			s.Sub(s, new(big.Rat).Mul(rat(row[j]), rat(p.Y[i])))
		}
		c[j] = s.Quo(s, l)
	}
	return h, c
}

// quadraticRat is 1/2 x'hx + c'x in rationals.
func quadraticRat(h [][]*big.Rat, c []*big.Rat, x []float64) *big.Rat {
	f := new(big.Rat)
	for i := range c {
		s := new(big.Rat)
		for k := range c {
			s.Add(s, new(big.Rat).Mul(h[i][k], new(big.Rat).SetFloat64(x[k])))
		}
		s.Mul(s, big.NewRat(1, 2))
		s.Add(s, c[i])
		f.Add(f, s.Mul(s, new(big.Rat).SetFloat64(x[i])))
	}
	return f
}

// checkExact solves p, whose objective less its constant is 1/2 x'hx +
// c'x in rationals, with each method and checks every answer against the
// exact one (qpgen.ExactRat on h, c and p's constraints): "solved" must
// carry a gap >= F(x) - F* and, for a point that violates nothing, a
// DistBound >= ||x - x*||; "infeasible" must be so, and "solved" never is
// on an infeasible problem. An error from Solve fails the test unless
// allowErr. It returns the number of answers solved.
func checkExact(t *testing.T, label string, p *Problem, h [][]*big.Rat, c []*big.Rat, allowErr bool, methods ...Method) int {
	t.Helper()
	qp := &qpgen.QP{N: p.N, A: p.A, B: p.B, Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
	ex, err := qpgen.ExactRat(qp, h, c)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	solved := 0
	for _, m := range methods {
		res, err := Solve(context.Background(), p, &Options{Tol: 1e-9, Method: m, TimeLimit: 2 * time.Second})
		switch {
		case err != nil:
			if !allowErr {
				t.Fatalf("%s, %v: %v", label, m, err)
			}
			continue
		case ex.Infeasible:
			if res.Status == StatusSolved {
				t.Errorf("%s, %v: infeasible, reported solved", label, m)
			}
			continue
		case res.Status == StatusInfeasible:
			t.Errorf("%s, %v: feasible (x* = %v), reported infeasible", label, m, ex.X)
			continue
		case res.Status != StatusSolved:
			continue
		}
		solved++
		checkSolved(t, fmt.Sprintf("%s, %v", label, m), res, quadraticRat(h, c, res.X), ex.F, ex.XRat)
	}
	return solved
}

// checkLeastSquares is checkExact for p's least-squares objective
// (leastSquaresModel); an error is allowed (phi'phi/l can be singular in
// float64: New says so).
func checkLeastSquares(t *testing.T, label string, p *Problem, methods ...Method) int {
	t.Helper()
	h, c := leastSquaresModel(p)
	return checkExact(t, label, p, h, c, true, methods...)
}

// TestCertificateCollinearLeastSquares: least squares with near-collinear
// columns (collinearLeastSquares), the exact path and APG, against the
// exact answer (checkLeastSquares). The quadratic model H = phi'phi/l,
// formed in float64, is off by the rounding of its sums; certified as if
// it were exact, 4 of these 300 answers (2 with -short, 40 problems) had
// gaps and distance bounds below the truth: one solved with a gap of
// 4.4e-13 and a distance bound of 0.64 was 4.1e-10 and 13.3 from the
// answer.
func TestCertificateCollinearLeastSquares(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	count := 150
	if testing.Short() {
		count = 40
	}
	solved := 0
	for it := range count {
		solved += checkLeastSquares(t, fmt.Sprintf("problem %d", it), collinearLeastSquares(rng), MethodAuto, MethodAPG)
	}
	t.Logf("%d of %d answers solved", solved, 2*count)
	if solved < count {
		t.Errorf("only %d of %d answers solved", solved, 2*count)
	}
}

// TestCertificateConstrainedLeastSquares: collinearLeastSquares with one
// to three rows (half of them near-copies of an earlier row, each entry
// off by a relative 1e-14..1e-2), an equality in a third of the draws and
// a box in a third, checked as TestCertificateCollinearLeastSquares (the
// problems float64 can hold; checkLeastSquares). With the model certified
// as if exact, problem 52 was solved by the exact path and by APG with
// gaps of 6.6e-17 against an excess of 4e-16, and distance bounds of 9e-3
// and 2.6e-4 for a point 6.3e-4 from the answer (-short: the first 20).
func TestCertificateConstrainedLeastSquares(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	count := 60
	if testing.Short() {
		count = 20
	}
	checked, solved := 0, 0
	for it := range count {
		p := collinearLeastSquares(rng)
		n := p.N
		for j := range 1 + rng.Intn(3) {
			row := make([]float64, n)
			for i := range row {
				row[i] = rng.NormFloat64()
			}
			if j > 0 && rng.Intn(2) == 0 {
				src := p.A[rng.Intn(j)]
				for i := range row {
					row[i] = src[i] * (1 + math.Pow(10, -14+12*rng.Float64())*rng.NormFloat64())
				}
			}
			p.A, p.B = append(p.A, row), append(p.B, rng.NormFloat64())
		}
		if rng.Intn(3) == 0 {
			row := make([]float64, n)
			for i := range row {
				row[i] = rng.NormFloat64()
			}
			p.Aeq, p.Beq = [][]float64{row}, []float64{rng.NormFloat64()}
		}
		if rng.Intn(3) == 0 {
			p.Lower, p.Upper = make([]float64, n), make([]float64, n)
			for i := range p.Lower {
				p.Lower[i] = -math.Pow(10, 5*rng.Float64())
				p.Upper[i] = math.Pow(10, 5*rng.Float64())
			}
		}
		if !withinExactReach(p, 0) {
			continue // beyond the enumeration's reach
		}
		checked++
		solved += checkLeastSquares(t, fmt.Sprintf("problem %d", it), p, MethodAuto, MethodAPG)
	}
	t.Logf("%d of %d answers solved", solved, 2*checked)
	if solved < checked {
		t.Errorf("only %d of %d answers solved", solved, 2*checked)
	}
}

// TestCertificateNearlySymmetricP: illConditionedQP with each P_ij above
// the diagonal moved by a relative 1e-12 (Validate takes P symmetric to
// 1e-10), against the exact answer for the exact symmetric part
// (P + P')/2 (qpgen.ExactRat): the solver's P is that part rounded.
// Certified as if it were exact, 9 of these 595 exact-path answers (2
// with -short, 150 problems) had gaps or distance bounds below the truth,
// one solved with a gap of 7.3e-8 and a distance bound of 0.39 for an
// excess of 3.2e-7 at 0.56 from the answer.
func TestCertificateNearlySymmetricP(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	count := 600
	if testing.Short() {
		count = 150
	}
	checked, solved := 0, 0
	for it := range count {
		p := illConditionedQP(rng)
		n := p.N
		for i := range n {
			for j := i + 1; j < n; j++ {
				p.P[i][j] *= 1 + 1e-12*rng.NormFloat64()
			}
		}
		if !withinExactReach(p, 0) {
			continue // beyond the enumeration's reach
		}
		checked++
		h, c := make([][]*big.Rat, n), make([]*big.Rat, n)
		for i := range n {
			h[i] = make([]*big.Rat, n)
			for j := range n {
				s := new(big.Rat).Add(new(big.Rat).SetFloat64(p.P[i][j]), new(big.Rat).SetFloat64(p.P[j][i]))
				h[i][j] = s.Quo(s, big.NewRat(2, 1))
			}
			c[i] = new(big.Rat).SetFloat64(p.Q[i])
		}
		solved += checkExact(t, fmt.Sprintf("problem %d", it), p, h, c, false, MethodAuto)
	}
	t.Logf("%d of %d checked solved", solved, checked)
	if solved < checked/2 {
		t.Errorf("only %d of %d checked solved", solved, checked)
	}
}

// TestFarkasEqualityTwins: an inequality that is a near copy (relative
// 1e-11) of an equality, with right-hand sides 1.7 apart, leaves the
// problem feasible only far away (||x*|| = 2.4e11, exactly in rationals).
// The penalty methods hold the equality as two rows, whose large and
// nearly equal multipliers cancelled in the Farkas check to 4e-17, and APG
// reported infeasible; no method may. With the inequality an exact copy
// the problem is infeasible, and every method must say so.
func TestFarkasEqualityTwins(t *testing.T) {
	e := []float64{-1.9033715388851922, -1.3756660572415356}
	for _, c := range []struct {
		name       string
		a          []float64
		infeasible bool
	}{
		{"near copy", []float64{-1.9033715388730559, -1.3756660572415829}, false},
		{"exact copy", e, true},
	} {
		p := &Problem{N: 2, Loss: "none",
			P: [][]float64{{3432.4423627359774, -2813.2867267909496}, {-2813.2867267909496, 2305.8322132173344}},
			Q: []float64{-12.328352441334312, -0.7283304770995561},
			A: [][]float64{c.a}, B: []float64{-0.3388597539511272},
			Aeq: [][]float64{e}, Beq: []float64{1.3621017331004242}}
		qp, ex := exactOf(t, c.name, p)
		if ex.Infeasible != c.infeasible {
			t.Fatalf("%s: exactly infeasible %v, want %v", c.name, ex.Infeasible, c.infeasible)
		}
		for _, m := range []Method{MethodAuto, MethodAPG, MethodSVRG, MethodCatalyst, MethodSGD, MethodSGDM} {
			res, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-9, Seed: 1, MaxSteps: 200000})
			if err != nil {
				t.Fatal(err)
			}
			label := fmt.Sprintf("%s, %v", c.name, m)
			switch {
			case c.infeasible && res.Status != StatusInfeasible:
				t.Errorf("%s: %v, want infeasible", label, res.Status)
			case !c.infeasible && res.Status == StatusInfeasible:
				t.Errorf("%s: infeasible; the problem is feasible (x* = %v)", label, ex.X)
			case res.Status == StatusSolved:
				checkSolved(t, label, res, qpgen.ObjectiveRat(qp, res.X), ex.F, ex.XRat)
			}
		}
	}
}

// dependentQP draws an illConditionedQP whose equalities are one or two
// random rows and a near combination of them (each entry off by 1e-16 to
// 1e-2 of noise), the combination an equality or a row, with a right-hand
// side consistent with the others, off by 1e-12 to 1, or off by O(1):
// feasible sets that are empty, a point, or reached only at ||x|| = 1e4 to
// 1e16, and Farkas directions that cancel to rounding on all of them.
func dependentQP(rng *rand.Rand) *Problem {
	p := illConditionedQP(rng)
	n := p.N
	p.Aeq, p.Beq = nil, nil
	row := func() []float64 {
		r := make([]float64, n)
		for i := range r {
			r[i] = rng.NormFloat64()
		}
		return r
	}
	e1, e2 := row(), row()
	p.Aeq, p.Beq = [][]float64{e1}, []float64{rng.NormFloat64()}
	be := 0.0
	if n > 2 && rng.Intn(2) == 0 {
		p.Aeq, p.Beq = append(p.Aeq, e2), append(p.Beq, rng.NormFloat64())
		be = rng.NormFloat64()
	}
	al := rng.NormFloat64()
	noise := math.Pow(10, -16+14*rng.Float64())
	comb := make([]float64, n)
	for i := range comb {
		comb[i] = al*e1[i] + be*e2[i] + noise*rng.NormFloat64()
	}
	rhs := al * p.Beq[0]
	if be != 0 {
		rhs += be * p.Beq[1]
	}
	switch rng.Intn(3) {
	case 1:
		rhs += math.Pow(10, -12+12*rng.Float64()) * rng.NormFloat64()
	case 2:
		rhs += rng.NormFloat64()
	}
	if rng.Intn(2) == 0 {
		p.Aeq, p.Beq = append(p.Aeq, comb), append(p.Beq, rhs)
	} else {
		p.A, p.B = append(p.A, comb), append(p.B, rhs)
	}
	return p
}

// TestInfeasibleOnlyExactly: on nearly dependent equalities and rows
// (dependentQP) "infeasible" is claimed only for problems infeasible in
// exact arithmetic (qpgen.Exact), and every "solved" point that violates
// nothing has its certified gap and distance bound. The engine's Farkas
// directions there cancel only to rounding, which proves no x within
// margin / ||A'y + Aeq'yeq|| exists: 10 of these 300 problems (feasible
// at ||x*|| = 3e5 to 1e16) were called infeasible, by both methods,
// before certificates were required to hold exactly on their support
// (activeset's farkasExact). Precision limits claim nothing and are
// allowed: most of these problems cannot be decided in float64.
func TestInfeasibleOnlyExactly(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	count := 300
	if testing.Short() {
		count = 100
	}
	checked, infeasible := 0, 0
	for it := 0; it < count; it++ {
		p := dependentQP(rng)
		if !withinExactReach(p, 0) {
			continue
		}
		qp, ex := exactOf(t, fmt.Sprintf("problem %d", it), p)
		for _, m := range []Method{MethodAuto, MethodAPG} {
			res, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-9, Seed: 1, MaxSteps: 1000000})
			if err != nil {
				t.Fatalf("problem %d, %v: %v", it, m, err)
			}
			checked++
			label := fmt.Sprintf("problem %d, %v", it, m)
			switch {
			case res.Status == StatusInfeasible && !ex.Infeasible:
				t.Errorf("%s: infeasible; the problem is feasible (x* = %v)", label, ex.X)
			case res.Status == StatusInfeasible:
				infeasible++
			case res.Status == StatusSolved && !ex.Infeasible:
				checkSolved(t, label, res, qpgen.ObjectiveRat(qp, res.X), ex.F, ex.XRat)
			}
		}
	}
	t.Logf("%d answers, %d infeasible", checked, infeasible)
	if infeasible == 0 {
		t.Error("no answer proved infeasibility: the generator lost its infeasible problems")
	}
}

// TestDistanceBoundNearlyImplied: problems of two equalities and a third
// equality or row that depends on them to 1e-16..1e-10, drawn by a
// generator of nearly dependent QPs, on which every method answered
// "solved" with a distance bound of 1e-8..7e-5 while x* lay 0.06 to 7
// away: x satisfies the left-out equality or the near row to rounding, and
// the exact solution sits where that constraint cuts the others' face, at
// a distance float64 cannot resolve. Each answer is checked against the
// exact one (qpgen.Exact): a "solved" point that violates nothing must
// have ||x - x*|| <= DistBound, and the gap must hold.
func TestDistanceBoundNearlyImplied(t *testing.T) {
	cases := []*Problem{
		{P: [][]float64{{35.55321190708848, 24.680750161702974}, {24.680750161702974, 27.261203837704937}},
			Q:   []float64{2.666755722912604, -0.3104809496735522},
			A:   [][]float64{{-0.30404652034279345, -0.5365771881202669}, {-0.3040465225934986, -0.5363373639981222}, {0.9833940654351349, -0.5371930337467061}},
			B:   []float64{2.279261854988739, 1.2613713937339888, -0.2142380217965298},
			Aeq: [][]float64{{-0.30874486404818186, 1.2052704211279708}, {0.14095189705907535, -0.5502444643116927}},
			Beq: []float64{0.2434840355715493, -0.11115824330620593}},
		{P: [][]float64{{607.1214543734752, -510.4945140804485}, {-510.4945140804485, 3569.8030068662647}},
			Q:   []float64{3.5775505630813536, 1.8423367556941024},
			A:   [][]float64{{0.9011762793886146, 1.4269943951414508}, {0.9011762793886312, 1.4269943952008795}, {0.9011762793884867, 1.4269980508315727}, {-0.8609479701946534, 0.5585523892589348}},
			B:   []float64{-1.6012391535553805, -1.1588159719536257, 1.2708525657458019, 0.23256239290905428},
			Aeq: [][]float64{{-2.354200664377395, -0.1734592268988145}, {1.8754523785052069, 0.13818470302194472}},
			Beq: []float64{1.6291924054820912, -1.2978811951495537}},
		{P: [][]float64{{63.156099998592616, 173.79903985913822}, {173.79903985913822, 479.4282350822194}},
			Q:   []float64{43.11571964485113, -3.287570677818816},
			A:   [][]float64{{-1.773829942398557, -0.594619140504918}, {-1.447510287937714, 0.5702382000086859}},
			B:   []float64{0.25653325843066427, 0.9622121060969955},
			Aeq: [][]float64{{0.3696974649810365, 1.2934255192405217}, {0.7974195550545223, 2.7898563007507975}},
			Beq: []float64{-1.0412934116152308, -2.2460195365797704}},
		{P: [][]float64{{99.88573955248611, -377.644418446868, 206.96912635792717}, {-377.644418446868, 1465.7495786447512, -689.0330825953848}, {206.96912635792717, -689.0330825953848, 754.1870734882314}},
			Q:   []float64{-62.144553403060186, -9.1326948208056, -0.9094447576906204},
			A:   [][]float64{{-1.262318555652767, 1.528898583736572, -0.5969351264845575}, {-1.2623185556526706, 1.5288985837365607, -0.5969351265207737}, {-1.2623185556528724, 1.5288985837365212, -0.5969351264852931}, {-1.9424226733939114, 5.807049197684595, 2.4887254806229153}},
			B:   []float64{1.874148489600218, 0.06513336950836918, 0.3057123990100976, -1.768199465861889},
			Aeq: [][]float64{{-1.5452301398888135, 0.6844778816090802, -1.4034297758510927}, {0.865249528496155, -2.0352389479651873, -0.6344407652047976}},
			Beq: []float64{0.20107341499592052, 0.5623240858890749}},
		{P: [][]float64{{762.5078308549064, 1200.567655440444}, {1200.567655440444, 1890.5186989971248}},
			Q:   []float64{-3.0108346124621157, -2.747901747451745},
			A:   [][]float64{{-0.24770805751121167, -1.5082337239567423}, {-0.247708057501858, -1.5082379804884978}, {-0.2478944648591083, -1.5054916377806988}, {-0.24770807814231943, -1.5082220122014836}},
			B:   []float64{0.11353022921531036, -0.3772160656354071, 0.9102030389210536, -2.806587908014588},
			Aeq: [][]float64{{-0.1690262900173205, 0.8477892184601427}, {0.09507248794719622, -0.4768573589679771}},
			Beq: []float64{1.1542987355103458, -0.6492602577269231}},
	}
	for i, p := range cases {
		p.N = len(p.Q)
		qp, ex := exactOf(t, fmt.Sprintf("case %d", i), p)
		if ex.Infeasible {
			t.Fatalf("case %d: infeasible in exact arithmetic; the case is meant to be feasible", i)
		}
		for _, m := range []Method{MethodAuto, MethodActiveSet, MethodAPG, MethodSVRG} {
			res, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-9, Seed: 1, MaxSteps: 1000000})
			if err != nil {
				t.Fatalf("case %d, %v: %v", i, m, err)
			}
			label := fmt.Sprintf("case %d, %v", i, m)
			switch res.Status {
			case StatusSolved:
				checkSolved(t, label, res, qpgen.ObjectiveRat(qp, res.X), ex.F, ex.XRat)
			case StatusPrecisionLimit:
			default:
				t.Errorf("%s: %v (%s)", label, res.Status, res.Message)
			}
		}
	}
}

// TestIndefiniteRefused: P = M M' - delta s I, M of n x (n-1) with rows
// scaled by 10^U(-3,2) (singular in exact arithmetic, its smallest
// eigenvalue moved by the rounding of M M' to either side of zero), s the
// largest diagonal entry and delta from 1e-18 to 1e-4: P is indefinite in
// exact arithmetic in most draws, by as little as rounding. Every such
// problem (no loss, no ridge) must be refused naming P or ridge; an answer
// of any status would be of a problem that has none (unbounded below
// along the negative eigenvector within the constraints, or one that
// float64 cannot tell from it). Whether P is semidefinite is decided
// exactly, by its principal minors in rationals.
func TestIndefiniteRefused(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	count := 300
	if testing.Short() {
		count = 100
	}
	indefinite := 0
	for it := 0; it < count; it++ {
		p := illConditionedQP(rng)
		n := p.N
		m := make([][]float64, n)
		for i := range m {
			m[i] = make([]float64, n-1)
			scale := math.Pow(10, -3+5*rng.Float64())
			for j := range m[i] {
				m[i][j] = scale * rng.NormFloat64()
			}
		}
		top := 0.0
		for i := range n {
			for j := range n {
				p.P[i][j] = dotRows(m[i], m[j])
			}
			top = max(top, p.P[i][i])
		}
		shift := top * math.Pow(10, -18+14*rng.Float64())
		for i := range n {
			p.P[i][i] -= shift
		}
		if semidefiniteExactly(p.P) {
			continue
		}
		indefinite++
		for _, method := range []Method{MethodAuto, MethodActiveSet, MethodAPG, MethodSVRG} {
			res, err := Solve(context.Background(), p, &Options{Method: method, Tol: 1e-9, Seed: 1})
			var ie *InputError
			switch {
			case err == nil:
				t.Errorf("problem %d, %v: P indefinite in exact arithmetic (shift %.3g of %.3g), answered %v", it, method, shift, top, res.Status)
			case !errors.As(err, &ie) || (ie.Field != "P" && ie.Field != "ridge"):
				t.Errorf("problem %d, %v: %v, want an InputError naming P or ridge", it, method, err)
			}
		}
	}
	t.Logf("%d of %d draws indefinite in exact arithmetic", indefinite, count)
	if indefinite < count/2 {
		t.Errorf("only %d of %d draws indefinite: the generator lost its point", indefinite, count)
	}
}

// semidefiniteExactly reports whether the symmetric p is positive
// semidefinite in exact arithmetic: every principal minor >= 0 (n <= 10).
func semidefiniteExactly(p [][]float64) bool {
	n := len(p)
	for mask := 1; mask < 1<<n; mask++ {
		var idx []int
		for i := range n {
			if mask&(1<<i) != 0 {
				idx = append(idx, i)
			}
		}
		a := make([][]*big.Rat, len(idx))
		for r, i := range idx {
			a[r] = make([]*big.Rat, len(idx))
			for c, j := range idx {
				a[r][c] = new(big.Rat).SetFloat64(p[i][j])
			}
		}
		if ratDeterminant(a).Sign() < 0 {
			return false
		}
	}
	return true
}

// ratDeterminant is det(a) by elimination with row swaps; a is overwritten.
func ratDeterminant(a [][]*big.Rat) *big.Rat {
	det := big.NewRat(1, 1)
	tmp := new(big.Rat)
	for c := range a {
		piv := -1
		for r := c; r < len(a); r++ {
			if a[r][c].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return new(big.Rat)
		}
		if piv != c {
			a[piv], a[c] = a[c], a[piv]
			det.Neg(det)
		}
		det.Mul(det, a[c][c])
		for r := c + 1; r < len(a); r++ {
			f := new(big.Rat).Quo(a[r][c], a[c][c])
			for k := c; k < len(a); k++ {
				a[r][k].Sub(a[r][k], tmp.Mul(f, a[c][k]))
			}
		}
	}
	return det
}

// nearlyInfeasibleSVM draws a hard-margin SVM (SVMProblem: 2 to 4
// features, 3 to 7 points, labels +-1) whose last point is a nonnegative
// combination of the others' -y_i a_i, each entry off by 1e-16..1e-2
// times a normal draw: y_i a_i'x >= 1 is infeasible exactly when some
// nonnegative combination of the y_i a_i vanishes, so the draws lie on
// both sides of infeasibility, many within rounding of it, and the
// feasible ones have solutions up to ||x*|| = 1e16.
func nearlyInfeasibleSVM(rng *rand.Rand) (labels []float64, rows [][]float64) {
	n, m := 2+rng.Intn(3), 3+rng.Intn(5)
	rows, labels = make([][]float64, m), make([]float64, m)
	for i := range rows {
		rows[i] = make([]float64, n)
		for j := range rows[i] {
			rows[i][j] = rng.NormFloat64()
		}
		labels[i] = float64(2*rng.Intn(2) - 1)
	}
	last := rows[m-1]
	clear(last)
	labels[m-1] = 1
	for range 1 + rng.Intn(min(3, m-1)) {
		i, w := rng.Intn(m-1), rng.Float64()
		for j := range last {
			last[j] -= w * labels[i] * rows[i][j]
		}
	}
	noise := math.Pow(10, -16+14*rng.Float64())
	for j := range last {
		last[j] += noise * rng.NormFloat64()
	}
	return labels, rows
}

// TestSVMInfeasibleOnlyExactly: on hard-margin SVMs at the edge of
// separability (nearlyInfeasibleSVM), dense (auto: the active-set method;
// apg) and sparse (auto), "infeasible" is claimed only for data that
// cannot be separated in exact arithmetic (qpgen.Exact), and every
// "solved" answer's gap and distance bound hold against the exact optimum.
// Precision limits and step budgets claim nothing and are allowed: a
// third of these draws are separable only by ||x|| of 1e8 and more.
func TestSVMInfeasibleOnlyExactly(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	count := 300
	if testing.Short() {
		count = 100
	}
	infeasible, solved := 0, 0
	for it := range count {
		labels, rows := nearlyInfeasibleSVM(rng)
		p := SVMProblem(labels, rows, false)
		if !withinExactReach(p, 0) {
			continue
		}
		qp, ex := exactOf(t, fmt.Sprintf("problem %d", it), p)
		sp := SVMProblemSparse(labels, mat.SparseFromRows(rows, p.N), false)
		for _, c := range []struct {
			name string
			p    *Problem
			m    Method
		}{{"dense, auto", p, MethodAuto}, {"dense, apg", p, MethodAPG}, {"sparse, auto", sp, MethodAuto}} {
			res, err := Solve(context.Background(), c.p, &Options{Method: c.m, Tol: 1e-9, Seed: 1, MaxSteps: 200000})
			label := fmt.Sprintf("problem %d, %s", it, c.name)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			switch {
			case res.Status == StatusInfeasible && !ex.Infeasible:
				t.Errorf("%s: infeasible; the data are separable (x* = %v)", label, ex.X)
			case res.Status == StatusInfeasible:
				infeasible++
			case res.Status == StatusSolved && !ex.Infeasible:
				solved++
				checkSolved(t, label, res, qpgen.ObjectiveRat(qp, res.X), ex.F, ex.XRat)
			}
		}
	}
	t.Logf("%d answers infeasible, %d solved and checked", infeasible, solved)
	if infeasible == 0 || solved == 0 {
		t.Error("the generator lost one side of separability")
	}
}

// TestPenaltyStageAtFloor: APG on a hard-margin SVM separable only by
// ||x*|| = 1e14 (problem 266 of nearlyInfeasibleSVM's seed 1) reaches a
// stage (xi = 4.4e12) whose target gradient mapping, 0.0125, lies below
// the mapping's rounding floor (4 eps L ||y|| = 0.058): the mapping
// hovered at 0.026-0.030, the stall rule waits 20 sqrt(L/mu) = 1.5e8
// iterations, and the solve ran past a million steps without a verdict.
// A stage at its floor ends (gradMapFloor); the method then ends within a
// few thousand steps, claiming nothing it cannot certify.
func TestPenaltyStageAtFloor(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var labels []float64
	var rows [][]float64
	for range 267 {
		labels, rows = nearlyInfeasibleSVM(rng)
	}
	p := SVMProblem(labels, rows, false)
	_, ex := exactOf(t, "problem 266", p)
	if ex.Infeasible {
		t.Fatal("problem 266 is infeasible; the case is meant to be separable, barely")
	}
	res, err := Solve(context.Background(), p, &Options{Method: MethodAPG, Tol: 1e-9, Seed: 1, MaxSteps: 1000000})
	if err != nil {
		t.Fatal(err)
	}
	switch res.Status {
	case StatusMaxSteps:
		t.Errorf("max_steps after %d steps (%d stages, xi %.3g): a stage at its rounding floor did not end", res.Steps, res.Penalty.Stages, res.Penalty.Xi)
	case StatusInfeasible:
		t.Errorf("infeasible; the data are separable (x* = %v)", ex.X)
	}
	t.Logf("%v after %d steps, %d stages", res.Status, res.Steps, res.Penalty.Stages)
}

// TestHoldCostNoCertificate: the problem of activeset's
// TestMemberHoldCostFarOut whose exact optimum is 1.14e17 at x_0 = -3e14,
// where the engine's point (F = -1.5e12) meets a member row only to the
// rounding of ||x||: the answer is precision_limit with no certificate (Gap
// and DistBound +Inf) and a message saying why, never solved.
func TestHoldCostNoCertificate(t *testing.T) {
	c, d := 1.25*(1<<44), float64(1<<44)
	p := &Problem{N: 4, Loss: "none", Ridge: 1e-12, Q: []float64{-81, 2, -9, 67},
		A: [][]float64{{c, 0, 0, -d}, {0, -1e20, -1e6, 0}, {-c + 0.25, 1e20, 1e20, d}},
		B: []float64{0, -0.75, 1.5}, Upper: []float64{1e300, 0, 1e300, 1e300}}
	r, err := Solve(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusPrecisionLimit || !math.IsInf(r.Gap, 1) || !math.IsInf(r.DistBound, 1) || !strings.Contains(r.Message, "own terms") {
		t.Errorf("status %v, F %.6g, gap %g, distance bound %g, message %q: want precision_limit without a certificate (F* = 1.14e17)",
			r.Status, r.Objective, r.Gap, r.DistBound, r.Message)
	}
}

// TestOneVariableInfeasible: x >= 0 (with x <= 1e19) and rows that, among
// others, pin x = -1.4631 (rows 0 and 2) and ask x >= 0.916 (row 4). The
// active-set method held row 4, took row 2 (its exact opposite) for a
// consistent dependent row, because its certificate with row 4 left
// A'y = -8e-20 by rounding, which the upper bound 1e19 made -0.8, and
// cycled between rows 2 and 5: precision_limit after 450 working-set
// changes, or until the time limit with a large MaxSteps. It must end
// infeasible at once, with a certificate that holds in big.Rat.
func TestOneVariableInfeasible(t *testing.T) {
	for _, ms := range []int64{0, 1e9} {
		p := &Problem{N: 1, Loss: "none", Ridge: 0.01, Lower: []float64{0}, Upper: []float64{1e19}, P: [][]float64{{0.235225}}, Q: []float64{2.067}, Offset: 1000,
			A: [][]float64{{-1.004}, {-1.179}, {1.004}, {0.296}, {-0.000981}, {0.296}}, B: []float64{1.469, 0.998, -1.469, 0.552, -0.000899, -0.000899}}
		res, err := Solve(context.Background(), p, &Options{MaxSteps: ms, TimeLimit: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusInfeasible || res.Info.Steps > 10 {
			t.Fatalf("MaxSteps %d: %v after %d steps, want infeasible at once", ms, res.Status, res.Info.Steps)
		}
		if err := ratFarkasBox(p, res.FarkasA); err != nil {
			t.Errorf("MaxSteps %d: certificate %v: %v", ms, res.FarkasA, err)
		}
	}
}

// ratFarkasBox checks y as a Farkas certificate of p's rows A x <= B and
// box Lower <= x <= Upper (bounds of magnitude 1e20 and more are none) in
// big.Rat: y >= 0, and B'y below the box's minimum of (A'y)'x.
func ratFarkasBox(p *Problem, y []float64) error {
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	by, minBox := new(big.Rat), new(big.Rat)
	for j, v := range y {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("y_%d = %v", j, v)
		}
		by.Add(by, new(big.Rat).Mul(rat(v), rat(p.B[j])))
	}
	for c := 0; c < p.N; c++ {
		w := new(big.Rat)
		for j, v := range y {
			w.Add(w, new(big.Rat).Mul(rat(v), rat(p.A[j][c])))
		}
		bound := math.Inf(-1)
		if w.Sign() > 0 && p.Lower != nil && p.Lower[c] > -noBound {
			bound = p.Lower[c]
		}
		if w.Sign() < 0 {
			bound = math.Inf(1)
			if p.Upper != nil && p.Upper[c] < noBound {
				bound = p.Upper[c]
			}
		}
		switch {
		case w.Sign() == 0:
			continue
		case math.IsInf(bound, 0):
			return fmt.Errorf("(A'y)_%d = %s needs a bound x_%d lacks", c, w.FloatString(30), c)
		}
		minBox.Add(minBox, new(big.Rat).Mul(w, rat(bound)))
	}
	if by.Cmp(minBox) >= 0 {
		return fmt.Errorf("B'y = %s is not below the box's minimum %s of (A'y)'x", by.FloatString(20), minBox.FloatString(20))
	}
	return nil
}
