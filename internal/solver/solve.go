package solver

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/vec"
)

// stop says why an inner method returned.
type stop int

const (
	stopConverged  stop = iota // gradient mapping below the stage's target
	stopBudget                 // MaxSteps
	stopTime                   // time limit
	stopCanceled               // context
	stopSubproblem             // catalyst's subproblem is solved (runSVRG to runCatalyst only)
	stopSlow                   // the stage has grown slow: the exact finisher takes over (handoverSlow)
)

// run is the state of one Solve besides the workspace, in named parts.
type run struct {
	budget             // what may end the solve early
	sched  schedule    // xi and delta of the current stage (schedule.go)
	best   certificate // the best certified pair so far (certificate.go)
	rounds int         // working-set rounds that readmitted rows
	feas   feasibility // what phase one has shown (feasibility.go)
	// The handover to the exact finisher (handover.go): engine is set when
	// the solve ends with the engine's answer; handNext is the best gap
	// the next handover waits for; engineIter counts the engine's
	// working-set changes.
	engine     bool
	handNext   float64
	handSteps  int64 // s.steps at the last engine attempt
	engineIter int
	inStage    bool // a stage of the penalty method is running (handoverSlow applies)
}

// budget is what may end a solve before it is solved: the step budget, the
// time limit and the context.
type budget struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time // zero: none
	maxSteps int64     // 0: none
	stopped  stop      // why over said the solve ends
}

// over reports whether the budget, the time limit or the context ends the
// solve, recording why.
func (s *Solver) over(rn *run) bool {
	if rn.maxSteps > 0 && s.steps >= rn.maxSteps {
		rn.stopped = stopBudget
		return true
	}
	if rn.ctx.Err() != nil {
		rn.stopped = stopCanceled
		return true
	}
	if !rn.deadline.IsZero() && time.Now().After(rn.deadline) {
		rn.stopped = stopTime
		return true
	}
	if rn.inStage && s.handoverSlow(rn) {
		rn.stopped = stopSlow
		return true
	}
	return false
}

// Solve runs the nested softplus-penalty method and returns the result. The
// first call starts from x = 0; later calls start from the previous solution
// (a warm start; call Reset to start cold). The returned Result and its
// slices belong to the Solver and are overwritten by the next call. Solve
// allocates nothing.
//
// Working set. With many more rows than variables (at least wsMinRows, and
// wsRowsPerVar per variable; Options.AllRows turns it off) the method
// starts on the rows the start point violates or nearly meets, and each
// time the best point is certified on the rows in the problem it checks
// every other row once: rows the point violates are readmitted and the
// solve goes on from that point (with delta raised to the size of the worst
// violation, so the new rows are smoothed at their own scale). A point that
// violates no outside row has the same penalised objective on the whole
// problem, and multipliers that are zero outside are dual feasible for it,
// so the certificate holds for the whole problem as it stands. On the large
// QP of the root benchmarks (m = 1e5, n = 100, 90 active rows) the start
// point violates 670 rows.
//
// Handover. For a quadratic objective (box and l1 included) the stages
// only have to show the active set roughly: once the best certified gap is
// below handoverGap relative to |F|, at a point that violates no row
// outside the working set, the rows with large multipliers and the bounds
// the point lies on become the hot start of the exact active-set method,
// which checks every row and ends the solve with its certified answer
// (handover.go). Stages that have grown slow (handoverStepsPerRow steps
// per working row since the last attempt) hand over too, mid-stage if need
// be, and before xi is raised: the engine needs no xi, and multipliers far
// above the current one could otherwise cost a stage per raise, each
// slower than the last. Options.NoPolish turns it off.
//
// Probe. With at most DirectMaxRows rows, where the active-set method is
// faster than the stages even cold, the first stage stops at probeLoosen
// times its usual target and hands over at once. If the engine cannot
// finish, the first stage is run again to its own target and the method
// goes on as without the probe. Options.NoProbe turns it off (to measure
// it, or to have stages, screening and the xi raise act before any
// handover).
func (s *Solver) Solve(ctx context.Context) (*Result, error) {
	return s.SolveFrom(ctx, time.Now())
}

// SolveFrom is Solve with Options.TimeLimit and Result.Time counted from
// start, an instant before the call: the root package's one-shot Solve
// passes its own start, so that a time limit bounds the set-up (New) too.
func (s *Solver) SolveFrom(ctx context.Context, start time.Time) (*Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if s.direct != nil || s.pending != nil {
		return s.solveDirect(ctx, start)
	}
	if s.sparse != nil {
		return s.solveSparse(ctx, start)
	}
	if s.cd != nil {
		return s.solveDualCD(ctx, start)
	}
	rn := run{budget: budget{ctx: ctx, start: start, maxSteps: s.opt.MaxSteps}, best: noCertificate(), handNext: math.Inf(1)}
	if s.opt.TimeLimit > 0 {
		rn.deadline = rn.start.Add(s.opt.TimeLimit)
	}
	rn.sched.xi = s.opt.Xi
	s.rng.seed(s.opt.Seed)
	s.steps = 0
	s.stages = 0
	s.startObserving()
	s.resetResult()
	if s.infeasibleRow != noRow {
		s.restoreRows()
		s.res.Farkas[s.infeasibleRow.resultIndex(s.m)] = s.infeasibleRow.sign()
		return s.finish(&rn, StatusInfeasible), nil
	}
	if !s.warm {
		clear(s.state.x)
	}
	s.prox(s.state.x, 1) // the start must lie in the box
	if s.lazy {
		s.selectRows(s.state.x)
	} else {
		s.restoreRows()
	}
	s.startSchedule(&rn.sched)
	s.outside.reset()
	if s.newton != nil {
		if st, end := s.newtonSolve(&rn); end {
			return s.finish(&rn, st), nil
		}
	}
	for {
		rn.inStage = true
		st := s.stage(&rn)
		rn.inStage = false
		s.stages++
		gap, viol, lamMax := s.certify(&rn)
		if s.opt.Progress != nil {
			s.opt.Progress(Stage{Method: s.opt.Method, Index: s.stages - 1, Delta: rn.sched.delta, Xi: rn.sched.xi, Steps: s.steps,
				Gap: gap, Violation: viol, Kept: s.kept})
		}
		if st == stopSlow {
			// The stage goes on from its point if the engine cannot
			// finish.
			if status, end := s.handover(&rn); end {
				return s.ended(&rn, status), nil
			}
			continue
		}
		if st != stopConverged {
			return s.finish(&rn, statusOf(st)), nil
		}
		if status, end := s.afterStage(&rn, viol, lamMax); end {
			return s.ended(&rn, status), nil
		}
	}
}

// ended is the answer of a penalty solve that ends with status: the
// engine's, certified, when the exact finisher took over (rn.engine),
// else the stages' best pair.
func (s *Solver) ended(rn *run, status Status) *Result {
	if rn.engine {
		return s.finishEngine(rn)
	}
	return s.finish(rn, status)
}

// resetResult clears what the last Solve left in the Result.
func (s *Solver) resetResult() {
	res := &s.res
	res.Status, res.Polished = StatusMaxSteps, false
	res.Message, res.Iterations = "", 0
	res.Screened, res.Outside = res.Screened[:0], res.Outside[:0]
	res.Method = s.opt.Method.String()
	clear(res.Farkas)
}

// afterStage decides what follows a stage that met its target, given the
// largest violation and multiplier at its point: it reports whether the
// solve ends, and with which status. Otherwise it has prepared the next
// stage: the same one with a larger xi, the first again after a failed
// probe, the same delta after rows joined the working set, or the next
// delta of the schedule.
func (s *Solver) afterStage(rn *run, viol, lamMax float64) (Status, bool) {
	if s.solved(rn) {
		// Certified on the kept rows: the answer, unless a row outside
		// them is violated. Those join the kept rows, and the finisher,
		// which checks every row, takes over if it applies.
		if !s.readmit(rn) {
			return StatusSolved, true
		}
		if s.canHandOver() && rn.best.gap <= rn.handNext {
			if status, end := s.handover(rn); end {
				return status, true
			}
		}
		return 0, false
	}
	// xi too small: the multipliers saturate at xi and the violation
	// stays above what the smoothing explains. Raise xi and redo the
	// stage (section 2: x*_{xi,0} = x* needs xi >= ||lambda*||_inf).
	if !s.opt.FixedXi && lamMax >= saturated*rn.sched.xi && viol > rn.sched.delta {
		// The exact finisher needs no xi: the probe, and stages that
		// have grown slow, hand over before xi is raised. Multipliers
		// far above any xi the stages reach would otherwise cost a
		// stage per fourfold raise, each slower than the last (two rows
		// x1 + 1e-8 x2 <= -1, -x1 + 1e-8 x2 <= -1 have multipliers of
		// 5e15: APG raised xi to 3e11 in 3e7 steps).
		if rn.sched.probe || s.handoverDue(rn) {
			rn.sched.probe = false
			if status, end := s.handover(rn); end {
				return status, true
			}
		}
		return s.raiseXi(rn)
	}
	if s.atPrecisionFloor(rn) {
		// No stage can certify more than float64 does: Tol is below
		// the rounding of this problem's certificate. The floor is
		// that of the kept rows: rows outside them that the best point
		// violates join them first, and the stages go on (found: the
		// paper-like planted QP of workingset_test.go at tol 1e-14
		// stopped here with 80 of 3000 rows kept, answering a point
		// that violated others by 31).
		if s.kept < s.mw && s.readmit(rn) {
			return 0, false
		}
		s.res.Message = fmt.Sprintf("the answer is certified to gap %.3g, the rounding floor of this problem's certificate in float64; tol %.3g is below it", rn.best.gap, s.opt.Tol)
		return StatusPrecisionLimit, true
	}
	if rn.sched.probe {
		// The loose first stage: the finisher takes over at once (see
		// startSchedule). If it cannot finish, the stage is run again
		// to its own target.
		rn.sched.probe = false
		if status, end := s.handover(rn); end {
			return status, true
		}
		return 0, false
	}
	// Rows outside the working set that the stage's point violates
	// join it now rather than after the stages have converged on a
	// problem that lacks them.
	if s.kept < s.mw {
		if s.outsideResiduals(s.state.x); s.admitOutside(rn) > 0 {
			return 0, false
		}
	}
	// The exact finisher takes over once the point shows the active set
	// roughly and violates no row outside the working set (handover.go).
	if s.handoverDue(rn) {
		if status, end := s.handover(rn); end {
			return status, true
		}
	}
	s.screenRows(rn, lamMax >= saturated*rn.sched.xi)
	s.lowerXi(&rn.sched, lamMax)
	if !s.nextDelta(&rn.sched) {
		return StatusMaxSteps, true
	}
	return 0, false
}

// raiseXi multiplies a saturated xi by xiRaise, unless the saturation
// shows the rows cannot all hold: past xiPhaseOne phase one is asked
// whether any x satisfies them (feasibility.go) before the stages are made
// harder, and past xiInfeasible the saturated multipliers are tried as a
// Farkas certificate. It reports whether the solve ends, and with which
// status.
func (s *Solver) raiseXi(rn *run) (Status, bool) {
	if rn.sched.xi >= xiPhaseOne && rn.feas != feasible {
		rn.feas = s.phaseOne()
		if rn.feas == infeasible {
			return StatusInfeasible, true
		}
	}
	if rn.sched.xi >= xiInfeasible {
		if rn.feas != feasible && s.farkas(rn) {
			return StatusInfeasible, true
		}
		if rn.sched.xi >= xiMax {
			// No certificate, and xi cannot usefully grow: stop
			// rather than loop (the best certified point stands).
			s.res.Message = fmt.Sprintf("the multipliers saturate at xi = %.3g with rows still violated and no Farkas certificate that holds: the rows are infeasible, or feasible only at points float64 cannot reach from here", rn.sched.xi)
			return StatusPrecisionLimit, true
		}
	}
	rn.sched.xi *= xiRaise
	rn.sched.xiRaised = true
	return 0, false
}

func statusOf(st stop) Status {
	switch st {
	case stopTime:
		return StatusTimeLimit
	case stopCanceled:
		return StatusCanceled
	}
	return StatusMaxSteps
}

// stage runs the inner method on F_{xi,delta} from state.x and leaves the
// stage's output x~ (a proximal gradient step from the last iterate) in
// state.x. With no loss rows and no kept rows of A there is nothing for a
// stochastic method to sample (its epochs were empty, and the stage never
// ended: a box-constrained ridge problem ran until a time limit): F is
// then its deterministic part alone, and APG takes the stage.
func (s *Solver) stage(rn *run) stop {
	if s.l+s.kept == 0 {
		return s.runAPG(rn)
	}
	switch s.opt.Method {
	case MethodSGD, MethodSGDM:
		return s.runSGD(rn)
	case MethodSVRG:
		return s.runSVRG(rn, nil)
	case MethodCatalyst:
		return s.runCatalyst(rn)
	}
	return s.runAPG(rn)
}

// finish maps the best point back to the caller's rows and fills the result.
func (s *Solver) finish(rn *run, st Status) *Result {
	res := &s.res
	res.Status = st
	res.Steps, res.Stages = s.steps, s.stages
	res.Xi = rn.sched.xi
	res.Time = time.Since(rn.start)
	clear(res.Lambda)
	clear(res.Nu)
	clear(res.Z)
	if st == StatusInfeasible {
		res.Kept = s.kept
		res.Gap, res.DistBound = math.Inf(1), math.Inf(1)
		copy(res.X, s.state.x)
		res.Objective = s.objective(res.X)
		res.MaxViolation, _ = s.callerViolation(res.X)
		return res
	}
	if math.IsInf(rn.best.gap, 1) {
		// Stopped before any certificate: report the current iterate.
		copy(s.state.best, s.state.x)
		clear(s.state.lamBest)
	}
	copy(res.X, s.state.best)
	s.snapToBounds(res.X)
	copy(s.state.x, s.state.best) // warm start of the next solve
	s.warm = true
	for k := 0; k < s.kept; k++ {
		s.scatterLambda(k, s.state.lamBest[k])
	}
	s.boundMultipliers(res.Z, res.X, s.state.lamBest[:s.kept])
	res.Objective = s.objective(res.X)
	res.Gap = s.userGap(s.wholeGap(rn, res.X), res.X)
	s.lastXi = rn.best.xi
	var feasible bool
	res.MaxViolation, feasible = s.callerViolation(res.X)
	res.DistBound = s.distBound(res.Gap, feasible)
	res.Kept = s.kept - s.screenFinal(res.DistBound)
	if st == StatusSolved && !meetsTol(res.Gap, res.Objective, s.opt.Tol) {
		// The model's gap met the tolerance, but not with the rounding of
		// forming the model from the caller's data (userGap).
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("the certified gap %.3g, with the rounding of forming the quadratic model from the data, is above the tolerance: float64 cannot certify more", res.Gap)
	} else if st == StatusSolved && !feasible {
		// The gap bounds F(x) - F* for an infeasible x only if
		// xi >= ||lambda*||_inf, which nothing proves (DESIGN.md,
		// "Certified duality gap"): such a point is never solved.
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("the point violates rows by up to %.3g, beyond rounding: its gap %.3g would hold only if xi = %.3g bounds the multipliers, which nothing proves (the exact finish, on by default for quadratic objectives, answers a feasible point)",
			res.MaxViolation, res.Gap, rn.best.xi)
	}
	if math.IsNaN(res.Gap) || math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0) {
		s.notFinite(res)
	}
	return res
}

// scatterLambda adds the multiplier of working row k to the caller's row.
func (s *Solver) scatterLambda(k int, lam float64) {
	code := s.code[k]
	v := lam / s.norm[k]
	if code.isEq() {
		s.res.Nu[code.eqRow()] += code.sign() * v
		return
	}
	s.res.Lambda[code.ineqRow()] += v
}

// callerViolation is max_j (a_j^T x - b_j)_+ on the caller's rows and
// |aeq_k^T x - beq_k| on the equality rows, over every working row (kept or
// dropped), in the caller's scale, leaving each working row's unit
// residual in s.state.r (screenFinal reads them); feasible reports that every unit row
// holds to within rounding (activeset.WithinRounding). (x lies in the box
// exactly: the prox projects onto it; zero rows left out of the working set
// hold unless the problem is infeasible.)
func (s *Solver) callerViolation(x []float64) (v float64, feasible bool) {
	xn := math.Sqrt(vec.Dot(x, x))
	feasible = true
	for k := 0; k < s.mw; k++ {
		rk := s.rowResidual(k, x)
		s.state.r[k] = rk
		v = max(v, rk*s.norm[k])
		feasible = feasible && activeset.WithinRounding(rk, xn, s.b[k], s.n)
	}
	return v, feasible
}
