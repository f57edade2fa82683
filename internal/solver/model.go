package solver

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// The objective's data and the constants of F: the quadratic model
// F(x) = 1/2 x^T H x + c^T x + c0 when it applies, the certified strong
// convexity mu and the smoothness bounds that set the step sizes.

// copyObjective copies the objective's data that the solver keeps, except
// Phi: s.phiRows are the caller's rows until New has decided on the path
// (the direct path reads them only to form the model; the others copy them
// into s.phi). It sets s.quad, and on the quadratic model makes the
// model's c and cLoss (zero) for buildModel. It returns the rest of its
// allocation: certifyMinEig's scratch and the Result's vectors
// (allocResult), taken in that order; s.m and s.meq must be set.
func (s *Solver) copyObjective(p *Problem) floats {
	n := p.N
	s.loss = p.Loss
	if p.Loss != LossNone {
		s.phiRows = p.PhiRows
		if p.Phi != nil {
			s.phiRows = make([][]float64, p.Phi.Rows)
			for i := range s.phiRows {
				s.phiRows[i] = p.Phi.Row(i)
			}
		}
		s.l = len(s.phiRows)
		s.mem.y = append(s.mem.y[:0], p.Y...)
		s.y = s.mem.y
	}
	s.ridge, s.l1, s.offset = p.Ridge, p.L1, p.Offset
	s.quad = s.loss != LossLogistic && n <= maxDenseHessian
	// The vectors of length n kept here and by buildModel (the model's c
	// and cLoss), certifyMinEig's scratch and the Result's vectors are
	// pieces of one allocation: a small problem's set-up is mostly
	// allocation.
	box := p.Lower != nil || p.Upper != nil
	k := 0
	if box {
		k += 2
	}
	if p.Q != nil {
		k++
	}
	if s.quad {
		k += 5 // c, cLoss, and scaledRounding's S and scratch (2n)
	}
	s.mem.fl = reuse(s.mem.fl, k*n+2*n+s.resultFloats())
	fl := floats(s.mem.fl)
	if s.quad {
		s.c, s.cLoss = fl.take(n), fl.take(n)
	}
	if box {
		s.lower, s.upper = fl.take(n), fl.take(n)
		for i := range s.lower {
			s.lower[i], s.upper[i] = math.Inf(-1), math.Inf(1)
		}
		if p.Lower != nil {
			copy(s.lower, p.Lower)
		}
		if p.Upper != nil {
			copy(s.upper, p.Upper)
		}
	}
	if p.P != nil {
		s.pm, s.pRounding = p.P, p.PRounding
		if !p.OwnP {
			s.pm = cloneDense(p.P)
		}
	}
	if p.Q != nil {
		s.q = fl.take(n)
		copy(s.q, p.Q)
	}
	return fl
}

// floats hands out consecutive pieces of one allocation.
type floats []float64

// take returns the next k entries (capacity k, so that an append cannot
// reach the next piece).
func (f *floats) take(k int) []float64 {
	v := (*f)[:k:k]
	*f = (*f)[k:]
	return v
}

// cloneDense returns a compact copy of m.
func cloneDense(m *mat.Dense) *mat.Dense {
	out := mat.NewDense(m.Rows, m.Cols)
	for i := 0; i < m.Rows; i++ {
		copy(out.Row(i), m.Row(i))
	}
	return out
}

// NotConvexError says that the objective is not strongly convex: the
// quadratic part (P, the squared loss's Phi'Phi/l and ridge I) has no
// certified positive lower bound on its eigenvalues.
type NotConvexError struct{ Msg string }

func (e *NotConvexError) Error() string { return "not strongly convex: " + e.Msg }

// buildModel forms the quadratic model when it applies (s.quad), certifies
// the strong convexity constant mu and bounds the smoothness constants.
//
// mu is always proven: the quadratic part is P + ridge I plus a positive
// semidefinite term (Phi'Phi/l, or Phi'DPhi/l for the logistic loss), and P
// is positive semidefinite to within delta = mat.SemidefiniteShift(P) (the
// root's Validate factors P + delta I), so ridge - delta is a lower bound
// that costs nothing. Where it is not positive, or with sharpMu (the
// penalty method's steps need a sharp mu and L), the bound is sharpened by
// Cholesky factors of the shifted model (certifyMinEig), and an objective
// with no certified positive bound is a *NotConvexError.
//
// certifyMinEig's scratch, 2n floats, comes from fl.
func (s *Solver) buildModel(sharpMu bool, fl *floats) error {
	n := s.n
	floor := s.ridge // a proven lower bound on the eigenvalues of the Hessian
	if s.pm != nil {
		floor -= mat.SemidefiniteShift(s.pm)
	}
	if s.quad {
		// H = phi^T phi / l + P + ridge I,  c = -phi^T y / l + q,
		// c0 = ||y||^2 / (2l) + offset.
		if s.l == 0 && s.ridge == 0 && s.pm != nil {
			// H = P: the same matrix, not a copy (nothing writes
			// either after this).
			s.h = s.pm
		} else {
			s.mem.h = mat.ZeroDense(s.mem.h, n, n)
			s.h = s.mem.h
		}
		if s.l > 0 {
			mat.GramRowsThreads(s.h, s.phiRows, 1/float64(s.l), s.threads())
			for i, r := range s.phiRows {
				if s.y[i] != 0 {
					vec.Axpy(s.y[i], r, s.c)
				}
			}
			vec.Scale(-1/float64(s.l), s.c)
			s.c0 = vec.Dot(s.y, s.y) / (2 * float64(s.l))
		}
		if s.h != s.pm {
			if s.pm != nil {
				vec.Axpy(1, s.pm.Data, s.h.Data)
			}
			for i := 0; i < n; i++ {
				s.h.Data[i*n+i] += s.ridge
			}
		}
		copy(s.cLoss, s.c)
		s.chol = s.mem.chol
		if s.q != nil {
			vec.Axpy(1, s.q, s.c)
		}
		s.c0 += s.offset
		s.modelH, s.modelC = s.modelRounding()
		if !s.keepFactor || sharpMu {
			// Otherwise Load with the P and ridge of the model factored
			// before (keptModel): H, its factor and mu (set by build)
			// are that model's.
			if err := s.factorModel(sharpMu, floor, fl); err != nil {
				return err
			}
		}
		s.scaledRounding(fl)
		if !sharpMu && s.l == 0 {
			s.mem.model = keptModel{valid: true, n: n, hasP: s.pm != nil, ridge: s.ridge, mu: s.mu}
		}
		if sharpMu {
			// The penalty method's path: its steps need L too.
			s.lf = symNormUpper(s.h)
			s.lfCert = gershgorin(s.h)
			if s.pm != nil {
				s.lp = symNormUpper(s.pm)
			}
		}
	} else {
		// Logistic loss (or a very large n): the loss's curvature may
		// vanish, so mu comes from P + ridge I alone.
		s.mu = floor
		if s.pm != nil {
			hp := mat.NewDense(n, n)
			copy(hp.Data, s.pm.Data)
			for i := 0; i < n; i++ {
				hp.Data[i*n+i] += s.ridge
			}
			var c mat.Cholesky
			if c.Factor(hp) == nil {
				s.mu = s.certifyMinEig(hp, max(floor, 0), sharpMuIters, sharpMuStart, fl.take(2*n))
			}
			s.lf = symNormUpper(hp)
			s.lfCert = gershgorin(hp)
			s.lp = symNormUpper(s.pm)
		} else {
			s.lf, s.lfCert = s.ridge, s.ridge
		}
		if s.l > 0 {
			// Squared: ||phi||_2^2 / l; logistic: a quarter of it.
			f := 1.0
			if s.loss == LossLogistic {
				f = 0.25
			}
			fr := f * frobSq(s.phiRows) / float64(s.l)
			s.lf += fr
			s.lfCert += fr
		}
	}
	if !(s.mu > 0) {
		if s.quad {
			return &NotConvexError{"the quadratic part phi'phi/l + P + ridge I has no certified positive eigenvalue bound"}
		}
		return &NotConvexError{"P + ridge I has no certified positive eigenvalue bound (the logistic loss's own curvature can vanish)"}
	}
	return nil
}

// factorModel factors the quadratic model's H and sets mu: floor, or
// where floor is not positive (or sharpMu asks) a bound certifyMinEig
// certifies, its scratch from fl.
func (s *Solver) factorModel(sharpMu bool, floor float64, fl *floats) error {
	if err := s.chol.Factor(s.h); err != nil {
		return &NotConvexError{fmt.Sprintf("the quadratic part phi'phi/l + P + ridge I is not positive definite (%v)", err)}
	}
	s.mu = floor
	switch {
	case sharpMu:
		s.mu = s.certifyMinEig(s.h, max(floor, 0), sharpMuIters, sharpMuStart, fl.take(2*s.n))
	case !(floor > 0):
		// The direct path needs mu only for the certificate's rounding
		// and the distance bound: an estimate of a few iterations,
		// certified as any other, does.
		s.mu = s.certifyMinEig(s.h, 0, roughMuIters, roughMuStart, fl.take(2*s.n))
	}
	return nil
}

// certifyMinEig returns a certified lower bound on the smallest eigenvalue of
// the symmetric m: an estimate from iters steps of inverse iteration, times
// start (at most 1), shrunk until m - mu I has a Cholesky factor (which
// proves m - mu I is positive definite), and never below floor (a bound
// known by construction, e.g. the ridge). The estimate approaches the
// eigenvalue from above, so fewer iterations cost at most a few more
// factorisations, never validity. buf (2n floats) is its scratch; the
// trial factor's storage is s.mem.trial's (allocated once, dropTrial).
func (s *Solver) certifyMinEig(m *mat.Dense, floor float64, iters int, start float64, buf []float64) float64 {
	n := m.Rows
	v, w := buf[:n], buf[n:2*n]
	est := s.chol.MinEigen(iters, v, w)
	c := &s.mem.trial
	if m != s.h {
		if c.Factor(m) == nil {
			est = c.MinEigen(iters, v, w)
		}
	}
	for mu := start * est; mu > floor; mu *= 0.5 {
		if c.FactorLess(m, mu) == nil {
			return mu
		}
	}
	return floor
}

// symNormUpper bounds ||m||_2 of the symmetric m: a power-iteration estimate
// with a 5% margin, capped by the Gershgorin bound. It sets step sizes only;
// no certificate depends on it.
func symNormUpper(m *mat.Dense) float64 {
	v, w := make([]float64, m.Rows), make([]float64, m.Rows)
	return min(gershgorin(m), 1.05*m.SymNormEstimate(30, v, w))
}

// gershgorin bounds the largest eigenvalue of the symmetric m from above.
func gershgorin(m *mat.Dense) float64 { return m.NormInf() }

// modelRounding bounds how far the quadratic model, formed in float64,
// is from the caller's objective: its H is within eH (2-norm) of
// phi'phi/l + P + ridge I and the loss's part of c within eC of -phi'y/l,
// each computed exactly. The Gram matrix and phi'y are sums of l products,
// each entry within gamma_{l+2} of its terms' magnitudes, whose 2-norms are
// at most ||phi||_F^2 / l and ||phi||_F ||y|| / l; adding P and the ridge
// rounds each entry of H twice more at most; P itself may be the rounded
// symmetric part of the caller's matrix (Problem.PRounding). A pure QP
// with a symmetric P (H = P) or a ridge alone (H = ridge I) is formed
// exactly. With near-collinear columns of phi and no ridge, x is large,
// and a certificate of the model alone fell below the caller's F(x) - F*
// (exact, in rationals) on 4 of 300 random least-squares answers, by up
// to 930x, with a distance bound of 0.64 for a point 13.3 from the answer
// (TestCertificateCollinearLeastSquares); the rounded symmetric part of a
// P symmetric to 1e-12, on ill-conditioned QPs, made 9 of 595 answers
// false (TestCertificateNearlySymmetricP).
func (s *Solver) modelRounding() (eH, eC float64) {
	if s.l > 0 {
		g := vec.DotErrorBound(s.l + 2)
		fro := frobSq(s.phiRows)
		eH = g * fro / float64(s.l)
		eC = g * math.Sqrt(fro*vec.Dot(s.y, s.y)) / float64(s.l)
	}
	if s.h != s.pm && (s.l > 0 || s.pm != nil) {
		eH += 2 * 0x1p-53 * math.Sqrt(vec.Dot(s.h.Data, s.h.Data))
	}
	return eH + s.pRounding, eC
}

// scaledRounding sets the bounds of modelRounding in the metric of H's
// diagonal, for scaledGap: with S = diag(sqrt(H_jj)) (H as formed) and
// E, e the rounding of H and c, scaledH bounds ||S^-1 E S^-1||_2 and
// scaledC ||S^-1 e||. Charged against the least eigenvalue of S^-1 H
// S^-1, which is of order one whatever the columns' scales, they stay
// at the rounding of the data where the 2-norm bounds do not: a column
// of phi of 1e7 beside one of 1e-3 and a ridge of 0.01 make eH 0.05,
// five times the strong convexity, and every gap +Inf. The Gram matrix's
// entries are within gamma_{l+2} |phi_j|'|phi_k| / l <= gamma c_j c_k / l
// (c_j = ||phi_j||, Cauchy-Schwarz), so S^-1 E S^-1 is dominated
// entrywise by the rank one gamma r r', r_j = c_j / (sqrt(l) S_j), of
// 2-norm gamma ||r||^2; adding P and the ridge rounds each entry by 2u
// |H_jk| at most, 2u ||S^-1 H S^-1||_F in all (scaledMuCertify); P's own
// rounding is at most pRounding / min S_j^2; e_j is within gamma c_j
// ||y|| / l. An O(l n) pass over phi's rows, next to the O(l n^2) of
// forming H; S and the scratch of scaledGap's certifyMinEig come from fl.
func (s *Solver) scaledRounding(fl *floats) {
	n := s.n
	s.scaledMu = -1
	s.scaledS, s.scaledBuf = fl.take(n), fl.take(2*n)
	minSq := math.Inf(1)
	for j := range s.scaledS {
		hjj := s.h.Data[j*n+j]
		if !(hjj > 0) {
			return // not positive definite: no bound in this metric
		}
		s.scaledS[j] = math.Sqrt(hjj)
		minSq = min(minSq, hjj)
	}
	var eH, eC float64
	if s.l > 0 {
		var cs [64]float64 // column sums of squares, in chunks of 64 columns
		var rr float64
		for j0 := 0; j0 < n; j0 += len(cs) {
			col := cs[:min(len(cs), n-j0)]
			clear(col)
			for _, row := range s.phiRows {
				for j := range col {
					v := row[j0+j]
					col[j] += v * v
				}
			}
			for j, c2 := range col {
				sj := s.scaledS[j0+j]
				rr += c2 / (sj * sj)
			}
		}
		// 1.01: the rounding of the sums of squares and quotients above
		// (relative gamma_l and a few ulp).
		rr *= 1.01 / float64(s.l)
		g := vec.DotErrorBound(s.l + 2)
		eH = g * rr
		eC = g * math.Sqrt(rr*vec.Dot(s.y, s.y)/float64(s.l))
	}
	// The rounding of adding P and the ridge, 2u ||S^-1 H S^-1||_F, is
	// added by scaledMuCertify, which forms that matrix.
	s.scaledH, s.scaledC = eH+s.pRounding/minSq*1.01, eC
	s.scaledMu = 0 // certified on first need (scaledMuCertify)
}

// scaledMuCertify certifies mu_S, a lower bound on the least eigenvalue
// of S^-1 H S^-1 (certifyMinEig on that matrix as formed, less the
// rounding of forming it, 4 ulp an entry), the first time scaledGap
// needs it after a build: scaledMu then mu_S, or -1 if none is positive.
// The n x n matrix is allocated then, once a Solver (kept for Load).
func (s *Solver) scaledMuCertify() {
	s.scaledMu = -1
	n := s.n
	m := s.mem.scaled
	if m == nil || m.Rows != n {
		m = mat.NewDense(n, n)
		s.mem.scaled = m
	}
	var fro float64
	for j := 0; j < n; j++ {
		for k := 0; k < n; k++ {
			v := s.h.Data[j*n+k] / (s.scaledS[j] * s.scaledS[k])
			m.Data[j*n+k] = v
			fro += v * v
		}
	}
	if s.h != s.pm && (s.l > 0 || s.pm != nil) {
		s.scaledH += 2 * 0x1p-53 * math.Sqrt(fro) * 1.01
	}
	if mu := s.certifyMinEig(m, 0, sharpMuIters, sharpMuStart, s.scaledBuf) - 4*0x1p-53*math.Sqrt(fro)*1.01; mu > 0 {
		s.scaledMu = mu
	}
}

// scaledGap is userGap's bound in the metric of scaledRounding: with u =
// S (x - x*), |u| = D_S, the difference of the caller's objective and the
// model's changes by at most D_S K_S + scaledH D_S^2 / 2 from x* to x,
// K_S = scaledH ||S x|| + scaledC, and D_S is bounded through the least
// eigenvalue mu_S of S^-1 H S^-1 (scaledMuCertify, on first need) as
// userGap bounds D through mu.
func (s *Solver) scaledGap(gap float64, x []float64) float64 {
	if s.scaledMu == 0 {
		s.scaledMuCertify()
	}
	mu := s.scaledMu - 2*s.scaledH
	if !(mu > 0) {
		return math.Inf(1)
	}
	eC := s.scaledC
	var sx, sc float64
	for j, v := range x {
		sx += (s.scaledS[j] * v) * (s.scaledS[j] * v)
		sc += (s.c[j] / s.scaledS[j]) * (s.c[j] / s.scaledS[j])
	}
	if s.l > 0 && s.q != nil {
		eC += 0x1p-53 * math.Sqrt(sc) * 1.01
	}
	k := s.scaledH*math.Sqrt(sx)*1.01 + eC
	d := (k + math.Sqrt(k*k+2*mu*gap)) / mu
	return gap + d*k + s.scaledH*d*d/2
}

// userGap turns gap, a certified gap of x for the model (the exact
// penalty's, F_{xi,0} against a dual bound), into one for the caller's
// objective. With E = F_caller - F_model, a quadratic whose Hessian and
// linear term are within eH and eC (modelRounding; c's sum with q rounds
// once more), and x* the minimiser of the caller's penalty function,
//
//	F(x) - F(x*) <= gap + E(x) - E(x*) <= gap + D K + eH D^2 / 2,
//
// K = eH ||x|| + eC, D = ||x - x*||, and (mu - eH)/2 D^2 bounds the
// left side from below (the caller's Hessian is within eH of the model's):
// D is at most the positive root of (mu - 2 eH)/2 D^2 - K D - gap. Without
// any rounding in the model, gap is returned as it is.
//
// The gap first takes underflowFloor: where its terms are below float64's
// normal range the relative rounding bounds see nothing of what underflow
// loses.
func (s *Solver) userGap(gap float64, x []float64) float64 {
	gap += s.underflowFloor()
	eH, eC := s.modelH, s.modelC
	if s.l > 0 && s.q != nil {
		eC += 0x1p-53 * math.Sqrt(vec.Dot(s.c, s.c))
	}
	if (eH == 0 && eC == 0) || !(gap < math.Inf(1)) {
		return gap
	}
	plain := math.Inf(1)
	if mu := s.mu - 2*eH; mu > 0 {
		k := eH*math.Sqrt(vec.Dot(x, x)) + eC
		d := (k + math.Sqrt(k*k+2*mu*gap)) / mu
		plain = gap + d*k + eH*d*d/2
	}
	// Where the rounding of the model decides whether the tolerance can be
	// met, the bound in the metric of H's diagonal (scaledGap) may be far
	// smaller: badly scaled columns.
	if plain > 2*gap && plain > s.opt.Tol && s.scaledMu >= 0 && s.scaledS != nil {
		return min(plain, s.scaledGap(gap, x))
	}
	return plain
}

// underflowFloor bounds what underflow hides from a certified gap. The
// certificates charge each sum's rounding relative to its terms' size,
// which holds for terms in float64's normal range; a product below it
// (2^-1022) is rounded to a multiple of 2^-1074 instead, losing up to
// 2^-1075 that no relative bound sees, and a size computed from such
// products is itself 0. A gap takes O(k^2) products (k = n + m + meq +
// l + 8: the gradient's and the rows' sums, over n entries each), some
// divided by mu (1/2 g'H^-1 g). Everything underflowing, the gap had been
// 0 and the distance bound 0 for an x 8e-234 from x* (q ~ 1e-250, ridge
// 1e-17: F ~ 1e-485). Against a gap in the normal range the floor is
// below its last bit.
func (s *Solver) underflowFloor() float64 {
	k := float64(s.n + s.m + s.meq + s.l + 8)
	return k * k * 0x1p-1074 * max(1, 1/s.mu)
}

func frobSq(rows [][]float64) float64 {
	var s float64
	for _, r := range rows {
		s += vec.Dot(r, r)
	}
	return s
}

// FactorsP reports whether New factors P itself and nothing else for a
// problem with P, n variables, a loss or none, and ridge: the quadratic
// model H = P (no loss, no ridge, n <= the dense Hessian's limit), whose
// Cholesky factor it always computes. A factor of P proves it positive
// definite, so a caller that checks P for semidefiniteness only to reject
// a wrong P can leave that to New, which then fails with a
// *NotConvexError instead.
func FactorsP(n int, loss bool, ridge float64) bool {
	return !loss && ridge == 0 && n <= maxDenseHessian
}
