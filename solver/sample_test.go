package solver

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/softpen/softpen/activeset"
)

// TestSampledStart: on many rows the direct path starts from samples
// (two levels at m = 4e5 / 20 = 20000; one below) and must give the
// answer of the engine started cold on all rows: the same objective to
// rounding and x within 1e-9 (the engine's answers are exact to about
// 1e-12 here); it is certified solved; a Reset solves again to the same
// bits; after SetB the samples see the new b (a cold solve after Reset
// agrees with a fresh solver on the new b), and a warm re-solve allocates
// nothing.
func TestSampledStart(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		p      *Problem
		levels int
	}{
		{"svm m=40000", smallSVM(40000, 12), 1},
		{"largeqp m=30000", largeQPProblem(300, 30000, 20), 1},
		{"svm m=400000", smallSVM(400000, 8), 2},
	} {
		s, err := New(c.p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.direct == nil || len(s.sample.levels) != c.levels {
			t.Fatalf("%s: direct %v, %d sample levels, want %d", c.name, s.direct != nil, len(s.sample.levels), c.levels)
		}
		res, err := s.Solve(ctx)
		if err != nil || res.Status != StatusSolved {
			t.Fatalf("%s: %v %v (%s)", c.name, err, res.Status, res.Message)
		}
		x := slices.Clone(res.X)
		// The engine alone, cold on all rows.
		eng, err := s.newEngine(c.p, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := eng.Solve()
		if r.Status != activeset.StatusOptimal {
			t.Fatalf("%s: cold engine %v", c.name, r.Status)
		}
		if d := dist(x, r.X); d > 1e-9*(1+math.Sqrt(dotSelf(r.X))) {
			t.Errorf("%s: ||x - x_cold|| = %.3g", c.name, d)
		}
		if o := r.Objective + s.c0; math.Abs(res.Objective-o) > 1e-12*(1+math.Abs(o)) {
			t.Errorf("%s: objective %.17g, cold engine %.17g", c.name, res.Objective, o)
		}
		s.Reset()
		if res, _ := s.Solve(ctx); !slices.Equal(res.X, x) {
			t.Errorf("%s: after Reset the answer differs (%.3g away)", c.name, dist(res.X, x))
		}
		// New right-hand sides: a little looser everywhere.
		b := slices.Clone(c.p.B)
		for j := range b {
			b[j] += 0.01 * (1 + float64(j%7)/7)
		}
		if err := s.SetB(b); err != nil {
			t.Fatal(err)
		}
		warm, _ := s.Solve(ctx)
		xw := slices.Clone(warm.X)
		s.Reset()
		cold, _ := s.Solve(ctx)
		q := *c.p
		q.B = b
		fresh := solveOK(t, &q, nil)
		if warm.Status != StatusSolved || cold.Status != StatusSolved || fresh.Status != StatusSolved {
			t.Fatalf("%s after SetB: warm %v, cold %v, fresh %v", c.name, warm.Status, cold.Status, fresh.Status)
		}
		if !slices.Equal(cold.X, fresh.X) {
			t.Errorf("%s after SetB: Reset + Solve differs from a fresh solver by %.3g (stale samples?)", c.name, dist(cold.X, fresh.X))
		}
		if d := dist(xw, fresh.X); d > 1e-9*(1+math.Sqrt(dotSelf(fresh.X))) {
			t.Errorf("%s after SetB: warm answer %.3g from the fresh one", c.name, d)
		}
		if a := testing.AllocsPerRun(3, func() { s.SetB(c.p.B); s.Solve(ctx); s.SetB(b); s.Solve(ctx) }); a != 0 {
			t.Errorf("%s: warm re-solves allocate %v times", c.name, a)
		}
	}
}

// TestSampledStartInfeasible: a sample that contains both copies of a row
// and its negation is infeasible; its Farkas rows start the engine on all
// rows, which must end infeasible with a checked certificate. And when
// only the whole problem holds the contradiction (the negated row outside
// every sample), the hot start from a feasible sample must find it too.
func TestSampledStartInfeasible(t *testing.T) {
	// Row 100 is negated into row 39980 (in the sample: every 20th row)
	// or row 39999 (not in it).
	for _, j := range []int{39980, 39999} {
		p := smallSVM(40000, 10)
		last := p.A.Row(j)
		copy(last, p.A.Row(100))
		for i := range last {
			last[i] = -last[i]
		}
		res := solveOK(t, p, nil)
		checkFarkas(t, p, res, 1e-9)
	}
}

func dotSelf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}
