package softpen

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

// logisticProblem is a small constrained logistic regression: l = 200
// rows of n = 5 features, labels by a noisy hyperplane, two rows of A.
func logisticProblem() *Problem {
	g := testqp.LCG(11)
	n, l := 5, 200
	p := &Problem{N: n, Loss: "logistic", Ridge: 1e-2, Phi: make([][]float64, l), Y: make([]float64, l),
		A: [][]float64{{1, 1, 0, 0, 0}, {0, 0, 1, -1, 0}}, B: []float64{0.5, 0.2}}
	for i := range p.Phi {
		p.Phi[i] = make([]float64, n)
		s := 0.0
		for j := range p.Phi[i] {
			p.Phi[i][j] = g.Normal()
			s += p.Phi[i][j] * float64(j+1)
		}
		p.Y[i] = 1
		if s+g.Normal() < 0 {
			p.Y[i] = -1
		}
	}
	return p
}

// TestAutoChoosesByProblem: MethodAuto's choice depends on the problem
// alone. Progress, Observe, budgets, time limits and penalty options
// change nothing about which method runs: the paper's QP is solved by the
// active-set method, the logistic loss by Newton steps, with every option
// set; asking for a penalty method runs it.
func TestAutoChoosesByProblem(t *testing.T) {
	opts := map[string]*Options{
		"nil":       nil,
		"progress":  {Progress: func(Progress) {}},
		"observe":   {Observe: func(int64, []float64) {}},
		"max-steps": {MaxSteps: 1000000},
		"time":      {TimeLimit: time.Hour},
		"penalty":   {Penalty: &PenaltyOptions{Screen: ScreenNone, NoPolish: true, Xi: 3}},
	}
	qp, _ := readQP(t, 1)
	for _, c := range []struct {
		name string
		p    *Problem
		want Method
	}{{"paper QP", qp, MethodActiveSet}, {"logistic", logisticProblem(), MethodNewton}} {
		for on, opt := range opts {
			res, err := Solve(context.Background(), c.p, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Method != c.want || res.Status != StatusSolved {
				t.Errorf("%s, %s: %v by %v, want solved by %v", c.name, on, res.Status, res.Method, c.want)
			}
			if (res.Penalty != nil) != (c.want != MethodActiveSet && c.want != MethodNewton) {
				t.Errorf("%s, %s: penalty info %+v", c.name, on, res.Penalty)
			}
		}
		res, err := Solve(context.Background(), c.p, &Options{Method: MethodAPG})
		if err != nil {
			t.Fatal(err)
		}
		if res.Method != MethodAPG || res.Penalty == nil || res.Penalty.Stages == 0 {
			t.Errorf("%s, apg: method %v, penalty %+v", c.name, res.Method, res.Penalty)
		}
	}
}

// TestProgressAndObserveEveryMethod: the callbacks fire for every method:
// once at the end of an active-set solve (with its steps and gap), after
// each Newton step, after each stage of a penalty method; Observe sees the
// answer of the exact methods and the iterates of the penalty method.
func TestProgressAndObserveEveryMethod(t *testing.T) {
	qp, _ := readQP(t, 1)
	for _, c := range []struct {
		p      *Problem
		method Method
	}{{qp, MethodAuto}, {logisticProblem(), MethodAuto}, {qp, MethodAPG}, {qp, MethodSVRG}} {
		var reports []Progress
		var observed int
		var lastX []float64
		opt := &Options{Method: c.method, Tol: 1e-9, ObserveEvery: 100,
			Progress: func(pr Progress) { reports = append(reports, pr) },
			Observe:  func(_ int64, x []float64) { observed++; lastX = append(lastX[:0], x...) }}
		res, err := Solve(context.Background(), c.p, opt)
		if err != nil {
			t.Fatal(err)
		}
		name := res.Method.String()
		if len(reports) == 0 || observed == 0 {
			t.Errorf("%s: %d progress reports, %d observations", name, len(reports), observed)
			continue
		}
		last := reports[len(reports)-1]
		switch res.Method {
		case MethodActiveSet:
			if len(reports) != 1 || last.Method != MethodActiveSet || last.Steps != res.Steps || last.Gap != res.Gap {
				t.Errorf("%s: reports %+v, result steps %d gap %g", name, reports, res.Steps, res.Gap)
			}
			for i := range lastX {
				if lastX[i] != res.X[i] {
					t.Errorf("%s: observed x[%d] = %g, answer %g", name, i, lastX[i], res.X[i])
					break
				}
			}
		case MethodNewton:
			for i, r := range reports {
				if r.Method != MethodNewton || r.Index != i {
					t.Errorf("%s: report %d: %+v", name, i, r)
				}
			}
		default:
			if len(reports) != res.Penalty.Stages || last.Method != res.Method || last.Delta == 0 || last.Xi == 0 {
				t.Errorf("%s: %d reports for %d stages, last %+v", name, len(reports), res.Penalty.Stages, last)
			}
		}
	}
}

// TestUnknownOptions: an unknown method or screening rule is an error
// naming it, not a panic.
func TestUnknownOptions(t *testing.T) {
	p := validQP()
	for _, opt := range []*Options{{Method: -1}, {Method: 99}, {Method: MethodAPG, Penalty: &PenaltyOptions{Screen: 9}}} {
		if _, err := Solve(context.Background(), p, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	// A negative thread count, on the dense path and on sparse rows.
	sp := &Problem{N: 2, ASparse: mat.SparseFromRows([][]float64{{1, 0}, {0, -1}}, 2), B: []float64{-1, -1}, Ridge: 1}
	for _, q := range []*Problem{p, sp} {
		if _, err := Solve(context.Background(), q, &Options{Threads: -2}); err == nil || !strings.Contains(err.Error(), "threads = -2") {
			t.Errorf("Threads -2: %v, want an error naming threads", err)
		}
	}
	for m := MethodAuto; m <= MethodSGDM; m++ {
		if back, err := ParseMethod(m.String()); err != nil || back != m {
			t.Errorf("%v: ParseMethod gives %v, %v", m, back, err)
		}
	}
}

// TestThreadsSameBits: the exact path on many rows (a sampled start, then
// the engine on every row, both with their scans of every row split among
// the goroutines) gives the same bits on 1, 2 and 3 goroutines.
func TestThreadsSameBits(t *testing.T) {
	for _, p := range []*Problem{manyRowsQP(20000, 30), largeQP(400, 30000, 20)} {
		var want *Result
		for _, threads := range []int{1, 2, 3} {
			res, err := Solve(context.Background(), p, &Options{Threads: threads})
			if err != nil || res.Status != StatusSolved {
				t.Fatalf("threads %d: %v %v", threads, res, err)
			}
			if want == nil {
				want = res
				continue
			}
			if res.Steps != want.Steps || !slices.Equal(res.X, want.X) || !slices.Equal(res.Lambda, want.Lambda) {
				t.Fatalf("threads %d: %d steps, objective %.17g; one goroutine: %d, %.17g, or x or lambda differ",
					threads, res.Steps, res.Objective, want.Steps, want.Objective)
			}
		}
	}
}

// manyRowsQP is 1/2 ||x||^2 + q'x, q ~ N(0, 100), under m rows a'x <= b
// (a ~ N(0,1), every third row with two nonzeros; b ~ U(1, 2)): a few
// hundred rows active, and scans that find violated rows in every part
// of A.
func manyRowsQP(m, n int) *Problem {
	rng := rand.New(rand.NewPCG(3, 12))
	p := &Problem{N: n, Loss: "none", P: make([][]float64, n), Q: make([]float64, n), A: make([][]float64, m), B: make([]float64, m)}
	for i := range n {
		p.P[i] = make([]float64, n)
		p.P[i][i] = 1
		p.Q[i] = -10 * rng.NormFloat64()
	}
	for j := range m {
		r := make([]float64, n)
		if j%3 == 1 {
			r[rng.IntN(n)], r[rng.IntN(n)] = rng.NormFloat64(), rng.NormFloat64()
		} else {
			for k := range r {
				r[k] = rng.NormFloat64()
			}
		}
		p.A[j], p.B[j] = r, 1+rng.Float64()
	}
	return p
}
