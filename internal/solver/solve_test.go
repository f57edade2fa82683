package solver

import (
	"context"
	"testing"
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
