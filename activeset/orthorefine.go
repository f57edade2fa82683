package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// orthoQR is a Householder QR factorisation N = Q R of the working set's
// normals (n x k, k <= n), built when the answer's refinement through the
// Gram factor stalls (refineOrtho). Column j holds R's entries above the
// diagonal in its first j entries and the Householder vector v_j from entry
// j on (Q = P_0 ... P_{k-1}, P_j = I - tau_j v_j v_j'); diag and tau hold
// R's diagonal and tau_j = 2 / v_j'v_j.
type orthoQR struct {
	n, k      int
	cols      []float64 // k columns of length n
	diag, tau []float64
}

// col is column j.
func (q *orthoQR) col(j int) []float64 { return q.cols[j*q.n : (j+1)*q.n] }

// factor sets q to the QR factorisation of the n x k matrix whose columns
// col(j) the caller has filled, and reports whether R's diagonal is clear
// of zero (min |R_jj| above tiny times the columns' largest norm).
func (q *orthoQR) factor(tiny float64) bool {
	big := 0.0
	for j := 0; j < q.k; j++ {
		c := q.col(j)
		big = max(big, math.Sqrt(vec.Dot(c, c)))
	}
	for j := 0; j < q.k; j++ {
		c := q.col(j)[j:]
		norm := math.Sqrt(vec.Dot(c, c))
		if !(norm > tiny*big) {
			return false
		}
		alpha := -math.Copysign(norm, c[0])
		c[0] -= alpha
		vv := vec.Dot(c, c)
		q.diag[j], q.tau[j] = alpha, 2/vv
		for l := j + 1; l < q.k; l++ {
			d := q.col(l)[j:]
			vec.Axpy(-q.tau[j]*vec.Dot(c, d), c, d)
		}
	}
	return true
}

// applyQT sets w = Q'w.
func (q *orthoQR) applyQT(w []float64) {
	for j := 0; j < q.k; j++ {
		c, d := q.col(j)[j:], w[j:]
		vec.Axpy(-q.tau[j]*vec.Dot(c, d), c, d)
	}
}

// applyQ sets w = Q w.
func (q *orthoQR) applyQ(w []float64) {
	for j := q.k - 1; j >= 0; j-- {
		c, d := q.col(j)[j:], w[j:]
		vec.Axpy(-q.tau[j]*vec.Dot(c, d), c, d)
	}
}

// solveRT overwrites y (length k) with R^{-T} y.
func (q *orthoQR) solveRT(y []float64) {
	for l := 0; l < q.k; l++ {
		c := q.col(l)
		t := y[l]
		for i := 0; i < l; i++ {
			t -= c[i] * y[i]
		}
		y[l] = t / q.diag[l]
	}
}

// solveR overwrites y (length k) with R^{-1} y.
func (q *orthoQR) solveR(y []float64) {
	for i := q.k - 1; i >= 0; i-- {
		t := y[i]
		for l := i + 1; l < q.k; l++ {
			t -= q.col(l)[i] * y[l]
		}
		y[i] = t / q.diag[i]
	}
}

// refineOrtho takes Newton steps on the KKT system of the working set like
// refine, but eliminates through a QR factorisation of the normals instead
// of the Gram factor: in v = L'x the step is
//
//	dv = -Q1 R^{-T} r_p - Q2 Q2' t,   R dl = R^{-T} r_p - Q1' t,
//
// t = L^{-1}(Hx + c + A_W' lambda) and r_p the members' residuals on the
// normals' scale, both from the caller's data. The Gram matrix squares the
// normals' condition number, so with nearly dependent members (unit-row
// multipliers of 1e9) a step through it gains less than a digit; the
// primal part of this one, which never forms R^{-1}, is accurate to
// cond(N) eps of r_p. Inequalities of the working set whose multiplier is
// zero leave it first. A step is kept only if it lowers kktResidual (own
// scale if final); refineOrtho reports whether one was.
func (s *Solver) refineOrtho(final bool) bool {
	// A member whose multiplier is zero need not hold at equality, and
	// held it may ask for a negative multiplier that the step's clamp
	// turns into a stationarity error: it leaves (x and lambda do not
	// change; if x comes to violate it, the caller's scan admits it).
	for i := len(s.ws) - 1; i >= 0; i-- {
		if lo, _ := s.multiplierRange(i, s.ws[i]); lo == 0 && s.lam[i] == 0 {
			s.leave(i)
		}
	}
	taken, drops := false, 0
	best := s.kktResidual(s.x, s.lam, final)
	var q *orthoQR
	for round := 0; round < orthoRounds && best > refineFloor; round++ {
		k := len(s.ws)
		if q == nil || q.k != k {
			if k == 0 || k > s.n {
				return taken
			}
			q = s.orthoWork(k)
			for i := 0; i < k; i++ {
				copy(q.col(i), s.normals.full(i))
			}
			if !q.factor(orthoTiny) {
				return taken
			}
		}
		s.chol.SolveL(s.t, s.r)
		u, y, dl := s.rare.orthoW, s.rare.orthoY[:k], s.lamTry[:k]
		copy(u, s.t)
		q.applyQT(u)
		for i, c := range s.ws {
			y[i] = (s.rowValue(c, s.x) - s.rhs(c)) / s.sigma[i]
		}
		q.solveRT(y)
		for i := range dl {
			dl[i] = y[i] - u[i]
		}
		q.solveR(dl)
		if i := s.wrongSign(dl); i >= 0 && drops < k {
			// The step asks a member for a multiplier of the wrong sign,
			// beyond DualTol: the loop, whose multipliers come through
			// the Gram factor (cond(N)^2), kept a member that the
			// optimum does not hold, and the clamped step would leave a
			// huge gap (TestRefineOrthoDropsWrongSign). It leaves, and
			// the round is taken again on the smaller set; if x then
			// violates a row, Solve's resumes admit it.
			s.leave(i)
			drops++
			round--
			taken = true
			best = s.kktResidual(s.x, s.lam, final)
			continue
		}
		copy(u[:k], y)
		q.applyQ(u)
		s.chol.SolveLT(s.xTry, u)
		var ok bool
		if best, ok = s.takeStep(dl, best, final); !ok {
			break
		}
		taken = true
	}
	return taken
}

// wrongSign returns the member whose multiplier after the step dl,
// lam + dl, is furthest outside its range by more than DualTol times the
// largest of them (as towardsLamStar), or -1.
func (s *Solver) wrongSign(dl []float64) int {
	scale := 1.0
	for i := range dl {
		scale = max(scale, math.Abs(s.lam[i]+dl[i]))
	}
	worst, at := s.opt.DualTol*scale, -1
	for i, c := range s.ws {
		lo, hi := s.multiplierRange(i, c)
		l := s.lam[i] + dl[i]
		if d := max(lo-l, l-hi); d > worst {
			worst, at = d, i
		}
	}
	return at
}

// orthoRounds bounds refineOrtho's steps, orthoTiny is the smallest
// diagonal of R (relative to the unit normals) it factors with.
const (
	orthoRounds = 3
	orthoTiny   = 1e-14
)

// orthoWork returns the QR workspace for k members, allocated on first use
// (most solves never refine through QR) for k columns, and grown when a
// later call needs more.
func (s *Solver) orthoWork(k int) *orthoQR {
	r := s.rareWork()
	q := &r.ortho
	if cap(q.cols) < k*s.n {
		q.cols = make([]float64, k*s.n)
	}
	if q.diag == nil { // k <= n
		q.diag, q.tau = make([]float64, s.n), make([]float64, s.n)
		r.orthoW, r.orthoY = make([]float64, s.n), make([]float64, s.n)
	}
	q.n, q.k = s.n, k
	q.cols = q.cols[:k*s.n]
	return q
}
