package solver

import (
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/softplus"
	"github.com/softpen/softpen/vec"
)

// Rounding bounds of the certificate's sums for the model that is not
// quadratic (certifyPoint takes F - G there, and F(x) - F(x~) in difference
// form). F(x) = mean loss + 1/2 x'Px + ridge/2 ||x||^2 + q'x + l1 ||x||_1
// + offset is a sum of terms that can be far larger than F: with P nearly
// singular and x along its near-null direction, x'Px and q'x cancel (a
// logistic problem with ||x*|| ~ 3e4 had terms ~1e9 and F ~ -5e4). Each
// bound here is gamma times the size of the terms, the matrix products'
// bounded by Cauchy-Schwarz on row norms taken once (smoothNorms), so that
// none costs more than O(n) besides the certificate's own passes.

// smoothNorms holds the row norms of the non-quadratic model's data,
// made at the first certificate.
type smoothNorms struct {
	pRow     []float64 // ||P_i|| (nil without P)
	pFro     float64   // ||P||_F
	phiRow   []float64 // ||phi_i||
	phiSum   float64   // sum_i ||phi_i||
	phiSq    float64   // sum_i ||phi_i||^2
	phiY     float64   // sum_i ||phi_i|| |y_i|
	computed bool
}

// norms returns the model's row norms, computing them once.
func (s *Solver) norms() *smoothNorms {
	if s.smooth == nil {
		s.smooth = new(smoothNorms)
	}
	nm := s.smooth
	if nm.computed {
		return nm
	}
	nm.computed = true
	if s.pm != nil {
		var sq float64
		nm.pRow, sq = rowNorms(s.pm)
		nm.pFro = math.Sqrt(sq)
	}
	if s.phi != nil {
		nm.phiRow, nm.phiSq = rowNorms(s.phi)
		for i, v := range nm.phiRow {
			nm.phiSum += v
			nm.phiY += v * math.Abs(s.y[i])
		}
	}
	return nm
}

// rowNorms returns the norms of m's rows and the sum of their squares.
func rowNorms(m *mat.Dense) (norms []float64, sumSq float64) {
	norms = make([]float64, m.Rows)
	for i := range norms {
		row := m.Row(i)
		sq := vec.Dot(row, row)
		norms[i] = math.Sqrt(sq)
		sumSq += sq
	}
	return norms, sumSq
}

// lossTerms bounds sum_i |f_i(phi_i'x)| from ||x||: the logistic loss is
// at most |t| + log 2, the squared loss at most (|t| + |y_i|)^2 / 2.
func (s *Solver) lossTerms(nm *smoothNorms, xNorm float64) float64 {
	if s.loss == LossSquared {
		return xNorm*xNorm*nm.phiSq/2 + xNorm*nm.phiY + 0.5*vec.Dot(s.y, s.y)
	}
	return xNorm*nm.phiSum + float64(s.l)*math.Ln2
}

// objectiveRounding bounds the rounding of objective(x): gamma_{n+l+8}
// times its terms' size. |x|'|P||x| <= ||x|| sum_i |x_i| ||P_i||, each
// phi_i'x is within gamma ||phi_i|| ||x|| and moves its loss term by
// that times its slope (at most 1 for the logistic loss; for the squared
// loss the term's own size is charged), and each loss value is within a
// few ulp of itself.
func (s *Solver) objectiveRounding(x []float64) float64 {
	if s.quad {
		return s.quadObjectiveRounding(x)
	}
	nm := s.norms()
	xNorm := math.Sqrt(vec.Dot(x, x))
	var px, qx, l1x float64
	for i, v := range x {
		a := math.Abs(v)
		if nm.pRow != nil {
			px += a * nm.pRow[i]
		}
		if s.q != nil {
			qx += math.Abs(s.q[i] * v)
		}
		l1x += a
	}
	terms := 0.5*xNorm*px + 0.5*s.ridge*xNorm*xNorm + qx + s.l1*l1x + math.Abs(s.offset)
	if s.phi != nil {
		// The loss's terms, and the rounding of each phi_i'x carried
		// through the loss.
		lt := s.lossTerms(nm, xNorm)
		if s.loss == LossSquared {
			lt *= 3
		} else {
			lt += xNorm * nm.phiSum
		}
		terms += 4 * lt / float64(s.l)
	}
	return vec.DotErrorBound(s.n+s.l+8) * terms
}

// quadObjectiveRounding is objectiveRounding for the quadratic model
// (dualBound's proximal branch reaches it in tests): 1/2 x'Hx + c'x + c0
// + l1 ||x||_1.
func (s *Solver) quadObjectiveRounding(x []float64) float64 {
	s.ensureHRowNorm()
	xNorm := math.Sqrt(vec.Dot(x, x))
	var hx, cx, l1x float64
	for i, v := range x {
		hx += math.Abs(v) * s.hRowNorm[i]
		cx += math.Abs(s.c[i] * v)
		l1x += math.Abs(v)
	}
	return vec.DotErrorBound(s.n+4) * (0.5*xNorm*hx + cx + math.Abs(s.c0) + s.l1*l1x)
}

// penaltyUpper returns an upper bound on the exact sum_k (a_k'x - b_k)_+
// over the kept unit rows, from r = A x - b in state.r (pointBounds leaves
// it there). A row whose float64 residual is within its rounding,
// gamma_{n+1} (||x|| + |b_k|), of positive (the active rows, at an
// answer) is summed again in twice the working precision, and charged
// that sum's rounding: charged at the float64 bound, twenty rows on
// mushrooms kept Newton's answers 500 times above a tolerance of 1e-13.
func (s *Solver) penaltyUpper(x []float64) float64 {
	if s.kept == 0 {
		return 0
	}
	xNorm := math.Sqrt(vec.Dot(x, x))
	gr := vec.DotErrorBound(s.n + 1)
	g2 := 4 * float64(s.n+1) * float64(s.n+1) * 0x1p-104
	var pen float64
	for k, rk := range s.state.r[:s.kept] {
		size := xNorm + math.Abs(s.b[k]) // |a_k|'|x| <= ||x||: unit rows
		if rk+gr*size <= 0 {
			continue
		}
		var e vec.ExactSum
		e.AddDot(s.a.Row(k), x)
		e.Add(-s.b[k])
		v := e.Value()
		pen += max(v+0x1p-52*math.Abs(v)+g2*size, 0)
	}
	return pen * (1 + vec.DotErrorBound(s.kept))
}

// gradRounding bounds the rounding of smoothGrad(x) in 2-norm, from
// ||x||: P x within gamma_n ||P||_F ||x||, and the loss's part, phi' s / l
// with s_i the slope of loss i at phi_i'x, within (gamma_l sum_i ||phi_i||
// |s_i| + gamma_n c sum_i ||phi_i||^2 ||x||) / l: the sum over the rows,
// and each phi_i'x's rounding (gamma_n ||phi_i|| ||x||) moving s_i by at
// most c times it, c the loss's largest curvature (|s_i| <= 1 and c = 1/4
// for the logistic loss; |s_i| <= ||phi_i|| ||x|| + |y_i| and c = 1 for
// the squared).
func (s *Solver) gradRounding(xNorm float64) float64 {
	nm := s.norms()
	gammaN, gammaL := vec.DotErrorBound(s.n+3), vec.DotErrorBound(s.l+3)
	e := gammaN * (nm.pFro*xNorm + s.ridge*xNorm)
	if s.q != nil {
		e += gammaN * math.Sqrt(vec.Dot(s.q, s.q))
	}
	if s.phi != nil {
		if s.loss == LossSquared {
			e += (gammaL*(nm.phiSq*xNorm+nm.phiY) + gammaN*nm.phiSq*xNorm) / float64(s.l)
		} else {
			e += (gammaL*nm.phiSum + gammaN*nm.phiSq*xNorm/4) / float64(s.l)
		}
	}
	return e
}

// objectiveDiff returns F(x) - F(t) for the model that is not quadratic,
// summed from d = x - t (state.g; state.tmp is scratch), and a bound on
// its rounding. It reads phi t through phiX (objective(t) has just
// computed it):
//
//	1/2 x'Hx + q'x - (1/2 t'Ht + q't) = (H x + q)'d - 1/2 d'H d,
//	H = P + ridge I, with (H x + q)_i within gamma (||P_i|| ||x|| +
//	ridge |x_i| + |q_i|) and d'Hd within gamma sum |d_i| (||P_i|| ||d|| +
//	ridge |d_i|);
//
// each loss term's difference from its own two values, f_i(phi_i'x) -
// f_i(phi_i't) with phi_i'x = phi_i't + phi_i'd (the squared loss's as
// 1/2 phi_i'd (phi_i'x + phi_i't - 2 y_i)), whose rounding is that of
// phi_i'd and of one sum, and a few ulp of its two values;
// and l1 (|x_i| - |t_i|) term by term. None of these is larger than the
// terms of F near x~ = t, where the x'Px-sized parts cancel exactly.
func (s *Solver) objectiveDiff(x, t []float64) (delta, err float64) {
	nm := s.norms()
	d, pd := s.state.g, s.state.tmp
	var xNorm, tNorm, dNorm float64
	for i, v := range x {
		d[i] = v - t[i]
		xNorm += v * v
		tNorm += t[i] * t[i]
		dNorm += d[i] * d[i]
	}
	xNorm, tNorm, dNorm = math.Sqrt(xNorm), math.Sqrt(tNorm), math.Sqrt(dNorm)
	gamma := vec.DotErrorBound(s.n + 6)
	// The quadratic part.
	if s.pm != nil {
		s.pm.MulVec(pd, x)
	} else {
		clear(pd)
	}
	var gd, gdAbs, gdErr float64
	for i, di := range d {
		g := pd[i] + s.ridge*x[i]
		e := s.ridge * math.Abs(x[i])
		if s.q != nil {
			g += s.q[i]
			e += math.Abs(s.q[i])
		}
		if nm.pRow != nil {
			e += nm.pRow[i] * xNorm
		}
		gd += g * di
		gdAbs += math.Abs(g * di)
		gdErr += e * math.Abs(di)
	}
	if s.pm != nil {
		s.pm.MulVec(pd, d)
	} else {
		clear(pd)
	}
	var dHd, dHdErr float64
	for i, di := range d {
		dHd += di * (pd[i] + s.ridge*di)
		e := s.ridge * math.Abs(di)
		if nm.pRow != nil {
			e += nm.pRow[i] * dNorm
		}
		dHdErr += math.Abs(di) * e
	}
	// The loss, row by row, from phi t (phiX, kept by objective(t))
	// and phi_i'd: phi_i'x = phi_i't + phi_i'd. Both values of a term
	// share phi_i't's rounding e_t, which moves their difference by at
	// most the curvature times |phi_i'd| |e_t|; phi_i'd's rounding (and
	// d's) and that of the sum phi_i't + phi_i'd move it by the slope
	// times theirs; each value is within a few ulp of itself.
	var ld, ldAbs, ldErr float64
	if s.phi != nil {
		zt := s.phiX(t)
		gammaN := vec.DotErrorBound(s.n + 2)
		for i := 0; i < s.l; i++ {
			row := s.phi.Row(i)
			pdi := vec.Dot(row, d)
			zx := zt[i] + pdi
			yi := s.y[i]
			ep := gammaN * nm.phiRow[i] * dNorm // phi_i'd's rounding
			et := gammaN * nm.phiRow[i] * tNorm // phi_i't's
			ea := 0x1p-52 * math.Abs(zx)        // the sum's
			var v, e float64
			if s.loss == LossSquared {
				m := zx + zt[i] - 2*yi
				v = 0.5 * pdi * m
				em := 2*et + ep + ea + 0x1p-51*(math.Abs(zx)+math.Abs(zt[i])+2*math.Abs(yi))
				e = 0.5*(ep*math.Abs(m)+math.Abs(pdi)*em) + 0x1p-51*math.Abs(v)
			} else {
				fx, fu := softplus.Softplus(-yi*zx), softplus.Softplus(-yi*zt[i])
				v = fx - fu
				e = ep + ea + 0.25*math.Abs(pdi)*et + 0x1p-50*(fx+fu) + 0x1p-52*math.Abs(v)
			}
			ld += v
			ldAbs += math.Abs(v)
			ldErr += e
		}
		ld /= float64(s.l)
		ldAbs /= float64(s.l)
		ldErr /= float64(s.l)
	}
	var l1d, l1Abs float64
	if s.l1 > 0 {
		for i, v := range x {
			a := math.Abs(v) - math.Abs(t[i])
			l1d += a
			l1Abs += math.Abs(a)
		}
	}
	delta = gd - 0.5*dHd + ld + s.l1*l1d
	gammaL := vec.DotErrorBound(s.n + s.l + 8)
	err = gamma*(gdErr+gdAbs+dHdErr+0.5*math.Abs(dHd)) + ldErr + gammaL*ldAbs + gammaL*s.l1*l1Abs +
		vec.DotErrorBound(6)*(math.Abs(gd)+0.5*math.Abs(dHd)+math.Abs(ld)+s.l1*math.Abs(l1d))
	return delta, err
}
