package softpen

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func validQP() *Problem {
	return &Problem{N: 2, Loss: "squared", Phi: [][]float64{{1, 0}, {0, 1}}, Y: []float64{1, 2},
		Ridge: 0.1, A: [][]float64{{1, 1}}, B: []float64{1}}
}

// TestValidateNamesFieldAndIndex: each bad input has its own error, naming
// the field and index; nothing panics.
func TestValidateNamesFieldAndIndex(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		edit func(p *Problem)
		want string
	}{
		{"n zero", func(p *Problem) { p.N = 0 }, "n: 0, want >= 1"},
		{"unknown loss", func(p *Problem) { p.Loss = "hinge" }, `loss: "hinge"`},
		{"NaN in A", func(p *Problem) { p.A[0][1] = nan }, "A[0][1]: NaN is not finite"},
		{"Inf in phi", func(p *Problem) { p.Phi[1][0] = inf }, "phi[1][0]: +Inf is not finite"},
		{"NaN in b", func(p *Problem) { p.B[0] = nan }, "b[0]: NaN is not finite"},
		{"short b", func(p *Problem) { p.B = nil }, "b: length 0, want 1 (rows of A)"},
		{"short row of A", func(p *Problem) { p.A[0] = []float64{1} }, "A[0]: length 1, want n = 2"},
		{"short y", func(p *Problem) { p.Y = p.Y[:1] }, "y: length 1, want 2 (rows of phi)"},
		{"negative ridge", func(p *Problem) { p.Ridge = -0.1 }, "ridge: -0.1 < 0"},
		{"negative l1", func(p *Problem) { p.L1 = -1 }, "l1: -1 < 0"},
		{"lower > upper", func(p *Problem) { p.Lower = Bounds{0, 3}; p.Upper = Bounds{1, 1} }, "lower[1]: 3 > upper[1] = 1"},
		{"short lower", func(p *Problem) { p.Lower = Bounds{0} }, "lower: length 1, want n = 2"},
		{"logistic label", func(p *Problem) { p.Loss = "logistic" }, "y[1]: 2: logistic loss needs labels -1 or +1"},
		{"asymmetric P", func(p *Problem) { p.P = [][]float64{{1, 2}, {0, 1}} }, "P[1][0]"},
		{"beq length", func(p *Problem) { p.Aeq = [][]float64{{1, 0}} }, "beq: length 0, want 1 (rows of Aeq)"},
		{"NaN in q", func(p *Problem) { p.Q = []float64{0, nan} }, "q[1]: NaN is not finite"},
		{"not strongly convex", func(p *Problem) { p.Loss = "none"; p.Phi, p.Y = nil, nil; p.Ridge = 0 }, "not strongly convex"},
		{"NaN ridge", func(p *Problem) { p.Ridge = nan }, "ridge: NaN is not finite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := validQP()
			c.edit(p)
			err := p.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Errorf("error %T is not an *InputError", err)
			}
			if _, err := Solve(context.Background(), p, nil); err == nil {
				t.Error("Solve accepted the problem")
			}
		})
	}
	if err := validQP().Validate(); err != nil {
		t.Errorf("valid problem rejected: %v", err)
	}
}

// TestReadProblemErrors: malformed JSON says where; unknown fields and
// trailing data are errors; null and huge bounds mean no bound.
func TestReadProblemErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty input"},
		{`{"n": 2, "loss": "none",`, "unexpected end"},
		{"{\"n\": 2,\n \"loss\": none}", "line 2, column"},
		{`{"n": 2, "loss": "none", "colour": 1}`, `unknown field "colour"`},
		{`{"n": 2, "loss": "none"} {}`, "data after the problem"},
		{`{"n": "two", "loss": "none"}`, "n: want int"},
		{`{"n": 2, "loss": "none", "b": [1e400]}`, "line 1"},
	}
	for _, c := range cases {
		_, err := ReadProblem(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want one containing %q", c.in, err, c.want)
		}
	}
	p, err := ReadProblem(strings.NewReader(`{"n": 3, "loss": "none", "ridge": 1, "lower": [null, -1e30, 0], "upper": [1, null, 1e20]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(p.Lower[0], -1) || !math.IsInf(p.Lower[1], -1) || p.Lower[2] != 0 ||
		p.Upper[0] != 1 || !math.IsInf(p.Upper[1], 1) || !math.IsInf(p.Upper[2], 1) {
		t.Errorf("bounds %v %v", p.Lower, p.Upper)
	}
}

// TestSolveAndResultRoundTrip: the reference QP solved through the public
// face, written and read back.
func TestSolveAndResultRoundTrip(t *testing.T) {
	p := &Problem{N: 2, Loss: "none", Ridge: 1, Q: []float64{-1, -1}, A: [][]float64{{1, 1}}, B: []float64{1}}
	res, err := Solve(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// x* = (0.5, 0.5), lambda* = 0.5.
	if res.Status != StatusSolved || math.Abs(res.X[0]-0.5) > 1e-9 || math.Abs(res.Lambda[0]-0.5) > 1e-9 {
		t.Fatalf("status %v x %v lambda %v", res.Status, res.X, res.Lambda)
	}
	var sb strings.Builder
	if err := WriteResult(&sb, res); err != nil {
		t.Fatal(err)
	}
	back, err := ReadResult(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Status != res.Status || back.X[1] != res.X[1] || back.Gap != res.Gap || back.Steps != res.Steps {
		t.Errorf("round trip: %+v vs %+v", back, res)
	}
}

// TestWarmResolveNoAllocs: a Solver re-solving after SetB allocates nothing.
func TestWarmResolveNoAllocs(t *testing.T) {
	p := &Problem{N: 2, Loss: "none", Ridge: 1, Q: []float64{-1, -1}, A: [][]float64{{1, 1}, {1, -1}}, B: []float64{1, 0.2}}
	s, err := NewSolver(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b := []float64{1, 0.2}
	s.Solve(ctx)
	allocs := testing.AllocsPerRun(20, func() {
		b[0] = 0.9 + 0.1*b[0]
		if err := s.SetB(b); err != nil {
			t.Fatal(err)
		}
		if res, _ := s.Solve(ctx); res.Status != StatusSolved {
			t.Fatalf("status %v", res.Status)
		}
	})
	if allocs != 0 {
		t.Errorf("warm re-solve allocates %v times", allocs)
	}
}
