package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// refine takes up to two Newton steps on the KKT system of the final working
// set in the caller's variables,
//
//	[H  A_W'] [dx]     [Hx + c + A_W'lambda]
//	[A_W  0 ] [dl] = - [A_W x - b_W        ],
//
// eliminated through the same factors (A_W H^{-1} A_W' is the Gram matrix
// G on the unit-normal scale). The loop's x is computed through L^{-T}, whose
// error grows with cond(H); the residuals here are computed from H and the
// rows themselves, so a step removes most of that error. A step is kept
// only if it lowers the scaled KKT residual. The refinement of the answer
// (final) measures members against their own terms where the common scale
// overstates their rounding (kktResidual); the loop's, which only has to
// tell nearly active rows from violated ones, keeps the common scale.
// It returns the scaled KKT residual of the x and lambda it leaves, or -1
// if it did not refine (a last member that depends on the others).
func (s *Solver) refine(final bool) float64 {
	k := len(s.ws)
	if k > 0 && s.fac.d[k-1] <= singularPivot && !s.lastIndep {
		return -1
	}
	best := s.kktResidual(s.x, s.lam, final)
	for round := 0; round < 2 && best > refineFloor; round++ {
		// r = Hx + c + A_W'lambda, left in s.r by the last kktResidual
		// (of this x and lambda: a rejected step ends the loop), t = L^{-1} r.
		s.chol.SolveL(s.t, s.r)
		dl := s.lamTry[:k]
		s.normals.dots(s.t, dl)
		for i, c := range s.ws {
			dl[i] = (s.rowValue(c, s.x)-s.rhs(c))/s.sigma[i] - dl[i]
		}
		s.fac.solve(dl, k)
		for i := range dl {
			s.normals.axpy(dl[i], i, s.t)
		}
		s.chol.SolveLT(s.xTry, s.t)
		var ok bool
		if best, ok = s.takeStep(dl, best, final); !ok {
			break
		}
	}
	return best
}

// takeStep completes a Newton step of refine or refineOrtho: s.xTry holds
// the correction dx and dl the multipliers' (each clamped to its range once
// added). The step is kept (x = x - dx, lambda += dl) only if the scaled
// KKT residual falls below best; it returns the residual of what it leaves
// and whether it took the step.
func (s *Solver) takeStep(dl []float64, best float64, final bool) (float64, bool) {
	for i := range s.xTry {
		s.xTry[i] = s.x[i] - s.xTry[i]
	}
	for i, c := range s.ws {
		lo, hi := s.multiplierRange(i, c)
		dl[i] = min(max(dl[i]+s.lam[i], lo), hi)
	}
	got := s.kktResidual(s.xTry, dl, final)
	if !(got < best) {
		return best, false
	}
	copy(s.x, s.xTry)
	s.xFresh, s.vFresh = false, false
	s.hxOK = true // s.hx holds H xTry from kktResidual
	copy(s.lam[:len(dl)], dl)
	return got, true
}

// refineAnswer refines the answer on the common scale, then against the
// members' own terms. The own-terms measure alone can end too early: a
// member with tiny terms makes it noisy, and a step that cuts the others'
// error a thousandfold is then rejected, which leaves x far from x* on an
// ill-conditioned vertex (TestIllConditionedVertex); the common-scale
// steps come first, so the second pass only improves on them. The second
// pass runs only when some member's terms are that small.
//
// Newton steps through the Gram factor gain about -log10(cond(N)^2 eps)
// digits each, and none once the members' normals are nearly dependent
// (unit-row multipliers of 1e9, TestRefineOrtho): an answer
// they leave above orthoTrigger is refined through a QR factorisation of
// the normals instead (refineOrtho), whose error grows with cond(N) only.
func (s *Solver) refineAnswer() {
	res := s.refine(false)
	own := s.ownScaleApplies()
	if own {
		res = s.refine(true)
	}
	if res > orthoTrigger {
		s.refineOrtho(own)
	}
}

// orthoTrigger is the scaled KKT residual after refineAnswer's Newton
// steps above which the answer is refined through QR: 64 times the steps'
// own floor. Below it the Gram factor has done its work; above it are
// only answers whose members are nearly dependent, a few of the package's
// tests and none of its benchmarks.
const orthoTrigger = 64 * refineFloor

// ownScaleApplies reports whether kktResidual(own) would measure some row or
// equality of the working set against its own terms (see kktResidual).
func (s *Solver) ownScaleApplies() bool {
	xn := 1 + vec.MaxAbs(s.x)
	for _, c := range s.ws {
		if c.kind != kindRow && c.kind != kindEq {
			continue
		}
		b := s.rhs(c)
		if max(math.Abs(s.rowValue(c, s.x)), math.Abs(b)) < ownScale*xn && s.rowSize(c, s.x)+math.Abs(b) < ownScale*xn {
			return true
		}
	}
	return false
}

// refineFloor is the scaled KKT residual below which a Newton step cannot
// gain: the residual's own rounding is a few eps.
const refineFloor = 16 * 0x1p-52

// rowValue is ahat_c'x on the unit-row scale (x_i or -x_i for bounds).
func (s *Solver) rowValue(c constraint, x []float64) float64 {
	switch c.kind {
	case kindRow:
		return s.rowDot(int(c.i), x) * s.ainv[c.i]
	case kindEq:
		return vec.Dot(s.aeq[c.i], x) * s.eqinv[c.i]
	case kindLower:
		return -x[c.i]
	default: // upper and fixed bounds, kinks
		return x[c.i]
	}
}

// addNormal adds alpha * ahat_c to dst (the caller's row scaled to unit norm).
func (s *Solver) addNormal(alpha float64, c constraint, dst []float64) {
	switch c.kind {
	case kindRow:
		s.rowAxpy(alpha*s.ainv[c.i], int(c.i), dst)
	case kindEq:
		vec.Axpy(alpha*s.eqinv[c.i], s.aeq[c.i], dst)
	case kindLower:
		dst[c.i] -= alpha
	default:
		dst[c.i] += alpha
	}
}

// absNormalDot is |ahat_c|'|x|: the size of the terms ahat_c'x adds.
func (s *Solver) absNormalDot(c constraint, x []float64) float64 {
	var row []float64
	var inv float64
	switch c.kind {
	case kindRow:
		inv = s.ainv[c.i]
		if sp := &s.sp; sp.sparse != nil && sp.sparse[c.i] {
			lo, hi := sp.pos[c.i], sp.pos[c.i+1]
			d := 0.0
			for p, k := range sp.idx[lo:hi] {
				d += math.Abs(sp.val[lo+int32(p)] * x[k])
			}
			return inv * d
		}
		row = s.a[c.i]
	case kindEq:
		inv, row = s.eqinv[c.i], s.aeq[c.i]
	default:
		return math.Abs(x[c.i])
	}
	d := 0.0
	for k, v := range row {
		d += math.Abs(v * x[k])
	}
	return inv * d
}

// kktResidual leaves r = Hx + cEff + sum_W lamhat_k ahat_k in s.r (lamhat_k =
// lam_k / sigma_k, the multiplier of the unit row) and returns
// max(||r||_inf / (1 + ||c||_inf + ||Hx||_inf + sum |lamhat|),
// max_W |ahat_k'x - bhat_k| / (1 + ||x||_inf)), the denominator of a row
// or equality |ahat_k|'|x| + |bhat_k| instead when own and that is below
// ownScale (1 + ||x||_inf).
func (s *Solver) kktResidual(x, lam []float64, own bool) float64 {
	s.chol.mulH(s.hx, x)
	s.hxOK = &x[0] == &s.x[0] // s.hx = H s.x, which certify reuses
	copy(s.r, s.hx)
	hx := vec.MaxAbs(s.r)
	vec.Axpy(1, s.cEff, s.r)
	// The sum's rounding grows with its largest terms, sum |lambda_i| among
	// them (unit normals): scaled by them, the stationarity floor is a few
	// eps, so large multipliers do not hide the primal residual.
	lamSum := 0.0
	for i, c := range s.ws {
		if lam[i] != 0 {
			l := lam[i] / s.sigma[i]
			s.addNormal(l, c, s.r)
			lamSum += math.Abs(l)
		}
	}
	stat := vec.MaxAbs(s.r) / (1 + vec.MaxAbs(s.cEff) + hx + lamSum)
	// A member's residual is relative to 1 + ||x||_inf, or, when the
	// terms it is made of, |ahat|'|x| + |bhat|, are below ownScale of
	// that, relative to them, the scale of its rounding: rows of raw
	// features see only the small entries of x, and against 1 + ||x||_inf
	// their residual can look converged a thousand times above its floor.
	// (Bounds and kinks keep 1 + ||x||_inf: a kink's terms are zero.) The
	// sum is at least lo = max(|ahat'x|, |bhat|): it is formed only when
	// lo is below ownScale of the common scale and the residual could beat
	// the largest so far.
	prim, xn := 0.0, 1+vec.MaxAbs(x)
	for _, c := range s.ws {
		b := s.rhs(c)
		v := s.rowValue(c, x)
		r, lo := math.Abs(v-b), max(math.Abs(v), math.Abs(b))
		den := xn
		if own && (c.kind == kindRow || c.kind == kindEq) && lo < ownScale*xn && r > prim*lo {
			if t := s.rowSize(c, x) + math.Abs(b); t < ownScale*xn {
				den = t
			}
		}
		if r > 0 {
			prim = max(prim, r/den)
		}
	}
	return max(stat, prim)
}

// ownScale is the ratio of a member's terms to 1 + ||x||_inf below which
// kktResidual measures its residual against them: where the common scale
// overstates its rounding a thousandfold. (Above it the common scale
// stands, and refinement does no more rounds than it did with it alone.)
const ownScale = 1e-3

// rowSize is |ahat_c|'|x| for a row or an equality.
func (s *Solver) rowSize(c constraint, x []float64) float64 {
	a, inv := s.a, s.ainv
	if c.kind == kindEq {
		a, inv = s.aeq, s.eqinv
	}
	size := 0.0
	for k, ak := range a[c.i] {
		size += math.Abs(ak * x[k])
	}
	return size * inv[c.i]
}

// zeroNoise sets to 0 each x_i within the rounding of what x is computed
// from: 4 eps ||H^{-1} cEff||_inf, the size of the unconstrained minimiser
// whose terms x = v_u - N lambda cancel. Where x* has zeros held by
// members through the origin, x carries that cancellation's noise, and a
// member it violates by 1e-34 is violated beyond the rounding of x itself,
// which is 0 there (FuzzActiveSet 24705179325da8d6, TestZeroNoise). It keeps
// the result if it is Feasible, restores x otherwise, and reports whether
// it kept it. O(n^2).
func (s *Solver) zeroNoise() bool {
	s.compensatedWork()
	s.chol.Solve(s.t, s.cEff)
	tiny := 4 * 0x1p-52 * vec.MaxAbs(s.t)
	copy(s.keptX, s.x)
	changed := false
	for i, v := range s.x {
		if v != 0 && math.Abs(v) <= tiny {
			s.x[i], changed = 0, true
		}
	}
	if !changed {
		return false
	}
	return s.keepIfFeasible()
}
