package solver

import (
	"context"
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestLoadKeepsFactor: Load keeps the factor and mu of the model when P
// is the same (SameP), the ridge too and there is no loss, and only then;
// the answers are New's either way.
func TestLoadKeepsFactor(t *testing.T) {
	n := 6
	pm := mat.NewDense(n, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			pm.Data[i*n+j] = 1 / float64(1+i+j) // Hilbert: P's mu is tiny
		}
	}
	a := mat.NewDense(2, n)
	for j := 0; j < n; j++ {
		a.Data[j], a.Data[n+j] = 1, float64(j%3)-1
	}
	problem := func(ridge float64, same bool, shift float64) *Problem {
		q := make([]float64, n)
		for i := range q {
			q[i] = float64(i) - 2.5 + shift
		}
		return &Problem{N: n, P: pm, OwnP: true, Ridge: ridge, Q: q, A: a, B: []float64{1, 0.5}, SameP: same}
	}
	s, err := New(problem(0, false, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ridge float64
		same  bool
		keep  bool
	}{{0, true, true}, {0, false, false}, {0.1, true, false}, {0.1, true, true}, {0, true, false}} {
		p := problem(c.ridge, c.same, 0.3)
		ok, err := s.Load(p, nil)
		if !ok || err != nil {
			t.Fatalf("Load: %v %v", ok, err)
		}
		if s.keepFactor != c.keep {
			t.Errorf("ridge %v, SameP %v: kept the factor %v, want %v", c.ridge, c.same, s.keepFactor, c.keep)
		}
		fresh, err := New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(s.mu) != math.Float64bits(fresh.mu) {
			t.Errorf("ridge %v, SameP %v: mu %v, New's %v", c.ridge, c.same, s.mu, fresh.mu)
		}
		r, err := s.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		x := append([]float64(nil), r.X...)
		rf, err := fresh.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(rf.X[i]) {
				t.Fatalf("ridge %v, SameP %v: x differs from New's", c.ridge, c.same)
			}
		}
	}
}
