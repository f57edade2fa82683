package qpgen

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// TestConstructedKKT: the construction's (XStar, multipliers) pass the
// checker. Exact constructions give exactly zero residuals and gap; the
// others give rounding-level relative residuals. This checks the generator
// and the checker against each other.
func TestConstructedKKT(t *testing.T) {
	for _, f := range Families() {
		if infeasibleFamily(f) {
			continue
		}
		for _, n := range []int{1, 2, 3, 5, 10, 30, 80} {
			seeds := seedsFor(f)
			if n > 30 {
				seeds = seeds[:2]
			}
			for _, s := range seeds {
				q := Generate(f, n, s)
				r, err := KKT(q, q.XStar, q.LambdaStar, q.NuStar, q.ZStar)
				if err != nil {
					t.Fatalf("%s: %v", q.Name, err)
				}
				checkOptimalResiduals(t, q, r)
			}
		}
	}
}

func checkOptimalResiduals(t *testing.T, q *QP, r Residuals) {
	t.Helper()
	if q.Exact {
		if r.Stationarity != 0 || r.PrimalViolation != 0 || r.DualViolation != 0 || r.Complementarity != 0 || r.GapBig.Sign() != 0 {
			t.Errorf("%s (exact): residuals %+v, want all 0", q.Name, r)
		}
		return
	}
	if r.Worst() > 1e-13 {
		t.Errorf("%s: Worst() = %g", q.Name, r.Worst())
	}
	const tol = 1e-15
	if r.RelStationarity > tol || r.RelPrimal > tol || r.DualViolation != 0 || r.RelComplementarity > tol || math.Abs(r.RelGap) > 1e-13 {
		t.Errorf("%s: stat %.2g prim %.2g dual %.2g comp %.2g gap %.2g", q.Name,
			r.RelStationarity, r.RelPrimal, r.DualViolation, r.RelComplementarity, r.RelGap)
	}
}

// TestKKTLarge runs the checker at n = 1000 (cond(H) = 1e10, and m = 10n).
func TestKKTLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("big.Float at n = 1000")
	}
	for _, c := range []struct {
		f    string
		seed uint64
	}{{"cond-dense", 10}, {"many-rows", 1}, {"big-multipliers", 8}, {"degenerate-vertex", 1}} {
		t0 := time.Now()
		q := Generate(c.f, 1000, c.seed)
		t1 := time.Now()
		r, err := KKT(q, q.XStar, q.LambdaStar, q.NuStar, q.ZStar)
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		t.Logf("%s: m=%d meq=%d generate %v, KKT %v; stat %.2g prim %.2g comp %.2g gap %.2g", q.Name, len(q.A), len(q.Aeq),
			t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond),
			r.RelStationarity, r.RelPrimal, r.RelComplementarity, r.RelGap)
		checkOptimalResiduals(t, q, r)
	}
}

// TestKKTDetects: the checker sees what is wrong with wrong answers.
func TestKKTDetects(t *testing.T) {
	q := Generate("bounds-mixed", 10, 3)
	x := append([]float64(nil), q.XStar...)
	lam := append([]float64(nil), q.LambdaStar...)
	z := append([]float64(nil), q.ZStar...)
	kkt := func() Residuals {
		r, err := KKT(q, x, lam, q.NuStar, z)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	// Moving x by d along coordinate k leaves stationarity residual H e_k d.
	x[4] += 1e-6
	d := x[4] - q.XStar[4] // exact
	if r := kkt(); r.Stationarity != maxAbsCol(q.H, 4)*d {
		t.Errorf("x moved by %g: stationarity %g, want %g", d, r.Stationarity, maxAbsCol(q.H, 4)*d)
	}
	copy(x, q.XStar)

	// A negative multiplier is a dual violation.
	for j := range lam {
		if lam[j] > 0 {
			lam[j] = -lam[j]
			if r := kkt(); r.DualViolation != -lam[j] {
				t.Errorf("lambda[%d] = %g: dual violation %g", j, lam[j], r.DualViolation)
			}
			lam[j] = -lam[j]
			break
		}
	}

	// A multiplier on a missing bound is a dual violation.
	for i := range z {
		if math.IsInf(q.Upper[i], 1) {
			z[i] = 3
			if r := kkt(); r.DualViolation < 3 {
				t.Errorf("z[%d] = 3 with no upper bound: dual violation %g", i, r.DualViolation)
			}
			z[i] = q.ZStar[i]
			break
		}
	}

	// Violating a row by v shows as primal violation v.
	j := 0
	x2 := append([]float64(nil), q.XStar...)
	for k := range q.A[j] {
		x2[k] += math.Copysign(1, q.A[j][k])
	}
	x = x2
	r := kkt()
	if r.PrimalViolation <= 0 {
		t.Errorf("x moved out of row 0: no primal violation")
	}
	copy(x, q.XStar)

	// Weak duality: dual feasible multipliers other than the optimal ones
	// give G <= F* (and a positive gap at x*).
	for j := range lam {
		lam[j] *= 1.5
		lam[j] += 0.25
	}
	r = kkt()
	fstar := ObjectiveBig(q, q.XStar)
	if r.DualViolation != 0 || r.Gap <= 0 || nf().Sub(fstar, r.GapBig).Cmp(fstar) > 0 {
		t.Errorf("perturbed multipliers: dual violation %g, gap %g", r.DualViolation, r.Gap)
	}
	dualBig := nf().Sub(r.ObjectiveBig, r.GapBig)
	if dualBig.Cmp(fstar) > 0 {
		t.Errorf("weak duality fails: G = %g > F* = %g", r.Dual, f64(fstar))
	}
	copy(lam, q.LambdaStar)

	// Worst sees a wrong answer.
	x[0] += 0.5
	if r := kkt(); r.Worst() < 1e-3 {
		t.Errorf("x moved by 0.5: Worst() = %g", r.Worst())
	}
	copy(x, q.XStar)

	// Lengths and non-finite entries are errors.
	if _, err := KKT(q, x[:3], nil, nil, nil); err == nil {
		t.Error("short x accepted")
	}
	x[0] = math.NaN()
	if _, err := KKT(q, x, nil, nil, nil); err == nil {
		t.Error("NaN accepted")
	}
}

// TestGapBoundsDistance: for the unconstrained problem, gap = 1/2 r'H^-1 r
// = F(x) - F* exactly (in exact arithmetic) at any x; checked against the
// exact optimum -H^-1 c computed through Exact.
func TestGapBoundsDistance(t *testing.T) {
	q := Generate("cond-dense", 5, 6) // cond 1e6
	q.A, q.B, q.Aeq, q.Beq = nil, nil, nil, nil
	ex, err := Exact(q)
	if err != nil {
		t.Fatal(err)
	}
	x := append([]float64(nil), ex.X...)
	x[0] += 1e-3
	x[3] -= 2e-3
	r, err := KKT(q, x, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fx := new(big.Float).SetPrec(Prec).SetRat(ObjectiveRat(q, x))
	fstar := new(big.Float).SetPrec(Prec).SetRat(ex.F)
	want := nf().Sub(fx, fstar)
	diff := nf().Sub(want, r.GapBig)
	if rel := math.Abs(f64(diff) / f64(want)); rel > 1e-60 {
		t.Errorf("gap %g, F(x) - F* = %g, relative difference %g", r.Gap, f64(want), rel)
	}
}

func maxAbsCol(h [][]float64, k int) float64 {
	m := 0.0
	for i := range h {
		m = math.Max(m, math.Abs(h[i][k]))
	}
	return m
}

// TestSolveHPaths: the big.Float Cholesky and the refined float64 Cholesky
// agree to far beyond float64 on an ill-conditioned H.
func TestSolveHPaths(t *testing.T) {
	q := Generate("cond-dense", 40, 10) // cond 1e10
	rng := rand.New(rand.NewPCG(1, 2))
	r := make([]*big.Float, q.N)
	for i := range r {
		r[i] = bfv(rng.NormFloat64())
	}
	y1, err1 := solveHBig(q.H, r)
	y2, err2 := solveHRefined(q.H, r)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	ymax, dmax := 0.0, 0.0
	for i := range y1 {
		ymax = math.Max(ymax, math.Abs(f64(y1[i])))
		dmax = math.Max(dmax, math.Abs(f64(nf().Sub(y1[i], y2[i]))))
	}
	if dmax > 1e-30*ymax {
		t.Errorf("solves differ by %g (|y| = %g)", dmax, ymax)
	}
	// not positive definite
	h := [][]float64{{1, 2}, {2, 1}}
	if _, err := solveHBig(h, r[:2]); err == nil {
		t.Error("big Cholesky accepted an indefinite H")
	}
	if _, err := solveHRefined(h, r[:2]); err == nil {
		t.Error("float64 Cholesky accepted an indefinite H")
	}
}

// TestFarkasAccepts: the constructed certificates prove infeasibility, and
// so do positive multiples of them.
func TestFarkasAccepts(t *testing.T) {
	for _, f := range Families() {
		if !infeasibleFamily(f) {
			continue
		}
		for _, n := range []int{1, 2, 3, 10, 50} {
			for s := uint64(0); s < 4; s++ {
				q := Generate(f, n, s)
				if ok, why := CheckFarkas(q, q.FarkasA, q.FarkasEq); !ok {
					t.Errorf("%s: certificate rejected: %s", q.Name, why)
				}
				if ok, why := CheckFarkas(q, scaled(q.FarkasA, 4), scaled(q.FarkasEq, 4)); !ok {
					t.Errorf("%s: 4 x certificate rejected: %s", q.Name, why)
				}
			}
		}
	}
}

// TestFarkasRejects: wrong certificates are rejected, and no certificate
// is accepted for a feasible problem.
func TestFarkasRejects(t *testing.T) {
	for _, f := range Families() {
		if !infeasibleFamily(f) {
			continue
		}
		q := Generate(f, 10, 1)
		zeroA, zeroEq := make([]float64, len(q.FarkasA)), make([]float64, len(q.FarkasEq))
		if ok, _ := CheckFarkas(q, zeroA, zeroEq); ok {
			t.Errorf("%s: zero certificate accepted", q.Name)
		}
		if ok, _ := CheckFarkas(q, scaled(q.FarkasA, -1), scaled(q.FarkasEq, -1)); ok {
			t.Errorf("%s: negated certificate accepted", q.Name)
		}
		// drop the last nonzero weight
		ya, yeq := append([]float64(nil), q.FarkasA...), append([]float64(nil), q.FarkasEq...)
		dropped := false
		for j := len(yeq) - 1; j >= 0 && !dropped; j-- {
			if yeq[j] != 0 {
				yeq[j], dropped = 0, true
			}
		}
		for j := len(ya) - 1; j >= 0 && !dropped; j-- {
			if ya[j] != 0 && f != "infeas-zero-row" && f != "infeas-box" {
				ya[j], dropped = 0, true
			}
		}
		if dropped {
			if ok, why := CheckFarkas(q, ya, yeq); ok {
				t.Errorf("%s: partial certificate accepted: %s", q.Name, why)
			}
		}
		if ok, _ := CheckFarkas(q, q.FarkasA[1:], q.FarkasEq); ok {
			t.Errorf("%s: short certificate accepted", q.Name)
		}
	}
	// Feasible problems: random nonnegative certificates must all fail.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range Families() {
		if infeasibleFamily(f) {
			continue
		}
		for _, n := range []int{1, 3, 10} {
			q := Generate(f, n, 2)
			for trial := 0; trial < 20; trial++ {
				ya := make([]float64, len(q.A))
				for j := range ya {
					if rng.IntN(3) == 0 {
						ya[j] = rng.Float64()
					}
				}
				yeq := make([]float64, len(q.Aeq))
				for j := range yeq {
					yeq[j] = rng.NormFloat64()
				}
				if trial == 0 {
					copy(ya, q.LambdaStar)
					copy(yeq, q.NuStar)
				}
				if ok, why := CheckFarkas(q, ya, yeq); ok {
					t.Errorf("%s: certificate accepted for a feasible problem: %s", q.Name, why)
				}
			}
		}
	}
}

// TestFarkasTolerance: a certificate whose w has a rounding-level
// component on an unbounded variable is accepted "up to FarkasRelTol"; a
// larger component is not.
func TestFarkasTolerance(t *testing.T) {
	// 3x <= 1 and -x <= -0.5: x <= 1/3 and x >= 1/2.
	q := &QP{N: 1, H: [][]float64{{1}}, C: []float64{0}, A: [][]float64{{3}, {-1}}, B: []float64{1, -0.5}}
	ok, why := CheckFarkas(q, []float64{1.0 / 3, 1}, nil)
	if !ok {
		t.Errorf("rounded certificate rejected: %s", why)
	}
	if ok, _ := CheckFarkas(q, []float64{1.0/3 + 1e-9, 1}, nil); ok {
		t.Error("certificate with w = 3e-9 on a free variable accepted")
	}
	if ok, _ := CheckFarkas(q, []float64{1, 3}, nil); !ok {
		t.Error("exact certificate rejected")
	}
	// with a lower bound x >= 0, w = 3 - 1 = 2 > 0 is fine: min w x = 0 > b'y = 0.5?  No: 1 - 0.5 = 0.5 > 0.
	q.Lower, q.Upper = []float64{0}, []float64{math.Inf(1)}
	if ok, _ := CheckFarkas(q, []float64{1, 1}, nil); ok {
		t.Error("certificate with margin < 0 accepted")
	}
}

func scaled(v []float64, s float64) []float64 {
	w := make([]float64, len(v))
	for i := range v {
		w[i] = s * v[i]
	}
	return w
}
