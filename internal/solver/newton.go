package solver

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Newton steps for objectives that are not quadratic (the logistic loss):
// sequential quadratic programming whose subproblems the exact active-set
// method (package activeset) solves. At x_k the model
//
//	min 1/2 x'H_k x + c_k'x + l1 ||x||_1  s.t. the rows, Aeq, the box,
//	H_k = Phi' D_k Phi / l + P + ridge I,  c_k = grad f(x_k) - H_k x_k,
//
// (f the smooth part of F, D_k the loss's second derivatives at Phi x_k)
// is F's second-order model around x_k, in x rather than in the step, so
// that only H and c change between subproblems and the engine keeps its
// rows and its working set (activeset.Solver.SetObjective; every solve is
// hot-started from the last one's active set). Its solution x_qp is
// feasible, and x_{k+1} = x_k + t (x_qp - x_k) with t from an Armijo rule
// on F, or on the exact penalty F + rho sum of violations while x_k is
// infeasible (the rows are linear, so a convex combination of a feasible
// point and x_k violates each row by at most (1 - t) times x_k's violation);
// once a full step is taken every iterate is feasible.
//
// The stop is the certificate, not the step: the subproblem's multipliers
// at x_k, paired with x_{k+1}, go through certifyPoint, whose dual bound is
// the subgradient bound of dualBound (L(., lambda) is mu-strongly
// convex). Near x* the Newton step is quadratically convergent and the
// Lagrangian's gradient at (x_{k+1}, lambda_k) is O(||x_{k+1} - x_k||^2),
// so the certified gap falls like the fourth power of the step.

// newtonWork is the SQP's workspace, allocated by New when Newton steps
// apply (useNewton).
type newtonWork struct {
	eng  *activeset.Solver
	h    *mat.Dense // H_k, both triangles
	chol mat.Cholesky
	c, g []float64 // c_k and grad f(x_k), length n
	d    []float64 // x_qp - x_k
	xt   []float64 // trial point
	t    []float64 // length l: Phi x_k, then the curvature weights D_k / l
	lam  []float64 // the subproblem's multipliers on the working rows (unit scale)
	// The certified pair before the last chord step (newtonChord).
	xSave, lamSave []float64
	// iters counts the Newton steps of the last solve, changes the
	// engine's working-set changes.
	iters, changes int
	maxViol        float64 // the largest violation newtonAdmit saw, on the caller's scale
}

// useNewton reports whether New prepares Newton steps: a logistic loss
// (a quadratic objective goes to the direct path or the exact finish
// instead) with a Hessian small enough to form densely, under MethodAuto
// or MethodNewton (for which anything else is an error). Solve takes them
// from the start, whatever the number of rows: on newton_test.go's
// generated problems they reach tol 1e-9 where a penalty stage first, or
// APG alone, does not end in the time they take (BenchmarkNewton).
func (s *Solver) useNewton() (bool, error) {
	ok := s.loss == LossLogistic && s.n <= maxDenseHessian
	switch s.opt.Method {
	case MethodNewton:
		if !ok {
			return false, fmt.Errorf("options: method newton needs the logistic loss and n <= %d (a quadratic objective is solved exactly by activeset)", maxDenseHessian)
		}
		return true, nil
	case MethodAuto:
		return ok, nil
	}
	return false, nil
}

// newNewton allocates the SQP's workspace and the engine on the caller's
// rows (read in place, as on the direct path). It leaves s.newton nil, and
// the penalty method alone, if the engine refuses the rows (a row whose
// inverse norm overflows).
func (s *Solver) newNewton(p *Problem) {
	n, l := s.n, s.l
	ident := mat.NewDense(n, n)
	for i := 0; i < n; i++ {
		ident.Data[i*n+i] = 1
	}
	// The engine starts on H = I through the workspace's own matrix and
	// factor (no copy of its own); every solve first sets H_k there.
	nw := &newtonWork{h: ident}
	if nw.chol.Factor(ident) != nil {
		return
	}
	o := s.engineOptions(0)
	eng, err := activeset.New(s.engineProblem(p, ident, make([]float64, n), &nw.chol), &o)
	if err != nil {
		return
	}
	f := func(k int) []float64 { return make([]float64, k) }
	nw.eng = eng
	nw.c, nw.g, nw.d, nw.xt, nw.xSave, nw.t = f(n), f(n), f(n), f(n), f(n), f(l)
	nw.lam, nw.lamSave = f(s.mw), f(s.mw)
	s.newton = nw
}

// Newton step constants.
const (
	newtonMaxIter   = 100  // Newton steps before the penalty method takes over
	newtonArmijo    = 1e-4 // sufficient decrease, as a fraction of the model's
	newtonMaxHalves = 40   // step halvings before the line search gives up
	// newtonStall is the number of full Newton steps in a row that do
	// not halve the best certified gap after which the solve ends with
	// the best certified answer: in the region of quadratic convergence
	// that means the certificate has reached what float64 evaluates of F
	// and of the gradient mapping.
	newtonStall = 6
)

// newtonModel forms H_k, its factor and c_k at x (newtonWork's comment).
func (s *Solver) newtonModel(x []float64) error {
	nw, n, l := s.newton, s.n, s.l
	h := nw.h
	// Logistic f_i(t) = log(1 + exp(-y_i t)): f_i'' = sigma(t) sigma(-t),
	// computed as p (1 - p), p = sigma(-|t|) <= 1/2, accurate in the tails.
	for i, t := range s.phiX(x) { // phi x, kept for smoothGrad below
		nw.t[i] = -math.Abs(t)
	}
	vec.Sigmoid(nw.t, nw.t)
	inv := 1 / float64(l)
	for i, p := range nw.t {
		nw.t[i] = p * (1 - p) * inv
	}
	// The lower triangle by rank-one updates along Phi's rows, which
	// needs no transposed copy of Phi, then mirrored (BenchmarkNewton).
	clear(h.Data)
	for i, w := range nw.t {
		r := s.phi.Row(i)
		for j, v := range r {
			if v != 0 {
				vec.Axpy(w*v, r[:j+1], h.Data[j*n:j*n+j+1])
			}
		}
	}
	for j := 0; j < n; j++ {
		for k := 0; k < j; k++ {
			h.Data[k*n+j] = h.Data[j*n+k]
		}
		h.Data[j*n+j] += s.ridge
	}
	if s.pm != nil {
		vec.Axpy(1, s.pm.Data, h.Data)
	}
	if err := nw.chol.Factor(h); err != nil {
		return err
	}
	s.smoothGrad(nw.g, x)
	h.MulVec(nw.c, x)
	for i := range nw.c {
		nw.c[i] = nw.g[i] - nw.c[i]
	}
	s.steps += int64(l)
	return nil
}

// newtonSolve runs Newton steps from state.x. It reports whether the solve
// ends, and with which status; when it does not (a subproblem the engine
// could not finish, a failed line search, or newtonMaxIter steps), the best
// certified pair stands and the penalty method goes on from the last
// iterate.
//
// Result.Method is then "newton" and Result.Iterations counts the engine's
// working-set changes over every subproblem.
func (s *Solver) newtonSolve(rn *run) (Status, bool) {
	st, end := s.newtonSteps(rn)
	if end && st != StatusInfeasible {
		s.res.Method = "newton"
		// Result.Xi is the penalty the answer's gap is measured with,
		// as on the direct path.
		rn.sched.xi = max(rn.sched.xi, rn.best.xi)
	}
	s.res.Iterations = s.newton.changes
	return st, end
}

// newtonSteps is the loop of newtonSolve.
func (s *Solver) newtonSteps(rn *run) (Status, bool) {
	nw := s.newton
	nw.iters, nw.changes = 0, 0
	x := s.state.x
	viol := s.newtonAdmit(rn, x, nil)
	stall, last := 0, rn.best.gap
	for nw.iters < newtonMaxIter {
		if s.over(rn) {
			return statusOf(rn.stopped), true
		}
		if s.newtonModel(x) != nil || nw.eng.SetObjective(nw.h, nw.c, &nw.chol) != nil {
			return 0, false // H_k not numerically positive definite
		}
		r := nw.eng.SolveFrom(rn.ctx, rn.start)
		nw.iters++
		nw.changes += r.Steps
		switch r.Status {
		case activeset.StatusInfeasible:
			copy(s.res.Farkas, r.FarkasA)
			copy(s.res.Farkas[s.m:], r.FarkasEq)
			return StatusInfeasible, true
		case activeset.StatusTimeLimit:
			rn.stopped = stopTime
			return StatusTimeLimit, true
		case activeset.StatusCanceled:
			rn.stopped = stopCanceled
			return StatusCanceled, true
		case activeset.StatusPrecisionLimit, activeset.StatusMaxSteps:
			return 0, false
		}
		rho := 0.0
		for _, v := range r.Lambda {
			rho = max(rho, 2*v)
		}
		for _, v := range r.Nu {
			rho = max(rho, 2*math.Abs(v))
		}
		t := s.newtonStep(x, r.X, viol, rho)
		if t == 0 {
			return 0, false
		}
		viol = s.newtonAdmit(rn, x, r)
		s.newtonLambda(r)
		s.certifyPoint(rn, x, nw.lam[:s.kept])
		s.newtonReport(rn, x)
		if s.newtonSolved(rn) && s.newtonChord(rn, viol, rho) {
			return StatusSolved, true
		}
		if s.atPrecisionFloor(rn) {
			s.res.Message = fmt.Sprintf("the answer is certified to gap %.3g, the rounding floor of this problem's certificate in float64; tol %.3g is below it", rn.best.gap, s.opt.Tol)
			return StatusPrecisionLimit, true
		}
		if rn.best.gap < 0.5*last || t < 1 {
			stall, last = 0, rn.best.gap
		} else if stall++; stall >= newtonStall {
			s.res.Message = fmt.Sprintf("Newton steps stopped improving the certificate after %d steps; the answer is certified to gap %.3g, tol %.3g is below what float64 evaluates for this problem", nw.iters, rn.best.gap, s.opt.Tol)
			return StatusPrecisionLimit, true
		}
	}
	return 0, false
}

// newtonReport calls the progress and observer callbacks, if set, after a
// Newton step: the step's index, the steps (component gradients) so far,
// the best certified gap and the largest violation of the new point x.
func (s *Solver) newtonReport(rn *run, x []float64) {
	if s.opt.Progress != nil {
		s.opt.Progress(Stage{Method: MethodNewton, Index: s.newton.iters - 1, Steps: s.steps, Gap: rn.best.gap,
			Violation: s.newton.maxViol, Kept: s.kept})
	}
	if s.opt.Observe != nil {
		s.opt.Observe(s.steps, x)
	}
}

// newtonChord takes one more step from the certified x with the last
// model's H (a chord step: one gradient and a hot QP solve, no new
// Hessian) and reports its pair instead if that is certified to the
// tolerance too. The certificate bounds the objective's gap, which the
// gradient follows only as its square root: in the stiff directions of
// badly scaled data the multipliers of the subproblem at x_k, paired with
// x_{k+1}, leave a stationarity residual of O(||x_{k+1} - x_k||^2) times
// the loss's third derivative, which this step reduces to
// O(||x_{k+1} - x_k||^3). It reports whether the best pair is still
// certified to the tolerance (it is not only if rows joined the kept block
// and the new pair missed it: the old pair then no longer covers them).
func (s *Solver) newtonChord(rn *run, viol, rho float64) bool {
	nw := s.newton
	x := s.state.x
	saved, kept := rn.best, s.kept
	copy(nw.xSave, s.state.best)
	copy(nw.lamSave[:kept], s.state.lamBest[:kept])
	copy(x, s.state.best)
	s.smoothGrad(nw.g, x)
	nw.h.MulVec(nw.c, x)
	for i := range nw.c {
		nw.c[i] = nw.g[i] - nw.c[i]
	}
	s.steps += int64(s.l)
	if nw.eng.SetObjective(nw.h, nw.c, &nw.chol) != nil {
		return true
	}
	r := nw.eng.SolveFrom(rn.ctx, rn.start)
	nw.iters++
	nw.changes += r.Steps
	if r.Status != activeset.StatusSolved || s.newtonStep(x, r.X, viol, rho) == 0 {
		copy(x, nw.xSave)
		return true
	}
	s.newtonAdmit(rn, x, r)
	s.newtonLambda(r)
	rn.best.forget()
	s.certifyPoint(rn, x, nw.lam[:s.kept])
	if !s.newtonSolved(rn) && s.kept == kept {
		rn.best = saved
		copy(s.state.best, nw.xSave)
		copy(s.state.lamBest[:kept], nw.lamSave[:kept])
	}
	return s.newtonSolved(rn)
}

// newtonSolved reports whether the best pair meets the tolerance on the
// whole problem: its gap on the kept rows plus the penalty the rows
// outside them add (none after newtonAdmit, which admits every row the
// iterates violate).
func (s *Solver) newtonSolved(rn *run) bool {
	return meetsTol(s.wholeGap(rn, s.state.best), rn.best.f, s.opt.Tol)
}

// newtonLambda writes the subproblem's multipliers onto the kept working
// rows (unit scale: a caller row's multiplier times its norm; an
// equality's nu on its plus row when positive, on its minus row when
// negative).
func (s *Solver) newtonLambda(r *activeset.Result) {
	lam := s.newton.lam[:s.kept]
	for k := range lam {
		c := s.code[k]
		var v float64
		if c.isEq() {
			v = c.sign() * r.Nu[c.eqRow()]
		} else {
			v = r.Lambda[c.ineqRow()]
		}
		lam[k] = max(v, 0) * s.norm[k]
	}
}

// newtonAdmit moves into the kept block every row outside it that x
// violates or that has a multiplier in r (rows the engine holds active; r
// may be nil), so that the certificate of x and the multipliers covers
// every row; if one joins, the best pair's gap is forgotten (its primal
// bound counted fewer rows). It leaves x's largest violation in
// s.newton.maxViol and returns x's total violation on the
// caller's scale, sum_j (a_j'x - b_j)_+ + sum_i |aeq_i'x - beq_i|, the
// exact penalty's term.
func (s *Solver) newtonAdmit(rn *run, x []float64, r *activeset.Result) float64 {
	viol, joined := 0.0, false
	s.newton.maxViol = 0
	for k := 0; k < s.mw; k++ {
		rk := s.rowResidual(k, x)
		if rk > 0 {
			viol += rk * s.norm[k]
			s.newton.maxViol = max(s.newton.maxViol, rk*s.norm[k])
		}
		if k < s.kept {
			continue
		}
		// Rows outside the kept block are rows of A (equality rows are
		// always kept).
		if rk > 0 || r != nil && r.Lambda[s.code[k].ineqRow()] != 0 {
			s.swapRows(s.kept, k)
			if s.lazy {
				s.reserveRows(s.kept + 1)
				s.materialize(s.kept)
			}
			s.kept++
			joined = true
		}
	}
	if joined {
		s.updateSmax()
		rn.best.forget()
	}
	return viol
}

// newtonStep moves x towards the subproblem's solution xq: x += t (xq - x)
// with the largest t in 1, 1/2, 1/4, ... that passes the Armijo test on
// the exact penalty F + rho sum of violations, bounded above along the
// segment by F(x + t d) + rho (1 - t) viol (viol = x's violation, the
// rows being linear and xq feasible). The model's decrease is
// Delta = g'd + l1 (||xq||_1 - ||x||_1) - rho viol, and a test within F's
// rounding passes. It returns t, or 0 if no step passes.
func (s *Solver) newtonStep(x, xq []float64, viol, rho float64) float64 {
	nw := s.newton
	d := nw.d
	for i := range d {
		d[i] = xq[i] - x[i]
	}
	delta := vec.Dot(nw.g, d) - rho*viol
	if s.l1 > 0 {
		var a, b float64
		for i := range x {
			a += math.Abs(xq[i])
			b += math.Abs(x[i])
		}
		delta += s.l1 * (a - b)
	}
	f0 := s.objective(x)
	slack := 64 * 0x1p-52 * (1 + math.Abs(f0))
	for t, h := 1.0, 0; h <= newtonMaxHalves; t, h = t/2, h+1 {
		xt := nw.xt
		if t == 1 {
			copy(xt, xq)
		} else {
			copy(xt, x)
			vec.Axpy(t, d, xt)
		}
		ft := s.objective(xt)
		s.steps += int64(s.l)
		if ft+rho*(1-t)*viol <= f0+rho*viol+newtonArmijo*t*delta+slack {
			copy(x, xt)
			return t
		}
	}
	return 0
}
