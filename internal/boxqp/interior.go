package boxqp

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// SolveInterior minimizes f over x >= 0 by a primal-dual interior-point
// method (Mehrotra's predictor-corrector; Nocedal and Wright, "Numerical
// Optimization", 2nd ed., section 16.6), from x (projected onto x >= 0,
// then moved inside by Mehrotra's rule) and overwrites x with its last
// point, every entry > 0. It is for a start far from the answer's free set, where projected
// Newton (Solve) spends many factorisations finding which bounds hold:
// each iteration here is one factorisation of K + Z X^{-1} (z the
// multipliers of x >= 0, X and Z their diagonals), whose damping by
// Z X^{-1} > 0 also keeps a singular K factorable, and the iterations it
// takes hardly depend on the order or the free set (tens, where projected
// Newton took a hundred factorisations and more on the separable text set
// of scripts/liblinear). Its point is not exactly on a face: Solve from it
// finishes (usually in one or two factorisations, the free set settled).
//
// Converged: the residual of K x + c - z is within Tol max(1, max|c|) and
// x'z, the duality gap of the iterate, within Tol max(1, |f(x)|). Options
// are read as Solve reads them, MaxIter defaulting to 60 and Tol to 1e-10
// (below, the rounding of K + Z X^{-1} decides). Unbounded: as Solve.
// Stalled: a step shorter than 1e-10, or a factorisation that fails.
func (w *Workspace) SolveInterior(k *mat.Dense, c, x []float64, opt Options) Result {
	w.grow(k.Rows)
	return w.SolveInteriorFrom(k, c, x, w.dc[:k.Rows], 0, opt)
}

// SolveInteriorFrom is SolveInterior that leaves the multipliers of its
// last point in z (length n, not aliasing x) and can go on from an
// earlier solve's last point: x[:warm] and z[:warm] are that point (every
// entry > 0), for a problem whose variables were the first warm of this
// one's, and the others are new (their entries of x and z are not read;
// warm = 0 is SolveInterior). With warm = n it goes on from where that
// solve stopped, as if it had not: the iterates depend on (x, z) alone,
// so a solve to a loose tolerance and then to a tight one take the steps
// of the tight one. With new variables (the rows a restricted dual gains)
// it starts where the old ones were, which is close to the answer when
// the new variables change it little: each new x_i at the minimum of f
// along its own coordinate (or a hair above 0), and x_i z_i at the old
// point's average.
func (w *Workspace) SolveInteriorFrom(k *mat.Dense, c, x, z []float64, warm int, opt Options) Result {
	n := k.Rows
	if opt.Tol <= 0 {
		opt.Tol = 1e-10
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 60
	}
	if !(opt.MaxGrowth > 0) {
		opt.MaxGrowth = 1e6
	}
	w.grow(n)
	w.chol.Threads = opt.Threads
	w.prevFree, w.prevTau = w.prevFree[:0], -1 // Solve's factor is overwritten
	kx, dx, dz, rd, r, t := w.g[:n], w.d[:n], w.step[:n], w.xt[:n], w.rhs[:n], w.kd[:n]
	if warm > 0 {
		clear(x[warm:])
	}
	cmax, dmax, xmax := 1.0, 0.0, 1.0
	for i := range x {
		x[i] = max(x[i], 0)
		cmax = max(cmax, math.Abs(c[i]))
		dmax = max(dmax, k.Data[i*k.Stride+i])
		xmax = max(xmax, x[i])
	}
	if !(dmax > 0) {
		dmax = 1
	}
	grown := opt.MaxGrowth * xmax
	k.MulVec(kx, x)
	if warm == 0 {
		mehrotraStart(x, z, kx, c)
	} else {
		centredNew(k, c, x, z, kx, warm)
	}
	var res Result
	for ; ; res.Iterations++ {
		k.MulVec(kx, x)
		rdMax, gap, f, big := 0.0, vec.Dot(x, z), 0.0, 0.0
		for i := range x {
			rd[i] = kx[i] + c[i] - z[i]
			rdMax = max(rdMax, math.Abs(rd[i]))
			f += x[i] * (0.5*kx[i] + c[i])
			big = max(big, x[i])
		}
		res.PGNorm = rdMax
		if rdMax <= opt.Tol*cmax && gap <= opt.Tol*max(1, math.Abs(f)) {
			res.Status = Converged
			return res
		}
		if big > grown {
			res.Status = Unbounded
			return res
		}
		if res.Iterations >= opt.MaxIter || (opt.MaxFactorizations > 0 && res.Factorizations >= opt.MaxFactorizations) ||
			(opt.Stop != nil && opt.Stop()) {
			res.Status = Stopped
			return res
		}
		// M = K + Z X^{-1}, its lower triangle, factored; pivots singular
		// to rounding get the damping of Solve's first retry.
		m := &mat.Dense{Rows: n, Cols: n, Stride: n, Data: w.kff[:n*n]}
		for i := 0; i < n; i++ {
			copy(m.Data[i*n:i*n+i+1], k.Row(i)[:i+1])
			m.Data[i*n+i] += z[i] / x[i]
		}
		res.Factorizations++
		if _, err := w.chol.FactorShifted(m, nextTau(0, dmax)); err != nil {
			res.Status = Stalled
			return res
		}
		sigmaMu := w.predictorCorrector(x, z, rd, dx, dz, r, t, gap/float64(n))
		if !w.noCorrectors {
			w.centralityCorrectors(x, z, dx, dz, r, t, sigmaMu)
		}
		alpha := min(1, 0.995*stepToBound(x, dx, z, dz))
		if !(alpha >= 1e-10) { // NaN too
			res.Status = Stalled
			return res
		}
		for i := range x {
			x[i] += alpha * dx[i]
			z[i] += alpha * dz[i]
		}
	}
}

// stepToBound is the largest alpha <= 1/0.995 that keeps x + alpha dx and
// z + alpha dz >= 0 (the same step for both: K couples them).
func stepToBound(x, dx, z, dz []float64) float64 {
	alpha := 1 / 0.995
	for i := range x {
		if dx[i] < 0 {
			alpha = min(alpha, -x[i]/dx[i])
		}
		if dz[i] < 0 {
			alpha = min(alpha, -z[i]/dz[i])
		}
	}
	return alpha
}

// mehrotraStart sets the cold start (Nocedal and Wright, section 14.2, for
// linear programs): the start's own x and the gradient g = kx + c as z,
// each shifted up by 1.5 times its most negative entry, then both by
// about half their mean product over their sums, so that every pair x_i
// z_i is a fair share of the duality gap. A start whose pairs differ by
// orders of magnitude (coordinate descent's multipliers, g far from 0 on
// violated rows) took 9 to 13 short steps before the first that went
// most of the way.
func mehrotraStart(x, z, kx, c []float64) {
	mx, mz := 0.0, 0.0
	for i := range x {
		z[i] = kx[i] + c[i]
		mx, mz = min(mx, x[i]), min(mz, z[i])
	}
	sx, sz, xz := 0.0, 0.0, 0.0
	for i := range x {
		x[i] -= 1.5 * mx
		z[i] -= 1.5 * mz
		sx, sz, xz = sx+x[i], sz+z[i], xz+x[i]*z[i]
	}
	dx, dz := 1.0, 1.0 // x = z = 0: any equal shift centres them
	if xz > 0 {
		dx, dz = 0.5*xz/sz, 0.5*xz/sx
	}
	for i := range x {
		x[i] += dx
		z[i] += dz
	}
}

// centredNew sets the new variables of a warm start (from warm on), from
// the gradient g = kx + c at the old point: x_i where f is least along
// coordinate i (a hair above 0, sqrt(mu), when g_i > 0) and z_i = mu/x_i,
// mu the old point's average x_i z_i: on the centre of the path, where the
// steps are longest.
func centredNew(k *mat.Dense, c, x, z, kx []float64, warm int) {
	mu := vec.Dot(x[:warm], z[:warm]) / float64(warm)
	s := math.Sqrt(mu)
	for i := warm; i < len(x); i++ {
		g := kx[i] + c[i]
		if g >= s {
			z[i] = g
			x[i] = mu / g
			continue
		}
		x[i] = s
		if kii := k.Data[i*k.Stride+i]; kii > 0 {
			x[i] = max(-g/kii, s)
		}
		z[i] = mu / x[i]
	}
}

// predictorCorrector sets (dx, dz) to Mehrotra's direction from (x, z),
// the residual rd = Kx + c - z and mu = x'z/n, with the factor of
// K + Z X^{-1} in w.chol, and returns sigma mu, the products' target of
// its corrector; r and t are scratch.
func (w *Workspace) predictorCorrector(x, z, rd, dx, dz, r, t []float64, mu float64) float64 {
	// Predictor (affine) step: the Newton step of K x + c - z = 0,
	// x_i z_i = 0, in dx (dz follows from it).
	for i := range r {
		r[i] = -rd[i] - z[i]
	}
	w.chol.Solve(dx, r)
	for i := range dz {
		dz[i] = -z[i] - z[i]/x[i]*dx[i]
	}
	alpha := min(1, stepToBound(x, dx, z, dz))
	muAff := 0.0
	for i := range x {
		muAff += (x[i] + alpha*dx[i]) * (z[i] + alpha*dz[i])
	}
	muAff /= float64(len(x))
	sigma := math.Pow(muAff/mu, 3)
	// Corrector: aimed at x_i z_i = sigma mu, with the predictor's
	// second-order term dx_i dz_i taken off.
	for i := range r {
		t[i] = (sigma*mu - dx[i]*dz[i]) / x[i]
		r[i] = -rd[i] - z[i] + t[i]
	}
	w.chol.Solve(dx, r)
	for i := range dz {
		dz[i] = -z[i] + t[i] - z[i]/x[i]*dx[i]
	}
	return sigma * mu
}

// Gondzio's multiple centrality correctors (J. Gondzio, "Multiple
// centrality corrections in a primal-dual method for linear programming",
// Comput. Optim. Appl. 6, 1996; the parameters are those of M. Colombo
// and J. Gondzio, "Further development of multiple centrality correctors
// for interior point methods", Comput. Optim. Appl. 41, 2008). Mehrotra's
// step is often cut short by a few products x_i z_i far from the others,
// whose pairs reach their bound first. A corrector asks for the change of
// the products that puts those of the point a longer step would reach
// back into [betaMin, betaMax] sigma mu, and is kept when it lengthens the
// step. Each costs one solve with the factor the iteration already made,
// against a factorisation per iteration. On the restricted duals of the
// hard-margin SVM's finisher (order ~3000, rows joining between rounds)
// Mehrotra's steps alone fell to 0.05 and 0.24 after rows joined, and
// their factorisations varied from 21 to 43 with the order of coordinate
// descent's rows; with correctors, 16 to 23.
const (
	maxCorrectors    = 4
	correctorBetaMin = 0.1
	correctorBetaMax = 10
	correctorReach   = 1.5 // the longer step aimed at: min(1, 1.5 alpha)
	correctorGain    = 0.1 // a corrector must win this share of the lengthening
)

// centralityCorrectors improves the direction (dx, dz) by up to
// maxCorrectors correctors (see above), sigmaMu the products' target of
// the direction, with the factor of K + Z X^{-1} in w.chol; r and t are
// scratch. A corrected direction is kept only when its step to the bound
// is longer by correctorGain of what it aimed at, so the direction is
// never worse than Mehrotra's.
func (w *Workspace) centralityCorrectors(x, z, dx, dz, r, t []float64, sigmaMu float64) {
	n := len(x)
	ex, ez := w.ex[:n], w.ez[:n]
	alpha := min(1, stepToBound(x, dx, z, dz))
	lo, hi := correctorBetaMin*sigmaMu, correctorBetaMax*sigmaMu
	for k := 0; k < maxCorrectors && alpha < 1; k++ {
		aim := min(1, correctorReach*alpha)
		// t: the change of each product that moves the point of the
		// longer step into [lo, hi] (a large one by at most hi).
		for i := range x {
			v := (x[i] + aim*dx[i]) * (z[i] + aim*dz[i])
			switch {
			case v < lo:
				t[i] = lo - v
			case v > hi:
				t[i] = max(hi-v, -hi)
			default:
				t[i] = 0
			}
			r[i] = t[i] / x[i]
		}
		// The Newton step of the products alone (K ex - ez = 0,
		// Z ex + X ez = t), added to the direction.
		w.chol.Solve(ex, r)
		for i := range ex {
			ez[i] = (t[i]-z[i]*ex[i])/x[i] + dz[i]
			ex[i] += dx[i]
		}
		next := min(1, stepToBound(x, ex, z, ez))
		if next < alpha+correctorGain*(aim-alpha) {
			return
		}
		copy(dx, ex)
		copy(dz, ez)
		alpha = next
	}
}
