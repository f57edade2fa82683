package solver

import "math/bits"

// SGD with Nesterov momentum on sparse rows, in lazySVRG's solve, for a
// regulariser of ridge and q only (no l1, no bounds: their prox cuts the
// momentum's recurrence at steps no closed form finds). A step on row i
// is the dense sgdmStep's,
//
//	y = x + beta mom,  mom <- beta mom - alpha (g_i(y) + ridge y + q),  x <- x + mom,
//
// g_i the row's estimate of the smooth part's gradient at y. A
// coordinate j outside the row takes the affine map of s = (x_j, mom_j)
//
//	mom' = beta (1 - alpha ridge) mom - alpha ridge x - alpha q_j,  x' = x + mom',
//
// s' = M s + q_j b with M a 2x2 matrix and b = -alpha (1, 1) fixed for a
// step size. d such steps are s_d = M^d s + (sum_{k<d} M^k) q_j b, which,
// as the map's fixed point is s* = (-q_j/ridge, 0) (lazyCoord.fix, 0), is
// s* + M^d (s - s*): the binary powers M^(2^k) are tabled once a step size
// (setMomPowers), and d's set bits compose them (advanceMom), O(popcount
// d) a catch-up. The sums of powers are not formed: they converge to (I -
// M)^-1, whose rounded entries (1 - alpha ridge among them) hold alpha
// ridge only to eps/(alpha ridge) relative, and would carry that into the
// fixed point; about s*, s* is rounded once. Everything else is SGD's
// (lazysgd.go): uniform draws, a stage's length in mixing times,
// Polyak-Ruppert averages, a certificate a pass; the step is the dense
// SGDM's, (1 - Momentum)/(Lc + ridge) (Options.StepScale: StepScale/(Lc +
// ridge)), and the mixing time (1 - Momentum)/(alpha ridge). The momentum
// starts at 0 with each stage of SGD (sgdRestart), as the dense SGDM's
// with each stage.

// momBits is the number of binary powers tabled: every d below 2^63.
const momBits = 63

// lazySGDMState is SGDM's state beyond SGD's.
type lazySGDMState struct {
	mom  []float64           // by coordinate: its momentum, current with its w (lazyCoord)
	beta float64             // the momentum factor
	pa   [momBits][4]float64 // M^(2^k), row-major over (x, mom)
}

// newSGDM allocates SGDM's state and sets its momentum factor.
func (z *lazySVRG) newSGDM() {
	z.sgdm.mom = make([]float64, len(z.w))
	z.sgdm.beta = z.opt.Momentum
	if z.sgdm.beta == 0 {
		z.sgdm.beta = defaultMomentum
	}
}

// setMomPowers tables the binary powers of the untouched steps' matrix M
// for the step z.eta: pa[k] = M^(2^k), each the square of the one before.
func (z *lazySVRG) setMomPowers() {
	g := &z.sgdm
	alpha, r := z.eta, z.ridge
	f := g.beta * (1 - alpha*r)
	g.pa[0] = [4]float64{1 - alpha*r, f, -alpha * r, f}
	for k := 1; k < momBits; k++ {
		a := &g.pa[k-1]
		g.pa[k] = [4]float64{a[0]*a[0] + a[1]*a[2], a[0]*a[1] + a[1]*a[3], a[2]*a[0] + a[3]*a[2], a[2]*a[1] + a[3]*a[3]}
	}
}

// advanceMom returns (x, mom) after d >= 0 steps that do not touch a
// coordinate whose fixed point is fix (-q_j/ridge): s* + M^d (s - s*),
// M^d the powers of d's set bits composed, in any order (they commute).
// Its error is that of the tables' repeated squaring, a few units in the
// last place of |x - fix| + |mom| per set bit on a stable map, and one of
// |fix|; it allocates nothing.
func (z *lazySVRG) advanceMom(x, m, fix float64, d int) (float64, float64) {
	u := x - fix
	for b := uint64(d); b != 0; b &= b - 1 {
		a := &z.sgdm.pa[bits.TrailingZeros64(b)]
		u, m = a[0]*u+a[1]*m, a[2]*u+a[3]*m
	}
	return fix + u, m
}

// sgdmRow takes SGDM's step s on component i (of the epoch whose first
// step was e0): its coordinates brought up to date, then the dense
// sgdmStep's update on them.
func (z *lazySVRG) sgdmRow(s, e0, i int) {
	g := &z.sgdm
	idx, val := z.row(i)
	var t float64 // the row's product with y = x + beta mom
	for q, jj := range idx {
		j := int(jj)
		st := &z.st[j]
		if d := s - 1 - max(st.last, e0-1); d > 0 { // as runSteps'
			st.w, g.mom[j] = z.advanceMom(st.w, g.mom[j], st.fix, d)
		}
		t += val[q] * (st.w + g.beta*g.mom[j])
	}
	ad := -z.eta * z.slope(i, t)
	ar := -z.eta * z.ridge
	for q, jj := range idx {
		j := int(jj)
		st := &z.st[j]
		y := st.w + g.beta*g.mom[j]
		m := g.beta*g.mom[j] + ad*val[q] + ar*y - z.eta*st.c
		g.mom[j] = m
		st.w += m
		st.last = s
	}
}
