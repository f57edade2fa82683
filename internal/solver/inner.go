package solver

import (
	"math"
	"slices"

	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// The inner methods M of Algorithm 1, each minimising F_{xi,delta} from
// state.x to the stage's target: accelerated proximal gradient (runAPG),
// proximal SVRG with importance sampling (runSVRG), catalyst-SVRG
// (runCatalyst), and SGD and SGD with momentum (runSGD).

// runAPG is the accelerated proximal gradient method for strongly convex
// composite problems (constant momentum (1-sqrt(q))/(1+sqrt(q)), q = mu/L)
// with O'Donoghue–Candès gradient restarts, on F_{xi,delta}. It stops when the
// gradient mapping at the extrapolated point is below the stage target and
// leaves the proximal step from that point (the paper's x~_t) in state.x.
func (s *Solver) runAPG(rn *run) stop {
	w := &s.state
	x, xPrev, y, g, xt := w.x, w.xPrev, w.yv, w.g, w.xt
	L := s.stageL(rn)
	alpha := 1 / L
	q := s.mu / L
	beta := (1 - math.Sqrt(q)) / (1 + math.Sqrt(q))
	target := s.stageTarget(rn)
	st := newStall(L / s.mu)
	cy := cycle{x: w.cycX, y: w.cycY}
	copy(y, x)
	for {
		if s.over(rn) {
			return rn.stopped
		}
		s.fullGrad(g, y, rn.sched.xi, rn.sched.delta)
		if gm := s.gradMapStep(xt, y, g, alpha); gm <= target || gm <= gradMapFloor(L, y) || st.stalled(gm) || cy.repeats(x, y) {
			copy(x, xt)
			return stopConverged
		}
		// Restart when the step opposes the momentum: (y - xt).(xt - x) > 0.
		var dir float64
		for i := range xt {
			dir += (y[i] - xt[i]) * (xt[i] - x[i])
		}
		copy(xPrev, x)
		copy(x, xt)
		if dir > 0 {
			copy(y, x)
		} else {
			vec.AxpbyTo(y, 1+beta, x, -beta, xPrev)
		}
		if s.steps >= s.obsNext {
			s.observe(s.steps, x)
		}
	}
}

// gradMapFloor is the gradient mapping L ||y - xt|| below which its value
// is rounding: xt = prox(y - g/L) is rounded to eps |xt_i| in each
// coordinate, so ||y - xt|| cannot be resolved below about eps ||y||, and
// g's own rounding (the rows' residuals' rounding times xi/(4 delta)) is
// of the same size times L. A stage target below it is met only by chance:
// at xi = 4.4e12, delta = 0.05 (an SVM separable only by ||x|| = 1e14)
// the target was 0.0125, the floor 0.0145 and the gradient mapping
// hovered at 0.026-0.030; the stall rule, at 20 sqrt(L/mu) = 1.5e8
// iterations without halving, would have waited hours
// (TestPenaltyStageAtFloor). Four times the floor ends such a stage at
// once; the certificate judges its point.
func gradMapFloor(L float64, y []float64) float64 {
	return 4 * 0x1p-52 * L * math.Sqrt(vec.Dot(y, y))
}

// stall ends a stage whose gradient mapping has stopped falling: below the
// rounding of the gradient no step lowers it, and at a small delta that
// rounding (xi/(4 delta) times the rounding of the rows' residuals) can lie
// above the stage's target, which the stage would then chase for ever (a
// separable SVM whose gap-safe screening kept 22 rows: 350 million steps
// at delta = 2e-7). An accelerated method with condition kappa divides its
// error by e every sqrt(kappa) iterations, so a stage whose best gradient
// mapping has not halved in stallRounds sqrt(kappa) iterations is at its
// floor; it ends as converged, and the certificate judges its point.
type stall struct {
	best         float64
	since, limit int
}

// stallRounds is the multiple of sqrt(kappa) iterations without halving
// that marks a stall: a converging stage halves in about 0.7 sqrt(kappa).
const stallRounds = 20

func newStall(kappa float64) stall {
	return stall{best: math.Inf(1), limit: 100 + int(stallRounds*math.Sqrt(max(kappa, 1)))}
}

// stalled records the gradient mapping gm of an iteration and reports
// whether the stage has stalled.
func (st *stall) stalled(gm float64) bool {
	if gm < 0.5*st.best {
		st.best, st.since = gm, 0
		return false
	}
	st.since++
	return st.since > st.limit
}

// cycle detects that APG's iteration, a deterministic map of its state
// (x, y) at the top of the loop, has come back to a state it was in: from
// then on it repeats for ever, and the stage ends as stalled. Below the
// rounding of the steps the iterates can circle a set of float64 points
// whose gradient mapping stays above the target (on the generic kernels'
// rounding, TestScreeningRules: a period under 20000 iterations, where
// the stall limit is 1.7 million). Brent's method: the state is saved at
// iterations 1, 2, 4, 8, ... and each iteration is compared with the last
// saved, so a cycle entered at iteration k with period p is seen within
// 2 max(k, p) + p iterations, at O(n) an iteration and no allocation.
type cycle struct {
	x, y       []float64 // the saved state
	power, lam int       // the distance to the next save, the iterations since the last
}

// repeats reports whether (x, y) equals the saved state, and saves it when
// the distance runs out.
func (c *cycle) repeats(x, y []float64) bool {
	if c.power > 0 && slices.Equal(x, c.x) && slices.Equal(y, c.y) {
		return true
	}
	if c.lam++; c.lam >= c.power {
		copy(c.x, x)
		copy(c.y, y)
		c.power, c.lam = max(2*c.power, 1), 0
	}
	return false
}

// sampler draws components of the finite sum (proof of Prop. 3.3):
// c_i = (N/l) f_i for the l loss rows and c_{l+j} = N xi p_delta(a_j^T x - b_j)
// for the kept constraint rows, with probability proportional to their
// smoothness constants, so that the rate depends on their mean, not their max.
//
// With uniform set (plain SGD and SGDM) every component has probability
// 1/N instead: for SGD the variance at the solution is
// sum ||grad c_i(x*)||^2 / p_i, which smoothness-proportional sampling makes
// large (loss rows have large gradients at x* and small smoothness), while
// for SVRG the variance scales with L_i^2 ||x - x~||^2 and proportional
// sampling is the right choice (and what the theory of Prop. 3.3 uses).
type sampler struct {
	uniform bool
	pLoss   float64 // probability of drawing a loss row
	lbar    float64 // mean smoothness constant
	lossC   float64 // curvature factor of the loss: 1 squared, 1/4 logistic
	consW   float64 // 4 delta * lbar: the estimator's weight of a constraint
	nComps  int
}

func (s *Solver) newSampler(rn *run) sampler {
	N := float64(s.l + s.kept)
	var sp sampler
	sp.nComps = s.l + s.kept
	sp.lossC = 1
	if s.loss == LossLogistic {
		sp.lossC = 0.25
	}
	var wl float64
	if s.l > 0 {
		wl = N / float64(s.l) * sp.lossC * s.state.lossW.mean * float64(s.l)
	}
	wc := float64(s.kept) * N * rn.sched.xi / (4 * rn.sched.delta)
	sp.lbar = (wl + wc) / N
	if wl+wc > 0 {
		sp.pLoss = wl / (wl + wc)
	}
	sp.consW = 4 * rn.sched.delta * sp.lbar
	return sp
}

// newUniformSampler draws every component with probability 1/N. lbar is
// then the largest component smoothness constant, which sets SGD's step.
func (s *Solver) newUniformSampler(rn *run) sampler {
	N := float64(s.l + s.kept)
	sp := sampler{uniform: true, nComps: s.l + s.kept, lossC: 1}
	if s.loss == LossLogistic {
		sp.lossC = 0.25
	}
	if s.l > 0 {
		sp.pLoss = float64(s.l) / N
		sp.lbar = N / float64(s.l) * sp.lossC * s.state.lossW.max
	}
	if s.kept > 0 {
		sp.lbar = max(sp.lbar, N*rn.sched.xi/(4*rn.sched.delta))
	}
	sp.consW = N * rn.sched.xi
	return sp
}

// draw returns a component: i < l is loss row i, otherwise constraint i-l.
func (s *Solver) draw(sp *sampler) int {
	if sp.uniform {
		return s.rng.intn(sp.nComps)
	}
	if s.l > 0 && (s.kept == 0 || s.rng.float() < sp.pLoss) {
		return s.state.lossW.sample(&s.rng)
	}
	return s.l + s.rng.intn(s.kept)
}

// compDeriv returns the row of component i and the scalar d with
// grad c_i(x) / (N p_i) = d * row, the unbiased estimate of the smooth part's
// gradient from one draw (before subtracting a snapshot).
func (s *Solver) compDeriv(sp *sampler, i int, x []float64, rn *run) ([]float64, float64) {
	if i < s.l {
		row := s.phi.Row(i)
		d := s.lossSlope(i, vec.Dot(row, x))
		if sp.uniform {
			return row, d * float64(sp.nComps) / float64(s.l)
		}
		return row, d * sp.lbar / (sp.lossC * s.state.lossW.weight(i))
	}
	j := i - s.l
	row := s.a.Row(j)
	return row, sp.consW * softplus.D1(rn.sched.delta, vec.Dot(row, x)-s.b[j])
}

// snapshotDerivs stores, for every component, the scalar compDeriv would
// return at x (the SVRG snapshot), and returns nothing; it costs one pass
// over phi and A, counted by the caller's full gradient.
func (s *Solver) snapshotDerivs(sp *sampler, x []float64, rn *run) {
	d := s.state.dSnap
	if s.l > 0 {
		rl := s.state.rl
		s.phi.MulVec(rl, x)
		for i, t := range rl {
			wi := s.state.lossW.weight(i)
			if wi > 0 {
				d[i] = s.lossSlope(i, t) * sp.lbar / (sp.lossC * wi)
			} else {
				d[i] = 0
			}
		}
	}
	// state.lam holds xi*sigmoid(r/delta) from the full gradient at x.
	for j, l := range s.state.lam[:s.kept] {
		d[s.l+j] = sp.consW * l / rn.sched.xi
	}
}

// svrgSnapshot takes the SVRG snapshot at state.x, whose full gradient g
// the caller has: state.full = mu~ + q, the full gradient less what the
// steps treat exactly (ridge in the prox, P x per step) and less kappa z
// (catalyst, when withZ), and the component scalars (snapshotDerivs).
func (s *Solver) svrgSnapshot(rn *run, sp *sampler, g []float64, kappa float64, withZ bool) {
	w := &s.state
	x, v := w.x, w.full
	copy(v, g)
	vec.Axpy(-s.ridge, x, v)
	if s.pm != nil {
		s.pm.MulVec(w.tmp, x)
		vec.Axpy(-1, w.tmp, v)
	}
	if withZ {
		vec.Axpy(-kappa, w.z, v)
	}
	s.snapshotDerivs(sp, x, rn)
}

// runSVRG is proximal SVRG (Xiao & Zhang 2014) with smoothness-proportional
// sampling on F_{xi,delta}. Each epoch takes a full gradient at the snapshot
// (where the stage's stopping test is made) and 2N stochastic steps
// x <- prox(x - alpha (grad c_i(x) - grad c_i(x~))/(N p_i) - alpha mu~).
// With cat != nil it minimises the catalyst subproblem
// F_{xi,delta} + kappa/2 ||x - z||^2 instead, until catalyst.solved says it
// is solved well enough (stopSubproblem) or F meets the stage target.
func (s *Solver) runSVRG(rn *run, cat *catalyst) stop {
	w := &s.state
	x, g, xt, v := w.x, w.g, w.xt, w.full
	sp := s.newSampler(rn)
	alphaL := 1 / s.stageL(rn)
	target := s.stageTarget(rn)
	// The default step: see svrgStepDiv. P's curvature, taken whole at
	// every step, is added to the sampled components': without it a P
	// with ||P|| above 2 svrgStepDiv Lbar made the steps diverge (random
	// QPs with P up to 1e4 and a few rows: a third ended with x
	// overflowed).
	alpha := 1 / (svrgStepDiv*sp.lbar + s.lp)
	if s.opt.StepScale > 0 {
		alpha = s.opt.StepScale / (sp.lbar + s.lp + s.mu)
	}
	kappa := 0.0
	if cat != nil {
		kappa = cat.kappa
	}
	sc := 1 / (1 + alpha*(s.ridge+kappa))
	epoch := svrgEpochComps * sp.nComps
	if s.opt.SVRGEpoch > 0 {
		epoch = max(int(s.opt.SVRGEpoch*float64(sp.nComps)), 1)
	}
	// With Options.StageMult set (and no catalyst, whose outer loop sets
	// its own stopping) a stage also ends after the paper's iteration count.
	limit := int64(math.MaxInt64)
	if s.opt.StageMult > 0 && cat == nil {
		limit = max(s.paperStageSteps(rn, sp.lossC, s.opt.StageMult), int64(epoch))
	}
	var done int64
	epochs := 0
	for {
		if s.over(rn) {
			return rn.stopped
		}
		if cat != nil && cat.fresh {
			// g = grad F(x) from the call that returned stopSubproblem,
			// whose test on F failed; only z has moved since.
			cat.fresh = false
		} else {
			s.fullGrad(g, x, rn.sched.xi, rn.sched.delta)
			if s.gradMapStep(xt, x, g, alphaL) <= target || done >= limit {
				copy(x, xt)
				return stopConverged
			}
		}
		if cat != nil && epochs > 0 && (epochs >= catalystMaxEpochs || cat.solved(s, x, g, alphaL)) {
			cat.fresh = true
			return stopSubproblem
		}
		s.svrgSnapshot(rn, &sp, g, kappa, cat != nil)
		for k := 0; k < epoch; k++ {
			if k%checkInterval == 0 && k > 0 && s.over(rn) {
				return rn.stopped
			}
			i := s.draw(&sp)
			row, d := s.compDeriv(&sp, i, x, rn)
			if s.pm != nil {
				s.pm.MulVec(w.tmp, x)
			}
			vec.Step(sc, -alpha*(d-w.dSnap[i]), row, -alpha, v, x)
			if s.pm != nil {
				vec.Axpy(-alpha*sc, w.tmp, x)
			}
			if s.hasProx() {
				s.prox(x, alpha*sc)
			}
			if s.steps+int64(k+1) >= s.obsNext {
				s.observe(s.steps+int64(k+1), x)
			}
		}
		s.steps += int64(epoch)
		done += int64(epoch)
		epochs++
	}
}

// catalyst holds the state of the catalyst acceleration (Lin, Mairal,
// Harchaoui 2015) around SVRG.
type catalyst struct {
	kappa float64
	delta float64 // the relative accuracy of the subproblem, sqrt(q)/(2 - sqrt(q))
	fresh bool    // state.g is grad F(state.x), taken by the last runSVRG call
}

// solved reports whether x solves the catalyst subproblem
// h(y) = F(y) + kappa/2 ||y - z||^2 well enough: criterion (C2) of Lin,
// Mairal and Harchaoui (2018), h(x) - h* <= delta kappa/2 ||x - z||^2,
// with h(x) - h* estimated by ||G_h||^2/(2 (mu + kappa)) from the gradient
// mapping G_h at x. g is grad F(x); it uses state.full and state.xt.
func (c *catalyst) solved(s *Solver, x, g []float64, alphaL float64) bool {
	w := &s.state
	gh := w.full
	vec.AxpbyTo(gh, 1, x, -1, w.z)
	dz := math.Sqrt(vec.Dot(gh, gh))
	vec.AxpbyTo(gh, c.kappa, gh, 1, g)
	a := 1 / (1/alphaL + c.kappa)
	gm := s.gradMapStep(w.xt, x, gh, a)
	return gm*gm/(2*(s.mu+c.kappa)) <= c.delta*c.kappa/2*dz*dz
}

// runCatalyst is catalyst-accelerated proximal SVRG, the inner method of the
// paper's theory (Prop. 3.3): outer iterations minimise
// F_{xi,delta}(x) + kappa/2 ||x - z_k||^2 by SVRG epochs until the relative
// criterion of catalyst.solved holds (at most catalystMaxEpochs), then
// extrapolate z_{k+1} = x_k + beta (x_k - x_{k-1}) with
// beta = (1 - sqrt(q))/(1 + sqrt(q)), q = mu/(mu + kappa), and
// kappa = Lbar/N - mu (the choice for SVRG-type methods); with kappa <= 0
// acceleration cannot help and this is plain SVRG.
func (s *Solver) runCatalyst(rn *run) stop {
	w := &s.state
	sp := s.newSampler(rn)
	kappa := sp.lbar/float64(max(sp.nComps, 1)) - s.mu
	if kappa <= 0 {
		return s.runSVRG(rn, nil)
	}
	q := s.mu / (s.mu + kappa)
	beta := (1 - math.Sqrt(q)) / (1 + math.Sqrt(q))
	cat := catalyst{kappa: kappa, delta: math.Sqrt(q) / (2 - math.Sqrt(q))}
	copy(w.z, w.x)
	copy(w.xPrev, w.x)
	for {
		// runSVRG tests F itself at every epoch's full gradient.
		if st := s.runSVRG(rn, &cat); st != stopSubproblem {
			return st
		}
		vec.AxpbyTo(w.z, 1+beta, w.x, -beta, w.xPrev)
		copy(w.xPrev, w.x)
	}
}

// runSGD is the stochastic gradient method on F_{xi,delta} with a constant
// step per stage (Nested-SGD), or with Nesterov momentum (Nested-SGDM, the
// paper's appendix: v <- beta v - t grad c_i(x + beta v), x <- x + v, beta = 0.9,
// its best setting on the QP). Every N steps the full gradient mapping is
// checked against the stage target. Since constant-step SGD stalls at a
// noise floor, a stage also ends after a step limit: sgdStageMixings mixing
// times 1/(alpha mu) of its step by default, or with StageMult the paper's
// theoretical count log(2 eta - 1)(L/mu + m xi/(4 mu delta)) times it.
//
// Unless LastIterate, the stage's answer is not its last iterate but the
// average of its iterates after the first half mixing time (or the second
// half of its limit, if shorter: a later start averages fewer iterates
// and ends farther from x*, TestSGDAveraged), one every sgdAverageEvery
// steps: Polyak-Ruppert
// averaging. The checks, the stage's end and a stop inside the stage all use
// the average once it has begun. A constant step's iterates scatter about
// sqrt(alpha sigma^2/mu) around x_delta; the average of T of them is within
// about sigma/(mu sqrt(T)) once T is many mixing times, which is the best
// any uniformly sampled SGD can do (Polyak and Juditsky; TestSGDAveraged
// compares with it).
func (s *Solver) runSGD(rn *run) stop {
	w := &s.state
	x, g, xt, avg := w.x, w.g, w.xt, w.avg
	sp := s.newUniformSampler(rn)
	alphaL := 1 / s.stageL(rn)
	target := s.stageTarget(rn)
	momentum := s.opt.Method == MethodSGDM
	if momentum {
		clear(w.mom)
	}
	beta, alpha, mixing := s.sgdSteps(&sp, momentum)
	limit := s.sgdLimit(rn, &sp, momentum, mixing)
	averaging := !s.opt.LastIterate
	avgFrom, navg := min(limit, int64(mixing))/2, 0
	// cur is the stage's current answer: the last iterate, or the average
	// once averaging has begun.
	cur := func() []float64 {
		if navg > 0 {
			return avg
		}
		return x
	}
	stopped := func() stop {
		copy(x, cur())
		return rn.stopped
	}
	sc := 1 / (1 + alpha*s.ridge)
	var done int64
	for {
		if s.over(rn) {
			return stopped()
		}
		at := cur()
		s.fullGrad(g, at, rn.sched.xi, rn.sched.delta)
		if s.gradMapStep(xt, at, g, alphaL) <= target || done >= limit {
			copy(x, xt)
			return stopConverged
		}
		for k := 0; k < sp.nComps; k++ {
			if k%checkInterval == 0 && k > 0 && s.over(rn) {
				return stopped()
			}
			if averaging && k%sgdAverageEvery == 0 && done+int64(k) >= avgFrom {
				navg++
				vec.AxpbyTo(avg, 1-1/float64(navg), avg, 1/float64(navg), x)
			}
			i := s.draw(&sp)
			if momentum {
				s.sgdmStep(rn, &sp, i, alpha, beta)
			} else {
				s.sgdStep(rn, &sp, i, alpha, sc)
			}
			if s.steps+int64(k+1) >= s.obsNext {
				s.observe(s.steps+int64(k+1), cur())
			}
		}
		s.steps += int64(sp.nComps)
		done += int64(sp.nComps)
	}
}

// sgdSteps returns the momentum beta (0 without), the step alpha and the
// mixing time of an SGD or SGDM stage.
//
// The step is the paper's 1/(L + mu + m xi/(4 delta)) (appendix), with L
// the largest component smoothness, plus ||P|| (taken whole at each step). SGDM's default is (1 - beta) times it,
// so that its effective step alpha/(1 - beta) is SGD's: with the full
// step, beta = 0.9 diverges on the paper QP once xi has been lowered.
// The mixing time is the number of steps in which the iterates of a
// constant step forget where they started, 1/(alpha mu) for the effective
// step, capped so that it converts to int64.
func (s *Solver) sgdSteps(sp *sampler, momentum bool) (beta, alpha, mixing float64) {
	if momentum {
		beta = s.opt.Momentum
	}
	alpha = 1 / (sp.lbar + s.lp + s.mu)
	switch {
	case s.opt.StepScale > 0:
		alpha = s.opt.StepScale / (sp.lbar + s.lp + s.mu)
	case momentum:
		alpha = (1 - beta) / (sp.lbar + s.lp + s.mu)
	}
	mixing = min((1-beta)/(alpha*s.mu), 1<<52)
	return beta, alpha, mixing
}

// sgdLimit is the most steps of an SGD or SGDM stage, at least one pass
// over the components: sgdStageMixings mixing times, or with StageMult the
// paper's count for the method times it.
func (s *Solver) sgdLimit(rn *run, sp *sampler, momentum bool, mixing float64) int64 {
	var limit int64
	switch mult := s.opt.StageMult; {
	case mult == 0:
		limit = int64(sgdStageMixings * mixing)
	case momentum:
		limit = s.paperStageStepsAcc(rn, sp.lossC, mult)
	default:
		limit = s.paperStageSteps(rn, sp.lossC, mult)
	}
	return max(limit, int64(sp.nComps))
}

// sgdStep is one SGD step on component i from state.x, with the ridge
// folded into the factor sc = 1/(1 + alpha ridge) and the prox after it.
func (s *Solver) sgdStep(rn *run, sp *sampler, i int, alpha, sc float64) {
	x := s.state.x
	row, d := s.compDeriv(sp, i, x, rn)
	if s.q != nil || s.pm != nil {
		s.addDeterministic(x, x, -alpha)
	}
	vec.Step(sc, -alpha*d, row, 0, row, x)
	if s.hasProx() {
		s.prox(x, alpha*sc)
	}
}

// sgdmStep is one Nesterov momentum step on component i:
// y = x + beta v; v = beta v - alpha grad(y); x += v, then the prox.
func (s *Solver) sgdmStep(rn *run, sp *sampler, i int, alpha, beta float64) {
	w := &s.state
	x, mom, yv := w.x, w.mom, w.yv
	vec.AxpbyTo(yv, 1, x, beta, mom)
	row, d := s.compDeriv(sp, i, yv, rn)
	vec.Scale(beta, mom)
	vec.Axpy(-alpha*d, row, mom)
	vec.Axpy(-alpha*s.ridge, yv, mom)
	s.addDeterministic(mom, yv, -alpha)
	vec.Axpy(1, mom, x)
	if s.hasProx() {
		s.prox(x, alpha)
	}
}

// addDeterministic adds c*(q + P y) to dst: the part of the smooth gradient
// that is not a finite sum. dst may be y only when P is nil.
func (s *Solver) addDeterministic(dst, y []float64, c float64) {
	if s.pm != nil {
		s.pm.MulVec(s.state.tmp, y)
		vec.Axpy(c, s.state.tmp, dst)
	}
	if s.q != nil {
		vec.Axpy(c, s.q, dst)
	}
}
