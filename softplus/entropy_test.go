package softplus

import (
	"math"
	"testing"
)

func TestFenchelYoungEquality(t *testing.T) {
	for _, c := range []struct{ xi, delta, t float64 }{
		{1, 0.1, 0.3}, {2, 0.5, -1}, {3, 1e-3, 0}, {0.5, 2, 4},
	} {
		lam := c.xi * Sigmoid(c.t/c.delta)
		got := c.xi*P(c.delta, c.t) + Conjugate(lam, c.xi, c.delta)
		if math.Abs(got-lam*c.t) > 1e-12*(1+math.Abs(lam*c.t)+c.xi*c.delta) {
			t.Errorf("%+v: %g != %g", c, got, lam*c.t)
		}
	}
	if Conjugate(0, 1, 1) != 0 || Conjugate(1, 1, 1) != 0 || !math.IsInf(Conjugate(1.5, 1, 1), 1) {
		t.Error("endpoint limits")
	}
	l := []float64{0, 0.25, 1}
	if n := testing.AllocsPerRun(10, func() { EntropySum(l, 1) }); n != 0 {
		t.Errorf("allocs %v", n)
	}
}
