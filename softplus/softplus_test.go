package softplus

import (
	"math"
	"testing"
)

// TestConjugateIdentity checks (2.2) at the dual map: p_delta(t) equals
// t*r - delta*(r log r + (1-r) log(1-r)) at r = sigmoid(t/delta), which is
// Fenchel-Young with equality (xi = 1).
func TestConjugateIdentity(t *testing.T) {
	for _, delta := range []float64{1, 0.05, 1e-4} {
		for _, tt := range []float64{-3, -0.2, -1e-3, 0, 1e-3, 0.4, 2} {
			r := D1(delta, tt)
			rhs := tt*r - delta*entropy(r, 1)
			if got := penalty(delta, tt); math.Abs(got-rhs) > 1e-12*(1+math.Abs(got)) {
				t.Errorf("delta %g t %g: p = %.17g, conjugate form %.17g", delta, tt, got, rhs)
			}
		}
	}
}

// TestSoftplusTails: s(u) - s(-u) = u, s(0) = log 2, and delta s(t/delta)
// tends to max(t, 0) as delta -> 0, with no overflow for huge |u|.
func TestSoftplusTails(t *testing.T) {
	for _, u := range []float64{-5, -1, 0, 0.3, 7, 1e300, -1e300} {
		if got := Softplus(u) - Softplus(-u); math.Abs(got-u) > 1e-13*math.Max(1, math.Abs(u)) {
			t.Errorf("s(%g) - s(-%g) = %g", u, u, got)
		}
	}
	if got := Softplus(0); got != math.Ln2 {
		t.Errorf("s(0) = %v, want log 2", got)
	}
	for _, tt := range []float64{-5, 0.3, 7} {
		if got := 1e-3 * Softplus(tt/1e-3); math.Abs(got-penalty(1e-3, tt)) > 1e-13*math.Max(1, math.Abs(tt)) {
			t.Errorf("delta s(t/delta) at t = %g: %g, want %g", tt, got, penalty(1e-3, tt))
		}
	}
}

func TestSliceVersions(t *testing.T) {
	r := []float64{-1, 0, 0.5, 3}
	lam := make([]float64, 4)
	DualMap(lam, r, 2, 0.1)
	for j, v := range r {
		if math.Abs(lam[j]-2*Sigmoid(v/0.1)) > 1e-15 {
			t.Errorf("DualMap[%d] = %v", j, lam[j])
		}
	}
	if a := testing.AllocsPerRun(10, func() { DualMap(lam, r, 2, 0.1) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
