// Package newtoncg minimises a loss over sparse rows plus a separable
// regulariser,
//
//	F(x) = (1/l) sum_i f_i(phi_i'x) + q'x + ridge/2 ||x||^2 + l1 ||x||_1
//	subject to lower <= x <= upper,
//
// with f_i the squared or the logistic loss and ridge > 0, without any
// n x n matrix: projected Newton steps (Bertsekas' two-metric projection)
// whose reduced systems are solved by conjugate gradients on
// Hessian-vector products, two passes over the nonzeros each, in the
// manner of LIBLINEAR's TRON. The l1 term is handled orthant by orthant:
// on the orthant a step starts in it is linear, so each step is a smooth
// problem over a box (the bounds intersected with the orthant), and a
// variable at 0 whose slope is within l1 stays at 0. Every iteration is
// certified by the Fenchel duality gap of gap.go; the solve ends when the
// certified gap meets the tolerance.
//
// Files: newtoncg.go (problem, workspace, the outer loop), step.go (the
// orthant box, the free set and the projected line search), cg.go
// (preconditioned conjugate gradients and the Hessian product), gap.go
// (the certificate), constraints.go (rows of A by the augmented
// Lagrangian), feasibility.go (phase one, before an answer with rows
// violated beyond rounding is called solved), penalty.go (the certificate
// of a point of the softplus penalty, for another method's solve),
// loss.go (the losses). A Workspace allocates everything in New; Solve
// allocates nothing (but see Solve).
package newtoncg

import (
	"math"
	"slices"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Problem is the model above. X holds the rows phi_i (well formed, see
// mat.Sparse.Check), Y the labels (±1, logistic) or targets (squared); Q,
// Lower and Upper are nil or of length X.Cols, with -Inf / +Inf for a
// missing bound and Lower <= Upper; Ridge > 0 and L1 >= 0 finite. The
// workspace reads X and Y in place; they must not change while it is in
// use. Lower, Upper and Q are read at every Solve (SetBounds and SetQ of
// the callers replace them between solves).
type Problem struct {
	X            *mat.Sparse
	Y            []float64
	Loss         Loss
	Ridge, L1    float64
	Q            []float64
	Lower, Upper []float64
	// A and B are rows A x <= B (nil: none; A well formed with A.Cols =
	// X.Cols, B finite, of length A.Rows), handled by the augmented
	// Lagrangian of constraints.go. Read in place, as X.
	A *mat.Sparse
	B []float64
}

// Status says how a solve ended.
type Status int

const (
	Solved     Status = iota // certified gap <= Tol max(1, |F|)
	Stopped                  // Options.Stop said so (budget, time, context)
	Stalled                  // no step decreases F in float64, gap above Tol
	Infeasible               // no x in the bounds satisfies A x <= b: Result.Farkas proves it
	// Undecided: the answer meets Tol, but violates rows beyond the
	// rounding of their residuals, and phase one found neither a point
	// that meets them to rounding nor a Farkas certificate
	// (feasibility.go): the rows may have no solution.
	Undecided
	// Unmet: the answer meets Tol only where it violates rows beyond the
	// rounding of their residuals; at the points toward phase one's, which
	// meet them, the certified gap stayed above Tol, also after the
	// tolerance of the iterations was tightened (feasibility.go).
	Unmet
)

// Options are a solve's choices; zero values mean the defaults.
type Options struct {
	Tol     float64 // relative certified gap to reach (default 1e-9)
	MaxIter int     // Newton iterations (default 1000)
	MaxCG   int     // conjugate-gradient steps an iteration (default 500)
	// Stop is asked once an iteration whether to end (Stopped); passes
	// counts the passes over the rows of Phi so far, phase one's over the
	// rows of A (feasibility.go) as m/l of one each.
	Stop     func(passes int64) bool
	Progress func(iter int, passes int64, gap float64)
	// Threads is the goroutines the passes over the rows run on
	// (mat.RowTeam: fewer on small data; 0 or 1: the calling one alone).
	// New reads it; SetOptions does not change it. A given number gives
	// the same bits on every run; different numbers differ by rounding.
	Threads int
}

// Result is the outcome of Solve. X aliases the workspace and is
// overwritten by the next Solve.
type Result struct {
	Status Status
	X      []float64
	// Z holds the bounds' multipliers: Z_j > 0 when X_j is at its upper
	// bound, < 0 at its lower, 0 elsewhere, so that the gradient of the
	// smooth part, an l1 subgradient and Z sum to zero at x*.
	Z []float64
	// Lambda holds the multipliers of the rows of A the certificate was
	// made with (nil without A); MaxViolation is max_i (A x - b)_i, 0 when
	// every row holds.
	Lambda       []float64
	MaxViolation float64
	// Farkas (status Infeasible only; nil otherwise) is y >= 0 on the
	// rows of A with b'y < min over the bounds of (A'y)'x (constraints.go).
	Farkas     []float64
	Objective  float64
	Gap        float64 // certified: F(X) - F* <= Gap
	Iterations int     // Newton iterations
	CGSteps    int     // Hessian-vector products
	Passes     int64   // passes over the rows (each touches every nonzero once)
	// PhaseOnePasses counts the passes over the rows of A of the phase one
	// that decides feasibility before an answer violating rows beyond
	// rounding is called solved (feasibility.go); 0 when it did not run.
	PhaseOnePasses int64
	// Feasible says that X meets every row of A to within the rounding of
	// its residual (always, without rows; always when Solved).
	Feasible bool
}

// Workspace holds a problem and every vector a solve needs.
type Workspace struct {
	p          Problem
	opt        Options
	colMax     int     // most nonzeros in one column
	rowMax     int     // most nonzeros in one row
	rowNormMax float64 // largest ||phi_i||
	// length l
	t, tNew, slope, curv, u []float64
	// length n
	x, xNew, s, sAbs, hdiag, g, gp, lo, hi, d, r, z, pv, hp, zb []float64
	free                                                        []bool
	passes                                                      int64
	allow, certAllow                                            float64 // the rounding allowance of the last gap, and of the last Certify's
	res                                                         Result
	// team runs the passes over the rows; chunk k > 0 of derivatives
	// sums into sK[k], sAbsK[k] and hdiagK[k] (derivJob, made once).
	team              *mat.RowTeam
	sK, sAbsK, hdiagK [][]float64
	derivJob          func(k, lo, hi int)
	// the rows of A (constraints.go; nil without them): length m
	lam, lhat, rA, rANew, curvA, uA, farkas []float64
	// length n
	sA, sAbsA        []float64
	rowMaxA, colMaxA int
	rho0, rho        float64
	violLast         float64 // the largest violation at the last update, -1 before any
	// the softplus penalty's xi and delta during a CertifyPenalty (0: the
	// augmented Lagrangian's multipliers)
	penXi, penDelta float64
	penDrop         []bool
	// keepLhat: derivatives leaves lhat as it is (feasibleAnswer certifies
	// a point near the answer with the answer's multipliers)
	keepLhat bool
	pre      rowPrecond // the rows' preconditioner (preconditioner.go)
	// phase one before a solved answer with rows violated beyond rounding
	// (feasibility.go), allocated on first use
	phase       phaseWork
	phasePasses int64
}

// New returns a workspace for p (see Problem for what it must satisfy;
// New does not check it again) that starts cold, from the projection of 0
// onto the bounds.
func New(p Problem, opt Options) *Workspace {
	l, n := p.X.Rows, p.X.Cols
	w := &Workspace{p: p, opt: opt}
	if w.opt.Tol <= 0 {
		w.opt.Tol = 1e-9
	}
	if w.opt.MaxIter <= 0 {
		w.opt.MaxIter = 1000
	}
	if w.opt.MaxCG <= 0 {
		w.opt.MaxCG = 500
	}
	fl := func() []float64 { return make([]float64, l) }
	fn := func() []float64 { return make([]float64, n) }
	w.t, w.tNew, w.slope, w.curv, w.u = fl(), fl(), fl(), fl(), fl()
	w.x, w.xNew, w.s, w.sAbs, w.hdiag, w.g, w.gp, w.zb = fn(), fn(), fn(), fn(), fn(), fn(), fn(), fn()
	w.lo, w.hi, w.d, w.r, w.z, w.pv, w.hp = fn(), fn(), fn(), fn(), fn(), fn(), fn()
	w.free = make([]bool, n)
	cols := make([]int32, n)
	for i := 0; i < l; i++ {
		idx, val := p.X.Row(i)
		w.rowMax = max(w.rowMax, len(idx))
		w.rowNormMax = max(w.rowNormMax, math.Sqrt(vec.Dot(val, val)))
		for _, j := range idx {
			cols[j]++
		}
	}
	for _, c := range cols {
		w.colMax = max(w.colMax, int(c))
	}
	w.team = mat.NewRowTeam(p.X, opt.Threads)
	chunks := w.team.Chunks()
	w.sK, w.sAbsK, w.hdiagK = make([][]float64, chunks), make([][]float64, chunks), make([][]float64, chunks)
	w.sK[0], w.sAbsK[0], w.hdiagK[0] = w.s, w.sAbs, w.hdiag
	for k := 1; k < chunks; k++ {
		w.sK[k], w.sAbsK[k], w.hdiagK[k] = fn(), fn(), fn()
	}
	w.derivJob = w.derivativeRows
	w.initConstraints()
	w.Reset()
	return w
}

// Options returns the workspace's options, defaults filled in.
func (w *Workspace) Options() Options { return w.opt }

// SetOptions replaces the options of the next Solve (zero values: the
// defaults).
func (w *Workspace) SetOptions(o Options) {
	tol, iter, cg := w.opt.Tol, w.opt.MaxIter, w.opt.MaxCG
	w.opt = o
	if o.Tol <= 0 {
		w.opt.Tol = tol
	}
	if o.MaxIter <= 0 {
		w.opt.MaxIter = iter
	}
	if o.MaxCG <= 0 {
		w.opt.MaxCG = cg
	}
}

// SetQ makes q the linear term of the next Solve (nil: none); the
// workspace reads it in place.
func (w *Workspace) SetQ(q []float64) { w.p.Q = q }

// SetBounds makes lower and upper the bounds of the next Solve (nil: none
// on that side); the workspace reads them in place.
func (w *Workspace) SetBounds(lower, upper []float64) { w.p.Lower, w.p.Upper = lower, upper }

// SetStart makes the next Solve start from x (projected onto the
// bounds), keeping the multipliers and penalty of rows of A as they are;
// x is copied. It allocates nothing.
func (w *Workspace) SetStart(x []float64) { copy(w.x, x) }

// Reset makes the next Solve start cold: x = 0 (projected), and with rows
// of A, zero multipliers and the first penalty.
func (w *Workspace) Reset() {
	clear(w.x)
	clear(w.lam)
	w.rho, w.violLast = w.rho0, -1
}

func (w *Workspace) lower(j int) float64 {
	if w.p.Lower == nil {
		return math.Inf(-1)
	}
	return w.p.Lower[j]
}

func (w *Workspace) upper(j int) float64 {
	if w.p.Upper == nil {
		return math.Inf(1)
	}
	return w.p.Upper[j]
}

// Solve minimises F from the previous answer (the projection of 0 onto
// the bounds when cold). It allocates nothing but the storage of the
// rows' preconditioner, the first time each of its forms is on (S formed,
// or solved by conjugate gradients: preconditioner.go), and
// of phase one, the first time an answer violates rows beyond rounding
// (feasibility.go).
func (w *Workspace) Solve() *Result {
	res := w.solve()
	res.Feasible = w.p.A == nil || w.withinRounding(w.x, w.rA)
	return res
}

// solve is Solve but for Result.Feasible.
func (w *Workspace) solve() *Result {
	x := w.x
	for j := range x {
		x[j] = min(max(x[j], w.lower(j)), w.upper(j))
	}
	w.passes, w.phasePasses = 0, 0
	res := &w.res
	*res = Result{X: x, Z: w.zb, Lambda: w.lhat, Gap: math.Inf(1), Status: Stalled}
	w.team.MulVec(w.t, x)
	w.passes++
	if w.p.A != nil {
		w.residualA(w.rA, x)
		w.violLast = -1
	}
	f := w.objective(x, w.t)
	fIn := w.innerObjective(f, w.rA) // F_rho, what the steps lower
	gnorm0 := -1.0
	newton := 0 // Newton steps since the multipliers changed
	// tol is the tolerance of the iterations: Options.Tol, tightened when
	// an answer that met it violated rows and no point that meets them
	// near it met it too (solvedStatus).
	tol, tightened := w.opt.Tol, 0
	for it := 0; ; it++ {
		w.derivatives()
		res.Objective = f
		res.Gap = w.gapTerms(x, w.s, w.sAbs)
		inner := res.Gap // the gap of F_rho(.; lambda) with rows of A
		settled := true
		var gapA float64
		if w.p.A != nil {
			xi := w.alXi()
			var rel float64
			gapA, res.MaxViolation, rel = w.gapA(x, xi)
			res.Gap += gapA
			settled = w.rho*res.MaxViolation <= xi/20 && rel <= tol
		}
		res.Iterations, res.Passes = it, w.passes
		if w.opt.Progress != nil {
			w.opt.Progress(it, w.passes, res.Gap)
		}
		if res.Gap <= tol*max(1, math.Abs(f)) && settled && !math.IsInf(f, 0) {
			// (An infinite F, a loss that overflows, meets no
			// tolerance, though Inf <= Inf would say so.)
			res.Status = w.solvedStatus(res.MaxViolation)
			if res.Status == Unmet && tightened < tightenings {
				tol, tightened = tol/16, tightened+1
				continue
			}
			w.multipliers()
			return res
		}
		if it >= w.opt.MaxIter || (w.opt.Stop != nil && w.opt.Stop(w.passes)) {
			res.Status = Stopped
			w.multipliers()
			return res
		}
		update := w.p.A != nil && newton > 0 && (inner <= gapA/10 || res.Gap <= tol*max(1, math.Abs(f)))
		ok := true
		var fNew, fInNew float64
		if !update {
			gnorm := w.orthantBox()
			if gnorm0 < 0 {
				gnorm0 = gnorm
			}
			res.CGSteps += w.newtonDirection(gnorm, gnorm0)
			fNew, fInNew, ok = w.lineSearch(fIn)
		}
		if update || !ok {
			// F_rho is solved well enough for its multipliers, or no step
			// lowers it: unless lhat proves the rows infeasible, the
			// multipliers move to lhat (and rho perhaps up), which changes
			// F_rho but not the point.
			if w.p.A != nil && res.MaxViolation > 0 && w.infeasible() {
				res.Status, res.Farkas = Infeasible, w.farkas
				w.multipliers()
				return res
			}
			// A point no step moves right after an update solves F_rho
			// already (pinned at bounds, say): the multipliers move again,
			// unless they would not change, which is a true stall.
			if !ok && (w.p.A == nil || (newton == 0 && slices.Equal(w.lam, w.lhat))) {
				w.multipliers()
				return res
			}
			w.updateMultipliers(res.MaxViolation)
			gnorm0, newton = -1, 0
			fIn = w.innerObjective(f, w.rA)
			continue
		}
		newton++
		copy(x, w.xNew)
		w.t, w.tNew = w.tNew, w.t
		w.rA, w.rANew = w.rANew, w.rA
		f, fIn = fNew, fInNew
	}
}

// solvedStatus is the status of an answer at w.x that meets the
// tolerance, maxViol its largest row violation: Solved, unless rows are
// violated beyond rounding. Then phase one (feasibility.go) looks for a
// point that meets them to rounding, and the answer moves toward it
// (feasibleAnswer; w.res's objective, gap and violation then the new
// point's): Solved if the gap there meets Options.Tol, Unmet if not;
// Infeasible (w.res.Farkas set), Stopped or Undecided when phase one finds
// no such point. It sets w.res.PhaseOnePasses.
func (w *Workspace) solvedStatus(maxViol float64) Status {
	if w.p.A == nil || maxViol <= 0 || w.withinRounding(w.x, w.rA) {
		return Solved
	}
	st := Solved
	switch w.phaseOne(w.x, w.rA) {
	case feasFeasible:
		if !w.feasibleAnswer() {
			st = Unmet
		}
	case feasInfeasible:
		st, w.res.Farkas = Infeasible, w.farkas
	case feasStopped:
		st = Stopped
	case feasUndecided:
		st = Undecided
	}
	w.res.PhaseOnePasses = w.phasePasses
	return st
}

// derivatives sets slope_i = f_i'(t_i), curv_i = f_i”(t_i)/l, and in one
// pass over the rows s = Phi'slope, sAbs = |Phi|'|slope| and the diagonal
// of Phi' diag(curv) Phi; then g = s/l + ridge x + q, and hdiag += ridge.
func (w *Workspace) derivatives() {
	p := &w.p
	l := p.X.Rows
	il := 1 / float64(l)
	for i, ti := range w.t {
		w.slope[i] = p.Loss.slope(ti, p.Y[i])
		w.curv[i] = p.Loss.curvature(ti) * il
	}
	w.team.Do(w.derivJob)
	for k := 1; k < len(w.sK); k++ { // the chunks' sums, in their order
		vec.Axpy(1, w.sK[k], w.s)
		vec.Axpy(1, w.sAbsK[k], w.sAbs)
		vec.Axpy(1, w.hdiagK[k], w.hdiag)
	}
	w.passes++
	switch {
	case p.A == nil:
	case w.penXi > 0:
		w.penaltyDerivativesA()
	case w.keepLhat:
		w.sumsA() // lhat as it is (feasibleAnswer)
	default:
		w.derivativesA()
	}
	for j := range w.g {
		w.g[j] = w.s[j]*il + p.Ridge*w.x[j]
		if p.Q != nil {
			w.g[j] += p.Q[j]
		}
		if p.A != nil {
			w.g[j] += w.sA[j]
		}
		w.hdiag[j] += p.Ridge
	}
}

// derivativeRows is chunk k of derivatives' pass, rows lo to hi, summed
// into the chunk's own vectors.
func (w *Workspace) derivativeRows(k, lo, hi int) {
	s, sAbs, hdiag := w.sK[k], w.sAbsK[k], w.hdiagK[k]
	clear(s)
	clear(sAbs)
	clear(hdiag)
	for i := lo; i < hi; i++ {
		a, c := w.slope[i], w.curv[i]
		idx, val := w.p.X.Row(i)
		for q, j := range idx {
			v := val[q]
			s[j] += v * a
			sAbs[j] += math.Abs(v * a)
			hdiag[j] += v * v * c
		}
	}
}

// multipliers sets Z from the gradient g at x: at a bound, the multiplier
// that with some l1 subgradient (sign(x_j), or the one of least help at
// x_j = 0) cancels g_j, if it has the bound's sign; 0 elsewhere.
func (w *Workspace) multipliers() {
	for j, xj := range w.x {
		w.zb[j] = 0
		switch {
		case xj == w.lower(j):
			s := sign(xj)
			if s == 0 {
				s = -1
			}
			w.zb[j] = min(0, -(w.g[j] + w.p.L1*s))
		case xj == w.upper(j):
			s := sign(xj)
			if s == 0 {
				s = 1
			}
			w.zb[j] = max(0, -(w.g[j] + w.p.L1*s))
		}
	}
}

// innerObjective returns F_rho(x; lambda) given f = F(x) and r = A x - b
// (f itself without rows of A).
func (w *Workspace) innerObjective(f float64, r []float64) float64 {
	if w.p.A != nil {
		f += w.penaltyA(r)
	}
	return f
}

// objective returns F(x) given t = Phi x.
func (w *Workspace) objective(x, t []float64) float64 {
	p := &w.p
	var fl float64
	for i, ti := range t {
		fl += p.Loss.value(ti, p.Y[i])
	}
	f := fl / float64(len(t))
	for j, xj := range x {
		f += xj * (0.5*p.Ridge*xj + p.L1*sign(xj))
		if p.Q != nil {
			f += p.Q[j] * xj
		}
	}
	return f
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
