// Package boxqp solves the nonnegatively constrained quadratic program
//
//	minimize f(x) = 1/2 x'Kx + c'x  subject to  x >= 0
//
// for a dense symmetric positive semidefinite K of moderate order (up to a
// few thousand), by projected Newton (Bertsekas, "Projected Newton methods
// for optimization problems with simple constraints", 1982). Each
// iteration splits the variables: those at (or within eps of) their bound
// with a positive gradient are held, moved only by a diagonally scaled
// gradient step that the projection stops at 0; the others take the Newton
// step of their block, K_FF d_F = -g_F, solved with a Cholesky factor. The
// step is cut back along the projection arc x(alpha) = max(x + alpha d, 0)
// until f falls by a fixed fraction of the first-order prediction. Two
// changes make it work on the nearly singular K of nearly dependent rows:
// free variables that the Newton step takes below 0 are put at 0 and the
// step recomputed on the face that leaves them there (tryStep), and a step
// that finds no decrease is tried again with K_FF + tau I, tau growing.
//
// Why this method: f falls at every step, so it cannot cycle (a primal-dual
// active-set method can, on matrices that are not M-matrices), and one step
// may change any number of bounds (an active-set method changes one a
// factorisation): near the answer the bounds settle and the steps are
// exact Newton steps. It is the finisher of the hard-margin SVM's dual
// coordinate descent, whose dual restricted to the rows that can be support
// vectors is such a problem (K = A_S A_S'/ridge).
//
// A Workspace allocates on its first solve of an order and not again for
// smaller or equal ones.
package boxqp

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Status says how a solve ended.
type Status int

const (
	Converged Status = iota // the projected gradient is within Options.Tol, or the rounding of the computed gradient
	Stopped                 // Options.Stop or the iteration limit
	Stalled                 // no step along the arc decreases f in float64
	// Unbounded: x grew beyond Options.MaxGrowth times its start: f is
	// unbounded below (K d = 0, c'd < 0 for some d >= 0), or nearly so.
	Unbounded
)

// Options are a solve's choices; zero values mean the defaults.
type Options struct {
	// Tol: the solve ends when every projected gradient component is at
	// most Tol max(1, max|c_i|) (default 1e-13).
	Tol     float64
	MaxIter int // iterations (default 200)
	// MaxFactorizations ends the solve Stopped when an iteration starts
	// with this many factorisations done (0: no limit).
	MaxFactorizations int
	// MaxGrowth: the solve ends Unbounded when max x exceeds MaxGrowth
	// max(1, max x at the start) (default 1e6).
	MaxGrowth float64
	// Threads: the goroutines of each factorisation (mat.Cholesky.Threads;
	// the answer is the same bit for bit whatever the number).
	Threads int
	// Stop is asked before each factorisation; true ends the solve.
	Stop func() bool
}

// Result is the outcome of a solve.
type Result struct {
	Status         Status
	Iterations     int
	Factorizations int
	PGNorm         float64 // max |projected gradient| at x
}

// Workspace holds the scratch of solves.
type Workspace struct {
	g, d, xt, step, kd, dc, rhs []float64
	ex, ez                      []float64 // SolveInterior's corrected direction
	free, freeTry               []int32
	kff                         []float64
	chol                        mat.Cholesky
	prevFree                    []int32 // the free set of chol's factor
	prevTau                     float64
	alpha                       float64 // the last accepted step's
	// noCorrectors turns SolveInterior's centrality correctors off (its
	// tests compare the two).
	noCorrectors bool
}

// armijo is the fraction of the first-order decrease g'step a step along
// the arc must achieve.
const armijo = 1e-4

// Solve minimizes f over x >= 0 from x (which it projects onto x >= 0 and
// overwrites with the answer). k is read in place (its lower triangle and
// its rows); c has length k.Rows.
func (w *Workspace) Solve(k *mat.Dense, c, x []float64, opt Options) Result {
	n := k.Rows
	if opt.Tol <= 0 {
		opt.Tol = 1e-13
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 200
	}
	if !(opt.MaxGrowth > 0) {
		opt.MaxGrowth = 1e6
	}
	w.grow(n)
	w.chol.Threads = opt.Threads
	g, d := w.g[:n], w.d[:n]
	w.prevFree = w.prevFree[:0]
	w.prevTau = -1
	cmax, dmax := 1.0, 0.0
	for i := range x {
		x[i] = max(x[i], 0)
		cmax = max(cmax, math.Abs(c[i]))
		dmax = max(dmax, k.Data[i*k.Stride+i])
	}
	if !(dmax > 0) {
		dmax = 1 // K = 0: the damping alone makes the steps
	}
	// tauMin: the damping of the Newton steps (0: none), raised when a
	// step fails to decrease f (K_FF singular to rounding gives huge,
	// useless steps) and lowered after each success.
	tauMin := 0.0
	tol := opt.Tol * cmax
	grown := 1.0
	for _, v := range x {
		grown = max(grown, v)
	}
	grown *= opt.MaxGrowth
	var res Result
	for ; ; res.Iterations++ {
		// The gradient afresh each iteration: no drift from updates, so
		// the last Newton steps act as iterative refinement.
		k.MulVec(g, x)
		vec.Axpy(1, c, g)
		pg, wdist, xmax := 0.0, 0.0, 0.0
		for i, gi := range g {
			p := gi
			if x[i] <= 0 {
				p = min(gi, 0)
			}
			pg = max(pg, math.Abs(p))
			wdist = max(wdist, math.Abs(x[i]-max(x[i]-gi, 0)))
			xmax = max(xmax, x[i])
		}
		res.PGNorm = pg
		if xmax > grown {
			res.Status = Unbounded
			return res
		}
		if pg <= tol || pg <= w.roundingFloor(k, c, x, pg) {
			res.Status = Converged
			return res
		}
		if res.Iterations >= opt.MaxIter || (opt.MaxFactorizations > 0 && res.Factorizations >= opt.MaxFactorizations) ||
			(opt.Stop != nil && opt.Stop()) {
			res.Status = Stopped
			return res
		}
		free := w.split(k, g, d, x, min(wdist, 1e-3*xmax))
		var ok bool
		if tauMin, ok = w.dampedStep(k, g, d, x, free, tauMin, dmax, &res); !ok {
			res.Status = Stalled
			return res
		}
	}
}

// split returns the free variables and sets the step d of the held ones:
// within eps of 0 with a positive gradient, moved by -g_i/K_ii.
func (w *Workspace) split(k *mat.Dense, g, d, x []float64, eps float64) []int32 {
	free := w.free[:0]
	for i, gi := range g {
		if x[i] <= eps && gi > 0 {
			kii := k.Data[i*k.Stride+i]
			if !(kii > 0) {
				kii = 1
			}
			d[i] = -gi / kii
			continue
		}
		free = append(free, int32(i))
	}
	w.free = free
	return free
}

// dampedStep takes a step from x (tryStep), raising the damping from
// tauMin until one decreases f; it returns the damping the next iteration
// starts from, or false when none up to 1e4 dmax (at most float64's
// largest) does. The bound is finite and each damping larger than the
// last (nextTau), so the loop ends: with K's diagonal overflowed to +Inf
// the damping had reached +Inf, never above the bound, and a dual
// coordinate descent's Farkas reduction spun there for good.
func (w *Workspace) dampedStep(k *mat.Dense, g, d, x []float64, free []int32, tauMin, dmax float64, res *Result) (float64, bool) {
	for damp := tauMin; damp <= min(1e4*dmax, math.MaxFloat64); damp = nextTau(damp, dmax) {
		// The held variables' steps and the free set, which tryStep
		// changes, are set again for the second try.
		copy(w.freeTry, free)
		if !w.tryStep(k, g, d, x, w.freeTry[:len(free)], damp, true, res) &&
			!w.tryStep(k, g, d, x, free, damp, false, res) {
			continue
		}
		if damp > tauMin && w.alpha < 1 {
			// The damping had to be raised and still the step was cut:
			// start the next iteration from it (each failed try costs
			// factorisations).
			return damp, true
		}
		if damp/100 < 1e-14*dmax {
			return 0, true
		}
		return damp / 100, true
	}
	return tauMin, false
}

// roundingFloor is the rounding of the computed gradient, the level below
// which its projected norm means nothing: DotErrorBound(n+1) times the
// largest (|K||x| + |c|)_i. It is computed only once pg is small (a
// product with |K|).
func (w *Workspace) roundingFloor(k *mat.Dense, c, x []float64, pg float64) float64 {
	n := len(x)
	if pg > 1e-6 {
		return 0
	}
	var big float64
	for i := 0; i < n; i++ {
		var s float64
		for j, v := range k.Row(i) {
			s += math.Abs(v) * x[j]
		}
		big = max(big, s+math.Abs(c[i]))
	}
	return 4 * vec.DotErrorBound(n+1) * big
}

// nextTau is the next, larger damping after tau: 1e-14 times the
// diagonal's largest entry (at least the least positive float64, where
// that underflows), then a hundredfold each time.
func nextTau(tau, dmax float64) float64 {
	if tau == 0 {
		return max(1e-14*dmax, 0x1p-1074)
	}
	return 100 * tau
}

// tryStep computes the step with damping tau on the free block
// (newtonStep) and searches the projection arc for a decrease; it moves x
// and reports true when it finds one. Free variables that the step takes
// below 0 are put at 0 and the step of the rest recomputed on the face
// that leaves them there, up to maxReduce times: on nearly dependent rows
// the Newton step of a free set that is too large points far outside, and
// the projection of such a step rarely decreases f. With bulk every such
// variable is put at 0; without, only those whose gradient is >= 0 (for
// the others moving to 0 is an ascent direction, so a bulk step can fail
// where the other succeeds).
func (w *Workspace) tryStep(k *mat.Dense, g, d, x []float64, free []int32, tau float64, bulk bool, res *Result) bool {
	n := len(x)
	xt, step, kd, dc := w.xt[:n], w.step[:n], w.kd[:n], w.dc[:n]
	coupled := false
	clear(dc)
	for reduce := 0; ; reduce++ {
		if !w.newtonStep(k, g, d, dc, coupled, free, tau, res) {
			return false
		}
		clipped := 0
		for _, i := range free {
			if x[i]+d[i] < 0 && (bulk || g[i] >= 0) {
				clipped++
			}
		}
		if clipped == 0 || reduce == maxReduce || clipped == len(free) {
			break
		}
		// The variables the step takes below 0 go to 0 exactly, and the
		// others take the Newton step of the face that leaves them there.
		kept := free[:0]
		for _, i := range free {
			if x[i]+d[i] < 0 && (bulk || g[i] >= 0) {
				dc[i], d[i] = -x[i], -x[i]
			} else {
				kept = append(kept, i)
			}
		}
		free, coupled = kept, true
	}
	for alpha := 1.0; alpha > 1e-10; alpha *= 0.5 {
		for i := range x {
			xt[i] = max(x[i]+alpha*d[i], 0)
			step[i] = xt[i] - x[i]
		}
		// f(xt) - f(x) = g'step + 1/2 step'K step, exactly for a quadratic.
		k.MulVec(kd, step)
		gs := vec.Dot(g, step)
		change := gs + 0.5*vec.Dot(step, kd)
		if change < 0 && change <= armijo*min(gs, 0) {
			w.alpha = alpha
			copy(x, xt)
			return true
		}
	}
	return false
}

// maxReduce bounds the faces a step tries (each a factorisation).
const maxReduce = 8

// newtonStep sets d on the free variables: the solution of
// (K_FF + tau I) d_F = -g_F, tau at least tauMin, raised (nextTau) while
// the matrix has no Cholesky factor. The factor is reused when the free
// set and tauMin are those last factored. It reports false when no tau up
// to 1e4 times the largest diagonal entry gives a factor.
func (w *Workspace) newtonStep(k *mat.Dense, g, d, dc []float64, coupled bool, free []int32, tauMin float64, res *Result) bool {
	nf := len(free)
	same := w.prevTau == tauMin && len(w.prevFree) == nf
	if same {
		for j, i := range free {
			if w.prevFree[j] != i {
				same = false
				break
			}
		}
	}
	if !same {
		kff := &mat.Dense{Rows: nf, Cols: nf, Stride: nf, Data: w.kff[:nf*nf]}
		dmax := 0.0
		for _, i := range free {
			dmax = max(dmax, k.Data[int(i)*k.Stride+int(i)])
		}
		if !(dmax > 0) {
			dmax = 1
		}
		for tau := tauMin; ; tau = nextTau(tau, dmax) {
			if tau > 1e4*dmax || math.IsNaN(tau) {
				w.prevTau = -1
				return false
			}
			for a, i := range free {
				row := k.Row(int(i))
				out := kff.Data[a*nf : a*nf+a+1]
				for b, j := range free[:a+1] {
					out[b] = row[j]
				}
				out[a] += tau
			}
			res.Factorizations++
			if w.chol.Factor(kff) == nil {
				break
			}
		}
		w.prevFree = append(w.prevFree[:0], free...)
		w.prevTau = tauMin
	}
	// rhs = -(g + K dc)_F: the gradient after the variables in dc have
	// moved (to 0).
	kdc := w.kd[:k.Rows]
	if coupled {
		k.MulVec(kdc, dc)
	}
	rhs := w.rhs[:nf]
	for a, i := range free {
		rhs[a] = -g[i]
		if coupled {
			rhs[a] -= kdc[i]
		}
	}
	w.chol.Solve(rhs, rhs)
	for a, i := range free {
		d[i] = rhs[a]
	}
	return true
}

// Reserve sizes the workspace for order n: a later solve of order at most
// n allocates none of its storage (a solve of a larger order would
// allocate it all anew, leaving the old as garbage); a factorisation above
// the order where mat.Cholesky blocks still allocates its packing
// buffers, about 2 x 64 n floats.
func (w *Workspace) Reserve(n int) {
	w.grow(n)
	w.chol.Reserve(n)
}

// grow sizes the scratch for order n.
func (w *Workspace) grow(n int) {
	if len(w.g) >= n {
		return
	}
	w.g, w.d, w.xt, w.step, w.kd, w.dc, w.rhs = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	w.ex, w.ez = make([]float64, n), make([]float64, n)
	w.free, w.freeTry = make([]int32, 0, n), make([]int32, n)
	w.prevFree = make([]int32, 0, n)
	w.kff = make([]float64, n*n)
}
