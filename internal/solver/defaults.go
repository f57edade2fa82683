package solver

// Every default and tuning constant of the solver, each with the reason for
// its value and the benchmark or test that measures it. New resolves the
// options' defaults once (withDefaults); the rest of the package reads
// resolved options only.

// Defaults of the options (a zero option means its default).
const (
	defaultTol = 1e-6
	defaultXi  = 1.0 // the paper's choice
	defaultEta = 4.0 // the theory's choice (Lemma 3.2); the paper's runs use 2 to 4
	// defaultMomentum is SGDM's beta: the paper's choice on its QP.
	defaultMomentum     = 0.9
	defaultObserveEvery = 1000
	// defaultMethod is the penalty method that runs when neither the
	// direct path nor Newton steps apply: the accelerated full-gradient
	// method is the fastest of the inner methods, or within the noise of
	// the fastest, on the paper QP, mushrooms and the large QP
	// (BenchmarkMethods), because the working set and screening keep its
	// full gradients cheap.
	defaultMethod = MethodAPG
)

// MethodAuto solves every quadratic objective (loss none or squared,
// n <= maxDenseHessian) directly by the active-set method (direct.go),
// however many its rows; the penalty method is for larger n and for
// callers who choose it. The direct method scans a pool of likely rows at
// each working-set change (4 sqrt(m) of them) and every row only when the
// pool holds no violated one; on max(10000, 200 n) rows or more it starts
// from the answer on a sample of the rows (sample.go), so that the changes
// it makes on all of them are the few the sample missed. With these it is
// faster than the penalty method with its exact finish at every size of
// the large-QP and separable-SVM families up to m = 1e6
// (BenchmarkHandoverSweep, auto against apg).
//
// DirectMaxRows is the penalty method's own threshold: with at most this
// many rows its probe hands the problem to the active-set method after the
// first stage (schedule.go, handover.go).
const DirectMaxRows = 200000

// The handover to the exact finisher (handover.go).
const (
	// handoverGap is the best certified gap, relative to max(1, |F|), at
	// which a stage's end hands the working set to the active-set engine
	// (with at most DirectMaxRows rows the probe hands over after the
	// first stage whatever its gap). A hot-started working-set change
	// costs the separable SVM about a tenth of a scan of its rows, so the
	// engine pays only once the working set is nearly right; 1e-4 is
	// within the noise of the best of 1e-3 .. 1e-6 on the SVM with
	// m = 1e6 and the large QP (BenchmarkHandoverGap).
	handoverGap = 1e-4
	// handoverStepsPerRow: a stage's end also hands over once the stages
	// have taken this many steps per working row since the solve began
	// (or since the last engine attempt), whatever the gap: stages that
	// slow cost more than an engine solve. Mushrooms with every row and no
	// probe takes about 1.5e4 steps per row per stage and may never reach
	// handoverGap (TestMushroomsScreening), while the separable SVM with
	// m = 1e6 reaches it after 16 steps per row in all.
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
	// only a rough working set, and a looser first stage takes a fraction
	// of the steps (on the paper QP, 18 APG iterations instead of 148,
	// the finish exact either way). If the finisher does not end the
	// solve, the stage is run again to its own target.
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
	// with xi/lambda_j. Lowering makes the unpolished SVRG, APG and SGD
	// answers on the paper QP closer to x* at the same budget
	// (TestPaperQPUnpolished, BenchmarkPaperQPToAccuracy). If the
	// multipliers were underestimated, the saturation test raises xi again
	// (and it is not lowered after that).
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
	// mixing times 1/(alpha mu) of its step: the averaged iterates of 2 to
	// 16 mixing times end within a factor 1.5 of each other on the paper
	// QP, and 4 is the best at the larger budgets (TestSGDAveraged).
	sgdStageMixings = 4.0
	sgdAverageEvery = 16 // SGD averages one iterate in this many: they are strongly correlated over a mixing time
	// catalystMaxEpochs bounds the SVRG epochs of one catalyst outer
	// iteration (its subproblem usually meets catalyst.solved's criterion
	// sooner): one epoch per outer iteration is slower to the same error
	// on the paper QP, and beyond 8 the bound makes no difference
	// (BenchmarkPaperQPToAccuracy).
	catalystMaxEpochs = 16
	// svrgEpochComps is the default SVRG epoch in components N (Options.SVRGEpoch).
	svrgEpochComps = 2
	// svrgStepDiv sets SVRG's default step 1/(svrgStepDiv Lbar): inside the
	// 1/(4 Lbar) of the theory with importance sampling, and faster on the
	// paper QP (BenchmarkPaperQPToAccuracy).
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
	// sharpMuIters and roughMuIters are the inverse-iteration steps of
	// the estimate of mu that certifyMinEig certifies: the penalty
	// method's step sizes need a sharp mu; the direct path's certificate
	// only a valid one, and its set-up is most of a small cold solve
	// (BenchmarkDAQPCold in scripts/peers).
	sharpMuIters = 50
	roughMuIters = 6
	// sharpMuStart and roughMuStart are the fractions of the estimate
	// certifyMinEig tries first. Six steps of inverse iteration leave the
	// estimate above the eigenvalue by more than 1% on most problems
	// (the double integrator's MPC QPs), so the direct path starts at half
	// of it: one factorisation that succeeds instead of one that fails
	// and one that succeeds, for a mu at most half as sharp, which only
	// the rounding allowance and Result.DistBound read.
	sharpMuStart = 0.99
	roughMuStart = 0.5
)

// Phase one (feasibility.go).
const (
	phaseOneMaxN = 512 // phase one factors an n x n matrix per Newton step
	// farkasEngineMaxN is the largest n for which a Farkas certificate of
	// the penalty method is confirmed by the active-set method on its rows
	// (with an n x n identity as H: 32 MiB at this n); above, it is checked
	// to the rounding of its sums (holdsToRounding).
	farkasEngineMaxN = 2048
	phaseOneIters    = 100 // Newton steps
	farkasRelTol     = 1e-9
	phaseOneRegRel   = 1e-12 // regularisation of the Newton matrix, relative to its diagonal
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
