package solver

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

// randDense is an r x c matrix of g's normal draws, row by row.
func randDense(g *testqp.LCG, r, c int) *mat.Dense {
	d := mat.NewDense(r, c)
	for i := range d.Data {
		d.Data[i] = g.Normal()
	}
	return d
}

// planted builds min 1/2 x'Px + q'x + ridge/2||x||^2 s.t. A x <= b whose
// solution is a chosen x* with multipliers lam* on the first k rows (active)
// and slack on the others: q = -(P + ridge I) x* - A_S' lam*, b_S = A_S x*,
// b_j = a_j'x* + slack_j. The reference is exact by construction.
func planted(seed uint64, n, m, k int, lamScale float64) (*Problem, []float64, []float64) {
	g := testqp.LCG(seed)
	M := randDense(&g, n, n)
	P := mat.NewDense(n, n)
	M.Gram(P, 1/float64(n)) // P = M'M/n, PSD
	A := randDense(&g, m, n)
	x := make([]float64, n)
	for i := range x {
		x[i] = g.Normal()
	}
	lam := make([]float64, m)
	q := make([]float64, n)
	P.MulVec(q, x)
	ridge := 0.5
	for i := range q {
		q[i] = -q[i] - ridge*x[i]
	}
	b := make([]float64, m)
	A.MulVec(b, x)
	for j := 0; j < m; j++ {
		if j < k {
			lam[j] = lamScale * (0.5 + math.Abs(g.Normal()))
			row := A.Row(j)
			for i := range q {
				q[i] -= lam[j] * row[i]
			}
		} else {
			b[j] += 0.1 + math.Abs(g.Normal())
		}
	}
	return &Problem{N: n, Loss: LossNone, P: P, Q: q, Ridge: ridge, A: A, B: b}, x, lam
}

func solveOK(t *testing.T, p *Problem, opt *Options) *Result {
	t.Helper()
	s, err := New(p, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func maxAbsDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestLargeMultipliersRaiseXi: with ||lambda*||_inf around 50 the default
// xi = 1 is far too small; the solver must raise it and still find x*.
func TestLargeMultipliersRaiseXi(t *testing.T) {
	p, x, lam := planted(7, 20, 60, 5, 50)
	res := solveOK(t, p, &Options{Tol: 1e-10})
	t.Logf("status %v xi %g err %.2e lam err %.2e steps %d", res.Status, res.Xi, maxAbsDiff(res.X, x), maxAbsDiff(res.Lambda, lam), res.Steps)
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if res.Xi < 50 {
		t.Errorf("xi = %g, want raised above ||lambda*|| ~ 50", res.Xi)
	}
	if d := maxAbsDiff(res.X, x); d > 1e-8 {
		t.Errorf("max |x - x*| = %.3e", d)
	}
	if d := maxAbsDiff(res.Lambda, lam); d > 1e-6*50 {
		t.Errorf("max |lambda - lambda*| = %.3e", d)
	}
}

// TestFixedXiTooSmall: with FixedXi the solver may not raise xi, and must
// not claim a solution it cannot certify.
func TestFixedXiTooSmall(t *testing.T) {
	p, x, _ := planted(7, 20, 60, 5, 50)
	res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-10, FixedXi: true, MaxSteps: 2e6})
	if res.Status == StatusSolved && maxAbsDiff(res.X, x) > 1e-6 {
		t.Errorf("status solved but max |x - x*| = %.3e", maxAbsDiff(res.X, x))
	}
}

// TestEqualityConstraints: Aeq x = beq with multipliers of both signs.
func TestEqualityConstraints(t *testing.T) {
	p, x, lam, nu := plantedEqualities()
	res := solveOK(t, p, &Options{Tol: 1e-10})
	t.Logf("status %v err %.2e nu %v want %v", res.Status, maxAbsDiff(res.X, x), res.Nu, nu)
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if d := maxAbsDiff(res.X, x); d > 1e-8 {
		t.Errorf("max |x - x*| = %.3e", d)
	}
	if d := maxAbsDiff(res.Nu, nu); d > 1e-6 {
		t.Errorf("max |nu - nu*| = %.3e", d)
	}
	if d := maxAbsDiff(res.Lambda, lam); d > 1e-6 {
		t.Errorf("max |lambda - lambda*| = %.3e", d)
	}
}

// l1BoxPoint is the start of TestL1Box's problem: P, ridge and l1, the box
// [-1, 1]^12 and x* with components at both bounds, at the l1 kink and
// free, with sub the l1 subgradient plus box normal at x*; g continues
// the generator for the rows.
type l1BoxPoint struct {
	n              int
	g              testqp.LCG
	P              *mat.Dense
	ridge, l1      float64
	lo, hi, x, sub []float64
}

func newL1BoxPoint() l1BoxPoint {
	n := 12
	k := l1BoxPoint{n: n, g: testqp.LCG(5), ridge: 0.3, l1: 0.2}
	M := randDense(&k.g, n, n)
	k.P = mat.NewDense(n, n)
	M.Gram(k.P, 1/float64(n))
	k.lo, k.hi, k.x, k.sub = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range k.x {
		k.lo[i], k.hi[i] = -1, 1
		switch i % 4 {
		case 0: // at the upper bound, normal cone pushes up
			k.x[i], k.sub[i] = 1, k.l1+0.3
		case 1: // at the lower bound
			k.x[i], k.sub[i] = -1, -k.l1-0.3
		case 2: // at zero, subgradient inside (-l1, l1)
			k.x[i], k.sub[i] = 0, 0.5*k.l1
		default: // free, sign +
			k.x[i], k.sub[i] = 0.4, k.l1
		}
	}
	return k
}

// TestL1Box: l1 and box terms, with a solution built to have components at
// both bounds, at zero, and free: q absorbs the subgradients.
func TestL1Box(t *testing.T) {
	k := newL1BoxPoint()
	n, g, P, ridge, l1, lo, hi, x, sub := k.n, k.g, k.P, k.ridge, k.l1, k.lo, k.hi, k.x, k.sub
	// One active inequality through x*.
	A := randDense(&g, 4, n)
	b := make([]float64, 4)
	A.MulVec(b, x)
	for j := 1; j < 4; j++ {
		b[j] += 1
	}
	lam := []float64{0.7, 0, 0, 0}
	q := make([]float64, n)
	P.MulVec(q, x)
	for i := range q {
		q[i] = -q[i] - ridge*x[i] - sub[i] - lam[0]*A.Row(0)[i]
	}
	p := &Problem{N: n, Loss: LossNone, P: P, Q: q, Ridge: ridge, L1: l1, Lower: lo, Upper: hi, A: A, B: b}
	// Not polishable (l1 and box): the stages alone certify 1e-7 (measured:
	// 1e-8 within 5e7 steps, short of 1e-9).
	res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-7, MaxSteps: 5e7})
	t.Logf("status %v err %.2e lam %v gap %.2e steps %d", res.Status, maxAbsDiff(res.X, x), res.Lambda, res.Gap, res.Steps)
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if d := maxAbsDiff(res.X, x); d > 1e-4 || d > res.DistBound {
		t.Errorf("max |x - x*| = %.3e (bound %.3e)", d, res.DistBound)
	}
}

// TestLogistic: a logistic-loss problem with constraints, checked by its own
// KKT conditions (no closed form): stationarity of the Lagrangian with the
// returned multipliers, feasibility and complementarity.
func TestLogistic(t *testing.T) {
	n, l, m := 8, 200, 20
	g := testqp.LCG(9)
	phi := randDense(&g, l, n)
	y := make([]float64, l)
	for i := range y {
		if g.Normal() > 0 {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	A := randDense(&g, m, n)
	b := make([]float64, m)
	for j := range b {
		b[j] = 0.05 * math.Abs(g.Normal())
	}
	p := &Problem{N: n, Loss: LossLogistic, Phi: phi, Y: y, Ridge: 0.01, A: A, B: b}
	// Not polishable (logistic): the stages alone certify 1e-7.
	res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-7, MaxSteps: 5e7})
	// Stationarity: grad F(x) + A' lambda = 0.
	grad := make([]float64, n)
	for i := 0; i < l; i++ {
		row := phi.Row(i)
		var t float64
		for k := range row {
			t += row[k] * res.X[k]
		}
		c := -y[i] / (1 + math.Exp(y[i]*t)) / float64(l)
		for k := range row {
			grad[k] += c * row[k]
		}
	}
	for k := range grad {
		grad[k] += 0.01 * res.X[k]
	}
	A.MulTransVecAdd(grad, res.Lambda)
	var stat, comp float64
	for _, v := range grad {
		stat = math.Max(stat, math.Abs(v))
	}
	r := make([]float64, m)
	A.MulVecSub(r, res.X, b)
	for j := range r {
		comp = math.Max(comp, math.Abs(res.Lambda[j]*r[j]))
	}
	t.Logf("status %v gap %.2e stationarity %.2e complementarity %.2e violation %.2e steps %d", res.Status, res.Gap, stat, comp, res.MaxViolation, res.Steps)
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if stat > 1e-4 || comp > 1e-5 || res.MaxViolation > 1e-4 {
		t.Errorf("KKT residuals too large: stationarity %.3e complementarity %.3e violation %.3e", stat, comp, res.MaxViolation)
	}
}

// TestInfeasible: x0 <= -1 and -x0 <= -1 cannot both hold; the solver says
// so and carries a Farkas certificate y >= 0, A'y = 0, b'y < 0.
func TestInfeasible(t *testing.T) {
	A := mat.NewDense(3, 2)
	copy(A.Data, []float64{1, 0, -1, 0, 0, 1})
	b := []float64{-1, -1, 5}
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, A: A, B: b}
	res := solveOK(t, p, &Options{Method: MethodAPG, TimeLimit: 0, MaxSteps: 1e7})
	if res.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
	y := res.Farkas
	aty := make([]float64, 2)
	A.MulTransVec(aty, y)
	var by float64
	for j, v := range y {
		if v < 0 {
			t.Errorf("farkas[%d] = %g < 0", j, v)
		}
		by += b[j] * v
	}
	if math.Hypot(aty[0], aty[1]) > 1e-6 || !(by < 0) {
		t.Errorf("not a certificate: A'y = %v, b'y = %g", aty, by)
	}
}

// TestZeroRows: a zero row with b >= 0 is dropped; with b < 0 the problem is
// infeasible and the certificate is that row.
func TestZeroRows(t *testing.T) {
	A := mat.NewDense(2, 2)
	copy(A.Data, []float64{0, 0, 1, 1})
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, Q: []float64{-1, -1}, A: A, B: []float64{0, 1}}
	res := solveOK(t, p, nil)
	if res.Status != StatusSolved || math.Abs(res.X[0]-0.5) > 1e-9 || res.Lambda[0] != 0 {
		t.Errorf("zero row with b = 0: status %v x %v lambda %v", res.Status, res.X, res.Lambda)
	}
	p.B = []float64{-1, 1}
	res = solveOK(t, p, nil)
	if res.Status != StatusInfeasible || res.Farkas[0] != 1 {
		t.Errorf("zero row with b < 0: status %v farkas %v", res.Status, res.Farkas)
	}
}

// TestNotStronglyConvex: ridge 0 and a singular quadratic part is an error.
func TestNotStronglyConvex(t *testing.T) {
	P := mat.NewDense(2, 2)
	copy(P.Data, []float64{1, 0, 0, 0})
	if _, err := New(&Problem{N: 2, Loss: LossNone, P: P}, nil); err == nil {
		t.Error("singular P with ridge 0 accepted")
	}
}

// TestCancel: a canceled context and a time limit return their statuses.
func TestCancel(t *testing.T) {
	p, _ := loadQP(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := New(p, &Options{Method: MethodSGD})
	res, _ := s.Solve(ctx)
	if res.Status != StatusCanceled {
		t.Errorf("status %v, want canceled", res.Status)
	}
	s, _ = New(p, &Options{Method: MethodSGD, Tol: 1e-15, NoPolish: true, TimeLimit: 20e6})
	res, _ = s.Solve(context.Background())
	if res.Status != StatusTimeLimit || res.Time > 500e6 {
		t.Errorf("status %v after %v, want time_limit promptly", res.Status, res.Time)
	}
}

// TestNonSeparableSVMStops: a hard-margin SVM on data that no hyperplane
// through the origin separates (the same point with both labels, plus a
// noisy cloud) is reported infeasible without a step budget, not looped on.
func TestNonSeparableSVMStops(t *testing.T) {
	g := testqp.LCG(3)
	m, n := 40, 3
	A := mat.NewDense(m, n)
	b := make([]float64, m)
	for j := 0; j < m; j++ {
		y := 1.0
		if j%2 == 1 {
			y = -1
		}
		for i := 0; i < n; i++ {
			A.Data[j*n+i] = -y * g.Normal()
		}
		b[j] = -1
	}
	copy(A.Row(1), A.Row(0))
	for i := range A.Row(1) {
		A.Row(1)[i] = -A.Row(1)[i]
	}
	res := solveOK(t, &Problem{N: n, Loss: LossNone, Ridge: 1, A: A, B: b}, nil)
	if res.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
}

// TestScreenedResolveAllocs: a warm re-solve that screens rows (and so
// restores them at the start of the next solve) allocates nothing.
func TestScreenedResolveAllocs(t *testing.T) {
	p, _, _ := planted(21, 10, 400, 3, 1)
	s, err := New(p, &Options{Method: MethodAPG, Tol: 1e-9, NoPolish: true, MaxSteps: 3e5})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, _ := s.Solve(ctx)
	if len(res.Screened)+len(res.Outside) == 0 {
		t.Fatal("nothing was screened; the test would not exercise screening")
	}
	if a := testing.AllocsPerRun(3, func() { s.Reset(); s.Solve(ctx) }); a != 0 {
		t.Errorf("screened re-solve allocates %v times", a)
	}
}

// checkFarkas requires res to be infeasible with res.Farkas (A's rows,
// then Aeq's) a certificate that no x in the box has A x <= b and
// Aeq x = beq, checked exactly by qpgen.CheckFarkas: y >= 0 on the rows of
// A, and b'y + beq'nu below the minimum over the box of
// (A'y + Aeq'nu)'x, whose components on unbounded variables must vanish to
// qpgen.FarkasRelTol.
func checkFarkas(t *testing.T, p *Problem, res *Result) {
	t.Helper()
	if res.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
	q := &qpgen.QP{N: p.N, A: testqp.RowsOf(p.A), B: p.B, Aeq: testqp.RowsOf(p.Aeq), Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
	m := min(p.A.Rows, len(res.Farkas))
	if ok, why := qpgen.CheckFarkas(q, res.Farkas[:m], res.Farkas[m:]); !ok {
		t.Errorf("farkas %v: %s", res.Farkas, why)
	}
}

// TestInfeasibleManyRows: the planted 3000-row QP with an equality that
// contradicts its rows. Raising xi cannot help; phase one finds the
// certificate (before it, the stage at xi = 4.5e15 ran 2e8 steps).
func TestInfeasibleManyRows(t *testing.T) {
	p, _, _ := wsProblem()
	q := *p
	q.Aeq = &mat.Dense{Rows: 1, Cols: p.N, Stride: p.N, Data: make([]float64, p.N)}
	q.Aeq.Data[0], q.Aeq.Data[1] = 1, -2
	q.Beq = []float64{0.25}
	for _, all := range []bool{false, true} {
		res := solveOK(t, &q, &Options{Method: MethodAPG, AllRows: all, MaxSteps: 2e7})
		checkFarkas(t, &q, res)
	}
}

// TestInfeasibleBox: x0 >= 2 cannot hold with x0 <= 1; the certificate pays
// for A^T y != 0 with the bound.
func TestInfeasibleBox(t *testing.T) {
	A := mat.NewDense(2, 2)
	copy(A.Data, []float64{-1, 0, 1, 1})
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, A: A, B: []float64{-2, 5},
		Lower: []float64{math.Inf(-1), -3}, Upper: []float64{1, 3}}
	res := solveOK(t, p, &Options{Method: MethodAPG, MaxSteps: 1e7})
	checkFarkas(t, p, res)
	if res.Farkas[1] != 0 {
		t.Errorf("farkas %v: the second row plays no part", res.Farkas)
	}
}

// TestStageMult: Options.StageMult caps an SVRG stage at the paper's
// iteration count times the multiplier, so a tiny multiplier runs more
// (shorter) stages within the same budget than the default, whose SVRG
// stages end only on their targets; a negative or NaN one is refused.
func TestStageMult(t *testing.T) {
	p, _, _ := planted(11, 20, 60, 5, 1)
	base := &Options{Method: MethodSVRG, NoPolish: true, MaxSteps: 400000, Tol: 1e-300}
	capped := *base
	capped.StageMult = 1e-3
	r0, r1 := solveOK(t, p, base), solveOK(t, p, &capped)
	if r1.Stages <= r0.Stages {
		t.Errorf("StageMult 1e-3: %d stages, default %d: want more", r1.Stages, r0.Stages)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := New(p, &Options{Method: MethodAPG, StageMult: bad}); err == nil || !strings.Contains(err.Error(), "stage multiplier") {
			t.Errorf("StageMult %v: error %v, want one naming the stage multiplier", bad, err)
		}
	}
}

// TestSGDMAcceleratedStageCount: with StageMult set, an SGDM stage ends
// after the paper's accelerated count (2 log(2 eta - 1) + log K) sqrt(m K),
// K ~ 1/delta, so successive stages grow by about sqrt(eta) (a bit more for
// the log factor), while SGD's count log(2 eta - 1) K grows by eta.
func TestSGDMAcceleratedStageCount(t *testing.T) {
	p, _, _ := planted(11, 20, 60, 5, 1)
	const eta = 4
	growth := func(m Method) float64 {
		var steps []int64
		opt := &Options{Method: m, NoPolish: true, NoProbe: true, AllRows: true, Screen: ScreenNone, MaxSteps: 3e6,
			Tol: 1e-300, Eta: eta, Delta0: 0.05, StageMult: 1, Progress: func(st Stage) { steps = append(steps, st.Steps) }}
		solveOK(t, p, opt)
		if len(steps) < 5 {
			t.Fatalf("%v: %d stages in 3e6 steps", m, len(steps))
		}
		// The last full stage against the one before it.
		k := len(steps) - 2
		g := float64(steps[k]-steps[k-1]) / float64(steps[k-1]-steps[k-2])
		t.Logf("%v: stage ends %v, growth %.2f", m, steps, g)
		return g
	}
	if g := growth(MethodSGDM); g < 1.8 || g > 2.6 {
		t.Errorf("SGDM stage growth %.2f, want about sqrt(eta) = 2", g)
	}
	if g := growth(MethodSGD); g < 3.5 || g > 4.5 {
		t.Errorf("SGD stage growth %.2f, want about eta = 4", g)
	}
}

// TestStepOptions: Momentum, StepScale, StageMult, LastIterate and
// SVRGEpoch at their documented defaults give the default run bit for bit
// (SGDM's step scale is 1 - Momentum), other values change the run,
// and invalid values are refused by name.
func TestStepOptions(t *testing.T) {
	p, _, _ := planted(11, 20, 60, 5, 1)
	run := func(o Options) []float64 {
		o.NoPolish, o.MaxSteps, o.Tol, o.Seed = true, 200000, 1e-300, 3
		return append([]float64(nil), solveOK(t, p, &o).X...)
	}
	same := func(a, b []float64) bool {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	cases := []struct {
		name       string
		base, dflt Options
		other      Options
	}{
		{"momentum", Options{Method: MethodSGDM}, Options{Method: MethodSGDM, Momentum: 0.9}, Options{Method: MethodSGDM, Momentum: 0.5}},
		{"step scale (SGD)", Options{Method: MethodSGD}, Options{Method: MethodSGD, StepScale: 1}, Options{Method: MethodSGD, StepScale: 2}},
		{"step scale (SGDM)", Options{Method: MethodSGDM, Momentum: 0.75}, Options{Method: MethodSGDM, Momentum: 0.75, StepScale: 0.25}, Options{Method: MethodSGDM, Momentum: 0.75, StepScale: 1}},
		{"stage multiplier (SGD)", Options{Method: MethodSGD}, Options{Method: MethodSGD}, Options{Method: MethodSGD, StageMult: 0.6}},
		{"last iterate (SGD)", Options{Method: MethodSGD}, Options{Method: MethodSGD}, Options{Method: MethodSGD, LastIterate: true}},
		{"last iterate (SGDM)", Options{Method: MethodSGDM}, Options{Method: MethodSGDM}, Options{Method: MethodSGDM, LastIterate: true}},
		{"step scale (SVRG)", Options{Method: MethodSVRG}, Options{Method: MethodSVRG}, Options{Method: MethodSVRG, StepScale: 1}},
		{"SVRG epoch", Options{Method: MethodSVRG}, Options{Method: MethodSVRG, SVRGEpoch: 2}, Options{Method: MethodSVRG, SVRGEpoch: 5}},
	}
	for _, c := range cases {
		x0, x1, x2 := run(c.base), run(c.dflt), run(c.other)
		if !same(x0, x1) {
			t.Errorf("%s: the documented default differs from the zero value", c.name)
		}
		if same(x0, x2) {
			t.Errorf("%s: another value gives the same run", c.name)
		}
	}
	bad := []struct {
		name string
		opt  Options
	}{
		{"momentum", Options{Method: MethodAPG, Momentum: 1}}, {"momentum", Options{Method: MethodAPG, Momentum: -0.1}}, {"momentum", Options{Method: MethodAPG, Momentum: math.NaN()}},
		{"step scale", Options{Method: MethodAPG, StepScale: -1}}, {"step scale", Options{Method: MethodAPG, StepScale: math.Inf(1)}}, {"step scale", Options{Method: MethodAPG, StepScale: math.NaN()}},
		{"SVRG epoch", Options{Method: MethodAPG, SVRGEpoch: -2}}, {"SVRG epoch", Options{Method: MethodAPG, SVRGEpoch: math.Inf(1)}}, {"SVRG epoch", Options{Method: MethodAPG, SVRGEpoch: math.NaN()}},
	}
	for _, b := range bad {
		if _, err := New(p, &b.opt); err == nil || !strings.Contains(err.Error(), b.name) {
			t.Errorf("%+v: error %v, want one naming the %s", b.opt, err, b.name)
		}
	}
}

// TestPaperExperimentScreenAnswer: the paper's experimental rule is not
// safe (no log factor, and it screens even while the multipliers
// saturate); the answer must still be the true one, as every dropped row is
// checked at the end. Without polishing the stages run and screen.
func TestPaperExperimentScreenAnswer(t *testing.T) {
	p, x, _ := planted(5, 20, 3000, 5, 1)
	res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-7, Screen: ScreenPaperExperiment, AllRows: true, NoPolish: true, NoProbe: true})
	if res.Status != StatusSolved {
		t.Fatalf("status %v", res.Status)
	}
	if d := maxAbsDiff(res.X, x); d > 1e-4 {
		t.Errorf("max |x - x*| = %.3e", d)
	}
	if len(res.Screened)+len(res.Outside) == 0 {
		t.Errorf("the rule dropped nothing of 2995 inactive rows")
	}
	t.Logf("%d stages, %d steps, %d rows screened, %d outside, max |x - x*| %.2e", res.Stages, res.Steps, len(res.Screened), len(res.Outside), maxAbsDiff(res.X, x))
}

// TestUnknownScreenRule: a rule outside the defined ones is refused by
// name; the last defined one is accepted.
func TestUnknownScreenRule(t *testing.T) {
	p, _, _ := planted(3, 5, 10, 2, 1)
	for _, r := range []ScreenRule{-1, ScreenPaperExperiment + 1} {
		if _, err := New(p, &Options{Method: MethodAPG, Screen: r}); err == nil || !strings.Contains(err.Error(), "screening rule") {
			t.Errorf("rule %d: error %v, want one naming the screening rule", r, err)
		}
	}
	if _, err := New(p, &Options{Method: MethodAPG, Screen: ScreenPaperExperiment}); err != nil {
		t.Errorf("ScreenPaperExperiment refused: %v", err)
	}
}
