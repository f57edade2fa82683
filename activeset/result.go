package activeset

import "fmt"

// Status says how a solve ended.
type Status int

const (
	// StatusSolved: the KKT conditions hold to the tolerances and X is
	// Feasible (every row and equality satisfied to rounding); the
	// certificate (Gap, MaxViolation) says how well.
	StatusSolved Status = iota
	// StatusMaxSteps: Options.MaxSteps working-set changes were made; the
	// certificate says how good the point is.
	StatusMaxSteps
	// StatusTimeLimit: Options.TimeLimit or the context's deadline passed;
	// the certificate says how good the point is.
	StatusTimeLimit
	// StatusInfeasible: no x satisfies the constraints; Result.FarkasA and
	// FarkasEq prove it.
	StatusInfeasible
	// StatusCanceled: the context was canceled; the certificate says how
	// good the point is.
	StatusCanceled
	// StatusPrecisionLimit: undecided in float64. Without
	// Options.MaxSteps, the safety bound on the working-set changes was
	// reached (cycling on a degenerate vertex); or multipliers grew past
	// what float64 follows, or a Farkas direction failed its check in the
	// caller's data, or the point the loop settled at violates a row or
	// equality beyond rounding (one that depends on the others to
	// rounding, and that they may or may not imply). The certificate says
	// how good the point is.
	StatusPrecisionLimit
)

var statusNames = [...]string{"solved", "max_steps", "time_limit", "infeasible", "canceled", "precision_limit"}

// String returns the status's name, as the root package softpen names its
// statuses.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// Result of a solve. Its slices belong to the Solver and are overwritten by
// the next Solve.
type Result struct {
	Status Status
	X      []float64 // length N
	Lambda []float64 // multipliers of the rows of A, >= 0
	Nu     []float64 // multipliers of the rows of Aeq
	// Z holds the bound multipliers: Z_i > 0 when the upper bound of x_i
	// is active, Z_i < 0 for the lower bound (H x + c + A'Lambda +
	// Aeq'Nu + Z = 0 at the optimum).
	Z []float64
	// W holds the l1 subgradient: |W_i| <= L1, W_i = L1 sign(x_i) where
	// x_i != 0 (nil without l1). With it, H x + c + A'Lambda + Aeq'Nu + Z +
	// W = 0 at the optimum.
	W         []float64
	Objective float64 // 1/2 x'Hx + c'x + L1 ||x||_1
	// Dual is the dual function g(Lambda, Nu, Z) = min_x of the Lagrangian,
	// a lower bound on the optimal value for every Lambda >= 0 and every
	// Z of the right signs; Gap = Objective - Dual.
	Dual, Gap float64
	// DualError and DualResidualError bound the rounding of Dual that
	// its sums carry, for a caller's certificate (Gap here leaves it out):
	// Dual = -1/2 q'H^{-1}q - lambda'rhs with q = c plus each working
	// constraint's multiplier times its unit normal, and with large
	// multipliers q is far smaller than its terms (multipliers 2e14 on rows
	// of norm 5: q ~ 1e7 from terms ~1e15), so their rounding moves Dual by
	// far more than Dual's own. The bound is DualError + DualResidualError
	// ||H^{-1}||_2 (1/mu for mu-strongly convex H); the second part is the
	// stationarity residual's, small at an answer.
	DualError, DualResidualError float64
	// MaxViolation is the largest constraint violation of X on the caller's
	// scale: max_j (a_j'x - b_j)_+, |Aeq x - Beq| and the bounds.
	MaxViolation float64
	// SumViolation is sum_j (a_j'x - b_j)_+ + sum_i |aeq_i'x - beq_i|, the
	// violation an exact penalty F(x) + xi SumViolation charges (X lies in
	// the box exactly).
	SumViolation float64
	// Feasible reports that X satisfies every row and equality to within
	// rounding (WithinRounding, on each row scaled to unit norm; X lies in
	// the box exactly). Only then does a small Gap bound the distance to
	// the solution (||x - x*||^2 <= 2 Gap / mu for mu-strongly convex H);
	// an infeasible point bounds nothing.
	Feasible bool
	// Complementarity is max_k |multiplier_k * slack_k| over every
	// constraint, Stationarity is ||Hx + c + A'Lambda + Aeq'Nu + Z||_inf.
	Complementarity, Stationarity float64
	Steps                         int // working-set changes
	Active                        int // constraints in the final working set
	// FarkasA and FarkasEq (StatusInfeasible) are y >= 0 on the rows of A
	// and y on Aeq, largest entry 1, with b'y + beq'yeq < min over the box
	// of (A'y + Aeq'yeq)'x: no x in the box satisfies every row.
	FarkasA, FarkasEq []float64
}
