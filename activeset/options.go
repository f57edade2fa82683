package activeset

// Options tune a solve; the zero value (or nil) means the defaults below.
type Options struct {
	// MaxIter bounds the number of working-set changes of one solve; 0 means
	// 50 (n + m + meq) + 100. Every change either raises the dual objective
	// or removes a constraint whose multiplier reached zero, so a solve that
	// has not ended by then is cycling on a degenerate vertex.
	MaxIter int
	// PrimalTol is the largest violation a_j'x - b_j, measured on the row
	// scaled to unit norm, that does not admit row j into the working set,
	// relative to 1 + ||x||_inf; 0 means 1e-12 (a few hundred ulp of the
	// residual of a row of unit norm at |x| ~ 1).
	PrimalTol float64
	// DualTol is how negative a multiplier of the working set's system may
	// be, relative to 1 + the largest multiplier, before its constraint
	// leaves the set; 0 means 1e-12. Multipliers in [-DualTol, 0) are
	// reported as 0.
	DualTol float64
}

func (o *Options) resolved(n, rows int) Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxIter <= 0 {
		r.MaxIter = 50*(n+rows) + 100
	}
	if r.PrimalTol <= 0 {
		r.PrimalTol = 1e-12
	}
	if r.DualTol <= 0 {
		r.DualTol = 1e-12
	}
	return r
}
