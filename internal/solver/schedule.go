package solver

import "math"

// The schedule of Algorithm 1: stage t minimises F_{xi,delta_t}, with
// delta_0 from firstDelta, delta_{t+1} = delta_t/eta, and each stage
// stopped at stageTarget. xi starts at Options.Xi; Solve raises it when
// the multipliers saturate (raiseXi) and lowerXi lowers it when they stay
// far below it.

// schedule is the penalty and smoothing of the current stage.
type schedule struct {
	xi, delta float64
	xiRaised  bool // xi was raised in this solve: never lower it again
	probe     bool // the first stage, run loosely for a polish (see probeLoosen)
}

// startSchedule sets the first stage's delta and whether it is a probe;
// sc.xi is already the first xi. The probe, a loose first stage after
// which the finisher takes over at once, is for problems with at most
// DirectMaxRows rows, where the active-set method is faster than the
// penalty method even cold (larger ones hand over at handoverGap).
func (s *Solver) startSchedule(sc *schedule) {
	sc.delta = s.firstDelta(sc.xi)
	sc.probe = s.canHandOver() && s.m+s.meq <= DirectMaxRows && !s.opt.NoProbe
}

// firstDelta is delta_0 (firstDeltaOf with the solver's options and mu).
func (s *Solver) firstDelta(xi float64) float64 { return firstDeltaOf(&s.opt, xi, s.mu) }

// firstDeltaOf is delta_0: the option if set, otherwise the theory's bound
// delta_0 <= (xi/mu) e^-2 (Lemma 3.2) capped at maxDelta0 for the practical
// schedule (the paper's experiments use 0.05 and 0.005).
func firstDeltaOf(opt *Options, xi, mu float64) float64 {
	if opt.Delta0 > 0 {
		return opt.Delta0
	}
	d := xi / mu * math.Exp(-2)
	if opt.Schedule == SchedulePractical {
		d = min(d, maxDelta0)
	}
	return d
}

// stageL is the smoothness constant of F_{xi,delta}'s smooth part:
// L + xi s_max^2 / (4 delta).
func (s *Solver) stageL(rn *run) float64 {
	sm := s.sMax()
	return s.lf + rn.sched.xi*sm*sm/(4*rn.sched.delta)
}

// stageTarget is the gradient-mapping norm at which a stage stops.
//
// Theory (Lemma 3.2): sqrt(2 mu eps_t) with
// eps_t = min{ m mu delta^2 log^2(xi s_max/(mu delta)) / 2, m xi delta log(xi s_max/(mu delta)) }.
// Practical: mu*delta/4, which puts the stage's own error ||x - x*_delta|| <=
// ||g||/mu at a quarter of the smoothing bias O(delta) — solving a stage more
// accurately than its penalty approximates the constrained problem is wasted.
func (s *Solver) stageTarget(rn *run) float64 {
	d := rn.sched.delta
	if s.opt.Schedule == ScheduleTheory {
		m := float64(max(s.kept, 1))
		lg := math.Log(max(rn.sched.xi*max(s.sMax(), 1)/(s.mu*d), math.E))
		eps := min(0.5*m*s.mu*d*d*lg*lg, m*rn.sched.xi*d*lg)
		return math.Sqrt(2 * s.mu * eps)
	}
	if rn.sched.probe {
		return s.mu * d / 4 * probeLoosen
	}
	return s.mu * d / 4
}

// paperStageSteps is the paper's theoretical inner iteration count of a
// stage for SGD and SVRG, log(2 eta - 1) K (its appendix), times mult.
func (s *Solver) paperStageSteps(rn *run, lossC, mult float64) int64 {
	logEta, k := s.paperStageTerms(rn, lossC)
	return int64(mult * logEta * k)
}

// paperStageStepsAcc is the paper's inner iteration count of a Nested-SGDM
// stage, (2 log(2 eta - 1) + log K) sqrt(m K) (its appendix: the count of an
// accelerated method), times mult.
func (s *Solver) paperStageStepsAcc(rn *run, lossC, mult float64) int64 {
	logEta, k := s.paperStageTerms(rn, lossC)
	if k <= 1 {
		return 0
	}
	return int64(mult * (2*logEta + math.Log(k)) * math.Sqrt(float64(s.kept)*k))
}

// paperStageTerms returns the two terms of the paper's stage counts:
// log(2 eta - 1) and the condition number K = L/mu + m xi/(4 mu delta), L
// the largest smoothness of a loss term and m the kept rows.
func (s *Solver) paperStageTerms(rn *run, lossC float64) (logEta, k float64) {
	eta := s.opt.Eta
	lLoss := 0.0
	if s.l > 0 {
		lLoss = lossC * s.state.lossW.max
	}
	return math.Log(2*eta - 1), lLoss/s.mu + float64(s.kept)*rn.sched.xi/(4*s.mu*rn.sched.delta)
}

// nextDelta moves sc to the next stage, delta_{t+1} = delta_t/eta (a
// static schedule keeps its delta). It reports false when delta is already
// below minDelta, where a stage cannot improve a double-precision answer.
func (s *Solver) nextDelta(sc *schedule) bool {
	if s.opt.Static {
		return true
	}
	if sc.delta < minDelta {
		return false
	}
	sc.delta /= s.opt.Eta
	return true
}

// readmitDelta raises delta for rows that joined the problem with
// violation worst, so that they are smoothed at their own scale: to worst,
// at most to delta_0 (a static schedule keeps its delta).
func (s *Solver) readmitDelta(sc *schedule, worst float64) {
	if !s.opt.Static {
		sc.delta = min(s.firstDelta(sc.xi), max(sc.delta, worst))
	}
}

// lowerXi lowers xi when the stage's largest multiplier lamMax is far
// below it (see xiLowerGap), unless FixedXi or xi has been raised in this
// solve.
func (s *Solver) lowerXi(sc *schedule, lamMax float64) {
	if !s.opt.FixedXi && !sc.xiRaised && lamMax*xiLowerGap < sc.xi {
		sc.xi = max(lamMax*xiLowerTo, sc.xi/xiLowerMax)
	}
}
