package softpen

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/testqp"
)

// portfolio is the minimum-variance portfolio of 50 assets with an
// expected-return tilt, fully invested (sum x = 1) with 0 <= x_i <= 0.1:
// P = F F' + diag(d) from 3 factors, q = -0.1 mu.
func portfolio() *Problem {
	g := testqp.LCG(5)
	n := 50
	f := make([][]float64, n)
	for i := range f {
		f[i] = []float64{g.Normal(), g.Normal(), g.Normal()}
	}
	p := &Problem{N: n, Loss: "none", P: make([][]float64, n), Q: make([]float64, n),
		Aeq: [][]float64{make([]float64, n)}, Beq: []float64{1}, Lower: make([]float64, n), Upper: make([]float64, n)}
	for i := range p.P {
		p.P[i] = make([]float64, n)
		for j := range p.P[i] {
			for k := range f[i] {
				p.P[i][j] += f[i][k] * f[j][k]
			}
		}
		p.P[i][i] += 0.1 + 0.01*float64(i%7)
		p.Q[i] = -0.1 * (1 + g.Normal())
		p.Aeq[0][i] = 1
		p.Upper[i] = 0.1
	}
	return p
}

// TestLambdaBox: the bounds' multipliers of a bounds-heavy portfolio, from
// the active-set method and from a penalty method's exact finish: of the
// bound's sign where x sits on it (to within rounding: the refinement in
// the caller's variables leaves x_i a few ulp from it) and 0 elsewhere,
// and with the rows' multipliers they make P x + q + Aeq'nu + z vanish to rounding (checked
// here, independently of the solver's certificate). Without bounds
// LambdaBox is nil.
func TestLambdaBox(t *testing.T) {
	p := portfolio()
	for _, m := range []Method{MethodAuto, MethodAPG} {
		res, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusSolved || len(res.LambdaBox) != p.N {
			t.Fatalf("%v: %v, %d bound multipliers", m, res.Status, len(res.LambdaBox))
		}
		atUpper, atLower, worst, scale := 0, 0, 0.0, 0.0
		for i, z := range res.LambdaBox {
			x := res.X[i]
			switch {
			case z > 0 && math.Abs(x-p.Upper[i]) > 1e-14, z < 0 && math.Abs(x-p.Lower[i]) > 1e-14:
				t.Errorf("%v: z[%d] = %g with x = %g off that bound", m, i, z, x)
			case z > 0:
				atUpper++
			case z < 0:
				atLower++
			}
			g, size := p.Q[i]+res.Nu[0]*p.Aeq[0][i]+z, math.Abs(p.Q[i])+math.Abs(res.Nu[0])+math.Abs(z)
			for j, v := range p.P[i] {
				g += v * res.X[j]
				size += math.Abs(v * res.X[j])
			}
			worst, scale = math.Max(worst, math.Abs(g)), math.Max(scale, size)
		}
		if worst > 1e-13*scale || atUpper == 0 || atLower == 0 {
			t.Errorf("%v: stationarity %.3g (terms %.3g), %d at the cap, %d at zero", m, worst, scale, atUpper, atLower)
		}
	}
	res, err := Solve(context.Background(), validQP(), nil)
	if err != nil || res.LambdaBox != nil {
		t.Errorf("no bounds: LambdaBox %v, %v", res.LambdaBox, err)
	}
}

// TestMessageEveryStatus: every status but solved says why in one line.
func TestMessageEveryStatus(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	qp, _ := readQP(t, 1)
	for _, c := range []struct {
		name string
		ctx  context.Context
		p    *Problem
		opt  *Options
		want Status
	}{
		{"infeasible", context.Background(), &Problem{N: 1, Loss: "none", Ridge: 1, A: [][]float64{{1}, {-1}}, B: []float64{-1, -1}}, nil, StatusInfeasible},
		{"max steps", context.Background(), qp, &Options{MaxSteps: 1}, StatusMaxSteps},
		{"max steps apg", context.Background(), qp, &Options{Method: MethodAPG, MaxSteps: 1}, StatusMaxSteps},
		{"time limit", context.Background(), qp, &Options{TimeLimit: time.Nanosecond}, StatusTimeLimit},
		{"canceled", canceled, qp, &Options{Method: MethodAPG}, StatusCanceled},
		{"precision", context.Background(), qp, &Options{Tol: 1e-17}, StatusPrecisionLimit},
	} {
		res, err := Solve(c.ctx, c.p, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.want || res.Message == "" {
			t.Errorf("%s: status %v (want %v), message %q", c.name, res.Status, c.want, res.Message)
		}
	}
	res, _ := Solve(context.Background(), qp, nil)
	if res.Status != StatusSolved || res.Message != "" {
		t.Errorf("solved: status %v, message %q", res.Status, res.Message)
	}
}
