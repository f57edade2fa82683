package solver

import (
	"context"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// TestObserve: every inner method calls Observe with a rising step count
// once in every window of ObserveEvery steps (no window skipped: the largest
// single jump of the count, a full gradient of l + m = 200 steps, is shorter
// than a window), with an iterate of length N, and the observed iterates
// approach the reference solution.
func TestObserve(t *testing.T) {
	p, ref := loadQP(t, 1)
	for _, m := range penaltyMethods {
		t.Run(m.String(), func(t *testing.T) {
			const every = 500
			var calls, skipped int
			var last int64
			var lastErr float64
			opt := &Options{Method: m, MaxSteps: 2e6, Seed: 1, Tol: 1e-9, NoPolish: true, ObserveEvery: every,
				Observe: func(steps int64, x []float64) {
					calls++
					if len(x) != p.N {
						t.Fatalf("len(x) = %d, want %d", len(x), p.N)
					}
					if steps/every <= last/every {
						t.Fatalf("observed at %d after %d: twice in one window of %d steps", steps, last, every)
					}
					skipped += int(steps/every - last/every - 1)
					last = steps
					lastErr = testqp.RelErr(x, ref.X)
				}}
			res := solveOK(t, p, opt)
			if calls == 0 {
				t.Fatal("Observe never called")
			}
			// The last window may end the solve before it is observed.
			if skipped > 0 || res.Steps/every-last/every > 1 {
				t.Errorf("%d calls over %d steps (last at %d): %d windows skipped", calls, res.Steps, last, skipped)
			}
			if lastErr > 0.2 { // loose: plain SGD is slow on this problem
				t.Errorf("last observed relative error %.3g", lastErr)
			}
		})
	}
}

// TestObserveNilAllocs: without an observer a warm re-solve still allocates
// nothing (the observer hooks cost nothing when unset).
func TestObserveNilAllocs(t *testing.T) {
	p, _ := loadQP(t, 1)
	for _, m := range penaltyMethods {
		s, err := New(p, &Options{Method: m, MaxSteps: 1e5, Seed: 1, NoPolish: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		s.Solve(ctx)
		if a := testing.AllocsPerRun(3, func() { s.Solve(ctx) }); a != 0 {
			t.Errorf("%v: allocates %v times with Observe nil", m, a)
		}
	}
}
