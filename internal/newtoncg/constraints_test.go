package newtoncg

import (
	"math"
	"math/big"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// withRows adds m random sparse rows A x <= b to p, with b set from the
// unconstrained answer xu so that about half the rows cut it off (those
// are active at the answer) and the others hold with room.
func withRows(p Problem, m int, density float64, seed uint64) Problem {
	n := p.X.Cols
	xu := New(p, Options{Tol: 1e-12}).Solve().X
	g := lcg(seed)
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	b := make([]float64, m)
	for i := 0; i < m; i++ {
		var ax, norm float64
		for j := 0; j < n; j++ {
			if g.next() < density {
				v := g.next() - 0.5
				a.Idx = append(a.Idx, int32(j))
				a.Val = append(a.Val, v)
				ax += v * xu[j]
				norm += v * v
			}
		}
		a.Ptr[i+1] = len(a.Idx)
		b[i] = ax + (g.next()-0.5)*math.Sqrt(norm)*0.5*math.Sqrt(vec.Dot(xu, xu))/math.Sqrt(float64(n))
	}
	p.A, p.B = a, b
	return p
}

// TestConstraintRowsCertified: with rows of A, Solve ends Solved at the
// tolerance, the point satisfies the rows to rounding, and the
// certificate is honest against an independent bound: the Lagrangian's
// minimum at the returned multipliers, computed by a long first-order
// run, is a lower bound on F*, so F(x) minus it must be within the gap
// (plus the rounding of the two evaluations).
func TestConstraintRowsCertified(t *testing.T) {
	for _, loss := range []Loss{Logistic, Squared} {
		for _, c := range []struct {
			name   string
			l1     float64
			lo, hi float64
		}{{"ridge", 0, math.Inf(-1), math.Inf(1)}, {"l1+box", 3e-3, -0.5, 1}} {
			p := randomProblem(300, 40, 0.2, loss, 7)
			p.L1 = c.l1
			if !math.IsInf(c.lo, -1) {
				p.Lower, p.Upper = make([]float64, 40), make([]float64, 40)
				for j := range p.Lower {
					p.Lower[j], p.Upper[j] = c.lo, c.hi
				}
			}
			p = withRows(p, 30, 0.3, 13)
			w := New(p, Options{Tol: 1e-12})
			res := w.Solve()
			active := 0
			for _, l := range res.Lambda {
				if l > 0 {
					active++
				}
			}
			t.Logf("%v %s: status %v F %.17g gap %.2g viol %.2g active %d iters %d cg %d passes %d rho %.3g/%.3g",
				loss, c.name, res.Status, res.Objective, res.Gap, res.MaxViolation, active, res.Iterations, res.CGSteps, res.Passes, w.rho, w.rho0)
			if res.Status != Solved || !(res.Gap <= 1e-12*math.Max(1, math.Abs(res.Objective))) {
				t.Fatalf("%v %s: status %v gap %g", loss, c.name, res.Status, res.Gap)
			}
			if res.Farkas != nil {
				t.Fatalf("%v %s: solved with a Farkas vector %v", loss, c.name, res.Farkas)
			}
			if active == 0 || active == len(res.Lambda) {
				t.Fatalf("%v %s: %d of %d rows active; the test wants some of each", loss, c.name, active, len(res.Lambda))
			}
			if res.MaxViolation > 1e-9 {
				t.Errorf("%v %s: rows violated by %g", loss, c.name, res.MaxViolation)
			}
			// G(lambda) = min_x F(x) + lambda'(A x - b), by the reference
			// run on the model with A'lambda added to q.
			lam := append([]float64(nil), res.Lambda...)
			f, x := res.Objective, append([]float64(nil), res.X...)
			lp := p
			lp.A, lp.B = nil, nil
			lp.Q = make([]float64, 40)
			p.A.MulTransVecAdd(lp.Q, lam)
			_, gRef := reference(lp)
			gRef -= vec.Dot(lam, p.B)
			fRound := 4 * vec.DotErrorBound(300+40+30) * (math.Abs(f) + 1)
			if f-gRef > res.Gap+fRound {
				t.Errorf("%v %s: F(x) - G(lambda) = %.3g beyond the certified gap %.3g", loss, c.name, f-gRef, res.Gap)
			}
			// x feasible to 1e-9: F(x) >= F* >= G up to that.
			if gRef > f+fRound+1e-6 {
				t.Errorf("%v %s: G(lambda) %.17g above F(x) %.17g", loss, c.name, gRef, f)
			}
			// A warm re-solve allocates nothing and ends solved at the
			// same optimum (objectives within the two gaps).
			if a := testing.AllocsPerRun(3, func() { w.Solve() }); a != 0 {
				t.Errorf("%v %s: warm Solve with rows of A: %v allocations", loss, c.name, a)
			}
			if warm := w.Solve(); warm.Status != Solved || math.Abs(warm.Objective-f) > warm.Gap+res.Gap+1e-15 {
				t.Errorf("%v %s: warm re-solve %v F %.17g, cold F %.17g", loss, c.name, warm.Status, warm.Objective, f)
			}
			// Early iterates are certified too: whatever the point, F(x)
			// minus its gap is a lower bound on F* (the dual bound
			// G(lhat) <= F*, and the exact penalty is >= F), and F* is
			// within 1e-10 above the answer's F (its violations are of
			// 1e-12 at most, at multipliers below 10).
			for k := 1; k <= 30; k++ {
				r := New(p, Options{Tol: 1e-12, MaxIter: k}).Solve()
				if r.Objective-r.Gap > f+1e-10 {
					t.Fatalf("%v %s: iteration %d: F %.17g - gap %.3g = %.17g above F* ~ %.17g", loss, c.name, k, r.Objective, r.Gap, r.Objective-r.Gap, f)
				}
			}
			// Deterministic: a new workspace gives the same bits.
			again := New(p, Options{Tol: 1e-12}).Solve()
			for j := range x {
				if math.Float64bits(x[j]) != math.Float64bits(again.X[j]) {
					t.Fatalf("%v %s: x[%d] differs between two cold solves", loss, c.name, j)
				}
			}
		}
	}
}

// TestConstraintRowsInfeasible: rows that contradict each other, or the
// bounds, end Infeasible with a certificate that checks (y >= 0, A'y
// vanishing where a variable is unbounded, b'y below the bounds' minimum
// of (A'y)'x), found in a few iterations; rows that meet only in a
// single point (x_0 = 1 by two rows) are solved, not called infeasible.
func TestConstraintRowsInfeasible(t *testing.T) {
	unit := func(j int, v float64) []float64 {
		r := make([]float64, 40)
		r[j] = v
		return r
	}
	for _, c := range []struct {
		name       string
		rows       [][]float64
		b          []float64
		upper      float64
		infeasible bool
	}{
		{"contradiction", [][]float64{unit(0, 1), unit(0, -1), unit(3, 1)}, []float64{-1, -1, 5}, math.Inf(1), true},
		{"spread", [][]float64{{1, 1, 0, 0}, {0, 0, 1, 1}, {-1, 0, -1, 0}, {0, -1, 0, -1}}, []float64{1, 1, -1.5, -1.5}, math.Inf(1), true},
		{"bounds", [][]float64{unit(0, -1), unit(1, 1)}, []float64{-2, 0.5}, 1, true},
		{"one point", [][]float64{unit(0, 1), unit(0, -1)}, []float64{1, -1}, math.Inf(1), false},
	} {
		p := randomProblem(300, 40, 0.2, Logistic, 7)
		for i, r := range c.rows {
			c.rows[i] = append(r, make([]float64, 40-len(r))...)
		}
		p.A, p.B = mat.SparseFromRows(c.rows, 40), c.b
		if !math.IsInf(c.upper, 1) {
			p.Upper = make([]float64, 40)
			for j := range p.Upper {
				p.Upper[j] = c.upper
			}
		}
		res := New(p, Options{Tol: 1e-10}).Solve()
		t.Logf("%s: status %v iters %d gap %.3g viol %.3g farkas %v", c.name, res.Status, res.Iterations, res.Gap, res.MaxViolation, res.Farkas)
		if !c.infeasible {
			if res.Status != Solved || res.MaxViolation > 1e-9 {
				t.Errorf("%s: status %v, violation %g; want solved", c.name, res.Status, res.MaxViolation)
			}
			continue
		}
		if res.Status != Infeasible || res.Iterations > 50 {
			t.Fatalf("%s: status %v after %d iterations; want infeasible", c.name, res.Status, res.Iterations)
		}
		// The certificate, checked in exact terms of the data: A'y and b'y
		// summed here in the rows' small integers and halves.
		aty := make([]float64, 40)
		var by float64
		for i, y := range res.Farkas {
			if !(y >= 0) {
				t.Fatalf("%s: y[%d] = %g", c.name, i, y)
			}
			by += y * c.b[i]
			for j, a := range c.rows[i] {
				aty[j] += y * a
			}
		}
		low := 0.0
		for j, g := range aty {
			switch {
			case g < 0 && !math.IsInf(c.upper, 1):
				low += g * c.upper
			case g != 0:
				t.Fatalf("%s: (A'y)[%d] = %g with x[%d] unbounded that way", c.name, j, g, j)
			}
		}
		if !(by < low) {
			t.Fatalf("%s: b'y = %g not below min (A'y)'x = %g", c.name, by, low)
		}
	}
}

// TestConstraintRowsLargeInactiveRow: a row of scale 1e9 far from active
// does not hold the certificate up (its rounding was once charged at the
// exact penalty's xi, which made a gap of 1e-4 the best there was), and
// the active row's multiplier and the rows' feasibility come out right.
func TestConstraintRowsLargeInactiveRow(t *testing.T) {
	p := randomProblem(300, 40, 0.2, Logistic, 7)
	xu := New(p, Options{Tol: 1e-12}).Solve().X
	r0 := make([]float64, 40)
	r1 := make([]float64, 40)
	r0[0], r1[1] = 1e9, 1
	p.A = mat.SparseFromRows([][]float64{r0, r1}, 40)
	p.B = []float64{1e9 * (xu[0] + 10), xu[1] - 0.5}
	res := New(p, Options{Tol: 1e-9}).Solve()
	t.Logf("status %v iters %d gap %.3g viol %.3g lambda %v", res.Status, res.Iterations, res.Gap, res.MaxViolation, res.Lambda)
	if res.Status != Solved || res.Iterations > 200 {
		t.Fatalf("status %v after %d iterations, gap %g", res.Status, res.Iterations, res.Gap)
	}
	if res.Lambda[0] != 0 || !(res.Lambda[1] > 0) || res.MaxViolation > 1e-9 {
		t.Errorf("lambda %v, violation %g: want only the second row active, and held", res.Lambda, res.MaxViolation)
	}
}

// TestFarkasNotFooledByRounding: two feasible systems whose Farkas
// vectors look valid in float64 are not called infeasible. In the first
// (x1 >= 1; 0.1x1 - x2 <= 0, 0.2x1 + x2 - x3 <= 0, -0.3x1 + x3 <= 4e-17,
// feasible at x1 = 1) y = (1, 1, 1) gives a computed (A'y)_1 of 5.6e-17
// where the exact one is 2.8e-17; the second (x0 + x1 <= -1, -x0 - (1 -
// 1e-13) x1 <= 0) is feasible only near |x| = 2e13, and y = (1, 1) cancels
// to 1e-13 only.
func TestFarkasNotFooledByRounding(t *testing.T) {
	p := randomProblem(50, 40, 0.2, Logistic, 3)
	rows := [][]float64{make([]float64, 40), make([]float64, 40), make([]float64, 40)}
	rows[0][1], rows[0][2] = 0.1, -1
	rows[1][1], rows[1][2], rows[1][3] = 0.2, 1, -1
	rows[2][1], rows[2][3] = -0.3, 1
	p.A, p.B = mat.SparseFromRows(rows, 40), []float64{0, 0, 4e-17}
	p.Lower = make([]float64, 40)
	for j := range p.Lower {
		p.Lower[j] = math.Inf(-1)
	}
	p.Lower[1] = 1
	w := New(p, Options{})
	if w.checkFarkas([]float64{1, 1, 1}) {
		t.Error("rounding: y = (1, 1, 1) accepted on a feasible system")
	}
	q := randomProblem(50, 40, 0.2, Logistic, 3)
	far := [][]float64{make([]float64, 40), make([]float64, 40)}
	far[0][0], far[0][1] = 1, 1
	far[1][0], far[1][1] = -1, -(1 - 1e-13)
	q.A, q.B = mat.SparseFromRows(far, 40), []float64{-1, 0}
	if res := New(q, Options{Tol: 1e-9, MaxIter: 200}).Solve(); res.Status == Infeasible {
		t.Errorf("far: infeasible with y = %v on a system feasible at |x| = 2e13", res.Farkas)
	}
}

// TestFarkasToRounding: 0.1 x <= -1 and -0.3 x <= -1 contradict each
// other, but no y represents the contradiction exactly: 3 fl(0.1) -
// fl(0.3) is not 0. y = (3, 1) leaves A'y at the rounding of its terms,
// the certificate the engine and dualcd accept, and newtoncg must too
// (its exact test alone ran such systems to the iteration limit). The
// same y on rows whose A'y is 1e-13 of the terms is refused.
func TestFarkasToRounding(t *testing.T) {
	for _, c := range []struct {
		rows [][]float64
		ok   bool
	}{
		{[][]float64{{0.1}, {-0.3}}, true},
		{[][]float64{{0.1}, {-0.3 * (1 + 1e-13)}}, false},
	} {
		p := randomProblem(50, 40, 0.2, Logistic, 3)
		rows := [][]float64{make([]float64, 40), make([]float64, 40)}
		rows[0][5], rows[1][5] = c.rows[0][0], c.rows[1][0]
		p.A, p.B = mat.SparseFromRows(rows, 40), []float64{-1, -1}
		w := New(p, Options{})
		if got := w.checkFarkas([]float64{3, 1}); got != c.ok {
			t.Errorf("rows %v: checkFarkas %v, want %v", c.rows, got, c.ok)
		}
		if !c.ok {
			continue
		}
		if res := New(p, Options{Tol: 1e-9, MaxIter: 200}).Solve(); res.Status != Infeasible {
			t.Errorf("rows %v: %v after %d iterations, want infeasible", c.rows, res.Status, res.Iterations)
		}
	}
}

// TestRowsBeyondRoundingNotSolved: x0 - x1 >= 1 and x0 - x1 <= c with q =
// (-1e7, 0) take the answer to |x| = 3.3e6, where the relative test of
// the rows (Tol of their terms, 6.7e6) passes a violation of 1.41. With c
// = 0.75 no x meets both rows (their sum is 0 <= -0.25): Solve once
// called that answer solved, with only the second row's multiplier
// nonzero; phase one now proves it infeasible, with y = (1, 1) checked
// here in exact arithmetic. With c = 1.25 (a slab) and c = 1 (the line x0
// - x1 = 1) the rows are feasible and the answer stays solved, near x1* =
// (1e7 - c)/3, x0* = x1* + c.
func TestRowsBeyondRoundingNotSolved(t *testing.T) {
	rows := [][]float64{{-1, 1}, {1, -1}}
	for _, c := range []float64{0.75, 1.25, 1} {
		b := []float64{-1, c}
		p := Problem{X: mat.SparseFromRows([][]float64{{0, 1}}, 2), Y: []float64{0}, Loss: Squared, Ridge: 1,
			Q: []float64{-1e7, 0}, A: mat.SparseFromRows(rows, 2), B: b}
		res := New(p, Options{Tol: 1e-6}).Solve()
		t.Logf("c = %g: status %v, x %v, violation %.3g, phase one %d passes, Farkas %v",
			c, res.Status, res.X, res.MaxViolation, res.PhaseOnePasses, res.Farkas)
		if c < 1 {
			if res.Status != Infeasible {
				t.Fatalf("c = %g: status %v, want infeasible", c, res.Status)
			}
			by := new(big.Rat)
			aty := []*big.Rat{new(big.Rat), new(big.Rat)}
			for i, y := range res.Farkas {
				if !(y >= 0) || math.IsInf(y, 1) {
					t.Fatalf("c = %g: y[%d] = %g", c, i, y)
				}
				yr := new(big.Rat).SetFloat64(y)
				by.Add(by, new(big.Rat).Mul(yr, new(big.Rat).SetFloat64(b[i])))
				for j, a := range rows[i] {
					aty[j].Add(aty[j], new(big.Rat).Mul(yr, new(big.Rat).SetFloat64(a)))
				}
			}
			if aty[0].Sign() != 0 || aty[1].Sign() != 0 || by.Sign() >= 0 {
				t.Fatalf("c = %g: A'y = (%s, %s), b'y = %s; want 0 and < 0", c, aty[0], aty[1], by)
			}
			continue
		}
		x1 := (1e7 - c) / 3
		x0 := x1 + c
		dist := math.Hypot(res.X[0]-x0, res.X[1]-x1)
		if res.Status != Solved || dist > math.Sqrt(2*res.Gap/p.Ridge) || res.MaxViolation > 1e-6*(2*x0+c) {
			t.Errorf("c = %g: status %v, x %v at %.3g from x* = (%v, %v) (gap %.3g), violation %.3g; want solved",
				c, res.Status, res.X, dist, x0, x1, res.Gap, res.MaxViolation)
		}
	}
}

// TestSolvedMeetsRows: at Tol 1e-6 the augmented Lagrangian's answers
// violate their active rows by about Tol of the rows' terms; a Solved
// answer must meet every row to the rounding of its residual, checked
// here in exact arithmetic (Solve once returned such answers solved, with
// no distance bound to give), and lie within its distance bound of x*
// (a Tol 1e-13 solve's, within its own).
func TestSolvedMeetsRows(t *testing.T) {
	for _, loss := range []Loss{Logistic, Squared} {
		for seed := uint64(1); seed <= 6; seed++ {
			p := randomProblem(200, 30, 0.2, loss, seed)
			if seed%2 == 0 {
				p.L1 = 1e-3
				p.Lower, p.Upper = make([]float64, 30), make([]float64, 30)
				for j := range p.Lower {
					p.Lower[j], p.Upper[j] = -0.5, 1
				}
			}
			p = withRows(p, 25, 0.3, 100+seed)
			ref := New(p, Options{Tol: 1e-13}).Solve()
			if ref.Status != Solved || !ref.Feasible {
				t.Fatalf("%v seed %d: reference %v, feasible %v", loss, seed, ref.Status, ref.Feasible)
			}
			xs := append([]float64(nil), ref.X...)
			dRef := math.Sqrt(2 * ref.Gap / p.Ridge)
			for _, tol := range []float64{1e-6, 1e-8} {
				res := New(p, Options{Tol: tol}).Solve()
				if res.Status != Solved || !res.Feasible || !(res.Gap <= tol*math.Max(1, math.Abs(res.Objective))) {
					t.Fatalf("%v seed %d tol %g: status %v, feasible %v, gap %.3g", loss, seed, tol, res.Status, res.Feasible, res.Gap)
				}
				for i := 0; i < p.A.Rows; i++ {
					idx, val := p.A.Row(i)
					if v, allow := testqp.RowExcess(idx, val, p.B[i], res.X); v > allow {
						t.Errorf("%v seed %d tol %g: row %d violated by %.3g, rounding allows %.3g", loss, seed, tol, i, v, allow)
					}
				}
				dist := 0.0
				for j, v := range res.X {
					dist += (v - xs[j]) * (v - xs[j])
				}
				if d := math.Sqrt(2 * res.Gap / p.Ridge); math.Sqrt(dist) > d+dRef {
					t.Errorf("%v seed %d tol %g: %.3g from x*, bounds %.3g + %.3g", loss, seed, tol, math.Sqrt(dist), d, dRef)
				}
			}
		}
	}
}
