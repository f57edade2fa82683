package solver

import "math"

// startObserving sets the first step count at which Options.Observe is due:
// the first multiple of ObserveEvery, or never when Observe is nil (so the
// inner loops test one integer and make no call).
func (s *Solver) startObserving() {
	s.obsNext = math.MaxInt64
	if s.opt.Observe == nil {
		return
	}
	s.obsEvery = s.opt.ObserveEvery
	s.obsNext = s.obsEvery
}

// observe calls Options.Observe with the iterate x at step count steps and
// sets the next due count to the first multiple of ObserveEvery above it.
// Callers test steps >= s.obsNext first. The due count lives in the Solver,
// not in one inner method's call, so steps taken between calls (full
// gradients, catalyst's outer loop) cannot skip a due observation.
func (s *Solver) observe(steps int64, x []float64) {
	s.opt.Observe(steps, x)
	s.obsNext = (steps/s.obsEvery + 1) * s.obsEvery
}

// reportAnswer calls the progress and observer callbacks, if set, once
// with the answer of a method that has no stages of its own (the direct
// path; Newton steps report each of theirs: newtonReport).
func (s *Solver) reportAnswer(m Method, index int, steps int64, kept int) {
	res := &s.res
	if s.opt.Progress != nil {
		s.opt.Progress(Stage{Method: m, Index: index, Steps: steps, Gap: res.Gap, Violation: res.MaxViolation, Kept: kept})
	}
	if s.opt.Observe != nil {
		s.opt.Observe(steps, res.X)
	}
}
