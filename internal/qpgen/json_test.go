package qpgen

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// writtenKeys are the keys of the problem file of FORMATS.md that WriteJSON
// may write (loss "none": no phi, y, ridge, l1 or offset), spelled out here
// rather than taken from jsonProblem's tags, so that a misspelt tag fails
// the test.
var writtenKeys = strings.Fields("name n loss P q A b Aeq beq lower upper")

// TestWriteJSON: every family writes, and reads back bit for bit, with
// null for infinite bounds.
func TestWriteJSON(t *testing.T) {
	for _, f := range Families() {
		q := Generate(f, 6, 3)
		var buf bytes.Buffer
		if err := WriteJSON(&buf, q); err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(buf.Bytes(), &keys); err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		for k := range keys {
			if !slices.Contains(writtenKeys, k) {
				t.Errorf("%s: unexpected key %q", q.Name, k)
			}
		}
		var p jsonProblem
		if err := json.Unmarshal(buf.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		if p.Name != q.Name || p.N != q.N || p.Loss != "none" || !sameMat(p.P, q.H) || !sameBits(p.Q, q.C) ||
			len(p.A) != len(q.A) || !sameBits(p.B, q.B) || !sameMat(p.Aeq, q.Aeq) || !sameBits(p.Beq, q.Beq) {
			t.Errorf("%s: read back differs", q.Name)
		}
		for j := range q.A {
			if !sameBits(p.A[j], q.A[j]) {
				t.Errorf("%s: row %d differs", q.Name, j)
			}
		}
		checkBounds := func(name string, got []*float64, want []float64) {
			if got == nil {
				for _, v := range want {
					if !math.IsInf(v, 0) {
						t.Errorf("%s: %s missing", q.Name, name)
					}
				}
				return
			}
			for i, v := range want {
				if math.IsInf(v, 0) != (got[i] == nil) || (got[i] != nil && *got[i] != v) {
					t.Errorf("%s: %s[%d] wrong", q.Name, name, i)
				}
			}
		}
		checkBounds("lower", p.Lower, q.Lower)
		checkBounds("upper", p.Upper, q.Upper)
	}
	bad := Generate("bounds-mixed", 3, 1)
	bad.Lower[0] = -1e20
	if err := WriteJSON(&bytes.Buffer{}, bad); err == nil {
		t.Error("a finite bound of 1e20 was written")
	}
}

func TestWriteReference(t *testing.T) {
	var buf bytes.Buffer
	q := Generate("degenerate-vertex", 4, 1)
	if err := WriteReference(&buf, q); err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Status    string    `json:"status"`
		X         []float64 `json:"x"`
		Objective float64   `json:"objective"`
		Exact     bool      `json:"exact"`
	}
	if err := json.Unmarshal(buf.Bytes(), &ref); err != nil {
		t.Fatal(err)
	}
	want, _ := ObjectiveRat(q, q.XStar).Float64()
	if ref.Status != "solved" || !sameBits(ref.X, q.XStar) || ref.Objective != want || !ref.Exact {
		t.Errorf("reference %s", buf.String())
	}
	buf.Reset()
	if err := WriteReference(&buf, Generate("infeas-box", 4, 1)); err != nil || !strings.Contains(buf.String(), `"infeasible"`) {
		t.Errorf("infeasible reference %q, %v", buf.String(), err)
	}
	if err := WriteReference(&buf, &QP{Name: "x"}); err == nil {
		t.Error("reference written without an answer")
	}
}
