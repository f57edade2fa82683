package activeset

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
)

// Problem is a strongly convex QP with an optional l1 term
//
//	minimize 1/2 x'Hx + c'x + L1 ||x||_1  subject to  A x <= B, Aeq x = Beq, Lower <= x <= Upper.
//
// H must be symmetric positive definite (only its lower triangle is read).
// A and Aeq may be nil; Lower and Upper may be nil or have length N, with
// -Inf / +Inf for a missing bound. New copies what it keeps except the rows
// of A (or ARows) and Aeq, which every Solve reads in place (a copy would
// cost as much as a solve when the rows are many), and, when Factor is set,
// H and Factor (H's Cholesky factor, which the caller already has): those
// must not change while the Solver is in use.
type Problem struct {
	N            int
	H            *mat.Dense
	C            []float64
	A            *mat.Dense
	ARows        [][]float64 // instead of A: its rows, each of length N
	B            []float64
	Aeq          *mat.Dense
	Beq          []float64
	Lower, Upper []float64
	L1           float64       // >= 0
	Factor       *mat.Cholesky // H = L L', or nil (New factors H)
}

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

// Status says how a solve ended.
type Status int

const (
	StatusOptimal    Status = iota // KKT conditions hold to the tolerances
	StatusInfeasible               // no x satisfies the constraints; Result.FarkasA/FarkasEq prove it
	StatusIterLimit                // Options.MaxIter reached (cycling), or a Farkas direction failed its check in the caller's data (infeasibility undecided in float64); the certificate says how good the point is
	StatusTimeLimit                // the deadline (SetDeadline) passed; the certificate says how good the point is
)

func (s Status) String() string {
	switch s {
	case StatusOptimal:
		return "optimal"
	case StatusInfeasible:
		return "infeasible"
	case StatusIterLimit:
		return "iter_limit"
	case StatusTimeLimit:
		return "time_limit"
	}
	return fmt.Sprintf("Status(%d)", int(s))
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
	Iter                          int // working-set changes
	Active                        int // constraints in the final working set
	// FarkasA and FarkasEq (StatusInfeasible) are y >= 0 on the rows of A
	// and y on Aeq, largest entry 1, with b'y + beq'yeq < min over the box
	// of (A'y + Aeq'yeq)'x: no x in the box satisfies every row.
	FarkasA, FarkasEq []float64
}

// InputError names the field and index of a bad entry of a Problem.
type InputError struct {
	Field string
	Index int // -1 when the field as a whole is wrong
	Msg   string
}

func (e *InputError) Error() string {
	if e.Index < 0 {
		return "activeset: " + e.Field + ": " + e.Msg
	}
	return fmt.Sprintf("activeset: %s[%d]: %s", e.Field, e.Index, e.Msg)
}

func checkVec(field string, v []float64, n int, allowInf bool) error {
	if v == nil {
		return nil
	}
	if len(v) != n {
		return &InputError{field, -1, fmt.Sprintf("length %d, want %d", len(v), n)}
	}
	for i, x := range v {
		if math.IsNaN(x) || (!allowInf && math.IsInf(x, 0)) {
			return &InputError{field, i, fmt.Sprintf("%v is not a finite number", x)}
		}
	}
	return nil
}

func checkDense(field string, m *mat.Dense, cols int) error {
	if m == nil {
		return nil
	}
	if m.Cols != cols {
		return &InputError{field, -1, fmt.Sprintf("%d columns, want %d", m.Cols, cols)}
	}
	for i := 0; i < m.Rows; i++ {
		for j, x := range m.Row(i) {
			if x-x != 0 { // NaN or +-Inf
				return &InputError{field, i*cols + j, fmt.Sprintf("row %d column %d is %v", i, j, x)}
			}
		}
	}
	return nil
}

// check validates p and reports whether H is diagonal (isDiagonal), which
// it finds on the way: a diagonal H needs only its diagonal checked.
func (p *Problem) check() (diagH bool, err error) {
	n := p.N
	if n < 1 {
		return false, &InputError{"N", -1, fmt.Sprintf("%d variables, want at least 1", n)}
	}
	if p.H == nil || p.H.Rows != n {
		return false, &InputError{"H", -1, fmt.Sprintf("want an %d x %d matrix", n, n)}
	}
	diagH = p.H.Cols == n && isDiagonal(p.H)
	if diagH {
		for i := 0; i < n; i++ {
			if x := p.H.Row(i)[i]; x-x != 0 { // NaN or +-Inf
				return false, &InputError{"H", i*n + i, fmt.Sprintf("row %d column %d is %v", i, i, x)}
			}
		}
	} else if err := checkDense("H", p.H, n); err != nil {
		return false, err
	}
	if p.C == nil {
		return false, &InputError{"C", -1, "missing"}
	}
	if err := checkVec("C", p.C, n, false); err != nil {
		return false, err
	}
	if p.A != nil && p.A.Cols != n {
		return false, &InputError{"A", -1, fmt.Sprintf("%d columns, want %d", p.A.Cols, n)}
	}
	for i, r := range p.ARows {
		if p.A != nil {
			return false, &InputError{"ARows", -1, "set with A"}
		}
		if len(r) != n {
			return false, &InputError{"ARows", i, fmt.Sprintf("length %d, want %d", len(r), n)}
		}
	}
	if p.Aeq != nil && p.Aeq.Cols != n {
		return false, &InputError{"Aeq", -1, fmt.Sprintf("%d columns, want %d", p.Aeq.Cols, n)}
	}
	if err := checkVec("B", p.B, p.rowsA(), false); err != nil {
		return false, err
	}
	if p.B == nil && p.rowsA() > 0 {
		return false, &InputError{"B", -1, "missing"}
	}
	if err := checkVec("Beq", p.Beq, rows(p.Aeq), false); err != nil {
		return false, err
	}
	if p.Beq == nil && rows(p.Aeq) > 0 {
		return false, &InputError{"Beq", -1, "missing"}
	}
	if math.IsNaN(p.L1) || math.IsInf(p.L1, 0) || p.L1 < 0 {
		return false, &InputError{"L1", -1, fmt.Sprintf("%v, want a finite number >= 0", p.L1)}
	}
	if err := checkVec("Lower", p.Lower, n, true); err != nil {
		return false, err
	}
	if err := checkVec("Upper", p.Upper, n, true); err != nil {
		return false, err
	}
	for i := 0; i < n; i++ {
		lo, up := bound(p.Lower, i, math.Inf(-1)), bound(p.Upper, i, math.Inf(1))
		if lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1) {
			return false, &InputError{"Lower", i, fmt.Sprintf("lower %v above upper %v", lo, up)}
		}
	}
	return diagH, nil
}

// rowsA is the number of rows of A (or ARows).
func (p *Problem) rowsA() int {
	if p.A == nil {
		return len(p.ARows)
	}
	return p.A.Rows
}

func rows(m *mat.Dense) int {
	if m == nil {
		return 0
	}
	return m.Rows
}

func bound(v []float64, i int, def float64) float64 {
	if v == nil {
		return def
	}
	return v[i]
}
