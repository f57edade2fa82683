package solver

import (
	"fmt"
	"testing"

	"github.com/softpen/softpen/mat"
)

// oppositePair is issue input 5 at n variables: rows (1, e, 0...) and
// (-1, e, 0...) with b = (-1, -1), feasible for e != 0 (x_2 = -1/e, with
// multipliers about 1/(2e)) and infeasible for e = 0; with box, every x_i
// in [-1, 1], which makes both infeasible.
func oppositePair(t *testing.T, n int, e float64, box bool) *Solver {
	a := mat.NewDense(2, n)
	a.Row(0)[0], a.Row(0)[1] = 1, e
	a.Row(1)[0], a.Row(1)[1] = -1, e
	p := &Problem{N: n, Loss: LossNone, Ridge: 1, A: a, B: []float64{-1, -1}}
	if box {
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range p.Lower {
			p.Lower[i], p.Upper[i] = -1, 1
		}
	}
	s, err := New(p, &Options{Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConfirmFarkasEveryN: the penalty method's Farkas certificates are
// checked in the caller's data at every n, by the active-set method on
// their rows up to farkasEngineMaxN and to the rounding of their sums
// above (holdsToRounding). On the nearly opposite rows y = (1, 1) gives
// A'y = (0, 2e-7, 0...), which the penalty method's relative test of 1e-6
// passes, and at n > 512 it was reported infeasible unchecked; the rows
// are feasible and it must be refused. The exactly opposite rows, and the
// nearly opposite ones in a box, are infeasible and y proves it. (Above
// farkasEngineMaxN the set-up forms an n x n model: not under -short.)
func TestConfirmFarkasEveryN(t *testing.T) {
	sizes := []int{600, farkasEngineMaxN + 1}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		for _, c := range []struct {
			name string
			e    float64
			box  bool
			want bool
		}{
			{"nearly opposite, feasible", 1e-7, false, false},
			{"opposite, infeasible", 0, false, true},
			{"nearly opposite in a box, infeasible", 1e-7, true, true},
		} {
			s := oppositePair(t, n, c.e, c.box)
			y := make([]float64, s.mw)
			y[0], y[1] = 1, 1
			if got := s.confirmFarkas(y); got != c.want {
				t.Errorf("n = %d, %s: confirmed %v, want %v", n, c.name, got, c.want)
			}
		}
	}
}

// TestHoldsToRounding: the rounding check itself, at a size the engine
// would confirm (so that both agree there).
func TestHoldsToRounding(t *testing.T) {
	for _, c := range []struct {
		e    float64
		box  bool
		want bool
	}{{1e-7, false, false}, {1e-12, false, false}, {0, false, true}, {1e-7, true, true}} {
		s := oppositePair(t, 40, c.e, c.box)
		y := make([]float64, s.mw)
		y[0], y[1] = 1, 1
		if got := s.holdsToRounding(y); got != c.want {
			t.Errorf("%s: holds %v, want %v", fmt.Sprint(c), got, c.want)
		}
	}
}
