package newtoncg

import (
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestCertifyPenalty: at points near and far from x* and at penalties
// (xi, delta) above and below the multipliers, CertifyPenalty's bounds
// hold against F* (newtoncg's solve to 1e-12): its dual bound, F(x) + xr
// sum (r_i)_+ - gap with xr = max(xi, 2 max lhat), never exceeds F*
// (any lhat >= 0 gives one); its inner gap is >= 0; its violations are
// those of x; its multipliers lie in [0, xi], and are 0 on the rows
// dropped.
func TestCertifyPenalty(t *testing.T) {
	for _, loss := range []Loss{Logistic, Squared} {
		p := randomProblem(300, 40, 0.2, loss, 7)
		p.L1 = 1e-3
		p = withRows(p, 30, 0.3, 13)
		ref := New(p, Options{Tol: 1e-12}).Solve()
		fstar, xs := ref.Objective, append([]float64(nil), ref.X...)
		var lamStar float64
		for _, l := range ref.Lambda {
			lamStar = max(lamStar, l)
		}
		w := New(p, Options{})
		g := lcg(3)
		x := make([]float64, len(xs))
		r := make([]float64, p.A.Rows)
		for trial := range 60 {
			scale := math.Pow(10, -float64(trial%6)) // from far to near x*
			for j := range x {
				x[j] = xs[j] + scale*(g.next()-0.5)
			}
			xi := lamStar * math.Pow(4, float64(trial%5)-1)
			delta := math.Pow(10, -1-float64(trial%7))
			var drop []bool // a third of the trials with rows dropped at random
			if trial%3 == 1 {
				drop = make([]bool, p.A.Rows)
				for i := range drop {
					drop[i] = g.next() < 0.5
				}
			}
			f, inner, gap, viol, rel := w.CertifyPenalty(x, xi, delta, drop)
			p.A.MulVec(r, x)
			var pen, want float64
			for i := range r {
				r[i] -= p.B[i]
				pen += max(r[i], 0)
				want = max(want, r[i])
			}
			xr := xi
			for i, l := range w.PenaltySlopes() {
				if drop != nil && drop[i] && l != 0 {
					t.Fatalf("%v trial %d: row %d dropped, multiplier %g", loss, trial, i, l)
				}
				if !(l >= 0 && l <= xi) {
					t.Fatalf("%v trial %d: multiplier %g outside [0, xi = %g]", loss, trial, l, xi)
				}
				xr = max(xr, 2*l)
			}
			if lower := f + xr*pen - gap; lower > fstar+1e-12*max(1, math.Abs(fstar)) {
				t.Fatalf("%v trial %d (xi %.3g delta %.3g): dual bound %.17g above F* %.17g", loss, trial, xi, delta, lower, fstar)
			}
			if !(inner >= 0) || !(gap >= inner) || !(rel >= 0) {
				t.Fatalf("%v trial %d: inner %g gap %g rel %g", loss, trial, inner, gap, rel)
			}
			if math.Abs(viol-max(want, 0)) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("%v trial %d: violation %g, want %g", loss, trial, viol, want)
			}
		}
	}
}

// TestFarkasFrom: rows x_0 - x_1 <= -1 and 2 x_1 - 2 x_0 <= 0, with no
// bounds, are proved infeasible by y = (1, 1/2). The violations at a
// computed minimiser of the squared violation, (0.79999999999936,
// 0.4000000000012), are no certificate as they stand (A'v is 1e-12, far
// beyond its rounding, and a column without bounds needs it 0), nor are
// their indicators; FarkasFrom finds (1, 1/2) in them. A v from feasible
// rows proves nothing.
func TestFarkasFrom(t *testing.T) {
	p := randomProblem(20, 2, 1, Squared, 3)
	p.A = &mat.Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 2, 4}, Idx: []int32{0, 1, 0, 1}, Val: []float64{1, -1, -2, 2}}
	p.B = []float64{-1, 0}
	w := New(p, Options{})
	v := []float64{0.7999999999993861, 0.4000000000012278}
	if w.checkFarkas([]float64{1, v[1] / v[0]}) {
		t.Fatal("the raw violations pass as a certificate")
	}
	y, ok := w.FarkasFrom(v)
	if !ok || y[0] != 1 || y[1] != 0.5 {
		t.Fatalf("FarkasFrom: %v %v, want [1 0.5] true", y, ok)
	}
	p.B = []float64{-1, 3} // x_1 - x_0 in [1, 1.5]: feasible
	w = New(p, Options{})
	if y, ok := w.FarkasFrom(v); ok {
		t.Fatalf("FarkasFrom on feasible rows: %v", y)
	}
}
