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
			rhs := tt*r - delta*Entropy(r, 1)
			if got := P(delta, tt); math.Abs(got-rhs) > 1e-12*(1+math.Abs(got)) {
				t.Errorf("delta %g t %g: p = %.17g, conjugate form %.17g", delta, tt, got, rhs)
			}
		}
	}
}

// TestPenaltyProperties: p(t) - p(-t) = t, p(0) = delta log 2, and the limit
// delta -> 0 is max(t, 0), with no overflow for huge |t|/delta.
func TestPenaltyProperties(t *testing.T) {
	for _, tt := range []float64{-5, -1, 0, 0.3, 7, 1e300, -1e300} {
		d := 0.01
		if got := P(d, tt) - P(d, -tt); math.Abs(got-tt) > 1e-13*math.Max(1, math.Abs(tt)) {
			t.Errorf("p(%g) - p(-%g) = %g", tt, tt, got)
		}
		if got := P(1e-300, tt); math.Abs(got-math.Max(tt, 0)) > 1e-290*math.Max(1, math.Abs(tt)) && !math.IsInf(tt, 0) {
			t.Errorf("p at tiny delta (%g) = %g, want %g", tt, got, math.Max(tt, 0))
		}
	}
	if got := P(0.5, 0); got != 0.5*math.Ln2 {
		t.Errorf("p(0) = %v, want delta log 2", got)
	}
	if e := Entropy(0.5, 1); math.Abs(e+math.Ln2) > 1e-15 {
		t.Errorf("entropy at xi/2 = %v, want -log 2", e)
	}
	if Entropy(0, 3) != 0 || Entropy(3, 3) != 0 {
		t.Error("entropy at the ends of [0, xi] must be 0")
	}
}

func TestSliceVersions(t *testing.T) {
	r := []float64{-1, 0, 0.5, 3}
	lam := make([]float64, 4)
	DualMap(lam, r, 2, 0.1)
	var want float64
	for j, v := range r {
		if math.Abs(lam[j]-2*Sigmoid(v/0.1)) > 1e-15 {
			t.Errorf("DualMap[%d] = %v", j, lam[j])
		}
		want += 2 * P(0.1, v)
	}
	if got := PenaltySum(r, 2, 0.1); math.Abs(got-want) > 1e-14*want {
		t.Errorf("PenaltySum = %v, want %v", got, want)
	}
	if a := testing.AllocsPerRun(10, func() { DualMap(lam, r, 2, 0.1); PenaltySum(r, 2, 0.1) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
