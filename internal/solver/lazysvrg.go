package solver

import (
	"math"

	"github.com/softpen/softpen/internal/newtoncg"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/screen"
	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// Proximal SVRG (Xiao & Zhang 2014) on sparse rows, for the fitting model
// of package newtoncg without rows of A:
//
//	F(x) = (1/l) sum_i f_i(phi_i'x) + q'x + ridge/2 ||x||^2 + l1 ||x||_1,
//	lower <= x <= upper,
//
// each step O(nnz(phi_i)), whatever n. A step of proximal SVRG moves every
// coordinate: with the snapshot x~, its full loss gradient mu and row i
// drawn with probability p_i,
//
//	x <- prox(x - eta (mu + q + (f_i'(phi_i'x) - f_i'(phi_i'x~)) phi_i / (l p_i))),
//
// and the prox of the separable regulariser is, coordinate by coordinate,
// clip(a soft(v, eta l1), lower_j, upper_j), a = 1/(1 + eta ridge). For a
// coordinate outside row i the step is x_j <- T_j(x_j) with c_j = mu_j + q_j
// fixed for the whole epoch. So the steps that do not touch j need not be
// taken one by one: before row i reads x_j, the d steps it missed are
// applied at once in closed form (advance), and at the epoch's end every
// coordinate is brought up to date. The iterates are those of the plain
// method up to rounding.
//
// Rows are drawn in proportion to their smoothness L_i = c ||phi_i||^2, c
// the loss's largest curvature (as the dense SVRG, inner.go), with the
// step 1/(svrgStepDiv Lbar) (Options.StepScale: StepScale/(Lbar +
// ridge)). Each epoch's snapshot pass is the certificate of
// newtoncg.Certify at the snapshot, which also gives mu and the
// snapshot's slopes: the gap is certified at every epoch at no extra cost,
// and the answer is the snapshot of least certified gap.
//
// With catalyst (Lin, Mairal, Harchaoui 2015; as runCatalyst, inner.go)
// the epochs minimise h(x) = F(x) + kappa/2 ||x - zc||^2 instead, kappa =
// Lbar/l - ridge, until criterion (C2) holds, h(x) - h* <= delta kappa/2
// ||x - zc||^2 with delta = sqrt(q)/(2 - sqrt(q)), q = ridge/(ridge +
// kappa), and the centre moves to x + beta (x - x_prev), beta = (1 -
// sqrt(q))/(1 + sqrt(q)). The added term is separable: h is F with ridge +
// kappa and q - kappa zc, so the steps and their closed forms are those
// above with these, and h's gap is the same sum as F's at the snapshot
// (newtoncg.GapWith, no pass): each epoch certifies both.
//
// Rows A x <= b enter as the paper's softplus penalty (section 2): stage
// t minimises F_{xi,delta_t}(x) = F(x) + xi delta_t sum_k s((a_k'x -
// b_k)/delta_t), whose rows of A are m more components of the sum, each a
// scalar function of a_k'x with slope xi sigmoid(r_k/delta) and
// smoothness xi ||a_k||^2/(4 delta): they are drawn beside the loss rows
// in proportion to it (a row of A with probability 1 - lossP, then by
// ||a_k||^2 within A), and stepped on and caught up exactly as the loss
// rows. Each
// snapshot is certified by newtoncg.CertifyPenalty: the gap of the
// constrained problem with the dual map's multipliers (4.3), which the
// answer reports, and the gap of F_{xi,delta} itself. A stage ends when
// its own gap is below a tenth of the constraints' part of the
// certificate (the rule of newtoncg's augmented Lagrangian): then delta
// shrinks by Options.Eta, or xi grows (xiRaise) if the multipliers
// saturate it; past xiPhaseOne phase one (lazyfeasibility.go) asks
// whether any x meets the rows, and past xiInfeasible the saturated
// multipliers are tried as a Farkas certificate. The schedule's constants
// are those of the dense path (schedule.go); the step follows each
// stage's smoothness.
//
// The same solve, with its certificates, schedule, screening and
// statuses, runs APG (lazyapg.go: a full proximal gradient step an epoch),
// SGD (lazysgd.go: these steps without the control variate) or, without
// l1 and bounds, SGDM (lazysgdm.go: SGD's passes with Nesterov momentum)
// by kind.
type lazySVRG struct {
	x    *mat.Sparse
	loss newtoncg.Loss
	cert *newtoncg.Workspace

	ridge, l1, eta, a float64 // ridge: F's, plus kappa with catalyst
	ridge0            float64 // F's ridge
	epoch             int
	lower, upper, q   []float64 // nil: none
	opt               *Options  // StepScale, and the schedule's options with rows of A

	// rows of A (nil: none); tab[l+k] is row k's entry, with b_k as its y
	l, m       int
	ar         *mat.Sparse
	wt, a2     []float64 // the loss rows' smoothness times l; ||a_k||^2
	lossL, a2s float64   // the loss rows' summed smoothness (mean of wt); sum of a2
	lossP      float64   // the probability of drawing a loss row, with rows of A
	xi, delta  float64   // the stage's penalty
	xiRaised   bool
	feas       feasibility // what phase one showed in this solve (lazyfeasibility.go)
	phase      lazyPhase
	catalyst   bool
	kind       lazyKind // svrg (with catalyst or not), apg, sgd or sgdm
	apg        lazyAPGState
	sgd        lazySGDState
	sgdm       lazySGDMState
	solved     bool // the last solve ended solved (a warm one keeps its stage)
	stages     int  // stages of the current solve
	// screening (gap-safe): rows of A proven inactive at x* are dropped
	// from the draws and take lhat = 0 in the certificate
	drop, bestDrop    []bool // bestDrop: as at the best certificate
	dropped           int
	pen               alias     // A's block of the draws, rebuilt when rows drop
	a2w               []float64 // its weights: a2, 0 where dropped
	screened, outside []int     // the answer's report (capacity m)

	w    []float64   // the iterate, in the bounds, as of the last epoch's end
	best []float64   // the snapshot of least certified gap
	st   []lazyCoord // by coordinate: the iterate within an epoch, and the epoch's constants
	// catalyst (kappa > 0; nil vectors without): the centre, the last
	// outer iterate and q - kappa zc, the linear term of h
	kappa, beta, cdelta float64
	zc, xPrev, qk       []float64
	tab                 []lazyRow // by row: its sampling table entry, label and snapshot slope
	pow                 []float64 // a^t, t = 0..min(epoch, 2l)
	mean                float64   // Lbar, the mean of the rows' smoothness
	r                   rng
	seed                uint64
	ahead               [lazyRing]lazyDraw // the rows drawn for steps at, ..., at+lazyAhead-1
	at                  int                // the next step, counted over every epoch since the seed
	cold                bool
	handedOver          bool  // Newton-CG finished the last solve (solveLazy); until reset
	steps               int64 // rows evaluated by the current solve
}

// lazyStallEpochs is the least number of epochs in which the gap has not
// halved (and the last half of its epochs, if more) after which a solve
// whose least gap is at most twice its rounding allowance ends with it:
// the iterates wander at the floor of the certificate, where the least
// gap still falls by its last bits. Above the floor the solve goes on: the
// gap of an iterate is not monotone in its objective, and catalyst's
// plateaus for tens of epochs on ill-conditioned problems before it falls.
const lazyStallEpochs = 10

// newLazySVRG prepares method (MethodSVRG, MethodCatalyst, with catalyst
// when kappa > 0, MethodAPG (lazyapg.go), MethodSGD (lazysgd.go) or,
// without l1 and bounds, MethodSGDM (lazysgdm.go)) for
// the problem of cert, which it uses as its certificate, with the
// options' seed and epoch; p's Lower and Upper are both nil or both of
// length n (as are later updates of lower and upper). It allocates
// everything a solve needs.
func newLazySVRG(p newtoncg.Problem, cert *newtoncg.Workspace, opt *Options, method Method) *lazySVRG {
	l, n := p.X.Rows, p.X.Cols
	z := &lazySVRG{x: p.X, loss: p.Loss, cert: cert, ridge: p.Ridge, ridge0: p.Ridge, l1: p.L1,
		lower: p.Lower, upper: p.Upper, q: p.Q, seed: opt.Seed, cold: true, opt: opt,
		l: l, ar: p.A, catalyst: method == MethodCatalyst, kind: kindOf(method)}
	if p.A != nil {
		z.m = p.A.Rows
	}
	comps := l + z.m // components of the sum
	z.epoch = svrgEpochComps * comps
	if z.sgdLike() {
		z.epoch = comps // as the dense SGD's check, once a pass
	} else if opt.SVRGEpoch > 0 {
		z.epoch = max(int(min(opt.SVRGEpoch*float64(comps), lazyMaxEpoch)), 1)
	}
	wt := make([]float64, l)
	fmax := p.Loss.MaxCurvature()
	for i := range wt {
		_, val := p.X.Row(i)
		for _, v := range val {
			wt[i] += v * v
		}
		wt[i] *= fmax
	}
	var rows alias
	rows.build(wt)
	z.lossL = rows.mean
	if z.m > 0 {
		z.wt = wt // setStage reweighs the loss rows
	}
	z.tab = make([]lazyRow, comps)
	for i := range l {
		z.tab[i] = lazyRow{prob: rows.prob[i], alias: rows.alias[i], y: p.Y[i]}
		if wt[i] > 0 {
			z.tab[i].scale = rows.mean / wt[i]
		}
	}
	if z.m > 0 {
		z.a2 = make([]float64, z.m)
		for k := range z.a2 {
			_, val := p.A.Row(k)
			z.a2[k] = vec.Dot(val, val)
			z.a2s += z.a2[k]
		}
		for k := range z.m {
			z.tab[l+k].y = p.B[k]
		}
		z.drop, z.bestDrop, z.a2w = make([]bool, z.m), make([]bool, z.m), make([]float64, z.m)
		z.screened, z.outside = make([]int, 0, z.m), make([]int, 0, z.m)
		z.drawTableA()
	}
	if z.catalyst {
		z.zc, z.xPrev, z.qk = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	z.w, z.best = make([]float64, n), make([]float64, n)
	z.st = make([]lazyCoord, n)
	for j := range z.st {
		z.st[j].last = -1
	}
	z.pow = make([]float64, min(z.epoch, 2*comps)+1)
	switch z.kind {
	case lazyAPG:
		z.pow = z.pow[:1] // its steps are full: no closed forms
		z.newAPG(rows.mean)
	case lazySGD:
		z.newSGD(wt)
	case lazySGDM:
		z.newSGD(wt)
		z.newSGDM()
	}
	z.setStep(z.lossL)
	return z
}

// setStep sets the step, catalyst's kappa and the tables that follow
// them for components of summed smoothness sumL (Lbar without rows of A).
func (z *lazySVRG) setStep(sumL float64) {
	z.mean = sumL
	switch {
	case z.kind == lazyAPG:
		z.setStepAPG(sumL)
		return
	case z.sgdLike():
		z.eta = z.sgdStep()
	case z.opt.StepScale > 0: // as the dense SVRG's (Options.StepScale)
		z.eta = z.opt.StepScale / (sumL + z.ridge0)
	case sumL > 0:
		z.eta = 1 / (svrgStepDiv * sumL)
	default:
		z.eta = 1 / z.ridge0 // no row has a slope: the steps only shrink
	}
	z.ridge, z.kappa = z.ridge0, 0
	if kappa := sumL/float64(max(z.l+z.m, 1)) - z.ridge0; z.catalyst && kappa > 0 {
		sq := math.Sqrt(z.ridge0 / (z.ridge0 + kappa))
		z.kappa, z.beta, z.cdelta = kappa, (1-sq)/(1+sq), sq/(2-sq)
		z.ridge += kappa
	}
	z.a = 1 / (1 + z.eta*z.ridge)
	z.pow[0] = 1
	for t := 1; t < len(z.pow); t++ {
		z.pow[t] = z.pow[t-1] * z.a
	}
	if z.kind == lazySGDM {
		z.setMomPowers()
	}
}

// drawTableA builds the rows of A's block of the draws over the rows not
// dropped, in proportion to ||a_k||^2, and their summed weight a2s.
func (z *lazySVRG) drawTableA() {
	z.a2s = 0
	for k, v := range z.a2 {
		z.a2w[k] = v
		if z.sgdLike() && v > 0 {
			z.a2w[k] = 1 // SGD draws uniformly, as the dense one (sampler)
		}
		if z.drop[k] {
			z.a2w[k] = 0
		}
		z.a2s += z.a2w[k]
	}
	z.pen.build(z.a2w)
	for k := range z.m {
		z.tab[z.l+k].prob, z.tab[z.l+k].alias = z.pen.prob[k], z.l+z.pen.alias[k]
	}
}

// screenRows drops the rows of A that the last certificate, of gap gap
// at x with largest violation viol, proves inactive at x* (the gap-safe
// rule, screen.GapSafeThreshold: ||x - x*|| <= rho = sqrt(2 gap / ridge),
// so a_k'x - b_k < -rho ||a_k|| gives a_k'x* < b_k), readmits a dropped
// row that x violates, and reports whether a row was dropped or
// readmitted. The ball holds without condition only at a point that meets
// the rows (F(x) - F* <= gap there); elsewhere it needs xr >= ||lambda*||,
// which nothing certifies (a point outside, with lambda* = 50 and xi = 1,
// dropped an active row at its first epoch). So the rule screens only at
// points whose computed residuals are all <= 0 and whose multipliers do
// not saturate xi. A dropped row is not drawn again (unless readmitted),
// and the certificate takes lhat = 0 on it, so the steps and the
// smoothness (the step) are those of the rows that remain; its violation
// stays in the certificate. Each row's residual is taken with its
// rounding, gamma (|a_k|'|x| + |b_k|).
func (z *lazySVRG) screenRows(x []float64, gap, viol float64) bool {
	r := z.cert.Residuals()
	changed := false
	for k, rk := range r {
		if z.drop[k] && rk > 0 && z.a2[k] > 0 {
			z.drop[k], changed = false, true
			z.dropped--
		}
	}
	thr := screen.GapSafeThreshold(gap, z.ridge0)
	if z.opt.Screen != ScreenNone && viol <= 0 && z.lamMax() < saturated*z.xi && !math.IsInf(thr, -1) {
		for k, rk := range r {
			if z.drop[k] || !(rk < thr*math.Sqrt(z.a2[k])) {
				continue
			}
			idx, val := z.ar.Row(k)
			size := math.Abs(z.tab[z.l+k].y)
			for q, j := range idx {
				size += math.Abs(val[q] * x[j])
			}
			if rk+vec.DotErrorBound(len(idx)+1)*size < thr*math.Sqrt(z.a2[k]) {
				z.drop[k], changed = true, true
				z.dropped++
			}
		}
	}
	if changed {
		z.drawTableA()
		z.setStage(z.xi, z.delta)
	}
	return changed
}

// report sorts the dropped rows, at the answer (the point of the last
// certificate, with gap gap and largest violation viol), into those the
// gap-safe test proves inactive there (screened) and the others
// (outside), as the dense path's screenFinal.
func (z *lazySVRG) report(gap, viol float64) {
	z.screened, z.outside = z.screened[:0], z.outside[:0]
	rho := math.Inf(1)
	if viol <= 0 {
		rho = math.Sqrt(2 * gap / z.ridge0)
	}
	for k, rk := range z.cert.Residuals() {
		switch {
		case !z.drop[k]:
		case rk < -rho*math.Sqrt(z.a2[k]):
			z.screened = append(z.screened, k)
		default:
			z.outside = append(z.outside, k)
		}
	}
}

// setStage makes (xi, delta) the penalty of the rows of A: the draw's
// split between the loss rows and the rows of A, the estimator's weights
// and the step follow the stage's smoothness.
func (z *lazySVRG) setStage(xi, delta float64) {
	z.xi, z.delta = xi, delta
	switch z.kind {
	case lazyAPG:
		z.setStageAPG()
		return
	case lazySGD, lazySGDM:
		z.setStageSGD()
	default:
		z.setStageSVRG()
	}
	if !z.cold { // a cold solve draws them after this, once seeded (startDraws)
		z.redrawAhead()
	}
}

// setStageSVRG is setStage's split, weights and step for SVRG: in
// proportion to the components' smoothness.
func (z *lazySVRG) setStageSVRG() {
	xi, delta := z.xi, z.delta
	penL := xi / (4 * delta) * z.a2s
	sumL := z.lossL + penL
	z.lossP = z.lossL / sumL
	for i, w := range z.wt {
		if w > 0 {
			z.tab[i].scale = sumL / w
		}
	}
	for k, v := range z.a2 {
		if v > 0 {
			z.tab[z.l+k].scale = sumL * 4 * delta / (xi * v)
		}
	}
	z.setStep(sumL)
}

// redrawAhead draws again the rows of the steps to come, which were drawn
// under the last stage's split and tables (startDraws' sequence, from the
// generator's present state).
func (z *lazySVRG) redrawAhead() {
	for s := z.at; s < z.at+lazyAhead; s++ {
		z.draw(s)
	}
	for s := z.at; s < z.at+lazyAhead-1; s++ {
		z.resolve(s)
	}
}

// powA returns a^t: from the table, or beyond it (an epoch longer than
// 2l, Options.SVRGEpoch) by math.Pow.
func (z *lazySVRG) powA(t int) float64 {
	if t < len(z.pow) {
		return z.pow[t]
	}
	return math.Pow(z.a, float64(t))
}

// prox is the regulariser's prox at v for coordinate j.
func (z *lazySVRG) prox(v float64, j int) float64 {
	if z.l1 != 0 {
		v = newtoncg.SoftThreshold(v, z.eta*z.l1)
	}
	return z.clip(z.a*v, j)
}

// advance returns w_j, x, after d steps that do not touch j, each
// x <- clip(U(x)), U(x) = a soft(x - eta c_j, eta l1). U is nondecreasing
// and a contraction, so the unclipped iterates move monotonically towards
// its fixed point; U is affine on each side of the soft threshold's dead
// zone and 0 inside it, so the path crosses from one piece to the next at
// most twice and the d steps take a few closed forms, x_t = f + a^t (x - f)
// with f the piece's fixed point. An iterate clipped at a bound stays
// there (the path keeps moving outwards), so the clip is applied once, at
// the end.
func (z *lazySVRG) advance(x float64, st *lazyCoord, j, d int) float64 {
	c, k := st.c, z.eta*z.l1
	if k == 0 { // no dead zone: U is affine everywhere, fixed point -c/ridge
		f := st.fix
		return z.clip(f+z.powA(d)*(x-f), j)
	}
	for d > 0 {
		v := x - z.eta*c
		var beta, f float64 // the piece's lower (upper) end and fixed point
		switch {
		case v > k: // U(x) = a (x - eta (c + l1)) while x > beta
			beta, f = z.eta*c+k, -(c+z.l1)/z.ridge
			if f > beta {
				return z.clip(f+z.powA(d)*(x-f), j)
			}
		case v < -k:
			beta, f = z.eta*c-k, -(c-z.l1)/z.ridge
			if f < beta {
				return z.clip(f+z.powA(d)*(x-f), j)
			}
		default: // the dead zone: one step to 0
			x, d = 0, d-1
			if math.Abs(z.eta*c) <= k { // and 0 stays
				return z.clip(0, j)
			}
			continue
		}
		// The path leaves the piece at the first t with a^t <= rho.
		rho := (beta - f) / (x - f)
		s := z.firstPowBelow(rho, d)
		if s > d {
			return z.clip(f+z.powA(d)*(x-f), j)
		}
		x, d = f+z.powA(s)*(x-f), d-s
	}
	return z.clip(x, j)
}

// firstPowBelow returns the least t in [1, d] with a^t <= rho, or d + 1.
func (z *lazySVRG) firstPowBelow(rho float64, d int) int {
	lo, hi := 1, d+1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if z.powA(mid) <= rho {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// clip projects x onto coordinate j's bounds.
func (z *lazySVRG) clip(x float64, j int) float64 {
	if z.lower == nil {
		return x
	}
	return min(max(x, z.lower[j]), z.upper[j])
}

// runEpoch takes one epoch of steps from the snapshot whose slopes and
// mu + q are in snap and st[j].c, and leaves every w_j up to date (in st
// and in w).
//
// On data larger than the caches a step would wait on a chain of misses:
// the sampling table's entry, the row's place in the matrix, its indices
// and values, then its coordinates' state, each read needing the one
// before. So a row is drawn lazyAhead steps before it is taken, and each
// step prefetches one link further of the chains of the rows to come
// (vec.Prefetch): their misses overlap with the work of the present step.
// The rows drawn, and the order of the generator's draws, are those of
// drawing each row at its own step; only the time of the draws moves.
func (z *lazySVRG) runEpoch() {
	e0 := z.at
	z.runSteps(e0, z.epoch)
	z.catchUp(e0, false)
	z.steps += int64(z.epoch)
}

// runSteps takes count steps of the epoch whose first step was e0
// (SGDM's rows by sgdmRow).
func (z *lazySVRG) runSteps(e0, count int) {
	for range count {
		s := z.at
		z.at++
		z.draw(s + lazyAhead)
		z.resolve(s + lazyAhead - 1)
		z.prefetchRow(s + 2)
		if len(z.st) > lazyPrefetchCoordsMin {
			z.prefetchCoords(s + 1)
		}

		i := z.ahead[s%lazyRing].row
		if z.kind == lazySGDM {
			z.sgdmRow(s, e0, i)
			continue
		}
		idx, val := z.row(i)
		var t float64
		for q, jj := range idx {
			j := int(jj)
			st := &z.st[j]
			// w_j is current through step max(last, e0-1): the last
			// epoch's end brought every coordinate up to it.
			if d := s - 1 - max(st.last, e0-1); d > 0 {
				st.w = z.advance(st.w, st, j, d)
			}
			t += val[q] * st.w
		}
		g := z.slope(i, t)
		for q, jj := range idx {
			j := int(jj)
			st := &z.st[j]
			st.w = z.prox(st.w-z.eta*(st.c+g*val[q]), j)
			st.last = s
		}
	}
}

// slope is component i's scalar of the step's estimate at phi_i'x = t
// (its row's coefficient): less the snapshot's, times the estimator's
// weight.
func (z *lazySVRG) slope(i int, t float64) float64 {
	row := &z.tab[i]
	if i < z.l {
		return (z.loss.Slope(t, row.y) - row.snap) * row.scale
	}
	// a row of A, with b_k in y
	return (z.xi*softplus.Sigmoid((t-row.y)/z.delta) - row.snap) * row.scale
}

// catchUp brings every coordinate up to date through the last step taken
// (of the epoch whose first step was e0), in st and in w. Within an
// epoch (mid) it marks them current there (last); at its end the next
// epoch's first step says so, and last keeps the step of the last row
// that moved the coordinate.
func (z *lazySVRG) catchUp(e0 int, mid bool) {
	end := z.at - 1
	mom := z.sgdm.mom // SGDM's: its catch-up takes the momentum along
	for j := range z.st {
		st := &z.st[j]
		if d := end - max(st.last, e0-1); d > 0 {
			if mom != nil {
				st.w, mom[j] = z.advanceMom(st.w, mom[j], st.fix, d)
			} else {
				st.w = z.advance(st.w, st, j, d)
			}
			if mid {
				st.last = end
			}
		}
		z.w[j] = st.w
	}
}

// lazyCoord is what a step reads and writes of a coordinate, in one place
// (32 bytes, two to a cache line): on more coordinates than the caches
// hold, a coordinate kept in four slices took four misses.
type lazyCoord struct {
	w    float64 // the iterate's coordinate, current through step max(last, the epoch's first - 1)
	c    float64 // mu_j + q_j at the epoch's snapshot (mu + qk with catalyst)
	fix  float64 // -c / ridge: without l1, the fixed point of the untouched steps
	last int     // the step (counted since the seed) at which a row last moved w (or SGD brought it current within an epoch: catchUp)
}

// source returns the matrix that holds component i (a row of Phi, or
// with i >= l row i - l of A) and its row there.
func (z *lazySVRG) source(i int) (*mat.Sparse, int) {
	if i < z.l {
		return z.x, i
	}
	return z.ar, i - z.l
}

// row returns component i's indices and values.
func (z *lazySVRG) row(i int) ([]int32, []float64) {
	m, k := z.source(i)
	return m.Row(k)
}

// prefetchRow prefetches the indices and values of step s's row: their
// ends and middle, which with the processor's own prefetch of the next
// line cover a row of tens of nonzeros (a longer row is read in order,
// which its prefetcher follows).
func (z *lazySVRG) prefetchRow(s int) {
	m, i := z.source(z.ahead[s%lazyRing].row)
	lo, hi := m.Ptr[i], m.Ptr[i+1]
	vec.Prefetch(m.Idx, lo)
	vec.Prefetch(m.Idx, hi-1)
	vec.Prefetch(m.Val, lo)
	vec.Prefetch(m.Val, (lo+hi)/2)
	vec.Prefetch(m.Val, hi-1)
}

// prefetchCoords prefetches the state of step s's coordinates.
func (z *lazySVRG) prefetchCoords(s int) {
	idx, _ := z.row(z.ahead[s%lazyRing].row)
	for _, j := range idx {
		vec.Prefetch(z.st, int(j))
	}
	if mom := z.sgdm.mom; mom != nil {
		for _, j := range idx {
			vec.Prefetch(mom, int(j))
		}
	}
}

// lazyPrefetchCoordsMin is the number of coordinates above which a step
// prefetches the next row's coordinates: below it their state (32 bytes
// each) stays in the second-level cache, and the prefetches only cost
// their calls (BenchmarkLazySVRGStep: 15% slower at n = 1e3, 1.5 to 1.8
// times faster at n = 1e6).
const lazyPrefetchCoordsMin = 1 << 13

// lazyAhead is how many steps before it is taken a row is drawn: a step
// each for its table entry, its place in the matrix, and its indices and
// values, and one for the prefetches to land. lazyRing, a power of two
// above it, is the length of the ring of drawn rows.
const (
	lazyAhead = 4
	lazyRing  = 8
)

// lazyDraw is a row drawn for a step to come: the alias method's uniform
// index and uniform number, then the row they pick (resolve).
type lazyDraw struct {
	row int
	u   float64
}

// startDraws seeds the generator and draws the rows of the first
// lazyAhead steps, resolving all but the last, as runEpoch's steps leave
// them.
func (z *lazySVRG) startDraws() {
	z.r.seed(z.seed)
	z.at = 0
	for j := range z.st {
		z.st[j].last = -1
	}
	for s := 0; s < lazyAhead; s++ {
		z.draw(s)
	}
	for s := 0; s < lazyAhead-1; s++ {
		z.resolve(s)
	}
}

// draw draws step s's row as alias.sample's first half does (a uniform
// index, then a uniform number) and prefetches the index's table entry.
// With rows of A a first uniform number picks the loss rows (with
// probability lossP: taken this way round, the loss rows keep their share
// when A's smoothness dwarfs theirs) or A's, each with its own alias table.
func (z *lazySVRG) draw(s int) {
	d := &z.ahead[s%lazyRing]
	if z.m > 0 && z.r.float() >= z.lossP {
		d.row = z.l + z.r.intn(z.m)
	} else {
		d.row = z.r.intn(z.l)
	}
	d.u = z.r.float()
	vec.Prefetch(z.tab, d.row)
}

// resolve picks step s's row as alias.sample's second half does (the
// index, or its alias) and prefetches the row's table entry and its place
// in the matrix.
func (z *lazySVRG) resolve(s int) {
	d := &z.ahead[s%lazyRing]
	if d.u >= z.tab[d.row].prob {
		d.row = int(z.tab[d.row].alias)
	}
	vec.Prefetch(z.tab, d.row)
	m, i := z.source(d.row)
	vec.Prefetch(m.Ptr, i)
}

// lazyRow is what a step reads of the row it draws, in one place: on data
// larger than the caches a step is bound by the latency of its random
// reads, and the sampling table, the label and the snapshot's slope of a
// row kept in separate slices took a miss each.
type lazyRow struct {
	prob, y, snap float64 // alias table's probability; label; f_i'(phi_i'x~)
	scale         float64 // Lbar / L_i: 1/(l p_i), the estimator's weight
	alias         int
}

// lazyResult is what a solve of lazySVRG returns.
type lazyResult struct {
	status     newtoncg.Status
	x, zb      []float64 // the answer (best) and its bounds' multipliers
	lambda     []float64 // with rows of A: the multipliers the gap was made with
	farkas     []float64 // status Infeasible: y >= 0 that proves the rows of A infeasible
	objective  float64
	gap        float64
	viol       float64 // the answer's largest violation of a row of A
	xi         float64 // the penalty of the answer's certificate
	iterations int     // epochs
	plateau    bool    // status Stopped: no smaller gap for lazyPlateauEpochs
	saturated  bool    // status Stalled: the multipliers saturate xi at xiMax
	handover   bool    // Newton-CG is to finish from x (see nextStage)
	violated   bool    // status Stopped: the gap meets Tol, but x violates rows beyond rounding
}

// lazyPlateauEpochs is the least number of epochs without any smaller
// certified gap (and the last half of the epochs, if more) after which a
// solve ends above the certificate's floor, as if its step budget had run
// out (an iteration limit, as newtoncg's MaxIter): a safety net for a
// plateau the iterates cannot leave. It must outlast catalyst's swings: where
// kappa dwarfs the ridge its momentum is near 1 (two rows, ridge 1e-3:
// beta = 0.88) and F's gap rises and falls over hundreds of epochs (a
// window of 100 ended such a solve, which certifies after 286). With rows
// of A the epochs count from the last change of the penalty's stage: a
// larger xi raises the gap. Newton-CG then finishes from the best point
// (res.handover; unless Options.NoPolish).
const lazyPlateauEpochs = 1000

// lazyMaxEpoch caps an epoch's steps (Options.SVRGEpoch times l).
const lazyMaxEpoch = 1 << 40

// solve runs epochs from the last answer (from 0, projected, when cold)
// until the certified gap is at most tol max(1, |F|) (and, with rows of
// A, each row holds to tol relative to its terms, as newtoncg's Solve
// asks), stop says so (it is given the rows evaluated so far), the gap
// stalls at the certificate's floor (status Stalled, lazyStallEpochs), or
// on a plateau above it (status Stopped, lazyPlateauEpochs). progress sees
// each epoch's index, the rows evaluated and the least gap so far. It
// allocates nothing (but for a Farkas certificate's exact sum, and phase
// one's workspace the first time it runs).
func (z *lazySVRG) solve(tol float64, stop func(steps int64) bool, progress func(epoch int, steps int64, gap float64)) lazyResult {
	if z.m > 0 {
		z.startRows()
	}
	z.start()
	pass := int64(z.l + z.m) // the rows of a certificate's pass
	res := lazyResult{status: newtoncg.Stalled, x: z.best, gap: math.Inf(1)}
	since, bestAllow, bestAt, staged := 0, 0.0, 0, 0
	stageViol, stageEp := 0.0, 0 // the stage's first violation and epoch
	// the stage's least own gap and when it fell last: a stage's
	// constrained gap is floored by the penalty's bias, so progress
	// within it shows in its own gap (without rows of A the two are one)
	stageInner, innerAt := math.Inf(1), 0
	bestXi, bestDelta, bestRel := 0.0, 0.0, 0.0
	mark := math.Inf(1) // the gap when it last halved, since certificates ago
	for k, ep := 0, 0; ; k++ {
		at := z.answer()
		f, inner, gap, viol, rel := z.certify(at, z.xi, z.delta)
		z.steps += 2 * pass // the certificate's two passes
		if gap < res.gap {
			copy(z.best, at)
			res.gap, res.objective, res.zb, res.viol = gap, f, z.cert.Multipliers(), viol
			bestAllow, bestAt, bestXi, bestDelta, bestRel = z.cert.Allowance(), k, z.xi, z.delta, rel
			copy(z.bestDrop, z.drop)
		}
		if k == staged {
			stageInner = math.Inf(1)
		}
		if inner < stageInner {
			stageInner, innerAt = inner, k
		}
		if progress != nil {
			progress(ep, z.steps, res.gap)
		}
		if gap <= mark/2 {
			mark, since = gap, 0
		} else {
			since++
		}
		res.iterations = ep
		switch {
		case meetsTol(res.gap, res.objective, tol) && bestRel <= tol:
			res.status = newtoncg.Solved
			if res.viol > 0 && !z.cert.MeetsRows(res.x) {
				// The rows hold to Tol of their terms, not to rounding:
				// its gap holds only if xi bounds the multipliers, which
				// nothing proves, so Newton-CG, whose answers meet them,
				// finishes (the dense path's exact finish does the same).
				res.status, res.violated = newtoncg.Stopped, true
				res.handover = !z.opt.NoPolish
			}
		case stop != nil && stop(z.steps):
			res.status = newtoncg.Stopped
		case since >= max(lazyStallEpochs, k/2) && res.gap <= 2*bestAllow:
			res.status = newtoncg.Stalled // at the certificate's floor
		case k-max(bestAt, staged, innerAt) >= max(lazyPlateauEpochs, (k-staged)/2):
			res.status, res.plateau = newtoncg.Stopped, true
			res.handover = !z.opt.NoPolish
		default:
			if k == staged {
				stageViol, stageEp = viol, ep
			}
			if z.m > 0 && z.screenRows(at, gap, viol) {
				continue // certify again, with the rows dropped or readmitted
			}
			// A stage ends at its own optimum, or saturated near it with a
			// violation that does not fall (see saturated).
			if z.m > 0 && (inner <= (gap-inner)/10 || inner <= 2*z.cert.Allowance() ||
				(ep-stageEp >= lazyStallEpochs && viol > stageViol/2 && inner <= gap-inner && viol > z.delta && z.saturated())) {
				changed, end := z.nextStage(&res, stop)
				if end {
					break
				}
				if changed {
					z.stages++
					staged = k + 1
					if z.kappa > 0 {
						copy(z.zc, z.w)
						copy(z.xPrev, z.w)
					}
					continue // certify again, at the new stage
				}
			}
			z.snapshot()
			z.step()
			ep++
			continue
		}
		z.finish(&res, bestAt != k, bestXi, bestDelta)
		return res
	}
}

// start sets the solve's first point: 0 when cold (the generator seeded
// and the first rows drawn), else the last answer, in the bounds; and the
// state of catalyst, APG and SGD that follows it. The stage is set
// before it: the rows drawn ahead follow its split.
func (z *lazySVRG) start() {
	if z.cold {
		clear(z.w)
		z.startDraws()
	} else {
		copy(z.w, z.best)
	}
	for j := range z.w {
		z.w[j] = z.clip(z.w[j], j)
	}
	copy(z.best, z.w) // the answer until a snapshot has a gap
	z.steps = 0
	z.cold, z.solved = false, false
	if z.kappa > 0 {
		copy(z.zc, z.w)
		copy(z.xPrev, z.w)
	}
	z.apg.restart = true
	z.sgd.navg, z.sgd.done = 0, 0
	clear(z.sgdm.mom)
}

// step takes the method's steps between two certificates, from the
// snapshot: an epoch of SVRG, an APG step, or a pass of SGD.
func (z *lazySVRG) step() {
	switch z.kind {
	case lazyAPG:
		z.apgStep()
	case lazySGD, lazySGDM:
		z.sgdEpoch()
	default:
		z.runEpoch()
	}
}

// answer is the point the next certificate is taken at: the iterate, or
// with SGD the stage's average once it has begun.
func (z *lazySVRG) answer() []float64 {
	if z.sgdLike() && z.sgd.navg > 0 {
		return z.sgd.avg
	}
	return z.w
}

// startRows prepares the rows of A for a solve: every solve screens
// afresh (updates between solves void the proofs), and its first stage
// is set before the rows are drawn ahead, which follow its split.
func (z *lazySVRG) startRows() {
	// Every solve screens afresh: updates between solves void the
	// proofs. An empty row with b >= 0 holds at every x and is
	// dropped at once: its multiplier xi sigmoid(-b/delta) would
	// otherwise count as a row's (lamMax) and keep xi from falling.
	clear(z.drop)
	z.dropped = 0
	for k, v := range z.a2 {
		if v == 0 && z.tab[z.l+k].y >= 0 {
			z.drop[k] = true
			z.dropped++
		}
	}
	z.drawTableA()
	z.stages = 1
	// A warm solve after a solved one goes on from its last stage: its
	// penalty fitted the answer it starts from.
	xi, delta := z.xi, z.delta
	if z.cold || !z.solved {
		xi = z.opt.Xi
		if xi == 0 {
			xi = defaultXi
		}
		delta = firstDeltaOf(z.opt, xi, z.ridge0) // the dense path's, with the ridge as mu
	}
	z.xiRaised, z.feas = false, undecided
	z.setStage(xi, delta)
}

// finish completes res, the answer of a solve: with again (the answer's
// certificate is not the last one, or no certificate had a gap) it
// certifies the answer again, at its stage (xi, delta) and with the rows
// dropped as then, so that the multipliers reported are those its gap
// was made with; then the rows of A's report.
func (z *lazySVRG) finish(res *lazyResult, again bool, xi, delta float64) {
	if res.zb == nil || again {
		// Multipliers() is that of the last certificate; recompute it at
		// the answer when that was an earlier snapshot, or, when no
		// snapshot had a gap (the certificate overflowed), at the start,
		// whose objective is then the answer's.
		if res.zb == nil {
			xi, delta = z.xi, z.delta
			copy(z.bestDrop, z.drop)
		}
		copy(z.drop, z.bestDrop)
		f, _, _, viol, _ := z.certify(z.best, xi, delta)
		z.steps += 2 * int64(z.l+z.m)
		if res.zb == nil {
			res.objective, res.viol = f, viol
		}
		res.zb = z.cert.Multipliers()
	}
	if z.m > 0 {
		res.lambda = z.cert.PenaltySlopes()
		res.xi = xi
		z.report(res.gap, res.viol)
	}
	z.dropped = 0
	for _, d := range z.drop {
		if d {
			z.dropped++
		}
	}
	z.solved = res.status == newtoncg.Solved
}

// certify certifies x (newtoncg's Certify, or CertifyPenalty at (xi,
// delta) with rows of A): F(x), the gap of the stage's problem, the
// certified gap, and the largest violation, absolute and relative.
func (z *lazySVRG) certify(x []float64, xi, delta float64) (f, inner, gap, viol, rel float64) {
	if z.ar == nil {
		f, gap = z.cert.Certify(x)
		return f, gap, gap, 0, 0
	}
	return z.cert.CertifyPenalty(x, xi, delta, z.drop)
}

// nextStage moves the penalty on at the end of a stage, as the dense
// path's schedule: xi up (xiRaise) if the last certificate's multipliers
// saturate it, else delta down by Options.Eta, with xi lowered when the
// multipliers stay far below it (lowerXi's rule, schedule.go). Asked
// within a stage, that rule misreads the multipliers: the point is still
// that of the larger xi, and its multipliers at the lower one are far
// below lambda* (500 Zipf rows on mushrooms: xi fell from 1 to 2.4e-4 in
// two epochs, saturated, and was raised back to 0.25). Past xiPhaseOne,
// before xi is raised, phase one asks whether any x meets the rows
// (lazyfeasibility.go; stop is the solve's budget), as the dense path's
// raiseXi. Unless it proves them infeasible (or Options.NoPolish), the
// solve then ends for Newton-CG to finish from the best point
// (res.handover), as the dense path's stages end in the exact engine:
// multipliers saturated past xiPhaseOne mean an iterate far out, which
// the penalty brings in by O(delta) a step (lazyfeasibility.go; rows 1 <=
// x_0 - x_1 <= 1.25 with q = (-1e3, 0) took 4500 epochs at xi = 4096 to
// come from 957 out to 148, and q = -1e5 never came in within 12M
// steps). With NoPolish, xi is raised on; past xiInfeasible,
// saturated multipliers are tried as a Farkas certificate. It reports
// whether the stage changed, and end when the solve ends here (res's
// status set: Infeasible, Stopped for the handover, or Stalled at xiMax).
func (z *lazySVRG) nextStage(res *lazyResult, stop func(int64) bool) (changed, end bool) {
	xi, delta := z.xi, z.delta
	switch {
	case z.saturated():
		if xi >= xiPhaseOne && z.feas != feasible {
			if z.feas = z.phaseOne(res, stop); z.feas == infeasible {
				res.status = newtoncg.Infeasible
				return false, true
			}
		}
		if xi >= xiPhaseOne && !z.opt.NoPolish {
			res.status, res.handover = newtoncg.Stopped, true
			return false, true
		}
		if xi >= xiInfeasible {
			if y, ok := z.cert.FarkasFromSlopes(); ok {
				res.status, res.farkas = newtoncg.Infeasible, y
				return false, true
			}
			if xi >= xiMax {
				res.status, res.saturated = newtoncg.Stalled, true
				return false, true
			}
		}
		xi *= xiRaise
		z.xiRaised = true
	case !z.opt.Static && delta >= minDelta:
		delta /= z.shrink()
		if lm := z.lamMax(); !z.opt.FixedXi && !z.xiRaised && lm*xiLowerGap < xi {
			xi = max(lm*xiLowerTo, xi/xiLowerMax)
		}
	default:
		return false, false
	}
	z.setStage(xi, delta)
	return true, false
}

// lamMax is the largest multiplier of the last certificate.
func (z *lazySVRG) lamMax() float64 {
	var lm float64
	for _, l := range z.cert.PenaltySlopes() {
		lm = max(lm, l)
	}
	return lm
}

// saturated reports whether the last certificate's multipliers saturate
// xi (and xi may be raised): a row violated by more than delta ln 99, far
// beyond what the smoothing explains. A stage whose violation has not
// halved in lazyStallEpochs epochs with xi saturated, and whose own gap is
// at most the constraints' part of the certificate, ends there without
// waiting for its own gap to reach a tenth of it: a saturated penalty's
// worst-case smoothness xi ||a||^2/(4 delta) sets the step, but its
// curvature there is that of the sigmoid's tail, so the stage's gap falls
// by a hair an epoch (rows x_0 <= -1, -x_0 <= -1 took up to 200 epochs a
// stage, and at xi = 2.7e8 did not end one in 1000; now they are proved
// infeasible in 32). Without the second condition the rule raised xi
// every ten epochs on feasible rows far from their answer: a larger xi
// does not move a saturated row faster, since the step shrinks with it
// (300 rows with b = -0.05, lambda* = 1.96: xi reached 1.8e16).
func (z *lazySVRG) saturated() bool {
	return !z.opt.FixedXi && z.lamMax() >= saturated*z.xi
}

// shrink is Options.Eta, the factor delta shrinks by a stage.
func (z *lazySVRG) shrink() float64 {
	if z.opt.Eta > 0 {
		return z.opt.Eta
	}
	return defaultEta
}

// snapshot makes the point of the last certificate the next epoch's
// snapshot: its slopes (and the rows of A's), and c = mu + q (mu + q - kappa zc with catalyst,
// whose centre moves first if (C2) holds there).
func (z *lazySVRG) snapshot() {
	if z.sgdLike() {
		z.snapshotSGD()
		return
	}
	for i, a := range z.cert.Slopes() {
		z.tab[i].snap = a
	}
	var sA []float64
	if z.m > 0 {
		for k, v := range z.cert.PenaltySlopes() {
			z.tab[z.l+k].snap = v
		}
		sA = z.cert.PenaltySums()
	}
	if z.kappa > 0 {
		z.centre()
		// (C2), or h's gap at its own floor: the rounding allowance of h's
		// gap, (ridge + kappa)/ridge times F's, would otherwise hold the
		// centre still once x is near it, and F's gap on a plateau above
		// its floor.
		if hg, ha := z.cert.GapWith(z.ridge, z.qk); hg <= z.cdelta*z.kappa/2*sqDist(z.w, z.zc) || hg <= 2*ha {
			for j, wj := range z.w {
				z.zc[j] = wj + z.beta*(wj-z.xPrev[j])
			}
			copy(z.xPrev, z.w)
			z.centre()
		}
	}
	il := 1 / float64(z.x.Rows)
	for j, sj := range z.cert.Sums() {
		c := sj * il
		if sA != nil {
			c += sA[j]
		}
		switch {
		case z.kappa > 0:
			c += z.qk[j]
		case z.q != nil:
			c += z.q[j]
		}
		// w as Certify saw it: solve may have moved it since the last
		// epoch (a start, a clip).
		z.st[j].w, z.st[j].c, z.st[j].fix = z.w[j], c, -c/z.ridge
	}
}

// centre sets qk = q - kappa zc, the linear term of catalyst's h.
func (z *lazySVRG) centre() {
	for j, c := range z.zc {
		z.qk[j] = -z.kappa * c
		if z.q != nil {
			z.qk[j] += z.q[j]
		}
	}
}

// sqDist returns ||a - b||^2.
func sqDist(a, b []float64) float64 {
	var s float64
	for j, v := range a {
		d := v - b[j]
		s += d * d
	}
	return s
}

// setB makes b the right-hand side of the rows of A (their table
// entries' y; the certificate reads its own copy).
func (z *lazySVRG) setB(b []float64) {
	for k, v := range b {
		z.tab[z.l+k].y = v
	}
}

// reset makes the next solve start cold.
func (z *lazySVRG) reset() { z.cold, z.handedOver = true, false }

// lazyKind is the method lazySVRG runs between its certificates.
type lazyKind int

const (
	lazySVRGKind lazyKind = iota // proximal SVRG, with catalyst or not
	lazyAPG                      // accelerated proximal gradient (lazyapg.go)
	lazySGD                      // proximal SGD, averaged (lazysgd.go)
	lazySGDM                     // SGD with Nesterov momentum, averaged (lazysgdm.go)
)

// sgdLike reports whether the kind runs SGD's passes, stages and
// averages (lazysgd.go): SGD and SGDM.
func (z *lazySVRG) sgdLike() bool { return z.kind == lazySGD || z.kind == lazySGDM }

// kindOf is the lazyKind that runs method.
func kindOf(method Method) lazyKind {
	switch method {
	case MethodAPG:
		return lazyAPG
	case MethodSGD:
		return lazySGD
	case MethodSGDM:
		return lazySGDM
	}
	return lazySVRGKind
}
