package solver

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

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
