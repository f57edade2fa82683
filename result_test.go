package softpen

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestWriteResultKeys: the keys of FORMATS.md in its order, "nu" only with
// equality rows, "screened" and "outside" only when not empty, "farkas" only when
// infeasible; Inf and NaN written as null.
func TestWriteResultKeys(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	base := []string{"status", "x", "lambda", "objective", "gap", "dist_bound", "max_violation",
		"steps", "stages", "kept", "time_s", "method", "impl"}
	with := func(extra ...string) []string {
		out := append([]string(nil), base...)
		for _, e := range extra {
			if e == "nu" {
				out = append(out[:3], append([]string{"nu"}, out[3:]...)...)
			} else {
				out = append(out, e)
			}
		}
		return append(out, "xi", "polished")
	}
	cases := []struct {
		name string
		r    Result
		keys []string
		null []string
	}{
		{"solved", Result{Status: StatusSolved, X: []float64{1}, Lambda: []float64{0}, Gap: 1e-12, DistBound: 1e-6,
			Screened: []int{}, Outside: []int{}, Farkas: []float64{0}, Nu: []float64{}}, with(), nil},
		{"no bound", Result{Status: StatusMaxSteps, Gap: inf, DistBound: inf, Objective: nan}, with(),
			[]string{"gap", "dist_bound", "objective"}},
		{"equalities and screening", Result{Status: StatusTimeLimit, Nu: []float64{2}, Screened: []int{3, 5}, Outside: []int{1}, MaxViolation: inf},
			with("nu", "screened", "outside"), []string{"max_violation"}},
		{"infeasible", Result{Status: StatusInfeasible, Farkas: []float64{1, 0}, Xi: nan}, with("farkas"), []string{"xi"}},
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
	r := &Result{Status: StatusInfeasible, X: []float64{0.1, -1e-310, 3e300, nan}, Lambda: []float64{0, 1.0 / 3, inf},
		Nu: []float64{-2}, Objective: -0.5, Gap: inf, DistBound: inf, MaxViolation: 1e-17, Steps: 1 << 40,
		Stages: 12, Kept: 7, Screened: []int{0, 9}, Outside: []int{4}, Farkas: []float64{0.25, 0}, Xi: 4, Polished: true,
		Time: 1234567891 * time.Nanosecond, Method: "catalyst-svrg", Impl: "avx2"}
	var buf bytes.Buffer
	if err := WriteResult(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := ReadResult(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := *r
	want.Lambda = []float64{0, 1.0 / 3, nan} // +Inf inside an array comes back as NaN
	if !sameResult(back, &want) {
		t.Errorf("round trip:\n got  %+v\n want %+v", back, &want)
	}
	for s := StatusSolved; s <= StatusCanceled; s++ {
		buf.Reset()
		WriteResult(&buf, &Result{Status: s})
		if back, err := ReadResult(&buf); err != nil || back.Status != s {
			t.Errorf("status %v: %v, %v", s, back, err)
		}
	}
	for _, bad := range []string{`{"status": "optimal"}`, `{"status": "solved", "x": "no"}`, `[`} {
		if _, err := ReadResult(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if err := WriteResult(&buf, nil); err == nil {
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
		eq(a.Objective, b.Objective) && eq(a.Gap, b.Gap) && eq(a.DistBound, b.DistBound) &&
		eq(a.MaxViolation, b.MaxViolation) && a.Steps == b.Steps && a.Stages == b.Stages && a.Kept == b.Kept &&
		reflect.DeepEqual(a.Screened, b.Screened) && reflect.DeepEqual(a.Outside, b.Outside) && eqs(a.Farkas, b.Farkas) && eq(a.Xi, b.Xi) &&
		a.Polished == b.Polished && a.Time == b.Time && a.Method == b.Method && a.Impl == b.Impl
}
