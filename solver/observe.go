package solver

// observer returns the step-level callback and the step count at which it
// is next due (the first multiple of ObserveEvery above the current count).
func (s *Solver) observer() (func(int64, []float64), int64, int64) {
	obs := s.opt.Observe
	if obs == nil {
		return nil, 0, 0
	}
	every := s.opt.ObserveEvery
	if every <= 0 {
		every = 1000
	}
	return obs, every, (s.steps/every + 1) * every
}
