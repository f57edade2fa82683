package activeset

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestBudget: a deadline in the past (the context's, or Options.TimeLimit
// counted from SolveFrom's start) ends a solve at once with
// StatusTimeLimit, a canceled context with StatusCanceled, each with a
// certificate of its point; without them the same Solver solves.
func TestBudget(t *testing.T) {
	past, cancelPast := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelPast()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name  string
		limit time.Duration
		solve func(s *Solver) *Result
		want  Status
	}{
		{"context deadline", 0, func(s *Solver) *Result { return s.Solve(past) }, StatusTimeLimit},
		{"time limit", time.Hour, func(s *Solver) *Result { return s.SolveFrom(ctx, time.Now().Add(-2*time.Hour)) }, StatusTimeLimit},
		{"canceled", 0, func(s *Solver) *Result { return s.Solve(canceled) }, StatusCanceled},
	} {
		s, err := New(separable(20000, 50, 3), &Options{TimeLimit: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		r := c.solve(s)
		if r.Status != c.want || r.Steps != 0 || math.IsNaN(r.Gap) {
			t.Errorf("%s: status %v after %d changes, gap %v; want %v at once", c.name, r.Status, r.Steps, r.Gap, c.want)
		}
		// The unconstrained minimiser violates rows: no distance bound.
		if r.MaxViolation < 1e-3 || r.Feasible {
			t.Errorf("%s: violation %.3g, feasible %v; want a violated point, not feasible", c.name, r.MaxViolation, r.Feasible)
		}
		r = s.Solve(nil)
		if c.limit > 0 {
			certified(t, c.name+", then from now", r, 1e-12)
		} else {
			certified(t, c.name+", then no context", r, 1e-12)
		}
		if !r.Feasible {
			t.Errorf("%s, then unbounded: the exact answer is not feasible to rounding (violation %.3g)", c.name, r.MaxViolation)
		}
	}
}

// TestMaxSteps: a caller's Options.MaxSteps ends a solve that needs more
// working-set changes with StatusMaxSteps after exactly that many, with a
// certificate of its point.
func TestMaxSteps(t *testing.T) {
	p := separable(2000, 20, 4)
	full := mustNew(t, p).Solve(ctx)
	certified(t, "unbounded", full, 1e-12)
	steps := full.Steps / 2
	s, err := New(p, &Options{MaxSteps: steps})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Solve(ctx)
	if r.Status != StatusMaxSteps || r.Steps != steps || math.IsNaN(r.Gap) {
		t.Errorf("MaxSteps %d (the solve needs %d): status %v after %d changes, gap %v", steps, full.Steps, r.Status, r.Steps, r.Gap)
	}
}

// TestBudgetAllocs: a warm re-solve under a context with a deadline and a
// cancel function allocates nothing, as under none.
func TestBudgetAllocs(t *testing.T) {
	p, _ := paperQP(t, "s1")
	s := mustNew(t, p)
	c, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	s.Solve(c)
	if a := testing.AllocsPerRun(10, func() {
		s.Reset()
		s.SolveFrom(c, time.Now())
	}); a != 0 {
		t.Errorf("warm re-solve under a context: %v allocations", a)
	}
}

// TestSafetyBoundUnderMaxSteps: the safety bound on working-set changes
// holds whatever the caller's MaxSteps, which replaces it only when
// smaller. x in [-1e19, 1e19] with rows x >= 0.916 and x <= -1.463, exact
// opposites whose null direction leaves A'y at -8e-20 or so by rounding,
// which either bound turns into -0.8 of the box's minimum, more than the
// pair's margin: with MaxSteps 1e9 the loop cycled until the time limit
// (before TestSkippedRowsStaySkipped); it must end within the safety
// bound.
func TestSafetyBoundUnderMaxSteps(t *testing.T) {
	rows := [][]float64{{-1.004}, {-1.179}, {1.004}, {0.296}, {-0.000981}, {0.296}}
	b := []float64{1.469, 0.998, -1.469, 0.552, -0.000899, -0.000899}
	safety := safetySteps(1, len(rows))
	for _, c := range []struct {
		max  int
		want int
		st   Status
	}{{0, safety, StatusPrecisionLimit}, {10, 10, StatusMaxSteps}, {safety, safety, StatusMaxSteps}, {1e9, safety, StatusPrecisionLimit}} {
		p := &Problem{N: 1, H: dense([][]float64{{0.245225}}), C: []float64{2.067},
			A: dense(rows), B: b, Lower: []float64{-1e19}, Upper: []float64{1e19}}
		s, err := New(p, &Options{MaxSteps: c.max, TimeLimit: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if got, st := s.stepLimit(); got != c.want || st != c.st {
			t.Errorf("MaxSteps %d: step limit %d (%v), want %d (%v)", c.max, got, st, c.want, c.st)
		}
		if r := s.Solve(ctx); r.Steps > c.want+maxResumes+1 || r.Status == StatusTimeLimit {
			t.Errorf("MaxSteps %d: %v after %d working-set changes, want at most the step limit %d", c.max, r.Status, r.Steps, c.want)
		}
	}
}
