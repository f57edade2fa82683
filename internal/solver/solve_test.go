package solver

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

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

// TestHugeMultipliersHandOver: the rows x1 + 1e-8 x2 <= -1 and -x1 +
// 1e-8 x2 <= -1 (oppositePair) hold only at x2 <= -1e8, with multipliers
// of 5e15. The stages cannot raise xi that far (each fourfold raise a
// slower stage: APG reached xi = 3e11 in 3e7 steps), and the exact
// finisher needs no xi: every penalty method hands over, from the probe
// and, without it, once the stages have grown slow, and ends solved at
// x* = (0, -1e8) in a bounded number of steps.
func TestHugeMultipliersHandOver(t *testing.T) {
	for _, m := range []Method{MethodAPG, MethodSVRG, MethodCatalyst, MethodSGD, MethodSGDM} {
		for _, noProbe := range []bool{false, true} {
			for _, n := range []int{2, 40} {
				a := mat.NewDense(2, n)
				a.Row(0)[0], a.Row(0)[1] = 1, 1e-8
				a.Row(1)[0], a.Row(1)[1] = -1, 1e-8
				p := &Problem{N: n, Loss: LossNone, Ridge: 1, A: a, B: []float64{-1, -1}}
				res := solveOK(t, p, &Options{Method: m, NoProbe: noProbe, Tol: 1e-9, MaxSteps: 1e7})
				label := fmt.Sprintf("%v, no probe %v, n = %d", m, noProbe, n)
				if res.Status != StatusSolved {
					t.Errorf("%s: status %v (%s) after %d steps", label, res.Status, res.Message, res.Steps)
					continue
				}
				want := make([]float64, n)
				want[1] = -1e8
				if d := maxAbsDiff(res.X, want); d > 1e-6 {
					t.Errorf("%s: max |x - x*| = %.3g", label, d)
				}
				if l := res.Lambda[0]; math.Abs(l-5e15) > 1e-6*5e15 {
					t.Errorf("%s: lambda %v, want 5e15 each", label, res.Lambda)
				}
			}
		}
	}
}
