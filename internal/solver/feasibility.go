package solver

import (
	"context"
	"math"
	"slices"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// Phase one: deciding feasibility when the multipliers saturate.
//
// Raising xi cannot help when no x satisfies the constraints: the penalised
// minimiser then runs off along a direction in which the violation cannot
// shrink, and each raise only makes the inner problem harder (on a 3000-row
// infeasible QP the stage at xi = 4.5e15 took 2e8 steps). So, once xi has
// been raised past xiPhaseOne, the solver minimises the squared violation
//
//	h(x) = 1/2 sum_k (a_k^T x - b_k)_+^2 + 1/2 ||(x - upper)_+||^2 + 1/2 ||(lower - x)_+||^2
//
// over all working rows (kept or not, equality rows as their two signs) by
// a semismooth Newton method. h is convex and continuously differentiable;
// its minimum is 0 exactly when the constraints and the box can all hold.
// At a minimiser x^ with h(x^) > 0, y = (A x^ - b)_+ is a Farkas
// certificate: with g = A^T y, stationarity gives g_i = (lower_i - x^_i)_+ -
// (x^_i - upper_i)_+, so g_i > 0 only where lower_i is finite and g_i < 0
// only where upper_i is, and
//
//	min_{lower <= x <= upper} g^T x = g^T x^ + ||g||^2 > g^T x^ - ||y||^2 = b^T y,
//
// while every x with A x <= b has g^T x = y^T A x <= y^T b. Without a box,
// g = 0 and b^T y = -||y||^2 < 0. The certificate is checked as computed
// (verifyFarkas), not trusted from the minimisation.

// feasibility is what phase one concluded.
type feasibility int

const (
	undecided  feasibility = iota
	feasible               // a point satisfying every row and the box was found
	infeasible             // Result.Farkas holds a checked certificate
)

// phaseWork is phase one's workspace, allocated on first use (a solve that
// never saturates xi past xiPhaseOne never allocates it).
type phaseWork struct {
	h          *mat.Dense
	chol       mat.Cholesky
	x, g, d, u []float64 // length n
	xt         []float64 // length n: trial point
	y          []float64 // length mw: candidate certificate on the working rows
}

func (w *phaseWork) alloc(n, mw int) {
	if w.h != nil {
		return
	}
	w.h = mat.NewDense(n, n)
	f := func(k int) []float64 { return make([]float64, k) }
	w.x, w.g, w.d, w.u, w.xt = f(n), f(n), f(n), f(n), f(n)
	w.y = f(mw)
}

// violation is h(x) and, if g is not nil, its gradient; it leaves the
// residuals of the working rows at x in state.r.
func (s *Solver) violation(x, g []float64) float64 {
	var h float64
	if g != nil {
		clear(g)
	}
	for k := 0; k < s.mw; k++ {
		r := s.rowResidual(k, x)
		s.state.r[k] = r
		if !(r > 0) {
			continue
		}
		h += r * r / 2
		if g != nil {
			s.addUnitRow(k, r, g)
		}
	}
	if s.lower != nil {
		h = boxViolation(h, x, s.lower, s.upper, g)
	}
	return h
}

// boxViolation adds to h phase one's part of the bounds, e_i^2 / 2 for
// each i in turn, e_i x_i's distance outside [lower_i, upper_i] (signed:
// above positive), and adds its gradient e to g unless g is nil.
func boxViolation(h float64, x, lower, upper, g []float64) float64 {
	for i, v := range x {
		e := max(v-upper[i], 0) - max(lower[i]-v, 0)
		h += e * e / 2
		if g != nil {
			g[i] += e
		}
	}
	return h
}

// phaseOne minimises h from the current iterate and reports what it shows.
// On infeasible it has written the certificate to Result.Farkas.
func (s *Solver) phaseOne() feasibility {
	n := s.n
	if n > phaseOneMaxN {
		return undecided
	}
	w := &s.state.phase
	w.alloc(n, s.mw)
	x := w.x
	copy(x, s.state.x)
	h := s.violation(x, w.g)
	for it := 0; it < phaseOneIters && h > 0; it++ {
		// Generalised Hessian: the rows and bounds violated at x (state.r
		// holds x's residuals from the violation call that gave h).
		clear(w.h.Data)
		for k, r := range s.state.r[:s.mw] {
			if r > 0 {
				clear(w.u)
				s.addUnitRow(k, 1, w.u)
				for i, ui := range w.u {
					if ui != 0 {
						vec.Axpy(ui, w.u, w.h.Row(i))
					}
				}
			}
		}
		if s.lower != nil {
			for i, v := range x {
				if v > s.upper[i] || v < s.lower[i] {
					w.h.Data[i*n+i]++
				}
			}
		}
		diag := 0.0
		for i := 0; i < n; i++ {
			diag = max(diag, w.h.Data[i*n+i])
		}
		w.h.AddDiag(phaseOneRegRel * max(diag, 1))
		if w.chol.Factor(w.h) != nil {
			break
		}
		w.chol.Solve(w.d, w.g)
		slope := -vec.Dot(w.g, w.d) // directional derivative along -d
		if !(slope < 0) {
			break
		}
		// Backtracking (Armijo) along -d.
		t, hNew := 1.0, h
		for ls := 0; ls < 60; ls++ {
			vec.AxpbyTo(w.xt, 1, x, -t, w.d)
			hNew = s.violation(w.xt, nil)
			if hNew <= h+1e-4*t*slope {
				break
			}
			t /= 2
		}
		if !(hNew < h) {
			break // no progress in double precision: x is the minimiser
		}
		copy(x, w.xt)
		h = s.violation(x, w.g)
	}
	if h == 0 {
		return feasible
	}
	for k := 0; k < s.mw; k++ {
		w.y[k] = max(s.rowResidual(k, x), 0)
	}
	if s.verifyFarkas(w.y) {
		return infeasible
	}
	return undecided
}

// verifyFarkas checks y >= 0 on the working rows as a certificate that no x
// in the box has a_k^T x <= b_k for every k: b^T y < min over the box of
// g^T x, g = A^T y. A component of g whose bound in the needed direction is
// infinite must vanish, to within farkasRelTol relative to sum_k y_k (the
// rows have unit norm); the strict inequality must hold with a margin of
// farkasRelTol relative to sum_k y_k (1 + |b_k|). On success the certificate
// is written to Result.Farkas on the caller's rows and scale (largest entry
// 1).
func (s *Solver) verifyFarkas(y []float64) bool {
	g := s.state.phase.g
	clear(g)
	var by, sum, scale float64
	for k, v := range y {
		if v == 0 {
			continue
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return false
		}
		s.addUnitRow(k, v, g)
		by += v * s.b[k]
		sum += v
		scale += v * (1 + math.Abs(s.b[k]))
	}
	if !(sum > 0) {
		return false
	}
	low := 0.0 // min over the box of g^T x
	for i, gi := range g {
		bound, finite := s.minimizingBound(i, gi)
		if !finite {
			if math.Abs(gi) > farkasRelTol*sum {
				return false
			}
			continue
		}
		low += gi * bound
	}
	if !(by < low-farkasRelTol*scale) || !s.confirmFarkas(y) {
		return false
	}
	s.writeFarkas(y)
	return true
}

// confirmFarkas decides whether the rows of y's support (y >= 0 on the
// working rows, a certificate the penalty method's checks accept to a
// tolerance relative to sum y) can all hold with the box, by the
// active-set method on those rows alone with H = I and c = 0, the
// equalities among them given as equalities. The checks
// cannot tell an infeasible problem from one feasible only far away: a
// problem whose solution has ||x*|| = 5e6 passed farkas's 1e-6 (FuzzTinyQP)
// and was reported infeasible. The engine answers exactly: infeasible,
// with a certificate it checked to 1e-13 of its terms, which replaces y
// (on the same inequality rows, and on the plus or minus row of each
// equality by its multiplier's sign); or a point satisfying them, and y
// proved nothing.
// It reports whether the rows are infeasible. Above farkasEngineMaxN,
// where the engine's n x n identity would take too much memory, y must
// hold to the rounding of its own sums instead (holdsToRounding). It
// allocates (the rows, an n x n identity, an engine): it runs only after a
// check has passed, at most once per raise of xi past the point where
// certificates are tried, and such solves end soon after.
func (s *Solver) confirmFarkas(y []float64) bool {
	n := s.n
	if n > farkasEngineMaxN {
		return s.holdsToRounding(y)
	}
	// The support's inequalities are rows of the engine's problem, and
	// each equality one of whose two working rows is in the support is an
	// equality of it (its plus row). Given as two rows, an equality's
	// multipliers may be large and nearly equal, and their difference
	// carries the certificate: with an inequality a near copy of the
	// equality (relative 1e-11), y on the three rows cancelled to 4e-17
	// and the engine took it for a certificate of a problem whose solution
	// has ||x*|| = 2.4e11 (TestFarkasEqualityTwins). The rows are the
	// caller's, unscaled: two equalities that differ by less than their
	// rounding once scaled to unit norm became one row with two
	// right-hand sides, which the engine rightly called infeasible, for a
	// problem feasible at ||x*|| = 3e16 (TestConfirmFarkasCallerRows).
	var ineq, eqRows, eqAt []int
	for k, v := range y {
		if v == 0 {
			continue
		}
		c := s.code[k]
		if !c.isEq() {
			ineq = append(ineq, k)
		} else if !slices.Contains(eqRows, c.eqRow()) {
			eqRows, eqAt = append(eqRows, c.eqRow()), append(eqAt, k)
		}
	}
	rows, b := make([][]float64, len(ineq)), make([]float64, len(ineq))
	for i, k := range ineq {
		rows[i], _ = s.sourceRow(s.code[k]) // read only
		b[i] = s.bSrc[k]
	}
	var aeq *mat.Dense
	var beq []float64
	if len(eqAt) > 0 {
		aeq, beq = mat.NewDense(len(eqAt), n), make([]float64, len(eqAt))
		for i, k := range eqAt {
			row, sign := s.sourceRow(s.code[k]) // the plus row is the caller's
			copy(aeq.Row(i), row)
			beq[i] = sign * s.bSrc[k]
		}
	}
	ident := mat.NewDense(n, n)
	ident.AddDiag(1)
	eng, err := activeset.New(&activeset.Problem{N: n, H: ident, C: make([]float64, n), ARows: rows, B: b,
		Aeq: aeq, Beq: beq, Lower: s.lower, Upper: s.upper}, &activeset.Options{OneShot: true})
	if err != nil {
		return false
	}
	r := eng.Solve(context.Background())
	if r.Status != activeset.StatusInfeasible {
		return false
	}
	// The engine's multipliers are on the caller's rows; a working row is
	// the caller's over its norm, so its multiplier is times the norm.
	clear(y)
	for i, k := range ineq {
		y[k] = r.FarkasA[i] * s.norm[k]
	}
	for i, j := range eqRows {
		// An equality's multiplier goes to its plus row if positive, its
		// minus row if negative; a certificate that needs a row outside
		// y proves nothing here.
		v := r.FarkasEq[i]
		if v == 0 {
			continue
		}
		k := slices.Index(s.code[:len(y)], eqCode(j, v < 0))
		if k < 0 {
			return false
		}
		y[k] = math.Abs(v) * s.norm[k]
	}
	return true
}

// minimizingBound is the bound of x_i at which g_i x_i is least over the
// box (0 for g_i = 0), and whether it is finite: where it is not, g_i x_i
// has no minimum unless g_i = 0.
func (s *Solver) minimizingBound(i int, gi float64) (bound float64, finite bool) {
	switch {
	case gi == 0:
		return 0, true
	case s.lower == nil:
		return 0, false
	case gi > 0:
		bound = s.lower[i]
	default:
		bound = s.upper[i]
	}
	return bound, !math.IsInf(bound, 0)
}

// holdsToRounding checks y >= 0 on the working rows as a certificate in
// float64 with the rounding of its sums charged: with g = A'y and
// u = sum_k y_k |a_k| (entrywise), every g_i whose needed bound is
// infinite must vanish to within gamma u_i, gamma = (k + 4) eps for k rows
// in y's support (the rounding of a sum of k products of unit rows scaled
// in float64), and b'y must lie below the box's minimum of g'x by more than
// both sides' rounding. A y that cancels only to a tolerance (the rows
// (1, 1e-7) and (-1, 1e-7) with b = (-1, -1): g = (0, 2e-7), which a
// relative test of 1e-6 passes, but x = (-1.1e7, 0) satisfies both) fails
// it. An equality's two rows count as one, with the difference of their
// multipliers, whose size is the certificate's: held as two, their
// nearly equal multipliers make the test as loose as their own size
// (TestFarkasEqualityTwinsCancel). It allocates a row's worth of scratch
// twice.
func (s *Solver) holdsToRounding(y []float64) bool {
	n := s.n
	g, u, row := make([]float64, n), make([]float64, n), make([]float64, n)
	var by, byAbs float64
	k := 0
	for j, v := range y {
		if v == 0 {
			continue
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return false
		}
		c := s.code[j]
		if c.isEq() {
			// An equality counts once, with its net multiplier: its two
			// rows' large, nearly equal multipliers would make their
			// cancelling sum pass a test relative to their size.
			if t := slices.Index(s.code[:len(y)], eqCode(c.eqRow(), !c.isEqMinus())); t >= 0 && t < j && y[t] != 0 {
				continue // netted at its twin
			} else if t >= 0 {
				v -= y[t]
			}
		}
		k++
		clear(row)
		s.addUnitRow(j, 1, row)
		for i, a := range row {
			g[i] += v * a
			u[i] += math.Abs(v * a)
		}
		by += v * s.b[j]
		byAbs += math.Abs(v * s.b[j])
	}
	if k == 0 {
		return false
	}
	gamma := float64(k+4) * 0x1p-52
	low, lowAbs := 0.0, 0.0 // min over the box of g'x, and the size of its terms
	for i, gi := range g {
		bound, finite := s.minimizingBound(i, gi)
		if !finite {
			if math.Abs(gi) > gamma*u[i] {
				return false
			}
			continue
		}
		low += gi * bound
		lowAbs += (math.Abs(gi) + gamma*u[i]) * math.Abs(bound)
	}
	return by+gamma*byAbs < low-gamma*lowAbs
}

// farkas looks for a certificate of infeasibility in the saturated
// multipliers: y = lambda/xi >= 0 with A^T y ~ 0 and b^T y < 0 proves that no
// x has A x <= b, since y^T A x <= y^T b < 0 would need (A^T y)^T x < 0 with
// A^T y = 0. It writes y on the caller's rows to Result.Farkas (max entry 1)
// and reports whether the certificate holds to within 1e-6 relative.
func (s *Solver) farkas(rn *run) bool {
	lam, r := s.state.lam[:s.kept], s.state.r[:s.kept]
	// The stationary multipliers at the stage's delta (certify leaves
	// sharper maps in state.lam).
	s.residual(r, s.state.x)
	softplus.DualMap(lam, r, rn.sched.xi, rn.sched.delta)
	t := s.state.tmp
	s.working().MulTransVec(t, lam)
	var by, sum float64
	for k, v := range lam {
		by += s.b[k] * v
		sum += v
	}
	if !(sum > 0) || !(by < 0) {
		return false
	}
	if math.Sqrt(vec.Dot(t, t)) > 1e-6*sum || -by < 1e-9*sum || !s.confirmFarkas(lam) {
		return false
	}
	s.writeFarkas(lam)
	return true
}

// writeFarkas writes the certificate y >= 0 on the working rows to
// Result.Farkas on the caller's rows and scale (an equality's two rows net
// out with their signs), scaled to largest entry 1.
func (s *Solver) writeFarkas(y []float64) {
	clear(s.res.Farkas)
	var mx float64
	for k, v := range y {
		if v == 0 {
			continue
		}
		j := s.code[k].resultIndex(s.m)
		s.res.Farkas[j] += v / s.norm[k] * s.code[k].sign()
		mx = max(mx, math.Abs(s.res.Farkas[j]))
	}
	if mx > 0 {
		vec.Scale(1/mx, s.res.Farkas)
	}
}
