package activeset

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestViolationSkipsOnlySatisfiedRows: the certificate's violation pass
// skips rows that mostViolated's stored bounds prove satisfied; the
// figures must be those of a pass over every row, bit for bit: at the
// optimum of problems with many inactive rows, at a point stopped by a
// deadline (violated rows), and at a warm re-solve after SetB.
func TestViolationSkipsOnlySatisfiedRows(t *testing.T) {
	check := func(name string, s *Solver) {
		t.Helper()
		r := s.res
		s.forgetViolations() // every row recomputed
		s.violation()
		f := s.res
		if f.MaxViolation != r.MaxViolation || f.SumViolation != r.SumViolation ||
			f.Complementarity != r.Complementarity || f.Feasible != r.Feasible {
			t.Errorf("%s: with skipping max %v sum %v comp %v feasible %v; every row %v %v %v %v",
				name, r.MaxViolation, r.SumViolation, r.Complementarity, r.Feasible,
				f.MaxViolation, f.SumViolation, f.Complementarity, f.Feasible)
		}
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for _, box := range []bool{false, true} {
		s := mustNew(t, randomQP(rng, 20, 2000, 1e3, box))
		s.Solve()
		check("random QP", s)
	}
	s := mustNew(t, separable(20000, 20, 5))
	s.Solve()
	check("separable", s)
	b := make([]float64, s.m)
	for j := range b {
		b[j] = -1 + 0.01*rng.Float64()
	}
	if err := s.SetB(b); err != nil {
		t.Fatal(err)
	}
	s.Solve()
	check("separable after SetB", s)
	s = mustNew(t, separable(20000, 20, 6))
	s.SetDeadline(time.Now().Add(-time.Second))
	if r := s.Solve(); r.Status != StatusTimeLimit || r.MaxViolation == 0 {
		t.Fatalf("past deadline: status %v, violation %v", r.Status, r.MaxViolation)
	}
	check("deadline", s)
}
