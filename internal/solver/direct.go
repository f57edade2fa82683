package solver

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// The direct path: a quadratic objective (the model F(x) = 1/2 x'Hx + c'x +
// c0, l1 and box allowed) solved exactly by the dual active-set method of
// package activeset instead of the penalty method. MethodActiveSet forces
// it; MethodAuto takes it for every quadratic objective, however many the
// rows (defaults.go; on many rows it starts from samples, sample.go). The
// answer is certified as the penalty method's is: the gap of the exact
// penalty F(x) + xr sum of violations against the dual function at the
// engine's multipliers, in the gradient form whose every rounding is
// bounded (activeset.Result.PenaltyGap).

// useDirect reports whether the solve takes the direct path: MethodAuto
// takes it for every quadratic objective, whatever the other options say
// (they apply to whichever method runs), and MethodActiveSet asks for it;
// it is an error to ask for it on an objective that is not quadratic.
func (s *Solver) useDirect() (bool, error) {
	switch s.opt.Method {
	case MethodActiveSet:
		if !s.quad {
			return false, fmt.Errorf("options: method activeset needs a quadratic objective (loss none or squared, n <= %d)", maxDenseHessian)
		}
		return true, nil
	case MethodAuto:
		return s.quad, nil
	}
	return false, nil
}

// newDirect builds the active-set solver on the quadratic model and the
// caller's rows.
//
// On many rows the samples are solved here, before the engine on all rows
// exists (sampledStart.presolve), so that the engine takes the rows'
// violations at the sample's answer in the pass over the rows it makes
// anyway (activeset.NewAt): one pass over A fewer than New and a hot start
// at Solve (BenchmarkLargeQP: a pass over its 80 MB of rows is a large
// part of a solve). The Solver is the same bit for bit, and Reset returns
// to the other way.
//
// The samples' solves stop at Options.TimeLimit counted from start (New's
// start), with no context (New has none): a user's limit must bound the
// set-up too, and a sample of a hard problem is itself hard. A sample cut
// short still gives a valid hot start. If the limit has passed when the
// samples are done, the engine on every row (whose set-up reads every row)
// is left for the first Solve with time for it (buildDirect), and a Solve
// with none answers the sample's point, uncertified (cutShort).
func (s *Solver) newDirect(p *Problem, start time.Time) error {
	var err error
	if s.sample, err = s.newSampledStart(p); err != nil {
		return err
	}
	r := s.sample.presolve(start)
	if s.opt.TimeLimit > 0 && time.Since(start) >= s.opt.TimeLimit {
		// A copy: New keeps no pointer to its p, which can then stay on
		// its caller's stack.
		pending := *p
		s.pending = &pending
		s.cutX = make([]float64, s.n)
		if r != nil {
			copy(s.cutX, r.X)
		}
		return nil
	}
	if r == nil || r.Status == activeset.StatusInfeasible {
		if s.direct, err = s.newEngine(p, s.directMaxSteps()); err == nil && r != nil {
			s.direct.HotStart(s.sample.rowsIn, s.sample.upper, s.sample.lower)
		}
		return err
	}
	ss := &s.sample
	s.direct, err = s.newEngineAt(p, r.X, ss.rowsIn, ss.upper, ss.lower)
	return err
}

// buildDirect builds the engine that newDirect left for later. The samples
// are solved again at the next Solve, which hot-starts the engine from
// them (sampledStart.start): the same bits as when New had the time. It
// allocates the engine, once.
func (s *Solver) buildDirect() error {
	d, err := s.newEngine(s.pending, s.directMaxSteps())
	if err != nil {
		return err
	}
	s.sample.reset()
	s.direct, s.pending, s.cutX = d, nil, nil
	return nil
}

// cutShort is the answer of a Solve whose time limit passed in the set-up,
// before the engine on every row was built: the sample's point (0 without
// one), with no certificate.
func (s *Solver) cutShort(start time.Time) *Result {
	res := &s.res
	copy(res.X, s.cutX)
	clear(res.Lambda)
	clear(res.Nu)
	clear(res.Z)
	res.Status, res.Gap, res.DistBound, res.MaxViolation = StatusTimeLimit, math.Inf(1), math.Inf(1), math.NaN()
	res.Objective = s.objective(res.X)
	res.Message = "the time limit passed in the set-up, before the active-set method could start on every row: x is its answer on a sample of the rows, not checked against the others (max_violation unknown) and not certified"
	res.Time = time.Since(start)
	return res
}

// directMaxSteps is the direct path's bound on the engine's working-set
// changes: Options.MaxSteps (0: none). The engine's own safety bound
// applies where it is smaller.
func (s *Solver) directMaxSteps() int {
	return int(min(max(s.opt.MaxSteps, 0), math.MaxInt32))
}

// engineProblem is the engine's problem on the objective 1/2 x'hx + c'x
// (f the factor of h), the caller's rows (read in place), the box and l1.
func (s *Solver) engineProblem(p *Problem, h *mat.Dense, c []float64, f *mat.Cholesky) *activeset.Problem {
	ap := &activeset.Problem{N: s.n, H: h, C: c, A: p.A, ARows: p.ARows, B: p.B,
		Aeq: p.Aeq, Beq: p.Beq, Lower: s.lower, Upper: s.upper, L1: s.l1, Factor: f}
	if p.A == nil && p.ARows == nil {
		ap.B = nil
	}
	if p.Aeq == nil {
		ap.Beq = nil
	}
	return ap
}

// newEngine builds an active-set solver on the quadratic model (its factor
// shared) and the caller's rows, which it reads in place, with at most
// maxSteps working-set changes a solve (0: the engine's safety bound).
func (s *Solver) newEngine(p *Problem, maxSteps int) (*activeset.Solver, error) {
	o := s.engineOptions(maxSteps)
	if e := s.mem.engine; e != nil {
		// Load: the last problem's engine, loaded in its own storage.
		s.mem.engine = nil
		return engineOrError(e, e.Load(s.engineProblem(p, s.h, s.c, &s.chol), &o))
	}
	return engineOrError(activeset.New(s.engineProblem(p, s.h, s.c, &s.chol), &o))
}

// newEngineAt is the direct path's engine hot-started at x from the rows
// rowsIn and the bounds upper, lower (activeset.NewAt).
func (s *Solver) newEngineAt(p *Problem, x []float64, rowsIn []int, upper, lower []bool) (*activeset.Solver, error) {
	o := s.engineOptions(s.directMaxSteps())
	return engineOrError(activeset.NewAt(s.engineProblem(p, s.h, s.c, &s.chol), &o, x, rowsIn, upper, lower))
}

// engineOptions are the options of every engine a Solver builds: the
// solver's time limit, which each engine solve counts from the start of
// the Solve it is part of (SolveFrom), and at most maxSteps working-set
// changes (0: the engine's safety bound), and the certified mu where it
// is positive (the engine takes no other). A value, not a pointer: the
// engines copy their options, and the caller's copy stays off the heap.
func (s *Solver) engineOptions(maxSteps int) activeset.Options {
	o := activeset.Options{MaxSteps: maxSteps, TimeLimit: s.opt.TimeLimit, Threads: s.threads(), OneShot: s.opt.OneShot}
	if s.mu > 0 && !math.IsInf(s.mu, 1) {
		o.Mu = s.mu
	}
	return o
}

// engineOrError passes on a new engine, or its error in the solver's terms.
func engineOrError(d *activeset.Solver, err error) (*activeset.Solver, error) {
	if err != nil {
		if e, ok := err.(*mat.NotPDError); ok {
			return nil, &NotConvexError{fmt.Sprintf("the quadratic model is not positive definite (%v)", e)}
		}
		if e, ok := err.(*activeset.InputError); ok && e.Field == "ARows" {
			e.Field = "A" // ARows is how the caller's A arrives
		}
		return nil, err
	}
	return d, nil
}

// solveDirect answers from the active-set method, certified.
func (s *Solver) solveDirect(ctx context.Context, start time.Time) (*Result, error) {
	s.resetResult()
	res := &s.res
	res.Method, res.Steps, res.Stages = MethodActiveSet.String(), 0, 0
	res.Impl = vec.Impl()
	if err := ctx.Err(); err != nil {
		res.Status = StatusCanceled
		res.Time = time.Since(start)
		return res, nil
	}
	if s.pending != nil {
		if s.opt.TimeLimit > 0 && time.Since(start) >= s.opt.TimeLimit {
			return s.cutShort(start), nil
		}
		if err := s.buildDirect(); err != nil {
			return nil, err
		}
	}
	s.sample.start(s.direct, ctx, start)
	r := s.direct.SolveFrom(ctx, start)
	res.Iterations = r.Steps
	res.Kept = s.m + s.meq
	s.engineAnswer(r)
	s.polishAnswer(s.direct, r)
	res.Time = time.Since(start)
	s.reportAnswer(MethodActiveSet, 0, int64(res.Iterations), res.Kept)
	return res, nil
}

// penaltyWeight is xr = 2 max(max_j lambda_j, max_i |nu_i|, 0), NaN if a
// multiplier is NaN, as the builtin max makes it. The running maximum is
// kept by comparisons, which only a NaN sends the other way, where each
// builtin max on floats tests for a NaN and for signed zeros: a pass over
// the m row multipliers at every warm re-solve, most of them zero, ran
// several times longer.
func penaltyWeight(lambda, nu []float64) float64 {
	xr, nan := 0.0, false
	for _, l := range lambda {
		if v := 2 * l; v > xr {
			xr = v
		} else if v != v {
			nan = true
		}
	}
	for _, l := range nu {
		if v := 2 * math.Abs(l); v > xr {
			xr = v
		} else if v != v {
			nan = true
		}
	}
	if nan {
		return math.NaN()
	}
	return xr
}

// engineAnswer writes the active-set method's answer r into the Result,
// certified as the penalty method's answers are: the gap of the exact
// penalty F(x) + xr (sum of violations) against the dual function at the
// engine's multipliers, in the gradient form whose every rounding is
// bounded (activeset.Result.PenaltyGap). It sets
// the status from the engine's and from Tol: solved, infeasible (with the
// engine's Farkas certificate), time limit, or precision limit (an engine
// that cycled, or a Tol below the certificate's rounding floor). The
// direct path and the penalty method's finisher (handover.go) share it.
// An engine stopped by its MaxSteps or by the context ends with the
// solver's StatusMaxSteps or StatusCanceled.
func (s *Solver) engineAnswer(r *activeset.Result) {
	res := &s.res
	copy(res.X, r.X)
	copy(res.Lambda, r.Lambda)
	copy(res.Nu, r.Nu)
	copy(res.Z, r.Z)
	// The engine's objective is 1/2 x'Hx + c'x + l1 ||x||_1 of the same H
	// and c; F adds the model's constant.
	res.Objective = r.Objective + s.c0
	res.MaxViolation = r.MaxViolation
	res.Message = ""
	if r.Status == activeset.StatusInfeasible {
		copy(res.Farkas, r.FarkasA)
		copy(res.Farkas[s.m:], r.FarkasEq)
		res.Status, res.Gap, res.DistBound = StatusInfeasible, math.Inf(1), math.Inf(1)
		res.Objective = s.objective(res.X)
		return
	}
	// F_{xr,0}(x) = F(x) + xr (sum of violations) is minimised at x* once
	// xr >= ||lambda*||_inf; the engine's multipliers are lambda* to
	// rounding, so xr = 2 max |multiplier| (the penalty method's rule).
	var xr float64
	if len(r.Lambda) == len(res.Lambda) && len(r.Nu) == len(res.Nu) {
		xr = r.PenaltyWeight() // penaltyWeight of the same multipliers
	} else {
		xr = max(penaltyWeight(res.Lambda, res.Nu), r.PenaltyWeight())
	}
	res.Xi = xr
	res.Gap = s.userGap(r.PenaltyGap(s.mu, xr), res.X)
	res.DistBound = s.distBound(res.Gap, r.Feasible && r.NearlyImplied == 0)
	switch {
	case r.Status == activeset.StatusTimeLimit:
		res.Status = StatusTimeLimit
	case r.Status == activeset.StatusCanceled:
		res.Status = StatusCanceled
	case r.Status == activeset.StatusMaxSteps:
		res.Status = StatusMaxSteps
	case math.IsNaN(res.Gap) || math.IsInf(res.Gap, 1) || math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0):
		s.notFinite(res)
	case r.Status == activeset.StatusPrecisionLimit && r.HoldCost > 0:
		res.Status, res.Gap, res.DistBound = StatusPrecisionLimit, math.Inf(1), math.Inf(1)
		res.Message = holdMessage(r.HoldCost)
	case r.Status == activeset.StatusPrecisionLimit:
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("the active-set method stopped after %d working-set changes without settling its working set (cycling on a degenerate vertex, or rows it could neither satisfy nor prove infeasible in float64); the answer is certified to gap %.3g", r.Steps, res.Gap)
	case meetsTol(res.Gap, res.Objective, s.opt.Tol) && r.Feasible:
		res.Status = StatusSolved
	case !r.Feasible:
		// Rows are violated beyond what x's own rounding explains. Seen
		// with multipliers of 1e9..1e10 on unit rows, where the working
		// set's factor cannot resolve the violations from the noise of
		// x. A small gap would then hold only with xr >= ||lambda*||_inf,
		// which nothing proves: such a point is never solved.
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("the active-set method stopped at a point that violates rows by up to %.3g, beyond rounding (multipliers up to %.3g: the working set is too ill-conditioned for float64 here); its gap %.3g (relative %.3g) would hold only if %.3g bounds the multipliers, which nothing proves",
			res.MaxViolation, xr/2, res.Gap, res.Gap/max(1, math.Abs(res.Objective)), xr)
	default:
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("the exact answer is certified to gap %.3g (relative %.3g), the rounding floor of this problem in float64; tol %.3g is below it",
			res.Gap, res.Gap/max(1, math.Abs(res.Objective)), s.opt.Tol)
	}
}

// polishAnswer asks the engine e to polish its answer r (activeset.Polish)
// when the certificate missed Tol with rows violated, by rounding or more,
// and the multipliers make the violations' charge (xr times their sum)
// most of the gap: x's rounding amplified by nearly parallel members
// (FuzzTinyQP: multipliers of 1.5e6, rows violated by 5e-13 within
// rounding, a relative gap of 3e-9 at tol 1e-9). The answer is certified
// again.
func (s *Solver) polishAnswer(e *activeset.Solver, r *activeset.Result) {
	res := &s.res
	if res.Status != StatusPrecisionLimit || r.Status != activeset.StatusSolved ||
		!(res.Xi*r.SumViolation > res.Gap/2) {
		return
	}
	if e.Polish() {
		s.engineAnswer(r)
	}
}

// holdMessage is the message of an answer whose working set holds a row
// only to the rounding of ||x||, and holding it exactly would cost the
// objective cost (activeset.Result.HoldCost).
func holdMessage(cost float64) string {
	const why = "a row of the answer's working set holds only to the rounding of ||x||, not to that of its own terms, and "
	const end = ": float64 cannot locate the optimum (data of very different scales); no certificate"
	if math.IsInf(cost, 1) {
		return why + "no step float64 can trust holds it exactly" + end
	}
	return why + fmt.Sprintf("holding it exactly would raise the objective by %.3g, more than the gap", cost) + end
}
