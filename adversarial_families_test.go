package softpen

import (
	"math"
	"math/rand"
)

// The adversarial families below aim at degenerate geometry the first nine
// (adversarial_test.go) leave out: corners of the box, integer vertices,
// rows of wildly different scales, duplicates a bit apart, condition
// numbers near 1/eps, weakly active rows, kinks of the l1 term on
// equalities, the least-squares loss, feasible sets near a point, and rows
// a hair from parallel. Each draws a problem small enough (n <= 6, at most
// qpgen.ExactMaxCons constraints) for the exact reference.

// advTarget sets p's q so that the unconstrained optimum of p's quadratic
// part (P + ridge I) is target, to the rounding of the product.
func advTarget(p *Problem, target []float64) {
	for i := range p.N {
		s := p.Ridge * target[i]
		for j := range p.N {
			s += p.P[i][j] * target[j]
		}
		p.Q[i] = -s
	}
}

// advAway is x0 + t dir, t = 10^U(0, 2): a point beyond x0 along dir.
func advAway(rng *rand.Rand, x0, dir []float64) []float64 {
	t := advLog(rng, 0, 2)
	out := make([]float64, len(x0))
	for i := range out {
		out[i] = x0[i] + t*dir[i]
	}
	return out
}

// advIntRow is a row of integers in [-k, k], not all zero.
func advIntRow(rng *rand.Rand, n, k int) []float64 {
	for {
		a := make([]float64, n)
		nz := false
		for i := range a {
			a[i] = float64(rng.Intn(2*k+1) - k)
			nz = nz || a[i] != 0
		}
		if nz {
			return a
		}
	}
}

// advBoxCorner: a box of dyadic bounds, the unconstrained optimum beyond
// one of its corners v (outwards along every coordinate), and up to three
// rows through v: rows of small integers (b = a'v exactly) or normal
// entries (b = a'v rounded, v a hair in or out), facing the optimum or
// away from it. x* is at the corner, or on a face or row next to it.
func advBoxCorner(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(2)
	p := advBase(rng, n)
	p.Lower, p.Upper = make([]float64, n), make([]float64, n)
	v, out := make([]float64, n), make([]float64, n)
	for i := range n {
		p.Lower[i] = -float64(1+rng.Intn(16)) / 4
		p.Upper[i] = p.Lower[i] + float64(1+rng.Intn(16))/4
		if rng.Intn(2) == 0 {
			v[i], out[i] = p.Lower[i], -1
		} else {
			v[i], out[i] = p.Upper[i], 1
		}
		out[i] *= 0.5 + rng.Float64()
	}
	advTarget(p, advAway(rng, v, out))
	for range 1 + rng.Intn(min(3, 12-2*n)) {
		var a []float64
		if rng.Intn(2) == 0 {
			a = advIntRow(rng, n, 3)
		} else {
			a = advNormal(rng, n)
		}
		if rng.Intn(3) > 0 && advDot(a, out) < 0 { // mostly facing the optimum
			for i := range a {
				a[i] = -a[i]
			}
		}
		advRow(p, a, advDot(a, v))
	}
	return p
}

// advIntegerVertex: an integer point x0 (entries in [-5, 5]) fixed by n
// equalities of small integers (n - 1 in a third of the draws, a row
// through x0 then completing the vertex, if the rows are independent),
// beq = Aeq x0 exactly, one or two more integer rows through x0 (one
// sometimes a copy of an equality), and the unconstrained optimum away
// from x0.
func advIntegerVertex(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(4)
	p := advBase(rng, n)
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = float64(rng.Intn(11) - 5)
	}
	advTarget(p, advAway(rng, x0, advNormal(rng, n)))
	k := n
	if rng.Intn(3) == 0 {
		k = n - 1
	}
	for range k {
		a := advIntRow(rng, n, 3)
		advEq(p, a, advDot(a, x0))
	}
	for range 1 + rng.Intn(2) {
		var a []float64
		if rng.Intn(4) == 0 {
			a = append([]float64(nil), p.Aeq[rng.Intn(len(p.Aeq))]...)
		} else {
			a = advIntRow(rng, n, 3)
		}
		advRow(p, a, advDot(a, x0))
	}
	return p
}

// advMixedScales: two to five rows, each of one kind: entries of
// 10^U(-305, -295) (its right-hand side at that scale, b / ||a|| of
// order 1), entries of order 1, or entries of order 1 but one of
// 10^U(-310, -295) (subnormal at times); and an equality of either scale
// in a third of the draws.
func advMixedScales(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	p := advBase(rng, n)
	draw := func() ([]float64, float64) {
		a := advNormal(rng, n)
		b := rng.NormFloat64()
		switch rng.Intn(3) {
		case 0:
			s := advLog(rng, -305, -295)
			for i := range a {
				a[i] *= s
			}
			b *= s
		case 1:
			a[rng.Intn(n)] = advLog(rng, -310, -295) * float64(2*rng.Intn(2)-1)
		}
		return a, b
	}
	for range 2 + rng.Intn(4) {
		a, b := draw()
		advRow(p, a, b)
	}
	if rng.Intn(3) == 0 {
		a, b := draw()
		advEq(p, a, b)
	}
	return p
}

// advUlp is v moved by one ulp, up or down at random.
func advUlp(rng *rand.Rand, v float64) float64 {
	return math.Nextafter(v, math.Inf(2*rng.Intn(2)-1))
}

// advUlpDuplicates: a row a'x <= b (b = a'x0 rounded, the unconstrained
// optimum beyond it) and a duplicate of it one ulp apart: a'x <= b' with
// b' one ulp from b, or a2'x <= b with one entry of a2 one ulp from a's
// (both feasible); or the opposite row -a'x <= -b' (an equality if b' =
// b, a slab one ulp wide, or empty by one ulp), or -a2'x <= -b (two rows
// crossing at an angle of an ulp). In a fifth of the draws the pair is
// two equalities instead (a'x = b, a'x = b' one ulp apart: infeasible),
// and a random row or box is added at times.
func advUlpDuplicates(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	p := advBase(rng, n)
	a, x0 := advNormal(rng, n), advNormal(rng, n)
	b := advDot(a, x0)
	dir := make([]float64, n)
	copy(dir, a)
	advTarget(p, advAway(rng, x0, dir))
	a2 := append([]float64(nil), a...)
	b2 := b
	if rng.Intn(2) == 0 {
		b2 = advUlp(rng, b)
	} else {
		i := rng.Intn(n)
		a2[i] = advUlp(rng, a2[i])
	}
	switch rng.Intn(5) {
	case 0:
		advEq(p, a, b)
		advEq(p, a2, b2)
	case 1, 2:
		advRow(p, a, b)
		advRow(p, a2, b2)
	default:
		advRow(p, a, b)
		for i := range a2 {
			a2[i] = -a2[i]
		}
		advRow(p, a2, -b2)
	}
	switch rng.Intn(3) {
	case 0:
		advRow(p, advNormal(rng, n), math.Abs(rng.NormFloat64()))
	case 1:
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range n {
			p.Lower[i], p.Upper[i] = x0[i]-advLog(rng, -1, 1), x0[i]+advLog(rng, -1, 1)
		}
	}
	return p
}

// advIllConditionedP: P = Q diag(ev) Q' (Q random orthogonal, P made
// exactly symmetric) with eigenvalues from 1 down to 1/kappa, kappa =
// 10^U(12, 15), log-spread; ridge 0 or 1e-3/kappa; q normal; one to three
// rows and a box in a third of the draws. A draw whose P + ridge I is not
// positive definite in exact arithmetic (its least eigenvalue lost to
// the rounding of the product) is drawn again.
func advIllConditionedP(rng *rand.Rand) *Problem {
	for {
		n := 2 + rng.Intn(3)
		p := advBase(rng, n)
		q := randomOrthogonal(rng, n)
		kappa := advLog(rng, 12, 15)
		ev := make([]float64, n)
		for i := range ev {
			ev[i] = math.Pow(kappa, -float64(i)/float64(n-1))
		}
		for i := range n {
			for j := range i + 1 {
				s := 0.0
				for k := range n {
					s += q[k][i] * ev[k] * q[k][j]
				}
				p.P[i][j], p.P[j][i] = s, s
			}
		}
		p.Ridge = 0
		if rng.Intn(2) == 0 {
			p.Ridge = 1e-3 / kappa
		}
		for range 1 + rng.Intn(3) {
			advRow(p, advNormal(rng, n), rng.NormFloat64())
		}
		if rng.Intn(3) == 0 {
			p.Lower, p.Upper = make([]float64, n), make([]float64, n)
			for i := range n {
				p.Lower[i], p.Upper[i] = -advLog(rng, 0, 2), advLog(rng, 0, 2)
			}
		}
		if h, _ := advModel(p); advDefinite(h) {
			return p
		}
	}
}

// advWeaklyActive: P = M M' (M of small integers) plus a dyadic ridge, a
// dyadic x0 and q = -(P + ridge I) x0, exact in float64, so that x0 is the
// unconstrained optimum exactly; two to six rows through x0 (b = a'x0:
// exact for rows of small integers, rounded for rows of normal entries,
// some repeated or negated), all active with zero multipliers (or, rounded,
// a hair off). x* = x0 when the rows hold there.
func advWeaklyActive(rng *rand.Rand) *Problem {
	p, x0 := advGridOptimum(rng)
	n := p.N
	for range 2 + rng.Intn(5) {
		var a []float64
		switch {
		case len(p.A) > 0 && rng.Intn(4) == 0:
			a = append([]float64(nil), p.A[rng.Intn(len(p.A))]...)
			if rng.Intn(2) == 0 {
				for i := range a {
					a[i] = -a[i]
				}
			}
		case rng.Intn(3) == 0:
			a = advNormal(rng, n)
		default:
			a = advIntRow(rng, n, 3)
		}
		advRow(p, a, advDot(a, x0))
	}
	return p
}

// advGridOptimum: n in 2..4, P = M'M for M of integers in [-2, 2], a
// ridge of 1/8, 1/2 or 1, and q such that x0 (returned), on the grid of
// 1/16 in [-2, 2], is the unconstrained optimum.
func advGridOptimum(rng *rand.Rand) (*Problem, []float64) {
	n := 2 + rng.Intn(3)
	p := &Problem{N: n, Loss: "none", P: make([][]float64, n), Q: make([]float64, n)}
	m := make([][]float64, n)
	for i := range m {
		m[i] = advIntRow(rng, n, 2)
	}
	for i := range n {
		p.P[i] = make([]float64, n)
		for j := range n {
			p.P[i][j] = dotRows(m[i], m[j])
		}
	}
	p.Ridge = []float64{0.125, 0.5, 1}[rng.Intn(3)]
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = float64(rng.Intn(65)-32) / 16
	}
	advTarget(p, x0)
	return p, x0
}

// advWeaklyActiveMoved: advWeaklyActive's objective (x0 on the grid of
// 1/16 the unconstrained optimum) and n to n + 2 rows through x0, three in
// four of them moved by a relative 10^U(-15, -9), most outwards: x* holds
// several rows at narrow angles with multipliers far above those of the
// answer's working set, which holds within rounding of them
// (TestWeaklyActiveRowsJointly and TestWeaklyActiveVertexWeight came from
// it: 50 wrong distance bounds in 12000 answers before raiseWeight).
func advWeaklyActiveMoved(rng *rand.Rand) *Problem {
	p, _ := advMovedRows(rng)
	return p
}

// advMovedRows is advWeaklyActiveMoved's problem and its x0.
func advMovedRows(rng *rand.Rand) (*Problem, []float64) {
	p, x0 := advGridOptimum(rng)
	n := p.N
	for range n + rng.Intn(3) {
		a := advIntRow(rng, n, 3)
		if rng.Intn(3) == 0 {
			a = advNormal(rng, n)
		}
		b := advDot(a, x0)
		if rng.Intn(4) > 0 {
			s := advLog(rng, -15, -9)
			if rng.Intn(4) == 0 {
				s = -s
			}
			if b == 0 {
				b = -s
			} else {
				b *= 1 - s
			}
		}
		advRow(p, a, b)
	}
	return p, x0
}

// advMovedEqualityOrBounds: advWeaklyActiveMoved's problem with, in
// turn, an equality through x0 (moved in half the draws), bounds at x0 on
// about half the variables (each moved inwards by a relative
// 10^U(-15, -9): x is clipped to them, off its members' equalities), or an
// equality through x0 and one such bound (TestClippedAnswerWeight came
// from it).
func advMovedEqualityOrBounds(rng *rand.Rand) *Problem {
	p, x0 := advMovedRows(rng)
	n := p.N
	switch rng.Intn(3) {
	case 0:
		a := advIntRow(rng, n, 3)
		b := advDot(a, x0)
		if rng.Intn(2) == 0 {
			b *= 1 - advLog(rng, -15, -9)
		}
		advEq(p, a, b)
	case 1:
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range n {
			p.Lower[i], p.Upper[i] = -1e30, 1e30
			if rng.Intn(2) == 0 {
				v := x0[i] * (1 - advLog(rng, -15, -9))
				if rng.Intn(2) == 0 {
					p.Upper[i] = v
				} else {
					p.Lower[i] = v
				}
			}
		}
	default:
		a := advIntRow(rng, n, 3)
		advEq(p, a, advDot(a, x0))
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range n {
			p.Lower[i], p.Upper[i] = -1e30, 1e30
		}
		i := rng.Intn(n)
		p.Upper[i] = x0[i] * (1 - advLog(rng, -15, -9))
	}
	return p
}

// advL1Equalities: an l1 term of 10^U(-3, 1) and one or two equalities:
// through 0 (b = 0, the kink of every coordinate on their set), through a
// point with zeros (b = a'x0, x0 half zero), or random; q of 10^U(-2, 1)
// (small q against the l1 term puts x* at a kink); a random row in half
// the draws and a box when n = 2.
func advL1Equalities(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	p := advBase(rng, n)
	p.L1 = advLog(rng, -3, 1)
	s := advLog(rng, -2, 1)
	for i := range p.Q {
		p.Q[i] *= s
	}
	x0 := advNormal(rng, n)
	for i := range x0 {
		if rng.Intn(2) == 0 {
			x0[i] = 0
		}
	}
	for range 1 + rng.Intn(2) {
		a := advNormal(rng, n)
		switch rng.Intn(3) {
		case 0:
			advEq(p, a, 0)
		case 1:
			advEq(p, a, advDot(a, x0))
		default:
			advEq(p, a, rng.NormFloat64())
		}
	}
	if rng.Intn(2) == 0 {
		advRow(p, advNormal(rng, n), rng.NormFloat64())
	}
	if n == 2 {
		p.Lower, p.Upper = []float64{-advLog(rng, -1, 1), -advLog(rng, -1, 1)}, []float64{advLog(rng, -1, 1), advLog(rng, -1, 1)}
	}
	return p
}

// advSquaredLoss: the squared loss on l = 1..2n rows phi (normal, with
// the last column a near copy of the first, off by a relative
// 10^U(-10, -4), in a third of the draws), y normal; ridge 0 when l >= n
// (phi'phi/l is then positive definite exactly, if badly conditioned),
// else 1e-3..1; P = 0 or a PSD term in half the draws, q small or none;
// one to three rows and an equality in a quarter of the draws.
func advSquaredLoss(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	l := 1 + rng.Intn(2*n)
	p := &Problem{N: n, Loss: "squared", Phi: make([][]float64, l), Y: make([]float64, l)}
	near := rng.Intn(3) == 0
	d := advLog(rng, -10, -4)
	for i := range l {
		p.Phi[i] = advNormal(rng, n)
		if near {
			p.Phi[i][n-1] = p.Phi[i][0] * (1 + d*rng.NormFloat64())
		}
		p.Y[i] = 3 * rng.NormFloat64()
	}
	if l < n {
		p.Ridge = advLog(rng, -3, 0)
	}
	if rng.Intn(2) == 0 {
		b := advBase(rng, n)
		p.P = b.P
		if rng.Intn(2) == 0 {
			p.Q = advNormal(rng, n)
		}
	}
	for range 1 + rng.Intn(3) {
		advRow(p, advNormal(rng, n), rng.NormFloat64())
	}
	if rng.Intn(4) == 0 {
		advEq(p, advNormal(rng, n), rng.NormFloat64())
	}
	if h, _ := advModel(p); !advDefinite(h) { // l < n and no ridge: cannot happen
		p.Ridge = 1
	}
	return p
}

// advTinySimplex: the simplex {x : g_i'x >= g_i'c, i < n, (sum g_i)'x <=
// (sum g_i)'c + d} (g_i the rows of a random orthogonal matrix, c of
// scale 10^U(-3, 3), d = 10^U(-14, -8) times c's scale: a diameter of
// that order, every b rounded, so that the smallest ones may be empty in
// exact arithmetic) with the unconstrained optimum away from it; its
// rows scaled by 10^U(-3, 3) at times.
func advTinySimplex(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	p := advBase(rng, n)
	g := randomOrthogonal(rng, n)
	sc := advLog(rng, -3, 3)
	c := advNormal(rng, n)
	for i := range c {
		c[i] *= sc
	}
	d := advLog(rng, -14, -8) * sc
	sum := make([]float64, n)
	for i := range n {
		a := make([]float64, n)
		for j := range n {
			a[j] = -g[i][j]
			sum[j] += g[i][j]
		}
		advRow(p, a, advDot(a, c))
	}
	advRow(p, sum, advDot(sum, c)+d)
	if rng.Intn(3) == 0 {
		for j := range p.A {
			s := advLog(rng, -3, 3)
			for i := range p.A[j] {
				p.A[j][i] *= s
			}
			p.B[j] *= s
		}
	}
	dir := advNormal(rng, n)
	for i := range dir {
		dir[i] *= sc
	}
	advTarget(p, advAway(rng, c, dir))
	return p
}

// advNearlyParallel: a row a'x <= b (the unconstrained optimum beyond it)
// and a second row at an angle theta = 10^U(-12, -8) from a or from -a:
// a2 = ±(a + theta ||a|| u), u a unit vector orthogonal to a. Facing the
// same way (a wedge: feasible), or opposite with b2 = -b - w: w < 0 (a
// slab), w > 0 (an empty slab but for where the rows cross, at a distance
// of about w / theta) with a box of half-width 1..10 around x0 that the
// crossing falls outside of (infeasible) or within (feasible, a thin
// wedge in a corner).
func advNearlyParallel(rng *rand.Rand) *Problem {
	n := 2 + rng.Intn(3)
	p := advBase(rng, n)
	a, x0 := advNormal(rng, n), advNormal(rng, n)
	b := advDot(a, x0)
	advTarget(p, advAway(rng, x0, a))
	u := advNormal(rng, n)
	au := advDot(a, u) / advDot(a, a)
	for i := range u {
		u[i] -= au * a[i]
	}
	un := advNorm(u)
	theta := advLog(rng, -12, -8)
	an := advNorm(a)
	a2 := make([]float64, n)
	for i := range a2 {
		a2[i] = a[i] + theta*an*u[i]/un
	}
	advRow(p, a, b)
	kind := rng.Intn(4)
	if kind == 0 {
		advRow(p, a2, advDot(a2, x0)+advLog(rng, -12, 0)*float64(2*rng.Intn(2)-1))
		return p
	}
	for i := range a2 {
		a2[i] = -a2[i]
	}
	half := advLog(rng, 0, 1)
	var w float64
	switch kind {
	case 1:
		w = -an * advLog(rng, -12, -4)
	case 2:
		w = an * theta * half * advLog(rng, 1, 4) // crossing beyond the box
	default:
		w = an * theta * half * advLog(rng, -3, 0) // crossing within it
	}
	advRow(p, a2, -b+w)
	if kind >= 2 || rng.Intn(2) == 0 {
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range n {
			p.Lower[i], p.Upper[i] = x0[i]-half, x0[i]+half
		}
	}
	return p
}
