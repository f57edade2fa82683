package softpen

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/internal/solver"
	"github.com/softpen/softpen/mat"
)

// Load replaces the Solver's problem by p, with the options the Solver was
// built with: afterwards the Solver is the one NewSolver(p, opt) returns,
// bit for bit, and its next Solve starts cold. It is for a service that
// solves many problems of one shape (a controller whose model changes
// every step, one QP per request): where the Solver's problem and p are
// both solved by the exact method alone (a quadratic objective on dense
// rows, fewer than 10000 rows of A, no variable taken out: what MethodAuto
// picks for most problems of a few hundred variables), Load validates p and
// builds in the Solver's own storage. Where p's P is the last one's bit for
// bit, with the same ridge and no loss, its factor and certified strong
// convexity stand and are not computed again. Otherwise, and where p
// shares storage with the Solver's Result, it allocates a new workspace
// as NewSolver does. As with NewSolver, the Solver keeps its own copy of
// p's data: p may be changed or reused afterwards.
//
// On problems of one shape (the same N, rows of A and Aeq, and the same
// fields given) Load allocates nothing, but: once, a scratch list of N
// entries; the team of goroutines of Options.Threads, made anew for a
// problem of 2^18 entries of A or more; above N = 256 the trial factor
// that certifies the strong convexity of a P that changed.
//
// The Result of the last Solve is cleared. An error is NewSolver's for p;
// the Solver then holds no problem, and its Solve, SetB, SetQ and
// SetBounds return an error saying so until a Load succeeds, which builds
// a new workspace.
func (s *Solver) Load(p *Problem) error {
	if s == nil || s.s == nil {
		return errNotBuilt
	}
	err := s.load(p)
	s.loadErr = nil
	if err != nil {
		s.loadErr = fmt.Errorf("softpen: the Solver holds no problem: its last Load failed: %w", err)
	}
	return err
}

// load is Load: in place when it can, else a new workspace.
func (s *Solver) load(p *Problem) error {
	done, err := s.loadInPlace(p)
	if done {
		return err
	}
	ns, err := newSolver(p, s.opt, true)
	if err != nil {
		return err
	}
	*s = *ns
	return nil
}

// loadInPlace builds the Solver of p in s's storage and reports true, or
// reports false having changed nothing when p or s's problem is not on
// the exact path alone, or p lives in the solver's storage
// (solver.Solver.CanLoad, asked before anything is written: a new
// workspace that then fails to build must leave nothing that a later
// Load could take for p's). The checks are newSolver's, in its order, so
// that the errors are the same.
func (s *Solver) loadInPlace(p *Problem) (bool, error) {
	if s.hdr == nil || s.sep != nil || p == nil || p.PhiSparse != nil || p.ASparse != nil {
		return false, nil
	}
	// P the last problem's, bit for bit (the common case of a controller
	// or a service of one model): its checks passed then.
	sameP := s.sameP(p)
	if err := p.validate(false, false, sameP); err != nil {
		return true, p.Validate()
	}
	if err := p.CheckMemory(s.opt); err != nil {
		return true, err
	}
	method := MethodAuto
	if s.opt != nil {
		method = s.opt.Method
	}
	if p.sparsePath(method) || p.dualCDPath(method) {
		return false, nil
	}
	if cap(s.free) < p.N {
		s.free = make([]int32, 0, p.N)
	}
	if free := separableVars(p, s.free); free != nil && worthSeparating(p, s.opt, true, free, false, false) {
		return false, nil
	}
	// What the solver reads of p in place (the rest internalReusing
	// copies first): the probe's vectors and rows, and its sizes.
	probe := solver.Problem{N: p.N, Loss: lossOf(p.Loss), PhiRows: p.Phi, Y: p.Y, Q: p.Q,
		ARows: p.A, B: p.B, Beq: p.Beq}
	so := &s.iopt
	if !s.iset {
		so = nil
	}
	if !s.s.CanLoad(&probe, so) {
		return false, nil
	}
	if p.P != nil && !solver.FactorsP(p.N, p.Loss != "none" && p.Loss != "", p.Ridge) {
		if err := checkSemidefinite(p.P); err != nil {
			return true, p.Validate()
		}
	}
	var ip solver.Problem
	s.mem = p.internalReusing(&ip, s.hdr, len(p.A) > 0, s.mem)
	ip.SameP = sameP
	if done, err := s.s.Load(&ip, so); !done {
		// CanLoad said it would: not reached. The copies are p's now.
		s.hdr.p = mat.Dense{}
		return false, nil
	} else if err != nil {
		return true, newError(p, err)
	}
	s.n, s.m, s.box = p.N, len(p.A), p.Lower != nil || p.Upper != nil
	if len(s.lo) != p.N {
		s.lo, s.hi = nil, nil
	}
	s.res, s.pen = Result{}, PenaltyInfo{}
	return true, nil
}

// sameP reports whether p's P is, bit for bit, the copy of the P of the
// problem s holds (internalInto's symmetric part, which for a symmetric P
// is P itself), with finite entries: its factor then stands
// (solver.Problem.SameP), and P is n x n, finite and symmetric (the copy
// is, exactly), so that validate need not check it again. p need not be
// valid: any length is compared safely.
func (s *Solver) sameP(p *Problem) bool {
	h := &s.hdr.p
	n := p.N
	if len(p.P) == 0 || len(p.P) != n || h.Rows != n {
		return false
	}
	for i, r := range p.P {
		if len(r) != n {
			return false
		}
		hr := h.Data[i*h.Stride : i*h.Stride+n]
		for j, v := range r {
			if math.Float64bits(v) != math.Float64bits(hr[j]) || v-v != 0 {
				return false
			}
		}
	}
	return true
}

// usable returns the error of a Solver that cannot solve: not built by
// NewSolver, or holding no problem after a failed Load.
func (s *Solver) usable() error {
	switch {
	case s == nil || s.s == nil:
		return errNotBuilt
	case s.loadErr != nil:
		return s.loadErr
	}
	return nil
}

// clone returns a copy of o (nil for nil), its Penalty options copied too.
func (o *Options) clone() *Options {
	if o == nil {
		return nil
	}
	c := *o
	if o.Penalty != nil {
		pc := *o.Penalty
		c.Penalty = &pc
	}
	return &c
}
