package softpen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/solver"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/libsvm"
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
		{"n huge", func(p *Problem) { p.N = 1 << 40 }, "n: 1099511627776 is too large (at most 67108864)", "n", nil},
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

// TestReadProblemErrors: malformed documents say where (line and column of
// the offending byte), unknown and repeated keys are named, numbers out of
// range and non-numbers in numeric arrays name the field and index.
func TestReadProblemErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty input: want a JSON problem object"},
		{" \n\t", "empty input: want a JSON problem object"},
		{`{"n": 2, "loss": "none",`, "line 1, column 25: malformed JSON: unexpected end of JSON input"},
		{"{\"n\": 2,\n \"loss\": none}", "line 2, column 11: malformed JSON: invalid character 'o' in literal null (expecting 'u')"},
		{"{\"n\": 2,\n \"loss\": }", "line 2, column 10: malformed JSON: invalid character '}' looking for beginning of value"},
		{`{"n": 2, "loss": "none"} {}`, "line 1, column 26: data after the problem object"},
		{`  [1]`, "line 1, column 3: want a JSON object, got an array"},
		{`"n"`, "line 1, column 1: want a JSON object, got a string"},
		{`{"n": 2, "loss": "none", "colour": 1}`, `line 1, column 26: unknown field "colour" (want one of ` + problemFields + ")"},
		{`{"n": 2, "loss": "none", "a": [[1, 1]]}`, `line 1, column 26: unknown field "a"`},
		{`{"n": 2, "loss": "none", "n": 3}`, `line 1, column 26: field "n" given twice`},
		{`{"n": "two", "loss": "none"}`, "line 1, column 7: n: want a number, got a string"},
		{`{"n": 2.5, "loss": "none"}`, "line 1, column 7: n: 2.5: want an integer"},
		{`{"n": 1e300, "loss": "none"}`, "line 1, column 7: n: 1e300: want an integer"},
		{`{"loss": "none"}`, "n: missing: the number of variables is required"},
		{`{"n": 2}`, `loss: missing: want "squared", "logistic" or "none"`},
		{`{"n": 2, "loss": null}`, `loss: missing`},
		{`{"n": 2, "loss": ""}`, `line 1, column 18: loss: "": want squared, logistic or none`},
		{`{"n": 2, "loss": 3}`, `line 1, column 18: loss: want a string, got a number`},
		{`{"n": 2, "loss": "none", "b": [1e400]}`, "line 1, column 32: b[0]: 1e400 is out of range for float64"},
		{`{"n": 2, "loss": "none", "ridge": -1e309}`, "line 1, column 35: ridge: -1e309 is out of range for float64"},
		{`{"n": 2, "loss": "none", "ridge": [1]}`, "line 1, column 35: ridge: want a number, got an array"},
		{"{\"n\": 2, \"loss\": \"none\",\n \"A\": [[1, 2],\n       [3, true]]}", "line 3, column 12: A[1][1]: want a number, got a boolean"},
		{`{"n": 2, "loss": "none", "A": [[1, null]]}`, "line 1, column 36: A[0][1]: want a number, got null"},
		{`{"n": 2, "loss": "none", "A": [1, 2]}`, "line 1, column 32: A[0]: want an array of numbers, got a number"},
		{`{"n": 2, "loss": "none", "A": [[[1]]]}`, "line 1, column 33: A[0][0]: want a number, got an array"},
		{`{"n": 2, "loss": "none", "A": {"0": 1}}`, "line 1, column 31: A: want an array of rows, got an object"},
		{`{"n": 2, "loss": "none", "b": [1, "2"]}`, `line 1, column 35: b[1]: want a number, got a string`},
		{`{"n": 2, "loss": "none", "y": [null]}`, `line 1, column 32: y[0]: want a number, got null`},
		{`{"n": 2, "loss": "none", "lower": [0, true]}`, `line 1, column 39: lower[1]: want a number, got a boolean`},
		{`{"n": 2, "loss": "none", "name": 7}`, `line 1, column 34: name: want a string, got a number`},
	}
	for _, c := range cases {
		p, err := ReadProblem(strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want %s", c.in, err, c.want)
			continue
		}
		if p != nil {
			t.Errorf("%q: a problem came back with the error", c.in)
		}
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%q: error %T is not an *InputError", c.in, err)
		}
	}
}

// TestReadProblemFields: every field of the format lands where it should;
// null and magnitudes >= 1e20 are missing bounds; a null field is an absent
// one; an empty array is kept (so that its length is checked).
func TestReadProblemFields(t *testing.T) {
	in := `{"name": "t\u00e9st", "n": 3, "loss": "squared",
	 "phi": [[1, 0, 0], [0, 1, 0]], "y": [1, -2.5], "ridge": 0.25, "l1": 1e-3,
	 "lower": [null, -1e30, 0], "upper": [1, null, 1e20],
	 "P": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "q": [1, 2, 3], "offset": -7,
	 "A": [[1, 1, 1]], "b": [1], "Aeq": [], "beq": [], "name2": null}`
	if _, err := ReadProblem(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), `unknown field "name2"`) {
		t.Errorf("unknown null field: %v", err)
	}
	in = strings.Replace(in, `, "name2": null`, `, "l1": null`, 1)
	if _, err := ReadProblem(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), `field "l1" given twice`) {
		t.Errorf("repeated field: %v", err)
	}
	in = strings.Replace(in, `, "l1": null`, ``, 1)
	p, err := ReadProblem(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	want := &Problem{Name: "tést", N: 3, Loss: "squared",
		Phi: [][]float64{{1, 0, 0}, {0, 1, 0}}, Y: []float64{1, -2.5}, Ridge: 0.25, L1: 1e-3,
		Lower: []float64{-inf, -inf, 0}, Upper: []float64{1, inf, inf},
		P: [][]float64{{2, 0, 0}, {0, 2, 0}, {0, 0, 2}}, Q: []float64{1, 2, 3}, Offset: -7,
		A: [][]float64{{1, 1, 1}}, B: []float64{1}, Aeq: [][]float64{}, Beq: []float64{}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got  %+v\nwant %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	p, err = ReadProblem(strings.NewReader(`{"n": 1, "loss": "none", "ridge": 1, "A": null, "lower": null, "name": null}`))
	if err != nil || p.A != nil || p.Lower != nil || p.Name != "" {
		t.Errorf("null fields: %+v, %v", p, err)
	}
	p, err = ReadProblem(strings.NewReader(`{"n": 1, "loss": "none", "lower": []}`))
	if err != nil || p.Lower == nil || p.Validate() == nil {
		t.Errorf("empty lower must be kept and rejected by Validate: %+v, %v", p, err)
	}
}

// TestProblemJSONRoundTrip: WriteProblem then ReadProblem gives the same
// problem, bit for bit, for the paper's QPs and for one with bounds, and
// encoding/json goes through the same strict code.
func TestProblemJSONRoundTrip(t *testing.T) {
	inf := math.Inf(1)
	probs := []*Problem{{Name: "bounds", N: 3, Loss: "logistic", Phi: [][]float64{{0.1, 1e-300, -5e300}},
		Y: []float64{-1}, Ridge: 1.0 / 3, Lower: []float64{-inf, 0, -2}, Upper: []float64{inf, math.SmallestNonzeroFloat64, 1e19},
		Aeq: [][]float64{{1, 2, 3}}, Beq: []float64{0.7}}}
	for s := 1; s <= 5; s++ {
		p, _ := readQP(t, s)
		probs = append(probs, p)
	}
	for _, p := range probs {
		var buf bytes.Buffer
		if err := WriteProblem(&buf, p); err != nil {
			t.Fatal(err)
		}
		back, err := ReadProblem(&buf)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if !reflect.DeepEqual(back, p) {
			t.Errorf("%s: round trip differs", p.Name)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var viaStd Problem
		if err := json.Unmarshal(b, &viaStd); err != nil || !reflect.DeepEqual(&viaStd, p) {
			t.Errorf("%s: encoding/json round trip: %v", p.Name, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"n": 1, "loss": "none", "Ridge": 1}`), new(Problem)); err == nil {
		t.Error("encoding/json: key matching is not exact")
	}
	if err := WriteProblem(&bytes.Buffer{}, &Problem{N: 1, Loss: "none", Ridge: math.NaN()}); err == nil {
		t.Error("WriteProblem wrote a NaN")
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

// TestPaperQPFiles: the five QPs of section 6.1 read (ReadProblem gives
// the tests' readQP problem), validate and have the documented shape
// (l = m = n = 100, ridge 0.1, unit rows of A, b >= 0).
func TestPaperQPFiles(t *testing.T) {
	for s := 1; s <= 5; s++ {
		p, _ := readQP(t, s)
		f, err := os.Open(fmt.Sprintf("testdata/qp/paper-qp-100-s%d.json", s))
		if err != nil {
			t.Fatal(err)
		}
		read, err := ReadProblem(f)
		f.Close()
		if err != nil {
			t.Fatalf("seed %d: %v", s, err)
		}
		if !reflect.DeepEqual(read, p) {
			t.Errorf("seed %d: ReadProblem differs from testqp.Paper", s)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("seed %d: %v", s, err)
		}
		if p.Name != fmt.Sprintf("paper-qp-100-s%d", s) || p.N != 100 || p.Loss != "squared" ||
			len(p.Phi) != 100 || len(p.A) != 100 || p.Ridge != 0.1 {
			t.Errorf("seed %d: %s n %d loss %s l %d m %d ridge %g", s, p.Name, p.N, p.Loss, len(p.Phi), len(p.A), p.Ridge)
		}
		for j, a := range p.A {
			var nn float64
			for _, v := range a {
				nn += v * v
			}
			if math.Abs(nn-1) > 1e-12 || p.B[j] < 0 {
				t.Fatalf("seed %d row %d: ||a||^2 = %v, b = %v", s, j, nn, p.B[j])
			}
		}
	}
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

// TestReadProblemAllocs: reading a matrix costs one allocation per row, not
// per number (the numeric arrays are parsed directly, not by reflection).
func TestReadProblemAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations of its own (261 seen for 200 rows)")
	}
	var sb strings.Builder
	sb.WriteString(`{"n": 50, "loss": "none", "ridge": 1, "A": [`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("[")
		for j := 0; j < 50; j++ {
			if j > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, "%g", float64(i*j)/7)
		}
		sb.WriteString("]")
	}
	sb.WriteString(`], "b": [0]}`)
	doc := []byte(sb.String())
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := ReadProblem(bytes.NewReader(doc)); err != nil {
			t.Fatal(err)
		}
	})
	// One allocation per row (sized by its commas), plus about 45 for
	// reading the document and growing the slice of rows.
	if allocs > 200+60 {
		t.Errorf("%v allocations for a 200 x 50 matrix", allocs)
	}
}

// TestSVMProblem: the hard-margin SVM of section 6.2 on both copies of
// mushrooms: one row -y_i a_i per example, b = -1, ridge 1, no loss; with
// normalizeFeatures every non-zero column has unit norm. It validates.
func TestSVMProblem(t *testing.T) {
	for _, c := range []struct {
		file   string
		n, nnz int
	}{{"mushrooms.libsvm", 126, 22}, {"mushrooms112.libsvm", 112, 21}} {
		f, err := os.Open("testdata/svm/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := libsvm.Read(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, norm := range []bool{false, true} {
			p := SVMProblem(d.Labels, d.Rows, norm)
			if err := p.Validate(); err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			if p.N != c.n || len(p.A) != 8124 || p.Ridge != 1 || p.Loss != "none" || len(p.Phi) != 0 {
				t.Fatalf("%s: n %d m %d ridge %g loss %q", c.file, p.N, len(p.A), p.Ridge, p.Loss)
			}
			colNorm := make([]float64, p.N)
			for i, a := range p.A {
				nnz := 0
				for j, v := range a {
					colNorm[j] += v * v
					if v != 0 {
						nnz++
						if !norm && v != -d.Labels[i]*d.Rows[i][j] {
							t.Fatalf("%s: A[%d][%d] = %v, want -y a = %v", c.file, i, j, v, -d.Labels[i]*d.Rows[i][j])
						}
					}
				}
				if nnz != c.nnz || p.B[i] != -1 {
					t.Fatalf("%s row %d: %d non-zeros, b = %v", c.file, i, nnz, p.B[i])
				}
			}
			for j, s := range colNorm {
				if norm && s != 0 && math.Abs(s-1) > 1e-12 {
					t.Errorf("%s: column %d has squared norm %v after normalising", c.file, j, s)
				}
			}
		}
	}
	// Bad data in the SVM's rows stops at Validate, naming the row of A.
	bad := SVMProblem([]float64{1, -1}, [][]float64{{1, 0}, {0, math.NaN()}}, false)
	var ie *InputError
	if _, err := Solve(context.Background(), bad, nil); !errors.As(err, &ie) || err.Error() != "A[1][1]: NaN" {
		t.Errorf("SVM with a NaN feature: %v", err)
	}
	// Ragged rows are padded; the input is not modified.
	rows := [][]float64{{1}, {0, 2}}
	p := SVMProblem([]float64{1, -1}, rows, true)
	if p.N != 2 || !reflect.DeepEqual(p.A, [][]float64{{-1, 0}, {0, 1}}) || rows[1][1] != 2 {
		t.Errorf("ragged: %+v", p)
	}
}

// TestSVMProblemInPlace: the same Problem as SVMProblem, bit for bit, on
// mushrooms with and without normalised features; full-length rows become
// p.A's rows themselves (overwritten), a short row is copied and padded and
// left as it was.
func TestSVMProblemInPlace(t *testing.T) {
	for _, norm := range []bool{false, true} {
		p0, _ := loadMushrooms(t)
		labels := make([]float64, len(p0.A))
		for i := range labels {
			labels[i] = float64(i%2*2 - 1)
		}
		rows := make([][]float64, len(p0.A))
		for i, r := range p0.A {
			rows[i] = slices.Clone(r)
		}
		want := SVMProblem(labels, rows, norm)
		got := SVMProblemInPlace(labels, rows, norm)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("norm %v: in place differs from SVMProblem", norm)
		}
		for i := range rows {
			if &got.A[i][0] != &rows[i][0] {
				t.Fatalf("norm %v: row %d was copied", norm, i)
			}
		}
	}
	rows := [][]float64{{1}, {0, 2}}
	p := SVMProblemInPlace([]float64{1, -1}, rows, true)
	if p.N != 2 || !reflect.DeepEqual(p.A, [][]float64{{-1, 0}, {0, 1}}) || rows[0][0] != 1 || &p.A[1][0] != &rows[1][0] {
		t.Errorf("ragged: %+v, rows now %v", p, rows)
	}
}

// TestSolveAndResultRoundTrip: a QP with a known answer solved through the
// public face, written and read back.
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
