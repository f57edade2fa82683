package activeset

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
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
		s.Solve(ctx)
		check("random QP", s)
	}
	s := mustNew(t, separable(20000, 20, 5))
	s.Solve(ctx)
	check("separable", s)
	b := make([]float64, s.m)
	for j := range b {
		b[j] = -1 + 0.01*rng.Float64()
	}
	if err := s.SetB(b); err != nil {
		t.Fatal(err)
	}
	s.Solve(ctx)
	check("separable after SetB", s)
	s = mustNew(t, separable(20000, 20, 6))
	past, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	if r := s.Solve(past); r.Status != StatusTimeLimit || r.MaxViolation == 0 {
		t.Fatalf("past deadline: status %v, violation %v", r.Status, r.MaxViolation)
	}
	check("deadline", s)
}

// TestExactTermsOnlyListedRows: exactTerms sums Gap's terms again from
// the rows violationPass listed; every row it did not list must add
// nothing, so the sums are those of a pass over every row, bit for bit.
// Also when the list overflows: 3 (n+1) copies of a row held at the
// answer have residuals within rounding of zero, and the pass over every
// row (termsAll) must give what a list long enough gives.
func TestExactTermsOnlyListedRows(t *testing.T) {
	check := func(name string, s *Solver, wantAll bool) {
		t.Helper()
		s.violationPass()
		if s.termsAll != wantAll {
			t.Fatalf("%s: termsAll %v, want %v (%d rows listed)", name, s.termsAll, wantAll, len(s.termRows))
		}
		s.exactTerms()
		listed := s.res.Rounding
		keep := s.termRows
		s.termRows = make([]int32, 0, s.m)
		s.violationPass()
		if wantAll {
			s.exactTerms() // now from a list
		} else {
			s.termsAll = true // every row evaluated again
			s.exactTerms()
		}
		if other := s.res.Rounding; other != listed {
			t.Errorf("%s: terms %+v, from every row %+v", name, listed, other)
		}
		s.termRows = keep
	}
	rng := rand.New(rand.NewPCG(5, 11))
	for i, box := range []bool{false, true, false, true} {
		s := mustNew(t, randomQP(rng, 10+5*i, 400, 1e4, box))
		if r := s.Solve(ctx); r.Status != StatusSolved {
			t.Fatalf("random QP %d: status %v", i, r.Status)
		}
		check("random QP", s, false)
	}
	// min 1/2 ||x||^2 - 10 sum x subject to sum x <= 1, copied 3 (n+1)
	// times, and inactive rows beside.
	const n = 6
	p := &Problem{N: n, H: mat.NewDense(n, n), C: make([]float64, n), A: mat.NewDense(3*(n+1)+20, n)}
	p.B = make([]float64, p.A.Rows)
	for i := range n {
		p.H.Row(i)[i], p.C[i] = 1, -10
	}
	for j := range p.A.Rows {
		for i := range n {
			p.A.Row(j)[i] = 1
		}
		p.B[j] = 1
		if j >= 3*(n+1) {
			p.A.Row(j)[j%n] = -1 - rng.Float64()
		}
	}
	s := mustNew(t, p)
	if r := s.Solve(ctx); r.Status != StatusSolved {
		t.Fatalf("copied rows: status %v", r.Status)
	}
	check("copied rows", s, true)
}

// TestRowResidualsGrouping: the certificate's row residuals
// (rowResiduals) give each row the same bits whether it is computed in a
// group of four, alone (padded), or among other rows in another order, at
// orders below and above avx512's threshold for Dot4, so violationPass
// and exactTerms agree on the rows they share; each is within
// gamma_{n+1} of its terms of the residual summed in twice the precision.
func TestRowResidualsGrouping(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	for _, n := range []int{3, 10, 63, 70} {
		s := mustNew(t, randomQP(rng, n, 150, 1e3, false))
		if r := s.Solve(ctx); r.Status != StatusSolved {
			t.Fatalf("n=%d: status %v", n, r.Status)
		}
		all := make([]int32, s.m)
		for j := range all {
			all[j] = int32(j)
		}
		want := make([]float64, s.m)
		s.rowResiduals(all, want)
		got := make([]float64, s.m)
		for j := range all {
			s.rowResiduals(all[j:j+1], got[j:j+1])
		}
		perm := rng.Perm(s.m)
		shuffled := make([]int32, s.m)
		for i, j := range perm {
			shuffled[i] = int32(j)
		}
		other := make([]float64, s.m)
		s.rowResiduals(shuffled[:s.m-5], other[:s.m-5])
		g := vec.DotErrorBound(n + 1)
		for j := range all {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("n=%d row %d: alone %v, in fours %v", n, j, got[j], want[j])
			}
			size := math.Abs(s.bOrig[j])
			for k, a := range s.a[j] {
				size += math.Abs(a * s.x[k])
			}
			if e := s.exactResidual(j, s.x); math.Abs(want[j]-e) > g*size {
				t.Fatalf("n=%d row %d: residual %v, summed in twice the precision %v, bound %.3g", n, j, want[j], e, g*size)
			}
		}
		for i, j := range shuffled[:s.m-5] {
			if math.Float64bits(other[i]) != math.Float64bits(want[j]) {
				t.Fatalf("n=%d row %d: in another order %v, in fours %v", n, j, other[i], want[j])
			}
		}
	}
}

// TestGapCoversTheSums: with multipliers of 2e14 on rows of norm 5
// (testqp.HugeMultipliers: H = 2.6 I, x* ~ 7e6), q = c + A'lambda is
// ~1e7 built from terms ~1e15, and Objective and the dual value are sums
// of terms far larger than the gap: taken directly, -1/2 q'H^{-1}q -
// b'lambda was off from the exact dual value of the engine's multipliers
// (testqp.ExactDual) by 2e5. PenaltyGap(mu, xi) (mu = 2.6, xi = 2 max
// lambda) must bound the exact penalty gap at the engine's answer
// (testqp.ExactPenaltyGap) and be within twice it, and Dual (Objective -
// Gap) must agree with the exact dual value to 1e-12 of it.
func TestGapCoversTheSums(t *testing.T) {
	ridge, c, rows, b := testqp.HugeMultipliers()
	n := len(c)
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
		h[i][i] = ridge
	}
	s := mustNew(t, &Problem{N: n, H: dense(h), C: c, A: dense(rows), B: b})
	r := s.Solve(ctx)
	if r.Status != StatusSolved {
		t.Fatalf("status %v", r.Status)
	}
	exact := testqp.ExactDual(ridge, c, rows, b, r.Lambda)
	diff := math.Abs(r.Dual - exact)
	xi := 0.0
	for _, l := range r.Lambda {
		xi = max(xi, 2*l)
	}
	gap := r.PenaltyGap(ridge, xi)
	exactGap := testqp.ExactPenaltyGap(ridge, c, rows, b, r.X, r.Lambda, xi)
	t.Logf("Dual %.17g, exact %.17g: off by %.3g; multipliers up to %.3g; penalty gap %.3g, exact %.3g, objective %.3g",
		r.Dual, exact, diff, xi/2, gap, exactGap, r.Objective)
	if !(diff <= 1e-12*math.Abs(exact)) {
		t.Errorf("Dual is off by %.3g", diff)
	}
	if !(exactGap <= gap) {
		t.Errorf("the exact penalty gap %.3g exceeds the certified %.3g", exactGap, gap)
	}
	if !(gap <= 2*exactGap) {
		t.Errorf("the certified gap %.3g is above twice the exact %.3g", gap, exactGap)
	}
}

// TestL1Term: the l1 term of the gap is formed within exact's allowance,
// 3 eps of itself: exactly 0 where w = l1 sign(x), 2 l1 |x| to one
// rounding where w = -l1 sign(x), l1 |x| where w = 0. The difference of
// the two rounded products is not: fused into one multiply-subtract, as
// arm64 compiles it (math.FMA here), it is one product's rounding error,
// of either sign, where the term is 0.
func TestL1Term(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	fusedOff := 0
	for range 10000 {
		l1 := rng.Float64()
		// The conversion rounds x: without it the compiler may fuse the
		// product into l1Term's |x| - x once inlined, as arm64's does,
		// and x is then not the float64 the term is of.
		x := float64(rng.NormFloat64() * 1e4)
		s := math.Copysign(1, x)
		for _, c := range []struct{ w, want float64 }{{s * l1, 0}, {-s * l1, 2 * l1 * math.Abs(x)}, {0, l1 * math.Abs(x)}} {
			if got := l1Term(l1, c.w, x); math.Abs(got-c.want) > 3*0x1p-53*c.want {
				t.Fatalf("l1 %v, w %v, x %v: term %v, want %v", l1, c.w, x, got, c.want)
			}
		}
		if math.FMA(-s*l1, x, l1*math.Abs(x)) != 0 {
			fusedOff++
		}
	}
	if fusedOff == 0 {
		t.Error("the fused difference was never off: the test shows nothing")
	}
	t.Logf("the fused difference was off in %d of 10000 draws", fusedOff)
	if got := l1Term(0.5, 0.25, 0); got != 0 {
		t.Errorf("a held kink's term is %v, want 0", got)
	}
}

// TestGapCoversUnderflow: a row of entries about 1e-302 (its norm and
// right-hand side over it ordinary numbers) active at x*, its multiplier
// on the caller's scale then about 1e302, and its residual at x about
// 1e-318: below the normal range, where the products' rounding errors,
// which the compensated residual takes exactly otherwise, lose up to
// 2^-1075 each. Times the multiplier that is 1e-21 of the gap: Terms, and
// so PenaltyGap, missed it (4.870780e-16 certified where the exact
// penalty gap was 4.870786e-16; found by softpen's adversarial "mixed
// scales" family). PenaltyGap must bound the exact penalty gap
// (testqp.ExactPenaltyGap) on every draw.
func TestGapCoversUnderflow(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	tested := 0
	for range 300 {
		n := 2 + rng.IntN(3)
		ridge := 0.1 + rng.Float64()
		h := make([][]float64, n)
		c := make([]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
			h[i][i] = ridge
			c[i] = 3 * rng.NormFloat64()
		}
		var rows [][]float64
		var b []float64
		for k := range 2 + rng.IntN(2) {
			scale := 1.0
			if k == 0 {
				scale = math.Pow(10, -300-5*rng.Float64())
			}
			row := make([]float64, n)
			for i := range row {
				row[i] = scale * rng.NormFloat64()
			}
			rows, b = append(rows, row), append(b, scale*rng.NormFloat64())
		}
		s := mustNew(t, &Problem{N: n, H: dense(h), C: c, A: dense(rows), B: b})
		r := s.Solve(ctx)
		if r.Status != StatusSolved || r.Lambda[0] < 1e250 {
			continue // not the tiny row active
		}
		tested++
		xi := 0.0
		for _, l := range r.Lambda {
			xi = max(xi, 2*l)
		}
		gap := r.PenaltyGap(ridge, xi)
		if exact := testqp.ExactPenaltyGap(ridge, c, rows, b, r.X, r.Lambda, xi); !(exact <= gap) {
			t.Errorf("rows %v, b %v, c %v, ridge %v: the exact penalty gap %.7g exceeds the certified %.7g", rows, b, c, ridge, exact, gap)
		}
	}
	if tested < 20 {
		t.Errorf("the tiny row was active in %d draws only: the test shows little", tested)
	}
	t.Logf("%d draws with the tiny row active", tested)
}

// TestPenaltyWeightOverMembers: PenaltyWeight, taken over the working set's
// members, is 2 max(max_j Lambda_j, max_i |Nu_i|, 0) over every entry, bit
// for bit, on solved problems with rows and equalities, cold and after
// SetB.
func TestPenaltyWeightOverMembers(t *testing.T) {
	full := func(r *Result) float64 {
		w := 0.0
		for _, l := range r.Lambda {
			w = max(w, 2*l)
		}
		for _, l := range r.Nu {
			w = max(w, 2*math.Abs(l))
		}
		return w
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 5, 20} {
		for _, box := range []bool{false, true} {
			p := randomQP(rng, n, 3*n, 1e3, box)
			if n > 1 {
				p.Aeq = mat.NewDense(1, n)
				for i := range n {
					p.Aeq.Row(0)[i] = rng.NormFloat64()
				}
				p.Beq = []float64{rng.NormFloat64()}
			}
			s := mustNew(t, p)
			for k := 0; k < 3; k++ {
				r := s.Solve(ctx)
				if got, want := r.PenaltyWeight(), full(r); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("n %d box %v solve %d: PenaltyWeight %v, want %v", n, box, k, got, want)
				}
				for j := range p.B {
					p.B[j] += 0.1 * rng.NormFloat64()
				}
				if err := s.SetB(p.B); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestResidualOfAlternatingHugeTerms: a row whose products with x are
// +-1e308 in turn (its residual's partial sums in column order 1e308, 0,
// 1e308, ... are finite, and so is its exact value): the residual summed
// in twice the precision is finite (vec.ExactSum.AddDot's four running
// sums put two 1e308 in one, overflowed and gave NaN). And a residual that
// is not finite counts as a violation in the certificate's terms: NaN had
// read as a row that holds.
func TestResidualOfAlternatingHugeTerms(t *testing.T) {
	n := 5
	h := mat.NewDense(n, n)
	c := make([]float64, n)
	for i := range n {
		h.Row(i)[i] = 1
		c[i] = -1e8
	}
	a := mat.NewDense(1, n)
	copy(a.Row(0), []float64{1e300, -1e300, 1e300, -1e300, 1e300})
	s, err := New(&Problem{N: n, H: h, C: c, A: a, B: []float64{1e308}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1e8, 1e8, 1e8, 1e8, 1e8}
	if r := s.exactResidual(0, x); math.IsNaN(r) || math.IsInf(r, 0) {
		t.Errorf("residual at x = %v: %v", x, r)
	}
	for _, r := range []float64{math.NaN(), math.Inf(1)} {
		var terms gapTerms
		terms.row(0, r, 1)
		if terms.nv != 1 || !(math.IsNaN(terms.viol) || math.IsInf(terms.viol, 1)) {
			t.Errorf("residual %v: %d rows violated, violation %v", r, terms.nv, terms.viol)
		}
	}
}

// TestRowOfHugeNormAtLargeX: a row of norm 7e229 at the unconstrained
// minimiser x_u (entries ~1e87) has products beyond float64's range; on
// the caller's scale its residual (exactly 7e316) came out -Inf, a row
// that holds, and x_u was answered solved. On the unit scale
// (unusualViolations) the row is violated, the solve admits it, and the
// answer is x_u's projection onto it (exact reference in 300-bit floats).
func TestRowOfHugeNormAtLargeX(t *testing.T) {
	n := 3
	h := mat.NewDense(n, n)
	for i := range n {
		h.Row(i)[i] = 1e-4
	}
	c := []float64{4.042212479860924e+82, -8.86848611004478e+82, 9.380998657652757e+82}
	a := mat.NewDense(1, n)
	copy(a.Row(0), []float64{2.921178841622822e+229, 3.258624898372534e+229, -5.619781161647419e+229})
	b := -1.1249061438527518e-16
	s, err := New(&Problem{N: n, H: h, C: c, A: a, B: []float64{b}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Solve(context.Background())
	// x* = x_u - (a'x_u - b)/||a||^2 a, x_u = -c/1e-4.
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(300).SetFloat64(v) }
	xu := make([]*big.Float, n)
	ax, aa := bf(-b), bf(0)
	for i := range xu {
		xu[i] = new(big.Float).SetPrec(300).Quo(bf(-c[i]), bf(1e-4))
		ax.Add(ax, new(big.Float).SetPrec(300).Mul(bf(a.Row(0)[i]), xu[i]))
		aa.Add(aa, new(big.Float).SetPrec(300).Mul(bf(a.Row(0)[i]), bf(a.Row(0)[i])))
	}
	if ax.Sign() <= 0 {
		t.Fatal("the row holds at x_u: no test")
	}
	step := new(big.Float).SetPrec(300).Quo(ax, aa)
	for i := range xu {
		want, _ := new(big.Float).SetPrec(300).Sub(xu[i], new(big.Float).SetPrec(300).Mul(step, bf(a.Row(0)[i]))).Float64()
		if math.Abs(r.X[i]-want) > 1e-12*math.Abs(want) {
			t.Fatalf("%v, x = %v, want x* = x_u's projection (entry %d %.17g)", r.Status, r.X, i, want)
		}
	}
	if r.Status != StatusSolved || r.Active != 1 {
		t.Errorf("%v with %d members", r.Status, r.Active)
	}
}
