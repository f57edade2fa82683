// Package dualcd solves
//
//	minimize ridge/2 ||x||^2 + q'x  subject to  A x <= b,  b < 0,
//
// with A given as sparse rows — the hard-margin SVM (rows -y_i a_i,
// b = -1) on text-sized data — by coordinate descent on its dual,
//
//	minimize_{lambda >= 0} phi(lambda) = 1/(2 ridge) ||q + A'lambda||^2 + b'lambda,
//
// x = -(q + A'lambda)/ridge, one row at a time with the exact minimiser
// along each coordinate (Hsieh et al.'s dual coordinate descent, LIBLINEAR's
// method for linear SVMs, here with no upper bound on lambda), each step
// O(nnz(row)), with shrinking of rows held at lambda_i = 0.
//
// Certificate: x is feasible only in the limit, but with every b_i < 0 the
// scaled point t x is feasible for every t >= t* = max_i b_i/(a_i'x) once
// a_i'x < 0 for every row; the objective is convex in t, so the best such
// t is max(t*, -q'x/(ridge ||x||^2)). F(t x) - D(lambda), D the dual value,
// is a certified gap of a feasible point, and tends to zero as lambda
// converges (t -> 1). A lambda growing without bound with b'lambda < 0 is
// the sign of infeasibility: y = lambda/max(lambda) is then checked as a
// Farkas certificate (A'y ~ 0, b'y < 0). The commonest case, two rows equal
// up to sign (one example under both labels), is looked for before the
// first epoch, by hashing the rows: such a pair is a certificate alone.
//
// A Workspace allocates everything in New; Solve allocates nothing.
package dualcd

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Problem is the model above: A well formed (mat.Sparse.Check), every
// B[i] < 0 and finite, Ridge > 0, Q nil or of length A.Cols, all finite.
// The workspace reads A, B and Q in place.
type Problem struct {
	A     *mat.Sparse
	B     []float64
	Q     []float64
	Ridge float64
}

// Status says how a solve ended.
type Status int

const (
	Solved     Status = iota // certified gap <= Tol max(1, |F|) at a feasible point
	Stopped                  // Options.Stop or the epoch limit
	Infeasible               // Result.Farkas passed the check
	// Stalled: the certificate cannot improve in float64: the gradients
	// agree to rounding, or the certificate's rounding alone is above
	// Tol (Result.Allowance).
	Stalled
)

// Options are a solve's choices; zero values mean the defaults.
type Options struct {
	Tol       float64 // relative certified gap (default 1e-9)
	MaxEpochs int     // passes over the rows (default 100000)
	Seed      uint64  // the order of the coordinates
	Stop      func(rows int64) bool
	Progress  func(epoch int, rows int64, gap float64)
	// Farkas is a second way to a certificate of infeasibility, for
	// conflicts that are not rows of equal weight (see farkas): given
	// lambda, it writes a candidate y >= 0 into its second argument (of
	// length m, zero on entry) and reports whether it found one. Solve
	// keeps y only if it passes the same exact check as its own
	// candidates. It is called when no scaling of x is feasible, the
	// package's own candidates fail, and lambda's largest entry has at
	// least doubled since the last call (lambda grows along a certificate
	// on infeasible data, and each call may cost a small exact solve).
	Farkas func(lam, y []float64) bool
	// Finish is a second way to the answer, for data on which coordinate
	// descent converges slowly (separable with a small margin): given
	// lambda, it may overwrite it with a better dual point (>= 0 and
	// finite, else Solve restores the old one) and reports whether it
	// did; Solve then certifies the new point and goes on from it. It is
	// called at a periodic certificate that did not end the solve (see
	// Workspace.finish for when).
	Finish func(lam []float64) bool
}

// Result is the outcome of Solve; its slices alias the workspace.
type Result struct {
	Status    Status
	X         []float64 // the certified (scaled, feasible) point
	Lambda    []float64 // the dual point, >= 0
	Farkas    []float64 // Infeasible: y >= 0, max 1, A'y ~ 0 and b'y < 0
	Objective float64   // F(X)
	Gap       float64   // F(X) - D(Lambda) with its rounding charged; +Inf when no feasible point yet
	Allowance float64   // the rounding charged in Gap
	MaxViol   float64   // max_i (a_i'X - b_i)_+ as computed
	Epochs    int
	Rows      int64 // coordinate steps
}

// Workspace holds a problem and its solver's state.
type Workspace struct {
	p      Problem
	opt    Options
	lam    []float64 // dual point
	x      []float64 // -(q + A'lam)/ridge, kept up to date
	xc     []float64 // the certified point
	v      []float64 // a_i'x, for the certificate
	y      []float64 // the Farkas candidate
	qii    []float64 // ||a_i||^2 / ridge
	norms  []float64 // ||a_i||
	order  []int32   // coordinates, in the order of an epoch
	active int       // order[:active] are not shrunk
	rowMax int
	rng    uint64
	res    Result
	rows   int64
	// farkasAt is lambda's largest entry at the last call of
	// Options.Farkas (0: none yet this solve).
	farkasAt float64
	// finishNext is the epoch of the next call of Options.Finish.
	finishNext int
	// pairI, pairJ are rows with a_i = -a_j (antipodalPair), or -1.
	pairI, pairJ int
}

// New returns a workspace for p; it starts cold, from lambda = 0.
func New(p Problem, opt Options) *Workspace {
	m, n := p.A.Rows, p.A.Cols
	if opt.Tol <= 0 {
		opt.Tol = 1e-9
	}
	if opt.MaxEpochs <= 0 {
		opt.MaxEpochs = 100000
	}
	w := &Workspace{p: p, opt: opt, lam: make([]float64, m), x: make([]float64, n), xc: make([]float64, n),
		v: make([]float64, m), y: make([]float64, m), qii: make([]float64, m), norms: make([]float64, m),
		order: make([]int32, m)}
	for i := 0; i < m; i++ {
		idx, val := p.A.Row(i)
		ss := vec.Dot(val, val)
		w.norms[i] = math.Sqrt(ss)
		w.qii[i] = ss / p.Ridge
		w.rowMax = max(w.rowMax, len(idx))
	}
	w.pairI, w.pairJ = antipodalPair(p.A)
	return w
}

// Reset makes the next Solve start cold.
func (w *Workspace) Reset() { clear(w.lam) }

// SetB makes b the right-hand side of the next Solve (every entry < 0;
// read in place).
func (w *Workspace) SetB(b []float64) { w.p.B = b }

// SetQ makes q the linear term of the next Solve (nil: none; read in
// place).
func (w *Workspace) SetQ(q []float64) { w.p.Q = q }

// SetOptions replaces the callbacks of the next Solve.
func (w *Workspace) SetOptions(stop func(int64) bool, progress func(int, int64, float64), farkas func(lam, y []float64) bool, finish func(lam []float64) bool) {
	w.opt.Stop, w.opt.Progress, w.opt.Farkas, w.opt.Finish = stop, progress, farkas, finish
}

// primalFromDual sets x = -(q + A'lam)/ridge afresh (no drift from the
// coordinate updates).
func (w *Workspace) primalFromDual() {
	clear(w.x)
	w.p.A.MulTransVecAdd(w.x, w.lam)
	if w.p.Q != nil {
		vec.Axpy(1, w.p.Q, w.x)
	}
	vec.Scale(-1/w.p.Ridge, w.x)
}

// primalFromDualCompensated is primalFromDual for the certificate: each
// x_k = -(q_k + sum_i lambda_i a_ik) / ridge summed with the rounding
// error of every addition carried along (Knuth's TwoSum; Ogita, Rump and
// Oishi's Sum2, "Accurate sum and dot product", SIAM J. Sci. Comput.
// 26(6), 2005), which leaves an error of about one rounding of each
// product and of the result instead of one of each partial sum:
// |x~_k - x_k| <= (4 eps + gamma_c^2) (|q_k| + (|A|'lambda)_k) / ridge for
// a column of c nonzeros, where plain summation leaves gamma_c, c eps. The certificate's allowance for
// x (certify) is that much smaller: on 2000 rows, 600 times. w.xc holds
// the compensations.
func (w *Workspace) primalFromDualCompensated() {
	x, c := w.x, w.xc
	clear(c)
	if w.p.Q != nil {
		copy(x, w.p.Q)
	} else {
		clear(x)
	}
	for i, li := range w.lam {
		if li == 0 {
			continue
		}
		idx, val := w.p.A.Row(i)
		for k, j := range idx {
			// TwoSum: sum + err = x_j + t exactly, without a branch.
			a, t := x[j], float64(li*val[k]) // rounded, as TwoSum needs: not fused into a + t
			sum := a + t
			bv := sum - a
			c[j] += (a - (sum - bv)) + (t - bv)
			x[j] = sum
		}
	}
	r := w.p.Ridge
	for j := range x {
		x[j] = -(x[j] + c[j]) / r
	}
}
