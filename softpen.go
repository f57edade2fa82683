// Package softpen solves strongly convex problems with many linear
// constraints,
//
//	minimize   (1/l) sum_i f_i(x) + 1/2 x'Px + q'x + ridge/2 ||x||^2 + l1 ||x||_1
//	subject to A x <= b,  Aeq x = beq,  lower <= x <= upper,
//
// with f_i a squared or logistic loss on the rows phi_i of Phi, or none,
// and certifies every answer with a duality gap computed from the caller's
// data.
//
// What runs by default (MethodAuto, chosen by the problem alone): a
// quadratic objective goes to an exact dual active-set method (the engine of
// package activeset, in the family of quadprog and DAQP), which on many
// rows starts from its answer on a sample of them and answers to the
// rounding of the data; the logistic loss goes to Newton steps whose
// quadratic subproblems that method solves; above n = 3000 the fitting
// model (a loss, ridge, l1 and bounds, no rows) goes to Newton-CG on its
// rows compressed. The nested softplus-penalty method of M. Li, P. Grigas and A. Atamtürk ("New Penalized Stochastic
// Gradient Methods for Linearly Constrained Strongly Convex Optimization")
// runs above n = 3000, where no n x n matrix is formed, and whenever a
// caller asks for one of its inner methods (APG, SVRG, catalyst-SVRG, SGD,
// SGD with momentum): the constraints are replaced by
// xi sum_j delta log(1 + exp((a_j'x - b_j)/delta)) for a shrinking delta,
// the multipliers are recovered as xi sigmoid((a_j'x - b_j)/delta), and
// rows proven inactive are screened out; for a quadratic objective its
// working set is then handed to the active-set method for an exact finish.
// A loss over sparse rows (Problem.PhiSparse) with ridge, l1 and bounds —
// text, clicks, 1e6 features — goes to projected Newton with conjugate
// gradients on Hessian products (MethodNewtonCG), certified by its Fenchel
// duality gap, with memory in proportion to the nonzeros.
//
// Solve is the one-call entry point. A Solver is a reusable workspace: its
// Solve allocates nothing (but once: the first re-solve of a small
// problem on the exact path allocates the transformed normals it keeps,
// at most 512 KB, and a least-squares model whose certificate needs the
// metric of its diagonal, badly scaled columns, an n x n matrix) and
// starts from the previous answer (SetB changes the
// right-hand side between solves), which is what a service that re-solves
// the same problem with new data wants.
//
// A Result is a Solution (x and the multipliers, or a Farkas certificate
// of infeasibility) and an Info (status, certified gap, distance bound,
// method, time). Only StatusSolved means the certified gap met the
// tolerance at a point that satisfies the constraints to rounding; every
// other status says why in Info.Message. Errors are returned for bad input
// (naming the field and index) and never as panics.
package softpen

import (
	"context"
	"errors"
	"time"

	"github.com/softpen/softpen/internal/solver"
)

// Solve validates p and solves it once. A nil opt means the defaults. The
// error is non-nil only for bad input or options (an *InputError naming
// the field and index, a *MemoryError, or an error naming the option);
// how the solve ended is in Result.Status. Options.TimeLimit and
// Info.Time count from the call's start: the set-up (validation, scaling,
// forming and factoring the quadratic model, the active-set method's row
// samples) is part of the time.
//
// Solve reads the rows of A and Aeq where they are, without a copy, so p
// must not change during the call. The Result is the caller's.
func Solve(ctx context.Context, p *Problem, opt *Options) (*Result, error) {
	start := time.Now()
	s, err := newSolver(p, opt, false)
	if err != nil {
		return nil, err
	}
	return s.solveFrom(ctx, start)
}

// Solver is a reusable workspace for one problem: NewSolver does all the
// allocation, and each Solve warm-starts from the previous answer without
// allocating (the active-set method hot-starts from its last working set).
// Load replaces the problem, in the same storage where it fits. A Solver
// is not safe for concurrent use.
type Solver struct {
	s   *solver.Solver
	sep *separable // the variables taken out (columns.go), or nil
	n   int        // variables
	m   int        // rows of A
	box bool       // the problem has bounds
	// lo and hi are SetBounds' bounds, -Inf / +Inf where missing.
	lo, hi []float64
	res    Result
	pen    PenaltyInfo
	// opt is a copy of NewSolver's options (nil: the defaults), which
	// Load builds with, and iopt the solver's form of them (when iset; a
	// value: a pointer kept here would move every solve's options to the
	// heap); hdr and mem hold the matrices' headers and the copies of the
	// caller's data (internalInto), free the scratch of separableVars,
	// which Load reuses.
	opt  *Options
	iopt solver.Options
	iset bool
	hdr  *denseHeaders
	mem  []float64
	free []int32
	// loadErr is the error of the last Load: the Solver holds no problem
	// until a Load succeeds.
	loadErr error
}

// NewSolver validates p, copies what it keeps (p may be changed or reused
// afterwards: a Solver keeps its own copy of A, Aeq, P and the loss's rows
// as far as the method needs them) and allocates the workspace.
func NewSolver(p *Problem, opt *Options) (*Solver, error) {
	return newSolver(p, opt, true)
}

// newSolver is NewSolver; with own false (Solve) the solver may keep
// reading p.A, which then must not change while it is in use, and is
// solved once: its engines keep nothing for re-solves.
func newSolver(p *Problem, opt *Options, own bool) (*Solver, error) {
	oneShot := !own // Solve's, which solves once; NewSolver's own their rows
	// The entries of A are left to solver.New, which checks every row as
	// it reads it to scale it: one pass over a large A instead of two. Any
	// error, here or from the solver, is reported as Validate words it, so
	// that no bad data gets through and the message is the same either way
	// (TestValidateNamesFieldAndIndex).
	// P's semidefiniteness (a factorisation) is checked below, unless
	// the solver factors P itself.
	if err := p.validate(false, false, false); err != nil {
		return nil, p.Validate()
	}
	so, err := opt.internal()
	if err != nil {
		return nil, err
	}
	if oneShot {
		if so == nil {
			so = &solver.Options{}
		}
		so.OneShot = true
	}
	// The limit is checked on the whole problem, before anything of its
	// size is allocated; solving it without its separable variables
	// (columns.go) takes less.
	if err := p.CheckMemory(opt); err != nil {
		return nil, err
	}
	method := MethodAuto
	if opt != nil {
		method = opt.Method
	}
	// The path is chosen on the whole problem (sizes decide dual-cd).
	dualCD := p.dualCDPath(method)
	sparse := p.sparsePath(method) || dualCD
	switch {
	case sparse:
	case method == MethodNewtonCG:
		return nil, errors.New("options: method newton-cg takes the fitting model only (a loss, ridge > 0, no Aeq or P)")
	case method == MethodDualCD:
		return nil, errors.New("options: method dual-cd takes sparse rows of A with b < 0 and a ridge objective only (ridge > 0, q)")
	}
	full := p
	var sp *separable
	free := separableVars(p, nil)
	separate := free != nil && worthSeparating(p, opt, own, free, sparse, dualCD)
	if p.P != nil && (sparse || separate || !solver.FactorsP(p.N, p.Loss != "none" && p.Loss != "", p.Ridge)) {
		// Where solver.New factors the whole P itself, a P that is not
		// positive semidefinite fails there and is reported below as
		// Validate words it; elsewhere it is checked here, once.
		if err := checkSemidefinite(p.P); err != nil {
			return nil, p.Validate()
		}
	}
	if separate {
		sp = newSeparable(p, free)
		if err := sp.check(); err != nil {
			return nil, err
		}
		// The reduced problem's rows are new: no copy of them is needed.
		p, own = sp.reduced(p, sparse), false
		if so != nil && so.Observe != nil {
			so.Observe = sp.observe(so.Observe)
		}
	} else if !sparse && (p.PhiSparse != nil || p.ASparse != nil) {
		p = p.withDenseRows()
	}
	if sparse {
		s, err := newSparseSolver(p, so, dualCD)
		if err != nil {
			return nil, err
		}
		s.sep, s.n = sp, full.N
		if !oneShot {
			s.opt = opt.clone()
		}
		return s, nil
	}
	// The matrices' headers share the Solver's allocation. With own, the
	// solver may read rows of A during every Solve (working set): it gets
	// a copy that the caller cannot change.
	// solver.New keeps no pointer to its Problem: ip stays on the stack.
	sd := new(solverDense)
	var ip solver.Problem
	mem := p.internalReusing(&ip, &sd.hdr, own && len(p.A) > 0, nil)
	s, err := solver.New(&ip, so)
	if err != nil {
		return nil, newError(full, err)
	}
	sd.Solver = Solver{s: s, sep: sp, n: full.N, m: len(p.A), box: p.Lower != nil || p.Upper != nil,
		hdr: &sd.hdr, mem: mem}
	if !oneShot {
		sd.opt = opt.clone()
		if so != nil {
			sd.iopt, sd.iset = *so, true
		}
	}
	return &sd.Solver, nil
}

// newError is the error of NewSolver(p) when the solver's New fails with
// err: Validate's where Validate finds one (no bad data gets through, and
// the message is the same either way), an objective that is not strongly
// convex as an *InputError on the ridge.
func newError(p *Problem, err error) error {
	if verr := p.Validate(); verr != nil {
		return verr
	}
	var nc *solver.NotConvexError
	if errors.As(err, &nc) {
		return inputErr("ridge", nil, nc.Error()+"; a larger ridge makes it so")
	}
	return err
}

// solverDense is a Solver and the headers of the matrices its solver
// keeps (internalInto), in one allocation.
type solverDense struct {
	Solver
	hdr denseHeaders
}

// errNotBuilt is the error of a Solver that NewSolver did not make.
var errNotBuilt = errors.New("softpen: Solver not built by NewSolver")

// Solve solves the problem, starting from the previous answer if there is
// one. The Result and its slices belong to the Solver and are overwritten
// by the next call. It allocates nothing, but once: the first re-solve of
// a small problem on the exact path allocates the transformed normals
// that the re-solves keep ((m + n) n floats, at most 512 KB), and the
// first solve whose certificate needs the metric of the model's diagonal
// (least squares on badly scaled columns, where the rounding of forming
// phi'phi/l decides the tolerance) an n x n matrix.
func (s *Solver) Solve(ctx context.Context) (*Result, error) {
	return s.solveFrom(ctx, time.Now())
}

func (s *Solver) solveFrom(ctx context.Context, start time.Time) (*Result, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	r, err := s.s.SolveFrom(ctx, start)
	if err != nil {
		return nil, err
	}
	s.res.fill(r, &s.pen, s.m, s.box)
	if s.sep != nil {
		s.sep.expand(&s.res)
	}
	return &s.res, nil
}

// Reset makes the next Solve start cold, from x = 0.
func (s *Solver) Reset() {
	if s.usable() == nil {
		s.s.Reset()
	}
}

// SetB replaces the right-hand side b of the rows of A (length m, all
// finite) for the next Solve; the warm start is kept. It allocates nothing.
// An error names the bad entry; the Solver is then unchanged.
func (s *Solver) SetB(b []float64) error {
	if err := s.usable(); err != nil {
		return err
	}
	return s.s.SetB(b)
}

// SetQ replaces the linear term q of the objective (length n, all finite)
// for the next Solve, as a receding-horizon controller does at every step;
// the warm start is kept (the active-set method starts from its last
// working set). It allocates nothing (a Problem without q allocates its q
// once, at the first SetQ). An error names the bad entry; the Solver is
// then unchanged.
func (s *Solver) SetQ(q []float64) error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.sep != nil {
		qk, err := s.sep.setQ(q)
		if err != nil {
			return err
		}
		q = qk
	}
	return s.s.SetQ(q)
}

// SetBounds replaces the bounds for the next Solve: lower and upper each
// nil (no bounds on that side) or of length n, with the rules of
// Validate (a missing bound is -Inf / +Inf or of magnitude >= 1e20, lower
// <= upper). The warm start is kept (the active-set method starts from its
// last working set, cold only if a variable becomes fixed, stops being
// fixed, is fixed at another value, or is freed of a bound it was held
// at). It allocates nothing, except, once, the
// bounds of a Solver built without any. An error names the bad entry; the
// Solver is then unchanged.
func (s *Solver) SetBounds(lower, upper []float64) error {
	if err := s.usable(); err != nil {
		return err
	}
	if err := checkBounds(lower, upper, s.n); err != nil {
		return err
	}
	if s.lo == nil {
		s.lo, s.hi = make([]float64, s.n), make([]float64, s.n)
	}
	for i := range s.lo {
		s.lo[i], s.hi[i] = lowerAt(lower, i), upperAt(upper, i)
	}
	lo, hi := s.lo, s.hi
	if s.sep != nil {
		lo, hi = s.sep.keptBounds(s.lo, s.hi)
	}
	if err := s.s.SetBounds(lo, hi); err != nil {
		return err
	}
	if s.sep != nil {
		s.sep.setBounds(s.lo, s.hi)
	}
	s.box = true
	return nil
}
