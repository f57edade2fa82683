package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// multipliers writes the multipliers of the working set on the caller's
// scale into the Result: a unit-normal multiplier lam_k is lam_k / sigma_k
// on the unit row and lam_k / (sigma_k ||a_k||) on the caller's row.
func (s *Solver) multipliers() {
	clear(s.res.Lambda)
	clear(s.res.Nu)
	clear(s.res.Z)
	for i, sign := range s.capSign {
		if s.l1 > 0 {
			s.res.W[i] = float64(sign) * s.l1
		}
	}
	for i, c := range s.ws {
		l := s.lam[i] / s.sigma[i]
		switch c.kind {
		case kindRow:
			s.res.Lambda[c.i] = l * s.ainv[c.i]
		case kindEq:
			s.res.Nu[c.i] = l * s.eqinv[c.i]
		case kindKink:
			s.res.W[c.i] = l
		case kindLower:
			s.res.Z[c.i] = -l
		default:
			s.res.Z[c.i] = l
		}
	}
}

// certify fills the Result with x, the multipliers and their certificate,
// all computed from the caller's data:
//
//	objective  F(x) = 1/2 x'Hx + c'x + l1 ||x||_1
//	dual       g = -1/2 q'H^{-1}q - b'lambda - beq'nu - sum_i z_i bound_i,
//	           q = c + A'lambda + Aeq'nu + z + w, bound_i = up_i if z_i > 0 else lo_i
//
// g is the minimum over x of the Lagrangian (l1 |x_i| >= w_i x_i for
// |w_i| <= l1), so g <= F* for any lambda >= 0, z of the bound signs and
// |w| <= l1, and Gap = F(x) - g bounds F(x) - F* for a
// feasible x (MaxViolation says how feasible x is).
func (s *Solver) certify() {
	s.multipliers()
	r := &s.res
	// x leaves the loop within PrimalTol of its bounds; the answer lies in
	// the box exactly, so that only rows and equalities can be violated.
	for i, v := range s.x {
		w := min(max(v, s.lo[i]), s.up[i])
		if s.l1 > 0 && s.kinkIn[i] {
			w = 0 // held at its kink
		}
		if w != v {
			s.x[i], s.hxOK = w, false
		}
	}
	copy(r.X, s.x)
	if !s.hxOK {
		s.chol.mulH(s.hx, s.x)
	}
	copy(s.r, s.hx)
	r.Objective = 0.5*vec.Dot(s.x, s.r) + vec.Dot(s.c, s.x)
	if s.l1 > 0 {
		for _, v := range s.x {
			r.Objective += s.l1 * math.Abs(v)
		}
	}
	// q = c + A'lambda + Aeq'nu + z + w in s.t (cEff holds the capped w);
	// stationarity Hx + q.
	copy(s.t, s.cEff)
	lin, linAbs, lamAbs := 0.0, 0.0, 0.0
	for i, c := range s.ws {
		l := s.lam[i] / s.sigma[i]
		if l == 0 {
			continue
		}
		s.addNormal(l, c, s.t)
		lin += l * s.rhs(c)
		linAbs += math.Abs(l * s.rhs(c))
		lamAbs += math.Abs(l)
	}
	vec.Axpy(1, s.t, s.r)
	r.Stationarity = normInf(s.r)
	stat2 := math.Sqrt(vec.Dot(s.r, s.r))
	s.chol.SolveL(s.r, s.t)
	r.Dual = -0.5*vec.Dot(s.r, s.r) - lin
	s.dualError(r, lamAbs, linAbs, stat2)
	r.Gap = r.Objective - r.Dual
	s.violation()
}

// dualError sets DualError and DualResidualError: the rounding Dual takes
// from its sum q = cEff + sum lambda normal (lamAbs = sum |lambda| over
// the members, linAbs = sum |lambda rhs|, stat2 = ||Hx + q||_2). An error
// d in q moves Dual by H^{-1}q'd to first order, and H^{-1}q = -x +
// H^{-1}(Hx + q); each entry of d is within sqrt(k+1) eps (2 for the
// products) of u = |cEff| + sum |lambda| |normal|. So |x|'u, and the
// residual's share ||u|| stat2 ||H^{-1}||, the caller's to scale. |x|'u is
// bounded first by |x|'|cEff| + ||x|| lamAbs (unit normals); only when
// that bound is not negligible against Dual's own rounding (it is with
// moderate multipliers) are the members' |normal|'|x| summed one by one,
// which is tight where the bound is not (unscaled features: large entries
// of a row meet small entries of x).
func (s *Solver) dualError(r *Result, lamAbs, linAbs, stat2 float64) {
	e := 2 * math.Sqrt(float64(len(s.ws)+1)) * 0x1p-53
	xc, xx := 0.0, 0.0
	for i, v := range s.x {
		xc += math.Abs(v * s.cEff[i])
		xx += v * v
	}
	xu := xc + math.Sqrt(xx)*lamAbs
	if e*xu > 0x1p-40*(1+math.Abs(r.Dual)) {
		xu = xc
		for i, c := range s.ws {
			if l := s.lam[i] / s.sigma[i]; l != 0 {
				xu += math.Abs(l) * s.absNormalDot(c, s.x)
			}
		}
	}
	r.DualError = e * (xu + linAbs)
	r.DualResidualError = e * (math.Sqrt(vec.Dot(s.cEff, s.cEff)) + lamAbs) * stat2
}

// violation sets MaxViolation, SumViolation and Complementarity over every
// constraint, Feasible, worstRow: the row outside the working set violated
// most beyond rounding (on the unit-row scale), -1 if none, and the rows
// outside the working set violated most in exact arithmetic (their
// residuals summed in twice the precision, on the unit-row scale, in eps
// (||x|| + |bhat|), WithinRounding's scale), most violated first
// (noteExact). A row outside the working set (multiplier 0) whose stored
// violation plus the drift since (mostViolated's bound) is below zero by
// more than their rounding is satisfied at x and adds nothing to any of
// them: it is skipped. After the last scan of mostViolated that is most
// rows, and on many rows the pass over them is most of the certificate's
// cost (BenchmarkLargeQP).
func (s *Solver) violation() {
	r := &s.res
	viol, sum, comp := 0.0, 0.0, 0.0
	xn := math.Sqrt(vec.Dot(s.x, s.x))
	xInf := normInf(s.x)
	// As in mostViolated: account for x's moves since the last scan (the
	// answer's clipping to its bounds, refinement).
	s.measureDrift(xInf)
	// The stored a_j'x/||a_j|| - b_j/||a_j|| is within
	// gamma_{n+2} (||x||_2 + |b_j|/||a_j||) of its value, the drift within
	// gamma_{n+2} (1 + ||x||_inf) of its value (path <= 1 + ||x||_inf):
	// twice both is a safe margin.
	g := 2 * vec.DotErrorBound(s.n+2)
	driftErr := g * (1 + xInf)
	r.Feasible = true
	s.worstRow, s.nExact = -1, 0
	worst := 0.0
	gn := vec.DotErrorBound(s.n + 1)
	for j := 0; j < s.m; j++ {
		if !s.rowIn[j] && s.ainv[j] > 0 {
			if bound := s.violationBound(j); bound < -(driftErr + g*(xn+math.Abs(s.b[j]))) {
				continue
			}
		}
		// a_j'x - b_j on the caller's scale.
		res := s.rowDot(j, s.x) - s.bOrig[j]
		viol = max(viol, res)
		if res > 0 {
			sum += res
			v := res * s.ainv[j]
			if !WithinRounding(v, xn, s.bOrig[j]*s.ainv[j], s.n) {
				r.Feasible = false
				if v > worst && !s.rowIn[j] {
					worst, s.worstRow = v, j
				}
			}
		}
		// A row whose residual is within its evaluation's rounding of
		// zero or above may be violated in exact arithmetic: its
		// residual summed in twice the precision says.
		if !s.rowIn[j] && s.ainv[j] > 0 && res*s.ainv[j] > -gn*(xn+math.Abs(s.b[j])) {
			if e := s.exactResidual(j, s.x) * s.ainv[j]; e > 0 {
				s.noteExact(j, e/(0x1p-52*(xn+math.Abs(s.b[j]))))
			}
		}
		comp = max(comp, math.Abs(r.Lambda[j]*res))
	}
	for i := 0; i < s.meq; i++ {
		res := math.Abs(vec.Dot(s.aeq[i], s.x) - s.beqOrig[i])
		viol = max(viol, res)
		sum += res
		r.Feasible = r.Feasible && WithinRounding(res*s.eqinv[i], xn, s.beqOrig[i]*s.eqinv[i], s.n)
	}
	r.SumViolation = sum
	for i, x := range s.x {
		viol = max(viol, max(x-s.up[i], s.lo[i]-x))
		switch z := r.Z[i]; {
		case z > 0:
			comp = max(comp, math.Abs(z*(s.up[i]-x)))
		case z < 0:
			comp = max(comp, math.Abs(z*(x-s.lo[i])))
		}
	}
	if s.l1 > 0 {
		// w_i x_i = l1 |x_i|: the subgradient matches x's sign.
		for i, x := range s.x {
			comp = max(comp, math.Abs(s.l1*math.Abs(x)-r.W[i]*x))
		}
	}
	r.MaxViolation, r.Complementarity = viol, comp
}

// WithinRounding reports whether a violation v = a'x - b > 0 of a unit row
// a (||a|| = 1, b on the same scale) by a point of norm xNorm in R^n is
// within rounding: v <= (gamma_{n+1} + 16 sqrt(n+1) eps) (xNorm + |b|).
// gamma_{n+1} (vec.DotErrorBound) bounds the error of evaluating a'x - b;
// the second term allows for x itself being rounded, a few ulp per entry,
// the same allowance the certified gaps carry. (Zero rows scale to v = 0:
// one with b < 0 makes the problem infeasible, found at setup.)
func WithinRounding(v, xNorm, b float64, n int) bool {
	if v <= 0 {
		return true
	}
	g := vec.DotErrorBound(n+1) + 16*math.Sqrt(float64(n+1))*0x1p-52
	return v <= g*(xNorm+math.Abs(b))
}

// exactRows is how many of the rows violated most in exact arithmetic
// violation keeps (Solver.exactRows).
const exactRows = 4

// noteExact keeps row j, violated by e eps (||x|| + |bhat|) in exact
// arithmetic, among the exactRows most violated, most violated first.
func (s *Solver) noteExact(j int, e float64) {
	i := s.nExact
	if i == exactRows {
		if e <= s.exactVal[i-1] {
			return
		}
		i--
	} else {
		s.nExact++
	}
	for ; i > 0 && s.exactVal[i-1] < e; i-- {
		s.exactRow[i], s.exactVal[i] = s.exactRow[i-1], s.exactVal[i-1]
	}
	s.exactRow[i], s.exactVal[i] = int32(j), e
}
