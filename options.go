package softpen

import (
	"fmt"
	"time"

	"github.com/softpen/softpen/internal/solver"
)

// Method names the algorithm that solves a problem.
type Method int

const (
	// MethodAuto chooses by the problem alone, never by the other
	// options: MethodActiveSet for a quadratic objective (loss "none" or
	// "squared") with n <= 3000, MethodNewton for the logistic loss with
	// n <= 3000, and MethodAPG above that size, where no n x n matrix is
	// formed.
	MethodAuto Method = iota
	// MethodActiveSet solves a quadratic objective exactly by the dual
	// active-set method (the engine of package activeset), on many rows
	// started from its answer on a sample of them. Its answers are exact to
	// rounding and certified like every other.
	MethodActiveSet
	// MethodNewton takes Newton (SQP) steps on the logistic loss whose
	// quadratic subproblems the active-set method solves exactly; if they
	// stop short, the penalty method (MethodAPG) goes on from their point.
	MethodNewton
	// The penalty methods: the nested softplus-penalty method of the paper
	// with the named inner method. For a quadratic objective their working
	// set is handed to the active-set method for an exact finish (unless
	// PenaltyOptions.NoPolish).
	MethodAPG      // accelerated proximal full gradient (Prop. 3.4; on sparse rows: each gradient a pass over the nonzeros, which certifies its point)
	MethodSVRG     // proximal SVRG (on sparse rows: with lazy updates; rows of A by the penalty, drawn beside them)
	MethodCatalyst // catalyst-accelerated proximal SVRG (on sparse rows as MethodSVRG)
	MethodSGD      // stochastic gradient, iterates averaged per stage (on sparse rows: lazy updates as MethodSVRG, averaged once a pass)
	MethodSGDM     // stochastic gradient with Nesterov momentum (on sparse rows without L1 and bounds: lazy updates as MethodSGD, an untouched coordinate's value and momentum by powers of their linear map; with either, the rows are made dense for it, as the prox cuts that map)
	// MethodNewtonCG is projected Newton with conjugate gradients on
	// Hessian products over sparse rows, for the fitting model (a loss,
	// ridge > 0, q, l1 and bounds; no A, Aeq or P): what MethodAuto runs
	// for a Problem with PhiSparse. Asked for with dense Phi, it takes
	// the rows in compressed form.
	MethodNewtonCG
	// MethodDualCD is coordinate descent on the dual of a ridge objective
	// with sparse rows A x <= b, every b_i < 0 (Problem.ASparse; the
	// hard-margin SVM), certified at a scaled feasible point: what
	// MethodAuto runs for such a problem.
	MethodDualCD
)

// methodOf maps each Method to the solver's.
var methodOf = [...]solver.Method{
	MethodAuto: solver.MethodAuto, MethodActiveSet: solver.MethodActiveSet, MethodNewton: solver.MethodNewton,
	MethodAPG: solver.MethodAPG, MethodSVRG: solver.MethodSVRG, MethodCatalyst: solver.MethodCatalyst,
	MethodSGD: solver.MethodSGD, MethodSGDM: solver.MethodSGDM, MethodNewtonCG: solver.MethodNewtonCG,
	MethodDualCD: solver.MethodDualCD,
}

// String is the method's name as ParseMethod reads it and the result file
// writes it: "auto", "activeset", "newton", "apg", "svrg",
// "catalyst-svrg", "sgd" or "sgdm".
func (m Method) String() string {
	if m < 0 || int(m) >= len(methodOf) {
		return fmt.Sprintf("Method(%d)", int(m))
	}
	return methodOf[m].String()
}

// ParseMethod maps a method's name (Method.String) back to the Method.
func ParseMethod(name string) (Method, error) {
	for m := range methodOf {
		if Method(m).String() == name {
			return Method(m), nil
		}
	}
	return 0, fmt.Errorf("unknown method %q (want one of auto, activeset, newton, newton-cg, dual-cd, apg, svrg, catalyst-svrg, sgd, sgdm)", name)
}

// publicMethod maps the solver's method back to a Method.
func publicMethod(sm solver.Method) Method {
	for m, v := range methodOf {
		if v == sm {
			return Method(m)
		}
	}
	return MethodAuto
}

// Options are the choices and limits of a solve. A nil *Options, and the
// zero value of every field, mean the documented default. None of them
// changes which method MethodAuto chooses.
type Options struct {
	Method Method
	// Tol is the certified duality gap an answer must reach to be
	// StatusSolved, relative to max(1, |F(x)|); 0 means 1e-6. A Tol below
	// what float64 can certify for the problem ends with
	// StatusPrecisionLimit and the best certified answer.
	Tol float64
	// MaxSteps is a budget of the method's steps (Info.Steps): incremental
	// steps (component gradients) of a penalty method or Newton, working-set
	// changes of the active-set method; 0 means none. A solve that reaches
	// it ends with StatusMaxSteps.
	MaxSteps int64
	// TimeLimit bounds the wall time of each Solve call, counted from its
	// start; for the one-shot Solve function that includes the set-up
	// (validation, scaling, forming and factoring the quadratic model, the
	// active-set method's solves of row samples), and a limit that passes
	// there ends the call before the method reads every row, with the
	// sample's point and no certificate (the set-up's first reads of the
	// rows are not interrupted). 0 means none. A solve that reaches it
	// ends with StatusTimeLimit.
	TimeLimit time.Duration
	// MaxMemory is the memory, in bytes, Solve and NewSolver let a problem
	// take (Problem.MemoryEstimate) before refusing it with a
	// *MemoryError: 0 means DefaultMemoryLimit, a negative value no limit.
	MaxMemory int64
	// Seed seeds the solver's own random generator (the stochastic inner
	// methods and the row samples of the active-set method's start): the
	// same seed gives the same answer, bit for bit, on the same kernel path.
	Seed uint64
	// Progress, if set, is called after each stage of a penalty method,
	// after each Newton step, and once at the end of an active-set solve.
	// It runs on the solving goroutine and must not retain its argument.
	Progress func(Progress)
	// Observe, if set, is called with the current point about every
	// ObserveEvery steps of a penalty method (for SGD and SGDM the stage's
	// running average), after each Newton step, and once with the answer
	// of an active-set solve; steps is Info.Steps so far. It must not
	// retain or modify x. ObserveEvery 0 means 1000.
	Observe      func(steps int64, x []float64)
	ObserveEvery int64
	// Threads is the goroutines a solve may run on: the passes over sparse
	// rows of newton-cg, the dense factorisations of dual-cd's exact steps
	// on the support (the hard-margin SVM), the exact active-set method's
	// passes over every row of A (the rows' norms when the solver is
	// built, the violations at a hot start's guess, the pricing scans over
	// all rows: the same bits on any number), and the forming of phi'phi
	// for a quadratic objective with dense rows of phi (the same bits on
	// any number). 0 means
	// runtime.GOMAXPROCS(0), 1 the calling goroutine alone; data with fewer
	// than 2^16 nonzeros (dense A: 2^17 entries) a goroutine get fewer. A
	// given Threads gives the same bits on every run; different ones differ
	// by rounding, each answer certified to Tol. The penalty methods run
	// on one goroutine. Between the active-set method's passes over every
	// row, its other goroutines wait for the next one spinning, for at
	// most a millisecond after the last (as BLAS and OpenMP threads do):
	// a goroutine woken from sleep often came too late to share a pass.
	Threads int
	// Penalty tunes the penalty methods; nil means their defaults. It is
	// read only when a penalty method runs (one of MethodAPG ...
	// MethodSGDM, or MethodNewton's fallback).
	Penalty *PenaltyOptions
}

// PenaltyOptions tune the nested softplus-penalty method (the paper's
// sections 2-5): the schedule of the smoothing delta, the penalty xi, the
// screening of inactive rows and the inner methods' steps. Every zero
// field means the solver's default (each justified where it is defined);
// non-zero values reproduce the paper's own settings.
type PenaltyOptions struct {
	// Xi is the initial penalty parameter; 0 means 1 (the paper's
	// choice). Unless FixedXi, the solve raises it when the multipliers
	// saturate (xi < ||lambda*||_inf) and lowers it towards 4 max_j
	// lambda_j when they stay far below it.
	Xi      float64
	FixedXi bool // keep xi as given: never raise or lower it
	// Eta is the ratio delta_t / delta_{t+1} of successive stages (> 1);
	// 0 means 4. Delta0 is the first stage's delta; 0 means the
	// schedule's own.
	Eta, Delta0 float64
	// Static solves one fixed delta = Delta0 (the paper's Cor. 3.5)
	// instead of the nested schedule.
	Static bool
	// TheorySchedule takes delta_0, eta and the stages' targets of the
	// paper's Lemma 3.2 and Prop. 3.3 exactly, instead of the measured
	// defaults.
	TheorySchedule bool
	// Screen is the rule that drops rows proven inactive (default: the
	// gap-safe rule).
	Screen ScreenRule
	// StageMult, if > 0, ends a stage of SGD, SGDM or SVRG after StageMult
	// times the paper's theoretical inner iteration count (its SVM runs use
	// 0.3 for SGD and 0.5 for SVRG); 0 means the default stage lengths.
	StageMult float64
	// LastIterate makes SGD and SGDM answer each stage with its last
	// iterate, as the paper's methods do, instead of the average of the
	// iterates of the second half of the stage.
	LastIterate bool
	// Momentum is SGDM's beta, in [0, 1); 0 means 0.9 (the paper's choice).
	Momentum float64
	// StepScale, if > 0, sets the step of SGD, SGDM and SVRG to
	// StepScale/(Lc + mu), Lc the component smoothness the method samples
	// with, as the paper's SVM runs scale it; 0 means the defaults.
	StepScale float64
	// SVRGEpoch is the number of stochastic steps between SVRG's full
	// gradients as a multiple of the number of components; 0 means 2
	// (the paper's SVM runs use 5).
	SVRGEpoch float64
	// NoPolish turns off the exact finish: the penalty method's stages
	// alone answer (a quadratic objective's stages otherwise hand their
	// working set to the active-set method, which answers exactly).
	NoPolish bool
	// AllRows puts every row in the problem from the start, as the paper's
	// algorithms do, instead of a working set of the rows the point
	// violates or nearly meets (the default with many more rows than
	// variables); only the screening rule then removes rows.
	AllRows bool
}

// ScreenRule selects how a penalty method drops rows that cannot be active
// at the answer. Every dropped row is checked at the answer, and all rows
// come back if one is violated.
type ScreenRule int

const (
	// ScreenGapSafe drops row j when a_j'x - b_j < -sqrt(2 gap / mu):
	// safe at any point, given the certified gap (the default).
	ScreenGapSafe ScreenRule = iota
	ScreenNone               // keep every row
	ScreenPaper              // the rule of the paper's Algorithm 2
	// ScreenPaperExperiment is the rule of the paper's own SVM experiment
	// (Algorithm 2's threshold without its log factor): not safe, for
	// reproducing it.
	ScreenPaperExperiment
)

// String is the rule's name as the command line's -screen takes it:
// "gap-safe", "none", "paper" or "paper-experiment".
func (r ScreenRule) String() string { return solver.ScreenRule(r).String() }

// Progress is what Options.Progress sees.
type Progress struct {
	Method Method // the method that made it: MethodActiveSet, MethodNewton or a penalty method
	// Index is the stage of a penalty method or the Newton step, from 0;
	// 0 for the active-set method's one report; the epoch of SVRG and
	// catalyst-SVRG on sparse rows, which have no stages (Delta 0).
	Index int
	Steps int64   // Info.Steps so far
	Gap   float64 // the best certified duality gap so far (+Inf: none yet)
	// Violation is the largest violation of a row by the point (for a
	// penalty stage on the rows scaled to unit norm).
	Violation float64
	// Kept is the number of rows in the problem: the penalty method's
	// working set, all rows for the other methods.
	Kept int
	// Delta and Xi are a penalty stage's smoothing and penalty parameters
	// (0 for the other methods, and for SVRG on sparse rows).
	Delta, Xi float64
}

// internal returns the solver's options for o (nil: the defaults), or an
// error naming an unknown method. The Progress callback is wrapped once,
// here, so that solves call it without allocating. The solver checks the
// values of the others.
func (o *Options) internal() (*solver.Options, error) {
	if o == nil {
		return nil, nil
	}
	if o.Method < 0 || int(o.Method) >= len(methodOf) {
		return nil, fmt.Errorf("options: unknown method %d", int(o.Method))
	}
	so := &solver.Options{Method: methodOf[o.Method], Tol: o.Tol, MaxSteps: o.MaxSteps, TimeLimit: o.TimeLimit,
		Seed: o.Seed, Observe: o.Observe, ObserveEvery: o.ObserveEvery, Threads: o.Threads}
	if o.Progress != nil {
		f := o.Progress
		so.Progress = func(st solver.Stage) {
			f(Progress{Method: publicMethod(st.Method), Index: st.Index, Steps: st.Steps, Gap: st.Gap,
				Violation: st.Violation, Kept: st.Kept, Delta: st.Delta, Xi: st.Xi})
		}
	}
	if p := o.Penalty; p != nil {
		so.Xi, so.FixedXi, so.Eta, so.Delta0, so.Static = p.Xi, p.FixedXi, p.Eta, p.Delta0, p.Static
		if p.TheorySchedule {
			so.Schedule = solver.ScheduleTheory
		}
		so.Screen = solver.ScreenRule(p.Screen)
		so.StageMult, so.LastIterate, so.Momentum = p.StageMult, p.LastIterate, p.Momentum
		so.StepScale, so.SVRGEpoch, so.NoPolish, so.AllRows = p.StepScale, p.SVRGEpoch, p.NoPolish, p.AllRows
	}
	return so, nil
}
