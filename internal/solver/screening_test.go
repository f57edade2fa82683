package solver

import (
	"context"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// TestScreeningRules: every screening rule at work, on a separable SVM of
// 3000 rows in R^10 whose answer has 10 active rows. With every row in the
// problem from the start (AllRows), no probe and no exact finish, the
// stages alone run, and the rule decides what leaves the problem:
// ScreenNone drops nothing, the gap-safe rule and the paper's rule drop at
// least 90% of the rows, and no rule drops a row active at x* (slack below
// 1e-9 at the exact answer); each answer is within 1e-3 of x*. With the
// exact finish (the default) every rule's answer is x* to 1e-12, and the
// rows it lists as Screened are inactive at x* (ScreenNone lists none).
func TestScreeningRules(t *testing.T) {
	if testing.Short() {
		t.Skip("eight solves, the unfinished ones about a second each")
	}
	p := smallSVM(3000, 10)
	exact := solveOK(t, p, &Options{Method: MethodActiveSet, Tol: 1e-12})
	if exact.Status != StatusSolved {
		t.Fatalf("exact: %v", exact.Status)
	}
	xs := append([]float64(nil), exact.X...)
	m := p.A.Rows
	inactive := func(j int) bool { return p.B[j]-vecDot(p.A.Row(j), xs) > 1e-9 }
	for _, c := range []struct {
		rule    ScreenRule
		minDrop int
	}{{ScreenNone, 0}, {ScreenGapSafe, m * 9 / 10}, {ScreenPaper, m * 9 / 10}} {
		res := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-6, Screen: c.rule, AllRows: true, NoPolish: true, NoProbe: true})
		dropped := append(append([]int(nil), res.Screened...), res.Outside...)
		t.Logf("%v, stages only: %v, %d stages, kept %d, dropped %d, ||x - x*|| %.2e", c.rule, res.Status, res.Stages, res.Kept, len(dropped), testqp.Dist(res.X, xs))
		if len(dropped) < c.minDrop || c.rule == ScreenNone && (len(dropped) > 0 || res.Kept != m) {
			t.Errorf("%v: dropped %d rows, kept %d; want at least %d dropped", c.rule, len(dropped), res.Kept, c.minDrop)
		}
		for _, j := range dropped {
			if !inactive(j) {
				t.Errorf("%v dropped row %d, active at x*", c.rule, j)
			}
		}
		if d := testqp.Dist(res.X, xs); d > 1e-3*testqp.Norm(xs) {
			t.Errorf("%v: ||x - x*|| = %.3g", c.rule, d)
		}
		fin := solveOK(t, p, &Options{Method: MethodAPG, Tol: 1e-9, Screen: c.rule, AllRows: true, NoProbe: true})
		if fin.Status != StatusSolved || testqp.RelErr(fin.X, xs) > 1e-12 || c.rule == ScreenNone && len(fin.Screened) > 0 {
			t.Errorf("%v, finished: %v, relative error %.3g, %d screened", c.rule, fin.Status, testqp.RelErr(fin.X, xs), len(fin.Screened))
		}
		for _, j := range fin.Screened {
			if !inactive(j) {
				t.Errorf("%v, finished: row %d listed as screened, active at x*", c.rule, j)
			}
		}
	}
}

// vecDot is a'x summed plainly (the tests' own, independent of vec).
func vecDot(a, x []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * x[i]
	}
	return s
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
