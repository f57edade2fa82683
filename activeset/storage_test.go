package activeset

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
)

// sameResult reports how r differs from want, bit for bit, or "".
func sameResult(r, want *Result) string {
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	switch {
	case r.Status != want.Status || r.Steps != want.Steps || r.Active != want.Active || r.Feasible != want.Feasible:
		return fmt.Sprintf("status %v steps %d active %d feasible %v, want %v %d %d %v",
			r.Status, r.Steps, r.Active, r.Feasible, want.Status, want.Steps, want.Active, want.Feasible)
	case math.Float64bits(r.Objective) != math.Float64bits(want.Objective):
		return fmt.Sprintf("objective %v, want %v", r.Objective, want.Objective)
	case !slices.Equal(bits(r.X), bits(want.X)):
		return "x differs"
	case !slices.Equal(bits(r.Lambda), bits(want.Lambda)) || !slices.Equal(bits(r.Nu), bits(want.Nu)) || !slices.Equal(bits(r.Z), bits(want.Z)):
		return "multipliers differ"
	case !slices.Equal(bits(r.FarkasA), bits(want.FarkasA)) || !slices.Equal(bits(r.FarkasEq), bits(want.FarkasEq)):
		return "Farkas certificate differs"
	}
	return ""
}

// TestLoadSameBitsAsNew: a Solver loaded with a problem in the storage of
// another (load) solves it as a new Solver does, bit for bit, the first
// solve and a re-solve after SetB, whatever the problem it held before:
// every family (feasible and not), H dense and diagonal, growing and
// shrinking shapes, and H with the caller's factor.
func TestLoadSameBitsAsNew(t *testing.T) {
	var probs []*Problem
	var names []string
	for _, n := range []int{12, 2, 40} {
		for _, fam := range qpgen.Families() {
			for seed := uint64(1); seed <= 2; seed++ {
				probs = append(probs, fromGen(qpgen.Generate(fam, n, seed)))
				names = append(names, fmt.Sprintf("%s/n%d/s%d", fam, n, seed))
			}
		}
	}
	// A diagonal H, then the caller's factor of a dense one.
	q := fromGen(qpgen.Generate("bounds-mixed", 12, 5))
	diag := *q
	diag.H = mat.NewDense(12, 12)
	for i := 0; i < 12; i++ {
		diag.H.Data[i*12+i] = 1 + float64(i)
	}
	factored := *q
	factored.Factor = new(mat.Cholesky)
	if err := factored.Factor.Factor(q.H); err != nil {
		t.Fatal(err)
	}
	probs = append(probs, &diag, &factored, q)
	names = append(names, "diagonal H", "given factor", "dense H after the given factor")

	s := mustNew(t, probs[len(probs)-1])
	s.Solve(ctx)
	for i, p := range probs {
		if err := s.Load(p, nil); err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		fresh := mustNew(t, p)
		if d := sameResult(s.Solve(ctx), fresh.Solve(ctx)); d != "" {
			t.Errorf("%s: first solve: %s", names[i], d)
		}
		b := slices.Clone(p.B)
		for j := range b {
			b[j] += 0.01 * float64(j%3)
		}
		if len(b) > 0 {
			if err := s.SetB(b); err != nil {
				t.Fatal(err)
			}
			if err := fresh.SetB(b); err != nil {
				t.Fatal(err)
			}
		}
		if d := sameResult(s.Solve(ctx), fresh.Solve(ctx)); d != "" {
			t.Errorf("%s: re-solve: %s", names[i], d)
		}
	}
}

// TestLoadBadProblem: a load that fails names the field as New does, and
// the Solver takes the next problem as if it had never held the bad one.
func TestLoadBadProblem(t *testing.T) {
	good := fromGen(qpgen.Generate("cond-dense", 12, 1))
	bad := *good
	bad.A = mat.NewDense(good.A.Rows, 12)
	copy(bad.A.Data, good.A.Data)
	bad.A.Data[3*12+5] = math.NaN()
	s := mustNew(t, good)
	s.Solve(ctx)
	_, want := New(&bad, nil)
	err := s.Load(&bad, nil)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("load of a NaN entry: %v, want %v", err, want)
	}
	if err := s.Load(good, nil); err != nil {
		t.Fatal(err)
	}
	if d := sameResult(s.Solve(ctx), mustNew(t, good).Solve(ctx)); d != "" {
		t.Errorf("after a failed load: %s", d)
	}
}

// TestLoadAllocatesNothing: problems of one shape loaded in turn into one
// Solver, each solved once or twice (the second a re-solve, with the
// transformed normals, which a load between two single solves keeps too),
// allocate nothing. The families are those whose solves take no step in
// exact arithmetic (math/big: dependent equalities and rows implied
// exactly, Farkas certificates), which allocates in any solve.
func TestLoadAllocatesNothing(t *testing.T) {
	for _, fam := range []string{"cond-dense", "bounds-mixed", "degenerate-vertex", "many-rows", "row-near-copy", "infeas-zero-row"} {
		// Of one shape: the seed's problem with its data moved.
		p1 := fromGen(qpgen.Generate(fam, 20, 1))
		p2 := moved(p1)
		s := mustNew(t, p1)
		s.Solve(ctx)
		s.Solve(ctx)
		allocs := testing.AllocsPerRun(10, func() {
			for k, solves := range []int{2, 1, 1, 2} {
				p := p1
				if k%2 == 1 {
					p = p2
				}
				if err := s.Load(p, nil); err != nil {
					t.Fatal(err)
				}
				for range solves {
					s.Solve(ctx)
				}
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations in four loads and six solves", fam, allocs)
		}
	}
}

// moved returns a copy of p of the same shape with H and C moved by a few
// percent (H stays symmetric) and each B raised a little (a feasible
// problem stays feasible).
func moved(p *Problem) *Problem {
	q := *p
	f := func(i int) float64 { return 1 + 0.03*float64(i%5-2) }
	q.H = mat.NewDense(p.N, p.N)
	for i := 0; i < p.N; i++ {
		for j := 0; j < p.N; j++ {
			q.H.Data[i*p.N+j] = p.H.Data[i*p.N+j] * f(i+j)
		}
		q.H.Data[i*p.N+i] += 1
	}
	q.C = slices.Clone(p.C)
	for i := range q.C {
		q.C[i] *= f(i)
	}
	q.B = slices.Clone(p.B)
	for i := range q.B {
		q.B[i] += 0.01 * (1 + math.Abs(q.B[i]))
	}
	return &q
}

// TestLoadFromOwnResult: a problem whose C and B are the Solver's own
// Result vectors loads as New takes it (in new storage).
func TestLoadFromOwnResult(t *testing.T) {
	p := fromGen(qpgen.Generate("cond-dense", 12, 1))
	s := mustNew(t, p)
	r := s.Solve(ctx)
	q := *p
	q.C = r.X
	q.B = r.Lambda
	want := mustNew(t, &q).Solve(ctx)
	if err := s.Load(&q, nil); err != nil {
		t.Fatal(err)
	}
	if d := sameResult(s.Solve(ctx), want); d != "" {
		t.Errorf("C and B from the Result: %s", d)
	}
}
