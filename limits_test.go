package softpen

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestMemoryEstimate: MemoryEstimate against what Solve allocates
// (runtime.MemStats.TotalAlloc), within the bounds its documentation
// states: 0.7x to 1.3x on dense problems, at least 0.7x and at most 6x with
// a working set.
func TestMemoryEstimate(t *testing.T) {
	qp := readQP(t, 1)
	svm, _ := loadMushrooms(t)
	cases := []struct {
		name   string
		p      *Problem
		lo, hi float64
	}{
		{"paper-qp", qp, 0.7, 1.3},
		{"mushrooms", svm, 0.7, 1.3},
		{"n=2^20, no rows", &Problem{N: 1 << 20, Loss: "none", Ridge: 1}, 0.7, 1.3},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			name   string
			p      *Problem
			lo, hi float64
		}{"large-qp (working set)", largeQP(2000, 100000, 100), 0.7, 6})
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := Solve(context.Background(), c.p, &Options{Tol: 1e-4})
		runtime.ReadMemStats(&after)
		if err != nil || res.Status != StatusSolved {
			t.Fatalf("%s: %v, %v", c.name, err, res)
		}
		got := float64(after.TotalAlloc - before.TotalAlloc)
		est := c.p.MemoryEstimate()
		if r := float64(est) / got; !(r >= c.lo && r <= c.hi) {
			t.Errorf("%s: estimate %d bytes, Solve allocated %.0f: ratio %.2f, want %g to %g", c.name, est, got, r, c.lo, c.hi)
		}
	}
}

// TestMemoryEstimateRefusesHuge: the problem of issue 18, {"n": 67108864,
// "loss": "none", "ridge": 1} (3.4 GB resident when solved), is above the
// default limit, and estimating it allocates nothing.
func TestMemoryEstimateRefusesHuge(t *testing.T) {
	p, err := ReadProblem(strings.NewReader(`{"n": 67108864, "loss": "none", "ridge": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	if est := p.MemoryEstimate(); est <= DefaultMemoryLimit {
		t.Errorf("estimate %d bytes, not above the default limit %d", est, DefaultMemoryLimit)
	}
	if a := testing.AllocsPerRun(10, func() { p.MemoryEstimate() }); a != 0 {
		t.Errorf("%v allocations", a)
	}
	// Absurd sizes saturate rather than overflow.
	huge := &Problem{N: 1 << 62, Loss: "none"}
	if est := huge.MemoryEstimate(); est <= 0 {
		t.Errorf("n = 2^62: estimate %d", est)
	}
}
