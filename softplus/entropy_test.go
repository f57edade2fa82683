package softplus

import (
	"math"
	"testing"
)

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
