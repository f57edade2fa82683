package activeset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// TestSetBRefusesOverflow: SetB refuses a right-hand side whose quotient
// with its row's norm overflows, naming the entry, and leaves the Solver
// as it was (the next Solve gives the same answer).
func TestSetBRefusesOverflow(t *testing.T) {
	p := separable(50, 4, 2)
	p.ARows[7] = []float64{1e-300, 0, 0, 0}
	p.B[7] = 1
	s := mustNew(t, p)
	x := slices.Clone(s.Solve(ctx).X)
	b := slices.Clone(p.B)
	b[7] = 1e10
	if err := s.SetB(b); err == nil || !strings.Contains(err.Error(), "B[7]") {
		t.Fatalf("SetB with b[7] = 1e10 over a row of norm 1e-300: %v, want an error naming B[7]", err)
	}
	s.Reset()
	if r := s.Solve(ctx); !slices.Equal(r.X, x) {
		t.Error("a refused SetB changed the answer")
	}
}

// TestPivotWithinRounding: three rows of R^3 in the plane of e_1 and
// (0, 1, 1), no x satisfying all three (FuzzActiveSet). The first two are
// nearly parallel; the third's pivot came out 3.4e-13, above
// singularPivot but within its rounding (0.3 eps ||p||^2), and taken as
// independent it put x at 3.5e15, where the violation of 4.45 looked like
// rounding: "optimal" on an infeasible problem. Compared with its rounding,
// the pivot is zero, and the null step finds the certificate.
func TestPivotWithinRounding(t *testing.T) {
	n := 3
	h := mat.NewDense(n, n)
	for i, row := range [][]float64{
		{18.0822265625, 17.96875, 18.046875},
		{17.96875, 19.2541015625, 18.671875},
		{18.046875, 18.671875, 19.409375},
	} {
		copy(h.Row(i), row)
	}
	p := &Problem{N: n, H: h, C: []float64{-10, -10, -10}, A: dense([][]float64{
		{1.3125, -2.5, -2.5},
		{-1.96875, 3.96875, 3.96875},
		{-2.5, 0, 0},
	}), B: []float64{-2.5, -2.5, 0}}
	r := mustNew(t, p).Solve(ctx)
	if r.Status != StatusInfeasible {
		t.Fatalf("status %v (x %v, violation %g), want infeasible", r.Status, r.X, r.MaxViolation)
	}
	checkFarkas(t, "plane in R^3", p, r)
}

// TestEqualityImpliedByFixed: x_0 is fixed at 0 and the equality
// -2.5 x_0 = 0 repeats it; with a second equality nearly parallel to it
// in H's metric, the null direction through the factor had an entry of
// 5e-13 where the exact one is zero, and the set-up called the equalities
// inconsistent (FuzzActiveSet 481708ccbd6f4923). The unique feasible point
// is x = (0, -3.96875/0.1875).
func TestEqualityImpliedByFixed(t *testing.T) {
	h := dense([][]float64{{13.175, 12.5}, {12.5, 13.175}})
	p := &Problem{N: 2, H: h, C: []float64{-10, -10},
		Aeq: dense([][]float64{{-2.5, -0.1875}, {-2.5, 0}}), Beq: []float64{3.96875, 0},
		Lower: []float64{0, math.Inf(-1)}, Upper: []float64{0, 0}}
	r := mustNew(t, p).Solve(ctx)
	certified(t, "fixed x_0 repeated by an equality", r, 1e-12)
	if want := -3.96875 / 0.1875; r.X[0] != 0 || math.Abs(r.X[1]-want) > 1e-12*math.Abs(want) {
		t.Errorf("x = %v, want (0, %v)", r.X, want)
	}
}

// qpOf is p as a generated QP, for the generator's exact checkers
// (qpgen.Exact, qpgen.CheckFarkas): H, A and Aeq as rows, every bound
// explicit when there are any.
func qpOf(p *Problem) *qpgen.QP {
	q := &qpgen.QP{N: p.N, C: p.C, B: p.B, Beq: p.Beq, H: make([][]float64, p.N)}
	for i := range q.H {
		q.H[i] = p.H.Row(i)
	}
	if p.A != nil {
		for j := 0; j < p.A.Rows; j++ {
			q.A = append(q.A, p.A.Row(j))
		}
	}
	if p.Aeq != nil {
		for j := 0; j < p.Aeq.Rows; j++ {
			q.Aeq = append(q.Aeq, p.Aeq.Row(j))
		}
	}
	if p.Lower != nil || p.Upper != nil {
		q.Lower, q.Upper = make([]float64, p.N), make([]float64, p.N)
		for i := range q.Lower {
			q.Lower[i], q.Upper[i] = bound(p.Lower, i, math.Inf(-1)), bound(p.Upper, i, math.Inf(1))
		}
	}
	return q
}

// exactAnswer solves p exactly (qpgen.Exact, in big.Rat).
func exactAnswer(t *testing.T, p *Problem) *qpgen.ExactResult {
	t.Helper()
	ex, err := qpgen.Exact(qpOf(p))
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// solvedExactly fails t unless r is solved, Feasible, and x within 1e-9
// relative (to max(1, ||x*||_inf)) of p's exact optimum.
func solvedExactly(t *testing.T, name string, p *Problem, r *Result) {
	t.Helper()
	ex := exactAnswer(t, p)
	if ex.Infeasible {
		t.Fatalf("%s: the exact solution says infeasible", name)
	}
	if r.Status != StatusSolved || !r.Feasible {
		t.Errorf("%s: status %v, feasible %v, x %v (farkas %v %v); x* = %v", name, r.Status, r.Feasible, r.X, r.FarkasA, r.FarkasEq, ex.X)
		return
	}
	if e := maxAbsDiff(r.X, ex.X); e > 1e-9*max(1, vec.MaxAbs(ex.X)) {
		t.Errorf("%s: x = %v, x* = %v: off by %.3g", name, r.X, ex.X, e)
	}
}

// infeasibleOrUndecided fails t unless r is infeasible with a certificate
// the generator's checker accepts, or, when undecided is allowed,
// StatusPrecisionLimit; and unless p is infeasible.
func infeasibleOrUndecided(t *testing.T, name string, p *Problem, r *Result, undecided bool) {
	t.Helper()
	if ex := exactAnswer(t, p); !ex.Infeasible {
		t.Fatalf("%s: the exact solution is x* = %v", name, ex.X)
	}
	switch {
	case r.Status == StatusPrecisionLimit && undecided:
	case r.Status != StatusInfeasible:
		t.Errorf("%s: status %v on an infeasible problem (x %v)", name, r.Status, r.X)
	default:
		if ok, why := qpgen.CheckFarkas(qpOf(p), r.FarkasA, r.FarkasEq); !ok {
			t.Errorf("%s: certificate (%v, %v) refused: %s", name, r.FarkasA, r.FarkasEq, why)
		}
	}
}

// nearCopyEqualities is issue 27's problem: min 1/2 ||x||^2 subject to
// x_1 + x_2 = 1 and x_1 + (1+d) x_2 = 1+d, whose one feasible point is
// x* = (0, 1), with the multipliers of about 1/d it takes; with bounds
// -5 <= x <= 5 if bounded.
func nearCopyEqualities(d float64, bounded bool) *Problem {
	e := 1 + d
	p := &Problem{N: 2, H: dense([][]float64{{1, 0}, {0, 1}}), C: []float64{0, 0},
		Aeq: dense([][]float64{{1, 1}, {1, e}}), Beq: []float64{1, e}}
	if bounded {
		p.Lower, p.Upper = []float64{-5, -5}, []float64{5, 5}
	}
	return p
}

// TestNearCopyEqualitiesAreMembers: issue 27's inputs. Two equalities d
// apart (1e-7 to 1e-12, and 1.0000001 - 1 as the JSON input reads) have a
// Gram pivot of d^2/4, below singularPivot; the set-up called them
// inconsistent on a direction whose certificate fails in the caller's data
// (A'y = (5e-8, -5e-8)), or, with bounds (and at 1e-12 without), dropped
// the second as implied and answered x = (1/2, 1/2), F = 1/4, where
// x* = (0, 1), F* = 1/2. Their distance, computed directly, is far above
// its rounding: both are members, and the answer is x*.
func TestNearCopyEqualitiesAreMembers(t *testing.T) {
	for _, d := range []float64{1.0000001 - 1, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12} {
		for _, bounded := range []bool{false, true} {
			p := nearCopyEqualities(d, bounded)
			solvedExactly(t, fmt.Sprintf("d=%.17g bounded=%v", d, bounded), p, mustNew(t, p).Solve(ctx))
		}
	}
}

// TestBoundBesideNearCopies: the equalities of nearCopyEqualities in R^3
// put x_2 at 1 and the bound x_2 <= 1/2 contradicts them. The bound's
// normal is in the span of the equalities' exactly, but its pivot, formed
// behind theirs (d^2/4), came out 3.5e-6 at d = 1e-6: taken as
// independent, the answer was "solved" at x = (1/2, 1/2, 1); at smaller d
// the set-up called the equalities inconsistent on a certificate that
// fails in the caller's data. Behind a nearly dependent pair the working
// set keeps a QR factor (basis.go), whose pivots are distances to a few
// eps, and the bound's null step finds the certificate.
func TestBoundBesideNearCopies(t *testing.T) {
	inf := math.Inf(1)
	for _, d := range []float64{1e-6, 1e-7, 1e-8, 1e-9, 1e-10} {
		e := 1 + d
		p := &Problem{N: 3, H: dense([][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}), C: []float64{0, 0, -1},
			Aeq: dense([][]float64{{1, 1, 0}, {1, e, 0}}), Beq: []float64{1, e},
			Lower: []float64{-inf, -inf, -inf}, Upper: []float64{inf, 0.5, inf}}
		infeasibleOrUndecided(t, fmt.Sprintf("d=%g", d), p, mustNew(t, p).Solve(ctx), false)
	}
}

// TestNearCopyEqualitiesContradictedByRow: the equalities of
// nearCopyEqualities put x_2 at 1 and the row x_2 <= 1/2 contradicts them.
// The set-up called the equalities alone inconsistent, on a direction
// whose certificate fails in the caller's data (A'y = (d/2, -d/2) on
// unbounded coordinates). The equalities are members; the row's null step
// finds the certificate: 1 and -1 on the equalities and d on the row. At
// d = 1e-12 its margin is 2.5e-13 of its terms, below what a float64
// certificate can prove, and undecided is the one other answer allowed.
func TestNearCopyEqualitiesContradictedByRow(t *testing.T) {
	for _, d := range []float64{1e-7, 1e-8, 1e-9, 1e-10, 1e-12} {
		p := nearCopyEqualities(d, false)
		p.A, p.B = dense([][]float64{{0, 1}}), []float64{0.5}
		infeasibleOrUndecided(t, fmt.Sprintf("d=%g", d), p, mustNew(t, p).Solve(ctx), d < 1e-10)
	}
}

// TestFixedVariableBesideNearEquality: x_1 fixed at 0 and the equality
// x_1 + d x_2 = d, which with it puts x_2 at 1: min 1/2 ||x||^2 is at
// x* = (0, 1). The equality's normal is d from the fixed variable's; at
// d = 1e-12 it was dropped as implied and the answer was x = (0, 1e-24).
func TestFixedVariableBesideNearEquality(t *testing.T) {
	for _, d := range []float64{1e-7, 1e-8, 1e-10, 1e-12} {
		p := &Problem{N: 2, H: dense([][]float64{{1, 0}, {0, 1}}), C: []float64{0, 0},
			Aeq: dense([][]float64{{1, d}}), Beq: []float64{d}, Lower: []float64{0, -5}, Upper: []float64{0, 5}}
		solvedExactly(t, fmt.Sprintf("d=%g", d), p, mustNew(t, p).Solve(ctx))
	}
}

// TestSetBounds: a Solver given new bounds by SetBounds (shifted,
// tightened, loosened, one removed, a variable fixed and freed, bounds
// that make the rows infeasible) answers as a new Solver of the changed
// problem does, with the same status, x to 1e-9 and, when infeasible, a
// certificate that holds; SetBounds and the warm Solve allocate nothing,
// and a refused SetBounds leaves the Solver as it was.
func TestSetBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	infeasible := 0
	for _, n := range []int{2, 5, 20} {
		p := randomQP(rng, n, 3*n, 1e2, true)
		s := mustNew(t, p)
		certified(t, "start", s.Solve(ctx), 1e-9)
		lo, up := slices.Clone(p.Lower), slices.Clone(p.Upper)
		for step := 0; step < 8; step++ {
			for i := range lo {
				switch step {
				case 0, 1: // shift
					d := 0.3 * rng.NormFloat64()
					lo[i], up[i] = p.Lower[i]+d, p.Upper[i]+d
				case 2: // tighten
					lo[i], up[i] = lo[i]/4, up[i]/4
				case 3: // loosen, the last variable's lower bound removed
					lo[i], up[i] = 4*lo[i], 4*up[i]
					if i == n-1 {
						lo[i] = math.Inf(-1)
					}
				case 4: // the first variable fixed
					if i == 0 {
						lo[i], up[i] = 0.1, 0.1
					}
				case 5: // and freed
					if i == 0 {
						lo[i], up[i] = -1, 1
					}
				case 6: // every variable above what the rows allow
					lo[i], up[i] = 50, 60
				case 7:
					lo[i], up[i] = p.Lower[i], p.Upper[i]
				}
			}
			name := fmt.Sprintf("n %d step %d", n, step)
			if err := s.SetBounds(lo, up); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r := s.Solve(ctx)
			q := *p
			q.Lower, q.Upper = slices.Clone(lo), slices.Clone(up)
			want := mustNew(t, &q).Solve(ctx)
			if r.Status != want.Status {
				t.Fatalf("%s: status %v, a new Solver's %v", name, r.Status, want.Status)
			}
			if r.Status == StatusInfeasible {
				checkFarkas(t, name, &q, r)
				infeasible++
				continue
			}
			certified(t, name, r, 1e-9)
			if d := maxAbsDiff(r.X, want.X); d > 1e-9 {
				t.Errorf("%s: x differs from a new Solver's by %.3g", name, d)
			}
		}
		x := slices.Clone(s.Solve(ctx).X)
		bad := slices.Clone(lo)
		bad[1] = math.NaN()
		if err := s.SetBounds(bad, up); err == nil || !strings.Contains(err.Error(), "Lower[1]") {
			t.Errorf("NaN in Lower[1]: %v", err)
		}
		bad[1] = up[1] + 1
		if err := s.SetBounds(bad, up); err == nil {
			t.Error("lower above upper accepted")
		}
		if r := s.Solve(ctx); maxAbsDiff(r.X, x) > 1e-12 {
			t.Errorf("n %d: a refused SetBounds changed the answer", n)
		}
		if a := testing.AllocsPerRun(5, func() {
			if err := s.SetBounds(p.Lower, p.Upper); err != nil {
				t.Fatal(err)
			}
			s.Solve(ctx)
		}); a != 0 {
			t.Errorf("n %d: SetBounds and Solve: %v allocations", n, a)
		}
	}
	if infeasible == 0 {
		t.Error("no step made the problem infeasible")
	}
}

// TestTransformedRows: a Solver that keeps its rows' and bounds'
// transformed normals (transformedNormals) gives the answers, bit for bit,
// of one made with Options.OneShot, which keeps none and computes each
// normal on every admission, over re-solves with new b and c (a
// receding-horizon controller's updates) and across SetObjective, which
// must forget them.
func TestTransformedRows(t *testing.T) {
	for _, fam := range []string{"cond-dense", "bounds-mixed", "many-rows", "ineq-duplicate", "degenerate-vertex"} {
		for _, n := range []int{3, 12, 40} {
			for seed := uint64(1); seed <= 2; seed++ {
				q := qpgen.Generate(fam, n, seed)
				p := fromGen(q)
				if p.A == nil && p.ARows == nil {
					continue
				}
				kept := mustNew(t, p)
				plain, err := New(p, &Options{OneShot: true})
				if err != nil {
					t.Fatal(err)
				}
				h2, c2, f2 := perturbed(q)
				b, c := slices.Clone(p.B), slices.Clone(p.C)
				for round := range 8 {
					name := fmt.Sprintf("%s/n%d/s%d/round %d", fam, n, seed, round)
					for j := range b {
						b[j] = p.B[j] * (1 + 0.2*math.Sin(float64(3*round+j)))
					}
					for i := range c {
						c[i] = p.C[i] + 0.5*math.Cos(float64(5*round+i))
					}
					for _, s := range []*Solver{kept, plain} {
						if round == 4 {
							if err := s.SetObjective(h2, c2, f2); err != nil {
								t.Fatal(err)
							}
						}
						if err := s.SetB(b); err != nil {
							t.Fatal(err)
						}
						if round != 4 {
							if err := s.SetC(c); err != nil {
								t.Fatal(err)
							}
						}
					}
					r1, r2 := kept.Solve(ctx), plain.Solve(ctx)
					if round > 0 && (kept.tNormals.sigma == nil || plain.tNormals.sigma != nil) {
						t.Fatalf("%s: (m + n) n = %d, transformed normals kept: %v by default, %v OneShot", name, (kept.m+n)*n, kept.tNormals.sigma != nil, plain.tNormals.sigma != nil)
					}
					if r1.Status != r2.Status || r1.Steps != r2.Steps || !slices.Equal(r1.X, r2.X) || !slices.Equal(r1.Lambda, r2.Lambda) || !slices.Equal(r1.Nu, r2.Nu) || !slices.Equal(r1.Z, r2.Z) {
						t.Fatalf("%s: kept %v in %d steps, x %v; plain %v in %d steps, x %v", name, r1.Status, r1.Steps, r1.X, r2.Status, r2.Steps, r2.X)
					}
				}
			}
		}
	}
}

// TestSetBShiftsViolations: SetB moves the rows' stored violation bounds
// by the change of their right-hand sides instead of forgetting them, so
// that a warm re-solve recomputes only the rows that may be violated.
// Through a sequence of re-solves with b moved by up to 10%, most bounds
// must stay known, and the answers must be those of a Solver that forgets
// every bound at each SetB: bit for bit where every row is scanned (paper
// QP s1, m below the pool's size: the skipped rows cannot be the most
// violated), and solved to the same objective where the pool ranks the
// rows by their bounds (a separable problem of 2000 rows: the skipped
// rows' looser bounds rank differently, and the paths may part).
func TestSetBShiftsViolations(t *testing.T) {
	p, _ := paperQP(t, "s1")
	for _, c := range []struct {
		name string
		p    *Problem
		bits bool
	}{{"paper QP s1", p, true}, {"separable", separable(2000, 20, 5), false}} {
		shift, forget := mustNew(t, c.p), mustNew(t, c.p)
		shift.Solve(ctx)
		forget.Solve(ctx)
		if c.bits != (cap(shift.pool) == 0 || shift.m <= cap(shift.pool)) {
			t.Fatalf("%s: pool of %d for %d rows", c.name, cap(shift.pool), shift.m)
		}
		rng := rand.New(rand.NewPCG(5, 11))
		b := slices.Clone(c.p.B)
		for i := 0; i < 40; i++ {
			for j, v := range c.p.B {
				b[j] = v * (1 + 0.1*(2*rng.Float64()-1))
			}
			if err := shift.SetB(b); err != nil {
				t.Fatal(err)
			}
			known := 0
			for j := range shift.rowBnd {
				if !shift.rowIn[j] && shift.rowBnd[j] != unknownBound {
					known++
				}
			}
			if out := shift.m - len(shift.ws); known < out/2 {
				t.Errorf("%s, re-solve %d: %d bounds known after SetB, of %d rows outside the working set", c.name, i, known, out)
			}
			if err := forget.SetB(b); err != nil {
				t.Fatal(err)
			}
			forget.forgetViolations()
			r, f := shift.Solve(ctx), forget.Solve(ctx)
			if r.Status != StatusSolved || f.Status != StatusSolved {
				t.Fatalf("%s, re-solve %d: %v with shifted bounds, %v with forgotten ones", c.name, i, r.Status, f.Status)
			}
			same := r.Steps == f.Steps && r.Gap == f.Gap && r.Objective == f.Objective &&
				slices.Equal(r.X, f.X) && slices.Equal(r.Lambda, f.Lambda)
			if c.bits && !same || math.Abs(r.Objective-f.Objective) > 1e-12*(1+math.Abs(f.Objective)) {
				t.Fatalf("%s, re-solve %d: shifted bounds give %d steps, F %v, gap %v; forgotten %d, %v, %v",
					c.name, i, r.Steps, r.Objective, r.Gap, f.Steps, f.Objective, f.Gap)
			}
		}
	}
}

// TestInconsistentEqualitiesCertificate: equalities whose last row is a
// combination of the others (to 1e-15) with a right-hand side off by
// 1e-10..1e-2, each row scaled by 1e-9..1e9, some variables fixed, solved
// three times with the linear term changed in between. Every infeasible
// answer carries a certificate accepted in big.Float, and the same one
// each time: the certificate depends on the constraints only. pushEquality
// checked the certificate of the direction it found, but buildFarkas
// refines that direction in place and every answer built its certificate
// again from the refined one, unchecked: it changed from one answer to the
// next (about one problem in five).
func TestInconsistentEqualitiesCertificate(t *testing.T) {
	infeasible := 0
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 2 + rng.IntN(5)
		meq := 2 + rng.IntN(n)
		h := make([][]float64, n)
		c := make([]float64, n)
		lo, up := make([]float64, n), make([]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
			h[i][i] = math.Pow(10, -4+6*rng.Float64())
			c[i] = 100 * rng.NormFloat64()
			lo[i], up[i] = math.Inf(-1), math.Inf(1)
			if rng.IntN(4) == 0 {
				lo[i] = rng.NormFloat64()
				up[i] = lo[i]
			}
		}
		aeq, beq := make([][]float64, meq), make([]float64, meq)
		aeq[meq-1] = make([]float64, n)
		for i := range meq - 1 {
			aeq[i] = make([]float64, n)
			for k := range aeq[i] {
				aeq[i][k] = rng.NormFloat64() * math.Pow(10, 6*rng.Float64()-3)
			}
			beq[i] = rng.NormFloat64()
			w := rng.NormFloat64()
			for k := range aeq[i] {
				aeq[meq-1][k] += w * aeq[i][k]
			}
			beq[meq-1] += w * beq[i]
		}
		for k := range aeq[meq-1] {
			aeq[meq-1][k] *= 1 + 1e-15*rng.NormFloat64()
		}
		beq[meq-1] += math.Copysign(math.Pow(10, -10+8*rng.Float64()), rng.NormFloat64())
		for i := range aeq {
			scale := math.Pow(10, 18*rng.Float64()-9)
			for k := range aeq[i] {
				aeq[i][k] *= scale
			}
			beq[i] *= scale
		}
		q := &qpgen.QP{N: n, H: h, C: c, Aeq: aeq, Beq: beq, Lower: lo, Upper: up}
		s, err := New(&Problem{N: n, H: dense(h), C: c, Aeq: dense(aeq), Beq: beq, Lower: lo, Upper: up}, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var first []float64
		for round := range 3 {
			r := s.Solve(ctx)
			if r.Status != StatusInfeasible {
				break
			}
			infeasible++
			if ok, why := qpgen.CheckFarkas(q, r.FarkasA, r.FarkasEq); !ok {
				t.Errorf("seed %d, answer %d: certificate refused: %s", seed, round, why)
			}
			y := slices.Concat(r.FarkasA, r.FarkasEq)
			if first == nil {
				first = y
			} else if !slices.Equal(y, first) {
				t.Errorf("seed %d, answer %d: certificate %v, first answer's %v", seed, round, y, first)
			}
			for i := range c {
				c[i] += rng.NormFloat64()
			}
			if err := s.SetC(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if infeasible < 300 {
		t.Errorf("%d infeasible answers, want at least 300 (the family has changed)", infeasible)
	}
}

// TestSetBoundsMovesFixedValue: x_0 + x_1 = 1 with x_0 and x_1 fixed is
// consistent at (0.5, 0.5) and contradictory at (0.5, 0.7). Whether the
// fixed variables contradict the equalities, or are implied by them, is
// decided when they enter the working set (pushEquality), so SetBounds
// that moves a fixed value starts the next Solve cold: kept warm, the
// Solver answered the consistent problem infeasible with the certificate
// of the other one.
func TestSetBoundsMovesFixedValue(t *testing.T) {
	h := [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	aeq := [][]float64{{1, 1, 0}}
	bounds := func(x1 float64) ([]float64, []float64) {
		return []float64{0.5, x1, -1}, []float64{0.5, x1, 1}
	}
	for _, order := range [][]float64{{0.7, 0.5, 0.7}, {0.5, 0.7, 0.5}} {
		lo, up := bounds(order[0])
		s, err := New(&Problem{N: 3, H: dense(h), C: []float64{1, 1, 1}, Aeq: dense(aeq), Beq: []float64{1}, Lower: lo, Upper: up}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, x1 := range order {
			lo, up := bounds(x1)
			if k > 0 {
				if err := s.SetBounds(lo, up); err != nil {
					t.Fatal(err)
				}
			}
			r := s.Solve(ctx)
			want := StatusSolved
			if x1 != 0.5 {
				want = StatusInfeasible
			}
			if r.Status != want {
				t.Fatalf("order %v, x_1 fixed at %g: status %v, want %v", order, x1, r.Status, want)
			}
			q := &qpgen.QP{N: 3, H: h, C: []float64{1, 1, 1}, Aeq: aeq, Beq: []float64{1}, Lower: lo, Upper: up}
			if want == StatusInfeasible {
				if ok, why := qpgen.CheckFarkas(q, r.FarkasA, r.FarkasEq); !ok {
					t.Errorf("order %v, x_1 fixed at %g: certificate refused: %s", order, x1, why)
				}
			} else if r.X[0] != 0.5 || r.X[1] != 0.5 || r.X[2] != -1 {
				t.Errorf("order %v, x_1 fixed at %g: x = %v, want (0.5, 0.5, -1)", order, x1, r.X)
			}
		}
	}
}

// TestBoxed: s.boxed, which lets the passes over the bounds be skipped,
// says whether some bound is finite, from New and through SetBounds; a
// Solver that had none enforces a bound SetBounds gives it, and one given
// infinite bounds answers bit for bit as one given none.
func TestBoxed(t *testing.T) {
	p, _ := paperQP(t, "s1")
	inf := make([]float64, p.N)
	for i := range inf {
		inf[i] = math.Inf(1)
	}
	q := *p
	q.Upper = inf
	s, explicit := mustNew(t, p), mustNew(t, &q)
	if s.boxed || explicit.boxed {
		t.Fatalf("boxed without a finite bound: %v, %v", s.boxed, explicit.boxed)
	}
	r, e := s.Solve(ctx), explicit.Solve(ctx)
	if r.Objective != e.Objective || r.Gap != e.Gap || !slices.Equal(r.X, e.X) {
		t.Errorf("infinite bounds: F %v gap %v, none: F %v gap %v", e.Objective, e.Gap, r.Objective, r.Gap)
	}
	up := slices.Clone(inf)
	k := 0
	for i, v := range r.X {
		if v > r.X[k] {
			k = i
		}
	}
	up[k] = r.X[k] / 2
	if err := s.SetBounds(nil, up); err != nil {
		t.Fatal(err)
	}
	if !s.boxed {
		t.Fatal("not boxed after SetBounds with a finite bound")
	}
	r = s.Solve(ctx)
	certified(t, "bounded", r, 1e-9)
	if r.X[k] > up[k] || r.Z[k] <= 0 {
		t.Errorf("x_%d = %v above its bound %v, z %v", k, r.X[k], up[k], r.Z[k])
	}
	if err := s.SetBounds(nil, inf); err != nil {
		t.Fatal(err)
	}
	if s.boxed {
		t.Fatal("boxed after SetBounds without a finite bound")
	}
	certified(t, "unbounded again", s.Solve(ctx), 1e-9)
}

// TestSetBoundsKeepsViolations: SetBounds keeps the rows' stored violation
// bounds (a row's violation does not depend on the bounds), so that a warm
// re-solve recomputes only the rows that may be violated. Through
// re-solves of paper QP s1 in a box moved by up to 10% (and, every fourth,
// by a shift that moves x far), most bounds must stay known, and the
// answers must be those, bit for bit, of a Solver that forgets every
// bound at each SetBounds (m below the pool's size: every row is scanned,
// and the skipped rows cannot be the most violated).
func TestSetBoundsKeepsViolations(t *testing.T) {
	box := paperQPBox(t, 0.2)
	keep, forget := mustNew(t, box), mustNew(t, box)
	keep.Solve(ctx)
	forget.Solve(ctx)
	if cap(keep.pool) != 0 && keep.m > cap(keep.pool) {
		t.Fatalf("pool of %d for %d rows", cap(keep.pool), keep.m)
	}
	rng := rand.New(rand.NewPCG(5, 13))
	lo, up := slices.Clone(box.Lower), slices.Clone(box.Upper)
	for i := 0; i < 40; i++ {
		d := 0.0
		if i%4 == 3 {
			d = 0.1 * (2*rng.Float64() - 1)
		}
		for j := range lo {
			lo[j] = box.Lower[j]*(1+0.1*(2*rng.Float64()-1)) + d
			up[j] = box.Upper[j]*(1+0.1*(2*rng.Float64()-1)) + d
		}
		if err := keep.SetBounds(lo, up); err != nil {
			t.Fatal(err)
		}
		known := 0
		for j := range keep.rowBnd {
			if !keep.rowIn[j] && keep.rowBnd[j] != unknownBound {
				known++
			}
		}
		if out := keep.m - len(keep.ws); known < out/2 {
			t.Errorf("re-solve %d: %d bounds known after SetBounds, of %d rows outside the working set", i, known, out)
		}
		if err := forget.SetBounds(lo, up); err != nil {
			t.Fatal(err)
		}
		forget.forgetViolations()
		r, f := keep.Solve(ctx), forget.Solve(ctx)
		if r.Status != StatusSolved || f.Status != StatusSolved {
			t.Fatalf("re-solve %d: %v with kept bounds, %v with forgotten ones", i, r.Status, f.Status)
		}
		if r.Steps != f.Steps || r.Gap != f.Gap || r.Objective != f.Objective ||
			!slices.Equal(r.X, f.X) || !slices.Equal(r.Lambda, f.Lambda) || !slices.Equal(r.Z, f.Z) {
			t.Fatalf("re-solve %d: kept bounds give %d steps, F %v, gap %v; forgotten %d, %v, %v",
				i, r.Steps, r.Objective, r.Gap, f.Steps, f.Objective, f.Gap)
		}
	}
}
