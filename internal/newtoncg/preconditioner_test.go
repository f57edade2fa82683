package newtoncg

import (
	"math"
	"testing"
)

// TestRowPrecondInverse: precondition returns z = M^{-1} r for M = D +
// A_J' C A_J on the free variables, D = hdiag less the chosen rows'
// diagonal part, C = diag(curvA_J): M z is computed here from the rows
// directly and must give back r, to rounding with S factored and to
// schurTol's accuracy with S solved by conjugate gradients (maxRows 3).
// It allocates nothing once built.
func TestRowPrecondInverse(t *testing.T) {
	for _, maxRows := range []int{precondMaxRows, 3} {
		testRowPrecondInverse(t, maxRows)
	}
}

func testRowPrecondInverse(t *testing.T, maxRows int) {
	p := withRows(randomProblem(200, 30, 0.3, Logistic, 3), 24, 0.3, 5)
	tol := 1e-12
	if maxRows < p.A.Rows {
		tol = 1e3 * schurTol
	}
	for _, seed := range []uint64{1, 2} {
		w := New(p, Options{})
		w.pre.maxRows = maxRows
		g := lcg(seed)
		n, m := p.X.Cols, p.A.Rows
		for i := 0; i < m; i++ {
			w.curvA[i], w.lhat[i] = 0, 0
			if g.next() < 0.6 {
				w.curvA[i], w.lhat[i] = 0.5+g.next(), g.next()+0x1p-20
			}
		}
		for j := 0; j < n; j++ {
			w.free[j] = g.next() < 0.8
			w.hdiag[j] = 0.1 + g.next()
		}
		w.sumsA() // the rows' diagonal part into hdiag, as derivativesA does
		if !w.buildPrecond() {
			t.Fatalf("seed %d: preconditioner off", seed)
		}
		if w.pre.iterative != (maxRows < p.A.Rows) {
			t.Fatalf("seed %d, maxRows %d: S solved iteratively %v", seed, maxRows, w.pre.iterative)
		}
		if a := testing.AllocsPerRun(3, func() { w.buildPrecond() }); a != 0 {
			t.Errorf("seed %d: buildPrecond allocates %g times", seed, a)
		}
		chosen := make([]bool, m)
		for _, i := range w.pre.rows {
			chosen[i] = true
		}
		d := append([]float64(nil), w.hdiag...)
		for i := 0; i < m; i++ {
			if chosen[i] {
				idx, val := p.A.Row(i)
				for q, j := range idx {
					d[j] -= val[q] * val[q] * w.curvA[i]
				}
			}
		}
		r := make([]float64, n)
		for j := range r {
			if w.free[j] {
				r[j] = g.next() - 0.5
			}
		}
		z := make([]float64, n)
		rz := w.precondition(z, r)
		z2 := make([]float64, n)
		if a := testing.AllocsPerRun(3, func() { w.precondition(z2, r) }); a != 0 {
			t.Errorf("seed %d, maxRows %d: precondition allocates %g times", seed, maxRows, a)
		}
		mz := make([]float64, n)
		for j := range mz {
			if w.free[j] {
				mz[j] = d[j] * z[j]
			} else if z[j] != 0 {
				t.Fatalf("seed %d: z_%d = %g on a variable that is not free", seed, j, z[j])
			}
		}
		for i := 0; i < m; i++ {
			if !chosen[i] {
				continue
			}
			idx, val := p.A.Row(i)
			var az float64
			for q, j := range idx {
				az += val[q] * z[j]
			}
			for q, j := range idx {
				if w.free[j] {
					mz[j] += val[q] * w.curvA[i] * az
				}
			}
		}
		var dot float64
		for j := range r {
			dot += r[j] * z[j]
			if e := math.Abs(mz[j] - r[j]); e > tol {
				t.Errorf("seed %d, maxRows %d: (M z)_%d = %.17g, r_%d = %.17g", seed, maxRows, j, mz[j], j, r[j])
			}
		}
		if math.Abs(rz-dot) > 1e-14*math.Abs(dot) || !(rz > 0) {
			t.Errorf("seed %d: r'z returned %g, computed %g", seed, rz, dot)
		}
	}
}

// TestRowPrecondFewerCGSteps: on logistic problems with rows of A, half
// of them active at the answer, the rows' preconditioner reaches the same
// certified answer with fewer Hessian products than diag(H) alone, with S
// factored and with S solved by conjugate gradients (maxRows 3).
func TestRowPrecondFewerCGSteps(t *testing.T) {
	for _, maxRows := range []int{precondMaxRows, 3} {
		testRowPrecondFewerCGSteps(t, maxRows)
	}
}

func testRowPrecondFewerCGSteps(t *testing.T, maxRows int) {
	for _, seed := range []uint64{7, 11} {
		p := withRows(randomProblem(400, 60, 0.2, Logistic, seed), 40, 0.3, seed+1)
		var steps [2]int
		var x [2][]float64
		for k, off := range []bool{true, false} {
			w := New(p, Options{Tol: 1e-10})
			w.pre.off, w.pre.maxRows = off, maxRows
			res := w.Solve()
			if res.Status != Solved {
				t.Fatalf("seed %d, off %v: status %v, gap %g", seed, off, res.Status, res.Gap)
			}
			steps[k], x[k] = res.CGSteps, append([]float64(nil), res.X...)
			if iter := w.pre.cg.steps > 0; !off && iter != (maxRows < p.A.Rows) {
				t.Fatalf("seed %d, maxRows %d: S solved iteratively %v", seed, maxRows, iter)
			}
		}
		t.Logf("seed %d, maxRows %d: %d Hessian products with diag(H), %d with the rows' preconditioner", seed, maxRows, steps[0], steps[1])
		if 4*steps[1] > 3*steps[0] {
			t.Errorf("seed %d: %d Hessian products against %d with diag(H) alone", seed, steps[1], steps[0])
		}
		for j := range x[0] {
			if math.Abs(x[0][j]-x[1][j]) > 1e-4*(1+math.Abs(x[0][j])) {
				t.Errorf("seed %d: x_%d = %g, %g with diag(H)", seed, j, x[1][j], x[0][j])
				break
			}
		}
	}
}

// TestNewtonDirectionRowsDominate: where rho dwarfs the rest of the
// Hessian and the residual lies in the rows' span, the rows'
// preconditioner's r'z = r'D^-1 r - u'S^-1 u cancels to rounding, and with
// S solved by conjugate gradients (maxRows 3) it came out negative (rho =
// 1e8: -1.2e-7 against 3.7e-8 with S factored), which turns CG's steps
// around: CG ran to its cap of 500 Hessian products (two passes over Phi
// each). newtonDirection must return a finite descent direction for the
// reduced gradient in at most a tenth of that, for both forms of S.
func TestNewtonDirectionRowsDominate(t *testing.T) {
	p := withRows(randomProblem(200, 60, 0.3, Logistic, 3), 50, 0.3, 5)
	n, m := p.X.Cols, p.A.Rows
	for _, rho := range []float64{1, 1e4, 1e8, 1e12} {
		for _, maxRows := range []int{precondMaxRows, 3} {
			w := New(p, Options{})
			w.pre.maxRows = maxRows
			g := lcg(9)
			for i := 0; i < m; i++ {
				w.curvA[i], w.lhat[i] = rho, 1
			}
			for j := 0; j < n; j++ {
				w.free[j] = true
				w.hdiag[j] = 1e-3 + g.next()
			}
			w.sumsA()
			clear(w.gp)
			for i := 0; i < m; i++ { // gp = A'y plus a little noise: mostly the rows' span
				idx, val := p.A.Row(i)
				y := g.next() - 0.5
				for q, j := range idx {
					w.gp[j] += y * val[q]
				}
			}
			var gg float64
			for j := range w.gp {
				w.gp[j] += 1e-6 * (g.next() - 0.5)
				gg += w.gp[j] * w.gp[j]
			}
			steps := w.newtonDirection(math.Sqrt(gg), math.Sqrt(gg))
			if steps > w.opt.MaxCG/10 {
				t.Errorf("rho %g, maxRows %d: %d Hessian products", rho, maxRows, steps)
			}
			var gd float64
			for j, dj := range w.d {
				if math.IsNaN(dj) || math.IsInf(dj, 0) {
					t.Fatalf("rho %g, maxRows %d: d_%d = %g", rho, maxRows, j, dj)
				}
				gd += w.gp[j] * dj
			}
			if !(gd < 0) {
				t.Errorf("rho %g, maxRows %d: gp'd = %g, not a descent direction", rho, maxRows, gd)
			}
		}
	}
}
