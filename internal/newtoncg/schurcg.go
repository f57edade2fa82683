package newtoncg

import "math"

// S by conjugate gradients. Where more than maxRows rows have curvature,
// Woodbury's S = C^{-1} + A_J D^{-1} A_J' (preconditioner.go) is not
// formed: each application of the preconditioner solves S v = u by
// conjugate gradients preconditioned with S's diagonal, and a product
// with S is two sweeps over the nonzeros of A_J (scatter A_J'x, then
// gather), never over Phi. On sparse data S is close to its diagonal: a
// row's rare columns carry the large entries a_ij^2 / D_j (D_j is about
// the ridge there) and are its own, while the columns rows share are the
// frequent ones, whose D_j (the data's curvature) is large. On the Zipf
// set of 2e5 x 2e5 with 1e4 Zipf rows (about 5000 with curvature) these
// solves took about 7 steps each, and newton-cg made 184 passes over the
// data against 1771 with diag(H); on the set of 1e6 x 1e6 with 1e4 rows,
// 126 against 903.
//
// In exact arithmetic a solve stopped short of S^{-1} u still leaves r'z
// > 0: CG's iterates v_k satisfy u'v_k <= u'S^{-1}u, so r'z = r'D^{-1}r -
// u'v_k is at least its value r'M^{-1}r > 0 at the exact v. In float64
// the difference cancels where rho dwarfs D (r mostly in the rows'
// span): at rho = 1e8 over unit rows r'z came out -1.2e-7 against 3.7e-8
// with S factored, and newtonDirection then takes diag(H) for that Newton
// step. The preconditioner also varies a little from one CG step to the
// next, which schurTol keeps below what the outer CG's forcing tolerance
// notices.

// schurTol is the relative residual ||u - S v|| <= schurTol ||u|| at which
// a solve stops; schurMaxSteps bounds its steps.
const (
	schurTol      = 1e-8
	schurMaxSteps = 500
)

// schurCG is the state of the solves with S: its diagonal and CG's
// vectors, each of length m.
type schurCG struct {
	diag, r, p, z, sp []float64
	steps             int64 // S products since New, for the tests
}

// buildSchurCG sets S's diagonal over the rows pc.rows, with pc.dinv set,
// allocating the vectors the first time.
func (w *Workspace) buildSchurCG() {
	pc := &w.pre
	cg := &pc.cg
	if cg.diag == nil {
		m := w.p.A.Rows
		f := func() []float64 { return make([]float64, m) }
		cg.diag, cg.r, cg.p, cg.z, cg.sp = f(), f(), f(), f(), f()
	}
	for q, i := range pc.rows {
		idx, val := w.p.A.Row(i)
		var sum float64
		for t, j := range idx {
			sum += val[t] * val[t] * pc.dinv[j]
		}
		cg.diag[q] = sum + 1/w.curvA[i]
	}
}

// mulSchur sets y = S x over the rows pc.rows: A_J'x scattered into spot
// (left zero again), gathered back with D^{-1}, plus C^{-1} x.
func (w *Workspace) mulSchur(y, x []float64) {
	pc := &w.pre
	a, spot := w.p.A, pc.spot
	for q, i := range pc.rows {
		idx, val := a.Row(i)
		for t, j := range idx {
			spot[j] += val[t] * x[q]
		}
	}
	for q, i := range pc.rows {
		idx, val := a.Row(i)
		var sum float64
		for t, j := range idx {
			sum += val[t] * pc.dinv[j] * spot[j]
		}
		y[q] = sum + x[q]/w.curvA[i]
	}
	for _, i := range pc.rows {
		idx, _ := a.Row(i)
		for _, j := range idx {
			spot[j] = 0
		}
	}
}

// solveSchurCG sets v to the solution of S v = u (length |J|) by
// conjugate gradients from v = 0, preconditioned with S's diagonal, to
// the relative residual schurTol or schurMaxSteps steps.
func (w *Workspace) solveSchurCG(v, u []float64) {
	cg := &w.pre.cg
	k := len(u)
	r, p, z, sp, diag := cg.r[:k], cg.p[:k], cg.z[:k], cg.sp[:k], cg.diag[:k]
	clear(v)
	copy(r, u)
	var rz, uu float64
	for q := range z {
		z[q] = r[q] / diag[q]
		rz += r[q] * z[q]
		uu += u[q] * u[q]
	}
	copy(p, z)
	stop := schurTol * schurTol * uu
	for step := 0; step < schurMaxSteps && rz > 0; step++ {
		w.mulSchur(sp, p)
		cg.steps++
		var psp float64
		for q := range p {
			psp += p[q] * sp[q]
		}
		if !(psp > 0) {
			return
		}
		alpha := rz / psp
		var rr float64
		for q := range v {
			v[q] += alpha * p[q]
			r[q] -= alpha * sp[q]
			rr += r[q] * r[q]
		}
		if rr <= stop || math.IsNaN(rr) {
			return
		}
		var rzNew float64
		for q := range z {
			z[q] = r[q] / diag[q]
			rzNew += r[q] * z[q]
		}
		beta := rzNew / rz
		rz = rzNew
		for q := range p {
			p[q] = z[q] + beta*p[q]
		}
	}
}
