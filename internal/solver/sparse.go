package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/softpen/softpen/internal/newtoncg"
	"github.com/softpen/softpen/vec"
)

// The path for a loss over sparse rows (Problem.PhiSparse): Newton-CG of
// package newtoncg, with no n x n matrix and every pass O(nnz), or, when
// asked for, SVRG, catalyst-SVRG, SGD or (without l1 and bounds) SGDM on
// the rows with lazy updates, or APG on passes over them (lazysvrg.go,
// lazyapg.go, lazysgd.go, lazysgdm.go; rows of A
// by the softplus penalty), certified by newtoncg's gap. It takes the fitting model,
// the loss with ridge > 0, q, l1 and bounds, and rows A x <= b given
// sparsely (ASparse; newtoncg's augmented Lagrangian): Aeq, dense rows of
// A, or P, with sparse Phi are the caller's to densify or compress
// (softpen does so).

// errSparseModel is New's error for a sparse Phi with parts this path
// does not take.
var errSparseModel = errors.New("solver: sparse rows of Phi take no Aeq, P or dense A (sparse rows of A only), and need ridge > 0")

// errSparseSGDM is New's (and SetBounds') error for MethodSGDM on sparse
// rows with l1 or bounds: a step on one row moves the momentum of every
// coordinate, and lazySGDM (lazysgdm.go) brings a coordinate's value and
// momentum through the steps that do not touch it by the closed form of
// their two-term recurrence, which the l1 and box prox cut at steps no
// closed form finds, so a step would be O(n).
var errSparseSGDM = errors.New("options: method sgdm runs on sparse rows only without l1 and bounds (the prox cuts its momentum's recurrence: no closed form for the coordinates a step does not touch); sgd, svrg, catalyst-svrg, apg or newton-cg take them")

// SGDMLazy reports whether MethodSGDM has its lazy form on sparse rows
// (lazysgdm.go) with these l1 and bounds (nil: none): no l1, every bound
// infinite. New takes it on sparse rows exactly then.
func SGDMLazy(l1 float64, lower, upper []float64) bool {
	for _, b := range [][]float64{lower, upper} {
		for _, v := range b {
			if !math.IsInf(v, 0) {
				return false
			}
		}
	}
	return l1 == 0
}

// newSparse is New for a problem with PhiSparse.
func newSparse(p *Problem, opt *Options) (*Solver, error) {
	_, meq := p.rows()
	if p.A != nil || p.ARows != nil || meq > 0 || p.P != nil || !(p.Ridge > 0) || p.Phi != nil || p.PhiRows != nil {
		return nil, errSparseModel
	}
	method := MethodNewtonCG
	if opt != nil {
		switch opt.Method {
		case MethodSVRG, MethodCatalyst, MethodAPG, MethodSGD:
			method = opt.Method
		case MethodSGDM:
			if !SGDMLazy(p.L1, p.Lower, p.Upper) {
				return nil, errSparseSGDM
			}
			method = opt.Method
		}
	}
	s, err := newSparseBase(p, opt, method)
	if err != nil {
		return nil, err
	}
	s.loss, s.l = p.Loss, p.PhiSparse.Rows
	s.ridge, s.l1, s.offset = p.Ridge, p.L1, p.Offset
	if p.Q != nil {
		s.q = append([]float64(nil), p.Q...)
	}
	if p.Lower != nil || p.Upper != nil {
		s.lower, s.upper = make([]float64, s.n), make([]float64, s.n)
		for j := range s.lower {
			s.lower[j], s.upper[j] = math.Inf(-1), math.Inf(1)
		}
		copy(s.lower, p.Lower)
		copy(s.upper, p.Upper)
	}
	s.y = append([]float64(nil), p.Y...)
	loss := newtoncg.Logistic
	if p.Loss == LossSquared {
		loss = newtoncg.Squared
	}
	if p.ASparse != nil {
		s.m = p.ASparse.Rows
		s.b = append([]float64(nil), p.B...)
	}
	s.sparse = newtoncg.New(newtoncg.Problem{X: p.PhiSparse, Y: s.y, Loss: loss, Ridge: s.ridge, L1: s.l1,
		Q: s.q, Lower: s.lower, Upper: s.upper, A: p.ASparse, B: s.b}, newtoncg.Options{Tol: s.opt.Tol, Threads: s.threads()})
	// The callbacks are made once, here, so that a Solve allocates nothing:
	// they read the run of the current solve from s.sparseRun.
	o := s.sparse.Options()
	o.Stop = func(passes int64) bool {
		s.steps = s.sparseBase + passes*int64(s.l)
		return s.over(s.sparseRun)
	}
	if s.opt.Progress != nil {
		o.Progress = func(it int, passes int64, gap float64) {
			s.opt.Progress(Stage{Method: MethodNewtonCG, Index: it, Steps: s.sparseBase + passes*int64(s.l), Gap: gap})
		}
	}
	s.sparse.SetOptions(o)
	if method != MethodNewtonCG {
		s.sparseSVRG = newLazySVRG(newtoncg.Problem{X: p.PhiSparse, Y: s.y, Loss: loss, Ridge: s.ridge, L1: s.l1,
			Q: s.q, Lower: s.lower, Upper: s.upper, A: p.ASparse, B: s.b}, s.sparse, &s.opt, method)
	}
	s.mu = s.ridge
	s.res = Result{X: make([]float64, s.n), Z: make([]float64, s.n), Lambda: make([]float64, s.m),
		Farkas: make([]float64, s.m), Method: method.String(), Impl: vec.Impl()}
	s.state.x = s.res.X
	return s, nil
}

// newSparseBase is the part of New the sparse paths share: the options,
// checked, with the path's method (the only one besides MethodAuto it
// takes) and the default tolerance.
func newSparseBase(p *Problem, opt *Options, method Method) (*Solver, error) {
	s := &Solver{n: p.N, infeasibleRow: noRow, sparseRun: new(run), finisher: new(supportFinisher)}
	if opt != nil {
		s.opt = *opt
	}
	if err := s.opt.check(); err != nil {
		return nil, err
	}
	if s.opt.Method != MethodAuto && s.opt.Method != method {
		return nil, fmt.Errorf("options: method %v does not run on these sparse rows (auto or %v do)", s.opt.Method, method)
	}
	s.opt.Method = method
	if s.opt.Tol == 0 {
		s.opt.Tol = defaultTol
	}
	return s, nil
}

// threads is Options.Threads with 0 made GOMAXPROCS.
func (s *Solver) threads() int {
	if s.opt.Threads > 0 {
		return s.opt.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// startSparseRun starts the budget of a sparse path's solve (MaxSteps,
// the time limit, the context), which its Stop callback reads.
func (s *Solver) startSparseRun(ctx context.Context, start time.Time) *run {
	rn := s.sparseRun
	rn.budget = budget{ctx: ctx, start: start, maxSteps: s.opt.MaxSteps}
	if s.opt.TimeLimit > 0 {
		rn.deadline = start.Add(s.opt.TimeLimit)
	}
	return rn
}

// solveSparse is SolveFrom on the sparse path: the budget (MaxSteps counts
// rows evaluated, l a pass), the time limit and the context are checked
// once an iteration.
func (s *Solver) solveSparse(ctx context.Context, start time.Time) (*Result, error) {
	rn := s.startSparseRun(ctx, start)
	s.sparseBase = 0
	if s.sparseSVRG != nil {
		return s.solveLazy(rn, start)
	}
	return s.solveNewtonCG(rn, start), nil
}

// solveNewtonCG runs newton-cg from its workspace's point and reports its
// answer; the rows evaluated before it (s.sparseBase: a lazy solve's,
// before a handover) count towards MaxSteps and Steps.
func (s *Solver) solveNewtonCG(rn *run, start time.Time) *Result {
	return s.newtonCGAnswer(s.sparse.Solve(), rn, start)
}

// newtonCGAnswer makes r, a Newton-CG solve's answer, the Result.
func (s *Solver) newtonCGAnswer(r *newtoncg.Result, rn *run, start time.Time) *Result {
	if s.opt.Observe != nil {
		s.opt.Observe(s.sparseBase+r.Passes*int64(s.l), r.X)
	}
	res := &s.res
	copy(res.X, r.X)
	copy(res.Z, r.Z)
	copy(res.Lambda, r.Lambda)
	clear(res.Farkas)
	res.Objective = r.Objective + s.offset
	res.Gap, res.MaxViolation = certifiedGap(r.Gap), r.MaxViolation
	// With rows of A the gap bounds the distance to x* only for a point
	// that satisfies them to rounding (DESIGN.md, "Certified duality gap").
	res.DistBound = math.Inf(1)
	if r.Feasible {
		res.DistBound = math.Sqrt(2 * res.Gap / s.ridge)
	}
	// Rows evaluated: l a pass over phi, m a pass of phase one over A.
	res.Steps = s.sparseBase + r.Passes*int64(s.l) + r.PhaseOnePasses*int64(len(s.b))
	res.Iterations = r.Iterations
	res.Stages, res.Xi, res.Kept = 0, 0, 0
	res.Screened, res.Outside = res.Screened[:0], res.Outside[:0]
	res.Message = ""
	switch r.Status {
	case newtoncg.Solved:
		res.Status = StatusSolved
	case newtoncg.Infeasible:
		res.Status = StatusInfeasible
		res.Gap, res.DistBound = math.Inf(1), math.Inf(1) // as the other paths: no optimum to be near
		copy(res.Farkas, r.Farkas)
	case newtoncg.Stopped:
		res.Status = statusOf(rn.stopped) // MaxSteps also for the iteration limit
	case newtoncg.Undecided:
		res.Status = StatusPrecisionLimit
		res.DistBound = math.Inf(1)
		res.Message = fmt.Sprintf("the rows hold to the tolerance relative to their terms (largest violation %.3g), "+
			"but phase one found neither a point that meets them to rounding nor a Farkas certificate: they may have no solution", r.MaxViolation)
	case newtoncg.Unmet:
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("certified gap %.3g meets the tolerance only where rows are violated (largest violation %.3g); "+
			"at the points that meet them to rounding near it, it does not", res.Gap, r.MaxViolation)
	default:
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("no Newton step lowers the objective in float64; certified gap %.3g", res.Gap)
	}
	res.Time = time.Since(start)
	return res
}

// finishByNewtonCG is solveNewtonCG for the lazy path after a handover:
// the answer is Newton-CG's, and Result.Method says so.
func (s *Solver) finishByNewtonCG(rn *run, start time.Time) *Result {
	res := s.solveNewtonCG(rn, start)
	res.Method = MethodNewtonCG.String()
	return res
}

// certifiedGap is a gap as Result reports it: +Inf where the certificate
// overflowed to NaN (data whose products pass float64's range), so that
// no NaN reaches the caller as a bound.
func certifiedGap(gap float64) float64 {
	if math.IsNaN(gap) {
		return math.Inf(1)
	}
	return gap
}

// solveLazy is solveSparse with proximal SVRG (lazysvrg.go).
func (s *Solver) solveLazy(rn *run, start time.Time) (*Result, error) {
	stop := func(steps int64) bool {
		s.steps = steps
		return s.over(rn)
	}
	z := s.sparseSVRG
	var progress func(int, int64, float64)
	if s.opt.Progress != nil {
		progress = func(ep int, steps int64, gap float64) {
			st := Stage{Method: s.opt.Method, Index: ep, Steps: steps, Gap: gap}
			if z.m > 0 { // the penalty's stage
				st.Xi, st.Delta, st.Kept = z.xi, z.delta, z.m-z.dropped
			}
			s.opt.Progress(st)
		}
	}
	if z.handedOver {
		// Newton-CG finished the last solve: the next goes on from its
		// point and multipliers (until Reset), not from the stochastic
		// method's schedule, which would hand over again.
		res := s.solveNewtonCG(rn, start)
		res.Method = MethodNewtonCG.String()
		return res, nil
	}
	r := z.solve(s.opt.Tol, stop, progress)
	res := s.lazyAnswer(&r, rn, start)
	if s.steps = z.steps; !r.handover || s.over(rn) {
		return res, nil
	}
	// The stochastic method stalled far from the rows or on a plateau
	// (lazysvrg.go): Newton-CG finishes from its best point. If the
	// budget runs out before it ends, the better certified point of the
	// two is the answer.
	z.handedOver = true
	s.sparse.SetStart(r.x)
	s.sparseBase = z.steps
	nr := s.sparse.Solve()
	if nr.Status == newtoncg.Stopped && !(certifiedGap(nr.Gap) < res.Gap) {
		res.Status = statusOf(rn.stopped)
		res.Steps = s.sparseBase + nr.Passes*int64(s.l) + nr.PhaseOnePasses*int64(len(s.b))
		res.Time = time.Since(start)
		return res, nil
	}
	res = s.newtonCGAnswer(nr, rn, start)
	res.Method = MethodNewtonCG.String()
	return res, nil
}

// lazyAnswer makes r, a lazy solve's answer, the Result.
func (s *Solver) lazyAnswer(r *lazyResult, rn *run, start time.Time) *Result {
	res := &s.res
	res.Method = s.opt.Method.String()
	if s.opt.Observe != nil {
		s.opt.Observe(s.sparseSVRG.steps, r.x)
	}
	copy(res.X, r.x)
	copy(res.Z, r.zb)
	copy(res.Lambda, r.lambda)
	clear(res.Farkas)
	res.Objective = r.objective + s.offset
	res.Gap, res.MaxViolation = certifiedGap(r.gap), r.viol
	res.DistBound = math.Inf(1) // as solveSparse's: only a point that meets the rows (to rounding when solved)
	if r.viol <= 0 || r.status == newtoncg.Solved {
		res.DistBound = math.Sqrt(2 * res.Gap / s.ridge)
	}
	res.Steps, res.Iterations = s.sparseSVRG.steps, r.iterations
	res.Stages, res.Xi, res.Kept = 0, 0, 0
	res.Screened, res.Outside = res.Screened[:0], res.Outside[:0]
	if z := s.sparseSVRG; z.m > 0 { // the penalty's report
		res.Stages, res.Xi, res.Kept = z.stages, r.xi, z.m-z.dropped
		res.Screened, res.Outside = z.screened, z.outside
	}
	res.Message = ""
	switch r.status {
	case newtoncg.Solved:
		res.Status = StatusSolved
	case newtoncg.Infeasible:
		res.Status = StatusInfeasible
		res.Gap, res.DistBound = math.Inf(1), math.Inf(1)
		copy(res.Farkas, r.farkas)
	case newtoncg.Stopped:
		res.Status = statusOf(rn.stopped) // MaxSteps also for the plateau's epoch limit
		if r.violated && !r.handover {
			res.Status = StatusPrecisionLimit
			res.Message = fmt.Sprintf("the point violates rows by up to %.3g, beyond rounding: its gap %.3g would hold only if xi = %.3g bounds the multipliers, which nothing proves (the Newton-CG finish, which NoPolish turns off, answers a feasible point)",
				r.viol, r.gap, r.xi)
		}
		if r.plateau {
			res.Message = fmt.Sprintf("no smaller certified gap than %.3g in the last half of %d epochs; the answer is the best certified point so far", r.gap, r.iterations)
		}
	case newtoncg.Stalled:
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("certified gap %.3g is at the floor of its rounding allowance", r.gap)
		if r.saturated {
			res.Message = fmt.Sprintf("the multipliers saturate at xi = %.3g with rows still violated and no Farkas certificate that holds; certified gap %.3g", r.xi, r.gap)
		}
	}
	res.Time = time.Since(start)
	return res
}
