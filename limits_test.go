package softpen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// TestMemoryEstimate: MemoryEstimate against what Solve allocates
// (runtime.MemStats.TotalAlloc), within the bounds its documentation
// states: 0.7x to 1.3x on dense problems, at least 0.7x and at most 6x with
// a working set.
func TestMemoryEstimate(t *testing.T) {
	qp, _ := readQP(t, 1)
	svm, _ := loadMushrooms(t)
	cases := []struct {
		name   string
		p      *Problem
		lo, hi float64
	}{
		{"paper-qp", qp, 0.7, 1.3},
		{"mushrooms", svm, 0.7, 1.3},
		{"n=2^20, one row", oneRow(1 << 20), 0.7, 1.3},
		{"logistic (Newton)", logisticQP(2000, 100, 100), 0.7, 1.3},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			name   string
			p      *Problem
			lo, hi float64
		}{"large-qp (working set)", largeQP(2000, 100000, 100), 0.7, 6}, struct {
			name   string
			p      *Problem
			lo, hi float64
		}{"separable SVM, m = 2.5e5 (direct, sampled start)", separableSVM(250000, 10), 0.7, 1.3})
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
		} else {
			t.Logf("%s: estimate/allocated %.2f", c.name, r)
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
	huge := &Problem{N: math.MaxInt / 2, Loss: "none"}
	if est := huge.MemoryEstimate(); est <= 0 {
		t.Errorf("n = %d: estimate %d", huge.N, est)
	}
}

// TestSolveRefusesOverMemory: the library checks the estimate too (it used
// to be the command line only): Solve and NewSolver on 2^26 variables
// return a *MemoryError naming the estimate and the limit, before
// allocating anything of that size; Options.MaxMemory lowers or raises the
// limit, and a negative value removes it.
func TestSolveRefusesOverMemory(t *testing.T) {
	p, err := ReadProblem(strings.NewReader(`{"n": 67108864, "loss": "none", "ridge": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Solve(context.Background(), p, nil)
	runtime.ReadMemStats(&after)
	var me *MemoryError
	if !errors.As(err, &me) || me.Limit != DefaultMemoryLimit || me.Estimate != p.MemoryEstimate() {
		t.Fatalf("Solve: %v, want a *MemoryError at the default limit", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("Solve allocated %d bytes before refusing", grew)
	}
	for _, w := range []string{"Options.MaxMemory", "4GiB", FormatBytes(me.Estimate)} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
	if _, err := NewSolver(p, &Options{MaxMemory: 1 << 30}); !errors.As(err, &me) || me.Limit != 1<<30 {
		t.Errorf("NewSolver, MaxMemory 1GiB: %v", err)
	}
	if err := p.CheckMemory(&Options{MaxMemory: -1}); err != nil {
		t.Errorf("MaxMemory -1: %v, want no limit", err)
	}
	// A small problem under a limit set below its estimate is refused too.
	small := &Problem{N: 2, Loss: "none", Ridge: 1}
	if _, err := Solve(context.Background(), small, &Options{MaxMemory: 100}); !errors.As(err, &me) || me.Limit != 100 {
		t.Errorf("MaxMemory 100 bytes: %v", err)
	}
	if res, err := Solve(context.Background(), small, nil); err != nil || res.Status != StatusSolved {
		t.Errorf("default limit, 2 variables: %v", err)
	}
}

// logisticQP is a logistic regression with l examples, n features and m
// rows a_j'x <= b_j that hold at 0 (b > 0).
func logisticQP(l, n, m int) *Problem {
	r := rand.New(rand.NewPCG(uint64(l), uint64(n*m)))
	p := &Problem{N: n, Loss: "logistic", Ridge: 1e-3}
	for i := 0; i < l; i++ {
		row := make([]float64, n)
		for k := range row {
			row[k] = r.NormFloat64()
		}
		p.Phi, p.Y = append(p.Phi, row), append(p.Y, float64(2*r.IntN(2)-1))
	}
	for j := 0; j < m; j++ {
		row := make([]float64, n)
		for k := range row {
			row[k] = r.NormFloat64()
		}
		p.A, p.B = append(p.A, row), append(p.B, 0.1+r.Float64())
	}
	return p
}

// oneRow is the problem min 1/2 ||x||^2 s.t. sum x >= 1 in n variables, all
// of them in its one row (none is separable, columns.go).
func oneRow(n int) *Problem {
	a := make([]float64, n)
	for j := range a {
		a[j] = -1
	}
	return &Problem{N: n, Loss: "none", Ridge: 1, A: [][]float64{a}, B: []float64{-1}}
}
