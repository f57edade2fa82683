package solver

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/mat"
)

// Loss names the per-example loss f_i of the finite sum.
type Loss int

const (
	LossNone     Loss = iota // no finite-sum term
	LossSquared              // f_i(x) = 1/2 (phi_i^T x - y_i)^2
	LossLogistic             // f_i(x) = log(1 + exp(-y_i phi_i^T x)), y_i in {-1, +1}
)

// Problem is the validated, internal form of
//
//	minimize  (1/l) sum_i f_i(x) + 1/2 x^T P x + q^T x + ridge/2 ||x||^2 + l1 ||x||_1 + offset
//	subject to A x <= b, Aeq x = beq, lower <= x <= upper.
//
// Every field but N and Loss may be empty. The caller's matrices are never
// modified.
//
// The problem must be valid as softpen.Problem.Validate defines it (softpen
// checks all of it before New, except the entries of A, which New checks
// as it reads the rows: see below): N >= 1; a known Loss, with at least
// one row of Phi (l x N; or PhiRows, not both) and len(Y) = l when it is
// not LossNone, and labels
// in {-1, +1} for LossLogistic; P N x N and symmetric; Q, Lower and Upper
// nil or of length N; every entry finite except Lower = -Inf and
// Upper = +Inf; Lower <= Upper; Ridge, L1 >= 0; at most one of A and
// ARows, with N columns, and len(B) = m; Aeq with N columns and
// len(Beq) = meq. New checks only what needs the solver's own work (and
// reads every row of A anyway): that F is strongly convex, and that every
// row of A and Aeq has a finite norm (so finite entries) whose reciprocal,
// and the row's right-hand side over it, are finite. The solver is
// also used directly (internal/repro, baseline, benchmarks) on generated
// data that is valid by construction. The solver copies what it keeps,
// except the rows of A and Aeq: the active-set engine (the direct path, the
// penalty method's exact finish, the Newton steps of a logistic loss) and
// the working set read them in place during every Solve, so they must not
// change while the Solver is in use (softpen.NewSolver hands it a copy).
type Problem struct {
	N            int
	Loss         Loss
	Phi          *mat.Dense  // l x N, nil when Loss == LossNone
	PhiRows      [][]float64 // instead of Phi: its rows, each of length N (the direct path then copies no Phi)
	PhiSparse    *mat.Sparse // instead of both: compressed rows, read in place (sparse.go; no A, Aeq or P then)
	Y            []float64   // length l
	Ridge        float64     // >= 0
	L1           float64     // >= 0
	Lower, Upper []float64   // nil, or length N; -Inf / +Inf mean no bound
	P            *mat.Dense  // N x N symmetric PSD, or nil
	// OwnP says that P is the solver's to keep (a copy made for it): New
	// then keeps it instead of copying it again.
	OwnP bool
	// PRounding bounds the 2-norm of P less the exact symmetric part of
	// the caller's matrix, when P is that part rounded (0: P is exact).
	// The certificates allow for it (modelRounding).
	PRounding float64
	// SameP says that P is, bit for bit, the P of the problem a Load
	// replaces: with the same ridge and no loss the model's factor and
	// certified mu stand (keptModel).
	SameP   bool
	Q       []float64 // length N, or nil
	Offset  float64
	A       *mat.Dense  // m x N, or nil
	ARows   [][]float64 // instead of A: its rows, each of length N (saves a copy of a large A)
	ASparse *mat.Sparse // instead of A and ARows: compressed rows, read in place (with PhiSparse: sparse.go; without: sparserows.go, ridge, q and these rows only, b < 0)
	B       []float64   // length m
	Aeq     *mat.Dense  // meq x N, or nil
	Beq     []float64   // length meq
}

// Method is the inner method M of the nested scheme.
type Method int

const (
	MethodAuto     Method = iota // chosen by the problem (useDirect, useNewton; defaultMethod otherwise)
	MethodSGD                    // plain stochastic gradient (Nested-SGD)
	MethodSGDM                   // SGD with Nesterov momentum (Nested-SGDM)
	MethodSVRG                   // proximal SVRG (Nested-SVRG)
	MethodCatalyst               // catalyst-accelerated proximal SVRG
	MethodAPG                    // accelerated proximal full gradient (Prop. 3.4)
	// MethodActiveSet is not a penalty method: the exact dual active-set
	// method of package activeset solves the problem directly (quadratic
	// objectives only; see direct.go).
	MethodActiveSet
	// MethodNewton is Newton (SQP) steps whose QPs the active-set method
	// solves, for the logistic loss with n <= maxDenseHessian (newton.go);
	// the penalty method (APG) goes on from their point if they stop short.
	MethodNewton
	// MethodNewtonCG is projected Newton with conjugate gradients on
	// Hessian products (package newtoncg), the path of sparse rows.
	MethodNewtonCG
	// MethodDualCD is coordinate descent on the dual of a ridge objective
	// with sparse rows A x <= b, b < 0 (package dualcd), the path of the
	// hard-margin SVM on sparse data.
	MethodDualCD
)

var methodNames = [...]string{"auto", "sgd", "sgdm", "svrg", "catalyst-svrg", "apg", "activeset", "newton", "newton-cg", "dual-cd"}

func (m Method) String() string {
	if m < 0 || int(m) >= len(methodNames) {
		return fmt.Sprintf("Method(%d)", int(m))
	}
	return methodNames[m]
}

// ParseMethod maps a name as printed by String back to a Method.
func ParseMethod(s string) (Method, error) {
	for i, n := range methodNames {
		if n == s {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("unknown method %q (want one of auto, activeset, newton, newton-cg, dual-cd, apg, svrg, catalyst-svrg, sgd, sgdm)", s)
}

// ScreenRule selects how inactive constraints are screened out.
type ScreenRule int

// The default (the zero value) is the gap-safe rule: on the large QP and
// on mushrooms it removes most rows early and shortens the penalty method
// many times over, while the paper's rule, whose threshold
// 2 sqrt(m) delta log(m xi/(mu delta)) is conservative at these sizes,
// drops nothing (BenchmarkMushroomsSVM's ws+screen variants). Every dropped
// row is checked at the answer, and all rows come back if one is violated.
const (
	ScreenGapSafe ScreenRule = iota // drop j when a_j^T x - b_j < -sqrt(2 gap / mu) (default)
	ScreenNone                      // keep every constraint
	ScreenPaper                     // Algorithm 2 of the paper
	// ScreenPaperExperiment is the rule of the paper's own SVM experiment,
	// Algorithm 2's threshold without its log factor. It is NOT safe (it
	// may drop rows active at x*; the answer is still checked against every
	// dropped row, which comes back if violated). For reproducing the paper.
	ScreenPaperExperiment
)

var screenNames = [...]string{"gap-safe", "none", "paper", "paper-experiment"}

func (r ScreenRule) String() string {
	if r < 0 || int(r) >= len(screenNames) {
		return fmt.Sprintf("ScreenRule(%d)", int(r))
	}
	return screenNames[r]
}

// Schedule selects the stage parameters (delta_0, eta, inner accuracy).
type Schedule int

const (
	SchedulePractical Schedule = iota // the defaults of defaults.go
	ScheduleTheory                    // Lemma 3.2 / Prop. 3.3 exactly
)

// Options configure a solve. The zero value (or a nil *Options) means the
// documented defaults; a zero limit means no limit.
type Options struct {
	Method   Method
	Tol      float64 // certified gap tolerance relative to max(1, |F|); 0 means 1e-6
	MaxSteps int64   // incremental step budget; 0 means none
	// TimeLimit is the wall time each Solve may take, counted from its
	// start (from the call's start in the root package's one-shot Solve,
	// set-up included); New's solves of the direct path's row samples
	// stop at it too. 0 means none.
	TimeLimit time.Duration
	// OneShot says the Solver will be solved once (the root package's
	// Solve): its engines then keep nothing only re-solves use
	// (activeset.Options.OneShot).
	OneShot bool
	Seed    uint64 // seed of the solver's own generator
	// Threads is the goroutines of newton-cg's passes and of dual-cd's
	// finisher and Farkas search (threads); 0 means GOMAXPROCS.
	Threads int
	// Xi is the initial penalty parameter; 0 means 1 (the paper's choice).
	// Unless FixedXi, the solve raises it when the multipliers saturate
	// (xi < ||lambda*||_inf) and lowers it towards 4 max_j lambda_j when
	// they stay far below it (see xiLowerGap in defaults.go).
	Xi       float64
	FixedXi  bool    // keep xi as given: never raise or lower it
	Eta      float64 // delta_{t+1} = delta_t / Eta; 0 means the schedule's default
	Delta0   float64 // first delta; 0 means the schedule's default
	Static   bool    // one fixed delta = Delta0 (Cor. 3.5) instead of the nested schedule
	Schedule Schedule
	Screen   ScreenRule
	// StageMult, if > 0, ends a stage of SGD, SGDM or SVRG after
	// StageMult * log(2 eta - 1)(L/mu + m xi/(4 mu delta)) steps at most,
	// the paper's theoretical inner iteration count scaled as its
	// experiments do (0.3 for Nested-SGD and 0.5 for Nested-SVRG on the
	// SVM). 0 means no such count: an SGD or SGDM stage then ends after
	// 4 mixing times 1/(alpha mu) of its step (sgdStageMixings), an SVRG
	// stage on the gradient-mapping target only.
	StageMult float64
	// LastIterate makes SGD and SGDM answer each stage with its last
	// iterate, as the paper's methods do, instead of the average of the
	// iterates of the second half of the stage (the default: at the same
	// budget about 10x closer to x* on the paper QP; see runSGD).
	LastIterate bool
	// Momentum is SGDM's beta in v <- beta v - alpha grad(x + beta v),
	// in [0, 1); 0 means 0.9 (the paper's choice on its QP). With
	// StageMult > 0 an SGDM stage ends after the paper's accelerated count
	// StageMult * (2 log(2 eta - 1) + log K) sqrt(m K),
	// K = L/mu + m xi/(4 mu delta), instead of the SGD count.
	Momentum float64
	// StepScale, if > 0, sets the step of SGD, SGDM and SVRG (and of the
	// SVRG epochs inside catalyst) to StepScale/(Lc + mu), Lc the
	// component smoothness the method samples with (the largest for SGD
	// and SGDM, the mean for SVRG): the paper's step 1/(L + mu + m xi/(4 delta))
	// scaled as its SVM runs do (4 for SGD and SVRG, 2 for SGDM). 0 means
	// 1/(Lc + mu) for SGD, (1 - Momentum)/(Lc + mu) for SGDM (the same
	// effective step; the paper's full step diverges on its QP once xi is
	// lowered) and 1/(3 Lc) for SVRG.
	StepScale float64
	// SVRGEpoch is the number of stochastic steps between SVRG's full
	// gradients as a multiple of the number of components N (loss rows
	// plus kept constraints); 0 means 2. The paper's SVM runs use 5.
	SVRGEpoch float64
	NoPolish  bool // no exact finish: the penalty method's stages alone answer (handover.go)
	NoProbe   bool // no loose first stage before the first handover (see Solve); for measurements and tests
	AllRows   bool // no working set: every row is in the problem from the start (see Solve)
	// Progress, if set, is called after each stage of a penalty method,
	// after each Newton step, and once at the end of a direct active-set
	// solve.
	Progress func(Stage)
	// Observe, if set, is called from the inner methods with the current
	// iterate about every ObserveEvery incremental steps (once the step
	// count has passed the next multiple; steps is the count at the call).
	// For SGD and SGDM that is the stage's running average once it has
	// begun (see LastIterate). The direct path and Newton steps call it
	// with their answer, once.
	// It must not retain x. With Observe nil the inner loops do no extra work.
	Observe      func(steps int64, x []float64)
	ObserveEvery int64 // 0 means 1000
}

// Stage is what the progress callback sees after each outer iteration.
type Stage struct {
	Method    Method // the method that ran the stage (MethodActiveSet, MethodNewton or a penalty method)
	Index     int
	Delta, Xi float64
	Steps     int64   // cumulative incremental steps
	Gap       float64 // certified duality gap at the stage's end
	Violation float64 // max_j (a_j^T x - b_j)_+ on the normalised rows
	Kept      int     // constraints still in the problem
}

// Status says how a solve ended.
type Status int

const (
	StatusSolved     Status = iota // certified gap <= Tol
	StatusMaxSteps                 // step budget exhausted
	StatusTimeLimit                // time limit reached
	StatusInfeasible               // constraints cannot all hold; Result.Farkas proves it
	StatusCanceled                 // the context was canceled
	// StatusPrecisionLimit: the solve reached the best answer float64 can
	// certify for this problem, and its certified gap is still above Tol
	// (a Tol below the rounding of the objective, or an exact method that
	// cycled on a degenerate vertex). Result.Message says which; the
	// answer is the best certified one.
	StatusPrecisionLimit
)

// String is the status's name, the active-set engine's for the same value:
// the two share their statuses, in the same order.
func (s Status) String() string { return activeset.Status(s).String() }

// Result of a solve. Slices are owned by the Solver that returned it and are
// overwritten by its next Solve; copy them to keep them.
type Result struct {
	Status Status
	X      []float64 // length N
	Lambda []float64 // multipliers of the caller's rows of A, >= 0
	Nu     []float64 // multipliers of the rows of Aeq
	// Z holds the bounds' multipliers: Z_i > 0 when x_i is at its upper
	// bound, Z_i < 0 at its lower, 0 otherwise, so that grad f(x) +
	// A'Lambda + Aeq'Nu + Z (+ an l1 subgradient) = 0 at the answer. From
	// the active-set method they are its own; for a penalty method's point
	// they are what that stationarity leaves on the active bounds.
	Z         []float64
	Objective float64 // F(x)
	Gap       float64 // certified duality gap (+Inf when none)
	// DistBound is the certified bound sqrt(2 Gap/mu) on ||x - x*||, +Inf
	// unless X satisfies every row to within rounding (an infeasible X
	// bounds nothing about x*: DESIGN.md, "Certified duality gap"), and
	// +Inf when the active-set method set aside a constraint implied by
	// the others to rounding only (activeset.Result.NearlyImplied).
	DistBound    float64
	MaxViolation float64 // max_j (a_j^T x - b_j)_+ on the caller's rows (and |Aeq x - beq|)
	Steps        int64   // incremental steps (component gradient evaluations)
	Stages       int
	Kept         int // constraints still in the problem at the end
	// Screened lists the caller's rows of A proven inactive at x*:
	// a_j^T x - b_j < -DistBound ||a_j|| at the answer, so x* satisfies
	// them strictly and removing them leaves x* unchanged. Ascending; empty
	// without a finite DistBound, with ScreenNone, and on the direct path.
	Screened []int
	// Outside lists the caller's rows of A outside the final working set
	// that are not proven inactive: never admitted to the working set, or
	// dropped by a stage's screening rule. A solved answer satisfies each
	// (they are re-checked at the answer) but may hold some with equality,
	// with multiplier 0. Ascending; empty on the direct path, which
	// considers every row.
	Outside []int
	// Farkas (status infeasible) is y on the caller's rows, A's then Aeq's,
	// largest entry 1: y >= 0 on A's rows and b^T y < min over the box of
	// (A^T y)^T x, so no x in the box satisfies every row. Without a box
	// (or where a bound is infinite) A^T y = 0 to within 1e-9 sum_j y_j ||a_j||
	// (1e-6 relative, and bounds ignored, when N > 512: see feasibility.go).
	Farkas   []float64
	Xi       float64 // final penalty parameter
	Polished bool    // the reported point comes from the active-set engine's exact finish of the penalty method
	// Iterations counts the working-set changes of the active-set engine:
	// on the direct path (Steps and Stages then 0), in the penalty method's
	// exact finish, and over the Newton steps of a logistic loss.
	Iterations int
	// Message says why a solve ended with StatusPrecisionLimit, or with
	// StatusMaxSteps at an iteration limit of its own (SVRG on sparse rows
	// on a plateau); empty otherwise.
	Message string
	// Time is the solve's wall time (from the call's start in the root
	// package's one-shot Solve, set-up included).
	Time   time.Duration
	Method string
	Impl   string
}

func (o *Options) check() error {
	switch {
	case o.Method < MethodAuto || o.Method > MethodDualCD:
		return fmt.Errorf("options: unknown method %d", int(o.Method))
	case o.Tol < 0 || math.IsNaN(o.Tol):
		return fmt.Errorf("options: tol = %g, want >= 0", o.Tol)
	case o.MaxSteps < 0:
		return fmt.Errorf("options: max steps = %d, want >= 0", o.MaxSteps)
	case o.TimeLimit < 0:
		return fmt.Errorf("options: time limit = %v, want >= 0", o.TimeLimit)
	case o.Threads < 0:
		return fmt.Errorf("options: threads = %d, want >= 0 (0: GOMAXPROCS)", o.Threads)
	case o.Xi < 0 || math.IsNaN(o.Xi) || math.IsInf(o.Xi, 0):
		return fmt.Errorf("options: xi = %g, want > 0", o.Xi)
	case o.StageMult < 0 || math.IsNaN(o.StageMult) || math.IsInf(o.StageMult, 0):
		return fmt.Errorf("options: stage multiplier = %g, want >= 0 and finite", o.StageMult)
	case !(o.Momentum >= 0 && o.Momentum < 1):
		return fmt.Errorf("options: momentum = %g, want in [0, 1)", o.Momentum)
	case !(o.StepScale >= 0) || math.IsInf(o.StepScale, 0):
		return fmt.Errorf("options: step scale = %g, want >= 0 and finite", o.StepScale)
	case !(o.SVRGEpoch >= 0) || math.IsInf(o.SVRGEpoch, 0):
		return fmt.Errorf("options: SVRG epoch = %g, want >= 0 and finite", o.SVRGEpoch)
	case o.Eta != 0 && !(o.Eta > 1) || math.IsInf(o.Eta, 0):
		return fmt.Errorf("options: eta = %g, want > 1", o.Eta)
	case o.Delta0 < 0 || math.IsNaN(o.Delta0) || math.IsInf(o.Delta0, 0):
		return fmt.Errorf("options: delta0 = %g, want > 0", o.Delta0)
	case o.Static && o.Delta0 == 0:
		return errors.New("options: static needs delta0 > 0")
	case o.Screen < ScreenGapSafe || o.Screen > ScreenPaperExperiment:
		return fmt.Errorf("options: unknown screening rule %d", int(o.Screen))
	}
	return nil
}

// rows returns the numbers of rows of A (or ARows) and Aeq.
func (p *Problem) rows() (m, meq int) {
	m = len(p.ARows)
	if p.A != nil {
		m = p.A.Rows
	}
	if p.ASparse != nil {
		m = p.ASparse.Rows
	}
	if p.Aeq != nil {
		meq = p.Aeq.Rows
	}
	return m, meq
}
