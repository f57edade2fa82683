package solver

// Proximal SGD on sparse rows, in lazySVRG's solve: lazy SVRG with no
// control variate. A step on row i is
//
//	x <- prox(x - eta (q + f_i'(phi_i'x) phi_i / (N p_i))),
//
// so a coordinate outside the row takes x_j <- prox(x_j - eta q_j), the
// closed form of lazySVRG.advance with c_j = q_j: the snapshot's slopes
// are 0 and runEpoch's steps and catch-ups are SVRG's. As the dense SGD
// (runSGD, sampler): components are drawn uniformly (a loss row with
// probability l/N, N = l + the rows of A not screened out, each row of A
// with 1/N), the step is 1/(Lc + ridge) (Options.StepScale: StepScale/(Lc
// + ridge)), Lc the largest component smoothness, f''max ||phi_i||^2 N/l
// or N xi ||a_k||^2/(4 delta); a stage ends after sgdStageMixings mixing
// times 1/(eta ridge) (or at the penalty's change of stage), and its
// answer is the average of its iterates from half a mixing time on
// (Polyak-Ruppert; Options.LastIterate: none), one in sgdAverageEvery
// steps as the dense SGD's, or one in n/(mean nonzeros of a row) where
// that is more: each takes every coordinate brought up to date, O(n). An
// epoch is a pass, N steps; its certificate is taken at the average once
// it has begun. Options.StageMult is not read here.

// lazySGDState is SGD's state beyond lazySVRG's.
type lazySGDState struct {
	avg         []float64 // the stage's average
	navg        int       // iterates in it
	done        int64     // the stage's steps
	from, limit int64     // the step the average starts at, the stage's last
	every       int       // the steps between two iterates averaged
	wMax, a2Max float64   // the largest f''max ||phi_i||^2 and ||a_k||^2
}

// newSGD makes the loss rows' draws uniform and allocates SGD's state;
// wt holds f”max ||phi_i||^2.
func (z *lazySVRG) newSGD(wt []float64) {
	z.sgd.avg = make([]float64, len(z.w))
	z.lossP = 1
	for i, w := range wt {
		z.sgd.wMax = max(z.sgd.wMax, w)
		z.tab[i].prob, z.tab[i].alias, z.tab[i].scale = 1, i, 1
	}
	for _, v := range z.a2 {
		z.sgd.a2Max = max(z.sgd.a2Max, v)
	}
	nnz := z.x.NNZ()
	if z.ar != nil {
		nnz += z.ar.NNZ()
	}
	perRow := max(nnz/(z.l+z.m), 1)
	z.sgd.every = max(sgdAverageEvery, (len(z.w)+perRow-1)/perRow)
}

// setStageSGD is setStage for SGD: the split l/N of the draws, the
// estimator's weights N/l and N, the step, and a new stage's average.
func (z *lazySVRG) setStageSGD() {
	kept := z.a2s // drawTableA's weights are 1 a row drawn
	n := float64(z.l) + kept
	z.lossP = float64(z.l) / n
	for i := range z.l {
		z.tab[i].scale = 1 / z.lossP
	}
	for k := range z.m {
		z.tab[z.l+k].scale = n
	}
	z.setStep(0)
	z.sgdRestart()
}

// sgdStep returns SGD's step (SGDM's: 1 - beta times it, unless
// StepScale), and sets the stage's averaging start and step limit from
// its mixing time (as the dense sgdSteps and sgdLimit).
func (z *lazySVRG) sgdStep() float64 {
	lc := z.sgd.wMax / z.lossP
	if z.m > 0 && z.a2s > 0 && z.delta > 0 { // delta is 0 until the first stage
		lc = max(lc, (float64(z.l)+z.a2s)*z.xi/(4*z.delta)*z.sgd.a2Max)
	}
	scale := 1 - z.sgdm.beta // 1 for SGD; SGDM's effective step is SGD's (sgdSteps)
	if z.opt.StepScale > 0 {
		scale = z.opt.StepScale
	}
	eta := scale / (lc + z.ridge0)
	mixing := min((1-z.sgdm.beta)/(eta*z.ridge0), 1<<52)
	z.sgd.limit = max(int64(sgdStageMixings*mixing), int64(z.epoch))
	z.sgd.from = min(z.sgd.limit, int64(mixing)) / 2
	return eta
}

// snapshotSGD sets what runEpoch reads of the coordinates: the iterate,
// and c = q (no control variate; the rows' snapshot slopes stay 0).
func (z *lazySVRG) snapshotSGD() {
	for j := range z.st {
		var c float64
		if z.q != nil {
			c = z.q[j]
		}
		z.st[j].w, z.st[j].c, z.st[j].fix = z.w[j], c, -c/z.ridge
	}
}

// sgdEpoch takes a pass of steps (runSteps), averaging the iterate, once
// averaging has begun, every sgd.every steps and at the pass's end, and
// ends the stage at its step limit. Bringing every coordinate up to date
// for the average costs O(n); every is at least n over the mean nonzeros
// of a row, so that it costs no more than the steps between.
func (z *lazySVRG) sgdEpoch() {
	g := &z.sgd
	e0 := z.at
	for done := 0; done < z.epoch; {
		k := min(g.every, z.epoch-done)
		z.runSteps(e0, k)
		done += k
		g.done += int64(k)
		if done < z.epoch && !z.opt.LastIterate && g.done >= g.from {
			z.catchUp(e0, true)
			z.sgdAverage()
		}
	}
	z.catchUp(e0, false)
	z.steps += int64(z.epoch)
	if !z.opt.LastIterate && g.done >= g.from {
		z.sgdAverage()
	}
	if g.done >= g.limit {
		z.sgdRestart()
	}
}

// sgdAverage takes the iterate w into the stage's average.
func (z *lazySVRG) sgdAverage() {
	g := &z.sgd
	g.navg++
	t := 1 / float64(g.navg)
	for j, v := range z.w {
		g.avg[j] += t * (v - g.avg[j])
	}
}

// sgdRestart starts a stage from the last one's answer (its average, if
// any), with SGDM's momentum 0.
func (z *lazySVRG) sgdRestart() {
	g := &z.sgd
	if g.navg > 0 {
		copy(z.w, g.avg)
	}
	g.navg, g.done = 0, 0
	clear(z.sgdm.mom)
}
