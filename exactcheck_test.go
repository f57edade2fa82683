package softpen

import (
	"context"
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
)

// illConditionedQP draws a QP of 2 to 4 variables harder than most real
// ones: H = Q diag(10^U(-6,4)) Q' (Q random orthogonal), c up to 100, one
// to four rows of which about half are near-copies of an earlier row
// (each entry off by a relative 1e-14..1e-2), near-copy equalities in a
// third of the draws, and a box in 30%.
func illConditionedQP(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	q := make([][]float64, n)
	for i := range q {
		q[i] = make([]float64, n)
		for j := range q[i] {
			q[i][j] = rng.NormFloat64()
		}
		for k := 0; k < i; k++ { // Gram-Schmidt
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
		cons := len(p.A) + len(p.Aeq)
		if p.Lower != nil {
			cons += 2 * p.N
		}
		if cons > qpgen.ExactMaxCons {
			continue // beyond the enumeration's reach
		}
		checked++
		qp := &qpgen.QP{N: p.N, H: p.P, C: p.Q, A: p.A, B: p.B, Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
		ex, err := qpgen.Exact(qp)
		if err != nil {
			t.Fatalf("problem %d: %v", it, err)
		}
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
		excess, _ := new(big.Rat).Sub(qpgen.ObjectiveRat(qp, res.X), ex.F).Float64()
		d := 0.0
		for i, v := range res.X {
			d += (v - ex.X[i]) * (v - ex.X[i])
		}
		d = math.Sqrt(d)
		if excess > res.Gap || (res.MaxViolation <= 0 && d > res.DistBound) {
			t.Errorf("problem %d: solved with gap %.3g and distance bound %.3g; F(x) - F* = %.3g, ||x - x*|| = %.3g",
				it, res.Gap, res.DistBound, excess, d)
		}
	}
	t.Logf("%d of %d checked ended precision_limit", precision, checked)
	if checked < count/2 || precision > checked/10 {
		t.Errorf("%d of %d checked (of %d drawn) ended precision_limit", precision, checked, count)
	}
}
