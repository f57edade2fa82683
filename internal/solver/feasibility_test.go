package solver

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

// TestInfeasible: x0 <= -1 and -x0 <= -1 cannot both hold; the solver says
// so and carries a Farkas certificate y >= 0, A'y = 0, b'y < 0.
func TestInfeasible(t *testing.T) {
	A := mat.NewDense(3, 2)
	copy(A.Data, []float64{1, 0, -1, 0, 0, 1})
	b := []float64{-1, -1, 5}
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, A: A, B: b}
	res := solveOK(t, p, &Options{Method: MethodAPG, TimeLimit: 0, MaxSteps: 1e7})
	if res.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
	y := res.Farkas
	aty := make([]float64, 2)
	A.MulTransVec(aty, y)
	var by float64
	for j, v := range y {
		if v < 0 {
			t.Errorf("farkas[%d] = %g < 0", j, v)
		}
		by += b[j] * v
	}
	if math.Hypot(aty[0], aty[1]) > 1e-6 || !(by < 0) {
		t.Errorf("not a certificate: A'y = %v, b'y = %g", aty, by)
	}
}

// TestNonSeparableSVMStops: a hard-margin SVM on data that no hyperplane
// through the origin separates (the same point with both labels, plus a
// noisy cloud) is reported infeasible without a step budget, not looped on.
func TestNonSeparableSVMStops(t *testing.T) {
	g := testqp.LCG(3)
	m, n := 40, 3
	A := mat.NewDense(m, n)
	b := make([]float64, m)
	for j := 0; j < m; j++ {
		y := 1.0
		if j%2 == 1 {
			y = -1
		}
		for i := 0; i < n; i++ {
			A.Data[j*n+i] = -y * g.Normal()
		}
		b[j] = -1
	}
	copy(A.Row(1), A.Row(0))
	for i := range A.Row(1) {
		A.Row(1)[i] = -A.Row(1)[i]
	}
	res := solveOK(t, &Problem{N: n, Loss: LossNone, Ridge: 1, A: A, B: b}, nil)
	if res.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
}

// checkFarkas requires res to be infeasible with res.Farkas (A's rows,
// then Aeq's) a certificate that no x in the box has A x <= b and
// Aeq x = beq, checked exactly by qpgen.CheckFarkas: y >= 0 on the rows of
// A, and b'y + beq'nu below the minimum over the box of
// (A'y + Aeq'nu)'x, whose components on unbounded variables must vanish to
// qpgen.FarkasRelTol.
func checkFarkas(t *testing.T, p *Problem, res *Result) {
	t.Helper()
	if res.Status != StatusInfeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
	q := &qpgen.QP{N: p.N, A: testqp.RowsOf(p.A), B: p.B, Aeq: testqp.RowsOf(p.Aeq), Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
	m := min(p.A.Rows, len(res.Farkas))
	if ok, why := qpgen.CheckFarkas(q, res.Farkas[:m], res.Farkas[m:]); !ok {
		t.Errorf("farkas %v: %s", res.Farkas, why)
	}
}

// TestInfeasibleManyRows: the planted 3000-row QP with an equality that
// contradicts its rows. Raising xi cannot help; phase one finds the
// certificate (before it, the stage at xi = 4.5e15 ran 2e8 steps).
func TestInfeasibleManyRows(t *testing.T) {
	p, _, _ := wsProblem()
	q := *p
	q.Aeq = &mat.Dense{Rows: 1, Cols: p.N, Stride: p.N, Data: make([]float64, p.N)}
	q.Aeq.Data[0], q.Aeq.Data[1] = 1, -2
	q.Beq = []float64{0.25}
	for _, all := range []bool{false, true} {
		res := solveOK(t, &q, &Options{Method: MethodAPG, AllRows: all, MaxSteps: 2e7})
		checkFarkas(t, &q, res)
	}
}

// TestInfeasibleBox: x0 >= 2 cannot hold with x0 <= 1; the certificate pays
// for A^T y != 0 with the bound.
func TestInfeasibleBox(t *testing.T) {
	A := mat.NewDense(2, 2)
	copy(A.Data, []float64{-1, 0, 1, 1})
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, A: A, B: []float64{-2, 5},
		Lower: []float64{math.Inf(-1), -3}, Upper: []float64{1, 3}}
	res := solveOK(t, p, &Options{Method: MethodAPG, MaxSteps: 1e7})
	checkFarkas(t, p, res)
	if res.Farkas[1] != 0 {
		t.Errorf("farkas %v: the second row plays no part", res.Farkas)
	}
}

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

// TestFarkasEqualityTwinsCancel: an equality held as two working rows
// beside an inequality that nearly copies it (relative 1e-11, right-hand
// sides 1.7 apart: feasible, with ||x*|| = 2.4e11). The multipliers
// "twins" = (c, 1 - c, 1), c = 8.2e-6, on the inequality and the
// equality's plus and minus rows cancel to 4e-17 in a sum of terms of
// size 1, and both checks took them for a certificate; each must refuse
// them, the engine's (confirmFarkas) because it takes the equality as
// one, the rounding check (holdsToRounding) because it nets the two rows
// first and holds the sum to the rounding of terms of size c. So must
// they refuse "net" = (c, 0, c). With the inequality an exact copy the
// problem is infeasible: the engine confirms both, and the rounding check
// "net", whose sum is exactly zero; "twins" is not a certificate at its
// own scale (the rounded 1 - c leaves its sum off by 1e-16 times the
// row), and the rounding check refuses it.
func TestFarkasEqualityTwinsCancel(t *testing.T) {
	e := []float64{-1.9033715388851922, -1.3756660572415356}
	const c = 8.1985654145044e-06
	for _, tc := range []struct {
		name       string
		a          []float64
		y          [3]float64 // on the inequality, the plus row, the minus row
		engine     bool
		toRounding bool
	}{
		{"near copy, twins", []float64{-1.9033715388730559, -1.3756660572415829}, [3]float64{c, 1 - c, 1}, false, false},
		{"near copy, net", []float64{-1.9033715388730559, -1.3756660572415829}, [3]float64{c, 0, c}, false, false},
		{"exact copy, twins", e, [3]float64{c, 1 - c, 1}, true, false},
		{"exact copy, net", e, [3]float64{c, 0, c}, true, true},
	} {
		a, aeq := mat.NewDense(1, 2), mat.NewDense(1, 2)
		copy(a.Data, tc.a)
		copy(aeq.Data, e)
		p := &Problem{N: 2, Loss: LossNone, Ridge: 1, A: a, B: []float64{-0.3388597539511272},
			Aeq: aeq, Beq: []float64{1.3621017331004242}}
		for _, check := range []string{"confirmFarkas", "holdsToRounding"} {
			s, err := New(p, &Options{Method: MethodAPG})
			if err != nil {
				t.Fatal(err)
			}
			y := make([]float64, s.mw)
			for k, code := range s.code[:s.mw] {
				switch {
				case !code.isEq():
					y[k] = tc.y[0]
				case code.isEqPlus():
					y[k] = tc.y[1]
				default:
					y[k] = tc.y[2]
				}
			}
			got, want := false, tc.toRounding
			if check == "confirmFarkas" {
				got, want = s.confirmFarkas(y), tc.engine
			} else {
				got = s.holdsToRounding(y)
			}
			if got != want {
				t.Errorf("%s, %s: confirmed %v, want %v", tc.name, check, got, want)
			}
		}
	}
}

// TestConfirmFarkasCallerRows: two equalities whose rows differ by less
// than their rounding once scaled to unit norm (e2 = 0.3679 e1 up to a
// relative 1e-16) have one solution, at ||x*|| = 3e16; scaled, they were
// one row with two right-hand sides, and the engine, given the scaled
// rows, confirmed the certificate (-1, 1) on them. Given the caller's
// rows it must not; APG must not report the problem infeasible.
func TestConfirmFarkasCallerRows(t *testing.T) {
	aeq := mat.NewDense(2, 2)
	copy(aeq.Data, []float64{1.6339509332082862, -0.5484927240633566, 0.6010645408192423, -0.20176831545639276})
	a := mat.NewDense(1, 2)
	copy(a.Data, []float64{-1.5461412861354664, 0.31532761411613563})
	p := &Problem{N: 2, Loss: LossNone, Ridge: 1, A: a, B: []float64{1.0568269620538366},
		Aeq: aeq, Beq: []float64{0.1757248167462686, -0.39516698533151406}}
	s, err := New(p, &Options{Method: MethodAPG})
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, s.mw)
	for k, c := range s.code[:s.mw] {
		switch {
		case c == eqCode(0, true):
			y[k] = 1 // minus e1
		case c == eqCode(1, false):
			y[k] = 1 // plus e2
		}
	}
	if s.confirmFarkas(y) {
		t.Error("confirmed a certificate of two independent equalities")
	}
	res := solveOK(t, p, &Options{Method: MethodAPG, MaxSteps: 1e6})
	if res.Status == StatusInfeasible {
		t.Errorf("APG: infeasible; the equalities meet at x = (1.1e16, 3.4e16)")
	}
}
