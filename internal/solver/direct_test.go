package solver

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTimeLimitInSetUp: a time limit that passes while New solves the
// samples leaves the engine on every row unbuilt; a Solve out of time then
// answers time_limit at once with the sample's point, uncertified, and
// says so; SetB builds the engine. An engine built by a later Solve gives
// the same answer, bit for bit, as one New built.
func TestTimeLimitInSetUp(t *testing.T) {
	ctx := context.Background()
	p := smallSVM(40000, 12)
	full, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := full.Solve(ctx)
	if err != nil || want.Status != StatusSolved {
		t.Fatalf("%v %v", err, want.Status)
	}
	start := time.Now()
	s, err := New(p, &Options{TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if s.direct != nil || s.pending == nil {
		t.Fatalf("engine built despite the time limit")
	}
	res, err := s.SolveFrom(ctx, start)
	if err != nil || res.Status != StatusTimeLimit || !math.IsInf(res.Gap, 1) || !strings.Contains(res.Message, "set-up") {
		t.Fatalf("%v: status %v, gap %g, message %q", err, res.Status, res.Gap, res.Message)
	}
	later, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	later.pending, later.cutX, later.direct = p, make([]float64, p.N), nil // as New leaves it out of time
	got, err := later.Solve(ctx)
	if err != nil || got.Status != StatusSolved || later.pending != nil || !slices.Equal(got.X, want.X) || got.Gap != want.Gap {
		t.Errorf("after the build: %v %v, gap %g against %g, same x %v", err, got.Status, got.Gap, want.Gap, slices.Equal(got.X, want.X))
	}
	s2, err := New(p, &Options{TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.SetB(p.B); err != nil || s2.direct == nil {
		t.Errorf("SetB: %v, engine built %v", err, s2.direct != nil)
	}
}
