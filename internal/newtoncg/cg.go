package newtoncg

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// newtonDirection sets d: on the free variables the Newton step of the
// reduced system H_FF d_F = -gp_F, solved by conjugate gradients
// preconditioned with diag(H) (the column scales of sparse data differ by
// orders of magnitude, and the diagonal costs nothing extra: derivatives
// forms it in the gradient's pass); on the eps-active variables the scaled
// gradient step -gp_j / H_jj, which the projection stops at the bound; 0 on
// fixed ones. H = Phi' diag(curv) Phi + ridge I is positive definite, so CG
// needs no safeguard against negative curvature. The system is solved to
// the forcing tolerance min(0.1, sqrt(||gp_F|| / ||gp_F at the first
// iteration||)) ||gp_F||: loose while far away, tight near x*, for the
// superlinear convergence of inexact Newton. It returns the number of
// Hessian products.
func (w *Workspace) newtonDirection(gnorm, gnorm0 float64) int {
	d, r, z, pv := w.d, w.r, w.z, w.pv
	for j := range d {
		d[j], r[j] = 0, 0
		switch {
		case w.free[j]:
			r[j] = -w.gp[j]
		case w.lo[j] != w.hi[j]:
			d[j] = -w.gp[j] / w.hdiag[j]
		}
	}
	if gnorm == 0 {
		clear(pv)
		return 0
	}
	w.buildPrecond()
	rz := w.precondition(z, r)
	if !(rz > 0) && w.pre.on {
		// The rows' preconditioner is positive definite in exact
		// arithmetic only: where rho dwarfs the rest, r'z = r'D^-1 r -
		// u'S^-1 u cancels to rounding (schurcg.go). diag(H) then.
		w.pre.on = false
		rz = w.precondition(z, r)
	}
	copy(pv, z)
	eta := min(0.1, math.Sqrt(gnorm/gnorm0))
	tol := eta * gnorm
	steps := 0
	for steps < w.opt.MaxCG {
		w.hessian(w.hp, pv)
		steps++
		php := vec.Dot(pv, w.hp)
		if !(php > 0) {
			break
		}
		alpha := rz / php
		for j := range d {
			if w.free[j] {
				d[j] += alpha * pv[j]
			}
		}
		vec.Axpy(-alpha, w.hp, r)
		if math.Sqrt(vec.Dot(r, r)) <= tol {
			break
		}
		rzNew := w.precondition(z, r)
		if !(rzNew > 0) {
			break // as above: the step so far is kept, and the line search decides
		}
		beta := rzNew / rz
		rz = rzNew
		for j := range pv {
			if w.free[j] {
				pv[j] = z[j] + beta*pv[j]
			}
		}
	}
	return steps
}

// hessian sets hp = H v on the free variables and 0 elsewhere, for v zero
// outside them: u = Phi v scaled by curv, then Phi'u, fused in one sweep
// over the rows (mat.RowTeam.NormalAdd: the matrix is read from memory
// once) and counted as the two passes it evaluates.
func (w *Workspace) hessian(hp, v []float64) {
	clear(hp)
	w.team.NormalAdd(hp, v, w.curv, w.u)
	w.passes += 2
	if w.p.A != nil {
		w.hessianA(hp, v)
	}
	for j := range hp {
		if w.free[j] {
			hp[j] += w.p.Ridge * v[j]
		} else {
			hp[j] = 0
		}
	}
}

// ConjugateGradient sets d to an approximate solution of H d = g by at
// most maxIter steps of plain conjugate gradients from d = 0, ending when
// ||r||^2 falls below 1e-20 ||g||^2 or a step finds p'Hp <= 0 (H
// positive semidefinite but singular along p). hess must set hp = H p for
// the p and hp given here; r, p and hp (length len(g)) are scratch. It
// reports whether every entry of d is finite. It allocates nothing
// (given a hess that does not). Phase one's steps (feasibility.go, and
// the solver's lazy SVRG) use it.
func ConjugateGradient(g, d, r, p, hp []float64, maxIter int, hess func(hp, p []float64)) bool {
	clear(d)
	copy(r, g)
	copy(p, g)
	rr := vec.Dot(r, r)
	tol := 1e-20 * rr
	for it := 0; it < maxIter && rr > tol; it++ {
		hess(hp, p)
		pHp := vec.Dot(p, hp)
		if !(pHp > 0) {
			break
		}
		alpha := rr / pHp
		vec.Axpy(alpha, p, d)
		vec.Axpy(-alpha, hp, r)
		rrNew := vec.Dot(r, r)
		vec.Scale(rrNew/rr, p)
		vec.Axpy(1, r, p)
		rr = rrNew
	}
	for _, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
