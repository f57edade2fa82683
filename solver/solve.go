package solver

import (
	"context"
	"math"
	"slices"
	"time"
)

// Defaults of the practical schedule. How they were chosen is recorded in
// defaults_test.go's benchmarks and in the package doc.
const (
	defaultTol = 1e-6
	defaultXi  = 1.0 // the paper's choice
	defaultEta = 4.0 // the theory's choice (Lemma 3.2); the paper's runs use 2 to 4
	maxDelta0  = 0.05
	minDelta   = 1e-13 // below this a stage cannot improve a double-precision answer
	// After a stage whose largest multiplier lambda_j = xi sigmoid(r_j/delta)
	// is below xi/xiLowerGap, xi is lowered to xiLowerTo times it (by at most
	// xiLowerMax per stage), unless FixedXi or xi has been raised in this
	// solve. xi only has to exceed ||lambda*||_inf, and a larger one costs
	// twice: a stage's condition number grows as xi/delta, and an active
	// row's smoothing offset r_j = delta log(lambda_j/(xi - lambda_j)) grows
	// with xi/lambda_j (on the paper QP ||x_delta - x*|| is about
	// 15 delta ||x*|| at xi = 1, ||lambda*||_inf ~ 0.03-0.1). Measured on the
	// paper QP, unpolished, 2e7 steps, seeds 1-5: SVRG 1.8e-4, 1.1e-4,
	// 3.6e-5, ... -> 8.3e-6, 2.6e-5, 5.1e-7, 3.1e-5, 1.1e-5 relative error;
	// APG's steps to 1e-6 7.6e6 -> 2.4e6; SGD better in 9 of 10 runs (with
	// and without screening). If the multipliers were underestimated, the
	// saturation test raises xi again (and it is not lowered after that).
	xiLowerGap    = 8.0
	xiLowerTo     = 4.0
	xiLowerMax    = 64.0
	xiRaise       = 4.0  // factor by which a saturated xi is raised
	saturated     = 0.99 // lambda_j >= saturated*xi marks xi as too small
	xiInfeasible  = 1e9  // xi beyond this with saturated multipliers: test infeasibility
	xiMax         = 1e16 // xi beyond this: give up raising it
	checkInterval = 1024 // stochastic steps between budget checks
	// sgdStageMixings is the default length of an SGD or SGDM stage in
	// mixing times 1/(alpha mu) of its step. Measured on the paper QP,
	// seeds 1-5, iterates averaged after one mixing time, median relative
	// error at 2e6 / 2e7 / 2e8 steps: 2: 9.7e-3 / 2.2e-3 / 1.2e-3;
	// 4: 8.9e-3 / 2.9e-3 / 1.0e-3; 8: 1.4e-2 / 2.6e-3 / 1.1e-3;
	// 16: 1.4e-2 / 2.7e-3 / 9.0e-4; 32: 3.5e-2 / 3.9e-3 / -. The paper's
	// count times 6 gave 1.2e-2 / 2.9e-3 / 1.5e-3; its count times 0.6 with
	// the last iterate (the earlier default) 3.6e-2 at 2e7.
	sgdStageMixings = 4.0
	// catalystMaxEpochs bounds the SVRG epochs of one catalyst outer
	// iteration (its subproblem usually meets catalyst.solved's criterion
	// sooner). Measured on the paper QP, seeds 1-5, steps to relative
	// error 1e-3 and the error after 2e7 steps: one epoch per outer
	// iteration (the earlier rule): 2.8e5-2.0e6, 4.7e-7-3.1e-5; at most 4:
	// 2.2e5-1.0e6, 1.3e-7-7.7e-6; 8: 2.2e5-9.5e5, 2.6e-8-1.9e-6; 16:
	// 2.2e5-9.5e5, 2.9e-8-1.7e-6; no bound: the same steps, 1.8e-7-1.7e-6.
	// (With 16 and no second full gradient per outer iteration, the
	// current code: 2.0e5-9.1e5, 2.7e-8-1.7e-6.)
	catalystMaxEpochs = 16
	sgdAverageEvery   = 16  // SGD averages one iterate in this many: they are strongly correlated over a mixing time
	dcdSweeps         = 500 // sweep budget of one dual coordinate polish
	// dcdMaxRowsPerVar bounds the rows of a dual coordinate polish per
	// variable (mushrooms: 8124 rows, n = 126, ratio 64).
	dcdMaxRowsPerVar = 70
	dcdMinRows       = 16384 // ... but at least this many (see dcdMaxRows)
	// The working set (see Solve) is used from wsMinRows rows and
	// wsRowsPerVar rows per variable on; after wsMaxRounds rounds of
	// readmitting rows the solve falls back to every row.
	wsMinRows    = 2048
	wsRowsPerVar = 8
	wsMaxRounds  = 64
	// wsBatchPerVar*n is the most rows one working-set step admits.
	wsBatchPerVar = 4
	// probeLoosen widens the first stage's target when polishing follows:
	// the polish needs only the active set, which a rough point already
	// shows. If the polish does not finish the solve, the stage is run
	// again to its own target. Measured on the paper QP (APG, tol 1e-6):
	// factor 1: 148 iterations, 0.45 ms; 16: 80, 0.28 ms; 64: 46,
	// 0.19 ms; 256: 18, 0.13 ms, all polished to a gap below 1e-13.
	probeLoosen = 256
)

// stop says why an inner method returned.
type stop int

const (
	stopConverged  stop = iota // gradient mapping below the stage's target
	stopBudget                 // MaxSteps
	stopTime                   // time limit
	stopCanceled               // context
	stopSubproblem             // catalyst's subproblem is solved (runSVRG to runCatalyst only)
)

// run carries what one Solve needs besides the workspace.
type run struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time // zero: none
	maxSteps int64     // 0: none
	xi       float64
	delta    float64
	tol      float64
	method   Method
	bestGap  float64 // certified gap of the best pair: state.best and state.lamBest
	bestF    float64 // F(state.best)
	bestPen  float64 // sum of the kept rows' violations at state.best
	bestG    float64 // dual bound of state.lamBest
	bestXi   float64 // the penalty of the best pair's primal bound
	checks   int64
	xiRaised bool        // xi was raised in this solve: never lower it again
	rounds   int         // working-set rounds that readmitted rows
	probe    bool        // the first stage, run loosely for a polish (see probeLoosen)
	feas     feasibility // what phase one has shown (feasibility.go)
	stopped  stop
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
// Probe. When the problem can be polished (quadratic, no prox term), the
// first stage stops at probeLoosen times its usual target: a rough point
// already shows the active set, and the polish then solves the KKT system
// on it exactly. If the polish cannot certify the answer, the first stage
// is run again to its own target and the method goes on as without the
// probe. Options.NoProbe turns it off (to measure it, or to have stages,
// screening and the xi raise act before any polish).
func (s *Solver) Solve(ctx context.Context) (*Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	rn := run{ctx: ctx, start: time.Now(), maxSteps: s.opt.MaxSteps, bestGap: math.Inf(1), bestG: math.Inf(-1)}
	if s.opt.TimeLimit > 0 {
		rn.deadline = rn.start.Add(s.opt.TimeLimit)
	}
	rn.tol = s.opt.Tol
	if rn.tol == 0 {
		rn.tol = defaultTol
	}
	rn.xi = s.opt.Xi
	if rn.xi == 0 {
		rn.xi = defaultXi
	}
	rn.method = s.opt.Method
	if rn.method == MethodAuto {
		rn.method = s.chooseMethod()
	}
	s.rng.seed(s.opt.Seed)
	s.steps = 0
	s.stages = 0
	s.startObserving()
	res := &s.res
	res.Status, res.Polished = StatusMaxSteps, false
	res.Dropped = res.Dropped[:0]
	res.Method = rn.method.String()
	clear(res.Farkas)

	if s.infeasibleRow != noRow {
		s.restoreRows()
		res.Farkas[s.infeasibleRow.resultIndex(s.m)] = s.infeasibleRow.sign()
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
	rn.delta = s.firstDelta(rn.xi)
	rn.probe = s.polishable() && !s.opt.NoPolish && !s.opt.NoProbe
	eta := s.opt.Eta
	if eta == 0 {
		eta = defaultEta
	}
	for {
		st := s.stage(&rn)
		s.stages++
		gap, viol, lamMax := s.certify(&rn)
		if s.opt.Progress != nil {
			s.opt.Progress(Stage{Index: s.stages - 1, Delta: rn.delta, Xi: rn.xi, Steps: s.steps,
				Gap: gap, Violation: viol, Kept: s.kept})
		}
		if st != stopConverged {
			return s.finish(&rn, statusOf(st)), nil
		}
		if rn.solved() {
			if s.settle(&rn) {
				return s.finish(&rn, StatusSolved), nil
			}
			continue
		}
		// xi too small: the multipliers saturate at xi and the violation
		// stays above what the smoothing explains. Raise xi and redo the
		// stage (section 2: x*_{xi,0} = x* needs xi >= ||lambda*||_inf).
		if !s.opt.FixedXi && lamMax >= saturated*rn.xi && viol > rn.delta {
			// Past xiPhaseOne, ask whether any x satisfies the rows at
			// all (feasibility.go) before making the stages harder.
			if rn.xi >= xiPhaseOne && rn.feas != feasible {
				rn.feas = s.phaseOne()
				if rn.feas == infeasible {
					return s.finish(&rn, StatusInfeasible), nil
				}
			}
			if rn.xi >= xiInfeasible {
				if rn.feas != feasible && s.farkas(&rn) {
					return s.finish(&rn, StatusInfeasible), nil
				}
				if rn.xi >= xiMax {
					// No certificate, and xi cannot usefully grow: stop
					// rather than loop (the best certified point stands).
					return s.finish(&rn, StatusMaxSteps), nil
				}
			}
			rn.xi *= xiRaise
			rn.xiRaised = true
			continue
		}
		if s.polishable() && !s.opt.NoPolish {
			s.polishBest(&rn)
			if rn.solved() {
				if s.settle(&rn) {
					return s.finish(&rn, StatusSolved), nil
				}
				continue
			}
		}
		if rn.probe {
			// The loose first stage did not lead to an answer: run it
			// again to its own target.
			rn.probe = false
			continue
		}
		// Rows outside the working set that the stage's point violates
		// join it now rather than after the stages have converged on a
		// problem that lacks them.
		if s.kept < s.mw && s.admitViolated(&rn, s.state.x) > 0 {
			continue
		}
		s.screenRows(&rn, lamMax >= saturated*rn.xi)
		// xi far above the multipliers: lower it (see xiLowerGap).
		if !s.opt.FixedXi && !rn.xiRaised && lamMax*xiLowerGap < rn.xi {
			rn.xi = math.Max(lamMax*xiLowerTo, rn.xi/xiLowerMax)
		}
		if s.opt.Static {
			continue
		}
		if rn.delta < minDelta {
			return s.finish(&rn, StatusMaxSteps), nil
		}
		rn.delta /= eta
	}
}

// polishBest polishes the best point. The KKT polish is exact when the
// guessed active set is right and non-degenerate; dual coordinate ascent on
// the kept rows takes over when it is not. Its sweeps cost kept*n each, so
// it waits until screening (or the problem) leaves at most dcdMaxRows(n)
// rows.
func (s *Solver) polishBest(rn *run) {
	if (!s.polish(rn) || !rn.solved()) && s.kept <= dcdMaxRows(s.n) {
		s.dcdPolish(rn, dcdSweeps)
	}
}

// settle is called when the best point is certified on the kept rows; it
// reports whether that certificate holds for the whole problem. Rows
// outside the kept block that the point violates are readmitted, and while
// polishing applies the point is polished at once on the larger set (an
// active-set step, far cheaper than a stage) and checked again; when there
// is no polish, or it fails, the stages go on.
func (s *Solver) settle(rn *run) bool {
	for s.readmit(rn) {
		if !s.polishable() || s.opt.NoPolish {
			return false
		}
		if s.polishBest(rn); !rn.solved() {
			return false
		}
	}
	return true
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
// state.x.
func (s *Solver) stage(rn *run) stop {
	switch rn.method {
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
	res.Xi = rn.xi
	res.Time = time.Since(rn.start)
	clear(res.Lambda)
	clear(res.Nu)
	if st == StatusInfeasible {
		res.Kept = s.kept
		res.Gap, res.DistBound = math.Inf(1), math.Inf(1)
		copy(res.X, s.state.x)
		res.Objective = s.objective(res.X)
		res.MaxViolation = s.callerViolation(res.X)
		return res
	}
	if math.IsInf(rn.bestGap, 1) {
		// Stopped before any certificate: report the current iterate.
		copy(s.state.best, s.state.x)
		clear(s.state.lamBest)
	}
	copy(res.X, s.state.best)
	copy(s.state.x, s.state.best) // warm start of the next solve
	s.warm = true
	for k := 0; k < s.kept; k++ {
		s.scatterLambda(k, s.state.lamBest[k])
	}
	res.Kept = s.kept
	if st == StatusSolved {
		res.Kept -= s.screenFinal(rn)
	}
	res.Objective = s.objective(res.X)
	// Rows outside the kept block count in the whole problem's gap: zero
	// after a solved readmit check, possibly not after a budget stop.
	res.Gap = rn.bestGap + s.outsidePenalty(res.X, rn.bestXi)
	s.lastXi = rn.bestXi
	for k := s.kept; k < s.mw; k++ {
		if c := s.code[k]; !c.isEq() {
			res.Dropped = append(res.Dropped, c.ineqRow())
		}
	}
	slices.Sort(res.Dropped)
	res.DistBound = math.Sqrt(2 * res.Gap / s.mu)
	res.MaxViolation = s.callerViolation(res.X)
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
// dropped), in the caller's scale.
func (s *Solver) callerViolation(x []float64) float64 {
	var v float64
	for k := 0; k < s.mw; k++ {
		rk := s.rowResidual(k, x) * s.norm[k]
		v = math.Max(v, rk)
	}
	return v
}
