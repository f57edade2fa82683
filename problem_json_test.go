package softpen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/softpen/softpen/mat"
)

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

// TestProblemJSONSparse: the compressed rows of phi and A round-trip
// through the JSON form exactly, and malformed pairs are errors naming the
// key and the row.
func TestProblemJSONSparse(t *testing.T) {
	p := &Problem{N: 5, Loss: "logistic", Y: []float64{1, -1, 1}, Ridge: 0.5,
		PhiSparse: &mat.Sparse{Rows: 3, Cols: 5, Ptr: []int{0, 2, 2, 5}, Idx: []int32{0, 4, 1, 2, 3}, Val: []float64{1.5, -2, 0.1, 1e-300, 7}},
		ASparse:   &mat.Sparse{Rows: 1, Cols: 5, Ptr: []int{0, 1}, Idx: []int32{3}, Val: []float64{-1}}, B: []float64{-1}}
	var buf bytes.Buffer
	if err := WriteProblem(&buf, p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadProblem(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.PhiSparse, p.PhiSparse) || !reflect.DeepEqual(q.ASparse, p.ASparse) || q.Phi != nil || q.A != nil {
		t.Fatalf("round trip: %+v %+v", q.PhiSparse, q.ASparse)
	}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ doc, want string }{
		{`{"n":2,"loss":"logistic","phi_idx":[[0]],"y":[1],"ridge":1}`, "phi_idx: 1 rows of indices and 0 of values"},
		{`{"n":2,"loss":"logistic","phi_idx":[[0,1]],"phi_val":[[1]],"y":[1],"ridge":1}`, "phi_idx[0]: 2 indices but 1 values"},
		{`{"n":2,"loss":"logistic","phi_idx":[[0.5]],"phi_val":[[1]],"y":[1],"ridge":1}`, "phi_idx[0][0]: 0.5"},
		{`{"n":2,"loss":"none","ridge":1,"A_idx":[[-1]],"A_val":[[1]],"b":[-1]}`, "A_idx[0][0]: -1"},
	} {
		_, err := ReadProblem(strings.NewReader(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.doc, err, c.want)
		}
	}
	bad, err := ReadProblem(strings.NewReader(`{"n":2,"loss":"logistic","phi_idx":[[1,0]],"phi_val":[[1,2]],"y":[1],"ridge":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "phi_sparse[0][1]") {
		t.Errorf("unsorted indices: %v", err)
	}
}
