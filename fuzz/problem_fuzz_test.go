package fuzz

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/softpen/softpen"
)

// pfNormal makes empty slices nil: a valid problem means the same either
// way, and WriteProblem leaves empty fields out.
func pfNormal(p *softpen.Problem) softpen.Problem {
	q := *p
	for _, m := range []*[][]float64{&q.Phi, &q.P, &q.A, &q.Aeq} {
		if len(*m) == 0 {
			*m = nil
		}
	}
	for _, v := range []*[]float64{&q.Y, &q.Lower, &q.Upper, &q.Q, &q.B, &q.Beq} {
		if len(*v) == 0 {
			*v = nil
		}
	}
	return q
}

// FuzzProblemFile: the problem reader never panics on arbitrary bytes and
// fails only with an *InputError and no problem; a problem that reads and
// validates goes through the solver's setup (and, when tiny, a short solve)
// without panicking, and WriteProblem then ReadProblem gives it back
// exactly (up to empty fields read back as absent).
func FuzzProblemFile(f *testing.F) {
	for _, s := range []string{
		// valid
		`{"n": 2, "loss": "none", "ridge": 1, "q": [-1, -1], "A": [[1, 1]], "b": [1]}`,
		`{"n": 1, "loss": "logistic", "phi": [[1]], "y": [1], "ridge": 1, "lower": [null], "upper": [1e30]}`,
		`{"n": 2, "loss": "squared", "phi": [[1,2]], "y": [0], "P": [[1,0],[0,1]], "Aeq": [[1,0]], "beq": [2]}`,
		`{"name": "box", "n": 3, "loss": "none", "ridge": 0.5, "l1": 0.1, "offset": -2,
		  "lower": [0, null, -1e20], "upper": [1, 2, null], "A": [[0, 0, 0], [1, -1, 0.5]], "b": [-1, 3]}`,
		`{"n": 2, "loss": "squared", "phi": [[1e-300, -1e300], [0, 1]], "y": [1, -1], "ridge": 0}`,
		`{"n": 4, "loss": "logistic", "phi_idx": [[0, 3], [], [1]], "phi_val": [[1, -2], [], [0.5]], "y": [1, -1, 1], "ridge": 0.1, "l1": 0.01, "upper": [1, 1, 1, 1]}`,
		`{"n": 3, "loss": "none", "ridge": 1, "A_idx": [[0, 2], [1]], "A_val": [[1, 1], [-1]], "b": [-1, -2]}`,
		// near-valid
		`{"n": 2, "loss": "logistic", "phi_idx": [[1, 0]], "phi_val": [[1, 2]], "y": [1], "ridge": 1}`,
		`{"n": 2, "loss": "logistic", "phi_idx": [[0, 5]], "phi_val": [[1, 2]], "y": [1], "ridge": 1}`,
		`{"n": 2, "loss": "logistic", "phi": [[1, 2]], "phi_idx": [[0]], "phi_val": [[1]], "y": [1], "ridge": 1}`,
		`{"n": 2, "loss": "none", "ridge": 1, "A": [[1, 1], [1]], "b": [1, 1]}`,
		`{"n": 2, "loss": "none", "ridge": 1, "A": [[1, null]], "b": [1]}`,
		`{"n": 2, "loss": "none", "ridge": 1, "b": [1e400]}`,
		`{"n": 2, "loss": "none", "ridge": 1, "lower": [3, 0], "upper": [2, 1]}`,
		`{"n": 2, "loss": "hinge", "ridge": 1}`,
		`{"n": 2, "loss": "none", "ridge": 1, "P": [[1, 2], [0, 1]]}`,
		`{"n": -1, "loss": "none"}`,
		`{"n": 2.5, "loss": "none"}`,
		`{"n": 2, "loss": "none", "ridge": 1, "n": 2}`,
		`{"n": 2, "loss": "none", "Ridge": 1}`,
		`{"n": 2, "loss": "none", "ridge": 1} trailing`,
		`{"n": 2, "loss": "none", "A": [[[1]]]}`,
		`{"n": 99999999999, "loss": "none", "ridge": 1}`,
		"{\"n\": 2,\n \"loss\": }",
		`[]`, ``, `null`, `{`, `{"n": 1, "loss": "none", "ridge": 1, "y": [1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := softpen.ReadProblem(bytes.NewReader(data))
		if err != nil {
			var ie *softpen.InputError
			if !errors.As(err, &ie) || err.Error() == "" || p != nil {
				t.Fatalf("error %T %q with problem %v", err, err, p)
			}
			return
		}
		if p.Validate() != nil {
			return
		}
		var buf bytes.Buffer
		if err := softpen.WriteProblem(&buf, p); err != nil {
			t.Fatalf("WriteProblem of a valid problem: %v", err)
		}
		back, err := softpen.ReadProblem(&buf)
		if err != nil || !reflect.DeepEqual(pfNormal(back), pfNormal(p)) {
			t.Fatalf("round trip: %v\n got  %+v\n want %+v", err, back, p)
		}
		// NewSolver runs internal() and the solver's own checks; keep
		// the sizes small so that the fuzzer spends its time on parsing.
		if p.N > 64 || len(p.A)+len(p.Phi)+len(p.Aeq) > 256 {
			return
		}
		s, err := softpen.NewSolver(p, &softpen.Options{MaxSteps: 2000, TimeLimit: 20 * time.Millisecond})
		if err != nil {
			return // e.g. P + phi'phi/l not positive definite
		}
		res, err := s.Solve(context.Background())
		if err == nil && len(res.X) != p.N {
			t.Fatalf("len(x) = %d, want %d", len(res.X), p.N)
		}
	})
}
