package solver

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

// The handover (handover.go): the penalty method (apg, with its working set
// where the rows are many) hands its working set to the active-set engine,
// which finishes exactly. Every kind of problem the engine takes is
// checked against the engine solving it cold (MethodActiveSet) and, where
// the problem is planted, against x*: rows, equalities, box and l1, a
// degenerate active set (more active rows than variables, multipliers not
// unique) and the diagonal Hessian of a hard-margin SVM.

// handoverCases are the problems of the handover tests, with x* where it
// is known (nil: compare with the cold engine only).
func handoverCases() []struct {
	name  string
	p     *Problem
	xstar []float64
} {
	type tc = struct {
		name  string
		p     *Problem
		xstar []float64
	}
	rows, xr, _ := planted(31, 20, 3000, 10, 1)
	eq, xe, _, _ := plantedEqualities()
	box, xb := plantedL1Box(2500)
	deg, xd := degenerateCone(6, 40, 3000)
	return []tc{
		{"rows", rows, xr},
		{"equalities", eq, xe},
		{"l1+box", box, xb},
		{"degenerate", deg, xd},
		{"svm-diagonal", smallSVM(4000, 10), nil},
	}
}

// plantedEqualities is planted(11, 15, 30, 6, 1) with its first three
// active rows made equalities, one with a negative multiplier (its row
// negated, the same hyperplane, so nu = -lam in the stationarity): x*, the
// remaining rows' multipliers lam* and the equalities' nu*.
func plantedEqualities() (p *Problem, x, lam, nu []float64) {
	p, x, lam = planted(11, 15, 30, 6, 1)
	n := p.N
	aeq := mat.NewDense(3, n)
	beq := make([]float64, 3)
	nu = make([]float64, 3)
	for k := 0; k < 3; k++ {
		copy(aeq.Row(k), p.A.Row(k))
		beq[k] = p.B[k]
		nu[k] = lam[k]
	}
	for i := range aeq.Row(2) {
		aeq.Row(2)[i] = -aeq.Row(2)[i]
	}
	beq[2], nu[2] = -beq[2], -nu[2]
	rest := &mat.Dense{Rows: p.A.Rows - 3, Cols: n, Stride: n, Data: p.A.Data[3*n:]}
	p.A, p.B, p.Aeq, p.Beq = rest, p.B[3:], aeq, beq
	return p, x, lam[3:], nu
}

// plantedL1Box is TestL1Box's problem (components of x* at both bounds, at
// the l1 kink and free, one active row) with m-4 more rows slack at x*.
func plantedL1Box(m int) (*Problem, []float64) {
	k := newL1BoxPoint()
	n, g, P, ridge, l1, lo, hi, x, sub := k.n, k.g, k.P, k.ridge, k.l1, k.lo, k.hi, k.x, k.sub
	A := randDense(&g, m, n)
	b := make([]float64, m)
	A.MulVec(b, x)
	for j := 1; j < m; j++ {
		b[j] += 0.1 + math.Abs(g.Normal())
	}
	q := make([]float64, n)
	P.MulVec(q, x)
	for i := range q {
		q[i] = -q[i] - ridge*x[i] - sub[i] - 0.7*A.Row(0)[i]
	}
	return &Problem{N: n, Loss: LossNone, P: P, Q: q, Ridge: ridge, L1: l1, Lower: lo, Upper: hi, A: A, B: b}, x
}

// degenerateCone is min 1/2 ||x - x0||^2 with k > n rows a_j'x <= 0 all
// active at x* = 0 (x0 = 0.1 sum_j a_j lies in their cone, so the
// multipliers are not unique) and m - k rows slack there.
func degenerateCone(n, k, m int) (*Problem, []float64) {
	g := testqp.LCG(17)
	A := randDense(&g, m, n)
	b := make([]float64, m)
	x0 := make([]float64, n)
	for j := 0; j < m; j++ {
		row := A.Row(j)
		if j < k {
			row[0] = 3 + math.Abs(row[0]) // a cone around e_1
			for i := range x0 {
				x0[i] += 0.1 * row[i]
			}
			continue
		}
		b[j] = 0.5 + math.Abs(g.Normal())
	}
	q := make([]float64, n)
	for i := range q {
		q[i] = -x0[i]
	}
	return &Problem{N: n, Loss: LossNone, Ridge: 1, Q: q, A: A, B: b}, make([]float64, n)
}

// smallSVM is a hard-margin SVM (H = I) on m separable points in R^n:
// testqp.Separate with margin 0.2 by a normal w (not scaled), both drawn
// from testqp.LCG(23).
func smallSVM(m, n int) *Problem {
	g := testqp.LCG(23)
	w := g.Normals(n)
	points := g.NormalRows(m, n)
	return hardMarginSVM(testqp.Separate(points, w, 0.2), points)
}

// hardMarginSVM is the hard-margin SVM (H = I) on labelled points: the
// rows -y_j a_j'x <= -1 (testqp.HardMarginRows).
func hardMarginSVM(labels []float64, points [][]float64) *Problem {
	rows, b := testqp.HardMarginRows(labels, points)
	A := testqp.Dense(rows)
	return &Problem{N: A.Cols, Loss: LossNone, Ridge: 1, A: A, B: b}
}

// largeQPProblem is the root benchmarks' largeQP: testqp.LargeQP, seed 1.
func largeQPProblem(l, m, n int) *Problem { return fromTestQP(testqp.LargeQP(l, m, n, 1)) }

// separableSVMProblem is the root benchmarks' separableSVM:
// testqp.SeparableSVM, seed 7, as a hard-margin SVM.
func separableSVMProblem(m, n int) *Problem { return hardMarginSVM(testqp.SeparableSVM(m, n, 7)) }

// TestHandover: the penalty method with its handover ends solved by the
// engine (Polished) at a certified gap of 1e-10, at the
// cold engine's answer and at x*, and a warm re-solve allocates nothing.
func TestHandover(t *testing.T) {
	for _, c := range handoverCases() {
		t.Run(c.name, func(t *testing.T) {
			ref := solveOK(t, c.p, &Options{Method: MethodActiveSet, Tol: 1e-10})
			if ref.Status != StatusSolved {
				t.Fatalf("reference: status %v", ref.Status)
			}
			refX := append([]float64(nil), ref.X...)
			s, err := New(c.p, &Options{Method: MethodAPG, Tol: 1e-10})
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v, gap %.2e, %d steps, %d stages, %d engine changes, kept %d", res.Status, res.Gap, res.Steps, res.Stages, res.Iterations, res.Kept)
			if res.Status != StatusSolved || !res.Polished {
				t.Fatalf("status %v, polished %v: the engine did not finish", res.Status, res.Polished)
			}
			if d := maxAbsDiff(res.X, refX); d > 1e-8 {
				t.Errorf("max |x - x_engine| = %.3e", d)
			}
			if c.xstar != nil {
				if d := maxAbsDiff(res.X, c.xstar); d > 1e-8 {
					t.Errorf("max |x - x*| = %.3e", d)
				}
			}
			if res.MaxViolation > 1e-9 {
				t.Errorf("max violation %.3e", res.MaxViolation)
			}
			if d := testqp.Dist(res.X, refX); d > res.DistBound*(1+1e-9)+1e-12 {
				t.Errorf("||x - x_engine|| = %.3e above the distance bound %.3e", d, res.DistBound)
			}
			ctx := context.Background()
			if a := testing.AllocsPerRun(3, func() { s.Reset(); s.Solve(ctx) }); a != 0 {
				t.Errorf("re-solve allocates %v times", a)
			}
		})
	}
}

// TestHandoverNoPolish: NoPolish keeps the engine out of the penalty
// method (it is not even built). Its stages alone end near x*, at a point
// that violates rows by more than rounding: precision_limit, saying so,
// since its gap would hold only with xi >= ||lambda*||_inf.
func TestHandoverNoPolish(t *testing.T) {
	p, x, _ := planted(31, 20, 3000, 10, 1)
	s, err := New(p, &Options{Method: MethodAPG, Tol: 1e-6, NoPolish: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.fin.eng != nil {
		t.Error("NoPolish: the engine was built")
	}
	res, err := s.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusPrecisionLimit || !strings.Contains(res.Message, "violates rows") || res.Polished || res.Iterations != 0 {
		t.Errorf("status %v (%s), polished %v, %d engine changes", res.Status, res.Message, res.Polished, res.Iterations)
	}
	if d := testqp.Dist(res.X, x); d > 1e-3*testqp.Norm(x) || !math.IsInf(res.DistBound, 1) {
		t.Errorf("||x - x*|| = %.3e, distance bound %.3e for a point that violates rows", d, res.DistBound)
	}
}

// BenchmarkHandoverGap is the measurement behind handoverGap: the penalty
// method (apg, no probe) to a certified 1e-9, handing over to the engine
// once its relative gap is below 1e-3 ... 1e-6, on a separable SVM
// (m = 1e6, n = 50) and a large QP (l = 2000, m = 1e5, n = 100). It
// reports the engine's working-set changes and the penalty method's steps.
// (At 1e-2 and 1e-1 the SVM takes 7-30 s: the engine needs 730-980
// changes.) Run it with -benchtime 1x (the SVM takes seconds); under
// -short (as CI runs the benchmarks) it takes a separable SVM of 2e4 rows
// and a large QP of 5000.
func BenchmarkHandoverGap(b *testing.B) {
	problems := func() []struct {
		name string
		p    *Problem
	} {
		if testing.Short() {
			return []struct {
				name string
				p    *Problem
			}{{"svm-m=2e4", separableSVMProblem(20000, 20)}, {"largeqp-m=5e3", largeQPProblem(200, 5000, 20)}}
		}
		return []struct {
			name string
			p    *Problem
		}{{"svm-m=1e6", separableSVMProblem(1000000, 50)}, {"largeqp-m=1e5", largeQPProblem(2000, 100000, 100)}}
	}
	for _, pr := range problems() {
		for _, gap := range []float64{1e-3, 1e-4, 1e-5, 1e-6} {
			b.Run(fmt.Sprintf("%s/gap=%g", pr.name, gap), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					s, err := New(pr.p, &Options{Method: MethodAPG, Tol: 1e-9, NoProbe: true})
					if err != nil {
						b.Fatal(err)
					}
					s.fin.gap = gap
					res, _ = s.Solve(context.Background())
				}
				if res.Status != StatusSolved || !res.Polished {
					b.Fatalf("status %v, polished %v", res.Status, res.Polished)
				}
				b.ReportMetric(float64(res.Iterations), "changes")
				b.ReportMetric(float64(res.Steps), "steps")
			})
		}
	}
}
