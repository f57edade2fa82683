package activeset

import (
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
)

// TestFarkasMarginAsChecker: the equalities x_1 + x_2 = 1 and
// x_1 + e x_2 = e, e = 1 + 1e-12, and the row x_2 <= 1/2 contradict each
// other by a margin of (e-1)/2, 2.5e-13 of the certificate's terms. With
// the certificate exact (1 and -1 on the equalities, e - 1 on the row:
// A'y = 0 in the caller's data) the margin proves infeasibility; with the
// row's weight one ulp off, A'y is 1e-16 on an unbounded coordinate and
// the certificate holds only up to that, which an independent check
// (qpgen.CheckFarkas) accepts from a margin of 1e-12 of the terms:
// farkasHolds, which accepted it at 1e-13, must not claim what the
// checker refuses. The engine's own answer is either.
func TestFarkasMarginAsChecker(t *testing.T) {
	p := nearCopyEqualities(1e-12, false)
	p.A, p.B = dense([][]float64{{0, 1}}), []float64{0.5}
	e := p.Beq[1]
	s := mustNew(t, p)
	for _, tc := range []struct {
		name string
		yA   float64
	}{
		{"exact", e - 1},
		{"one ulp off", math.Nextafter(e-1, 1)},
	} {
		s.res.FarkasA[0], s.res.FarkasEq[0], s.res.FarkasEq[1] = tc.yA, 1, -1
		ok, _ := s.farkasHolds()
		want, why := qpgen.CheckFarkas(qpOf(p), s.res.FarkasA, s.res.FarkasEq)
		if ok != want {
			t.Errorf("%s: farkasHolds %v, checker %v (%s)", tc.name, ok, want, why)
		}
	}
	r := s.Solve(ctx)
	infeasibleOrUndecided(t, "solve", p, r, true)
}

// TestFarkasRadius: a direction whose A'y is not zero on an unbounded
// coordinate proves only that no x within margin / |A'y| of the origin is
// feasible. Equalities x_1 + x_2 = 1 and x_1 + (1 + 1e-14) x_2 = 1 + 1e-9
// (and the same as rows, and with a third variable) are feasible at
// |x| = 1e5, where the direction (1, -1) leaves A'y = 1e-14 with a margin
// of 1e-9: farkasHolds, which took any A'y within 1e-13 of its terms as
// zero, called them infeasible; it must refuse the direction, and the
// solve must not end infeasible (it may end precision_limit: the answer's
// multipliers are about 1e14). Parallel rows whose A'y is only the
// rounding of the data, 0.1 (x_1 + x_2) = 0.1 and 0.3 (x_1 + x_2) = 0.5
// with y = (3, -1), are infeasible (exactly) and keep their certificate.
func TestFarkasRadius(t *testing.T) {
	far := []*Problem{
		{N: 2, H: dense([][]float64{{1, 0}, {0, 1}}), C: []float64{0, 0},
			Aeq: dense([][]float64{{1, 1}, {1, 1 + 1e-14}}), Beq: []float64{1, 1 + 1e-9}},
		{N: 3, H: dense([][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}), C: []float64{0, 0, 0},
			Aeq: dense([][]float64{{1, 1, 0.5}, {1, 1 + 1e-13, 0.5}}), Beq: []float64{1, 1 + 1e-9}},
		{N: 2, H: dense([][]float64{{1, 0}, {0, 1}}), C: []float64{0, 0},
			A: dense([][]float64{{1, 1}, {-1, -1 - 1e-14}}), B: []float64{1, -1 - 1e-9}},
	}
	for k, p := range far {
		if ex := exactAnswer(t, p); ex.Infeasible {
			t.Fatalf("case %d: the exact answer says infeasible", k)
		}
		s := mustNew(t, p)
		if p.Aeq != nil {
			s.res.FarkasEq[0], s.res.FarkasEq[1] = 1, -1
		} else {
			s.res.FarkasA[0], s.res.FarkasA[1] = 1, 1
		}
		if ok, _ := s.farkasHolds(); ok {
			t.Errorf("case %d: farkasHolds accepts a direction that fails at |x| = 1e5", k)
		}
		if r := s.Solve(ctx); r.Status == StatusInfeasible {
			t.Errorf("case %d: infeasible (certificate %v %v) on a feasible problem", k, r.FarkasA, r.FarkasEq)
		} else {
			t.Logf("case %d: %v", k, r.Status)
		}
	}
	p := &Problem{N: 2, H: dense([][]float64{{1, 0}, {0, 1}}), C: []float64{0, 0},
		Aeq: dense([][]float64{{0.1, 0.1}, {0.3, 0.3}}), Beq: []float64{0.1, 0.5}}
	s := mustNew(t, p)
	s.res.FarkasEq[0], s.res.FarkasEq[1] = 3, -1
	if ok, _ := s.farkasHolds(); !ok {
		t.Error("parallel rows: farkasHolds refuses y = (3, -1), whose A'y is the data's rounding")
	}
	infeasibleOrUndecided(t, "parallel rows", p, s.Solve(ctx), false)
}

// TestFarkasScaledToTheRows: a row and an equality with the same normal
// that contradict each other (a'x <= -2.5, a'x = 0), beside a second row.
// The null direction scaled to the caller's rows came out as y = (1 -
// 1e-16, -(1 - 8.8e-15)), whose A'y of 2e-14 farkasHolds rightly does not
// count as zero, and the solve ended precision_limit (FuzzActiveSet
// 0c73fa28). Polished on the caller's scale, y must be the exact
// certificate.
func TestFarkasScaledToTheRows(t *testing.T) {
	h := [][]float64{{18.9611328125, 18.515625, 18.515625}, {18.515625, 19.425, 18.75}, {18.515625, 18.75, 19.425}}
	p := &Problem{N: 3, H: dense(h), C: []float64{-10, -10, -10},
		A: dense([][]float64{{-2.5, -2.5, -2.46875}, {-1.875, -1.875, -1.90625}}), B: []float64{-2.5, -2.5},
		Aeq: dense([][]float64{{-2.5, -2.5, -2.46875}}), Beq: []float64{0}}
	r := mustNew(t, p).Solve(ctx)
	if r.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible (y = %v, yeq = %v)", r.Status, r.FarkasA, r.FarkasEq)
	}
	// The exact certificate: y on the row equal and opposite to yeq.
	if r.FarkasA[0] <= 0 || r.FarkasA[1] != 0 || r.FarkasEq[0] != -r.FarkasA[0] {
		t.Errorf("y = %v, yeq = %v; want (t, 0) and -t", r.FarkasA, r.FarkasEq)
	}
}

// TestFarkasExact: farkasExact confirms a certificate whose rows are
// exactly dependent and contradictory (rows r1, r2 and -(r1 + r2) with
// b = -1 each, summed exactly), with the solved entries replacing the
// given ones (given off by 1e-9, they come back exact); refuses the same
// rows with the third off by 1e-12 in one entry (feasible, far away),
// unless that coordinate is boxed (the box absorbs the difference); and
// leaves a support above exactFarkasMaxSupport to the float check.
func TestFarkasExact(t *testing.T) {
	const n = 5
	r1 := []float64{1, -2, 3, 0.5, -1}
	r2 := []float64{-4, 1, 0.25, 2, 3}
	sum := make([]float64, n)
	for i := range sum {
		sum[i] = -(r1[i] + r2[i])
	}
	near := append([]float64(nil), sum...)
	near[3] += 1e-12
	id := mat.NewDense(n, n)
	id.AddDiag(1)
	for _, c := range []struct {
		name  string
		rows  [][]float64
		boxed bool
		want  bool
	}{
		{"exactly dependent", [][]float64{r1, r2, sum}, false, true},
		{"nearly dependent", [][]float64{r1, r2, near}, false, false},
		{"nearly dependent, boxed", [][]float64{r1, r2, near}, true, true},
	} {
		p := &Problem{N: n, H: id, C: make([]float64, n), ARows: c.rows, B: []float64{-1, -1, -1}}
		if c.boxed {
			p.Lower = []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1), -1, math.Inf(-1)}
			p.Upper = []float64{math.Inf(1), math.Inf(1), math.Inf(1), 1, math.Inf(1)}
		}
		s, err := New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		copy(s.res.FarkasA, []float64{1, 1 + 1e-9, 1})
		if got := s.farkasExact(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		if c.want && !c.boxed {
			for j, v := range s.res.FarkasA {
				if v != 1 {
					t.Errorf("%s: y[%d] = %v, want 1 (the exact certificate)", c.name, j, v)
				}
			}
		}
	}
	// A support of exactFarkasMaxSupport + 1 rows: not decided here.
	k := exactFarkasMaxSupport + 1
	rows, b := make([][]float64, k), make([]float64, k)
	for j := range rows {
		rows[j] = make([]float64, n)
		rows[j][j%n] = 1 + float64(j)
		b[j] = -1
	}
	s, err := New(&Problem{N: n, H: id, C: make([]float64, n), ARows: rows, B: b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range s.res.FarkasA {
		s.res.FarkasA[j] = 1
	}
	if !s.farkasExact() {
		t.Error("a support above exactFarkasMaxSupport: refused, want it left to the float check")
	}
}

// TestOppositeHugeBoundInfeasible: x in [0, 1e19] with rows x >= 0.916
// and x <= -1.463 (and x <= -0.003) as exact opposites of each other. The
// null direction of the pair scaled to the caller's rows leaves A'y =
// -8e-20 from rounding, which the upper bound 1e19 turns into -0.8 of the
// box's minimum, more than the pair's margin: the loop took each opposite
// row for a consistent dependent one and cycled between the two until its
// bound on working-set changes, or, with a large MaxSteps, until the time
// limit. With A'y tilted to the sign the lower bound 0 pays nothing for
// (tiltFarkas) the pair is a certificate, and the solve ends at once.
func TestOppositeHugeBoundInfeasible(t *testing.T) {
	rows := [][]float64{{-1.004}, {-1.179}, {1.004}, {0.296}, {-0.000981}, {0.296}}
	b := []float64{1.469, 0.998, -1.469, 0.552, -0.000899, -0.000899}
	lo, up := []float64{0}, []float64{1e19}
	for _, ms := range []int{0, 1e9} {
		p := &Problem{N: 1, H: dense([][]float64{{0.245225}}), C: []float64{2.067},
			A: dense(rows), B: b, Lower: lo, Upper: up}
		s, err := New(p, &Options{MaxSteps: ms, TimeLimit: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		r := s.Solve(ctx)
		if r.Status != StatusInfeasible || r.Steps > 10 {
			t.Fatalf("MaxSteps %d: status %v after %d working-set changes, want infeasible at once", ms, r.Status, r.Steps)
		}
		if err := exactFarkasBox(rows, b, lo, up, r.FarkasA); err != nil {
			t.Errorf("MaxSteps %d: certificate %v: %v", ms, r.FarkasA, err)
		}
	}
}

// exactFarkasBox checks y as a Farkas certificate of A x <= b, lo <= x <=
// up in big.Rat: y >= 0, and b'y below the box's minimum of (A'y)'x.
func exactFarkasBox(rows [][]float64, b, lo, up, y []float64) error {
	by, minBox := new(big.Rat), new(big.Rat)
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	for j, v := range y {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("y_%d = %v", j, v)
		}
		by.Add(by, new(big.Rat).Mul(rat(v), rat(b[j])))
	}
	for c := range lo {
		w := new(big.Rat)
		for j, v := range y {
			w.Add(w, new(big.Rat).Mul(rat(v), rat(rows[j][c])))
		}
		bound := lo[c]
		switch w.Sign() {
		case 0:
			continue
		case -1:
			bound = up[c]
		}
		if math.IsInf(bound, 0) {
			return fmt.Errorf("(A'y)_%d = %v needs the bound %v", c, w.FloatString(30), bound)
		}
		minBox.Add(minBox, new(big.Rat).Mul(w, rat(bound)))
	}
	if by.Cmp(minBox) >= 0 {
		return fmt.Errorf("b'y = %v is not below the box's minimum %v of (A'y)'x", by.FloatString(20), minBox.FloatString(20))
	}
	return nil
}
