package softpen

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// separableCase is a problem of n = 12 variables of which free appear in
// no row and in no off-diagonal entry of P, with the given loss, bounds on
// every variable, l1 and q large enough that some separable variables end
// at a bound, some at 0 and some inside.
func separableCase(loss string, seed uint64) (*Problem, []int) {
	const n, m, l = 12, 8, 20
	free := []int{2, 5, 7, 11}
	isFree := make([]bool, n)
	for _, j := range free {
		isFree[j] = true
	}
	g := testqp.LCG(seed)
	row := func() []float64 {
		r := make([]float64, n)
		for j := range r {
			if !isFree[j] {
				r[j] = g.Normal()
			}
		}
		return r
	}
	p := &Problem{N: n, Loss: loss, Ridge: 0.5, L1: 0.1, Q: make([]float64, n),
		Lower: make([]float64, n), Upper: make([]float64, n)}
	for j := range p.Q {
		p.Q[j] = 3 * g.Normal()
		p.Lower[j], p.Upper[j] = -1-g.Uniform(), 1+g.Uniform()
	}
	p.Q[5] = 0.05 // inside the l1 threshold: x_5 = 0
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = 0.3 * g.Normal()
	}
	for i := 0; i < m; i++ {
		a := row()
		p.A = append(p.A, a)
		p.B = append(p.B, dotRow(a, x0)+0.1*g.Uniform())
	}
	eq := row()
	p.Aeq, p.Beq = [][]float64{eq}, []float64{dotRow(eq, x0)}
	switch loss {
	case "none":
		// P = M'M on the coupled variables plus a diagonal on the free.
		mm := make([][]float64, n)
		for i := range mm {
			mm[i] = row()
		}
		p.P = make([][]float64, n)
		for i := range p.P {
			p.P[i] = make([]float64, n)
			for j := range p.P[i] {
				for k := range mm {
					p.P[i][j] += mm[k][i] * mm[k][j]
				}
			}
		}
		for _, j := range free {
			p.P[j][j] = g.Uniform()
		}
	case "squared", "logistic":
		for i := 0; i < l; i++ {
			p.Phi = append(p.Phi, row())
			y := g.Normal()
			if loss == "logistic" {
				y = math.Copysign(1, y)
			}
			p.Y = append(p.Y, y)
		}
	}
	return p, free
}

func dotRow(a, x []float64) float64 {
	s := 0.0
	for j := range a {
		s += a[j] * x[j]
	}
	return s
}

// withCouplingRows returns p with a row x_j <= 1e3 for each j in free:
// never active (every bound is below 2 in magnitude), so the answer is the
// same, but no variable is separable any more.
func withCouplingRows(p *Problem, free []int) *Problem {
	r := *p
	r.A = append([][]float64(nil), p.A...)
	r.B = append([]float64(nil), p.B...)
	for _, j := range free {
		a := make([]float64, p.N)
		a[j] = 1
		r.A = append(r.A, a)
		r.B = append(r.B, 1e3)
	}
	return &r
}

// TestSeparableVariables: a problem whose variables partly appear in no
// row is solved with those variables taken out (columns.go), and its
// answer (x, the multipliers of rows and bounds, the objective) is the
// one of the same problem with inactive rows that couple them, solved
// whole, for every loss, by the default method and, for the quadratic
// losses, by a penalty method.
func TestSeparableVariables(t *testing.T) {
	for _, loss := range []string{"none", "squared", "logistic"} {
		for seed := uint64(1); seed <= 4; seed++ {
			p, free := separableCase(loss, seed)
			if got := separableVars(p, nil); len(got) != len(free) {
				t.Fatalf("%s seed %d: separable %v, want %v", loss, seed, got, free)
			}
			ref, err := Solve(context.Background(), withCouplingRows(p, free), &Options{Tol: 1e-12})
			if err != nil || ref.Status != StatusSolved {
				t.Fatalf("%s seed %d: reference %v %v", loss, seed, err, ref)
			}
			methods := []Method{MethodAuto, MethodAPG}
			if loss == "logistic" {
				// Newton (auto); APG ends at a relative gap near 2e-9
				// on these, whole or not, short of the 1e-9 compared.
				methods = methods[:1]
			}
			for _, method := range methods {
				s, err := NewSolver(p, &Options{Method: method, Tol: 1e-9})
				if err != nil {
					t.Fatal(err)
				}
				if s.sep == nil {
					t.Fatalf("%s seed %d: NewSolver kept the separable variables", loss, seed)
				}
				res, err := s.Solve(context.Background())
				if err != nil || res.Status != StatusSolved {
					t.Fatalf("%s seed %d %v: %v %v", loss, seed, method, err, res)
				}
				tol := 1e-7
				if len(res.X) != p.N || len(res.LambdaBox) != p.N {
					t.Fatalf("%s seed %d %v: len(X) %d, len(LambdaBox) %d, want %d", loss, seed, method, len(res.X), len(res.LambdaBox), p.N)
				}
				for j := range res.X {
					if math.Abs(res.X[j]-ref.X[j]) > tol || math.Abs(res.LambdaBox[j]-ref.LambdaBox[j]) > 100*tol {
						t.Errorf("%s seed %d %v: x[%d] %.17g (reference %.17g), lambda_box %.6g (%.6g)",
							loss, seed, method, j, res.X[j], ref.X[j], res.LambdaBox[j], ref.LambdaBox[j])
					}
				}
				for i := range res.Lambda {
					if math.Abs(res.Lambda[i]-ref.Lambda[i]) > 100*tol {
						t.Errorf("%s seed %d %v: lambda[%d] %.6g, reference %.6g", loss, seed, method, i, res.Lambda[i], ref.Lambda[i])
					}
				}
				if d := math.Abs(res.Objective - ref.Objective); d > 1e-9*math.Max(1, math.Abs(ref.Objective)) {
					t.Errorf("%s seed %d %v: objective %.17g, reference %.17g", loss, seed, method, res.Objective, ref.Objective)
				}
			}
		}
	}
}

// TestSeparableSetQ: on a Solver with separable variables SetQ moves both
// kind of variable, the warm re-solve gives the answer of a new Solver of
// the changed problem and allocates nothing, and Observe sees n variables.
func TestSeparableSetQ(t *testing.T) {
	p, _ := separableCase("none", 7)
	seen := 0
	opt := &Options{Tol: 1e-12, Observe: func(_ int64, x []float64) { seen = len(x) }}
	s, err := NewSolver(p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if seen != p.N {
		t.Errorf("Observe saw %d variables, want %d", seen, p.N)
	}
	q := append([]float64(nil), p.Q...)
	for j := range q {
		q[j] = -q[j] / 2
	}
	if err := s.SetQ(q); err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background())
	if err != nil || res.Status != StatusSolved {
		t.Fatalf("warm: %v %v", err, res)
	}
	p2 := *p
	p2.Q = q
	ref, err := Solve(context.Background(), &p2, &Options{Tol: 1e-12})
	if err != nil || ref.Status != StatusSolved {
		t.Fatalf("fresh: %v %v", err, ref)
	}
	if d := testqp.Dist(res.X, ref.X); d > 1e-9 {
		t.Errorf("warm answer %.3g from a fresh one", d)
	}
	if err := s.SetQ(q[:3]); err == nil || !strings.Contains(err.Error(), "q: length 3") {
		t.Errorf("short q: %v", err)
	}
	q[11] = math.NaN()
	if err := s.SetQ(q); err == nil || !strings.Contains(err.Error(), "q[11]") {
		t.Errorf("NaN in q[11]: %v", err)
	}
	if a := testing.AllocsPerRun(5, func() {
		s.Reset()
		if _, err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("re-solve: %v allocations", a)
	}
}

// TestSeparableNotConvex: a variable in no row and without curvature
// (ridge 0, no P entry) makes the objective not strongly convex, and the
// error names ridge and the variable.
func TestSeparableNotConvex(t *testing.T) {
	p := &Problem{N: 3, Loss: "squared", Phi: [][]float64{{1, 0, 1}, {1, 0, -1}, {0, 0, 1}}, Y: []float64{1, 2, 3}}
	_, err := NewSolver(p, nil)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "ridge" || !strings.Contains(err.Error(), "variable 1") {
		t.Errorf("got %v, want an InputError naming ridge and variable 1", err)
	}
	// Negative curvature that P's semidefiniteness test lets pass (-1e5
	// below the rounding of an entry of 1e20) is named with its value.
	p = &Problem{N: 2, Loss: "none", P: [][]float64{{1e20, 0}, {0, -1e5}}, Ridge: 1, Q: []float64{1, 1}}
	_, err = NewSolver(p, nil)
	if !errors.As(err, &ie) || ie.Field != "ridge" || !strings.Contains(err.Error(), "P[1][1] = -1e+05 is not positive") {
		t.Errorf("got %v, want an InputError naming ridge and the curvature -1e+05 of variable 1", err)
	}
}

// TestSeparableWideSVM: an SVM of two examples in 2^20 features, of which
// they use three (a LIBSVM file whose largest index is 2^20), is a
// problem of three variables to the solver: solved in a few steps, with
// x of length 2^20 and 0 wherever no example has a feature.
func TestSeparableWideSVM(t *testing.T) {
	const n = 1 << 20
	a, b := make([]float64, n), make([]float64, n)
	a[0], a[n-1] = 1, 2
	b[0], b[17] = -1, 1
	p := SVMProblem([]float64{1, -1}, [][]float64{a, b}, false)
	res, err := Solve(context.Background(), p, nil)
	if err != nil || res.Status != StatusSolved {
		t.Fatalf("%v %v", err, res)
	}
	if len(res.X) != n {
		t.Fatalf("len(X) %d, want %d", len(res.X), n)
	}
	for j, v := range res.X {
		if v != 0 && j != 0 && j != 17 && j != n-1 {
			t.Fatalf("x[%d] = %g, want 0", j, v)
		}
	}
	// Both margins are tight: x = (a - b)/||a - b||^2 ... solved exactly
	// by y_i a_i'x = 1.
	if m1, m2 := res.X[0]+2*res.X[n-1], res.X[0]-res.X[17]; math.Abs(m1-1) > 1e-12 || math.Abs(m2-1) > 1e-12 {
		t.Errorf("margins %.17g and %.17g, want 1", m1, m2)
	}
	if res.Method != MethodActiveSet {
		t.Errorf("method %v, want the active-set method on the three coupled variables", res.Method)
	}
}
