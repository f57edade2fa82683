package newtoncg

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// Deciding feasibility before an answer that violates rows is called
// solved.
//
// Solve's test of the rows is relative: each row holds to Tol relative to
// its terms (constraints.go). That is what rounding allows of a feasible
// problem's answer only when the violations are of the order of the
// rounding of A x; above it, the test also passes rows that no x meets
// once x is large: x0 - x1 >= 1 and x0 - x1 <= 0.75 (0 <= -0.25 summed)
// with q = (-1e7, 0) end at |x| = 3.3e6 with the second row violated by
// 1.41, 2e-7 of its terms, and the augmented Lagrangian's multipliers,
// one row's alone, prove nothing. So an answer that meets the tolerance
// with some row violated beyond the rounding of its residual,
//
//	(A x - b)_i > gamma (|a_i|'|x| + |b_i|) + eps |(A x - b)_i|
//
// (gamma the rounding of a sum of the row's products, as gapA's
// allowance), is called solved only once phase one, from x, has found a
// point in the bounds that violates no row beyond that rounding: the rows
// are then feasible up to a perturbation of b at the rounding of their
// terms, and the answer's violations those of the tolerance. Phase one
// minimises the squared violation
//
//	h(x) = 1/2 sum_i (a_i'x - b_i)_+^2 + 1/2 ||(x - upper)_+||^2 + 1/2 ||(lower - x)_+||^2
//
// by Newton's method with conjugate gradients on its generalised Hessian
// (the violated rows' a_i a_i' and the violated bounds' unit entries),
// each product over the violated rows alone. At a minimiser with h > 0,
// y = (A x - b)_+ is a Farkas certificate (FarkasFrom checks it, then its
// simpler neighbours), and the solve ends Infeasible; when neither a point
// nor a certificate is found the solve ends Undecided.
//
// A solved answer meets its rows to rounding, as the other methods' do:
// the distance bound sqrt(2 gap / ridge) holds only for such a point, and
// the caller asked for one. So once phase one has found a point x_f that
// meets them, the answer moves from x toward it, x + t (x_f - x), with
// the least t that the residuals, linear in t, say meets every row
// violated beyond rounding at x (t = 1, x_f itself, where x_f only meets
// a row to rounding), and is certified there afresh with the answer's
// multipliers lhat (any lhat >= 0 gives a dual bound; those of the new
// residuals, lambda + rho r, are far off where rho has grown large), the
// exact penalty's term then only an allowance for rounding. If that gap
// misses Tol, the iterations go on with the tolerance cut sixteenfold, at
// most tightenings times, so that the violations, and the move, shrink
// with it; after that the solve ends Unmet.
//
// The augmented Lagrangian's answer usually violates its active rows by
// about Tol of their terms, far above rounding, so phase one runs on most
// solves with rows; aimed inside the rows (phaseOne), it meets them in a
// Newton step or two from there, typically 1 to 3 passes over the rows
// of A and none over Phi (1 on 3000 Zipf rows over 20000 features with
// 760 rows violated at the answer, where plain Newton steps on h took
// 41). Where every row holds to rounding, the check reads the violated
// rows alone.

// Phase one's limits: Newton steps, and conjugate-gradient steps a Newton
// step (h is piecewise quadratic, so a truncated step still descends).
const (
	phaseIters      = 100
	phaseShifts     = 4  // stages aimed inside the rows (see phaseOne)
	phaseShiftIters = 25 // Newton steps of each
	phaseCG         = 50
	phaseReg        = 1e-12 // the Newton matrix's regularisation, relative to its largest diagonal entry
	tightenings     = 4     // tolerance cuts before an answer whose feasible neighbour misses Tol is Unmet
)

// feasibility is what phase one concluded.
type feasibility int

const (
	feasUndecided  feasibility = iota
	feasFeasible               // a point in the bounds meets every row to rounding
	feasInfeasible             // w.farkas holds a checked certificate
	feasStopped                // Options.Stop said so
)

// phaseWork is phase one's workspace: its vectors of length n are the
// Newton iterations' scratch (xNew, gp, d, lo, hi, r, pv, hp: the solve
// has ended when phase one runs, and the next solve sets each before it
// reads it), those of length m are allocated on first use (a solve whose
// answers meet their rows to rounding never allocates them).
type phaseWork struct {
	x, g, d, xt, xc, r, p, hp []float64 // length n
	res, resT, y, norm        []float64 // length m (norm: ||a_i||)
}

// withinRounding reports whether every row with r_i > 0 (r = A x - b as
// computed) is violated by no more than the rounding of computing r_i. It
// reads the violated rows only.
func (w *Workspace) withinRounding(x, r []float64) bool {
	for i, ri := range r {
		if math.IsNaN(ri) || w.beyondRounding(i, ri, x) {
			return false
		}
	}
	return true
}

// beyondRounding reports whether row i's computed residual ri at x is a
// violation beyond the rounding of computing it, gamma (|a_i|'|x| +
// |b_i|) + eps |ri| (gamma that of a sum of the row's products); it
// reads the row only where ri > 0.
func (w *Workspace) beyondRounding(i int, ri float64, x []float64) bool {
	if !(ri > 0) {
		return false
	}
	const eps = 0x1p-52
	idx, val := w.p.A.Row(i)
	var ax float64
	for q, j := range idx {
		ax += math.Abs(val[q] * x[j])
	}
	return ri > vec.DotErrorBound(w.rowMaxA+1)*(ax+math.Abs(w.p.B[i]))+eps*ri
}

// phaseOne minimises h from x (in the bounds; only read; r = A x - b)
// and reports what it shows: feasFeasible as soon as an iterate,
// projected onto the bounds, meets every row to rounding; feasInfeasible
// with a checked certificate in w.farkas; feasStopped when Options.Stop
// says so (read once a Newton step). It counts its passes over the rows
// of A in w.phasePasses: one a trial point of the line search (the
// gradient and the Hessian's products read the rows in the model alone).
//
// Minimised plainly, h comes to the rows from outside, and where many are
// active at x the generalised Newton steps zig-zag between them: each
// step meets the rows violated at its start and overshoots the nearly
// active ones, the largest violation falling two- to fourfold a step (41
// steps on 3000 Zipf rows, 760 of them violated at the answer). So the
// first stages aim inside the rows, at a_i'x <= b_i - sigma ||a_i||,
// whose nearly active rows are in the model from the start: sigma is the
// largest distance of x to a violated row's half-space, then a sixteenth
// of it, and so on for phaseShifts stages, each ended when it stalls
// (rows with no interior that deep) or after phaseShiftIters steps; the
// last stage, sigma = 0, is h itself, whose minimiser gives the Farkas
// certificate.
func (w *Workspace) phaseOne(x, r []float64) feasibility {
	ph := &w.phase
	// The solve's iterations are over: their scratch vectors of length n
	// serve phase one (on the 1e6-feature Zipf set eight more of them
	// raised the process's peak memory by 60 MB).
	ph.x, ph.g, ph.d, ph.xt, ph.xc, ph.r, ph.p, ph.hp = w.xNew, w.gp, w.d, w.lo, w.hi, w.r, w.pv, w.hp
	if ph.res == nil {
		m := len(w.lam)
		f := func(k int) []float64 { return make([]float64, k) }
		ph.res, ph.resT, ph.y, ph.norm = f(m), f(m), f(m), f(m)
		for i := range ph.norm {
			_, val := w.p.A.Row(i)
			ph.norm[i] = math.Sqrt(vec.Dot(val, val))
		}
	}
	copy(ph.x, x)
	copy(ph.res, r)
	var sigma float64
	for i, ri := range r {
		if ri > 0 && ph.norm[i] > 0 {
			sigma = max(sigma, ri/ph.norm[i])
		}
	}
	for stage := 0; stage <= phaseShifts; stage++ {
		shift, iters := 0.0, phaseIters
		if stage < phaseShifts {
			shift, iters = sigma*math.Pow(1.0/16, float64(stage)), phaseShiftIters
		}
		switch f := w.phaseStage(ph, shift, iters); f {
		case feasUndecided:
		default:
			return f
		}
	}
	for i, r := range ph.res {
		ph.y[i] = max(r, 0)
	}
	if _, ok := w.FarkasFrom(ph.y); ok {
		return feasInfeasible
	}
	return feasUndecided
}

// phaseStage minimises h with the rows shifted by shift ||a_i|| (see
// phaseOne) from ph.x, at most iters Newton steps, and returns
// feasFeasible or feasStopped as phaseOne does, feasUndecided when it
// stalls or runs out of steps (ph.x and ph.res then its last iterate).
func (w *Workspace) phaseStage(ph *phaseWork, shift float64, iters int) feasibility {
	h := w.phaseGradient(ph.x, ph.res, ph.g, shift)
	for it := 0; ; it++ {
		if w.phaseMeets(ph.x, ph.res) {
			return feasFeasible
		}
		if it >= iters || !(h > 0) {
			return feasUndecided
		}
		if w.opt.Stop != nil && w.opt.Stop(w.passes+w.phaseAsPasses()) {
			return feasStopped
		}
		if !w.phaseDirection(ph, shift) {
			return feasUndecided
		}
		slope := -vec.Dot(ph.g, ph.d) // along -d
		if !(slope < 0) {
			return feasUndecided
		}
		t, hNew := 1.0, h
		for range 60 {
			vec.AxpbyTo(ph.xt, 1, ph.x, -t, ph.d)
			hNew = w.phaseViolation(ph.xt, ph.resT, shift)
			if hNew <= h+1e-4*t*slope {
				break
			}
			t /= 2
		}
		if !(hNew < h) {
			return feasUndecided // no progress in float64: x is the minimiser
		}
		ph.x, ph.xt = ph.xt, ph.x
		ph.res, ph.resT = ph.resT, ph.res
		h = w.phaseGradient(ph.x, ph.res, ph.g, shift)
	}
}

// phaseAsPasses is phase one's passes over the rows of A counted as
// passes over the rows of Phi (m/l of one each, rounded up), for
// Options.Stop.
func (w *Workspace) phaseAsPasses() int64 {
	l := int64(max(1, w.p.X.Rows))
	return (w.phasePasses*int64(w.p.A.Rows) + l - 1) / l
}

// phaseMeets reports whether x projected onto the bounds meets every row
// to rounding (res: A x - b, the residuals at x itself).
func (w *Workspace) phaseMeets(x, res []float64) bool {
	ph := &w.phase
	inside := true
	for j, v := range x {
		c := min(max(v, w.lower(j)), w.upper(j))
		ph.xc[j] = c
		inside = inside && c == v
	}
	if inside {
		return w.withinRounding(x, res)
	}
	w.residualA(ph.resT, ph.xc)
	w.phasePasses++
	return w.withinRounding(ph.xc, ph.resT)
}

// phaseViolation returns h(x) with the rows shifted by shift ||a_i||,
// with the rows' residuals (unshifted) in r. A pass over the rows of A.
func (w *Workspace) phaseViolation(x, r []float64, shift float64) float64 {
	w.residualA(r, x)
	w.phasePasses++
	var h float64
	for i, ri := range r {
		if v := ri + shift*w.phase.norm[i]; v > 0 {
			h += v * v / 2
		}
	}
	for j, v := range x {
		e := max(v-w.upper(j), 0) - max(w.lower(j)-v, 0)
		h += e * e / 2
	}
	return h
}

// phaseGradient returns h(x) with the rows shifted by shift ||a_i||,
// given the rows' residuals r at x, and sets g to its gradient there,
// reading the rows in the model alone.
func (w *Workspace) phaseGradient(x, r, g []float64, shift float64) float64 {
	clear(g)
	var h float64
	for i, ri := range r {
		v := ri + shift*w.phase.norm[i]
		if !(v > 0) {
			continue
		}
		h += v * v / 2
		idx, val := w.p.A.Row(i)
		for q, j := range idx {
			g[j] += v * val[q]
		}
	}
	for j, v := range x {
		e := max(v-w.upper(j), 0) - max(w.lower(j)-v, 0)
		h += e * e / 2
		g[j] += e
	}
	return h
}

// phaseDirection solves H d = g for phase one's Newton step at ph.x
// (ph.res its residuals, ph.g h's gradient there) by conjugate gradients,
// at most phaseCG of them, H the generalised Hessian with phaseReg of its
// largest diagonal entry added (H is singular along the directions no
// row in the model sees). It reports whether d is a step.
func (w *Workspace) phaseDirection(ph *phaseWork, shift float64) bool {
	var diag float64
	for i, ri := range ph.res {
		if ri+shift*ph.norm[i] > 0 {
			diag = max(diag, ph.norm[i]*ph.norm[i])
		}
	}
	reg := phaseReg * max(diag, 1)
	return ConjugateGradient(ph.g, ph.d, ph.r, ph.p, ph.hp, phaseCG, func(_, _ []float64) { w.phaseHessian(ph, reg, shift) })
}

// phaseHessian sets hp = H p (phaseDirection's H at ph.x), over the rows
// in the model (shifted by shift ||a_i||) only.
func (w *Workspace) phaseHessian(ph *phaseWork, reg, shift float64) {
	for j, v := range ph.p {
		ph.hp[j] = reg * v
		if x := ph.x[j]; x > w.upper(j) || x < w.lower(j) {
			ph.hp[j] += v
		}
	}
	for i, ri := range ph.res {
		if !(ri+shift*ph.norm[i] > 0) {
			continue
		}
		idx, val := w.p.A.Row(i)
		var s float64
		for q, j := range idx {
			s += val[q] * ph.p[j]
		}
		for q, j := range idx {
			ph.hp[j] += s * val[q]
		}
	}
}

// feasibleAnswer moves the answer w.x (Phi x in w.t, A x - b in w.rA,
// rows violated beyond rounding) toward phase one's point w.phase.xc,
// which meets every row to rounding, as the header says, and certifies the
// new point. If it meets its rows to rounding and its gap meets
// Options.Tol, it becomes the answer (w.x, w.t, w.rA, the derivatives and
// w.res's Objective, Gap and MaxViolation its own) and feasibleAnswer
// reports true; otherwise the answer and its derivatives are as before.
// Phase one is over: its scratch vectors serve here.
func (w *Workspace) feasibleAnswer() bool {
	ph := &w.phase
	xf, rf, xt, saved := ph.xc, ph.resT, ph.x, ph.xt
	w.residualA(rf, xf)
	w.phasePasses++
	t := 0.0
	for i, ri := range w.rA {
		if !w.beyondRounding(i, ri, w.x) {
			continue
		}
		ti := 1.0
		if rf[i] < 0 {
			ti = ri / (ri - rf[i])
		}
		t = max(t, ti)
	}
	copy(saved, w.x)
	moved := false
	// Two tries: a little past the least t (the residuals are linear in t
	// only to rounding), then x_f.
	for _, tc := range [2]float64{min(1, t*(1+0x1p-10)), 1} {
		if tc == 1 {
			copy(xt, xf)
		} else {
			for j, v := range saved {
				xt[j] = min(max(v+tc*(xf[j]-v), w.lower(j)), w.upper(j))
			}
		}
		w.residualA(w.rANew, xt)
		w.phasePasses++
		if !w.withinRounding(xt, w.rANew) {
			if tc == 1 {
				break
			}
			continue
		}
		moved = true
		copy(w.x, xt)
		w.team.MulVec(w.tNew, w.x)
		w.passes++
		w.t, w.tNew = w.tNew, w.t
		w.rA, w.rANew = w.rANew, w.rA
		f := w.objective(w.x, w.t)
		w.keepLhat = true
		w.derivatives()
		w.keepLhat = false
		gap := w.gapTerms(w.x, w.s, w.sAbs)
		gapA, viol, _ := w.gapA(w.x, w.alXi())
		gap += gapA
		if gap <= w.opt.Tol*max(1, math.Abs(f)) && !math.IsInf(f, 0) {
			w.res.Objective, w.res.Gap, w.res.MaxViolation = f, gap, viol
			return true
		}
		copy(w.x, saved)
		w.t, w.tNew = w.tNew, w.t
		w.rA, w.rANew = w.rANew, w.rA
		if tc == 1 {
			break
		}
	}
	if moved {
		w.derivatives() // the answer's, for its multipliers and the iterations
	}
	return false
}

// MeetsRows reports whether x meets every row of A to within the rounding
// of its residual, as a Solved answer does (true without rows): what
// another method's answer certified on this workspace must show before it
// is called solved. A pass over the rows of A; it allocates nothing.
func (w *Workspace) MeetsRows(x []float64) bool {
	if w.p.A == nil {
		return true
	}
	w.residualA(w.rANew, x)
	return w.withinRounding(x, w.rANew)
}
