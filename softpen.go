// Package softpen solves strongly convex problems with many linear
// inequality constraints,
//
//	minimize   (1/l) sum_i f_i(x) + 1/2 x^T P x + q^T x + ridge/2 ||x||^2 + l1 ||x||_1
//	subject to A x <= b,  Aeq x = beq,  lower <= x <= upper,
//
// by the nested softplus-penalty method of M. Li, P. Grigas and A. Atamtürk,
// "New Penalized Stochastic Gradient Methods for Linearly Constrained
// Strongly Convex Optimization": the
// constraints are replaced by xi * sum_j delta*log(1+exp((a_j^T x - b_j)/delta)),
// a sequence of smooth problems with delta shrinking geometrically is solved
// by a first-order or stochastic inner method, multipliers are recovered as
// lambda_j = xi*sigmoid((a_j^T x - b_j)/delta), every answer carries a
// certified duality gap, and an active-set polishing step turns the
// identified active set into a machine-precision answer.
//
// Solve is the one-call entry point. A Solver is a reusable workspace: its
// Solve allocates nothing and starts from the previous solution, which is
// what a service that re-solves the same problem with new data wants.
//
// Results carry a Status; only StatusSolved means the certified gap met the
// tolerance. Errors are returned for bad input (naming the field and index)
// and never as panics.
package softpen

import (
	"context"
	"errors"
	"time"

	"github.com/softpen/softpen/internal/solver"
)

// The option, result and status types are those of package solver.
type (
	Options    = solver.Options
	Result     = solver.Result
	Status     = solver.Status
	Stage      = solver.Stage
	Method     = solver.Method
	ScreenRule = solver.ScreenRule
	Schedule   = solver.Schedule
)

// Status values.
const (
	StatusSolved     = solver.StatusSolved
	StatusMaxSteps   = solver.StatusMaxSteps
	StatusTimeLimit  = solver.StatusTimeLimit
	StatusInfeasible = solver.StatusInfeasible
	StatusCanceled   = solver.StatusCanceled
	// StatusPrecisionLimit: the best answer float64 can certify for this
	// problem, with a gap above Tol (Result.Message says why).
	StatusPrecisionLimit = solver.StatusPrecisionLimit
)

// Inner methods.
const (
	MethodAuto     = solver.MethodAuto
	MethodSGD      = solver.MethodSGD
	MethodSGDM     = solver.MethodSGDM
	MethodSVRG     = solver.MethodSVRG
	MethodCatalyst = solver.MethodCatalyst
	MethodAPG      = solver.MethodAPG
	// MethodActiveSet solves a quadratic objective exactly by the dual
	// active-set method (package activeset) instead of the penalty method.
	MethodActiveSet = solver.MethodActiveSet
)

// Screening rules.
const (
	ScreenNone    = solver.ScreenNone
	ScreenPaper   = solver.ScreenPaper
	ScreenGapSafe = solver.ScreenGapSafe
	// ScreenPaperExperiment: the rule of the paper's SVM experiment; not
	// safe, for reproducing it (see solver.ScreenPaperExperiment).
	ScreenPaperExperiment = solver.ScreenPaperExperiment
)

// ParseMethod maps a method name ("auto", "sgd", "sgdm", "svrg",
// "catalyst-svrg", "apg") to a Method.
func ParseMethod(name string) (Method, error) { return solver.ParseMethod(name) }

// Solve validates p and solves it once. A nil opt means the defaults. The
// error is non-nil only for bad input or options; how the solve ended is in
// Result.Status. Options.TimeLimit and Result.Time count from the call's
// start: the set-up (validation, scaling, the direct path's row samples)
// is part of the time.
//
// Solve does not copy the rows of A when the solver works on a working set
// of them (many more rows than variables; see solver.Solver.Solve): it reads
// them where they are, so p must not change during the call.
func Solve(ctx context.Context, p *Problem, opt *Options) (*Result, error) {
	start := time.Now()
	s, err := newSolver(p, opt, false)
	if err != nil {
		return nil, err
	}
	return s.s.SolveFrom(ctx, start)
}

// Solver is a reusable workspace for one problem: NewSolver does all the
// allocation, and each Solve warm-starts from the previous answer without
// allocating. Not safe for concurrent use.
type Solver struct {
	s *solver.Solver
}

// NewSolver validates p, copies what it needs (p may be changed or reused
// afterwards) and allocates the workspace.
func NewSolver(p *Problem, opt *Options) (*Solver, error) {
	return newSolver(p, opt, true)
}

// newSolver is NewSolver; with own false the solver may keep reading p.A,
// which then must not change while it is in use.
func newSolver(p *Problem, opt *Options, own bool) (*Solver, error) {
	// The entries of A are left to solver.New, which checks every row as
	// it reads it to scale it: one pass over a large A instead of two
	// (the large QP's 80 MB: 7 ms). Any error, here or from the solver, is
	// reported as Validate words it, so that no bad data gets through
	// and the message is the same either way (TestValidateNamesFieldAndIndex).
	if err := p.validate(false); err != nil {
		return nil, p.Validate()
	}
	if err := p.CheckMemory(opt); err != nil {
		return nil, err
	}
	ip, err := p.internal()
	if err != nil {
		return nil, err
	}
	if own && len(p.A) > 0 {
		// The solver may read rows of A during every Solve (working set):
		// give it a copy that the caller cannot change.
		ip.ARows, ip.A = nil, denseOf(p.A, p.N)
	}
	s, err := solver.New(ip, opt)
	if err != nil {
		if verr := p.Validate(); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	return &Solver{s: s}, nil
}

// Solve solves the problem, starting from the previous solution if there is
// one. The Result and its slices belong to the Solver and are overwritten by
// the next call.
// A Solver that NewSolver did not make (the zero value) returns an error.
func (s *Solver) Solve(ctx context.Context) (*Result, error) {
	if s == nil || s.s == nil {
		return nil, errors.New("softpen: Solver not built by NewSolver")
	}
	return s.s.Solve(ctx)
}

// Reset makes the next Solve start cold, from x = 0.
func (s *Solver) Reset() {
	if s != nil && s.s != nil {
		s.s.Reset()
	}
}

// SetB replaces the right-hand side b of the inequality rows (length m, all
// finite) for the next Solve; the warm start is kept. It allocates nothing.
func (s *Solver) SetB(b []float64) error {
	if s == nil || s.s == nil {
		return errors.New("softpen: Solver not built by NewSolver")
	}
	return s.s.SetB(b)
}
