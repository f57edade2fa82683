package newtoncg

import (
	"math"
	"math/big"
	"slices"

	"github.com/softpen/softpen/vec"
)

// Linear inequality rows A x <= b beside the loss, by the augmented
// Lagrangian (the method of multipliers). With multipliers lambda >= 0 and
// a penalty rho > 0, each Newton iteration works on
//
//	F_rho(x; lambda) = F(x) + sum_i psi(r_i),  r = A x - b,
//	psi(r_i) = ((lambda_i + rho r_i)_+^2 - lambda_i^2) / (2 rho),
//
// a smooth convex function of x whose rows of A act like one more loss:
// slope lhat_i = (lambda_i + rho r_i)_+ and curvature rho where that is
// positive (0 elsewhere), so that the Newton-CG machinery of the loss runs
// on them unchanged and the model stays free of any n x n matrix. Once an
// iterate solves F_rho well enough (its own gap, gapTerms, below a tenth of
// the constraints' part of the certificate below), lambda becomes lhat;
// rho grows tenfold when the largest violation did not fall fourfold since
// the last update. The multipliers converge at a rate that improves with
// rho, and unlike a pure penalty (the softplus stages of the dense path)
// the point becomes feasible at a fixed rho, so the Newton systems keep
// the conditioning of rho.
//
// The certificate of the constrained problem takes lhat as its
// multipliers: any lhat >= 0 gives the lower bound
// F* >= min_x F(x) + lhat'(A x - b), which the Fenchel dual of gap.go
// bounds with lhat'A added to the linear term, and the upper bound is the
// exact penalty F(x) + xi sum_i (r_i)_+ with xi = 2 max(||lambda||_inf,
// ||lhat||_inf) (valid once xi >= ||lambda*||_inf, as in the dense path:
// nothing certifies that, so Solved also asks that the last step of the
// multipliers, rho max_i (r_i)_+, be at most a twentieth of xi, that is,
// that they have settled; and that each row hold to the tolerance
// relative to its terms, (r_i)_+ <= Tol max(|a_i|'|x| + |b_i|,
// ||a_i||_1), which the certificate alone does not ask where multipliers
// are small. The terms are taken at least at ||a_i||_1, their size at
// |x_j| = 1, as the gap is taken relative to at least 1: so x* = 0 with
// b = 0 can be met, and rows with b = 0 over small weights do not ask
// for far more than the gap does. Taken relative to the largest row's
// terms instead, as OSQP does, a row of scale 1e9 would loosen every
// other row's test as much). The relative test also passes rows that no
// x meets, once x is large: where it passes rows violated beyond
// rounding, Solved further asks phase one for a point that meets them to
// rounding (feasibility.go). Their difference is
//
//	gap = gapTerms(x) + sum_i (xi (r_i)_+ - lhat_i r_i),
//
// a sum of nonnegative terms up to rounding, with an allowance for the
// rounding of r.

// initConstraints sizes the workspace for the rows of p.A (none: nothing).
func (w *Workspace) initConstraints() {
	a := w.p.A
	if a == nil {
		return
	}
	m, n := a.Rows, a.Cols
	w.pre.maxRows = precondMaxRows
	fm := func() []float64 { return make([]float64, m) }
	w.lam, w.lhat, w.rA, w.rANew, w.curvA, w.uA, w.farkas = fm(), fm(), fm(), fm(), fm(), fm(), fm()
	w.sA, w.sAbsA = make([]float64, n), make([]float64, n)
	cols := make([]int32, n)
	for i := 0; i < m; i++ {
		idx, _ := a.Row(i)
		w.rowMaxA = max(w.rowMaxA, len(idx))
		for _, j := range idx {
			cols[j]++
		}
	}
	for _, c := range cols {
		w.colMaxA = max(w.colMaxA, int(c))
	}
	// rho0: the augmented Lagrangian's multipliers contract well when rho
	// is about the curvature of F along a row, 1 / (a_i' H^-1 a_i). With
	// H's diagonal bound h_j = (largest loss curvature) sum_i phi_ij^2 / l
	// + ridge in place of H, that is 1 / sum_j a_ij^2 / h_j; rho0 is its
	// median over the rows. It follows any scaling of x, the rows or the
	// objective, and heeds where the rows fall: on Zipf data they sit on
	// the frequent features, whose curvature is orders of magnitude above
	// the mean, and a rho0 from the mean diagonal (the first rule tried)
	// started 2.6e4 times too low there, costing twice the passes (Zipf
	// 2e5 x 2e5 with 2000 ZipfRows: 1287 -> 646 passes). Ten and a
	// hundred times the median measured about the same (668, 672), a
	// thousand times 2707, and a rho held at rho0 918.
	h := make([]float64, n)
	for k, j := range w.p.X.Idx {
		v := w.p.X.Val[k]
		h[j] += v * v
	}
	scale := w.p.Loss.maxCurvature() / float64(max(1, w.p.X.Rows))
	for j := range h {
		h[j] = h[j]*scale + w.p.Ridge
	}
	inv := make([]float64, 0, m)
	for i := 0; i < m; i++ {
		idx, val := a.Row(i)
		var c float64
		for q, j := range idx {
			c += val[q] * val[q] / h[j]
		}
		if c > 0 {
			inv = append(inv, 1/c)
		}
	}
	w.rho0 = w.p.Ridge
	if len(inv) > 0 {
		slices.Sort(inv)
		w.rho0 = inv[len(inv)/2]
	}
	w.rho = w.rho0
}

// residualA sets r = A x - b.
func (w *Workspace) residualA(r, x []float64) {
	w.p.A.MulVec(r, x)
	for i, b := range w.p.B {
		r[i] -= b
	}
}

// penaltyA returns sum_i psi(r_i) at the current lambda and rho.
func (w *Workspace) penaltyA(r []float64) float64 {
	var sum float64
	for i, ri := range r {
		l := w.lam[i]
		if v := l + w.rho*ri; v > 0 {
			sum += (v - l) * (v + l) / (2 * w.rho)
		} else {
			sum -= l * l / (2 * w.rho)
		}
	}
	return sum
}

// derivativesA sets lhat = (lambda + rho r)_+ and the rows' curvature at
// the current r, then their sums (sumsA).
func (w *Workspace) derivativesA() {
	for i, ri := range w.rA {
		v := w.lam[i] + w.rho*ri
		w.lhat[i], w.curvA[i] = 0, 0
		if v > 0 {
			w.lhat[i], w.curvA[i] = v, w.rho
		}
	}
	w.sumsA()
}

// sumsA sets sA = A'lhat and sAbsA = |A|'lhat (in row order) and adds the
// rows' part of the Hessian's diagonal, A' diag(curvA) A, to hdiag.
func (w *Workspace) sumsA() {
	a := w.p.A
	clear(w.sA)
	clear(w.sAbsA)
	for i, v := range w.lhat {
		if v <= 0 {
			continue
		}
		c := w.curvA[i]
		idx, val := a.Row(i)
		for q, j := range idx {
			e := val[q]
			w.sA[j] += e * v
			w.sAbsA[j] += math.Abs(e * v)
			w.hdiag[j] += e * e * c
		}
	}
}

// hessianA adds A' diag(curvA) A v to hp.
func (w *Workspace) hessianA(hp, v []float64) {
	w.p.A.MulVec(w.uA, v)
	for i, c := range w.curvA {
		w.uA[i] *= c
	}
	w.p.A.MulTransVecAdd(hp, w.uA)
}

// alXi is the exact penalty of the augmented Lagrangian's certificate,
// 2 max(||lambda||_inf, ||lhat||_inf).
func (w *Workspace) alXi() float64 {
	var xi float64
	for i, l := range w.lhat {
		xi = max(xi, max(l, w.lam[i]))
	}
	return 2 * xi
}

// gapA returns the constraints' part of the certificate at x (r = A x - b
// computed, lhat >= 0 set) measured with the exact penalty xi, with the
// allowance for the rounding of r; the largest violation max_i (r_i)_+;
// and the largest relative to its row's terms, max_i (r_i)_+ /
// max(|a_i|'|x| + |b_i|, ||a_i||_1).
func (w *Workspace) gapA(x []float64, xi float64) (gap, viol, rel float64) {
	for _, ri := range w.rA {
		viol = max(viol, ri)
	}
	g := vec.DotErrorBound(w.rowMaxA + 1)
	const eps = 0x1p-52
	var sum, sumAbs, allow float64
	for i, ri := range w.rA {
		term := -w.lhat[i] * ri
		if ri > 0 {
			term += xi * ri
		}
		sum += term
		sumAbs += math.Abs(term)
		// |r_i - r~_i| <= gamma (|a_i|'|x| + |b_i|), weighed by the most a
		// unit of r moves the term.
		idx, val := w.p.A.Row(i)
		var ax, a1 float64
		for q, j := range idx {
			ax += math.Abs(val[q] * x[j])
			a1 += math.Abs(val[q])
		}
		// xi weighs the error only where the exact r_i may be positive: a
		// row far inside its half-space adds nothing through xi (r_+ is 0
		// there, exact or not), whatever its scale.
		size := ax + math.Abs(w.p.B[i])
		err := g*size + eps*math.Abs(ri)
		weight := w.lhat[i]
		if ri+err > 0 {
			weight += xi
		}
		allow += weight * err
		if ri > 0 {
			rel = max(rel, ri/max(size, a1))
		}
	}
	return sum + allow + vec.DotErrorBound(len(w.rA)+1)*sumAbs, viol, rel
}

// updateMultipliers makes lhat the multipliers of the next iterations and
// raises rho tenfold when the largest violation viol did not fall
// fourfold since the last update.
func (w *Workspace) updateMultipliers(viol float64) {
	copy(w.lam, w.lhat)
	if w.violLast >= 0 && viol > w.violLast/4 && w.rho < 1e12*w.rho0 {
		w.rho *= 10
	}
	w.violLast = viol
}

// farkasMargin is the relative margin by which a Farkas certificate's
// inequality must hold, beyond the rounding of its sums.
const farkasMargin = 1e-12

// infeasible tries y = lhat / max(lhat), then the indicators of
// lhat_i >= theta max(lhat), as a Farkas certificate that no x in the
// bounds satisfies A x <= b: y >= 0 with
//
//	b'y < min over the bounds of (A'y)'x,
//
// a contradiction with y'(A x) <= y'b for any feasible x. A diverging
// augmented Lagrangian (the multipliers of an infeasible system grow
// without end) makes lhat point along such a y, but only to rounding: its
// ratios are then snapped to simple fractions as FarkasFrom does (rows
// x_0 - x_1 <= -1, 2 x_1 - 2 x_0 <= 0 need y = (1, 1/2) exactly, and ran
// to the iteration limit without). On success y is in res.Farkas
// (largest entry 1).
func (w *Workspace) infeasible() bool {
	if w.farkasOf(w.lhat, slopeTries[:]) {
		return true
	}
	var lmax float64
	for _, l := range w.lhat {
		lmax = max(lmax, l)
	}
	return lmax > 0 && !math.IsInf(lmax, 1) && w.snappedFarkas(w.lhat, lmax)
}

// slopeTries are the thresholds theta infeasible tries, in order, 0 for
// the vector itself; residualTries are FarkasFrom's, 0 last. A vector
// from an approximate minimiser (phase one's residuals) carries its error
// in every entry, where the indicators are exact numbers: a combinatorial
// contradiction (rows x_0 <= -1, -x_0 <= -1) cancels exactly in them, and
// in the vector only to its rounding.
var (
	slopeTries    = [...]float64{0, 0.5, 1.0 / 16, 1.0 / 128, 1.0 / 1024}
	residualTries = [...]float64{0.5, 1.0 / 16, 1.0 / 128, 1.0 / 1024, 0}
)

// farkasOf is infeasible with v >= 0 on the rows of A in lhat's place (v
// must not alias w.farkas) and the thresholds tries.
func (w *Workspace) farkasOf(v []float64, tries []float64) bool {
	var lmax float64
	for _, l := range v {
		lmax = max(lmax, l)
	}
	if !(lmax > 0) || math.IsInf(lmax, 1) {
		return false
	}
	for _, theta := range tries {
		for i, l := range v {
			switch {
			case theta == 0:
				w.farkas[i] = l / lmax
			case l >= theta*lmax:
				w.farkas[i] = 1
			default:
				w.farkas[i] = 0
			}
		}
		if w.checkFarkas(w.farkas) {
			return true
		}
	}
	return false
}

// checkFarkas checks y >= 0 (not all 0) as a Farkas certificate of the
// rows with the bounds (see infeasible), with every sum's rounding allowed
// for: each g_j = (A'y)_j is known to within tau_j = gamma (|A|'y)_j, so
// its term of min over the bounds of g'x is taken at the worse end of
// [g_j - tau_j, g_j + tau_j] (min_x g x is concave in g). A variable
// unbounded on the side its g_j needs makes y prove nothing, unless g_j is
// 0, which a computed |g_j| <= tau_j does not show. Such g_j count as 0
// when together they are within the rounding of y's own terms, sum |g_j|
// <= gamma_{nz+1} sum_j (|A|'y)_j (nz the nonzeros of y), the rule of the
// engine and of dualcd: a g that is not exactly 0 proves only that no x
// within margin / ||g||_1 of the origin is feasible, and beyond that
// radius y'A x carries a rounding of at least ||g||_1 ||x||, so that
// float64 cannot tell such an x from none. (A test relative to each
// column, |g_j| <= 1e-12 (|A|'y)_j, called infeasible a system feasible
// only at |x| = 2e13: x0 + x1 <= -1, -x0 - (1 - 1e-13) x1 <= 0.) Failing
// that, the columns are summed again exactly (math/big, allocating: only
// once the rest of the certificate has passed). It uses sA and sAbsA as
// scratch (derivatives sets them again before their next use).
func (w *Workspace) checkFarkas(y []float64) bool {
	p := &w.p
	g, size := w.sA, w.sAbsA
	clear(g)
	clear(size)
	var by, byAbs float64
	for i, yi := range y {
		if yi == 0 {
			continue
		}
		by += yi * p.B[i]
		byAbs += math.Abs(yi * p.B[i])
		idx, val := p.A.Row(i)
		for q, j := range idx {
			g[j] += yi * val[q]
			size[j] += math.Abs(yi * val[q])
		}
	}
	gamma := vec.DotErrorBound(w.colMaxA + 1)
	var low, lowAbs float64 // a lower bound on min over the bounds of g'x
	exact := 0              // columns whose g_j must be 0
	var resid, terms float64
	for j, gj := range g {
		if size[j] == 0 {
			continue
		}
		terms += size[j]
		tau := gamma * size[j]
		lo, hi := w.lower(j), w.upper(j)
		term := math.Inf(1)
		for _, gv := range [2]float64{gj - tau, gj + tau} {
			var t float64
			switch {
			case gv > 0:
				t = gv * lo
			case gv < 0:
				t = gv * hi
			}
			term = min(term, t)
		}
		if math.IsInf(term, -1) {
			if math.Abs(gj) > tau {
				return false // g_j's sign is sure and needs a missing bound
			}
			exact++
			resid += math.Abs(gj)
			size[j] = -1 // marks the column for the exact sum
			continue
		}
		low += term
		lowAbs += math.Abs(term)
	}
	allow := (farkasMargin + vec.DotErrorBound(len(y)+len(g)+1)) * (byAbs + lowAbs)
	if !(by < low-allow) {
		return false
	}
	if exact == 0 {
		return true
	}
	nz := 0
	for _, yi := range y {
		if yi != 0 {
			nz++
		}
	}
	return resid <= vec.DotErrorBound(nz+1)*terms || w.cancelsExactly(y, size)
}

// cancelsExactly reports whether (A'y)_j is exactly 0 for every column
// marked by size_j = -1, summing the products y_i a_ij (each exact in a
// rational) without rounding.
func (w *Workspace) cancelsExactly(y, size []float64) bool {
	sums := map[int32]*big.Rat{}
	var yr, ar big.Rat
	for i, yi := range y {
		if yi == 0 {
			continue
		}
		idx, val := w.p.A.Row(i)
		for q, j := range idx {
			if size[j] != -1 {
				continue
			}
			s := sums[j]
			if s == nil {
				s = new(big.Rat)
				sums[j] = s
			}
			yr.SetFloat64(yi)
			ar.SetFloat64(val[q])
			s.Add(s, ar.Mul(&ar, &yr))
		}
	}
	for _, s := range sums {
		if s.Sign() != 0 {
			return false
		}
	}
	return true
}
