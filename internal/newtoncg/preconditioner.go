package newtoncg

import (
	"github.com/softpen/softpen/mat"
)

// The rows' preconditioner. With rows of A, the Hessian of F_rho on the
// free variables is
//
//	H = Phi' diag(curv) Phi + ridge I + A_J' C A_J,
//
// J the rows whose multiplier estimate is positive (curvature rho, C =
// rho I). diag(H) sees only the diagonal of the last term, and CG then
// spends a step on each of its directions it has not met: on Zipf data
// of 2e5 x 2e5 with 2000 Zipf rows (about a thousand with curvature,
// sharing the frequent features) newton-cg made 646 passes over the data
// against 44 without the rows, and 123 with this preconditioner. Woodbury's identity
// inverts D + A_J' C A_J exactly, D the diagonal of the rest:
//
//	(D + A_J' C A_J)^{-1} = D^{-1} - D^{-1} A_J' S^{-1} A_J D^{-1},
//	S = C^{-1} + A_J D^{-1} A_J'   (|J| x |J|, positive definite),
//
// at the cost of forming and factoring S once a Newton step (|J|^2 / 2
// sparse dots of two rows, |J|^3 / 3 flops) and two sparse products with
// A_J and two triangular solves of order |J| a CG step, against a Hessian
// product's two passes over every nonzero of Phi. Any D > 0 gives a
// positive definite preconditioner; the method only decides how fast CG
// converges, never what it converges to.

// precondMaxRows bounds the |J| at which S is formed and factored: S and
// its factor take 2 |J|^2 floats (16 MB at 1024 rows), allocated the first
// time they are used. With more rows with curvature S is never formed,
// and S v = u is solved by conjugate gradients (schurcg.go): on the Zipf
// set of 1e6 x 1e6 with 1e4 rows about 5000 have curvature, where S and
// its factor would take 400 MB beside the data's 608.
const precondMaxRows = 1024

// rowPrecond is the preconditioner's state.
type rowPrecond struct {
	on        bool
	off       bool       // diag(H) only, for the tests' comparison
	iterative bool       // S v = u by conjugate gradients (|J| > maxRows)
	maxRows   int        // the largest |J| with S formed (precondMaxRows; tests lower it)
	rows      []int      // J (capacity m)
	dinv      []float64  // 1/D_j on the free variables, 0 elsewhere (length n)
	spot      []float64  // scratch of length n, zero between uses
	s         *mat.Dense // S, when formed
	chol      mat.Cholesky
	u, v      []float64 // length m
	cg        schurCG   // the conjugate gradients' state (schurcg.go)
}

// buildPrecond sets up the preconditioner for the current free set, hdiag
// and rows' curvatures, and reports whether it is on: some rows have
// curvature and, when at most maxRows do, S factors. It allocates the
// preconditioner's storage the first time it is on: S's when it is
// formed, the conjugate gradients' the first time they run.
func (w *Workspace) buildPrecond() bool {
	pc := &w.pre
	pc.on, pc.iterative = false, false
	if w.p.A == nil || pc.off {
		return false
	}
	k := 0
	for _, c := range w.curvA {
		if c > 0 {
			k++
		}
	}
	if k == 0 {
		return false
	}
	m, n := w.p.A.Rows, w.p.A.Cols
	if pc.rows == nil {
		pc.rows = make([]int, 0, m)
		pc.dinv, pc.spot = make([]float64, n), make([]float64, n)
		pc.u, pc.v = make([]float64, m), make([]float64, m)
	}
	if k <= pc.maxRows && pc.s == nil {
		size := min(m, pc.maxRows)
		pc.s = mat.NewDense(size, size)
		pc.chol.Reserve(size)
	}
	pc.rows = pc.rows[:0]
	for i, c := range w.curvA {
		if c > 0 {
			pc.rows = append(pc.rows, i)
		}
	}
	// D: hdiag less the rows' part sumsA added, on the free variables.
	a := w.p.A
	d := pc.spot
	for _, i := range pc.rows {
		c := w.curvA[i]
		idx, val := a.Row(i)
		for q, j := range idx {
			d[j] += val[q] * val[q] * c
		}
	}
	for j, h := range w.hdiag {
		pc.dinv[j] = 0
		if w.free[j] {
			dj := h - d[j]
			if !(dj > 0) {
				dj = h // any D > 0 will do
			}
			pc.dinv[j] = 1 / dj
		}
		d[j] = 0
	}
	if k > pc.maxRows {
		w.buildSchurCG()
		pc.on, pc.iterative = true, true
		return true
	}
	// S, row by row: row i of A_J scaled by D^{-1} scattered into spot,
	// then its dot with each row before it (and itself).
	s := pc.s
	s.Rows, s.Cols, s.Stride = k, k, k
	s.Data = s.Data[:k*k]
	spot := pc.spot
	for p, i := range pc.rows {
		idx, val := a.Row(i)
		for q, j := range idx {
			spot[j] += val[q] * pc.dinv[j]
		}
		for r, i2 := range pc.rows[:p+1] {
			idx2, val2 := a.Row(i2)
			var sum float64
			for q, j := range idx2 {
				sum += val2[q] * spot[j]
			}
			s.Data[p*k+r] = sum
			s.Data[r*k+p] = sum
		}
		s.Data[p*k+p] += 1 / w.curvA[i]
		for _, j := range idx {
			spot[j] = 0
		}
	}
	if w.pre.chol.Factor(s) != nil {
		return false
	}
	pc.on = true
	return true
}

// precondition sets z = M^{-1} r on the free variables (0 elsewhere) and
// returns r'z: M = diag(hdiag) without the rows' preconditioner, D + A_J'
// C A_J with it (to the conjugate gradients' tolerance on S when S is not
// formed; r'z > 0 all the same, see schurcg.go).
func (w *Workspace) precondition(z, r []float64) float64 {
	pc := &w.pre
	if !pc.on {
		var rz float64
		for j := range z {
			z[j] = 0
			if w.free[j] {
				z[j] = r[j] / w.hdiag[j]
				rz += r[j] * z[j]
			}
		}
		return rz
	}
	for j := range z {
		z[j] = r[j] * pc.dinv[j]
	}
	a := w.p.A
	k := len(pc.rows)
	u, v := pc.u[:k], pc.v[:k]
	for p, i := range pc.rows {
		idx, val := a.Row(i)
		var sum float64
		for q, j := range idx {
			sum += val[q] * z[j]
		}
		u[p] = sum
	}
	if pc.iterative {
		w.solveSchurCG(v, u)
	} else {
		pc.chol.Solve(v, u)
	}
	for p, i := range pc.rows {
		idx, val := a.Row(i)
		for q, j := range idx {
			z[j] -= val[q] * v[p] * pc.dinv[j]
		}
	}
	var rz float64
	for j := range z {
		rz += r[j] * z[j]
	}
	return rz
}
