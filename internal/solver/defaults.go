package solver

// Every default and tuning constant of the solver, with the measurement
// behind it. New resolves the options' defaults once (withDefaults); the
// rest of the package reads resolved options only.

// Defaults of the options (a zero option means its default).
const (
	defaultTol = 1e-6
	defaultXi  = 1.0 // the paper's choice
	defaultEta = 4.0 // the theory's choice (Lemma 3.2); the paper's runs use 2 to 4
	// defaultMomentum is SGDM's beta: the paper's choice on its QP.
	defaultMomentum     = 0.9
	defaultObserveEvery = 1000
	// defaultMethod is MethodAuto's choice. Measured with BenchmarkMethods
	// (root package): every method, polished, to a certified 1e-6, on three
	// sizes (median of 5, `go test -run X -bench Methods -benchtime 3x
	// -count 5 .`): paper QP (l = m = n = 100): apg 0.93 ms, catalyst-svrg
	// 1.06, svrg 1.26, sgd 1.34, sgdm 1.57; mushrooms (m = 8124, n = 126):
	// apg 63 ms, sgdm 72, sgd 76, svrg 79, catalyst-svrg 83; large QP
	// (l = 2000, m = 1e5, n = 100): sgdm 111 ms, catalyst-svrg 118, apg 118,
	// svrg 121, sgd 164. The accelerated full-gradient method is the
	// fastest or within the noise of the fastest at every size (the working
	// set and screening keep its full gradients cheap); the stochastic
	// methods would pay only when l + kept rows stay large next to the
	// condition number.
	defaultMethod = MethodAPG
)

// MethodAuto solves every quadratic objective (loss none or squared,
// n <= maxDenseHessian) directly by the active-set method (direct.go),
// however many its rows; the penalty method is for the logistic loss,
// larger n, and callers who choose it. The direct method scans a pool of
// likely rows at each working-set change (4 sqrt(m) of them) and every row
// only when the pool holds no violated one; on max(10000, 200 n) rows or
// more it starts from the answer on a sample of the rows (sample.go), so
// that the changes it makes on all of them are the few the sample missed.
//
// Measured before the sampled start, cold to a certified 1e-9
// (BenchmarkDirectCrossover and BenchmarkHandoverSweep, root package,
// loaded machine): the large-QP family (l = 2000, n = 100) direct / apg
// m = 1e3 10 / 6 ms, 1e4 10.6 / 9.3, 1e5 61 / 322, 2.5e5 0.34 / 4.2 s,
// 1e6 1.03 / 10.2 s; the separable SVM (n = 50, x_u = 0 violates every
// row) 62500 78 / 105 ms, 125000 537 / 421 ms, 250000 3.08 / 1.12 s, 1e6
// 19.2 / 3.8 s: the direct method then lost above about 2e5 rows and
// MethodAuto kept it to DirectMaxRows (and above, to problems whose x_u
// violates few rows). With the sampled start and the pool growing with m
// (one run each, the same sitting, a helper running beside it): separable
// SVM direct / apg with handover, to 1e-9: m = 20000 19 ms, 62500 38 ms,
// 125000 85 ms, 250000 0.13 / 0.59 s, 1e6 0.42 / 1.77 s; at n = 200,
// m = 250000 2.8 / 6.2 s. The direct method wins at every size measured.
//
// DirectMaxRows remains the penalty method's own threshold: with at most
// this many rows its probe hands the problem to the active-set method after
// the first stage (schedule.go, handover.go).
const DirectMaxRows = 200000

// The handover to the exact finisher (handover.go).
const (
	// handoverGap is the best certified gap, relative to max(1, |F|), at
	// which a stage's end hands the working set to the active-set engine
	// (with at most DirectMaxRows rows the probe hands over after the
	// first stage whatever its gap). Measured with BenchmarkHandoverGap
	// (apg, no probe, to a certified 1e-9; `go test -run '^$' -bench
	// HandoverGap -benchtime 1x -count 5 ./solver`, medians, a machine
	// loaded about 2x), handing over at 1e-3 / 1e-4 / 1e-5 / 1e-6:
	// separable SVM (m = 1e6, n = 50): 15.0 / 4.6 / 4.4 / 4.7 s, the
	// engine taking 608 / 108 / 6 / 6 working-set changes after 5.1 / 16 /
	// 37 / 48 million steps (at 1e-2 and 1e-1, 734 and 982 changes,
	// 7-30 s; cold, 1,190); large QP (l = 2000, m = 1e5, n = 100): 1.09 /
	// 1.50 / 1.98 / 2.62 s (7 / 5 / 4 / 4 changes). A hot-started change
	// costs the SVM about a tenth of a scan of its rows, so the engine
	// pays there only once the working set is nearly right; 1e-4 is
	// within the noise of the best for the SVM, the case the penalty
	// method runs for under MethodAuto (the large QP is solved directly).
	// Seeding the engine's row pool with the working set's most violated
	// rows as well made no difference (4.59 / 4.68 s, 1.50 / 1.37 s).
	handoverGap = 1e-4
	// handoverStepsPerRow: a stage's end also hands over once the stages
	// have taken this many steps per working row since the solve began
	// (or since the last engine attempt), whatever the gap: stages that
	// slow cost more than an engine solve. Mushrooms (m = 8124, n = 126)
	// with AllRows and no probe takes about 1.5e4 steps per row per stage
	// at xi = 4 and was at gap 9e-3 after 7 stages and 60 s (it never
	// reached handoverGap), while the engine solves it cold in 10 ms; the
	// separable SVM with m = 1e6 reaches handoverGap after 16 steps per
	// row in all, far below.
	handoverStepsPerRow = 100
	// handoverLamFrac: rows whose best multiplier exceeds this fraction of
	// the largest start in the engine's working set.
	handoverLamFrac = 0.01
	// handoverRetry: after an engine solve that cycled, the next handover
	// waits until the best gap has fallen by this factor.
	handoverRetry = 100.0
)

// The delta schedule (schedule.go).
const (
	maxDelta0 = 0.05  // cap on the practical delta_0 (the paper's experiments use 0.05 and 0.005)
	minDelta  = 1e-13 // below this a stage cannot improve a double-precision answer
	// probeLoosen widens the first stage's target when the exact finisher
	// follows at once (problems of at most DirectMaxRows rows): it needs
	// only a rough working set. If the finisher does not end the solve,
	// the stage is run again to its own target. Measured on the paper QP
	// (APG, tol 1e-6) with the KKT polish that preceded the finisher:
	// factor 1: 148 iterations, 0.45 ms; 16: 80, 0.28 ms; 64: 46,
	// 0.19 ms; 256: 18, 0.13 ms, all polished to a gap below 1e-13.
	probeLoosen = 256
)

// The penalty parameter xi.
const (
	// After a stage whose largest multiplier lambda_j = xi sigmoid(r_j/delta)
	// is below xi/xiLowerGap, xi is lowered to xiLowerTo times it (by at most
	// xiLowerMax per stage), unless FixedXi or xi has been raised in this
	// solve. xi only has to exceed ||lambda*||_inf, and a larger one costs
	// twice: a stage's condition number grows as xi/delta, and an active
	// row's smoothing offset r_j = delta log(lambda_j/(xi - lambda_j)) grows
	// with xi/lambda_j (on the paper QP ||x_delta - x*|| is about
	// 15 delta ||x*|| at xi = 1, ||lambda*||_inf ~ 0.03-0.1). Measured on the
	// paper QP, unpolished, 2e7 steps, seeds 1-5, relative error without
	// and with lowering: SVRG 1.8e-4, 1.1e-4, 3.6e-5, ... and 8.3e-6,
	// 2.6e-5, 5.1e-7, 3.1e-5, 1.1e-5; APG's steps to 1e-6 7.6e6 and 2.4e6;
	// SGD better with it in 9 of 10 runs (with and without screening). If
	// the multipliers were underestimated, the saturation test raises xi
	// again (and it is not lowered after that).
	xiLowerGap   = 8.0
	xiLowerTo    = 4.0
	xiLowerMax   = 64.0
	xiRaise      = 4.0  // factor by which a saturated xi is raised
	saturated    = 0.99 // lambda_j >= saturated*xi marks xi as too small
	xiPhaseOne   = 1e2  // xi raised past this with saturated multipliers: run phase one (feasibility.go)
	xiInfeasible = 1e9  // xi beyond this with saturated multipliers: test infeasibility
	xiMax        = 1e16 // xi beyond this: give up raising it
)

// The inner methods (inner.go).
const (
	checkInterval = 1024 // stochastic steps between budget checks
	// sgdStageMixings is the default length of an SGD or SGDM stage in
	// mixing times 1/(alpha mu) of its step. Measured on the paper QP,
	// seeds 1-5, iterates averaged after one mixing time, median relative
	// error at 2e6 / 2e7 / 2e8 steps: 2: 9.7e-3 / 2.2e-3 / 1.2e-3;
	// 4: 8.9e-3 / 2.9e-3 / 1.0e-3; 8: 1.4e-2 / 2.6e-3 / 1.1e-3;
	// 16: 1.4e-2 / 2.7e-3 / 9.0e-4; 32: 3.5e-2 / 3.9e-3 / -. The paper's
	// count times 6 gave 1.2e-2 / 2.9e-3 / 1.5e-3; its count times 0.6 with
	// the last iterate 3.6e-2 at 2e7.
	sgdStageMixings = 4.0
	sgdAverageEvery = 16 // SGD averages one iterate in this many: they are strongly correlated over a mixing time
	// catalystMaxEpochs bounds the SVRG epochs of one catalyst outer
	// iteration (its subproblem usually meets catalyst.solved's criterion
	// sooner). Measured on the paper QP, seeds 1-5, steps to relative
	// error 1e-3 and the error after 2e7 steps: one epoch per outer
	// iteration: 2.8e5-2.0e6, 4.7e-7-3.1e-5; at most 4: 2.2e5-1.0e6,
	// 1.3e-7-7.7e-6; 8: 2.2e5-9.5e5, 2.6e-8-1.9e-6; 16: 2.2e5-9.5e5,
	// 2.9e-8-1.7e-6; no bound: the same steps, 1.8e-7-1.7e-6. With 16 and
	// no second full gradient per outer iteration (runCatalyst):
	// 2.0e5-9.1e5, 2.7e-8-1.7e-6.
	catalystMaxEpochs = 16
	// svrgEpochComps is the default SVRG epoch in components N (Options.SVRGEpoch).
	svrgEpochComps = 2
	// svrgStepDiv sets SVRG's default step 1/(svrgStepDiv Lbar): inside the
	// 1/(4 Lbar) of the theory with importance sampling, measured faster
	// on the paper QP than 1/(4 Lbar).
	svrgStepDiv = 3
)

// The working set (workingset.go).
const (
	// The working set (see Solve) is used from wsMinRows rows and
	// wsRowsPerVar rows per variable on; after wsMaxRounds rounds of
	// readmitting rows the solve falls back to every row.
	wsMinRows    = 2048
	wsRowsPerVar = 8
	wsMaxRounds  = 64
	// wsBatchPerVar*n is the most rows one working-set step admits.
	wsBatchPerVar = 4
)

// The model (model.go).
const (
	// maxDenseHessian is the largest n for which the Hessian of a quadratic
	// objective is formed and factored explicitly (8 n^2 bytes, n^3/3 flops
	// once). Beyond it the gradient streams phi instead and the dual bound
	// comes from the gradient mapping.
	maxDenseHessian = 3000
)

// Phase one (feasibility.go).
const (
	phaseOneMaxN   = 512 // phase one factors an n x n matrix per Newton step
	phaseOneIters  = 100 // Newton steps
	farkasRelTol   = 1e-9
	phaseOneRegRel = 1e-12 // regularisation of the Newton matrix, relative to its diagonal
)

// withDefaults returns o with every zero that stands for a default replaced
// by it. New calls it once, after check.
func (o Options) withDefaults() Options {
	if o.Method == MethodAuto || o.Method == MethodNewton {
		// The penalty method that runs when the direct path or Newton
		// steps do not (or stop short).
		o.Method = defaultMethod
	}
	if o.Tol == 0 {
		o.Tol = defaultTol
	}
	if o.Xi == 0 {
		o.Xi = defaultXi
	}
	if o.Eta == 0 {
		o.Eta = defaultEta
	}
	if o.Momentum == 0 {
		o.Momentum = defaultMomentum
	}
	if o.ObserveEvery <= 0 {
		o.ObserveEvery = defaultObserveEvery
	}
	return o
}
