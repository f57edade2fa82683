package screen

import (
	"math"
	"testing"
)

func TestPaperThreshold(t *testing.T) {
	// m = 100, xi = 1, mu = 0.1, delta = 0.01: -2*10*0.01*log(1e5).
	want := -0.2 * math.Log(1e5)
	if got := PaperThreshold(100, 1, 0.1, 0.01); math.Abs(got-want) > 1e-15 {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, c := range []struct {
		m             int
		xi, mu, delta float64
	}{{0, 1, 1, 1}, {1, 1, 10, 1}, {5, 1, 1, math.Inf(1)}, {5, math.NaN(), 1, 1}} {
		if got := PaperThreshold(c.m, c.xi, c.mu, c.delta); !math.IsInf(got, -1) {
			t.Errorf("%+v: got %v, want -Inf (drop nothing)", c, got)
		}
	}
}

func TestPaperExperimentThreshold(t *testing.T) {
	// m = 8124 (mushrooms), delta = 1e-5: -2 sqrt(8124) 1e-5.
	want := -2 * math.Sqrt(8124) * 1e-5
	if got := PaperExperimentThreshold(8124, 1e-5); math.Abs(got-want) > 1e-18 {
		t.Errorf("got %v, want %v", got, want)
	}
	// Without the log factor it is the larger (less conservative) threshold
	// whenever the log exceeds 1.
	if e, a := PaperExperimentThreshold(100, 0.01), PaperThreshold(100, 1, 0.1, 0.01); !(e > a) {
		t.Errorf("experiment threshold %v not above Algorithm 2's %v", e, a)
	}
	for _, c := range []struct {
		m     int
		delta float64
	}{{0, 1}, {-3, 1}, {5, 0}, {5, -1}, {5, math.Inf(1)}, {5, math.NaN()}} {
		if got := PaperExperimentThreshold(c.m, c.delta); !math.IsInf(got, -1) {
			t.Errorf("%+v: got %v, want -Inf (drop nothing)", c, got)
		}
	}
}

func TestGapSafeThreshold(t *testing.T) {
	if got := GapSafeThreshold(2, 4); got != -1 {
		t.Errorf("got %v, want -1", got)
	}
	for _, g := range []float64{math.Inf(1), math.NaN(), -1} {
		if got := GapSafeThreshold(g, 1); !math.IsInf(got, -1) {
			t.Errorf("gap %v: got %v, want -Inf", g, got)
		}
	}
}

// TestGapSafeNeverDropsActive: for the 1-D problem min mu/2 (x - c)^2 with
// constraints x <= b_j (unit rows), the solution is x* = min(c, min b); at
// any x, the gap-safe rule with the true primal-dual gap never drops a row
// active at x*.
func TestGapSafeNeverDropsActive(t *testing.T) {
	mu, c := 2.0, 3.0
	b := []float64{1, 1.5, 4, 10}
	xs := 1.0 // the solution
	lamStar := mu * (c - xs)
	for _, x := range []float64{-2, 0, 0.9, 1, 1.2, 2, 5} {
		// Dual: G(lam) = min_x mu/2 (x-c)^2 + lam (x - 1) = lam(c - 1) - lam^2/(2 mu),
		// using lam on row 0 only; with xi >= lam* the exact penalty holds.
		for _, lam := range []float64{0, lamStar / 2, lamStar} {
			g := lam*(c-1) - lam*lam/(2*mu)
			var pen float64
			for _, bj := range b {
				pen += math.Max(x-bj, 0)
			}
			f := mu/2*(x-c)*(x-c) + 2*lamStar*pen
			thr := GapSafeThreshold(f-g, mu)
			if x-b[0] < thr {
				t.Errorf("x = %v, lam = %v: active row 0 dropped (residual %v < %v)", x, lam, x-b[0], thr)
			}
		}
	}
}
