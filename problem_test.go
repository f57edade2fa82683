package softpen

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/solver"
	"github.com/softpen/softpen/internal/testqp"
)

func validQP() *Problem {
	return &Problem{N: 2, Loss: "squared", Phi: [][]float64{{1, 0}, {0, 1}}, Y: []float64{1, 2},
		Ridge: 0.1, A: [][]float64{{1, 1}}, B: []float64{1}}
}

// TestValidateNamesFieldAndIndex: every kind of bad input has its own
// error, which names the field and the index in its text and in the
// *InputError; Solve and NewSolver return that same error, on the direct
// path and the penalty method's (they leave the entries of A to
// solver.New, which reads the rows anyway, and word its errors by
// Validate). The cases cover every data check of solver.New too (rows of A
// and Aeq whose norm overflows among them).
func TestValidateNamesFieldAndIndex(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	const why = " (the solver divides each row and its right-hand side by the row's norm)"
	cases := []struct {
		name  string
		edit  func(p *Problem)
		want  string // the whole message
		field string
		index []int
	}{
		{"n zero", func(p *Problem) { p.N = 0 }, "n: must be >= 1, got 0", "n", nil},
		{"n negative", func(p *Problem) { p.N = -3 }, "n: must be >= 1, got -3", "n", nil},
		{"n huge", func(p *Problem) { p.N = 1 << 30 }, "n: 1073741824 is too large (at most 67108864)", "n", nil},
		{"unknown loss", func(p *Problem) { p.Loss = "hinge" }, `loss: "hinge": want squared, logistic or none`, "loss", nil},
		{"loss without rows", func(p *Problem) { p.Phi, p.Y = nil, nil }, `phi: loss "squared" needs at least one row`, "phi", nil},
		{"phi with loss none", func(p *Problem) { p.Loss = "none" }, `phi: given, but loss is "none"`, "phi", nil},
		{"y with loss none", func(p *Problem) { p.Loss, p.Phi = "none", nil }, `y: given, but loss is "none"`, "y", nil},
		{"NaN in A", func(p *Problem) { p.A[0][1] = nan }, "A[0][1]: NaN", "A", []int{0, 1}},
		{"Inf in phi", func(p *Problem) { p.Phi[1][0] = inf }, "phi[1][0]: +Inf", "phi", []int{1, 0}},
		{"-Inf in y", func(p *Problem) { p.Y[1] = -inf }, "y[1]: -Inf", "y", []int{1}},
		{"NaN in b", func(p *Problem) { p.B[0] = nan }, "b[0]: NaN", "b", []int{0}},
		{"short b", func(p *Problem) { p.B = nil }, "b: length 0, want 1 (rows of A)", "b", nil},
		{"b without A", func(p *Problem) { p.A = nil }, "b: length 1, want 0 (rows of A)", "b", nil},
		{"short row of A", func(p *Problem) { p.A[0] = []float64{1} }, "A[0]: length 1, want n = 2", "A", []int{0}},
		{"long row of phi", func(p *Problem) { p.Phi[1] = []float64{1, 2, 3} }, "phi[1]: length 3, want n = 2", "phi", []int{1}},
		{"nil row of A", func(p *Problem) { p.A[0] = nil }, "A[0]: length 0, want n = 2", "A", []int{0}},
		{"short y", func(p *Problem) { p.Y = p.Y[:1] }, "y: length 1, want 2 (rows of phi)", "y", nil},
		{"negative ridge", func(p *Problem) { p.Ridge = -0.1 }, "ridge: -0.1 < 0", "ridge", nil},
		{"NaN ridge", func(p *Problem) { p.Ridge = nan }, "ridge: NaN", "ridge", nil},
		{"negative l1", func(p *Problem) { p.L1 = -1 }, "l1: -1 < 0", "l1", nil},
		{"Inf offset", func(p *Problem) { p.Offset = inf }, "offset: +Inf", "offset", nil},
		{"lower > upper", func(p *Problem) { p.Lower = []float64{0, 3}; p.Upper = []float64{1, 1} }, "lower[1]: 3 > upper[1] = 1", "lower", []int{1}},
		{"short lower", func(p *Problem) { p.Lower = []float64{0} }, "lower: length 1, want n = 2", "lower", nil},
		{"long upper", func(p *Problem) { p.Upper = []float64{0, 1, 2} }, "upper: length 3, want n = 2", "upper", nil},
		{"NaN lower", func(p *Problem) { p.Lower = []float64{0, nan} }, "lower[1]: NaN: want a number < +Inf (-Inf for no bound)", "lower", []int{1}},
		{"+Inf lower", func(p *Problem) { p.Lower = []float64{inf, 0} }, "lower[0]: +Inf: want a number < +Inf (-Inf for no bound)", "lower", []int{0}},
		{"-Inf upper", func(p *Problem) { p.Upper = []float64{-inf, 0} }, "upper[0]: -Inf: want a number > -Inf (+Inf for no bound)", "upper", []int{0}},
		{"logistic label", func(p *Problem) { p.Loss = "logistic"; p.Y[1] = 0.5 }, "y[1] = 0.5: logistic loss needs labels -1 or +1", "y", []int{1}},
		{"asymmetric P", func(p *Problem) { p.P = [][]float64{{1, 2}, {0, 1}} }, "P[0][1]: not symmetric: 2 != P[1][0] = 0", "P", []int{0, 1}},
		{"P rows", func(p *Problem) { p.P = [][]float64{{1, 0}} }, "P: 1 rows, want n = 2", "P", nil},
		{"P ragged", func(p *Problem) { p.P = [][]float64{{1, 0}, {0}} }, "P[1]: length 1, want n = 2", "P", []int{1}},
		{"NaN in P", func(p *Problem) { p.P = [][]float64{{1, nan}, {nan, 1}} }, "P[0][1]: NaN", "P", []int{0, 1}},
		{"q length", func(p *Problem) { p.Q = []float64{1} }, "q: length 1, want n = 2", "q", nil},
		{"NaN in q", func(p *Problem) { p.Q = []float64{0, nan} }, "q[1]: NaN", "q", []int{1}},
		{"beq length", func(p *Problem) { p.Aeq = [][]float64{{1, 0}} }, "beq: length 0, want 1 (rows of Aeq)", "beq", nil},
		{"Aeq row", func(p *Problem) { p.Aeq, p.Beq = [][]float64{{1}}, []float64{0} }, "Aeq[0]: length 1, want n = 2", "Aeq", []int{0}},
		{"Inf in beq", func(p *Problem) { p.Aeq, p.Beq = [][]float64{{1, 0}}, []float64{-inf} }, "beq[0]: -Inf", "beq", []int{0}},
		{"Inf l1", func(p *Problem) { p.L1 = inf }, "l1: +Inf", "l1", nil},
		{"NaN offset", func(p *Problem) { p.Offset = nan }, "offset: NaN", "offset", nil},
		{"NaN upper", func(p *Problem) { p.Upper = []float64{nan, 0} }, "upper[0]: NaN: want a number > -Inf (+Inf for no bound)", "upper", []int{0}},
		{"Inf in y under the logistic loss", func(p *Problem) { p.Loss = "logistic"; p.Y[0] = inf }, "y[0]: +Inf", "y", []int{0}},
		{"NaN in Aeq", func(p *Problem) { p.Aeq, p.Beq = [][]float64{{1, nan}}, []float64{0} }, "Aeq[0][1]: NaN", "Aeq", []int{0, 1}},
		{"row of A whose norm overflows", func(p *Problem) { p.A[0] = []float64{1.5e308, 1.5e308} },
			"A[0]: the row's norm overflows float64" + why, "A", []int{0}},
		{"row of Aeq whose norm overflows", func(p *Problem) { p.Aeq, p.Beq = [][]float64{{-1.5e308, 1.5e308}}, []float64{0} },
			"Aeq[0]: the row's norm overflows float64" + why, "Aeq", []int{0}},
		{"row of A too small to normalise", func(p *Problem) { p.A[0], p.B[0] = []float64{1e-310, 0}, 0 },
			"A[0]: norm 1e-310 is too small: 1/norm overflows float64" + why, "A", []int{0}},
		{"row of Aeq too small to normalise", func(p *Problem) { p.Aeq, p.Beq = [][]float64{{0, -3e-310}}, []float64{0} },
			"Aeq[0]: norm 3e-310 is too small: 1/norm overflows float64" + why, "Aeq", []int{0}},
		{"b too large for its row's norm", func(p *Problem) { p.A[0], p.B[0] = []float64{1e-300, 0}, 1e10 },
			"A[0]: norm 1e-300 is too small for b[0] = 1e+10: the quotient overflows float64" + why, "A", []int{0}},
		{"P asymmetric beyond 1e-10 of its largest entry", func(p *Problem) { p.P = [][]float64{{100, 1}, {1 + 2e-8, 100}} },
			"P[0][1]: not symmetric: 1 != P[1][0] = 1.00000002", "P", []int{0, 1}},
		{"tiny P asymmetric at its own scale", func(p *Problem) { p.P = [][]float64{{1e-20, 2e-20}, {0, 1e-20}} },
			"P[0][1]: not symmetric: 2e-20 != P[1][0] = 0", "P", []int{0, 1}},
		{"Inf in P", func(p *Problem) { p.P = [][]float64{{1, 0}, {0, -inf}} }, "P[1][1]: -Inf", "P", []int{1, 1}},
		{"not strongly convex", func(p *Problem) { p.Loss, p.Phi, p.Y, p.Ridge = "none", nil, nil, 0 },
			"ridge: not strongly convex: ridge = 0 and no quadratic term (P or squared loss)", "ridge", nil},
		{"logistic alone is not strongly convex", func(p *Problem) { p.Loss, p.Y, p.Ridge = "logistic", []float64{1, -1}, 0 },
			"ridge: not strongly convex: ridge = 0 and no quadratic term (P or squared loss)", "ridge", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := validQP()
			c.edit(p)
			err := p.Validate()
			if err == nil || err.Error() != c.want {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T is not an *InputError", err)
			}
			if ie.Field != c.field || !reflect.DeepEqual(ie.Index, c.index) {
				t.Errorf("field %q index %v, want %q %v", ie.Field, ie.Index, c.field, c.index)
			}
			if c.name == "n huge" {
				return // NewSolver would only repeat Validate; skip the allocation risk
			}
			// Both ways into the solver stop with Validate's error, on
			// both paths.
			for _, opt := range []*Options{nil, {Method: MethodAPG}} {
				if _, err := Solve(context.Background(), p, opt); !errors.As(err, &ie) || err.Error() != c.want {
					t.Errorf("Solve (%+v): %v, want Validate's error", opt, err)
				}
			}
			if _, err := NewSolver(p, nil); !errors.As(err, &ie) || err.Error() != c.want {
				t.Errorf("NewSolver: %v, want Validate's error", err)
			}
		})
	}
}

// TestBadRowOfLargeA: on many rows (the direct path then also builds
// sampled levels), a bad entry, a norm that overflows or a right-hand side
// too large for its row, in the last row, the first or one the samples
// take, is Validate's error from Solve and NewSolver, by every method.
func TestBadRowOfLargeA(t *testing.T) {
	const m = 30000
	for _, c := range []struct {
		name string
		row  int
		edit func(p *Problem, j int)
		want string
	}{
		{"NaN, last row", m - 1, func(p *Problem, j int) { p.A[j][1] = math.NaN() }, "A[29999][1]: NaN"},
		{"Inf, first row", 0, func(p *Problem, j int) { p.A[j][0] = math.Inf(-1) }, "A[0][0]: -Inf"},
		{"overflow, sampled row", 20 * 7, func(p *Problem, j int) { p.A[j] = []float64{1.5e308, -1.5e308} },
			"A[140]: the row's norm overflows float64 (the solver divides each row and its right-hand side by the row's norm)"},
		{"b over a tiny row", 12345, func(p *Problem, j int) { p.A[j], p.B[j] = []float64{0, 1e-300}, -1e10 },
			"A[12345]: norm 1e-300 is too small for b[12345] = -1e+10: the quotient overflows float64 (the solver divides each row and its right-hand side by the row's norm)"},
	} {
		p := validQP()
		p.A, p.B = make([][]float64, m), make([]float64, m)
		for j := range p.A {
			p.A[j] = []float64{math.Cos(float64(j)), math.Sin(float64(j))}
			p.B[j] = 1
		}
		c.edit(p, c.row)
		if err := p.Validate(); err == nil || err.Error() != c.want {
			t.Fatalf("%s: Validate: %v, want %q", c.name, err, c.want)
		}
		for _, opt := range []*Options{nil, {Method: MethodActiveSet}, {Method: MethodAPG}} {
			if _, err := Solve(context.Background(), p, opt); err == nil || err.Error() != c.want {
				t.Errorf("%s: Solve (%+v): %v", c.name, opt, err)
			}
		}
		if _, err := NewSolver(p, nil); err == nil || err.Error() != c.want {
			t.Errorf("%s: NewSolver: %v", c.name, err)
		}
	}
}

// TestValidateAccepts: valid problems of every shape pass, including the
// ones the format makes optional (no constraints, zero rows of A, a missing
// bound written as ∓Inf or as a magnitude >= 1e20, a P symmetric up to
// rounding, an empty Loss meaning "none").
func TestValidateAccepts(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name string
		p    *Problem
	}{
		{"qp", validQP()},
		{"ridge only", &Problem{N: 3, Loss: "none", Ridge: 1}},
		{"empty loss", &Problem{N: 1, Ridge: 1}},
		{"zero row of A", &Problem{N: 2, Loss: "none", Ridge: 1, A: [][]float64{{0, 0}}, B: []float64{-1}}},
		{"empty A and b", &Problem{N: 2, Loss: "none", Ridge: 1, A: [][]float64{}, B: []float64{}}},
		{"bounds", &Problem{N: 3, Loss: "none", Ridge: 1, Lower: []float64{-inf, 0, -1e20}, Upper: []float64{1, inf, 1e30}}},
		{"huge lower means none", &Problem{N: 1, Loss: "none", Ridge: 1, Lower: []float64{1e25}, Upper: []float64{0}}},
		{"fixed variable", &Problem{N: 1, Loss: "none", Ridge: 1, Lower: []float64{2}, Upper: []float64{2}}},
		{"P only, rounding asymmetry", &Problem{N: 2, Loss: "none", P: [][]float64{{2, 0.1}, {0.1 + 1e-17, 3}}}},
		{"P rounding asymmetry against a zero entry", &Problem{N: 2, Loss: "none", P: [][]float64{{2, 1e-17}, {0, 3}}}},
		{"P asymmetric within 1e-10 of its largest entry", &Problem{N: 2, Loss: "none", P: [][]float64{{100, 1}, {1 + 5e-9, 100}}}},
		{"row of A whose squares overflow but norm does not", &Problem{N: 2, Loss: "none", Ridge: 1, A: [][]float64{{1e200, -1e200}}, B: []float64{1}}},
		{"tiny row of A with a b it can carry", &Problem{N: 2, Loss: "none", Ridge: 1, A: [][]float64{{1e-300, 0}}, B: []float64{1}}},
		{"huge b on a unit row of A", &Problem{N: 2, Loss: "none", Ridge: 1, A: [][]float64{{0.6, -0.8}}, B: []float64{-1e308}}},
		{"squared loss, no ridge", &Problem{N: 1, Loss: "squared", Phi: [][]float64{{1}}, Y: []float64{3}}},
		{"logistic with ridge", &Problem{N: 1, Loss: "logistic", Phi: [][]float64{{1}}, Y: []float64{-1}, Ridge: 1e-3}},
		{"equalities", &Problem{N: 2, Loss: "none", Ridge: 1, Aeq: [][]float64{{1, 1}}, Beq: []float64{1}, L1: 0.5, Offset: -3}},
	}
	for _, c := range cases {
		if err := c.p.Validate(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	var nilp *Problem
	if err := nilp.Validate(); err == nil || err.Error() != "problem: nil" {
		t.Errorf("nil problem: %v", err)
	}
}

// readQP is the paper's QP s<seed> (testqp.Paper) and its reference.
func readQP(t testing.TB, seed int) (*Problem, *testqp.Solution) {
	t.Helper()
	q, ref, err := testqp.Paper(filepath.Join("testdata", "qp"), seed)
	if err != nil {
		t.Fatal(err)
	}
	return fromTestQP(q), ref
}

// fromTestQP is q in the root's form.
func fromTestQP(q *testqp.Problem) *Problem {
	return &Problem{Name: q.Name, N: q.N, Loss: q.Loss, Phi: q.Phi, Y: q.Y, Ridge: q.Ridge, A: q.A, B: q.B}
}

// TestInternal: the solver's form copies the matrices but A and Phi, whose
// rows it passes on for solver.New to copy (later changes to the Problem
// reach neither the copies nor a Solver), keeps empty fields nil, symmetrises P, maps
// bounds of magnitude >= 1e20 to ∓Inf and the loss names to solver.Loss.
func TestInternal(t *testing.T) {
	inf := math.Inf(1)
	p := &Problem{N: 2, Loss: "logistic", Phi: [][]float64{{1, 2}}, Y: []float64{1}, Ridge: 1,
		Lower: []float64{-1e20, 1e25}, Upper: []float64{1e21, 5},
		P: [][]float64{{1, 0.5}, {0.5 + 1e-16, 1}}, A: [][]float64{{3, 4}, {0, 0}}, B: []float64{1, 2}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	ip, err := p.internal()
	if err != nil {
		t.Fatal(err)
	}
	if ip.Loss != solver.LossLogistic || ip.N != 2 || ip.Phi != nil || len(ip.PhiRows) != 1 || len(ip.ARows) != 2 || ip.A != nil || ip.Aeq != nil || ip.Q != nil {
		t.Fatalf("shape: %+v", ip)
	}
	if ip.P.Data[1] != ip.P.Data[2] {
		t.Errorf("P not symmetrised: %v", ip.P.Data)
	}
	if !reflect.DeepEqual(ip.Lower, []float64{-inf, -inf}) || !reflect.DeepEqual(ip.Upper, []float64{inf, 5}) {
		t.Errorf("bounds %v %v", ip.Lower, ip.Upper)
	}
	s, err := NewSolver(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := s.Solve(context.Background())
	x0 := slices.Clone(res.X)
	p.A[0][0], p.Phi[0][1] = 99, 99
	s.Reset()
	if res, _ := s.Solve(context.Background()); !slices.Equal(res.X, x0) {
		t.Errorf("changing the Problem after NewSolver changed the answer: %v, was %v", res.X, x0)
	}
	for loss, want := range map[string]solver.Loss{"squared": solver.LossSquared, "none": solver.LossNone, "": solver.LossNone} {
		q := &Problem{N: 1, Loss: loss, Ridge: 1}
		if loss == "squared" {
			q.Phi, q.Y = [][]float64{{1}}, []float64{0}
		}
		if ip, _ := q.internal(); ip.Loss != want || ip.Lower != nil || ip.P != nil || ip.A != nil || len(ip.ARows) != 0 || ip.B != nil {
			t.Errorf("loss %q: %+v", loss, ip)
		}
	}
}

// TestNoPanicOnBadShapes: Validate, and internal after a successful
// Validate, never panic, whatever the lengths and values (a table of
// adversarial shapes; the fuzz target FuzzReadProblem covers the rest).
func TestNoPanicOnBadShapes(t *testing.T) {
	nan := math.NaN()
	shapes := []*Problem{
		{},
		{N: 1},
		{N: 2, Loss: "squared", Phi: [][]float64{nil, {1}}, Y: []float64{1}},
		{N: 2, Loss: "squared", Phi: [][]float64{{1, 2}}},
		{N: 2, Ridge: 1, P: [][]float64{{1}, {1, 2, 3}}},
		{N: 2, Ridge: 1, P: [][]float64{nil, nil}},
		{N: 2, Ridge: 1, Lower: []float64{nan}, Upper: []float64{}},
		{N: 2, Ridge: 1, Lower: []float64{}, Upper: []float64{nan, nan, nan}},
		{N: 2, Ridge: 1, A: [][]float64{{1, 2}, nil}, B: []float64{1}},
		{N: 2, Ridge: 1, A: [][]float64{{1, 2}}, B: []float64{1, 2, 3}},
		{N: 2, Ridge: 1, Aeq: [][]float64{{nan, nan}}, Beq: []float64{nan}},
		{N: 2, Ridge: 1, Q: []float64{}},
		{N: math.MaxInt, Ridge: 1},
		{N: math.MinInt, Ridge: 1},
	}
	for i, p := range shapes {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("shape %d: panic %v", i, r)
				}
			}()
			if p.Validate() == nil {
				p.internal()
			}
		}()
	}
}

// TestValidateSemidefinite: P must be positive semidefinite for every loss,
// checked before solving with an *InputError naming P: an indefinite P
// with the logistic loss, and one that ridge I makes positive definite
// (the solver took mu = ridge for both, 100 times the truth in the
// second), and indefinite P with ridge 0, are refused; positive
// semidefinite P of every rank are
// accepted; a singular quadratic part with ridge 0 is refused naming ridge.
func TestValidateSemidefinite(t *testing.T) {
	refuse := map[string]*Problem{
		"logistic, P = -2": {N: 1, Loss: "logistic", Phi: [][]float64{{1}, {1}}, Y: []float64{1, -1}, Ridge: 1,
			P: [][]float64{{-2}}, A: [][]float64{{1}, {-1}}, B: []float64{1, 1}},
		"P = -0.99, ridge 1": {N: 1, Loss: "none", Ridge: 1, P: [][]float64{{-0.99}}, Q: []float64{-1},
			Upper: []float64{1000}, A: [][]float64{{1}}, B: []float64{500}},
		"eigenvalue -1e-9": {N: 2, Loss: "none", Ridge: 1, P: [][]float64{{1, 1}, {1, 1 - 4e-9}}},
		// Ridge 0 and no loss: the solver's own factorisation of P is the
		// check (newSolver leaves it out of validation), with the same
		// error; with every column separable (a diagonal P) the check is
		// newSolver's, as the solver then factors only part of P.
		"ridge 0, eigenvalue -1e-9": {N: 2, Loss: "none", P: [][]float64{{1, 1}, {1, 1 - 4e-9}},
			A: [][]float64{{1, 1}}, B: []float64{1}},
		"ridge 0, P = diag(1, -1), coupled": {N: 2, Loss: "none", P: [][]float64{{1, 0}, {0, -1}},
			A: [][]float64{{1, 1}}, B: []float64{1}},
		"ridge 0, P = diag(1, -1), separable": {N: 2, Loss: "none", P: [][]float64{{1, 0}, {0, -1}}},
	}
	for name, p := range refuse {
		var ie *InputError
		if err := p.Validate(); !errors.As(err, &ie) || ie.Field != "P" || !strings.Contains(ie.Msg, "semidefinite") || !strings.Contains(ie.Msg, "on its own") {
			t.Errorf("%s: Validate %v", name, err)
		}
		if _, err := Solve(context.Background(), p, nil); !errors.As(err, &ie) || ie.Field != "P" {
			t.Errorf("%s: Solve %v", name, err)
		}
	}
	g := testqp.LCG(2)
	norm := g.Normal
	for _, rank := range []int{0, 1, 7, 40} {
		n := 40
		b := make([][]float64, n)
		for i := range b {
			b[i] = make([]float64, rank)
			for k := range b[i] {
				b[i][k] = norm() * math.Pow(10, float64(k%5-2))
			}
		}
		p := &Problem{N: n, Loss: "none", Ridge: 1, P: make([][]float64, n)}
		for i := range p.P {
			p.P[i] = make([]float64, n)
			for j := range p.P[i] {
				for k := 0; k < rank; k++ {
					p.P[i][j] += b[i][k] * b[j][k]
				}
			}
		}
		if err := p.Validate(); err != nil {
			t.Errorf("rank %d: %v", rank, err)
		}
	}
	var ie *InputError
	singular := &Problem{N: 2, Loss: "none", P: [][]float64{{1, 1}, {1, 1}}, Q: []float64{-1, 0}}
	if _, err := Solve(context.Background(), singular, nil); !errors.As(err, &ie) || ie.Field != "ridge" {
		t.Errorf("singular P, ridge 0: %v", err)
	}
}

// TestDistBoundWithSemidefiniteP: with a positive semidefinite P the
// strong convexity the certificate uses is proven (ridge less P's
// rounding), and the distance bound holds on the penalty path without
// polish: x* = 100 (unconstrained: the row x <= 500 is inactive).
func TestDistBoundWithSemidefiniteP(t *testing.T) {
	p := &Problem{N: 1, Loss: "none", Ridge: 0.01, P: [][]float64{{0}}, Q: []float64{-1},
		Upper: []float64{1000}, A: [][]float64{{1}}, B: []float64{500}}
	res, err := Solve(context.Background(), p, &Options{Method: MethodAPG, Tol: 1e-3, Penalty: &PenaltyOptions{NoPolish: true}})
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(res.X[0] - 100); d > res.DistBound {
		t.Errorf("|x - x*| = %.3g above the bound %.3g (%v)", d, res.DistBound, res.Status)
	}
}
