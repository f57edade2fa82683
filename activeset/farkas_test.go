package activeset

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
)

// TestFarkasMarginAsChecker: the equalities x_1 + x_2 = 1 and
// x_1 + e x_2 = e, e = 1 + 1e-12, and the row x_2 <= 1/2 contradict each
// other by a margin of (e-1)/2, 2.5e-13 of the certificate's terms. With
// the certificate exact (1 and -1 on the equalities, e - 1 on the row:
// A'y = 0 in the caller's data) the margin proves infeasibility; with the
// row's weight one ulp off, A'y is 1e-16 on an unbounded coordinate and
// the certificate holds only up to that, which an independent check
// (qpgen.CheckFarkas) accepts from a margin of 1e-12 of the terms:
// farkasHolds, which accepted it at 1e-13, must not claim what the
// checker refuses. The engine's own answer is either.
func TestFarkasMarginAsChecker(t *testing.T) {
	p := nearCopyEqualities(1e-12, false)
	p.A, p.B = dense([][]float64{{0, 1}}), []float64{0.5}
	e := p.Beq[1]
	s := mustNew(t, p)
	for _, tc := range []struct {
		name string
		yA   float64
	}{
		{"exact", e - 1},
		{"one ulp off", math.Nextafter(e-1, 1)},
	} {
		s.res.FarkasA[0], s.res.FarkasEq[0], s.res.FarkasEq[1] = tc.yA, 1, -1
		ok, _ := s.farkasHolds()
		want, why := qpgen.CheckFarkas(qpOf(p), s.res.FarkasA, s.res.FarkasEq)
		if ok != want {
			t.Errorf("%s: farkasHolds %v, checker %v (%s)", tc.name, ok, want, why)
		}
	}
	r := s.Solve(ctx)
	infeasibleOrUndecided(t, "solve", p, r, true)
}
