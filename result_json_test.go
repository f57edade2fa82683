package softpen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestWriteResultKeys: the keys of FORMATS.md in its order, "nu" only with
// equality rows, "lambda_box" only with bounds, "iterations" only when the
// active-set method ran, "screened", "outside", "xi" and "polished" only
// when a penalty method's stages ran (the lists only when not empty),
// "farkas" only when infeasible, "message" only when set; Inf and NaN
// written as null.
func TestWriteResultKeys(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	base := []string{"status", "x", "lambda", "objective", "gap", "dist_bound", "max_violation",
		"steps", "stages", "kept", "time_s", "method", "impl"}
	with := func(extra ...string) []string {
		out := append([]string(nil), base...)
		for _, e := range extra {
			switch e {
			case "nu", "lambda_box":
				i := 3
				if e == "lambda_box" && out[3] == "nu" {
					i = 4
				}
				out = append(out[:i], append([]string{e}, out[i:]...)...)
			default:
				out = append(out, e)
			}
		}
		return out
	}
	pen := func(p PenaltyInfo) *PenaltyInfo { return &p }
	cases := []struct {
		name string
		r    Result
		keys []string
		null []string
	}{
		{"solved", Result{Solution{X: []float64{1}, Lambda: []float64{0}, Nu: []float64{}},
			Info{Status: StatusSolved, Gap: 1e-12, DistBound: 1e-6, Method: MethodActiveSet, Iterations: 3}}, with("iterations"), nil},
		{"no bound", Result{Info: Info{Status: StatusMaxSteps, Gap: inf, DistBound: inf, Objective: nan, Message: "m",
			Penalty: pen(PenaltyInfo{Screened: []int{}, Outside: []int{}})}},
			with("xi", "polished", "message"), []string{"gap", "dist_bound", "objective"}},
		{"equalities, box and screening", Result{Solution{Nu: []float64{2}, LambdaBox: []float64{0}},
			Info{Status: StatusTimeLimit, MaxViolation: inf, Penalty: pen(PenaltyInfo{Screened: []int{3, 5}, Outside: []int{1}})}},
			with("nu", "lambda_box", "screened", "outside", "xi", "polished"), []string{"max_violation"}},
		{"infeasible", Result{Solution{FarkasA: []float64{1, 0}}, Info{Status: StatusInfeasible, Penalty: pen(PenaltyInfo{Xi: nan})}},
			with("xi", "polished", "farkas"), []string{"xi"}},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		if err := WriteResult(&buf, &c.r); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
		dec.Token()
		var keys []string
		vals := map[string]json.RawMessage{}
		for dec.More() {
			k, _ := dec.Token()
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %v\n%s", c.name, err, buf.String())
			}
			keys = append(keys, k.(string))
			vals[k.(string)] = v
		}
		if !reflect.DeepEqual(keys, c.keys) {
			t.Errorf("%s: keys %v, want %v", c.name, keys, c.keys)
		}
		for _, k := range c.null {
			if string(vals[k]) != "null" {
				t.Errorf("%s: %s = %s, want null", c.name, k, vals[k])
			}
		}
		if string(vals["x"]) == "null" || string(vals["lambda"]) == "null" {
			t.Errorf("%s: x or lambda written as null, want []", c.name)
		}
		if !strings.HasSuffix(buf.String(), "}\n") || strings.Count(buf.String(), "\n") != len(keys)+2 {
			t.Errorf("%s: not one key per line:\n%s", c.name, buf.String())
		}
	}
}

// TestResultRoundTrip: ReadResult(WriteResult(r)) == r bit for bit for
// finite values, with null numbers coming back as +Inf (gap, dist_bound) or
// NaN (elsewhere), including inside arrays.
func TestResultRoundTrip(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	r := &Result{
		Solution{X: []float64{0.1, -1e-310, 3e300, nan}, Lambda: []float64{0, 1.0 / 3, inf}, Nu: []float64{-2},
			LambdaBox: []float64{0, -1, 2, 0}, FarkasA: []float64{0.25, 0, 1}, FarkasEq: []float64{-0.5}},
		Info{Status: StatusInfeasible, Objective: -0.5, Gap: inf, DistBound: inf, MaxViolation: 1e-17, Steps: 1 << 40,
			Iterations: 9, Time: 1234567891 * time.Nanosecond, Method: MethodCatalyst, Impl: "avx2", Message: "why",
			Penalty: &PenaltyInfo{Stages: 12, Kept: 7, Screened: []int{0, 9}, Outside: []int{4}, Xi: 4, Polished: true}},
	}
	back := roundTrip(t, r)
	want := *r
	want.Lambda = []float64{0, 1.0 / 3, nan} // +Inf inside an array comes back as NaN
	if !sameResult(back, &want) {
		t.Errorf("round trip:\n got  %+v\n want %+v", back, &want)
	}
	for s := StatusSolved; s <= StatusPrecisionLimit; s++ {
		if back := roundTrip(t, &Result{Info: Info{Status: s, Method: MethodAPG}}); back.Status != s {
			t.Errorf("status %v: %v", s, back)
		}
	}
	for _, bad := range []string{`{"status": "optimal"}`, `{"status": "solved", "x": "no"}`, `[`} {
		if _, err := ReadResult(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if err := WriteResult(io.Discard, nil); err == nil {
		t.Error("WriteResult(nil): no error")
	}
}

// sameResult compares two results treating NaN as equal to NaN.
func sameResult(a, b *Result) bool {
	eq := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	eqs := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !eq(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a.Status == b.Status && eqs(a.X, b.X) && eqs(a.Lambda, b.Lambda) && eqs(a.Nu, b.Nu) &&
		eqs(a.LambdaBox, b.LambdaBox) && eqs(a.FarkasA, b.FarkasA) && eqs(a.FarkasEq, b.FarkasEq) &&
		eq(a.Objective, b.Objective) && eq(a.Gap, b.Gap) && eq(a.DistBound, b.DistBound) &&
		eq(a.MaxViolation, b.MaxViolation) && a.Steps == b.Steps && a.Iterations == b.Iterations &&
		(a.Penalty == nil) == (b.Penalty == nil) && (a.Penalty == nil || a.Penalty.Stages == b.Penalty.Stages &&
		a.Penalty.Kept == b.Penalty.Kept && reflect.DeepEqual(a.Penalty.Screened, b.Penalty.Screened) &&
		reflect.DeepEqual(a.Penalty.Outside, b.Penalty.Outside) && eq(a.Penalty.Xi, b.Penalty.Xi) &&
		a.Penalty.Polished == b.Penalty.Polished) &&
		a.Time == b.Time && a.Method == b.Method && a.Impl == b.Impl && a.Message == b.Message
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

// TestWriteResultStreams: WriteResult writes a large solution as it goes,
// without holding it as text: writing x of 2^17 numbers (about 2.5 MB of
// text) allocates a small fixed amount, and the file reads back exactly.
func TestWriteResultStreams(t *testing.T) {
	x := make([]float64, 1<<17)
	for j := range x {
		x[j] = math.Sin(float64(j)) * 1e3
	}
	r := &Result{Solution: Solution{X: x, Lambda: []float64{1, 2}}, Info: Info{Status: StatusSolved, Method: MethodNewtonCG}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := WriteResult(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Errorf("writing %d numbers allocated %d bytes", len(x), grew)
	}
	back := roundTrip(t, r)
	if !reflect.DeepEqual(back.X, x) {
		t.Error("x does not read back exactly")
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteResultError: a writer that fails part-way makes WriteResult
// return its error.
func TestWriteResultError(t *testing.T) {
	r := &Result{Solution: Solution{X: make([]float64, 1<<15)}, Info: Info{Status: StatusSolved, Method: MethodAPG}}
	if err := WriteResult(&failingWriter{n: 1000}, r); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %v, want the writer's", err)
	}
}

// roundTrip writes r with WriteResult and reads it back with ReadResult.
func roundTrip(t *testing.T, r *Result) *Result {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteResult(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := ReadResult(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}
