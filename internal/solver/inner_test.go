package solver

import (
	"context"
	"math"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// sgdFloor returns the relative error, as a function of the step count t
// (floor.relErr), of the best uniformly sampled stochastic gradient method on a
// squared-loss problem with constraints (p has no P, q, l1 or bounds): the
// asymptotic covariance H^{-1} S H^{-1}/t of averaged SGD (Polyak and
// Juditsky 1992), which no estimator from t uniform samples of the
// component gradients improves on as t grows. It is taken in the limit
// delta -> 0 that the nested method tends to: H is the Hessian of the
// objective restricted to the null space of the active rows (their penalty
// curvature lambda_j/delta grows without bound), and S the covariance of
// N g_i, i uniform over the N = l + |active| components whose gradients
// g_i at x* do not vanish: the loss rows phi_i (phi_i^T x* - y_i)/l and the
// active rows lambda_j a_j (inactive rows add nothing, so screening them
// all out is the most favourable case).
func sgdFloor(t testing.TB, p *Problem, ref *refSolution) errFloor {
	t.Helper()
	n, l := p.N, p.Phi.Rows
	h := mat.NewDense(n, n)
	p.Phi.Gram(h, 1/float64(l))
	h.AddDiag(p.Ridge)
	var ch mat.Cholesky
	if err := ch.Factor(h); err != nil {
		t.Fatal(err)
	}
	// hinv applies the restricted inverse H0^{-1} - H0^{-1} A^T (A H0^{-1} A^T)^{-1} A H0^{-1}
	// over the active rows A.
	act := ref.Active
	k := len(act)
	ha := make([][]float64, k) // H0^{-1} a_j
	s := mat.NewDense(k, k)
	for i, j := range act {
		ha[i] = make([]float64, n)
		ch.Solve(ha[i], p.A.Row(j))
	}
	for i := range act {
		for j, r := range act {
			s.Row(i)[j] = vec.Dot(ha[i], p.A.Row(r))
		}
	}
	var cs mat.Cholesky
	if err := cs.Factor(s); err != nil {
		t.Fatal(err)
	}
	c, u := make([]float64, k), make([]float64, k)
	hinv := func(dst, g []float64) {
		ch.Solve(dst, g)
		for i, j := range act {
			c[i] = vec.Dot(p.A.Row(j), dst)
		}
		cs.Solve(u, c)
		for i := range act {
			vec.Axpy(-u[i], ha[i], dst)
		}
	}
	nc := float64(l + k)
	g, hg, sum := make([]float64, n), make([]float64, n), make([]float64, n)
	var tr float64
	add := func() {
		hinv(hg, g)
		tr += nc * vec.Dot(hg, hg)
		vec.Axpy(1, g, sum)
	}
	for i := 0; i < l; i++ {
		row := p.Phi.Row(i)
		copy(g, row)
		vec.Scale((vec.Dot(row, ref.X)-p.Y[i])/float64(l), g)
		add()
	}
	for _, j := range act {
		copy(g, p.A.Row(j))
		vec.Scale(ref.Lambda[j], g)
		add()
	}
	hinv(hg, sum)
	return errFloor{c: tr - vec.Dot(hg, hg), norm: math.Sqrt(vec.Dot(ref.X, ref.X))}
}

// errFloor is sgdFloor's answer: after t steps the error is sqrt(c/t), the
// relative error sqrt(c/t)/norm.
type errFloor struct{ c, norm float64 }

// relErr is the floor's relative error after t steps.
func (f errFloor) relErr(t float64) float64 { return math.Sqrt(f.c/t) / f.norm }

// steps is the step count at which the floor's relative error is rel.
func (f errFloor) steps(rel float64) float64 { return f.c / (rel * f.norm * rel * f.norm) }

// TestSGDAveraged: on the paper QPs at 2e6 steps, SGD and SGDM with their
// defaults (averaged iterates, stages of sgdStageMixings mixing times) are
// within 8x of sgdFloor, the error of the best uniformly sampled SGD
// (measured: 2.1x to 5.2x); their geometric mean error over the seeds is
// 1.5x below that of the same runs with LastIterate (measured: 2.2x SGD,
// 2.9x SGDM) and 3x below that of the paper's stages with the last
// iterate, the earlier default (StageMult 0.6; measured 4.7x and 12x).
// It also logs sgdFloor's step count for a relative error of 1e-4: 1.1e9
// to 1.9e9, which is why the 1e-4
// without polishing is out of reach of SGD and SGDM at the budgets of
// TestPaperQPUnpolished.
func TestSGDAveraged(t *testing.T) {
	const steps = 2e6
	for _, m := range []Method{MethodSGD, MethodSGDM} {
		var logs [3]float64 // default, LastIterate, paper stages with LastIterate
		for _, seed := range seeds() {
			p, ref := loadQP(t, seed)
			fl := sgdFloor(t, p, ref)
			floor := fl.relErr(steps)
			var errs [3]float64
			for i, o := range []Options{{}, {LastIterate: true}, {LastIterate: true, StageMult: 0.6}} {
				o.Method, o.NoPolish, o.MaxSteps, o.Tol, o.Seed = m, true, steps, 1e-12, 1
				if m == MethodSGDM && i == 2 {
					o.StepScale = 1 // the earlier default step
				}
				errs[i] = testqp.RelErr(solveOK(t, p, &o).X, ref.X)
				logs[i] += math.Log(errs[i])
			}
			t.Logf("%v s%d: averaged %.2e, last iterate %.2e, paper stages %.2e, floor %.2e (ratio %.1f); 1e-4 needs >= %.1e steps",
				m, seed, errs[0], errs[1], errs[2], floor, errs[0]/floor, fl.steps(1e-4))
			if errs[0] > 8*floor {
				t.Errorf("%v s%d: averaged error %.3e > 8 x the floor %.3e", m, seed, errs[0], floor)
			}
		}
		k := float64(len(seeds()))
		g := [3]float64{math.Exp(logs[0] / k), math.Exp(logs[1] / k), math.Exp(logs[2] / k)}
		t.Logf("%v: geometric means %.2e averaged, %.2e last iterate, %.2e paper stages", m, g[0], g[1], g[2])
		if !(g[0] <= g[1]/1.5) || !(g[0] <= g[2]/3) {
			t.Errorf("%v: geometric mean error %.3e averaged, %.3e last iterate, %.3e paper stages: want 1.5x and 3x smaller", m, g[0], g[1], g[2])
		}
	}
}

// TestSGDBudgetAnswer: at a step budget, SGD's answer is a late point, within
// 2x in relative error of the best point the stages certified. Its points
// are noisy, and the multipliers the sigmoid map gives at them make a poor
// dual bound; when each point could only be certified with its own
// multipliers, the gap stopped improving after a few stages and the answer
// stayed there (paper QP, seed 3, 1e8 steps: 1.8e-3, 2.4x the last point's
// 7.7e-4; at 2e8 steps 3.5x). Now a point is also certified with the best
// multipliers so far (certifyPoint). The answer is the point with the best
// certificate, which ranks points by F_{xi,0}, not by the (unknown)
// distance to x*: that is why the bound is 2x, not 1x (seed 5 at 2e8 steps:
// 7.9e-4 against an earlier point's 4.8e-4). SGDM's points behave alike.
// Skipped with -short (5e8 steps).
func TestSGDBudgetAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("5e8 steps")
	}
	for seed := 1; seed <= 5; seed++ {
		p, ref := loadQP(t, seed)
		var s *Solver
		best, last := math.Inf(1), 0.0
		opt := &Options{Method: MethodSGD, NoPolish: true, MaxSteps: 1e8, Tol: 1e-15, Seed: 1,
			Progress: func(Stage) {
				last = testqp.RelErr(s.state.x, ref.X)
				best = min(best, last)
			}}
		var err error
		if s, err = New(p, opt); err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		e := testqp.RelErr(res.X, ref.X)
		t.Logf("s%d: answer %.2e, best stage point %.2e, last %.2e, gap %.2e", seed, e, best, last, res.Gap)
		if e > 1.5*best { // the README's figure: 1.0x to 1.28x
			t.Errorf("s%d: answer's relative error %.3e, the best certified point's %.3e", seed, e, best)
		}
	}
}

// TestCycleDetector: cycle.repeats reports a state sequence that enters a
// cycle (at iteration k, of period p) within 2 max(k, p) + p iterations,
// and never one that does not repeat.
func TestCycleDetector(t *testing.T) {
	for _, c := range []struct{ k, p int }{{0, 1}, {1, 1}, {5, 3}, {100, 1}, {3, 1000}, {777, 64}} {
		cy := cycle{x: make([]float64, 2), y: make([]float64, 2)}
		state := func(i int) ([]float64, []float64) {
			if i >= c.k {
				i = c.k + (i-c.k)%c.p
			}
			return []float64{float64(i), 1}, []float64{-float64(i), 2}
		}
		found := -1
		for i := 0; i < 4*(c.k+c.p)+10; i++ {
			if x, y := state(i); cy.repeats(x, y) {
				found = i
				break
			}
		}
		if found < 0 || found > 2*max(c.k, c.p)+c.p {
			t.Errorf("cycle entered at %d of period %d: seen at %d, want by %d", c.k, c.p, found, 2*max(c.k, c.p)+c.p)
		}
	}
	cy := cycle{x: make([]float64, 1), y: make([]float64, 1)}
	for i := 0; i < 100000; i++ {
		if cy.repeats([]float64{float64(i)}, []float64{0}) {
			t.Fatalf("no cycle, reported at %d", i)
		}
	}
}
