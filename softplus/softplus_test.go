package softplus

import (
	"math"
	"testing"
)

// Reference formulas of the paper that the package does not export (the
// solver never evaluates them): the penalty p_delta (2.1) and the entropy
// term pi_xi of the dual (section 4). The tests check the exported
// functions against them.

// penalty is p_delta(t) = delta s(t/delta), evaluated as
// max(t, 0) + delta log1p(exp(-|t|/delta)), which cannot overflow even when
// t/delta does; penalty(0, t) = max(t, 0).
func penalty(delta, t float64) float64 {
	if delta == 0 {
		return math.Max(t, 0)
	}
	return math.Max(t, 0) + delta*math.Log1p(math.Exp(-math.Abs(t)/delta))
}

// entropy is pi_xi(lambda) for one coordinate,
// lambda log lambda + (xi - lambda) log(xi - lambda) - xi log xi, with
// 0 log 0 = 0; on [0, xi] it lies in [-xi log 2, 0].
func entropy(lambda, xi float64) float64 {
	xlogx := func(v float64) float64 {
		if v <= 0 {
			return 0
		}
		return v * math.Log(v)
	}
	return xlogx(lambda) + xlogx(xi-lambda) - xlogx(xi)
}

// conjugate is (xi p_delta)^*(lambda) = delta entropy(lambda, xi), finite
// exactly on [0, xi].
func conjugate(lambda, xi, delta float64) float64 {
	if lambda < 0 || lambda > xi {
		return math.Inf(1)
	}
	return delta * entropy(lambda, xi)
}

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

// TestFenchelYoungEquality: the dual map lambda = xi sigmoid(t/delta) is
// where Fenchel-Young holds with equality,
// xi p_delta(t) + (xi p_delta)^*(lambda) = lambda t.
func TestFenchelYoungEquality(t *testing.T) {
	for _, c := range []struct{ xi, delta, t float64 }{
		{1, 0.1, 0.3}, {2, 0.5, -1}, {3, 1e-3, 0}, {0.5, 2, 4},
	} {
		lam := c.xi * Sigmoid(c.t/c.delta)
		got := c.xi*penalty(c.delta, c.t) + conjugate(lam, c.xi, c.delta)
		if math.Abs(got-lam*c.t) > 1e-12*(1+math.Abs(lam*c.t)+c.xi*c.delta) {
			t.Errorf("%+v: %g != %g", c, got, lam*c.t)
		}
	}
}
