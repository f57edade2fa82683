package activeset

import (
	"context"
	"errors"
	"time"
)

// budget is what may end a solve before it settles, besides its
// working-set changes (stepLimit): the deadline, the earlier of
// Options.TimeLimit from the solve's start and the context's deadline,
// and the context's cancellation.
type budget struct {
	ctx      context.Context // nil: none (outside a solve)
	deadline time.Time       // zero: none
}

// budgetEvery is how many working-set changes pass between two looks at
// the clock and the context: a change costs at least a scan of the
// pool, far more than the look.
const budgetEvery = 16

// startBudget sets the budget of a solve that started at start under ctx
// (nil: context.Background()).
func (s *Solver) startBudget(ctx context.Context, start time.Time) {
	if ctx == nil {
		ctx = context.Background()
	}
	b := budget{ctx: ctx}
	if s.opt.TimeLimit > 0 {
		b.deadline = start.Add(s.opt.TimeLimit)
	}
	if d, ok := ctx.Deadline(); ok && (b.deadline.IsZero() || d.Before(b.deadline)) {
		b.deadline = d
	}
	s.budget = b
}

// interrupted reports whether the solve must end now, every budgetEvery
// working-set changes: StatusTimeLimit past the deadline (or when the
// context's deadline has ended it), StatusCanceled when the context was
// canceled. It allocates nothing (the context's Err, not its Done
// channel, which a context may allocate on first use).
func (s *Solver) interrupted() (Status, bool) {
	if s.res.Steps%budgetEvery != 0 {
		return 0, false
	}
	b := &s.budget
	if !b.deadline.IsZero() && time.Now().After(b.deadline) {
		return StatusTimeLimit, true
	}
	if b.ctx == nil {
		return 0, false
	}
	if err := b.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return StatusTimeLimit, true
		}
		return StatusCanceled, true
	}
	return 0, false
}

// safetySteps is the working-set changes a solve may make before it counts
// as cycling: 50 times the number of constraints that can enter, plus 100.
func safetySteps(n, rows int) int { return 50*(n+rows) + 100 }

// stepLimit is the working-set changes a solve may make, and the status it
// ends with when it has made them all (unless two opposite rows
// contradict: undecided): the caller's Options.MaxSteps with
// StatusMaxSteps, or the safety bound with StatusPrecisionLimit when
// there is no MaxSteps or it is larger. A solve past the safety bound is
// cycling, and a larger budget would only let it cycle until the time
// limit, or forever without one.
func (s *Solver) stepLimit() (int, Status) {
	safety := safetySteps(s.n, s.m+s.meq)
	if s.opt.MaxSteps > 0 && s.opt.MaxSteps <= safety {
		return s.opt.MaxSteps, StatusMaxSteps
	}
	return safety, StatusPrecisionLimit
}
