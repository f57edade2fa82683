package newtoncg

import (
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// lcg is a tiny deterministic generator for the tests' data.
type lcg uint64

func (g *lcg) next() float64 {
	*g = *g*6364136223846793005 + 1442695040888963407
	return float64(uint64(*g)>>11) / (1 << 53)
}

// randomProblem returns l rows over n features, about density of them
// nonzero, with column scales spread over 1e-2..1e2 (as TF-IDF and counts
// are), labels from a planted model with flips.
func randomProblem(l, n int, density float64, loss Loss, seed uint64) Problem {
	g := lcg(seed)
	scale := make([]float64, n)
	wt := make([]float64, n)
	for j := range scale {
		scale[j] = math.Pow(10, 4*g.next()-2)
		wt[j] = (g.next() - 0.5) / scale[j]
	}
	x := &mat.Sparse{Rows: l, Cols: n, Ptr: make([]int, l+1)}
	y := make([]float64, l)
	for i := 0; i < l; i++ {
		var t float64
		for j := 0; j < n; j++ {
			if g.next() < density {
				v := scale[j] * (g.next() - 0.3)
				x.Idx = append(x.Idx, int32(j))
				x.Val = append(x.Val, v)
				t += v * wt[j]
			}
		}
		x.Ptr[i+1] = len(x.Idx)
		if loss == Logistic {
			y[i] = 1
			if t+0.5*(g.next()-0.5) < 0 {
				y[i] = -1
			}
		} else {
			y[i] = t + g.next() - 0.5
		}
	}
	return Problem{X: x, Y: y, Loss: loss, Ridge: 1e-3}
}

// reference minimises F by accelerated proximal gradient with restarts,
// long enough to be far more accurate than the tests' comparisons.
func reference(p Problem) (x []float64, f float64) {
	w := New(p, Options{})
	n := p.X.Cols
	d := p.X.ToDense()
	// Lipschitz constant of the smooth part: maxCurvature ||Phi||^2/l + ridge.
	v := make([]float64, n)
	for j := range v {
		v[j] = 1
	}
	tmp := make([]float64, p.X.Rows)
	var nrm float64
	for it := 0; it < 200; it++ {
		d.MulVec(tmp, v)
		clear(v)
		d.MulTransVecAdd(v, tmp)
		nrm = 0
		for _, e := range v {
			nrm += e * e
		}
		nrm = math.Sqrt(nrm)
		for j := range v {
			v[j] /= nrm
		}
	}
	step := 1 / (p.Loss.maxCurvature()*nrm*1.01/float64(p.X.Rows) + p.Ridge)
	x, y, xOld := make([]float64, n), make([]float64, n), make([]float64, n)
	prox := func(dst []float64) {
		for j := range dst {
			dst[j] = SoftThreshold(dst[j], step*p.L1)
			dst[j] = math.Min(math.Max(dst[j], w.lower(j)), w.upper(j))
		}
	}
	prox(x)
	copy(y, x)
	theta := 1.0
	fPrev := math.Inf(1)
	t := make([]float64, p.X.Rows)
	fBest, since := math.Inf(1), 0
	iters := 30000
	if testing.Short() {
		iters = 3000 // a weaker reference still brackets F* from above
	}
	for it := 0; it < iters && since < 3000; it++ {
		copy(w.x, y)
		p.X.MulVec(w.t, y)
		w.derivatives()
		copy(xOld, x)
		for j := range x {
			x[j] = y[j] - step*w.g[j]
		}
		prox(x)
		p.X.MulVec(t, x)
		fx := w.objective(x, t)
		thetaNew := (1 + math.Sqrt(1+4*theta*theta)) / 2
		if fx > fPrev {
			thetaNew, theta = 1, 1 // restart
		}
		for j := range y {
			y[j] = x[j] + (theta-1)/thetaNew*(x[j]-xOld[j])
		}
		theta, fPrev = thetaNew, fx
		if since++; fx < fBest {
			fBest, since = fx, 0
		}
	}
	p.X.MulVec(t, x)
	return x, w.objective(x, t)
}

// TestCertifiedAgainstReference: on sparse problems with spread column
// scales, for each loss, with and without bounds and l1, Solve ends
// Solved with a certified gap at the tolerance, its objective is no worse
// than a long first-order run's (to rounding), and the certificate is
// honest: F(x) - Gap <= F* <= F_reference, each F to within the
// rounding of its evaluation.
func TestCertifiedAgainstReference(t *testing.T) {
	for _, loss := range []Loss{Logistic, Squared} {
		for _, c := range []struct {
			name   string
			l1     float64
			lo, hi float64
		}{{"ridge", 0, math.Inf(-1), math.Inf(1)}, {"box", 0, -0.5, 0.5}, {"l1", 3e-3, math.Inf(-1), math.Inf(1)}, {"l1+box", 3e-3, -0.2, 1}, {"nonneg", 1e-3, 0, math.Inf(1)}} {
			p := randomProblem(300, 40, 0.2, loss, 7)
			p.L1 = c.l1
			if !math.IsInf(c.lo, -1) || !math.IsInf(c.hi, 1) {
				p.Lower, p.Upper = make([]float64, 40), make([]float64, 40)
				for j := range p.Lower {
					p.Lower[j], p.Upper[j] = c.lo, c.hi
				}
			}
			w := New(p, Options{Tol: 1e-13})
			res := w.Solve()
			_, fRef := reference(p)
			t.Logf("%v %s: status %v F %.17g gap %.2g iters %d cg %d passes %d; reference %.17g", loss, c.name, res.Status, res.Objective, res.Gap, res.Iterations, res.CGSteps, res.Passes, fRef)
			if res.Status != Solved || !(res.Gap <= 1e-13*math.Max(1, math.Abs(res.Objective))) {
				t.Errorf("%v %s: status %v gap %g", loss, c.name, res.Status, res.Gap)
			}
			// Both objectives are float64 sums of l + n nonnegative terms:
			// compare them to within that rounding.
			fRound := 2 * vec.DotErrorBound(300+40) * math.Abs(fRef)
			if res.Objective > fRef+fRound {
				t.Errorf("%v %s: F %.17g above the reference's %.17g", loss, c.name, res.Objective, fRef)
			}
			if res.Objective-res.Gap > fRef+fRound {
				t.Errorf("%v %s: F - gap = %.17g above the reference's F %.17g: the certificate is wrong", loss, c.name, res.Objective-res.Gap, fRef)
			}
		}
	}
}

// TestThreads: with its passes split among goroutines (a problem of some
// 300k nonzeros, four chunks), Solve certifies the same optimum as on one
// (the two answers' objectives within the sum of their gaps), gives the
// same bits on every run, and a warm re-solve allocates nothing.
func TestThreads(t *testing.T) {
	p := randomProblem(3000, 1000, 0.1, Logistic, 11)
	p.L1 = 1e-4
	one := New(p, Options{Tol: 1e-11}).Solve()
	w := New(p, Options{Tol: 1e-11, Threads: 4})
	if w.team.Chunks() != 4 {
		t.Fatalf("%d chunks for %d nonzeros", w.team.Chunks(), p.X.NNZ())
	}
	four := w.Solve()
	if one.Status != Solved || four.Status != Solved {
		t.Fatalf("status %v on one thread, %v on four", one.Status, four.Status)
	}
	if d := math.Abs(one.Objective - four.Objective); d > one.Gap+four.Gap {
		t.Fatalf("objectives %.17g and %.17g differ by %.3g, beyond the gaps %.3g + %.3g", one.Objective, four.Objective, d, one.Gap, four.Gap)
	}
	x4 := append([]float64(nil), four.X...)
	again := New(p, Options{Tol: 1e-11, Threads: 4}).Solve()
	for j := range x4 {
		if math.Float64bits(x4[j]) != math.Float64bits(again.X[j]) {
			t.Fatalf("x[%d] differs between two runs on four threads", j)
		}
	}
	if a := testing.AllocsPerRun(3, func() { w.Solve() }); a != 0 {
		t.Errorf("warm Solve on four threads: %v allocations", a)
	}
}

// TestOverflowNotSolved: with the squared loss, y = 2e154 and ridge 1e-3,
// F(0) = y^2/2 overflows to +Inf though F* = 2e305 is finite, and the gap
// at 0 is +Inf too: Inf <= Tol Inf held, and Solve answered Solved at
// x = 0, 2e154 from x*. No tolerance is met by an infinite F.
func TestOverflowNotSolved(t *testing.T) {
	x := &mat.Sparse{Rows: 1, Cols: 1, Ptr: []int{0, 1}, Idx: []int32{0}, Val: []float64{1}}
	res := New(Problem{X: x, Y: []float64{2e154}, Loss: Squared, Ridge: 1e-3}, Options{}).Solve()
	if res.Status == Solved {
		t.Errorf("solved at x = %v, objective %g, gap %g; x* = %g", res.X, res.Objective, res.Gap, 2e154/1.001)
	}
}
