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

// TestPenaltyWeight: penaltyWeight is 2 max(max_j lambda_j, max_i |nu_i|, 0)
// as the builtin max forms it, bit for bit (a -0 multiplier leaves +0),
// and NaN when a multiplier is NaN.
func TestPenaltyWeight(t *testing.T) {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	for _, c := range []struct{ lambda, nu []float64 }{
		{nil, nil},
		{[]float64{0, negZero, 0}, []float64{negZero}},
		{[]float64{0, 3, 1e-300, 2}, []float64{-5, 4}},
		{[]float64{1, nan, 7}, nil},
		{[]float64{1, 2}, []float64{nan, -9}},
		{[]float64{math.Inf(1), 1}, []float64{-3}},
		{[]float64{negZero}, []float64{negZero, 0}},
	} {
		want := 0.0
		for _, l := range c.lambda {
			want = max(want, 2*l)
		}
		for _, l := range c.nu {
			want = max(want, 2*math.Abs(l))
		}
		got := penaltyWeight(c.lambda, c.nu)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("lambda %v nu %v: %v, want %v", c.lambda, c.nu, got, want)
		}
	}
}
