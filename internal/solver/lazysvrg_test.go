package solver

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/internal/newtoncg"
	"github.com/softpen/softpen/internal/sparsegen"
	"github.com/softpen/softpen/mat"
)

// TestLazyAdvance: advance's closed form of d untouched steps equals the d
// steps taken one by one (prox of the same c_j), to rounding, for steps
// whose paths stay on one piece of the soft threshold, cross the dead
// zone, stop in it, or run into a bound, over tables shorter and longer
// than d.
func TestLazyAdvance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 20000 {
		z := &lazySVRG{eta: math.Exp(rng.NormFloat64()), ridge: math.Exp(2 * rng.NormFloat64())}
		st := &lazyCoord{c: 4 * rng.NormFloat64()}
		if trial%3 != 0 {
			z.l1 = math.Abs(3 * rng.NormFloat64())
		}
		if trial%4 == 0 {
			z.lower, z.upper = []float64{-rng.Float64()}, []float64{rng.Float64()}
		}
		z.a = 1 / (1 + z.eta*z.ridge)
		st.fix = -st.c / z.ridge
		z.pow = make([]float64, 1+rng.IntN(60))
		z.pow[0] = 1
		for i := 1; i < len(z.pow); i++ {
			z.pow[i] = z.pow[i-1] * z.a
		}
		x := z.clip(10*rng.NormFloat64(), 0)
		d := 1 + rng.IntN(100)
		want := x
		for range d {
			want = z.prox(want-z.eta*st.c, 0)
		}
		got := z.advance(x, st, 0, d)
		scale := math.Abs(x) + math.Abs(st.c+z.l1)/z.ridge + 1e-300
		if math.Abs(got-want) > 1e-12*scale {
			t.Fatalf("trial %d: x %g c %g l1 %g ridge %g eta %g d %d: advance %.17g, steps %.17g", trial, x, st.c, z.l1, z.ridge, z.eta, d, got, want)
		}
	}
}

// zipfFit is a logistic fitting problem on Zipf rows (sparsegen.Zipf).
func zipfFit(l, n, k int, seed uint64) newtoncg.Problem {
	set := sparsegen.Zipf(l, n, k, 1, seed)
	x := &mat.Sparse{Rows: l, Cols: n, Ptr: set.Ptr, Idx: set.Idx, Val: set.Val}
	return newtoncg.Problem{X: x, Y: set.Labels, Loss: newtoncg.Logistic, Ridge: 1 / float64(l)}
}

// TestLazyEpochAllocs: an epoch of steps (of SVRG, an APG step, a pass
// of SGD) and a whole solve allocate nothing, and the same seed gives the
// same iterates bit for bit.
func TestLazyEpochAllocs(t *testing.T) {
	p := zipfFit(2000, 5000, 10, 1)
	for _, c := range []struct {
		m     Method
		tol   float64
		steps int64 // a budget: SGD's average stalls above 1e-6
		l1    float64
	}{{MethodSVRG, 1e-6, 1 << 62, 1e-4}, {MethodAPG, 1e-6, 1 << 62, 1e-4}, {MethodSGD, 1e-6, 2e6, 1e-4}, {MethodSGDM, 1e-6, 2e6, 0}} {
		p.L1 = c.l1 // sgdm's lazy form takes none
		stop := func(steps int64) bool { return steps > c.steps }
		run := func() *lazySVRG {
			z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 7}, c.m)
			z.solve(c.tol, stop, nil)
			return z
		}
		a, b := run(), run()
		for j := range a.best {
			if math.Float64bits(a.best[j]) != math.Float64bits(b.best[j]) {
				t.Fatalf("%v: x[%d]: %g and %g from the same seed", c.m, j, a.best[j], b.best[j])
			}
		}
		if allocs := testing.AllocsPerRun(3, func() { a.step() }); allocs != 0 {
			t.Errorf("%v: an epoch allocates %v times", c.m, allocs)
		}
		if allocs := testing.AllocsPerRun(3, func() { a.solve(c.tol, stop, nil) }); allocs != 0 {
			t.Errorf("%v: a warm solve allocates %v times", c.m, allocs)
		}
	}
}

// TestLazyDrawsAhead: the rows runEpoch takes, drawn lazyAhead steps
// early and carried from epoch to epoch, are those alias.sample draws one
// step at a time from the same seed; a cold restart draws them again from
// the start. Row i of the data is the unit vector e_i times a weight, so
// coordinate i's last is the last step at which row i was taken.
func TestLazyDrawsAhead(t *testing.T) {
	const l = 40
	x := &mat.Sparse{Rows: l, Cols: l, Ptr: make([]int, l+1), Idx: make([]int32, l), Val: make([]float64, l)}
	y := make([]float64, l)
	wt := make([]float64, l)
	for i := range l {
		x.Ptr[i+1], x.Idx[i], x.Val[i] = i+1, int32(i), 1+float64(i%7)
		y[i] = float64(1 - 2*(i%2))
		wt[i] = x.Val[i] * x.Val[i]
	}
	p := newtoncg.Problem{X: x, Y: y, Loss: newtoncg.Logistic, Ridge: 1.0 / l}
	z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 11, SVRGEpoch: 0.75}, MethodSVRG)
	var rows alias
	rows.build(wt)
	for restart := range 2 {
		z.reset()
		z.solve(0, func(int64) bool { return true }, nil) // seeds and draws ahead, takes no step
		var r rng
		r.seed(11)
		last := make([]int, l)
		for i := range last {
			last[i] = -1
		}
		for epoch := range 4 {
			for k := range z.epoch {
				last[rows.sample(&r)] = epoch*z.epoch + k // the step, counted since the seed
			}
			z.runEpoch()
			for i := range l {
				if got := z.st[i].last; got != last[i] {
					t.Fatalf("restart %d, epoch %d: row %d last taken at step %d, alias.sample draws it last at %d", restart, epoch, i, got, last[i])
				}
			}
		}
	}
}

// BenchmarkLazySVRGStep is the time of one SVRG step on sparse rows,
// epochs of 2l steps with their closing catch-up, at 20 nonzeros a row
// (l = 1e5 Zipf rows; 1e4 under -short) as n grows from 1e3 to 1e6: lazy
// updates keep it independent of n, up to the caches' share of the
// n-vectors.
func BenchmarkLazySVRGStep(b *testing.B) { benchLazyStep(b, MethodSVRG) }

// BenchmarkLazySGDMStep is BenchmarkLazySVRGStep for SGDM (passes of l
// steps, its catch-ups by advanceMom) beside SGD's.
func BenchmarkLazySGDMStep(b *testing.B) {
	for _, m := range []Method{MethodSGD, MethodSGDM} {
		b.Run(m.String(), func(b *testing.B) { benchLazyStep(b, m) })
	}
}

// benchLazyStep times the steps of method, as BenchmarkLazySVRGStep says.
func benchLazyStep(b *testing.B, method Method) {
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rows := 100000
			if testing.Short() {
				rows = 10000
			}
			p := zipfFit(rows, n, 20, 1)
			z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 1}, method)
			z.solve(0, func(int64) bool { return true }, nil) // the first certificate only
			z.snapshot()
			steps := 0
			for b.Loop() {
				z.runEpoch()
				steps += z.epoch
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
		})
	}
}

// zipfFitRows is zipfFit with m sparse rows A x <= 0 (sparsegen.ZipfRows:
// on the frequent features, many of them active at the answer).
func zipfFitRows(l, n, k, m int, seed uint64) newtoncg.Problem {
	p := zipfFit(l, n, k, seed)
	rs := sparsegen.ZipfRows(m, n, k, 1, seed+1)
	p.A = &mat.Sparse{Rows: m, Cols: n, Ptr: rs.Ptr, Idx: rs.Idx, Val: rs.Val}
	p.B = rs.Labels
	return p
}

// TestLazyRowsOfA: SVRG and catalyst-SVRG with rows of A by the softplus
// penalty certify the tolerance, and their answers agree with the
// augmented Lagrangian's (newtoncg, solved to 1e-12) as the certificate
// says they must: |F(x) - F*| <= 2 gap (the gap bounds F(x) + xr sum
// (r_i)_+ - F*, and xr >= 2 max lhat makes xr sum (r_i)_+ at most twice
// it), each row holds to the tolerance relative to its terms, and the
// multipliers are >= 0. The rows screened out hold strictly at x* with
// multiplier 0, and without screening the answer agrees as well. The same
// seed gives the same bits; an epoch and a warm solve allocate nothing.
func TestLazyRowsOfA(t *testing.T) {
	const tol = 1e-6
	p := zipfFitRows(300, 200, 8, 20, 2)
	p.Ridge = 1e-2
	ref := newtoncg.New(p, newtoncg.Options{Tol: 1e-12}).Solve()
	if ref.Status != newtoncg.Solved {
		t.Fatalf("newton-cg: status %v", ref.Status)
	}
	active := 0
	for _, l := range ref.Lambda {
		if l > 0 {
			active++
		}
	}
	if active == 0 {
		t.Fatal("no row of A is active at the answer: the test tests nothing")
	}
	for _, m := range []Method{MethodSVRG, MethodCatalyst, MethodAPG} {
		run := func() (*lazySVRG, lazyResult) {
			z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 5}, m)
			return z, z.solve(tol, func(steps int64) bool { return steps > 2e8 }, nil)
		}
		z, r := run()
		t.Logf("%v: %v after %d epochs, %d steps, gap %.3g, viol %.3g, xi %g, delta %g; %d rows active",
			m, r.status, r.iterations, z.steps, r.gap, r.viol, z.xi, z.delta, active)
		if r.status != newtoncg.Solved || !(r.gap <= tol*max(1, math.Abs(r.objective))) {
			t.Fatalf("%v: status %v, gap %.3g", m, r.status, r.gap)
		}
		if d := math.Abs(r.objective - ref.Objective); d > 2*r.gap+1e-12*math.Abs(ref.Objective) {
			t.Errorf("%v: F(x) = %.15g, F* = %.15g: %.3g apart, beyond twice the gap %.3g", m, r.objective, ref.Objective, d, r.gap)
		}
		ax := make([]float64, p.A.Rows)
		p.A.MulVec(ax, r.x)
		for i, v := range ax {
			idx, val := p.A.Row(i)
			var size float64
			for q, j := range idx {
				size += math.Abs(val[q]) * max(math.Abs(r.x[j]), 1)
			}
			if v-p.B[i] > tol*size {
				t.Errorf("%v: row %d violated by %.3g, terms %.3g", m, i, v-p.B[i], size)
			}
			if !(r.lambda[i] >= 0) {
				t.Errorf("%v: lambda[%d] = %g", m, i, r.lambda[i])
			}
		}
		// The rows screened out are inactive at x*: they hold strictly at
		// newton-cg's answer, with multiplier 0.
		if z.dropped == 0 {
			t.Errorf("%v: no row screened, of %d inactive", m, p.A.Rows-active)
		}
		p.A.MulVec(ax, ref.X)
		for k, d := range z.drop {
			if d && !(ax[k] < p.B[k] && ref.Lambda[k] == 0) {
				t.Errorf("%v: row %d screened, but at x* its residual is %g and its multiplier %g", m, k, ax[k]-p.B[k], ref.Lambda[k])
			}
		}
		if m == MethodSVRG { // without screening: the same answer, to the gaps
			zn := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 5, Screen: ScreenNone}, MethodSVRG)
			rn := zn.solve(tol, func(steps int64) bool { return steps > 2e8 }, nil)
			t.Logf("without screening: %v after %d epochs, gap %.3g", rn.status, rn.iterations, rn.gap)
			if rn.status != newtoncg.Solved || zn.dropped != 0 || math.Abs(rn.objective-ref.Objective) > 2*rn.gap+1e-12 {
				t.Errorf("without screening: %v, %d rows dropped, F %.15g against %.15g, gap %.3g", rn.status, zn.dropped, rn.objective, ref.Objective, rn.gap)
			}
		}
		_, r2 := run()
		for j := range r.x {
			if math.Float64bits(r.x[j]) != math.Float64bits(r2.x[j]) {
				t.Fatalf("%v: x[%d]: %g and %g from the same seed", m, j, r.x[j], r2.x[j])
			}
		}
		if allocs := testing.AllocsPerRun(2, func() { z.step() }); allocs != 0 {
			t.Errorf("%v: an epoch allocates %v times", m, allocs)
		}
		if allocs := testing.AllocsPerRun(1, func() { z.solve(tol, func(steps int64) bool { return steps > 2e8 }, nil) }); allocs != 0 {
			t.Errorf("%v: a warm solve allocates %v times", m, allocs)
		}
	}
}

// TestLazyRowsOfAInfeasible: rows that no x satisfies (x_0 <= -1 and
// -x_0 <= -1) saturate the penalty's multipliers; xi grows until they
// prove it, and the solve ends Infeasible with y = (1, 1).
func TestLazyRowsOfAInfeasible(t *testing.T) {
	p := zipfFit(50, 20, 4, 3)
	p.A = &mat.Sparse{Rows: 2, Cols: 20, Ptr: []int{0, 1, 2}, Idx: []int32{0, 0}, Val: []float64{1, -1}}
	p.B = []float64{-1, -1}
	z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 1}, MethodSVRG)
	r := z.solve(1e-8, func(steps int64) bool { return steps > 1e8 }, nil)
	if r.status != newtoncg.Infeasible {
		t.Fatalf("status %v after %d epochs (xi %g), want infeasible", r.status, r.iterations, z.xi)
	}
	if r.farkas[0] != 1 || r.farkas[1] != 1 {
		t.Errorf("Farkas vector %v, want [1 1]", r.farkas)
	}
}

// TestLazyRowsOfAFarFromFeasible: 300 rows with b = -0.05, infeasible at
// the cold start and saturated there, with multipliers up to 1.96: xi is
// raised only while a stage is near its own optimum, so it stays near
// lambda* (the saturation rule alone raised it every ten epochs, to
// 1.8e16), and the solve neither claims infeasibility nor stalls
// saturated within its budget.
func TestLazyRowsOfAFarFromFeasible(t *testing.T) {
	p := zipfFitRows(300, 200, 8, 300, 2)
	p.Ridge = 1e-2
	for i := range p.B {
		p.B[i] = -0.05
	}
	z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 5}, MethodSVRG)
	r := z.solve(1e-6, func(steps int64) bool { return steps > 3e6 }, nil)
	t.Logf("%v after %d epochs, gap %.3g, violation %.3g, xi %g", r.status, r.iterations, r.gap, r.viol, z.xi)
	if r.status == newtoncg.Infeasible || r.saturated || z.xi > 64 {
		t.Errorf("status %v (saturated %v), xi %g: the multipliers are at most 1.96", r.status, r.saturated, z.xi)
	}
}

// TestLazyRowsOfAScreenOutside: gap-safe screening at a point outside the
// rows needs xr >= lambda*, which nothing certifies; with lambda* = 150
// and 50 and xi = 1 an active row was dropped at the first epoch, and the
// solve never recovered. Screening only at points that meet the rows
// keeps both rows, and the solve meets the tolerance at newton-cg's
// multipliers (solved, or handed to newton-cg for a point that meets the
// rows to rounding, which a solve of the Solver then ends with).
func TestLazyRowsOfAScreenOutside(t *testing.T) {
	x := &mat.Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 1, 2}, Idx: []int32{0, 1}, Val: []float64{1e-8, 1e-8}}
	a := &mat.Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 1, 3}, Idx: []int32{0, 0, 1}, Val: []float64{1, -1, 1}}
	p := newtoncg.Problem{X: x, Y: []float64{0, 0}, Loss: newtoncg.Squared, Ridge: 1000, Q: []float64{-100, -50}, A: a, B: []float64{0, 0}}
	z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 5, Delta0: 0.05}, MethodSVRG)
	r := z.solve(1e-9, func(steps int64) bool { return steps > 1e7 }, nil)
	t.Logf("%v after %d epochs, gap %.3g, lambda %v, dropped %d", r.status, r.iterations, r.gap, r.lambda, z.dropped)
	met := r.status == newtoncg.Solved || r.violated && r.handover
	if !met || z.dropped != 0 || math.Abs(r.lambda[0]-150) > 0.1 || math.Abs(r.lambda[1]-50) > 0.1 {
		t.Errorf("%v, lambda %v (want 150, 50), %d rows dropped", r.status, r.lambda, z.dropped)
	}
}

// TestLazySGDMRefused: sgdm on sparse rows is refused with the reason
// (no closed form of its momentum through the prox) with l1 or finite
// bounds, given to New or later to SetBounds, and taken in its lazy form
// without them (infinite bounds are none), as apg and sgd are.
func TestLazySGDMRefused(t *testing.T) {
	p := zipfFit(50, 40, 4, 1)
	sp := func(l1, lo float64) *Problem {
		q := &Problem{N: 40, Loss: LossLogistic, PhiSparse: p.X, Y: p.Y, Ridge: 1e-2, L1: l1}
		if lo != 0 {
			q.Lower = make([]float64, 40)
			for j := range q.Lower {
				q.Lower[j] = math.Inf(-1)
			}
			q.Lower[3] = lo
		}
		return q
	}
	for _, c := range []struct{ l1, lo float64 }{{1e-3, 0}, {0, -1}} {
		if _, err := New(sp(c.l1, c.lo), &Options{Method: MethodSGDM}); !errors.Is(err, errSparseSGDM) {
			t.Errorf("sgdm, l1 %g, lower[3] %g: %v, want %v", c.l1, c.lo, err, errSparseSGDM)
		}
	}
	for _, m := range []Method{MethodAPG, MethodSGD, MethodSGDM} {
		s, err := New(sp(0, math.Inf(-1)), &Options{Method: m})
		if err != nil || s.sparseSVRG == nil || s.sparseSVRG.kind != kindOf(m) {
			t.Fatalf("%v: %v", m, err)
		}
		lo := make([]float64, 40)
		err = s.SetBounds(lo, nil)
		if m == MethodSGDM && !errors.Is(err, errSparseSGDM) || m != MethodSGDM && err != nil {
			t.Errorf("%v: SetBounds: %v", m, err)
		}
	}
}

// TestLazyMomAdvance: advanceMom's binary powers of the untouched steps'
// map give the d steps taken one by one (y = x + beta mom, mom <- beta
// mom - alpha (ridge y + q), x <- x + mom), to rounding, for d = 0..100
// and a d of a million and some, over momenta, steps and q. The large d's
// steps are taken about the map's fixed point (-q/ridge, 0) in twice the
// precision: in float64 as written, x stops moving once alpha ridge |x -
// x*| is below half an ulp of x, up to 1e-10 relative away from where the
// map goes (and about the fixed point a million roundings add up).
func TestLazyMomAdvance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	const big = 1<<20 + 12345
	worst := 0.0
	for trial := range 200 {
		beta := []float64{0, 0.5, 0.9, 0.99}[trial%4]
		ridge := math.Exp(2 * rng.NormFloat64())
		// alpha ridge up to 1 - beta, as the default step's (1 - beta)/(Lc + ridge)
		alpha := (1 - beta) * math.Exp(-12*rng.Float64()) / ridge
		z := &lazySVRG{eta: alpha, ridge: ridge, sgdm: lazySGDMState{beta: beta}}
		z.setMomPowers()
		c := 4 * rng.NormFloat64()
		fix := -c / ridge
		x0, m0 := 10*rng.NormFloat64(), rng.NormFloat64()
		scale := math.Abs(x0) + math.Abs(m0) + math.Abs(fix)
		check := func(d int, x, m float64) {
			gx, gm := z.advanceMom(x0, m0, fix, d)
			err := max(math.Abs(gx-x), math.Abs(gm-m)) / scale
			worst = max(worst, err)
			if err > 1e-12 {
				t.Fatalf("trial %d: beta %g alpha %g ridge %g c %g d %d: advanceMom (%.17g, %.17g), steps (%.17g, %.17g)", trial, beta, alpha, ridge, c, d, gx, gm, x, m)
			}
		}
		x, m := x0, m0
		for d := range 101 {
			check(d, x, m)
			y := x + beta*m
			m = beta*m - alpha*ridge*y - alpha*c
			x += m
		}
		if trial%10 != 0 { // the large d on a tenth of the trials
			continue
		}
		// mom <- beta (1 - ar) mom - ar u, u <- u + mom, in double-double
		f, ar := ddMul(dd{beta, 0}, ddAdd(dd{1, 0}, dd{-alpha * ridge, 0})), dd{alpha * ridge, 0}
		u, mm := ddAdd(dd{x0, 0}, dd{-fix, 0}), dd{m0, 0}
		for range big {
			mm = ddAdd(ddMul(f, mm), ddMul(dd{-ar.hi, 0}, u))
			u = ddAdd(u, mm)
		}
		check(big, fix+u.hi+u.lo, mm.hi+mm.lo)
	}
	t.Logf("largest error relative to |x| + |mom| + |q|/ridge: %.3g", worst)
}

// dd is a double-double number hi + lo, |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

// ddAdd returns a + b to about 2^-104 relative.
func ddAdd(a, b dd) dd {
	s := a.hi + b.hi
	v := s - a.hi
	e := (a.hi - (s - v)) + (b.hi - v) + a.lo + b.lo
	hi := s + e
	return dd{hi, e - (hi - s)}
}

// ddMul returns a b to about 2^-104 relative.
func ddMul(a, b dd) dd {
	p := a.hi * b.hi
	e := math.FMA(a.hi, b.hi, -p) + a.hi*b.lo + a.lo*b.hi
	hi := p + e
	return dd{hi, e - (hi - p)}
}

// TestLazySGDMSteps: lazy SGDM's steps on sparse rows (the coordinates a
// row does not touch caught up by advanceMom when next read, and all at a
// pass's end) give the iterates and momenta of the dense sgdmStep's
// formula taken over every coordinate at every step, to rounding, on the
// rows the lazy method draws, from a start with momentum, with q, with and
// without rows of A.
func TestLazySGDMSteps(t *testing.T) {
	for _, m := range []int{0, 20} {
		p := zipfFitRows(200, 300, 5, max(m, 1), 4)
		if m == 0 {
			p.A, p.B = nil, nil
		}
		p.Ridge = 1e-2
		rng := rand.New(rand.NewPCG(1, 2))
		p.Q = make([]float64, 300)
		for j := range p.Q {
			p.Q[j] = 0.1 * rng.NormFloat64()
		}
		z := newLazySVRG(p, newtoncg.New(p, newtoncg.Options{}), &Options{Seed: 7}, MethodSGDM)
		z.solve(0, func(int64) bool { return true }, nil) // seeds and draws ahead, takes no step
		x, mom := make([]float64, 300), make([]float64, 300)
		for j := range x {
			x[j], mom[j] = rng.NormFloat64(), 0.1*rng.NormFloat64()
		}
		copy(z.w, x)
		copy(z.sgdm.mom, mom)
		z.snapshot()
		beta, alpha := z.sgdm.beta, z.eta
		for epoch := range 3 {
			e0 := z.at
			for range z.epoch {
				i := z.ahead[z.at%lazyRing].row
				idx, val := z.row(i)
				var t float64
				for q, j := range idx {
					t += val[q] * (x[j] + beta*mom[j])
				}
				g := z.slope(i, t)
				for j := range x {
					y := x[j] + beta*mom[j]
					mom[j] = beta*mom[j] - alpha*z.ridge*y - alpha*p.Q[j]
				}
				for q, j := range idx {
					mom[j] -= alpha * g * val[q]
				}
				for j := range x {
					x[j] += mom[j]
				}
				z.runSteps(e0, 1)
			}
			z.catchUp(e0, false)
			for j := range x {
				if math.Abs(z.w[j]-x[j]) > 1e-12*(1+math.Abs(x[j])) || math.Abs(z.sgdm.mom[j]-mom[j]) > 1e-12*(1+math.Abs(x[j])) {
					t.Fatalf("m %d, epoch %d: coordinate %d: lazy (%.17g, %.17g), dense steps (%.17g, %.17g)", m, epoch, j, z.w[j], z.sgdm.mom[j], x[j], mom[j])
				}
			}
		}
	}
}
