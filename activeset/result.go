package activeset

import (
	"fmt"
	"math"
)

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
	// StatusPrecisionLimit: undecided in float64. The safety bound on
	// the working-set changes was reached before Options.MaxSteps, or
	// without it (cycling on a degenerate vertex); or multipliers grew past
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
	// Dual is the dual function g(Lambda, Nu, Z, W) = min_x of the
	// Lagrangian, a lower bound on the optimal value for every Lambda >= 0,
	// every Z of the right signs and |W| <= L1. Gap = Objective - Dual,
	// evaluated without their difference (Rounding): both are sums of
	// terms of the size of x'Hx, which cancel to far less when x is large
	// and H ill-conditioned. Dual is Objective - Gap.
	Dual, Gap float64
	// Rounding bounds Gap's rounding, for a caller's certificate
	// (PenaltyGap).
	Rounding GapRounding
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
	// NearlyImplied counts the equalities (and fixed variables) left out
	// of the working set, and the rows and bounds skipped during the
	// solve, as implied by the others to rounding but not exactly (or on
	// more members than can be decided exactly). X satisfies them to
	// rounding, but the solution is then set by data at their rounding:
	// it can lie anywhere along their near-null direction, and a small
	// Gap bounds no distance to it.
	NearlyImplied int
	// Complementarity is max_k |multiplier_k * slack_k| over every
	// constraint, Stationarity is ||Hx + c + A'Lambda + Aeq'Nu + Z||_inf.
	Complementarity, Stationarity float64
	Steps                         int // working-set changes
	Active                        int // constraints in the final working set
	// HoldCost, when positive, is what F would rise by if x held exactly
	// the members of the working set it meets only to the rounding of
	// ||x|| and not to that of their own terms (+Inf when no step float64
	// can trust holds them): more than the exact penalty's gap, it made
	// the solve StatusPrecisionLimit, as F(x) then bounds F* from above
	// by nothing (holdcost.go). 0 otherwise.
	HoldCost float64
	// FarkasA and FarkasEq (StatusInfeasible) are y >= 0 on the rows of A
	// and y on Aeq, largest entry 1, with b'y + beq'yeq < min over the box
	// of (A'y + Aeq'yeq)'x: no x in the box satisfies every row.
	FarkasA, FarkasEq []float64
	// weight is PenaltyWeight's value, set with the multipliers.
	weight float64
}

// PenaltyWeight is 2 max(max_j Lambda_j, max_i |Nu_i|, 0), NaN if one of
// them is NaN: the weight of the exact penalty that package solver
// certifies the answer with (PenaltyGap's xi). It is taken over the
// working set's members when the multipliers are written, every other
// entry of Lambda and Nu being 0: a pass over m rows less at every solve.
func (r *Result) PenaltyWeight() float64 { return r.weight }

// GapRounding is Gap in parts with bounds on their rounding. In exact
// arithmetic, with g = H x + c + A'Lambda + Aeq'Nu + Z + W (the
// Lagrangian's gradient at x), the Lagrangian's value at x less its
// minimum is 1/2 g'H^{-1}g, and
//
//	Gap = 1/2 g'H^{-1}g + sum_j (-Lambda_j r_j) + sum_i (-Nu_i req_i)
//	      + sum_i (-Z_i (x_i - bound_i)) + (L1 ||x||_1 - W'x),
//
// r = A x - B, req = Aeq x - Beq, bound_i the bound Z_i's sign names.
// Every term but the equalities' is >= 0 for a feasible x; each is small
// near the answer, so that their sum keeps its digits where the difference
// of Objective and Dual would not.
type GapRounding struct {
	// Half bounds 1/2 ||y||^2 in exact arithmetic for the computed y =
	// L^{-1} g (H = L L'); ||y||^2 = g'(H + E)^{-1} g exactly for some
	// symmetric E with ||E||_2 <= Solve.
	Half  float64
	YNorm float64 // ||y||_2, rounded up
	GNorm float64 // ||g||_2, g as computed, rounded up
	Grad  float64 // bound on ||g as computed - g||_2
	Solve float64 // bound on ||E||_2
	// Terms is Gap - Half as computed, TermsError the bound on its
	// rounding (the residuals' and the sum's).
	Terms, TermsError float64
	// Violation is SumViolation as the certificate takes it: where a
	// residual's rounding would weigh in the gap, from the residual summed
	// in twice the working precision. ViolationError bounds its rounding.
	Violation, ViolationError float64
}

// PenaltyGap returns a certified bound on F(x) + xi SumViolation - g(Lambda,
// Nu, Z, W) in exact arithmetic, given a lower bound mu > 0 on the
// smallest eigenvalue of H: the gap of the exact penalty F_xi = F + xi
// SumViolation. It bounds F_xi(x) - min F_xi, and min F_xi = F* once xi
// is at least the largest optimal multiplier. It is +Inf for mu <= 0 and
// when the certificate is not finite.
//
// With u = H^{-1}g and t = (H + E)^{-1} g: 1/2 g'u - 1/2 g't = 1/2 u'E t,
// and once ||E|| <= mu/2, ||t|| <= ||y|| sqrt(2/mu) =: T (t = L~^{-T} y
// with L~ L~' = H + E, whose eigenvalues are >= mu/2) and ||u|| <= 1.5 T,
// so 1/2 g'u <= Half + ||E|| T^2; otherwise 1/2 g'u <= ||g||^2 / (2 mu).
// The exact gradient's half, for an error d of g, is at most 1/2 g'u +
// ||d|| ||u|| + ||d||^2 / (2 mu).
func (r *Result) PenaltyGap(mu, xi float64) float64 {
	g := &r.Rounding
	if !(mu > 0) {
		return math.Inf(1)
	}
	var half, u float64
	if g.Solve <= mu/2 {
		t := g.YNorm * math.Sqrt(2/mu) * (1 + 0x1p-50)
		half, u = g.Half+g.Solve*t*t, 2*t
	} else {
		half, u = g.GNorm*g.GNorm/(2*mu), g.GNorm/mu
	}
	half = max(half, 0) + g.Grad*u + g.Grad*g.Grad/(2*mu)
	rest := g.Terms + g.TermsError + xi*(g.Violation+g.ViolationError)
	gap := half + rest
	// The five sums just taken.
	gap += 6 * 0x1p-53 * (half + math.Abs(g.Terms) + g.TermsError + xi*(g.Violation+g.ViolationError))
	if math.IsNaN(gap) {
		return math.Inf(1)
	}
	return max(gap, 0)
}
