package activeset

import (
	"fmt"
	"math"
	"time"
)

// Options tune a solve; the zero value (or nil) means the defaults below.
type Options struct {
	// MaxSteps bounds the working-set changes of one solve: a solve that
	// makes that many ends with StatusMaxSteps and the certificate of its
	// point. 0 means no budget of the caller's. Either way the solve is
	// bounded by a safety bound of 50 (n + m + meq) + 100 changes, which
	// a smaller MaxSteps replaces: every change either raises the dual
	// objective or removes a constraint whose multiplier reached zero, so
	// a solve that has not ended by then is cycling on a degenerate
	// vertex, and it ends with StatusPrecisionLimit (a larger MaxSteps
	// would only let it cycle longer).
	MaxSteps int
	// TimeLimit bounds the time of one solve, counted from the start of
	// Solve (or the instant SolveFrom is given); 0 means none. A solve
	// past it ends with StatusTimeLimit and the certificate of its point.
	TimeLimit time.Duration
	// PrimalTol is the largest violation a_j'x - b_j, taken on the row
	// scaled to unit norm, that does not admit row j into the working set,
	// relative to 1 + ||x||_inf; 0 means 1e-12 (a few hundred ulp of the
	// residual of a row of unit norm at |x| ~ 1). Once the loop ends, a
	// row below it is admitted still if it is violated beyond rounding
	// (StatusSolved promises a Feasible x), or in exact arithmetic while
	// its normal is nearly in the span of the working set's.
	PrimalTol float64
	// DualTol is how negative a multiplier of the working set's system may
	// be, relative to 1 + the largest multiplier, before its constraint
	// leaves the set; 0 means 1e-12. Multipliers in [-DualTol, 0) are
	// reported as 0.
	DualTol float64
	// Threads is the goroutines of the passes over every row of A (the
	// rows' norms in New, the scans of every row, the pool's rebuilds)
	// when A has at least 2^17 entries a goroutine; 0 or 1 means the
	// calling goroutine alone. The answer is the same bit for bit
	// whatever the number: a scan of every row runs in spans fixed by A's
	// shape, each from the scan's threshold, whole spans to a goroutine
	// (checkRows).
	Threads int
	// Mu is a lower bound on the smallest eigenvalue of H, if the caller
	// has one; 0 means none. With it the certificate sums the Lagrangian's
	// gradient H x + c + A'lambda again in twice the working precision
	// where its rounding in float64 would weigh in PenaltyGap(Mu, .)
	// (ill-conditioned H, large x), O(n^2 + k n) once per solve; without
	// it, never: PenaltyGap is as certain, but can be far looser there.
	// New refuses a Mu that is negative, infinite or NaN: a bound above
	// the truth makes certificates that do not hold.
	Mu float64
	// OneShot tells New that the Solver will be solved once, or again
	// only rarely: its re-solves then keep no transformed normals of the
	// rows and bounds ((m + n) n floats on small problems, allocated by
	// the first re-solve; workingset.go) and compute each normal as it is
	// admitted; and New leaves the storage of a rarely taken step
	// (raiseWeight's, (nnlsMax + spanRows) n floats) for the step to
	// allocate when it first runs.
	OneShot bool
}

// check returns an *InputError, naming the field, for options no solve
// can take: a Mu that is negative, infinite or NaN, and tolerances that
// are NaN or infinite (0 and negative ones mean the defaults).
func (o *Options) check() error {
	if o == nil {
		return nil
	}
	if o.Mu < 0 || math.IsNaN(o.Mu) || math.IsInf(o.Mu, 0) {
		return &InputError{Field: "Options.Mu", Index: -1, Msg: fmt.Sprintf("%g, want a finite bound >= 0 on the smallest eigenvalue of H (0: none)", o.Mu)}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Options.PrimalTol", o.PrimalTol}, {"Options.DualTol", o.DualTol}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return &InputError{Field: f.name, Index: -1, Msg: fmt.Sprintf("%g, want a finite tolerance (0: the default)", f.v)}
		}
	}
	return nil
}

func (o *Options) resolved() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxSteps < 0 {
		r.MaxSteps = 0
	}
	if r.TimeLimit < 0 {
		r.TimeLimit = 0
	}
	if r.PrimalTol <= 0 {
		r.PrimalTol = 1e-12
	}
	if r.DualTol <= 0 {
		r.DualTol = 1e-12
	}
	return r
}
