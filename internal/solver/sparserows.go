package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/softpen/softpen/internal/dualcd"
	"github.com/softpen/softpen/vec"
)

// The path for sparse rows of A (Problem.ASparse): a ridge objective with
// q, and A x <= b with every b_i < 0 — the hard-margin SVM on sparse
// data — solved by dual coordinate descent (package dualcd), certified at
// a scaled feasible point. Other models with sparse rows are the caller's
// to densify.

// errSparseRows is New's error for sparse rows of A in a model this path
// does not take.
var errSparseRows = errors.New("solver: sparse rows of A take only ridge > 0 and q (no loss, P, l1, bounds or Aeq) and b < 0")

// newSparseRows is New for a problem with ASparse.
func newSparseRows(p *Problem, opt *Options) (*Solver, error) {
	if p.Loss != LossNone || p.P != nil || p.L1 != 0 || p.Lower != nil || p.Upper != nil || p.Aeq != nil ||
		p.A != nil || p.ARows != nil || !(p.Ridge > 0) {
		return nil, errSparseRows
	}
	for _, b := range p.B {
		if !(b < 0) {
			return nil, errSparseRows
		}
	}
	s, err := newSparseBase(p, opt, MethodDualCD)
	if err != nil {
		return nil, err
	}
	s.m = p.ASparse.Rows
	s.ridge, s.offset = p.Ridge, p.Offset
	if p.Q != nil {
		s.q = append([]float64(nil), p.Q...)
	}
	s.b = append([]float64(nil), p.B...)
	s.cd = dualcd.New(dualcd.Problem{A: p.ASparse, B: s.b, Q: s.q, Ridge: s.ridge}, dualcd.Options{Tol: s.opt.Tol, Seed: s.opt.Seed})
	var progress func(int, int64, float64)
	if s.opt.Progress != nil {
		progress = func(epoch int, rows int64, gap float64) {
			s.opt.Progress(Stage{Method: MethodDualCD, Index: epoch, Steps: rows, Gap: gap, Kept: s.m})
		}
	}
	a := p.ASparse
	s.cd.SetOptions(func(rows int64) bool {
		s.steps = rows
		return s.over(s.sparseRun)
	}, progress, func(lam, y []float64) bool { return s.supportFarkas(a, s.b, lam, y) },
		func(lam []float64) bool { return s.supportFinish(a, s.b, lam) })
	s.mu = s.ridge
	s.res = Result{X: make([]float64, s.n), Lambda: make([]float64, s.m), Farkas: make([]float64, s.m),
		Method: MethodDualCD.String(), Impl: vec.Impl()}
	s.state.x = s.res.X
	return s, nil
}

// solveDualCD is SolveFrom on the sparse-rows path.
func (s *Solver) solveDualCD(ctx context.Context, start time.Time) (*Result, error) {
	rn := s.startSparseRun(ctx, start)
	r := s.cd.Solve()
	if s.opt.Observe != nil {
		s.opt.Observe(r.Rows, r.X)
	}
	res := &s.res
	copy(res.X, r.X)
	copy(res.Lambda, r.Lambda)
	clear(res.Farkas)
	res.Objective = r.Objective + s.offset
	res.Gap, res.MaxViolation = r.Gap, max(0, r.MaxViol)
	res.DistBound = math.Inf(1)
	if !math.IsInf(r.Gap, 1) {
		res.DistBound = math.Sqrt(2 * r.Gap / s.ridge)
	}
	res.Steps, res.Iterations, res.Message = r.Rows, r.Epochs, ""
	switch r.Status {
	case dualcd.Solved:
		res.Status = StatusSolved
	case dualcd.Infeasible:
		res.Status = StatusInfeasible
		copy(res.Farkas, r.Farkas)
	case dualcd.Stopped:
		res.Status = statusOf(rn.stopped)
	default:
		res.Status = StatusPrecisionLimit
		res.Message = fmt.Sprintf("dual coordinate descent converged in float64 with the certified gap at %.3g (the certificate's rounding %.3g); the tolerance asks for less", r.Gap, r.Allowance)
	}
	if res.Status != StatusInfeasible && (math.IsNaN(res.Gap) || math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0)) {
		s.notFinite(res)
	}
	res.Time = time.Since(start)
	return res, nil
}
