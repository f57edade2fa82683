package solver

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/internal/testqp"
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
		eng, err := s.newEngine(c.p, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := eng.Solve(ctx)
		if r.Status != activeset.StatusSolved {
			t.Fatalf("%s: cold engine %v", c.name, r.Status)
		}
		if d := testqp.Dist(x, r.X); d > 1e-9*(1+testqp.Norm(r.X)) {
			t.Errorf("%s: ||x - x_cold|| = %.3g", c.name, d)
		}
		if o := r.Objective + s.c0; math.Abs(res.Objective-o) > 1e-12*(1+math.Abs(o)) {
			t.Errorf("%s: objective %.17g, cold engine %.17g", c.name, res.Objective, o)
		}
		s.Reset()
		if res, _ := s.Solve(ctx); !slices.Equal(res.X, x) {
			t.Errorf("%s: after Reset the answer differs (%.3g away)", c.name, testqp.Dist(res.X, x))
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
			t.Errorf("%s after SetB: Reset + Solve differs from a fresh solver by %.3g (stale samples?)", c.name, testqp.Dist(cold.X, fresh.X))
		}
		if d := testqp.Dist(xw, fresh.X); d > 1e-9*(1+testqp.Norm(fresh.X)) {
			t.Errorf("%s after SetB: warm answer %.3g from the fresh one", c.name, d)
		}
		if a := testing.AllocsPerRun(3, func() { s.SetB(c.p.B); s.Solve(ctx); s.SetB(b); s.Solve(ctx) }); a != 0 {
			t.Errorf("%s: warm re-solves allocate %v times", c.name, a)
		}
	}
}

// TestSampledStartSetBFirst: New solves the samples and hot-starts the
// engine from them (presolve, NewAt); a SetB before the first Solve must
// send that Solve back to the samples on the new b: the answer is the
// fresh solver's on it (to 1e-9; the samples' engines start warm).
func TestSampledStartSetBFirst(t *testing.T) {
	ctx := context.Background()
	p := largeQPProblem(300, 30000, 20)
	s, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.sample.presolved {
		t.Fatal("New did not solve the samples")
	}
	b := slices.Clone(p.B)
	for j := range b {
		b[j] = 1.5*b[j] + 0.2*float64(j%5) // looser, unevenly: the old hot start is off
	}
	if err := s.SetB(b); err != nil {
		t.Fatal(err)
	}
	if !s.sample.cold {
		t.Fatal("SetB after New left the samples' hot start in place")
	}
	res, err := s.Solve(ctx)
	if err != nil || res.Status != StatusSolved {
		t.Fatalf("%v %v (%s)", err, res.Status, res.Message)
	}
	q := *p
	q.B = b
	fresh := solveOK(t, &q, nil)
	if d := testqp.Dist(res.X, fresh.X); d > 1e-9*(1+testqp.Norm(fresh.X)) {
		t.Errorf("SetB before the first Solve: %.3g from a fresh solver's answer", d)
	}
}

// TestSampledBadRowIndex: the samples' rows are checked before the engine
// on all rows (presolve), and a bad one must still be named by its index
// in A: a sampled row (every 20th) and one outside the samples.
func TestSampledBadRowIndex(t *testing.T) {
	for _, j := range []int{140, 141, 29980} {
		p := smallSVM(30000, 6)
		p.A.Row(j)[2] = math.NaN()
		_, err := New(p, nil)
		var e *activeset.InputError
		if !errors.As(err, &e) || e.Field != "A" || e.Index != j {
			t.Errorf("NaN in row %d: %v, want an InputError for A[%d]", j, err, j)
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
		checkFarkas(t, p, res)
	}
}

// TestSamplesStopAtTimeLimit: New's solves of the row samples stop at
// Options.TimeLimit (they had no deadline: a user's limit did not bound
// the set-up). With a limit that has passed when they start, each level
// stops at its first check with no row admitted, and Solve ends at the
// limit; without one the sample's active rows make the hot start.
func TestSamplesStopAtTimeLimit(t *testing.T) {
	p := smallSVM(40000, 12)
	s, err := New(p, &Options{TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.sample.levels) != 1 || len(s.sample.rowsIn) != 0 {
		t.Fatalf("%d levels, hot start of %d rows from samples stopped at once, want 1 level and none", len(s.sample.levels), len(s.sample.rowsIn))
	}
	res, err := s.Solve(context.Background())
	if err != nil || res.Status != StatusTimeLimit {
		t.Fatalf("%v %v, want time_limit", err, res.Status)
	}
	free, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(free.sample.rowsIn) == 0 {
		t.Fatal("no hot-start rows from the samples without a limit")
	}
}
