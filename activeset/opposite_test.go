package activeset

import (
	"math"
	"slices"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
)

// oppositeProblem is min 1/2 ||x||^2 s.t. rows a_j'x <= b_j.
func oppositeProblem(rows [][]float64, b []float64) (*Problem, *qpgen.QP) {
	n := len(rows[0])
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
		h[i][i] = 1
	}
	p := &Problem{N: n, H: dense(h), C: make([]float64, n), A: dense(rows), B: b}
	return p, &qpgen.QP{N: n, H: h, C: make([]float64, n), A: rows, B: b}
}

// wantOpposite fails t unless r is infeasible with a certificate on
// exactly the rows want, accepted in big.Float.
func wantOpposite(t *testing.T, q *qpgen.QP, r *Result, want []int) {
	t.Helper()
	if r.Status != StatusInfeasible {
		t.Fatalf("status %v after %d working-set changes (violation %.3g), want infeasible", r.Status, r.Steps, r.MaxViolation)
	}
	var got []int
	for j, y := range r.FarkasA {
		if y != 0 {
			got = append(got, j)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("certificate on rows %v (%v), want %v", got, r.FarkasA, want)
	}
	if ok, why := qpgen.CheckFarkas(q, r.FarkasA, nil); !ok {
		t.Errorf("certificate refused: %s", why)
	}
}

// TestOppositeAtMaxSteps: a solve stopped by MaxSteps before it admits
// either row of a contradicting pair (violated by 1e-4 on the unit rows,
// against 10 for the row it admits first) ends infeasible with the pair's
// certificate, not with StatusMaxSteps.
func TestOppositeAtMaxSteps(t *testing.T) {
	p, q := oppositeProblem([][]float64{{0, 1}, {1e4, 1}, {-1e4, -1}}, []float64{-10, -1, -1})
	s, err := New(p, &Options{MaxSteps: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantOpposite(t, q, s.Solve(ctx), []int{1, 2})
}

// TestOppositeAtRayTry: two rows push x to (1e13, 0, 1e13), where the
// rounding floor PrimalTol (1 + ||x||_inf) = 10 hides the pair x_2 <= -1,
// -x_2 <= -1 from the loop (it would answer optimal with violation 1).
// The try of the multipliers (1e13, past 1e12) as a certificate, at the
// start of the third iteration, fails (they are no ray) and finds the
// pair.
func TestOppositeAtRayTry(t *testing.T) {
	p, q := oppositeProblem([][]float64{{-1, 0, 0}, {0, 0, -1}, {0, 1, 0}, {0, -1, 0}}, []float64{-1e13, -1e13, -1, -1})
	s := mustNew(t, p)
	r := s.Solve(ctx)
	wantOpposite(t, q, r, []int{2, 3})
	if r.Steps != 2 {
		t.Errorf("found after %d working-set changes, want 2 (at the first try)", r.Steps)
	}
}

// TestOppositeIndex: the index holds the classes of rows with opposite
// directions to the last bit (a copy scaled by a power of two is one, a
// copy off by an ulp is not), and the certificate needs their right-hand
// sides to contradict: a slab -1 <= a'x <= 1 is not infeasible.
func TestOppositeIndex(t *testing.T) {
	a := []float64{0, 0.1, 0.7, -3}
	neg, twice, off := make([]float64, 4), make([]float64, 4), slices.Clone(a)
	for i, v := range a {
		neg[i], twice[i] = -v, -2*v
	}
	off[3] = -3.0000000000000004
	rows := [][]float64{a, {1, 0, 0, 0}, off, {0, 0, 0, 0}, twice, {0, 0, 0, 1}, {0, 0, 0, -1}, neg, a}
	p, q := oppositeProblem(rows, []float64{1, 5, 1, 0, 2, 1, 1, -3, 1})
	s := mustNew(t, p)
	s.buildOpposites()
	o := &s.rare.opp
	if want := []int32{0, 8, 4, 7, 5, 6}; !slices.Equal(o.rows, want) {
		t.Errorf("rows %v, want %v", o.rows, want)
	}
	if want := []int32{0, 4, 6}; !slices.Equal(o.start, want) {
		t.Errorf("start %v, want %v", o.start, want)
	}
	if want := []int32{2, 5}; !slices.Equal(o.mid, want) {
		t.Errorf("mid %v, want %v", o.mid, want)
	}
	// Rows 0 and 8 (a'x <= 1) against 4 (-2a'x <= 2: a'x >= -1) and 7
	// (-a'x <= -3: a'x >= 3): the pair is 0 and 7.
	if !s.oppositeCertificate() {
		t.Fatal("no certificate for rows 0 and 7")
	}
	r := s.res
	r.Status = StatusInfeasible
	wantOpposite(t, q, &r, []int{0, 7})

	// Without row 7 every pair is consistent: a'x <= 1, a'x >= -1.
	rows[7] = []float64{0, 0, 1, 0}
	p, _ = oppositeProblem(rows, []float64{1, 5, 1, 0, 2, 1, 1, -3, 1})
	s = mustNew(t, p)
	if s.oppositeCertificate() {
		t.Errorf("certificate %v for consistent rows", s.res.FarkasA)
	}
	if r := s.Solve(ctx); r.Status != StatusSolved {
		t.Errorf("status %v, want optimal", r.Status)
	}
}

// TestOppositeFarOut: min 1e-4/2 ||x||^2 + q1 x_1 with the contradicting
// pair 1e9 x_0 - 0.2 x_1 <= -1, -1e9 x_0 + 0.2 x_1 <= -0.1. With q1 > 0
// the loop holds the first row at x_1 = -q1 1e4 and sees the second's
// violation of 1.1 (4e5 in its terms) as the rounding of ||x|| = 1e6 and
// more; it answered "solved" with that violation. The answer is
// infeasible, with the pair's certificate.
func TestOppositeFarOut(t *testing.T) {
	for _, q1 := range []float64{0, 100, 417, 1e4} {
		rows := [][]float64{{1e9, -0.2}, {-1e9, 0.2}}
		b := []float64{-1, -0.1}
		p, q := oppositeProblem(rows, b)
		for i := range p.H.Data {
			p.H.Data[i] *= 1e-4
			q.H[i/2][i%2] *= 1e-4
		}
		p.C[1], q.C[1] = q1, q1
		s, err := New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantOpposite(t, q, s.Solve(ctx), []int{0, 1})
	}
}

// TestOwnTermsViolationAdmitted: contradictions far out that are not two
// opposite rows (an equality and a row; two rows and a bound; three rows
// summing to 0 with b summing to -1.25), each with q pushing x to 1e6 or
// beyond, where the loop's answer violated a row by 1.1 to 1.5 against
// terms of 4e5 to 2.5e7, within the rounding of ||x|| only, and was
// answered solved. The row violated beyond its own terms' rounding is
// admitted, and each ends infeasible with a certificate checked in
// big.Float.
func TestOwnTermsViolationAdmitted(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []*qpgen.QP{
		{N: 2, C: []float64{0, 100}, Aeq: [][]float64{{1e9, -0.2}}, Beq: []float64{-1},
			A: [][]float64{{-1e9, 0.2}}, B: []float64{-0.1}},
		{N: 3, C: []float64{0, 100, 100}, A: [][]float64{{1e9, -0.25, 0}, {-1e9, 0.25, 1}}, B: []float64{-1, -0.5},
			Lower: []float64{-inf, -inf, 0}, Upper: []float64{inf, inf, inf}},
		{N: 3, C: []float64{0, 0, 1e4}, A: [][]float64{{1e9, -0.25, 0}, {-1e9, 0, 0.25}, {0, 0.25, -0.25}},
			B: []float64{-1, -0.5, 0.25}},
	} {
		c.H = make([][]float64, c.N)
		for i := range c.H {
			c.H[i] = make([]float64, c.N)
			c.H[i][i] = 1e-4
		}
		p := &Problem{N: c.N, H: dense(c.H), C: c.C, A: dense(c.A), B: c.B, Lower: c.Lower, Upper: c.Upper}
		if c.Aeq != nil {
			p.Aeq, p.Beq = dense(c.Aeq), c.Beq
		}
		r := mustNew(t, p).Solve(ctx)
		if r.Status != StatusInfeasible {
			t.Fatalf("%v: status %v (violation %.3g), want infeasible", c.A, r.Status, r.MaxViolation)
		}
		if ok, why := qpgen.CheckFarkas(c, r.FarkasA, r.FarkasEq); !ok {
			t.Errorf("%v: certificate refused: %s", c.A, why)
		}
	}
}

// TestInconsistentEqualitiesFarOut: the equalities 1e9 x_0 - 0.2 x_1 = -1
// and -1e9 x_0 + 0.2 x_1 = 0.9 contradict each other by 0.1, which on the
// unit rows is 1e-10: below the loop's PrimalTol (1 + ||b||), where
// pushEquality took the second for implied and left it out, and the
// answer (x_1 pushed to -q1 1e4) was solved with a violation of 0.1 against
// terms of 4e5, or precision_limit with q1 = 0. A contradiction beyond the
// rounding of the right-hand sides' own terms is now tried as a
// certificate: infeasible, checked in big.Float.
func TestInconsistentEqualitiesFarOut(t *testing.T) {
	for _, q1 := range []float64{0, 100, 417} {
		c := &qpgen.QP{N: 2, H: [][]float64{{1e-4, 0}, {0, 1e-4}}, C: []float64{0, q1},
			Aeq: [][]float64{{1e9, -0.2}, {-1e9, 0.2}}, Beq: []float64{-1, 0.9}}
		p := &Problem{N: 2, H: dense(c.H), C: c.C, Aeq: dense(c.Aeq), Beq: c.Beq}
		r := mustNew(t, p).Solve(ctx)
		if r.Status != StatusInfeasible {
			t.Fatalf("q1 = %g: status %v (violation %.3g), want infeasible", q1, r.Status, r.MaxViolation)
		}
		if ok, why := qpgen.CheckFarkas(c, r.FarkasA, r.FarkasEq); !ok {
			t.Errorf("q1 = %g: certificate refused: %s", q1, why)
		}
	}
}
