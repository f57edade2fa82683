package softpen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// TestLoadSameAsNewSolver: one Solver loaded with the adversarial families'
// problems one after the other (every shape, l1, the squared loss, bounds,
// equalities, infeasible draws, separable variables) answers each as a new
// Solver does, bit for bit: the first solve and a re-solve after SetB.
func TestLoadSameAsNewSolver(t *testing.T) {
	draws := 6
	if testing.Short() {
		draws = 2
	}
	var s *Solver
	loaded := 0
	for fi, fam := range advFamilies() {
		rng := rand.New(rand.NewSource(int64(900 + fi)))
		for it := range draws {
			p := fam.draw(rng)
			label := fmt.Sprintf("%s %d", fam.name, it)
			if s == nil {
				var err error
				if s, err = NewSolver(p, nil); err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				continue
			}
			fresh, errNew := NewSolver(p, nil)
			if err := s.Load(p); (err == nil) != (errNew == nil) {
				t.Fatalf("%s: Load: %v, NewSolver: %v", label, err, errNew)
			} else if err != nil {
				continue
			}
			loaded++
			compareLoaded(t, label, s, fresh)
			if len(p.B) > 0 {
				b := slices.Clone(p.B)
				b[rng.Intn(len(b))] += 0.1
				if err := s.SetB(b); err != nil {
					t.Fatal(err)
				}
				if err := fresh.SetB(b); err != nil {
					t.Fatal(err)
				}
				compareLoaded(t, label+" after SetB", s, fresh)
			}
		}
	}
	if loaded == 0 {
		t.Fatal("nothing loaded")
	}
}

// compareLoaded fails t unless s and fresh solve to the same bits.
func compareLoaded(t *testing.T, label string, s, fresh *Solver) {
	t.Helper()
	ctx := context.Background()
	r, err := s.Solve(ctx)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	got := advClone(r)
	want, err := fresh.Solve(ctx)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if !advSameBits(got, want) || got.Steps != want.Steps || !slices.Equal(got.Lambda, want.Lambda) {
		t.Errorf("%s: loaded %v gap %v steps %d, new %v gap %v steps %d", label,
			got.Status, got.Gap, got.Steps, want.Status, want.Gap, want.Steps)
	}
}

// mpcProblems returns two problems of the double integrator's shape at
// horizon 10 whose data all differ: the second's A and P moved by a few
// percent (a model that changes with the operating point).
func mpcProblems(t *testing.T) (*Problem, *Problem) {
	run, err := testqp.MPCSequence("double-integrator", 10, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	p1 := &Problem{N: run.N, P: run.H, Q: run.Steps[0].Q, Lower: run.Lower, Upper: run.Upper, A: run.A, B: run.Steps[0].B}
	p2 := *p1
	p2.Q, p2.B = run.Steps[1].Q, run.Steps[1].B
	p2.A = make([][]float64, len(run.A))
	for i, r := range run.A {
		p2.A[i] = slices.Clone(r)
		for j := range r {
			p2.A[i][j] *= 1 + 0.02*float64((i+j)%3-1)
		}
	}
	p2.P = make([][]float64, len(run.H))
	for i, r := range run.H {
		p2.P[i] = slices.Clone(r)
		p2.P[i][i] *= 1.05
	}
	return p1, &p2
}

// TestLoadAllocatesNothing: problems of one shape loaded in turn and
// solved allocate nothing (the double integrator with its model moved).
func TestLoadAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocations are not the program's own")
	}
	p1, p2 := mpcProblems(t)
	s, err := NewSolver(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	k := 0
	allocs := testing.AllocsPerRun(50, func() {
		p := p1
		if k++; k%2 == 0 {
			p = p2
		}
		if err := s.Load(p); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if r, err := s.Solve(ctx); err != nil || r.Status != StatusSolved {
				t.Fatalf("%v %v", r.Status, err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Load and two solves allocate %v times, want 0", allocs)
	}
}

// TestLoadBadProblem: a Load of bad data returns NewSolver's error; the
// Solver then refuses to solve until a Load succeeds, and answers that
// problem as a new Solver does.
func TestLoadBadProblem(t *testing.T) {
	p1, p2 := mpcProblems(t)
	s, err := NewSolver(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := *p2
	bad.A = slices.Clone(p2.A)
	bad.A[3] = slices.Clone(p2.A[3])
	bad.A[3][1] = math.NaN()
	_, want := NewSolver(&bad, nil)
	err = s.Load(&bad)
	if err == nil || want == nil || err.Error() != want.Error() || !strings.Contains(err.Error(), "3") {
		t.Fatalf("Load of a NaN in A[3][1]: %v, want %v", err, want)
	}
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Errorf("Load's error %T is not an *InputError", err)
	}
	if _, err := s.Solve(context.Background()); err == nil {
		t.Error("Solve after a failed Load: no error")
	}
	if err := s.SetB(p2.B); err == nil {
		t.Error("SetB after a failed Load: no error")
	}
	if err := s.Load(p2); err != nil {
		t.Fatal(err)
	}
	fresh, err := NewSolver(p2, nil)
	if err != nil {
		t.Fatal(err)
	}
	compareLoaded(t, "after a failed Load", s, fresh)
}

// TestLoadSamePBadProblem: Load leaves out the checks of a P that is the
// held one's bit for bit (sameP); every P that is not, by a row's length,
// a NaN, an Inf or an asymmetry, and every other bad field beside the
// held P, still gets NewSolver's error, and the Solver then loads the good
// problem again as a new Solver would.
func TestLoadSamePBadProblem(t *testing.T) {
	p1, _ := mpcProblems(t)
	n := p1.N
	withP := func(edit func(pm [][]float64)) *Problem {
		q := *p1
		q.P = make([][]float64, n)
		for i, r := range p1.P {
			q.P[i] = slices.Clone(r)
		}
		edit(q.P)
		return &q
	}
	badQ := *p1
	badQ.Q = p1.Q[:n-1]
	nanQ := *p1
	nanQ.Q = slices.Clone(p1.Q)
	nanQ.Q[2] = math.NaN()
	wrongN := *p1
	wrongN.N = n + 1
	cases := []struct {
		name string
		p    *Problem
	}{
		{"a row of P one too long", withP(func(pm [][]float64) { pm[1] = append(pm[1], 0) })},
		{"a row of P one too short", withP(func(pm [][]float64) { pm[n-1] = pm[n-1][:n-1] })},
		{"a NaN in P", withP(func(pm [][]float64) { pm[2][2] = math.NaN() })},
		{"an Inf in P", withP(func(pm [][]float64) { pm[0][1], pm[1][0] = math.Inf(1), math.Inf(1) })},
		{"P not symmetric", withP(func(pm [][]float64) { pm[0][1] += 1 })},
		{"P one row short", withP(func(pm [][]float64) {})},
		{"q one entry short", &badQ},
		{"a NaN in q", &nanQ},
		{"n one larger than P", &wrongN},
	}
	cases[5].p.P = cases[5].p.P[:n-1]
	s, err := NewSolver(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		_, want := NewSolver(c.p, nil)
		err := s.Load(c.p)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: Load's error %v, NewSolver's %v", c.name, err, want)
		}
		if err := s.Load(p1); err != nil {
			t.Fatalf("%s: Load of the good problem after it: %v", c.name, err)
		}
	}
	fresh, err := NewSolver(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	compareLoaded(t, "after the bad problems", s, fresh)
}

// TestLoadSamePSameAsNewSolver: a Load whose P is the last one's keeps its
// factor and certified mu; every answer along a sequence that keeps P,
// moves the ridge, drops P and brings it back, and fails a Load in
// between, is a new Solver's bit for bit.
func TestLoadSamePSameAsNewSolver(t *testing.T) {
	p1, p2 := mpcProblems(t)
	samePMoved := *p2
	samePMoved.P = p1.P
	ridged := *p1
	ridged.Ridge = 0.5
	noP := *p1
	noP.P, noP.Ridge = nil, 1
	bad := *p1
	bad.A = slices.Clone(p1.A)
	bad.A[0] = slices.Clone(p1.A[0])
	bad.A[0][0] = math.Inf(1)
	seq := []struct {
		name string
		p    *Problem
	}{
		{"the same problem", p1}, {"the same P, the rest moved", &samePMoved}, {"a ridge", &ridged},
		{"the same P, no ridge", p1}, {"no P", &noP}, {"P again", p1}, {"bad A", &bad},
		{"P after a failed Load", &samePMoved}, {"another P", p2}, {"P back", p1},
	}
	s, err := NewSolver(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range seq {
		err := s.Load(c.p)
		if c.p == &bad {
			if err == nil {
				t.Fatal("Load of an infinite entry of A: no error")
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fresh, err := NewSolver(c.p, nil)
		if err != nil {
			t.Fatal(err)
		}
		compareLoaded(t, c.name, s, fresh)
	}
}

// TestLoadAfterFailedNewWorkspace: a Load that fails on a new workspace
// (a logistic problem, which is not the exact path alone) must leave
// nothing the next Load takes for its P: the QP with that P loads as a new
// Solver answers it, and one whose P is singular fails as NewSolver does.
func TestLoadAfterFailedNewWorkspace(t *testing.T) {
	p1 := [][]float64{{4, 1, 0}, {1, 3, 0.5}, {0, 0.5, 2}}
	p2 := [][]float64{{1, 0.2, 0}, {0.2, 5, 0}, {0, 0, 9}}
	singular := [][]float64{{1, 1, 0}, {1, 1, 0}, {0, 0, 1}}
	q, a, b := []float64{1, -2, 3}, [][]float64{{1, 1, 1}}, []float64{-1}
	for _, c := range []struct {
		name   string
		failed *Problem
		next   *Problem
	}{
		{"a NaN in A", &Problem{N: 3, Loss: "logistic", Phi: [][]float64{{1, 0, 0}, {0, 1, 1}}, Y: []float64{1, -1},
			P: p2, Q: q, A: [][]float64{{1, math.NaN(), 1}}, B: b}, &Problem{N: 3, P: p2, Q: q, A: a, B: b}},
		{"not strongly convex", &Problem{N: 3, Loss: "logistic", Phi: [][]float64{{1, 0, 0}}, Y: []float64{1},
			P: singular, Q: q, A: a, B: b}, &Problem{N: 3, P: singular, Q: q, A: a, B: b}},
	} {
		s, err := NewSolver(&Problem{N: 3, P: p1, Q: q, A: a, B: b}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.Load(c.failed); err == nil {
			t.Fatalf("%s: Load: no error", c.name)
		}
		fresh, errNew := NewSolver(c.next, nil)
		errLoad := s.Load(c.next)
		if (errNew == nil) != (errLoad == nil) {
			t.Fatalf("%s: then Load: %v, NewSolver: %v", c.name, errLoad, errNew)
		}
		if errNew == nil {
			compareLoaded(t, c.name, s, fresh)
		}
	}
}

// TestLoadFromResult: a problem made of the Solver's own Result (q its x,
// b its multipliers) loads as a new Solver takes it: Load clears its
// storage, so it builds anew.
func TestLoadFromResult(t *testing.T) {
	p1, _ := mpcProblems(t)
	s, err := NewSolver(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := *p1
	p.Q = r.X
	p.B = r.Lambda
	for j := range p.B {
		p.B[j] += p1.B[j]
	}
	fresh, err := NewSolver(&p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(&p); err != nil {
		t.Fatal(err)
	}
	compareLoaded(t, "q and b from the Result", s, fresh)
}

// TestLoadAllocatesNothingMore: Load with options given, on a diagonal P
// with an equality (ExampleSolver_Load's problem), and a Load after a
// single Solve allocate nothing either, after the first.
func TestLoadAllocatesNothingMore(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocations are not the program's own")
	}
	const n = 4
	simplex := func(w float64) *Problem {
		p := &Problem{N: n, P: make([][]float64, n), Q: make([]float64, n),
			Aeq: [][]float64{{1, 1, 1, 1}}, Beq: []float64{1}, Lower: make([]float64, n)}
		for i := range p.P {
			p.P[i] = make([]float64, n)
			p.P[i][i], p.Q[i] = w+float64(i), -float64(i%3)
		}
		return p
	}
	p1, p2 := mpcProblems(t)
	for _, c := range []struct {
		name   string
		p1, p2 *Problem
		opt    *Options
	}{
		{"options given", p1, p2, &Options{Threads: 1, Tol: 1e-8}},
		{"diagonal P, an equality", simplex(1), simplex(2), nil},
	} {
		s, err := NewSolver(c.p1, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		allocs := testing.AllocsPerRun(20, func() {
			p := c.p1
			if k++; k%2 == 0 {
				p = c.p2
			}
			if err := s.Load(p); err != nil {
				t.Fatal(err)
			}
			if r, err := s.Solve(context.Background()); err != nil || r.Status != StatusSolved {
				t.Fatalf("%v %v", r.Status, err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Load and a solve allocate %v times, want 0", c.name, allocs)
		}
	}
}
