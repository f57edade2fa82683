package activeset

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
)

// perturbed returns a different objective for q's constraints: H' = 2H +
// diag(1 + i%3) and c' = c/2 + 1 on alternate signs, and the factor of the new H.
func perturbed(q *qpgen.QP) (*mat.Dense, []float64, *mat.Cholesky) {
	n := q.N
	h := dense(q.H)
	for i := range h.Data {
		h.Data[i] *= 2
	}
	for i := 0; i < n; i++ {
		h.Data[i*n+i] += 1 + float64(i%3)
	}
	c := make([]float64, n)
	for i := range c {
		c[i] = q.C[i]/2 + float64(1-2*(i%2))
	}
	var f mat.Cholesky
	if err := f.Factor(h); err != nil {
		panic(err)
	}
	return h, c, &f
}

// TestSetObjective solves each feasible family under another objective
// first, then switches to the generator's objective with SetObjective and
// judges the hot-started answer with the generator's big.Float KKT check;
// with and without l1, and switching back and forth twice so that a set
// built under one metric is rebuilt under the other.
func TestSetObjective(t *testing.T) {
	for _, fam := range []string{"cond-dense", "cond-diag", "bounds-mixed", "eq-dependent", "ineq-duplicate", "degenerate-vertex", "big-multipliers", "many-rows"} {
		worst := 0.0
		for _, n := range []int{1, 3, 12, 40} {
			for seed := uint64(1); seed <= 3; seed++ {
				q := qpgen.Generate(fam, n, seed)
				for _, l1 := range []float64{0, 0.5} {
					name := fmt.Sprintf("%s/n%d/s%d/l1=%g", fam, n, seed, l1)
					h2, c2, f2 := perturbed(q)
					p := fromGen(q)
					p.H, p.C, p.L1 = h2, c2, l1
					s := mustNew(t, p)
					h, c := dense(q.H), q.C
					var f mat.Cholesky
					if err := f.Factor(h); err != nil {
						t.Fatal(err)
					}
					var r *Result
					for round := 0; round < 2; round++ {
						s.Solve(ctx)
						if err := s.SetObjective(h, c, &f); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						r = s.Solve(ctx)
						if round == 0 {
							if err := s.SetObjective(h2, c2, f2); err != nil {
								t.Fatalf("%s: %v", name, err)
							}
						}
					}
					if r.Status != StatusSolved {
						t.Errorf("%s: status %v after %d iterations", name, r.Status, r.Steps)
						continue
					}
					worst = math.Max(worst, checkKKTWithL1(t, name, q, r))
				}
			}
		}
		t.Logf("%-18s after SetObjective: worst KKT %.2g", fam, worst)
	}
}

// TestSetObjectiveAllocs: switching the objective and re-solving allocates
// nothing.
func TestSetObjectiveAllocs(t *testing.T) {
	q := qpgen.Generate("cond-dense", 30, 2)
	h2, c2, f2 := perturbed(q)
	p := fromGen(q)
	s := mustNew(t, p)
	h, c := dense(q.H), q.C
	var f mat.Cholesky
	if err := f.Factor(h); err != nil {
		t.Fatal(err)
	}
	s.Solve(ctx)
	flip := false
	allocs := testing.AllocsPerRun(20, func() {
		flip = !flip
		var err error
		if flip {
			err = s.SetObjective(h2, c2, f2)
		} else {
			err = s.SetObjective(h, c, &f)
		}
		if err != nil {
			t.Fatal(err)
		}
		s.Solve(ctx)
	})
	if allocs != 0 {
		t.Errorf("SetObjective + Solve: %v allocations, want 0", allocs)
	}
}

// TestSetObjectiveBadInput: a wrong size, a missing factor or c, and a
// non-finite entry of c are errors naming the field (and the index), and
// leave the solver solving the old objective.
func TestSetObjectiveBadInput(t *testing.T) {
	q := qpgen.Generate("cond-dense", 10, 1)
	// want: the second solve of a solver that was never refused anything.
	ref := mustNew(t, fromGen(q))
	ref.Solve(ctx)
	want := ref.Solve(ctx).Objective
	s := mustNew(t, fromGen(q))
	s.Solve(ctx)
	h, c := dense(q.H), append([]float64(nil), q.C...)
	var f mat.Cholesky
	if err := f.Factor(h); err != nil {
		t.Fatal(err)
	}
	nan := append([]float64(nil), c...)
	nan[3] = math.NaN()
	for _, tc := range []struct {
		name  string
		h     *mat.Dense
		c     []float64
		f     *mat.Cholesky
		field string
		index int
	}{
		{"small H", mat.NewDense(3, 3), c, &f, "H", -1},
		{"nil H", nil, c, &f, "H", -1},
		{"nil factor", h, c, nil, "Factor", -1},
		{"nil c", h, nil, &f, "C", -1},
		{"short c", h, c[:4], &f, "C", -1},
		{"NaN in c", h, nan, &f, "C", 3},
	} {
		err := s.SetObjective(tc.h, tc.c, tc.f)
		e, ok := err.(*InputError)
		if !ok || e.Field != tc.field || e.Index != tc.index {
			t.Errorf("%s: error %v, want field %s index %d", tc.name, err, tc.field, tc.index)
		}
	}
	if got := s.Solve(ctx).Objective; got != want {
		t.Errorf("after the refused calls the objective is %.17g, want %.17g", got, want)
	}
}

// TestSetC solves each feasible family under another linear term first,
// then switches to the generator's c with SetC and judges the hot-started
// answer with the generator's big.Float KKT check; with and without l1,
// switching back and forth twice. Without l1 the working set must be kept
// as it was (its members, in order: no member pushed again).
func TestSetC(t *testing.T) {
	for _, fam := range []string{"cond-dense", "cond-diag", "bounds-mixed", "eq-dependent", "ineq-duplicate", "degenerate-vertex", "big-multipliers", "many-rows"} {
		worst := 0.0
		for _, n := range []int{1, 3, 12, 40} {
			for seed := uint64(1); seed <= 3; seed++ {
				q := qpgen.Generate(fam, n, seed)
				for _, l1 := range []float64{0, 0.5} {
					name := fmt.Sprintf("%s/n%d/s%d/l1=%g", fam, n, seed, l1)
					_, c2, _ := perturbed(q)
					p := fromGen(q)
					p.C, p.L1 = c2, l1
					s := mustNew(t, p)
					var r *Result
					for round := 0; round < 2; round++ {
						s.Solve(ctx)
						before := append([]constraint(nil), s.ws...)
						if err := s.SetC(q.C); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if l1 == 0 && !slices.Equal(before, s.ws) {
							t.Errorf("%s: SetC changed the working set from %v to %v", name, before, s.ws)
						}
						r = s.Solve(ctx)
						if round == 0 {
							if err := s.SetC(c2); err != nil {
								t.Fatalf("%s: %v", name, err)
							}
						}
					}
					if r.Status != StatusSolved {
						t.Errorf("%s: status %v after %d iterations", name, r.Status, r.Steps)
						continue
					}
					worst = math.Max(worst, checkKKTWithL1(t, name, q, r))
				}
			}
		}
		t.Logf("%-18s after SetC: worst KKT %.2g", fam, worst)
	}
}

// TestSetCAllocs: switching c and re-solving allocates nothing, with and
// without l1 (which rebuilds the working set).
func TestSetCAllocs(t *testing.T) {
	for _, l1 := range []float64{0, 0.5} {
		q := qpgen.Generate("cond-dense", 30, 2)
		_, c2, _ := perturbed(q)
		p := fromGen(q)
		p.L1 = l1
		s := mustNew(t, p)
		s.Solve(ctx)
		flip := false
		allocs := testing.AllocsPerRun(20, func() {
			flip = !flip
			c := q.C
			if flip {
				c = c2
			}
			if err := s.SetC(c); err != nil {
				t.Fatal(err)
			}
			s.Solve(ctx)
		})
		if allocs != 0 {
			t.Errorf("l1 %g: SetC + Solve: %v allocations, want 0", l1, allocs)
		}
	}
}

// TestSetCBadInput: a missing, short or non-finite c is an error naming
// the field (and the index), and leaves the solver solving the old c.
func TestSetCBadInput(t *testing.T) {
	q := qpgen.Generate("cond-dense", 10, 1)
	ref := mustNew(t, fromGen(q))
	ref.Solve(ctx)
	want := ref.Solve(ctx).Objective
	s := mustNew(t, fromGen(q))
	s.Solve(ctx)
	nan := append([]float64(nil), q.C...)
	nan[3] = math.Inf(-1)
	for _, tc := range []struct {
		name  string
		c     []float64
		index int
	}{{"nil c", nil, -1}, {"short c", q.C[:4], -1}, {"-Inf in c", nan, 3}} {
		err := s.SetC(tc.c)
		e, ok := err.(*InputError)
		if !ok || e.Field != "C" || e.Index != tc.index {
			t.Errorf("%s: error %v, want field C index %d", tc.name, err, tc.index)
		}
	}
	if got := s.Solve(ctx).Objective; got != want {
		t.Errorf("after the refused calls the objective is %.17g, want %.17g", got, want)
	}
}
