package softpen

import (
	"fmt"
	"time"

	"github.com/softpen/softpen/internal/solver"
)

// Status says how a solve ended.
type Status int

const (
	// StatusSolved: the certified duality gap is at most Options.Tol
	// (relative to max(1, |F(x)|)) at a point x that satisfies every row,
	// equality and bound to within rounding of its own data.
	StatusSolved    Status = iota
	StatusMaxSteps         // Options.MaxSteps reached; the answer is the best certified point so far
	StatusTimeLimit        // Options.TimeLimit or the context's deadline passed; likewise
	// StatusInfeasible: no x satisfies the constraints, and
	// Solution.FarkasA and FarkasEq prove it.
	StatusInfeasible
	StatusCanceled // the context was canceled; the answer is the best certified point so far
	// StatusPrecisionLimit: the solve reached the best answer float64 can
	// certify for this problem, and its certified gap is still above Tol;
	// Info.Message says why.
	StatusPrecisionLimit
)

// String is the status's name in the result file: "solved", "max_steps",
// "time_limit", "infeasible", "canceled" or "precision_limit".
func (s Status) String() string { return solver.Status(s).String() }

// Result is the answer of a solve: the solution and how it was found.
// A Result returned by a Solver, and its slices, belong to the Solver and
// are overwritten by its next Solve; copy what you keep.
type Result struct {
	Solution
	Info
}

// Solution is the point and the multipliers of a solve. With
// F(x) = f(x) + l1 ||x||_1, f the smooth part, the multipliers satisfy
// grad f(x) + A'Lambda + Aeq'Nu + LambdaBox + w = 0 for an l1 subgradient
// w at an exact answer, and the certified gap of Info bounds how far they
// are from it otherwise.
type Solution struct {
	X      []float64 // length n
	Lambda []float64 // multipliers of the rows of A, >= 0, length m
	Nu     []float64 // multipliers of the rows of Aeq, length meq
	// LambdaBox holds the multipliers of the bounds, length n: > 0 where
	// x_i is at its upper bound, < 0 at its lower bound, 0 elsewhere
	// (all 0 without bounds).
	LambdaBox []float64
	// FarkasA and FarkasEq are set when the status is StatusInfeasible
	// (nil otherwise): y >= 0 on the rows of A and any sign on Aeq's,
	// largest entry 1, with b'y + beq'yeq < min over the box of
	// (A'y + Aeq'yeq)'x, so that no x in the box satisfies every row. Each
	// certificate is checked in the caller's data before it is reported;
	// the exact engine's, where A'y + Aeq'yeq vanishes only to rounding,
	// in rational arithmetic on supports of up to 8 rows (an approximate
	// one rules out only the points within a radius).
	FarkasA, FarkasEq []float64
}

// Info says how a solve ended and what certifies its answer.
type Info struct {
	Status Status
	// Message says in one line why a solve did not end StatusSolved
	// (empty when it did).
	Message string
	Method  Method // the method that produced the answer (never MethodAuto)
	Impl    string // the kernel path: "avx512", "avx2", "neon" or "generic" (vec.Impl)
	// Objective is F(x), the caller's objective at the answer.
	Objective float64
	// Gap is the certified duality gap: F(x) - F* <= Gap when x is
	// feasible (and the gap of an exact penalty of the violations
	// otherwise). +Inf when there is none.
	Gap float64
	// DistBound bounds ||x - x*|| by sqrt(2 Gap / mu), mu the objective's
	// certified strong convexity; +Inf unless x satisfies every row to
	// within rounding, and +Inf when an equality or a row within rounding
	// of active depends on the others to rounding but not exactly (x*
	// then lies where it cuts them, at a distance rounding decides).
	// Its known limit: where such rows meet at a small angle float64
	// still resolves, x* can lie further than this by the rounding of
	// the rows divided by that angle (DESIGN.md, "Mathematics").
	DistBound float64
	// MaxViolation is the largest violation of a row, equality or bound
	// by x on the caller's scale.
	MaxViolation float64
	// Steps counts what Options.MaxSteps bounds: component gradients of a
	// penalty method or Newton, working-set changes of the active-set
	// method.
	Steps int64
	// Iterations counts the active-set method's working-set changes:
	// those of MethodActiveSet (equal to Steps), of the QPs of Newton
	// steps, and of a penalty method's exact finish.
	Iterations int
	// Time is the solve's wall time (for the one-shot Solve function
	// counted from the call's start, set-up included).
	Time time.Duration
	// Penalty reports the penalty method's stages; nil when no stage ran
	// (the active-set method, and Newton steps that finished).
	Penalty *PenaltyInfo
}

// PenaltyInfo is what the nested penalty method reports of its stages.
type PenaltyInfo struct {
	Stages int     // stages (outer iterations) run
	Xi     float64 // the penalty parameter of the answer's certificate
	// Kept is the number of rows in the problem at the end: those neither
	// screened nor outside the working set.
	Kept int
	// Screened lists the rows of A proven inactive at x*: a_j'x - b_j <
	// -DistBound ||a_j|| at the answer. Ascending.
	Screened []int
	// Outside lists the rows of A outside the final working set that are
	// not proven inactive. A solved answer satisfies each (they are checked
	// at the answer) but may hold some with equality, with multiplier 0.
	// Ascending.
	Outside []int
	// Polished reports that the answer comes from the exact finish (the
	// active-set method hot-started from the stages' working set).
	Polished bool
}

// fill points r at the solver's result sr (no copy: the slices are sr's)
// and pen at its stages' report, for a problem with m rows of A and, if
// box, bounds. It allocates nothing.
func (r *Result) fill(sr *solver.Result, pen *PenaltyInfo, m int, box bool) {
	r.Solution = Solution{X: sr.X, Lambda: sr.Lambda, Nu: sr.Nu}
	if box {
		r.LambdaBox = sr.Z
	}
	if sr.Status == solver.StatusInfeasible {
		r.FarkasA, r.FarkasEq = sr.Farkas[:m], sr.Farkas[m:]
	}
	r.Info = Info{Status: Status(sr.Status), Message: sr.Message, Impl: sr.Impl,
		Objective: sr.Objective, Gap: sr.Gap, DistBound: sr.DistBound, MaxViolation: sr.MaxViolation,
		Steps: sr.Steps, Iterations: sr.Iterations, Time: sr.Time}
	switch sr.Method {
	case "activeset":
		r.Method = MethodActiveSet
		r.Steps = int64(sr.Iterations)
	case "newton":
		r.Method = MethodNewton
	default:
		m, _ := ParseMethod(sr.Method)
		r.Method = m
	}
	if sr.Stages > 0 {
		*pen = PenaltyInfo{Stages: sr.Stages, Xi: sr.Xi, Kept: sr.Kept, Screened: sr.Screened,
			Outside: sr.Outside, Polished: sr.Polished}
		r.Penalty = pen
	}
	if r.Status != StatusSolved && r.Message == "" {
		r.Message = statusMessage[r.Status]
	}
}

// statusMessage is Info.Message for the statuses whose cause the status
// itself names.
var statusMessage = map[Status]string{
	StatusMaxSteps:       "the step budget (Options.MaxSteps) ran out before the certified gap met the tolerance; the answer is the best certified point so far",
	StatusTimeLimit:      "the time limit (Options.TimeLimit, or the context's deadline) passed before the certified gap met the tolerance; the answer is the best certified point so far",
	StatusInfeasible:     "no point satisfies every row, equality and bound: FarkasA and FarkasEq prove it",
	StatusCanceled:       "the context was canceled; the answer is the best certified point so far",
	StatusPrecisionLimit: "the certified gap cannot reach the tolerance in float64",
}

// String is a one-line summary: status, objective, gap, method and time.
func (r *Result) String() string {
	return fmt.Sprintf("%v: objective %.12g, gap %.3g, max violation %.3g, %v in %v", r.Status, r.Objective, r.Gap,
		r.MaxViolation, r.Method, r.Time)
}
