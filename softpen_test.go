package softpen

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// TestTinyTolerance: a tolerance below what float64 can certify ends at
// once with StatusPrecisionLimit, a message, and the exact answer, on the
// direct path and on the penalty path.
func TestTinyTolerance(t *testing.T) {
	p, ref := readQP(t, 1)
	for _, m := range []Method{MethodAuto, MethodAPG} {
		res, err := Solve(context.Background(), p, &Options{Tol: 1e-16, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusPrecisionLimit || res.Message == "" {
			t.Errorf("%v: status %v, message %q", m, res.Status, res.Message)
		}
		if e := testqp.RelErr(res.X, ref.X); e > 1e-12 || res.Gap > 1e-12 {
			t.Errorf("%v: relative error %.3g, gap %.3g", m, e, res.Gap)
		}
	}
}

// TestGeneratedQPs solves the generator's families through the public API
// (MethodAuto, tol 1e-9) and judges every answer by the generator's
// independent checks: big.Float KKT residuals of x with every multiplier
// the Result reports (rows, equalities and bounds: stationarity, primal and
// dual feasibility, complementarity and the gap, each relative to the size
// of its terms), or a Farkas certificate; on the near-copy families
// (q.NearGap), also the near-copies' exact violations, at most a few eps
// of their norms (qpgen.PrimalBackward). A problem the generator marks
// MayBeUndecided may end StatusPrecisionLimit, undecided in float64;
// nothing else may, and none may end wrong: solved must pass the checks,
// infeasible must carry a certificate the checker accepts.
func TestGeneratedQPs(t *testing.T) {
	for _, fam := range qpgen.Families() {
		for _, n := range []int{1, 4, 20, 60} {
			for seed := uint64(1); seed <= 2; seed++ {
				q := qpgen.Generate(fam, n, seed)
				name := fmt.Sprintf("%s/n%d/s%d", fam, n, seed)
				res, err := Solve(context.Background(), problemOf(q), &Options{Tol: 1e-9})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if res.Status == StatusPrecisionLimit && q.MayBeUndecided {
					continue
				}
				if q.Infeasible {
					if res.Status != StatusInfeasible {
						t.Errorf("%s: status %v on an infeasible problem", name, res.Status)
					} else if ok, why := qpgen.CheckFarkas(q, res.FarkasA, res.FarkasEq); !ok {
						t.Errorf("%s: Farkas refused: %s", name, why)
					}
					continue
				}
				if res.Status != StatusSolved {
					t.Errorf("%s: status %v, gap %.3g (%s)", name, res.Status, res.Gap, res.Message)
					continue
				}
				r, err := qpgen.KKT(q, res.X, res.Lambda, res.Nu, res.LambdaBox)
				if err != nil {
					t.Fatal(err)
				}
				if r.Worst() > 1e-9 {
					t.Errorf("%s: KKT %.3g (stationarity %.2g primal %.2g dual %.2g complementarity %.2g gap %.2g)",
						name, r.Worst(), r.RelStationarity, r.RelPrimal, r.RelDual, r.RelComplementarity, r.RelGap)
				}
				if res.Gap > 1e-9*math.Max(1, math.Abs(res.Objective)) {
					t.Errorf("%s: certified gap %.3g", name, res.Gap)
				}
				if q.XStar != nil {
					if e := testqp.RelErr(res.X, q.XStar); e > 1e-6 && testqp.Norm(q.XStar) > 0 {
						t.Errorf("%s: ||x - x*|| / ||x*|| = %.3g", name, e)
					}
				}
				if q.NearGap > 0 {
					if b := qpgen.PrimalBackward(q, res.X); b > 8 {
						t.Errorf("%s: a near-copy violated by %.3g eps (||a|| ||x|| + |b|)", name, b)
					}
				}
			}
		}
	}
}

// problemOf is a generated QP as a Problem: loss none, P = H, q = c.
func problemOf(q *qpgen.QP) *Problem {
	return &Problem{N: q.N, Loss: "none", P: q.H, Q: q.C, A: q.A, B: q.B, Aeq: q.Aeq, Beq: q.Beq,
		Lower: q.Lower, Upper: q.Upper}
}

// TestZeroSolver: a Solver not made by NewSolver is an error, not a panic.
func TestZeroSolver(t *testing.T) {
	var s Solver
	if _, err := s.Solve(context.Background()); err == nil {
		t.Error("Solve on a zero Solver: no error")
	}
	if err := s.SetB(nil); err == nil {
		t.Error("SetB on a zero Solver: no error")
	}
	s.Reset()
}

// TestDirectTimeLimit: the time limit bounds the active-set method too.
func TestDirectTimeLimit(t *testing.T) {
	p := separableSVM(20000, 50)
	res, err := Solve(context.Background(), p, &Options{Method: MethodActiveSet, TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusTimeLimit {
		t.Errorf("status %v, want time_limit", res.Status)
	}
}

// TestPolishNearlyParallelVertex: a vertex of R^4 where the nearly parallel
// rows 1 and 3 tight fix x_1 = 0 and rows 0 and 2 are tight too, with
// multipliers of 1.5e6 (FuzzTinyQP). The engine's answer violated rows by
// 5e-13, within rounding, but the certificate charges 2 max lambda per
// unit of violation: a relative gap of 3e-9, precision_limit at tol 1e-9.
// Polished from compensated residuals (activeset.Polish), it is solved;
// x* is from exact enumeration.
func TestPolishNearlyParallelVertex(t *testing.T) {
	p := &Problem{N: 4, Loss: "none", Ridge: 2.6, Q: []float64{-2.5, -2.5, -2.5, -2.5},
		A: [][]float64{
			{-2.5, -2.5, -2.46875, -2.5},
			{-2.5, 1.875, 1.875, 1.875},
			{1.875, -2.5, -2.5, -2.5},
			{3.34375, -2.5, -2.5, -2.5},
		},
		B: []float64{-3, 1.875, -2.5, -2.5}}
	res, err := Solve(context.Background(), p, &Options{Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusSolved {
		t.Fatalf("status %v: %s", res.Status, res.Message)
	}
	xs := []float64{0, 8.5, -16, 8.5}
	d := 0.0
	for i := range xs {
		d += (res.X[i] - xs[i]) * (res.X[i] - xs[i])
	}
	if d = math.Sqrt(d); d > res.DistBound {
		t.Errorf("||x - x*|| = %g above the certified %g (x %v)", d, res.DistBound, res.X)
	}
}

// TestPenaltyFarkasConfirmed: a problem of R^4 whose solution lies at
// ||x*|| = 5e6 (FuzzTinyQP): feasible, but nearly not. The penalty method
// found saturated multipliers y with ||A'y|| below 1e-6 of
// sum y and b'y < 0, passed its check, and reported it infeasible. Its
// certificates are now confirmed by the active-set method on their rows
// (solver.confirmFarkas): this one is refused, and the solve must not end
// infeasible. Rows 2 and 3 and a row that contradicts row 2 must still end
// infeasible, with a certificate that holds (with all four rows and that
// one, the penalty method ends max_steps, before this change too).
func TestPenaltyFarkasConfirmed(t *testing.T) {
	rows := [][]float64{
		{2.28125, 2.28125, -2.5, -2.46875},
		{-2.5, -2.5, -2.46875, -2.46875},
		{1.875, 1.875, 1.875, 1.875},
		{-2.46875, -2.5, 3.90625, 0},
	}
	p := &Problem{N: 4, Loss: "none", Ridge: 2.6, Q: []float64{-2.5, -2.5, -2.5, -2.5},
		A: rows, B: []float64{-2.5, -2.5, -2.5, 0}}
	opt := &Options{Method: MethodAPG, Tol: 1e-9, MaxSteps: 2e6}
	res, err := Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == StatusInfeasible {
		t.Fatalf("reported infeasible (farkas %v); x* = (-3529673.33, 3529858.67, 28356, -28542.67) is feasible", res.FarkasA)
	}
	q := *p
	q.A = [][]float64{rows[2], rows[3], {-1.875, -1.875, -1.875, -1.875}}
	q.B = []float64{-2.5, 0, 1.5} // row 2 says <= -2.5, the last >= -1.5
	res, err = Solve(context.Background(), &q, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusInfeasible {
		t.Fatalf("contradiction: status %v", res.Status)
	}
	// y >= 0, A'y = 0 to rounding, b'y < 0.
	g := make([]float64, 4)
	by, size := 0.0, 0.0
	for j, y := range res.FarkasA {
		if y < 0 {
			t.Fatalf("farkas[%d] = %g", j, y)
		}
		for i, a := range q.A[j] {
			g[i] += y * a
			size += math.Abs(y * a)
		}
		by += y * q.B[j]
	}
	for i := range g {
		if math.Abs(g[i]) > 1e-12*size {
			t.Errorf("(A'y)[%d] = %g of %g", i, g[i], size)
		}
	}
	if !(by < 0) {
		t.Errorf("b'y = %g", by)
	}
}

// TestWarmResolveNoAllocs: a Solver re-solving after SetB allocates nothing.
func TestWarmResolveNoAllocs(t *testing.T) {
	p := &Problem{N: 2, Loss: "none", Ridge: 1, Q: []float64{-1, -1}, A: [][]float64{{1, 1}, {1, -1}}, B: []float64{1, 0.2}}
	s, err := NewSolver(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b := []float64{1, 0.2}
	s.Solve(ctx)
	allocs := testing.AllocsPerRun(20, func() {
		b[0] = 0.9 + 0.1*b[0]
		if err := s.SetB(b); err != nil {
			t.Fatal(err)
		}
		if res, _ := s.Solve(ctx); res.Status != StatusSolved {
			t.Fatalf("status %v", res.Status)
		}
	})
	if allocs != 0 {
		t.Errorf("warm re-solve allocates %v times", allocs)
	}
}

// TestColdSetupAllocations: NewSolver on a small MPC QP (the double
// integrator over 10 steps: n = 10, 40 rows, a box) makes at most
// coldNewSolverAllocs allocations, and the one-shot Solve (set-up and
// solve) at most coldSolveAllocs. A small problem's cold set-up is mostly
// allocation and the garbage collection it brings (BenchmarkMPC,
// BenchmarkDAQPCold in scripts/peers), so the counts may only go down.
func TestColdSetupAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocations are not the program's own")
	}
	run, err := testqp.MPCSequence("double-integrator", 10, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := run.Steps[1]
	p := &Problem{N: run.N, P: run.H, Q: st.Q, Lower: run.Lower, Upper: run.Upper, A: run.A, B: st.B}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := NewSolver(p, nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > coldNewSolverAllocs {
		t.Errorf("NewSolver allocates %v times, want at most %d", allocs, coldNewSolverAllocs)
	}
	allocs = testing.AllocsPerRun(10, func() {
		res, err := Solve(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusSolved {
			t.Fatalf("status %v", res.Status)
		}
	})
	if allocs > coldSolveAllocs {
		t.Errorf("Solve allocates %v times, want at most %d", allocs, coldSolveAllocs)
	}
}

// The bounds of TestColdSetupAllocations.
const (
	coldNewSolverAllocs = 14
	coldSolveAllocs     = 13
)

// TestSetBReachesEveryPath: after SetB every method answers the new
// problem: the same x, to 1e-12, as a fresh exact solve with the new b.
// The penalty method's exact finish kept the b it was built with, and
// answered "solved" 20% away from x* (its certificate computed on the old
// rows), and a warm re-solve must not.
func TestSetBReachesEveryPath(t *testing.T) {
	p, _ := readQP(t, 1)
	b2 := make([]float64, len(p.B))
	for j, v := range p.B {
		b2[j] = 0.5 * v
	}
	q := *p
	q.B = b2
	ref, err := Solve(context.Background(), &q, &Options{Tol: 1e-12})
	if err != nil || ref.Status != StatusSolved {
		t.Fatalf("reference: %v %v", err, ref.Status)
	}
	for _, m := range []Method{MethodAuto, MethodAPG, MethodSVRG} {
		s, err := NewSolver(p, &Options{Method: m, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.SetB(b2); err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if e := testqp.RelErr(res.X, ref.X); res.Status != StatusSolved || e > 1e-12 {
			t.Errorf("%v: %v, relative error %.3g after SetB", m, res.Status, e)
		}
	}
}

// TestSetQ: after SetQ every method answers the new problem: the same x,
// to 1e-12, as a fresh exact solve with the new q, on the paper QP (whose
// q is absent: the first SetQ makes one) and with many rows (the sampled
// start); a bad q is an error naming it, and a warm SetQ + SetB + Solve
// allocates nothing.
func TestSetQ(t *testing.T) {
	p, _ := readQP(t, 1)
	g := testqp.LCG(9)
	q2 := g.Normals(p.N)
	for i := range q2 {
		q2[i] *= 0.01
	}
	for _, c := range []struct {
		name string
		p    *Problem
	}{{"paper QP", p}, {"large QP", largeQP(200, 12000, 20)}} {
		q := *c.p
		q.Q = q2[:c.p.N]
		ref, err := Solve(context.Background(), &q, &Options{Tol: 1e-12})
		if err != nil || ref.Status != StatusSolved {
			t.Fatalf("%s reference: %v %v", c.name, err, ref.Status)
		}
		for _, m := range []Method{MethodAuto, MethodAPG} {
			s, err := NewSolver(c.p, &Options{Method: m, Tol: 1e-9})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := s.SetQ(q.Q); err != nil {
				t.Fatal(err)
			}
			res, err := s.Solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if e := testqp.RelErr(res.X, ref.X); res.Status != StatusSolved || e > 1e-12 {
				t.Errorf("%s, %v: %v, relative error %.3g after SetQ", c.name, m, res.Status, e)
			}
			for _, bad := range [][]float64{q2[:c.p.N-1], append(append([]float64(nil), q2[:c.p.N-1]...), math.NaN())} {
				if err := s.SetQ(bad); err == nil || !strings.Contains(err.Error(), "q") {
					t.Errorf("%s: SetQ(%d entries, last %g): %v", c.name, len(bad), bad[len(bad)-1], err)
				}
			}
		}
	}
	s, err := NewSolver(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.SetQ(q2)
	s.Solve(context.Background())
	b := append([]float64(nil), p.B...)
	allocs := testing.AllocsPerRun(20, func() {
		q2[0] = -q2[0]
		b[0] *= 1.001
		if s.SetQ(q2) != nil || s.SetB(b) != nil {
			t.Fatal("SetQ or SetB failed")
		}
		if res, _ := s.Solve(context.Background()); res.Status != StatusSolved {
			t.Fatalf("status %v", res.Status)
		}
	})
	if allocs != 0 {
		t.Errorf("warm SetQ + SetB + Solve allocates %v times", allocs)
	}
}

// TestNearlyDependentEqualities: issue inputs 1 and 2, x1 + x2 = 1 and
// x1 + (1+e) x2 = 1 + e, whose one solution is x* = (0, 1) (multipliers
// about 1/e), with and without a box, on the exact and the penalty path:
// never infeasible (a direction that fails its check is no certificate),
// never the second equality dropped as implied (solved at (0.5, 0.5)), and
// x* to 1e-9 whether the certificate meets the tolerance (solved) or its
// rounding does not let it (precision_limit).
func TestNearlyDependentEqualities(t *testing.T) {
	for _, e := range []float64{1e-7, 1e-8, 1e-9} {
		for _, box := range []bool{false, true} {
			p := &Problem{N: 2, Loss: "none", Ridge: 1, Aeq: [][]float64{{1, 1}, {1, 1 + e}}, Beq: []float64{1, 1 + e}}
			if box {
				p.Lower, p.Upper = []float64{-5, -5}, []float64{5, 5}
			}
			for _, m := range []Method{MethodAuto, MethodAPG} {
				for _, tol := range []float64{1e-6, 1e-9} {
					res, err := Solve(context.Background(), p, &Options{Method: m, Tol: tol})
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("e %g, box %v, %v, tol %g", e, box, m, tol)
					if res.Status != StatusSolved && res.Status != StatusPrecisionLimit && res.Status != StatusTimeLimit {
						t.Errorf("%s: %v (%s)", name, res.Status, res.Message)
						continue
					}
					if d := math.Hypot(res.X[0], res.X[1]-1); d > 1e-9 {
						t.Errorf("%s: %v at x = %v, %.3g from x* = (0, 1)", name, res.Status, res.X, d)
					}
				}
			}
		}
	}
}

// TestNearlyDependentFeasibleFar: x1 + x2 = 1 and x1 + (1 + 1e-14) x2 =
// 1 + 1e-9 meet only at |x| = 1e5 (x2 = (b2 - b1) / (e - 1) in the data's
// own floats), and the same as rows of A (x1 + x2 <= 1, x1 + (1 + 1e-14)
// x2 >= 1 + 1e-9, feasible from there on). Both paths called them
// infeasible on the direction (1, -1), whose A'y, 1e-14, is far above its
// rounding. Never infeasible; solved only at the one feasible point of
// the equalities, or at a point satisfying the rows.
func TestNearlyDependentFeasibleFar(t *testing.T) {
	e, b2 := 1+1e-14, 1+1e-9
	x2 := (b2 - 1) / (e - 1)
	for _, c := range []struct {
		name string
		p    *Problem
	}{
		{"equalities", &Problem{N: 2, Loss: "none", Ridge: 1, Aeq: [][]float64{{1, 1}, {1, e}}, Beq: []float64{1, b2}}},
		{"rows", &Problem{N: 2, Loss: "none", Ridge: 1, A: [][]float64{{1, 1}, {-1, -e}}, B: []float64{1, -b2}}},
	} {
		for _, m := range []Method{MethodAuto, MethodAPG} {
			res, err := Solve(context.Background(), c.p, &Options{Method: m})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s, %v", c.name, m)
			switch res.Status {
			case StatusInfeasible:
				t.Errorf("%s: infeasible (%v %v), feasible at x2 = %g", name, res.FarkasA, res.FarkasEq, x2)
			case StatusSolved:
				if math.Abs(res.X[1]-x2) > 1e-6*x2 || math.Abs(res.X[0]+res.X[1]-1) > 1e-6 {
					t.Errorf("%s: solved at %v, the feasible point is (%g, %g)", name, res.X, 1-x2, x2)
				}
			}
			t.Logf("%s: %v %v", name, res.Status, res.X)
		}
	}
}

// TestSetBounds: new bounds between solves reach every path. The portfolio
// (bounds-heavy, 50 assets capped at 0.1) with its cap moved to 0.05 and
// then 0.3, the paper QP given bounds it was built without, and the
// separable problem of columns_test.go with its bounds shifted: each warm
// answer is a new Solver's to 1e-9 relative, by the default method and by
// APG; SetBounds + Solve allocate nothing once the bounds exist; bad
// bounds are refused naming the entry.
func TestSetBounds(t *testing.T) {
	paper, _ := readQP(t, 1)
	sep, _ := separableCase("none", 3)
	type step struct{ lo, hi []float64 }
	fill := func(n int, v float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	shifted := func(p *Problem, d float64) step {
		s := step{slices.Clone(p.Lower), slices.Clone(p.Upper)}
		for i := range s.lo {
			s.lo[i] += d
			s.hi[i] += d
		}
		return s
	}
	for _, c := range []struct {
		name  string
		p     *Problem
		steps []step
	}{
		{"portfolio", portfolio(), []step{{fill(50, 0), fill(50, 0.05)}, {fill(50, 0), fill(50, 0.3)}}},
		{"paper QP", paper, []step{{fill(paper.N, -0.05), fill(paper.N, 0.05)}, {nil, fill(paper.N, 0)}}},
		{"separable", sep, []step{shifted(sep, 0.3), shifted(sep, -0.5)}},
	} {
		for _, m := range []Method{MethodAuto, MethodAPG} {
			s, err := NewSolver(c.p, &Options{Method: m, Tol: 1e-9})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			for k, st := range c.steps {
				if err := s.SetBounds(st.lo, st.hi); err != nil {
					t.Fatalf("%s %v step %d: %v", c.name, m, k, err)
				}
				res, err := s.Solve(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				q := *c.p
				q.Lower, q.Upper = st.lo, st.hi
				ref, err := Solve(context.Background(), &q, &Options{Tol: 1e-12})
				if err != nil || ref.Status != StatusSolved {
					t.Fatalf("%s step %d reference: %v %v", c.name, k, err, ref)
				}
				if e := testqp.RelErr(res.X, ref.X); res.Status != StatusSolved || e > 1e-9 {
					t.Errorf("%s %v step %d: %v, relative error %.3g after SetBounds", c.name, m, k, res.Status, e)
				}
				if len(res.LambdaBox) != c.p.N {
					t.Errorf("%s %v step %d: LambdaBox of length %d", c.name, m, k, len(res.LambdaBox))
				}
			}
		}
	}
	s, err := NewSolver(portfolio(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		lo, hi []float64
		want   string
	}{
		{fill(49, 0), nil, "lower"},
		{nil, append(fill(49, 1), math.NaN()), "upper[49]"},
		{fill(50, 0), append(fill(49, 1), -1), "lower[49]"},
	} {
		if err := s.SetBounds(bad.lo, bad.hi); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("SetBounds: %v, want an error naming %s", err, bad.want)
		}
	}
	lo, hi := fill(50, 0), fill(50, 0.1)
	allocs := testing.AllocsPerRun(20, func() {
		hi[0] = 0.15 - hi[0]
		if s.SetBounds(lo, hi) != nil {
			t.Fatal("SetBounds failed")
		}
		if res, _ := s.Solve(context.Background()); res.Status != StatusSolved {
			t.Fatalf("status %v", res.Status)
		}
	})
	if allocs != 0 {
		t.Errorf("warm SetBounds + Solve allocates %v times", allocs)
	}
}

// TestNewSolverCopiesOfP: a cold NewSolver of a QP with P and nothing
// else allocates five n x n matrices: P's symmetric part (kept as H, not
// copied again), its factor, certifyMinEig's factor of H - mu I (formed in
// the factor's storage, mat.Cholesky.FactorLess), and the engine's
// normals and working-set factor of order n + 1; 5.6 with the vectors and
// the blocked factor's panels. It allocated 8.6: the solver's clone of P
// and H besides (and, before that, validation's copy and factor of P +
// delta I), and 6.6 with certifyMinEig's shifted copy of H.
func TestNewSolverCopiesOfP(t *testing.T) {
	const n = 300
	g := testqp.LCG(5)
	b := make([][]float64, n)
	for i := range b {
		b[i] = make([]float64, n)
		for k := range b[i] {
			b[i][k] = g.Normal()
		}
	}
	p := &Problem{N: n, Loss: "none", P: make([][]float64, n), Q: make([]float64, n),
		A: [][]float64{make([]float64, n)}, B: []float64{1}}
	for i := range p.P {
		p.P[i] = make([]float64, n)
		for j := range p.P[i] {
			for k := 0; k < n; k++ {
				p.P[i][j] += b[i][k] * b[j][k] / n
			}
		}
		p.P[i][i] += 1
		p.Q[i] = g.Normal()
		p.A[0][i] = 1
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := NewSolver(p, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	copies := float64(after.TotalAlloc-before.TotalAlloc) / (8 * n * n)
	t.Logf("NewSolver allocated %.2f times n^2 floats", copies)
	if copies > 6 {
		t.Fatalf("NewSolver allocated %.2f n x n matrices, want at most 5 (and the vectors)", copies)
	}
	if r, err := s.Solve(context.Background()); err != nil || r.Status != StatusSolved {
		t.Fatalf("%v (%v)", r.Status, err)
	}
}

// TestPenaltyMethodsWithNothingToSample: a ridge problem in a box with no
// loss rows, alone and with rows far from binding (screened at the first
// stage), by every penalty method. The stochastic ones sampled from no
// components: their epochs were empty and the first stage never ended,
// until a time limit. Each must end solved at x* = (1, -1); the time
// limit only turns a regression into a failure instead of a hang.
func TestPenaltyMethodsWithNothingToSample(t *testing.T) {
	for _, p := range []*Problem{
		{N: 2, Loss: "none", Ridge: 1, Q: []float64{-1, 1}, Lower: []float64{-1, -1}, Upper: []float64{1, 1}},
		{N: 2, Loss: "none", Ridge: 1, Q: []float64{-1, 1}, Lower: []float64{-1, -1}, Upper: []float64{1, 1}, A: [][]float64{{1, 0}}, B: []float64{100}},
	} {
		for _, m := range []Method{MethodAPG, MethodSVRG, MethodCatalyst, MethodSGD, MethodSGDM} {
			res, err := Solve(context.Background(), p, &Options{Method: m, TimeLimit: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusSolved || math.Abs(res.X[0]-1) > 1e-9 || math.Abs(res.X[1]+1) > 1e-9 {
				t.Errorf("%v, %d rows: %v at %v (%s)", m, len(p.A), res.Status, res.X, res.Message)
			}
		}
	}
}

// TestCertificateIllConditioned: quadratic objectives whose H has
// eigenvalues from 6e-5 to 200 and whose answers are far from 0 (|x*| =
// 2e4 to 3e5), with two nearly parallel rows and without rows. F(x) and
// G(lambda) are then sums of terms near 1e10 that cancel to about 1e4, and
// the penalty method's gap, taken as their difference with an allowance
// relative to F, was below the true F(x) - F* (4.7e-9 against a reported
// 3.2e-10) and its distance bound below ||x - x*|| (0.0124 against
// 0.0033). Every answer's gap must bound F(x) - F*, computed exactly in
// rationals, and its DistBound ||x - x*||. (Each solve has a time limit:
// the methods are not what is tested.)
func TestCertificateIllConditioned(t *testing.T) {
	for _, c := range []struct {
		name  string
		p     *Problem
		exact bool // the exact path alone
	}{
		{"no rows", &Problem{N: 3, Loss: "none",
			P: [][]float64{{31.96441331938725, -56.614600487604136, 3.9989383378877257},
				{-56.614600487604136, 191.19459627291212, -54.21175540472648},
				{3.9989383378877257, -54.21175540472648, 24.92992573497417}},
			Q: []float64{6.697928697557547, -0.4493420928070401, -7.540419701006782}}, false},
		{"two rows", &Problem{N: 2, Loss: "none",
			P: [][]float64{{111.63051470354786, -80.63881328749211}, {-80.63881328749211, 58.25131043923371}},
			Q: []float64{1.6233241232690192, -16.63115011039247},
			A: [][]float64{{-1.0390741778678283, -1.5383233859632932}, {-1.039074177884173, -1.538323386015908}},
			B: []float64{-0.09191794944820983, -0.9801483274338112}}, false},
		// The exact path's certificate, also taken as F(x) - G(lambda)
		// with a relative allowance, was below F(x) - F* on these (by
		// 1.4x, 4x and 7.7x). The penalty methods are slow on them.
		{"two rows, exact path", &Problem{N: 2, Loss: "none",
			P: [][]float64{{142.27641801109084, 140.01070014723447}, {140.01070014723447, 137.78109025989744}},
			Q: []float64{-10.866484640904106, 0.6635480563421852},
			A: [][]float64{{0.5317413512748981, 0.5152820391107021}, {0.5317524953764955, 0.5152820391137347}},
			B: []float64{-1.8119676114917294, 0.9653718277888481}}, true},
		{"four variables, exact path", &Problem{N: 4, Loss: "none",
			P: [][]float64{{769.0300635528276, 125.46653902684984, -298.3410566064425, 242.43348486009072},
				{125.46653902684984, 20.519922053425358, -47.77478798570811, 39.21103339875484},
				{-298.3410566064425, -47.77478798570811, 131.88372720044066, -100.1883443951962},
				{242.43348486009072, 39.21103339875484, -100.1883443951962, 78.75973587352648}},
			Q: []float64{-0.004879742209990702, 4.254028977815484, -3.1732227055269067, -0.34060377413110654},
			A: [][]float64{{-1.8170300227922587, -2.2746480089171643, -0.12977534458333395, -0.4025964735589115},
				{1.2968478589161792, 1.3379588496280599, -0.5554872015745946, 0.23819174247143593}},
			B: []float64{0.04489145872891953, -0.10454385836839908}}, true},
		{"near-copy equalities, exact path", &Problem{N: 4, Loss: "none",
			P: [][]float64{{333.82417682569985, -547.5466189067816, -257.4808426007899, -947.0098162530522},
				{-547.5466189067816, 898.0994533091576, 422.32644363446116, 1553.308771514158},
				{-257.4808426007899, 422.32644363446116, 198.59678634493704, 730.4350944333632},
				{-947.0098162530522, 1553.308771514158, 730.4350944333632, 2686.526902387824}},
			Q: []float64{4.206945566757586, 2.443518066008171, -35.567102755600374, -32.46145932453542},
			A: [][]float64{{-0.647355828241209, -0.37577641096529124, -1.000526646156014, -2.3013401479566586}},
			B: []float64{-1.3040796878020804},
			Aeq: [][]float64{{-0.647384424245943, -0.37577644358429496, -0.9975970687532257, -2.3013401479569393},
				{-0.6473558282451187, -0.37579478470482025, -1.000526646127658, -2.301340147957378}},
			Beq: []float64{-0.6156675359683417, 0.19584824406056356}}, true},
	} {
		qp := &qpgen.QP{N: c.p.N, H: c.p.P, C: c.p.Q, A: c.p.A, B: c.p.B, Aeq: c.p.Aeq, Beq: c.p.Beq}
		ex, err := qpgen.Exact(qp)
		if err != nil || ex.Infeasible {
			t.Fatalf("%s: exact %v %v", c.name, ex, err)
		}
		methods := []Method{MethodAuto, MethodAPG, MethodSVRG}
		if c.exact {
			methods = methods[:1]
		}
		for _, m := range methods {
			res, err := Solve(context.Background(), c.p, &Options{Method: m, Tol: 1e-9, TimeLimit: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s, %v", c.name, m)
			if res.Status != StatusSolved && res.Status != StatusPrecisionLimit && res.Status != StatusTimeLimit {
				t.Errorf("%s: %v (%s)", name, res.Status, res.Message)
				continue
			}
			if math.IsInf(res.Gap, 1) {
				// No certificate: nothing to check but that it is not
				// solved.
				if res.Status == StatusSolved {
					t.Errorf("%s: solved without a certificate", name)
				}
				continue
			}
			fx := new(big.Rat)
			xr := make([]*big.Rat, c.p.N)
			for i := range xr {
				xr[i] = new(big.Rat).SetFloat64(res.X[i])
			}
			term := new(big.Rat)
			for i := range xr {
				for j := range xr {
					term.SetFloat64(c.p.P[i][j])
					term.Mul(term, xr[i]).Mul(term, xr[j]).Quo(term, big.NewRat(2, 1))
					fx.Add(fx, term)
				}
				term.SetFloat64(c.p.Q[i])
				fx.Add(fx, term.Mul(term, xr[i]))
			}
			excess, _ := fx.Sub(fx, ex.F).Float64()
			var d float64
			for i, v := range res.X {
				d += (v - ex.X[i]) * (v - ex.X[i])
			}
			d = math.Sqrt(d)
			if excess > res.Gap || (res.MaxViolation <= 0 && d > res.DistBound) {
				t.Errorf("%s: %v with gap %.3g and distance bound %.3g; F(x) - F* = %.3g, ||x - x*|| = %.3g",
					name, res.Status, res.Gap, res.DistBound, excess, d)
			}
		}
	}
}

// TestStochasticStepsAllowForP: the stochastic methods take P's gradient
// whole at every step, and their step came from the sampled components'
// smoothness alone (the rows' xi/(4 delta)): with ||P|| = 1e4 it was far
// above 2/||P|| and x overflowed (a third of random QPs with such a P
// ended with no certificate). Each method must solve this one.
func TestStochasticStepsAllowForP(t *testing.T) {
	p := &Problem{N: 2, Loss: "none", P: [][]float64{{1e4, 0}, {0, 1}}, Q: []float64{1, 1},
		A: [][]float64{{1, 1}}, B: []float64{-1}}
	for _, m := range []Method{MethodSVRG, MethodCatalyst, MethodSGD, MethodSGDM} {
		res, err := Solve(context.Background(), p, &Options{Method: m, TimeLimit: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusSolved {
			t.Errorf("%v: %v at %v (%s)", m, res.Status, res.X, res.Message)
		}
	}
}

// TestOverflowingObjectiveNotSolved: where the optimum's objective passes
// float64's range (a row or an equality that puts x near 5e299, sparse
// rows with b = -1e200) no method calls the answer solved: the relative
// test gap <= Tol max(1, |F|) reads Inf <= Inf as true, and was taken so
// by every path but newton-cg's. Each answer is precision_limit with a gap
// and a distance bound of +Inf, never NaN, and a message.
func TestOverflowingObjectiveNotSolved(t *testing.T) {
	rows := [][]float64{{1, 0, 2}, {0, 1, 0}, {1, 1, 0}}
	sparse := mat.SparseFromRows(rows, 3)
	cases := []struct {
		name    string
		p       *Problem
		methods []Method
	}{
		{"row b = -1e300", &Problem{N: 2, Loss: "none", Ridge: 1, Q: []float64{1, 1}, A: [][]float64{{1, 1}}, B: []float64{-1e300}},
			[]Method{MethodAuto, MethodActiveSet, MethodAPG, MethodSVRG, MethodCatalyst, MethodSGD, MethodSGDM}},
		{"equality 1e300", &Problem{N: 2, Loss: "none", Ridge: 1, Aeq: [][]float64{{1, 1}}, Beq: []float64{1e300}},
			[]Method{MethodAuto, MethodActiveSet, MethodAPG, MethodSVRG}},
		{"sparse rows b = -1e200", &Problem{N: 3, Loss: "none", Ridge: 1, ASparse: sparse, B: []float64{-1e200, -1e200, -1e200}},
			[]Method{MethodAuto, MethodActiveSet, MethodDualCD, MethodAPG, MethodSVRG}},
	}
	for _, c := range cases {
		for _, m := range c.methods {
			res, err := Solve(context.Background(), c.p, &Options{Method: m, MaxSteps: 1e6})
			if err != nil {
				t.Fatalf("%s, %v: %v", c.name, m, err)
			}
			if res.Status != StatusPrecisionLimit || !math.IsInf(res.Gap, 1) || !math.IsInf(res.DistBound, 1) || res.Message == "" {
				t.Errorf("%s, %v: %v, objective %.3g, gap %.3g, distance bound %.3g, message %q",
					c.name, m, res.Status, res.Objective, res.Gap, res.DistBound, res.Message)
			}
		}
	}
}

// TestScaledQPsCertified: min r/2 ||x||^2 + q'x s.t. a'x <= b with q, a
// and b at random scales from 1e-300 to 1e300 and r from 1e-20 to 1e20,
// x* exact in 300-bit floats: an answer called solved is within its
// distance bound of x* (or, where x* itself is below 1e6 DistBound's
// resolution, within 1e-6 of its size). Underflow had hidden whole gaps
// (q ~ 1e-250: gap 0, distance bound 0, x 8e-234 from x*), and a row of
// norm 1e230 at x ~ 1e87 had been read as holding (x the unconstrained
// minimiser, solved).
func TestScaledQPsCertified(t *testing.T) {
	draws := 300
	if testing.Short() {
		draws = 100
	}
	for _, seed := range []uint64{5, 7} {
		rng := rand.New(rand.NewPCG(seed, seed+1))
		for it := range draws {
			n := 2 + rng.IntN(3)
			scale := func() float64 { return math.Pow(10, float64(rng.IntN(601)-300)) }
			sq, sa, sb := scale(), scale(), scale()
			r := math.Pow(10, float64(rng.IntN(41)-20))
			q, a := make([]float64, n), make([]float64, n)
			for i := range q {
				q[i], a[i] = rng.NormFloat64()*sq, rng.NormFloat64()*sa
			}
			b := rng.NormFloat64() * sb
			want := scaledQPAnswer(q, a, b, r)
			p := &Problem{N: n, Loss: "none", Ridge: r, Q: q, A: [][]float64{a}, B: []float64{b}}
			for _, m := range []Method{MethodAuto, MethodAPG, MethodSVRG} {
				res, err := Solve(context.Background(), p, &Options{Method: m, MaxSteps: 200000})
				if err != nil {
					if _, ok := err.(*InputError); ok {
						continue // a row too short for its b (b_j / ||a_j|| overflows): refused
					}
					t.Fatalf("seed %d, draw %d, %v: %v", seed, it, m, err)
				}
				if res.Status != StatusSolved {
					continue
				}
				d, size := 0.0, 0.0
				for i := range want {
					d = math.Max(d, math.Abs(res.X[i]-want[i]))
					size = math.Max(size, math.Abs(want[i]))
				}
				if math.IsNaN(d) || d > 1e-6*size && d > res.DistBound*(1+1e-12) {
					t.Errorf("seed %d, draw %d, %v (q ~ %.0e, a ~ %.0e, b ~ %.0e, ridge %.0e): x %v, x* %v, off by %.3g, distance bound %.3g, gap %.3g",
						seed, it, m, sq, sa, sb, r, res.X, want, d, res.DistBound, res.Gap)
				}
			}
		}
	}
}

// scaledQPAnswer is x* of min r/2 ||x||^2 + q'x s.t. a'x <= b, in 300-bit
// floats: x_u = -q/r, projected onto the row where it violates it.
func scaledQPAnswer(q, a []float64, b, r float64) []float64 {
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(300).SetFloat64(v) }
	xu := make([]*big.Float, len(q))
	ax, aa := bf(-b), bf(0)
	for i := range xu {
		xu[i] = new(big.Float).SetPrec(300).Quo(bf(-q[i]), bf(r))
		ax.Add(ax, new(big.Float).SetPrec(300).Mul(bf(a[i]), xu[i]))
		aa.Add(aa, new(big.Float).SetPrec(300).Mul(bf(a[i]), bf(a[i])))
	}
	x := make([]float64, len(q))
	for i := range x {
		v := xu[i]
		if ax.Sign() > 0 {
			step := new(big.Float).SetPrec(300).Quo(ax, aa)
			v = new(big.Float).SetPrec(300).Sub(v, step.Mul(step, bf(a[i])))
		}
		x[i], _ = v.Float64()
	}
	return x
}

// TestModelRoundingSwampsConvexity: least squares on two nearly equal
// columns of 1e7 and 1e-3 with ridge 1e-22: the rounding of forming
// phi'phi/l reaches half the certified strong convexity in the 2-norm
// and in the metric of H's diagonal alike, so no gap of the model bounds
// the caller's. The answer must say so, not that the certificate
// overflowed (it said that once), and must not be solved.
func TestModelRoundingSwampsConvexity(t *testing.T) {
	p := &Problem{N: 2, Loss: "squared", Phi: [][]float64{{1e7, 1e-3}, {1e7, 1e-3}, {1e7, 1e-3 * (1 + 0x1p-40)}}, Y: []float64{1, 2, 3}, Ridge: 1e-22}
	for _, m := range []Method{MethodAuto, MethodActiveSet} {
		r, err := Solve(context.Background(), p, &Options{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusPrecisionLimit || !strings.Contains(r.Message, "rounding of forming the quadratic model") || !math.IsInf(r.Gap, 1) {
			t.Errorf("%v: %v, gap %g (%s)", m, r.Status, r.Gap, r.Message)
		}
	}
}

// TestBadlyScaledColumnsCertified: least squares with columns of phi
// scaled by 1e-8..1e8, a ridge of 1e-3..1, and rows A x <= b: the
// rounding of forming phi'phi/l, in the 2-norm, is often above the
// ridge, and these answers ended precision_limit with no certificate.
// In the metric of H's diagonal it is at the data's rounding: each must
// be solved at Tol 1e-9 and F(x) - F* <= gap, F* exact (rationals).
func TestBadlyScaledColumnsCertified(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 0))
	swamped, bounded := 0, 0
	for it := range 30 {
		n := 2 + rng.IntN(3)
		l := n + 2 + rng.IntN(2*n)
		scale := make([]float64, n)
		for j := range scale {
			scale[j] = math.Pow(10, -8+16*rng.Float64())
		}
		p := &Problem{N: n, Loss: "squared", Ridge: math.Pow(10, -3+3*rng.Float64())}
		for range l {
			row := make([]float64, n)
			for j := range row {
				row[j] = rng.NormFloat64() * scale[j]
			}
			p.Phi, p.Y = append(p.Phi, row), append(p.Y, rng.NormFloat64())
		}
		for range n - 1 {
			a := make([]float64, n)
			for j := range a {
				a[j] = rng.NormFloat64()
			}
			p.A, p.B = append(p.A, a), append(p.B, 0.1*rng.NormFloat64())
		}
		var fro float64
		for _, row := range p.Phi {
			fro += dotRows(row, row)
		}
		if 2*vec.DotErrorBound(l+2)*fro/float64(l) >= p.Ridge {
			swamped++
		}
		ex, err := advExact(p)
		if err != nil || ex.Infeasible {
			t.Fatalf("problem %d: reference %v, infeasible %v", it, err, ex != nil && ex.Infeasible)
		}
		r, err := Solve(context.Background(), p, &Options{Method: MethodActiveSet, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusSolved {
			t.Errorf("problem %d: %v (%s)", it, r.Status, r.Message)
			continue
		}
		h, c := advModel(p)
		below := new(big.Rat).Sub(advObjective(h, c, 0, r.X), ex.F)
		if below.Cmp(ratF(r.Gap)) > 0 {
			f, _ := below.Float64()
			t.Errorf("problem %d: F(x) - F* = %.3g beyond the certified gap %.3g", it, f, r.Gap)
		}
		// The distance bound, where given, holds against x* (to x*'s own
		// rounding to float64).
		if d := testqp.Dist(r.X, ex.X); d > r.DistBound+0x1p-52*testqp.Norm(ex.X) {
			t.Errorf("problem %d: %.3g from x*, distance bound %.3g", it, d, r.DistBound)
		}
		if !math.IsInf(r.DistBound, 1) {
			bounded++
		}
	}
	if swamped < 5 {
		t.Errorf("%d of 30 problems have the 2-norm rounding above the ridge; the test wants more", swamped)
	}
	t.Logf("%d of 30 with the 2-norm rounding above the ridge; %d with a distance bound", swamped, bounded)
}
