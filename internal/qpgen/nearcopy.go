package qpgen

import "math"

// Nearly dependent constraints: a constraint and its near-copy, the same
// row with one entry moved by a gap delta. Together they fix one
// coordinate through 1/delta: a'x = b and (a + delta e_j)'x = b + delta t
// give x_j = t, and an answer that drops either of them as implied by the
// other is off by O(1). A float64 method sees the two normals delta/|a|
// apart, its factor's pivot delta^2, and multipliers that can reach
// 1/delta (bigPair: up to 2^21 here).
//
// The gaps are powers of two (the nearest to 1e-6, 1e-8, 1e-10 and 1e-12),
// the rows sparse dyadic (at most four entries k/8) and x* dyadic, so that
// every right-hand side, c and XStar stay exact (QP.Exact) even with large
// multipliers: a pair's multipliers (T + nu0, -T) add nu0 a - T delta e_j
// to the gradient, and every partial sum of c spans fewer than 53 bits.

// nearCopyGaps are the gaps between near-copies: the seed picks one,
// nearCopyGaps[seed mod 4], so that seeds 0..3 (or 1..4) cover them all.
var nearCopyGaps = [...]float64{0x1p-20, 0x1p-27, 0x1p-33, 0x1p-40}

// undecidedGap is the largest gap at which a float64 method may leave a
// near-copy family undecided (QP.MayBeUndecided): two normals 1e-10 apart
// or less, a distance the normals' own rounding, amplified by the
// coefficients of 1/gap that combine them, can reach; and a certificate
// whose components on unbounded coordinates must cancel through such
// coefficients.
const undecidedGap = 0x1p-33

// seedGap is the family's gap for this seed.
func (g *gen) seedGap() float64 { return nearCopyGaps[g.seed%4] }

// nearFamily records the family's gap in the QP (NearGap, and
// MayBeUndecided at undecidedGap and below) and returns it.
func (g *gen) nearFamily() float64 {
	g.nearGap = g.seedGap()
	g.mayBeUndecided = g.nearGap <= undecidedGap
	return g.nearGap
}

// nearBounded reports whether the near-copy families put bounds on the
// variables for this size and seed: alternately, so that each gap comes
// with and without bounds across the sizes' parities.
func (g *gen) nearBounded() bool { return (g.seed+uint64(g.n))%2 == 1 }

// sparseDyadicRow has min(n, 4) nonzero entries k/8, 1 <= |k| <= 8, one of
// them at column j.
func (g *gen) sparseDyadicRow(j int) []float64 {
	a := make([]float64, g.n)
	a[j] = g.dyadicNZ(8, 8)
	for nz := 1; nz < min(g.n, 4); {
		if k := g.r.IntN(g.n); a[k] == 0 {
			a[k] = g.dyadicNZ(8, 8)
			nz++
		}
	}
	return a
}

// nearColumns hands out disjoint sets of columns to the near-copy
// structures. A structure on columns of its own adds to the span of the
// constraints exactly e_j (a pair) or e_i and e_j (a fixed variable and its
// equality); on shared columns, a pair's e_j can come within gap of the
// span of the others through another structure, and the pair is then gap^2
// from dependent (1e-17 at gap 2^-27), beyond float64, instead of gap.
type nearColumns struct {
	perm []int
	next int
}

// take returns the next k columns, or nil if fewer are left.
func (c *nearColumns) take(k int) []int {
	if c.next+k > len(c.perm) {
		return nil
	}
	c.next += k
	return c.perm[c.next-k : c.next]
}

// blockRow has nonzero entries k/8, 1 <= |k| <= 8, on cols.
func (g *gen) blockRow(cols []int) []float64 {
	a := make([]float64, g.n)
	for _, k := range cols {
		a[k] = g.dyadicNZ(8, 8)
	}
	return a
}

// nearCopy returns a with delta added to entry j (exact: |a_j| <= 1 and
// delta >= 2^-40).
func nearCopy(a []float64, j int, delta float64) []float64 {
	c := append([]float64(nil), a...)
	c[j] += delta
	return c
}

// negated returns -a.
func negated(a []float64) []float64 {
	c := make([]float64, len(a))
	for k, v := range a {
		c[k] = -v
	}
	return c
}

// bigPair returns the multipliers (T + m0, -T) of a constraint and its
// near-copy, T = t/max(delta, 2^-20) with t = k/4 (0 < |k| <= 8, either
// sign unless positive): they add m0 a - T delta e_j to the gradient, with
// multipliers of up to 2/delta, or 2^21. The floor keeps the multipliers
// within what float64 can certify and decide: a multiplier T is stored to
// T eps, the stationarity residual it leaves is T eps, and the duality
// gap's rounding is T eps |x| (1e-8 of the objective at T = 2^27, above
// the 1e-9 a caller may ask); among rows, the multipliers of a parallel
// pair differ in the gap's direction by their size times the gap, which
// T eps must not drown.
func (g *gen) bigPair(delta, m0 float64, positive bool) (float64, float64) {
	t := g.dyadicNZ(8, 4)
	if positive {
		t = math.Abs(t)
	}
	big := t / max(delta, 0x1p-20)
	return big + m0, -big
}

// nearBox puts finite bounds around x* on about half of the variables,
// none active, every one at least 1/8 away from x*_j (infinite bounds on
// the others).
func (g *gen) nearBox() {
	g.infBounds()
	for i := 0; i < g.n; i++ {
		if g.coin(0.5) {
			g.lower[i] = g.x[i] - g.posDyadic(16, 8)
			g.upper[i] = g.x[i] + g.posDyadic(16, 8)
		}
	}
}

// buildEqNearCopy (exact data): max(1, n/6) pairs of an equality and its
// near-copy, gap nearCopyGaps[seed mod 4], each pair on three columns of
// its own (nearColumns; fewer for n < 3), the copy's gap at the first, j:
// together they fix x_j = x*_j through 1/gap. Half of the pairs carry
// large multipliers (bigPair: about 1/gap, at most 2^21), the others small
// ones. n/8 other equalities and n/4 rows, n/8 of them active, with small
// multipliers, on any columns. With bounds (nearBounded) an inactive box on about half of
// the variables, and max(1, n/12) variables fixed (lower = upper = x*_i)
// next to an equality e_i + gap e_j on two columns of their own, which
// with the fixed x_i fixes x_j through 1/gap, its multiplier and the fixed
// variable's large (bigPair). Hard: a method that drops a near-copy as
// implied, calls the pair inconsistent, or solves with the Gram matrix's
// pivot gap^2 formed by cancellation answers x off by O(1) or
// "infeasible"; at gap 2^-33 and below a float64 method may not decide
// (MayBeUndecided).
func buildEqNearCopy(g *gen) {
	g.exactH()
	g.dyadicX()
	delta := g.nearFamily()
	cols := nearColumns{perm: g.r.Perm(g.n)}
	for t := 0; t < max(1, g.n/6); t++ {
		c := cols.take(min(3, g.n))
		if c == nil {
			break
		}
		a := g.blockRow(c)
		m1, m2 := g.dyadic(16, 4), g.dyadic(16, 4)
		if t%2 == 0 {
			m1, m2 = g.bigPair(delta, m1, false)
		}
		g.eqs = append(g.eqs, con{a: a, mult: m1, near: true}, con{a: nearCopy(a, c[0], delta), mult: m2, near: true})
	}
	g.addEqs(g.n/8, func() []float64 { return g.sparseDyadicRow(g.r.IntN(g.n)) }, func() float64 { return g.dyadicNZ(16, 4) })
	g.addRows(g.n/4, g.n/8, func() []float64 { return g.sparseDyadicRow(g.r.IntN(g.n)) },
		func() float64 { return g.posDyadic(16, 4) }, 0.2, g.dyadicSlack)
	if !g.nearBounded() {
		return
	}
	g.nearBox()
	g.z = make([]float64, g.n)
	for f := 0; f < max(1, g.n/12); f++ {
		c := cols.take(2)
		if c == nil {
			break
		}
		i, j := c[0], c[1]
		g.lower[i], g.upper[i] = g.x[i], g.x[i]
		a := make([]float64, g.n)
		a[i], a[j] = 1, delta
		// nu (e_i + gap e_j) + z_i e_i = -T gap e_j with nu = -T, z_i = T.
		z, nu := g.bigPair(delta, 0, false)
		g.z[i] = z
		g.eqs = append(g.eqs, con{a: a, mult: nu, near: true})
	}
}

// buildRowNearCopy (exact data): max(1, n/6) pairs of a row and its
// near-copy, gap nearCopyGaps[seed mod 4], each on three columns of its
// own (nearColumns), the copy's gap at the first, j, of three kinds: a
// wedge, a'x <= b and -(a + gap e_j)'x <= -(b + gap x*_j), both active,
// which meet only where x_j = x*_j (multipliers (T + l0, T), large
// (bigPair), or small ones); a parallel pair, a and a + gap e_j both active
// with small multipliers (the copy's possibly zero); a nearly active copy,
// a + gap e_j with a slack of gap k/8 beside an active a. n/2 other rows,
// n/8 of them active, on any columns. With bounds (nearBounded) an
// inactive box on about half of the variables, and max(1, n/12) variables
// fixed next to an active row e_i + gap e_j on two columns of their own,
// whose multiplier, and the fixed variable's, are large (bigPair). Hard:
// the rows' normals are gap apart, so the working set's pivots are gap^2 and
// its null steps, its consistent-dependent skips and its ratio tests all
// run at the edge of float64, and a near-copy violated within rounding can
// hide an x off by O(1); at gap 2^-33 and below a float64 method may not
// decide (MayBeUndecided).
func buildRowNearCopy(g *gen) {
	g.exactH()
	g.dyadicX()
	delta := g.nearFamily()
	cols := nearColumns{perm: g.r.Perm(g.n)}
	for t := 0; t < max(1, g.n/6); t++ {
		cs := cols.take(min(3, g.n))
		if cs == nil {
			break
		}
		a := g.blockRow(cs)
		c := nearCopy(a, cs[0], delta)
		switch t % 3 {
		case 0: // wedge
			l1, l2 := g.posDyadic(16, 4), g.posDyadic(16, 4)
			if g.coin(0.5) {
				big, minus := g.bigPair(delta, l1, true)
				l1, l2 = big, -minus
			}
			g.rows = append(g.rows, con{a: a, mult: l1, near: true}, con{a: negated(c), mult: l2, near: true})
		case 1: // parallel
			l2 := g.posDyadic(16, 4)
			if g.coin(0.3) {
				l2 = 0
			}
			g.rows = append(g.rows, con{a: a, mult: g.posDyadic(16, 4), near: true}, con{a: c, mult: l2, near: true})
		default: // nearly active copy
			g.rows = append(g.rows, con{a: a, mult: g.posDyadic(16, 4), near: true},
				con{a: c, slack: delta * g.posDyadic(8, 8), near: true})
		}
	}
	g.addRows(g.n/2, g.n/8, func() []float64 { return g.sparseDyadicRow(g.r.IntN(g.n)) },
		func() float64 { return g.posDyadic(16, 4) }, 0.2, g.dyadicSlack)
	if !g.nearBounded() {
		return
	}
	g.nearBox()
	g.z = make([]float64, g.n)
	for f := 0; f < max(1, g.n/12); f++ {
		c := cols.take(2)
		if c == nil {
			break
		}
		i, j := c[0], c[1]
		g.lower[i], g.upper[i] = g.x[i], g.x[i]
		a := make([]float64, g.n)
		a[i], a[j] = 1, delta
		// lambda (e_i + gap e_j) + z_i e_i = T gap e_j with lambda = T
		// > 0, z_i = -T (a fixed variable's multiplier has either sign).
		lam, z := g.bigPair(delta, 0, true)
		g.z[i] = z
		g.rows = append(g.rows, con{a: a, mult: lam, near: true})
	}
}

// nearMargin is the contradiction of the infeasible near-copy families:
// the pair's right-hand sides disagree with x_j <= x*_j by 2^-30, far
// above the rounding of any point's residuals, so that no point satisfies
// them all to rounding either (with a contradiction at the gap's scale,
// 1e-13 at 2^-40, a point would, and "solved" would be the float64
// answer), while the pair itself is gap apart.
const nearMargin = 0x1p-30

// nearContradiction appends the contradiction of an infeasible near-copy
// family on column j: the pair (a constraint and its near-copy, whose
// right-hand sides put x_j at x*_j + nearMargin/gap) from pair, and
// x_j <= x*_j, as an upper bound (with bounds) or as a row whose
// certificate weight is gap (the pair combines to gap e_j).
func (g *gen) nearContradiction(j int, pair func(a []float64, b, b2 float64)) {
	delta := g.nearGap
	a := g.sparseDyadicRow(j)
	var d acc
	for k, v := range a {
		d.addProd(v, g.x[k])
	}
	b := d.value() // exact: at most four products of dyadic numbers
	pair(a, b, b+delta*g.x[j]+nearMargin)
	if g.nearBounded() {
		g.infBounds()
		g.upper[j] = g.x[j]
		return
	}
	e := make([]float64, g.n)
	e[j] = 1
	g.rows = append(g.rows, con{a: e, bSet: true, b: g.x[j], cert: delta})
}

// buildInfeasEqNearCopy: a feasible base (infeasibleBase) and an equality
// a'x = b with its near-copy (a + gap e_j)'x = b + gap x*_j + 2^-30, gap
// nearCopyGaps[seed mod 4]: together they put x_j at x*_j + 2^-30/gap,
// and x_j <= x*_j (an upper bound with bounds, a row without) contradicts
// them. Certificate: yEq = (1, -1) on the pair and gap on the row (the
// bound needs no weight). Hard: the pair is independent, so no null step
// of the equalities alone finds the contradiction, and the certificate
// comes from null directions through pivots of gap^2; at gap 2^-33 and
// below a float64 certificate may not pass its check (MayBeUndecided).
func buildInfeasEqNearCopy(g *gen) {
	g.infeasibleBase()
	g.nearFamily()
	j := g.r.IntN(g.n)
	g.nearContradiction(j, func(a []float64, b, b2 float64) {
		g.eqs = append(g.eqs,
			con{a: a, bSet: true, b: b, cert: 1, near: true},
			con{a: nearCopy(a, j, g.nearGap), bSet: true, b: b2, cert: -1, near: true})
	})
}

// buildInfeasRowNearCopy: a feasible base (infeasibleBase) and a wedge
// a'x <= b, -(a + gap e_j)'x <= -(b + gap x*_j + 2^-30), gap
// nearCopyGaps[seed mod 4], which holds only where x_j >= x*_j +
// 2^-30/gap, and x_j <= x*_j (an upper bound with bounds, a row
// without). Certificate: yA = 1 on both rows of the wedge and gap on the
// row. Hard: as infeas-eq-near-copy, with the contradiction found among
// inequalities by null steps through pivots of gap^2.
func buildInfeasRowNearCopy(g *gen) {
	g.infeasibleBase()
	g.nearFamily()
	j := g.r.IntN(g.n)
	g.nearContradiction(j, func(a []float64, b, b2 float64) {
		g.rows = append(g.rows,
			con{a: a, bSet: true, b: b, cert: 1, near: true},
			con{a: negated(nearCopy(a, j, g.nearGap)), bSet: true, b: -b2, cert: 1, near: true})
	})
}
