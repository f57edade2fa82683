// Package qpgen generates hard strongly convex quadratic programs
//
//	minimize 1/2 x'Hx + c'x  subject to  A x <= b,  Aeq x = beq,  lower <= x <= upper
//
// with known optima or known infeasibility certificates, and checks claimed
// answers independently: KKT residuals and duality gaps in 256-bit big.Float
// (check.go), Farkas certificates (check.go), exact optima of tiny problems by
// active-set enumeration in big.Rat (exact.go), and the project's JSON
// problem format (json.go).
//
// The package uses only the standard library and nothing of the solver, so
// that it can judge the solver.
//
// # How optima are known
//
// Every feasible family is built backwards from its answer: choose x*, the
// rows active at x* with multipliers lambda* >= 0 (some exactly 0: weakly
// active rows), equality multipliers nu*, bound multipliers z* (z_i > 0 on an
// active upper bound, < 0 on an active lower bound, either sign on a fixed
// variable); then set
//
//	b_j   = a_j'x*            (active rows)       b_j = a_j'x* + s_j, s_j > 0 (inactive rows)
//	beq   = Aeq x*
//	c     = -(H x* + A'lambda* + Aeq'nu* + z*)
//
// so that (x*, lambda*, nu*, z*) satisfies the KKT conditions, which for a
// strongly convex problem make x* the unique optimum. The sums are formed
// with a compensated (twice-working-precision, Ogita-Rump-Oishi Dot2)
// accumulation and rounded once, so each stored b_j, beq_j, c_i differs
// from the exact value by at most about one ulp of itself plus
// (k eps)^2 times the sum of the absolute values of its k terms. QP.Exact records whether every one of
// these sums was exact (no rounding anywhere); the "exact" families draw H,
// A, x* and the multipliers from small dyadic rationals so that they are,
// and then XStar is the exact optimum of the stored float64 data. For the
// other families XStar is the exact optimum of a problem whose b, beq and c
// differ from the stored ones by about one ulp each; its KKT residuals are
// at rounding level and its distance to the true optimum is bounded by the
// conditioning (roughly cond(H) * eps * |c| / lambda_min(H)).
//
// Infeasible families keep such a feasible base and add a contradiction with
// an explicit Farkas certificate (QP.FarkasA, QP.FarkasEq).
package qpgen

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// QP is a dense strongly convex quadratic program
//
//	minimize 1/2 x'Hx + c'x  subject to  A x <= b,  Aeq x = beq,  Lower <= x <= Upper.
//
// Lower and Upper are nil (no bounds) or have length N; -Inf / +Inf means
// no bound. H is exactly symmetric and positive definite.
type QP struct {
	Name   string // family-n<N>-s<seed>
	Family string
	N      int
	H      [][]float64
	C      []float64
	A      [][]float64
	B      []float64
	Aeq    [][]float64
	Beq    []float64
	Lower  []float64
	Upper  []float64

	// Infeasible is true when the generator built the problem infeasible;
	// then FarkasA (len(A), >= 0) and FarkasEq (len(Aeq)) prove it:
	// see CheckFarkas.
	Infeasible bool
	FarkasA    []float64
	FarkasEq   []float64

	// XStar is the optimum known from the construction (nil when not
	// known), with the multipliers that certify it: LambdaStar for the rows
	// of A (>= 0), NuStar for Aeq, ZStar for the bounds (z_i > 0: upper
	// active, z_i < 0: lower active).
	XStar      []float64
	LambdaStar []float64
	NuStar     []float64
	ZStar      []float64

	// Exact is true when no rounding occurred in the construction: then
	// (XStar, LambdaStar, NuStar, ZStar) satisfies the KKT conditions of the
	// stored float64 data exactly and XStar is its exact optimum.
	Exact bool

	// NearGap is the gap between the near-copies of the near-copy
	// families (nearcopy.go), 0 for the others: x* then moves by about
	// eps/NearGap under the data's rounding, and a float64 answer is
	// judged by its backward error on the near-copies (PrimalBackward),
	// not by its distance from XStar. NearA and NearEq mark the rows and
	// equalities that belong to a near-copy structure (a pair, or a fixed
	// variable's near equality): their residuals alone see x's error along
	// the structure's near-null direction.
	NearGap       float64
	NearA, NearEq []bool

	// MayBeUndecided is true when the problem is so close to a degenerate
	// one (constraints 1e-10 of their norm or less from dependent, a
	// certificate whose components must cancel through coefficients of
	// 1e10) that a float64 method may be unable to decide it: answering
	// "undecided" (softpen's precision_limit) is then acceptable, a wrong
	// answer never is.
	MayBeUndecided bool
}

// M returns the number of inequality rows.
func (q *QP) M() int { return len(q.A) }

// MEq returns the number of equality rows.
func (q *QP) MEq() int { return len(q.Aeq) }

// family is one generator: build fills g's construction lists from g.n.
type family struct {
	name  string
	build func(g *gen)
}

var familyList = []family{
	{"cond-dense", buildCondDense},
	{"cond-diag", buildCondDiag},
	{"bounds-mixed", buildBoundsMixed},
	{"eq-dependent", buildEqDependent},
	{"ineq-duplicate", buildIneqDuplicate},
	{"degenerate-vertex", buildDegenerateVertex},
	{"big-multipliers", buildBigMultipliers},
	{"many-rows", buildManyRows},
	{"infeas-negation", buildInfeasNegation},
	{"infeas-box", buildInfeasBox},
	{"infeas-zero-row", buildInfeasZeroRow},
	{"infeas-eq", buildInfeasEq},
	{"eq-near-copy", buildEqNearCopy},
	{"row-near-copy", buildRowNearCopy},
	{"infeas-eq-near-copy", buildInfeasEqNearCopy},
	{"infeas-row-near-copy", buildInfeasRowNearCopy},
}

// Families returns the family names Generate accepts, in a fixed order
// (each builder's comment says how it is made and what makes it hard):
//
//	cond-dense            dense H = Q diag Q', cond(H) = 10^(seed mod 11); 2n rows, n/4 equalities
//	cond-diag             diagonal H, cond(H) = 10^(seed mod 11); many active/weakly active bounds
//	bounds-mixed          exact; fixed, one-sided, boxed, free variables, degenerate bounds
//	eq-dependent          exact; rank-deficient Aeq with exactly consistent beq
//	ineq-duplicate        exact; duplicate and doubled rows, zero rows with b = 0 and b > 0
//	degenerate-vertex     exact; more active rows than n, many zero multipliers
//	big-multipliers       multipliers from 1e-4 to 1e8 (and 0), |c| ~ 1e8, cond(H) = 10^(seed mod 9)
//	many-rows             m = 10n rows scaled over 6 decades, nearly active rows (slack 1e-9)
//	infeas-negation       a row and its scaled negation 2^-20 apart
//	infeas-box            a row over bounded variables that misses the box by 2^-16
//	infeas-zero-row       0'x <= -2^-30
//	infeas-eq             dependent equalities whose right-hand sides disagree by 2^-16
//	eq-near-copy          exact; equalities and their near-copies 2^-20 .. 2^-40 apart, fixed variables beside them
//	row-near-copy         exact; rows and their near-copies: wedges, parallel pairs, nearly active copies
//	infeas-eq-near-copy   an equality and its near-copy that a bound or a row contradicts
//	infeas-row-near-copy  a wedge of a row and its near-copy that a bound or a row contradicts
//
// "exact" families satisfy QP.Exact (XStar is the exact optimum of the
// stored data); infeas-* families have Infeasible set and a certificate.
// The near-copy families (nearcopy.go) pick their gap from the seed and set
// QP.MayBeUndecided at the smallest gaps.
func Families() []string {
	names := make([]string, len(familyList))
	for i, f := range familyList {
		names[i] = f.name
	}
	return names
}

// Generate builds the problem of the given family with n variables from
// seed. The result depends only on (family, n, seed): same arguments, same
// bits. The numbers of rows are derived from n inside the family (at most
// 10n + a few). It panics on an unknown family or n < 1.
func Generate(family string, n int, seed uint64) *QP {
	if n < 1 {
		panic(fmt.Sprintf("qpgen: n = %d, want >= 1", n))
	}
	for _, f := range familyList {
		if f.name != family {
			continue
		}
		g := &gen{
			r:    rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15^uint64(len(family))<<32^hashName(family))),
			n:    n,
			seed: seed,
		}
		f.build(g)
		q := g.finish()
		q.Family = family
		q.Name = fmt.Sprintf("%s-n%d-s%d", family, n, seed)
		return q
	}
	panic("qpgen: unknown family " + family)
}

func hashName(s string) uint64 {
	h := uint64(1469598103934665603)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// con is one row of the construction: mult is lambda_j (rows) or nu_j
// (equalities); b = a'x* + slack unless bSet (then b is used as given, for
// contradicting rows); cert is the row's weight in the Farkas certificate.
type con struct {
	a     []float64
	mult  float64
	slack float64
	bSet  bool
	b     float64
	cert  float64
	near  bool // one of a near-copy structure (QP.NearA, QP.NearEq)
}

// gen holds one construction in progress.
type gen struct {
	r    *rand.Rand
	n    int
	seed uint64

	h          [][]float64
	x          []float64
	rows       []con
	eqs        []con
	lower      []float64
	upper      []float64
	z          []float64
	infeasible bool
	inexact    bool // data drawn in float (H, rows) that is not exact anyway
	// nearGap and mayBeUndecided become QP.NearGap and QP.MayBeUndecided.
	nearGap        float64
	mayBeUndecided bool
}

// ---------- random numbers ----------

func (g *gen) unif(lo, hi float64) float64 { return lo + (hi-lo)*g.r.Float64() }

// logUnif is log-uniform on [lo, hi], lo > 0.
func (g *gen) logUnif(lo, hi float64) float64 {
	return math.Exp(g.unif(math.Log(lo), math.Log(hi)))
}

// dyadic is k/den with k uniform in [-kmax, kmax].
func (g *gen) dyadic(kmax int, den float64) float64 {
	return float64(g.r.IntN(2*kmax+1)-kmax) / den
}

// dyadicNZ is k/den with k uniform in [-kmax, kmax] \ {0}.
func (g *gen) dyadicNZ(kmax int, den float64) float64 {
	k := g.r.IntN(2*kmax) + 1
	if k > kmax {
		k = kmax - k
	}
	return float64(k) / den
}

// posDyadic is k/den with k uniform in [1, kmax].
func (g *gen) posDyadic(kmax int, den float64) float64 {
	return float64(g.r.IntN(kmax)+1) / den
}

func (g *gen) coin(p float64) bool { return g.r.Float64() < p }

// ---------- building blocks ----------

// gaussX sets a Gaussian x*.
func (g *gen) gaussX() {
	g.x = make([]float64, g.n)
	for i := range g.x {
		g.x[i] = g.r.NormFloat64()
	}
}

// dyadicX sets x* with entries k/16, |k| <= 32.
func (g *gen) dyadicX() {
	g.x = make([]float64, g.n)
	for i := range g.x {
		g.x[i] = g.dyadic(32, 16)
	}
}

// gaussRow is a Gaussian row; with density < 1 a random sparse row with at
// least one nonzero.
func (g *gen) gaussRow(density float64) []float64 {
	a := make([]float64, g.n)
	for k := range a {
		if density >= 1 || g.coin(density) {
			a[k] = g.r.NormFloat64()
		}
	}
	if density < 1 {
		a[g.r.IntN(g.n)] = g.r.NormFloat64()
	}
	return a
}

// dyadicRow has nonzero entries k/8, 1 <= |k| <= 8; with density < 1 sparse
// with at least one nonzero.
func (g *gen) dyadicRow(density float64) []float64 {
	a := make([]float64, g.n)
	for k := range a {
		if density >= 1 || g.coin(density) {
			a[k] = g.dyadicNZ(8, 8)
		}
	}
	if density < 1 {
		a[g.r.IntN(g.n)] = g.dyadicNZ(8, 8)
	}
	return a
}

// eigs returns n eigenvalues log-spaced over [cond^-1/2, cond^1/2] (so
// cond(H) = cond exactly in exact arithmetic), in random order.
func (g *gen) eigs(cond float64) []float64 {
	d := make([]float64, g.n)
	for i := range d {
		t := 0.5
		if g.n > 1 {
			t = float64(i) / float64(g.n-1)
		}
		d[i] = math.Pow(cond, t-0.5)
	}
	g.r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

// diagH sets H = diag(eigs(cond)).
func (g *gen) diagH(cond float64) {
	d := g.eigs(cond)
	g.h = make([][]float64, g.n)
	for i := range g.h {
		g.h[i] = make([]float64, g.n)
		g.h[i][i] = d[i]
	}
	if cond != 1 {
		g.inexact = true
	}
}

// denseH sets H = Q diag(eigs(cond)) Q' with Q a product of min(n, 200)
// random Householder reflections (orthogonal: the spectrum is kept up to
// rounding; for n <= 200 Q is a full random orthogonal matrix, above it
// H - diag has rank <= 400, which keeps generation O(200 n^2)), then
// symmetrises exactly by copying the upper triangle. The
// rounding moves eigenvalues by about eps * cond^1/2, relatively
// eps * cond <= 1e-6 for the smallest: H stays positive definite.
func (g *gen) denseH(cond float64) {
	n := g.n
	d := g.eigs(cond)
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
		h[i][i] = d[i]
	}
	v := make([]float64, n)
	p := make([]float64, n)
	w := make([]float64, n)
	for t := 0; t < min(n, 200); t++ {
		vv := 0.0
		for i := range v {
			v[i] = g.r.NormFloat64()
			vv += v[i] * v[i]
		}
		if vv == 0 {
			continue
		}
		beta := 2 / vv
		// P H P with P = I - beta v v': p = beta H v, K = beta/2 v'p,
		// w = p - K v, H <- H - v w' - w v'.
		vp := 0.0
		for i := 0; i < n; i++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += h[i][k] * v[k]
			}
			p[i] = beta * s
		}
		for i := range v {
			vp += v[i] * p[i]
		}
		kk := beta / 2 * vp
		for i := range w {
			w[i] = p[i] - kk*v[i]
		}
		for i := 0; i < n; i++ {
			for k := 0; k < n; k++ {
				h[i][k] -= v[i]*w[k] + w[i]*v[k]
			}
		}
	}
	for i := 0; i < n; i++ {
		for k := i + 1; k < n; k++ {
			h[k][i] = h[i][k]
		}
	}
	g.h = h
	if n > 1 || cond != 1 {
		g.inexact = true
	}
}

// exactH sets H = diag(d) + B'B with d_i in {1, 2, 4, 8, 16} and B a
// min(n, 4) x n matrix of entries in {-1, 0, 1}: integer, exactly
// representable, positive definite (lambda_min >= 1), cond up to ~16 + 4n.
func (g *gen) exactH() {
	n := g.n
	k := min(n, 4)
	bm := make([][]float64, k)
	for r := range bm {
		bm[r] = make([]float64, n)
		for i := range bm[r] {
			bm[r][i] = float64(g.r.IntN(3) - 1)
		}
	}
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	for r := range bm {
		for i := 0; i < n; i++ {
			if bm[r][i] == 0 {
				continue
			}
			for j := 0; j < n; j++ {
				h[i][j] += bm[r][i] * bm[r][j]
			}
		}
	}
	for i := range h {
		h[i][i] += float64(int(1) << g.r.IntN(5))
	}
	g.h = h
}

// addRows appends m rows from row(): the first nAct active (multiplier
// lam(), or exactly 0 with probability weak), the others inactive with
// slack slack(a). Row order is shuffled in finish.
func (g *gen) addRows(m, nAct int, row func() []float64, lam func() float64, weak float64, slack func(a []float64) float64) {
	for j := 0; j < m; j++ {
		a := row()
		c := con{a: a}
		if j < nAct {
			if !g.coin(weak) {
				c.mult = lam()
			}
		} else {
			c.slack = slack(a)
		}
		g.rows = append(g.rows, c)
	}
}

// addEqs appends meq equality rows from row() with multipliers nu().
func (g *gen) addEqs(meq int, row func() []float64, nu func() float64) {
	for j := 0; j < meq; j++ {
		g.eqs = append(g.eqs, con{a: row(), mult: nu()})
	}
}

func norm2(a []float64) float64 {
	s := 0.0
	for _, v := range a {
		s += v * v
	}
	return math.Sqrt(s)
}

func (g *gen) gaussSlack(a []float64) float64 { return (norm2(a) + 1e-3) * g.unif(0.05, 1) }
func (g *gen) dyadicSlack([]float64) float64  { return g.posDyadic(16, 8) }

func (g *gen) infBounds() {
	g.lower = make([]float64, g.n)
	g.upper = make([]float64, g.n)
	for i := range g.lower {
		g.lower[i] = math.Inf(-1)
		g.upper[i] = math.Inf(1)
	}
}

// ---------- compensated accumulation ----------

// acc accumulates sums of products in about twice the working precision
// (TwoSum / TwoProduct with FMA, as in Ogita, Rump and Oishi's Dot2). value
// is within about one ulp of the exact sum; inexact is false only when the
// value is the exact sum: s + e is the exact sum as long as no addition to
// the error term e rounded (TwoSum and TwoProduct errors are exact), and
// the value is exact when s + e is representable. Partial sums may round
// (multipliers of 2^40 that cancel, nearcopy.go): their errors are in e.
type acc struct {
	s, e    float64
	inexact bool
}

func (a *acc) addProd(x, y float64) {
	p := float64(x * y) // rounded: no fused multiply-add with the sum
	a.add2(p, math.FMA(x, y, -p))
}

func (a *acc) add(v float64) { a.add2(v, 0) }

func (a *acc) add2(p, pe float64) {
	s, se := twoSum(a.s, p)
	a.s = s
	t, te := twoSum(se, pe)
	e, ee := twoSum(a.e, t)
	a.e = e
	if te != 0 || ee != 0 {
		a.inexact = true
	}
}

// twoSum returns fl(x + y) and its rounding error (Knuth's TwoSum).
func twoSum(x, y float64) (s, err float64) {
	s = x + y
	bb := s - x
	return s, (x - (s - bb)) + (y - bb)
}

func (a *acc) value() float64 {
	v, err := twoSum(a.s, a.e)
	if err != 0 {
		a.inexact = true
	}
	return v
}

// ---------- finishing ----------

// finish shuffles the rows, computes b, beq and c from the construction
// and fills a QP.
func (g *gen) finish() *QP {
	n := g.n
	g.r.Shuffle(len(g.rows), func(i, j int) { g.rows[i], g.rows[j] = g.rows[j], g.rows[i] })
	g.r.Shuffle(len(g.eqs), func(i, j int) { g.eqs[i], g.eqs[j] = g.eqs[j], g.eqs[i] })
	exact := !g.inexact
	q := &QP{N: n, H: g.h, Lower: g.lower, Upper: g.upper, Infeasible: g.infeasible,
		NearGap: g.nearGap, MayBeUndecided: g.mayBeUndecided}
	rhs := func(cs []con) ([][]float64, []float64) {
		a := make([][]float64, len(cs))
		b := make([]float64, len(cs))
		for j, c := range cs {
			a[j] = c.a
			if c.bSet {
				b[j] = c.b
				continue
			}
			var s acc
			for k, v := range c.a {
				if v != 0 {
					s.addProd(v, g.x[k])
				}
			}
			if c.slack != 0 {
				s.add(c.slack)
			}
			b[j] = s.value()
			if s.inexact {
				exact = false
			}
		}
		return a, b
	}
	q.A, q.B = rhs(g.rows)
	q.Aeq, q.Beq = rhs(g.eqs)

	// c = -(H x* + A'lambda* + Aeq'nu* + z*).
	cs := make([]acc, n)
	for i := 0; i < n; i++ {
		for k, v := range g.h[i] {
			if v != 0 {
				cs[i].addProd(v, g.x[k])
			}
		}
	}
	for _, list := range [][]con{g.rows, g.eqs} {
		for _, c := range list {
			if c.mult == 0 {
				continue
			}
			for k, v := range c.a {
				if v != 0 {
					cs[k].addProd(v, c.mult)
				}
			}
		}
	}
	if g.z != nil {
		for i, v := range g.z {
			if v != 0 {
				cs[i].add(v)
			}
		}
	}
	q.C = make([]float64, n)
	for i := range cs {
		q.C[i] = -cs[i].value()
		if cs[i].inexact {
			exact = false
		}
	}

	lambda, farkasA := weights(g.rows)
	nu, farkasEq := weights(g.eqs)
	if g.nearGap > 0 {
		q.NearA, q.NearEq = nearMarks(g.rows), nearMarks(g.eqs)
	}
	if g.infeasible {
		q.FarkasA, q.FarkasEq = farkasA, farkasEq
		return q
	}
	q.XStar = g.x
	q.LambdaStar, q.NuStar = lambda, nu
	q.ZStar = make([]float64, n)
	copy(q.ZStar, g.z)
	q.Exact = exact
	return q
}

// weights returns the multiplier and the Farkas weight of each constraint
// of cs, in order.
func weights(cs []con) (mult, cert []float64) {
	mult = make([]float64, len(cs))
	cert = make([]float64, len(cs))
	for j, c := range cs {
		mult[j], cert[j] = c.mult, c.cert
	}
	return mult, cert
}

// nearMarks returns whether each constraint of cs belongs to a near-copy
// structure, in order.
func nearMarks(cs []con) []bool {
	m := make([]bool, len(cs))
	for j, c := range cs {
		m[j] = c.near
	}
	return m
}

// ---------- families ----------

// buildCondDense: dense H = Q diag(eigs) Q' with cond(H) = 10^(seed mod 11),
// so sweeping seeds 0..10 covers 1 .. 1e10; eigenvalues log-spaced in
// [cond^-1/2, cond^1/2]. m = 2n Gaussian rows, about n/2 - n/4 active with
// multipliers log-uniform in [1e-2, 1e2] (one in five exactly 0: weakly
// active), n/4 Gaussian equalities, no bounds. Hard: the reduced Hessian on
// the null space of the working set is as ill-conditioned as H, so
// factorisation updates lose about log10(cond) digits; c is rounded, so x*
// is exact only up to cond * eps.
func buildCondDense(g *gen) {
	cond := math.Pow(10, float64(g.seed%11))
	g.denseH(cond)
	g.gaussX()
	meq := g.n / 4
	g.addEqs(meq, func() []float64 { return g.gaussRow(1) }, g.r.NormFloat64)
	g.addRows(2*g.n, max(1, g.n/2-meq), func() []float64 { return g.gaussRow(1) },
		func() float64 { return g.logUnif(1e-2, 1e2) }, 0.2, g.gaussSlack)
}

// buildCondDiag: diagonal H with log-spaced eigenvalues, cond(H) =
// 10^(seed mod 11), shuffled along the diagonal. About a third of the
// variables sit at an active lower bound (z < 0), a third at an active
// upper bound (z > 0), with |z| log-uniform in [1e-3, 1e3] and one in five
// exactly 0 (weakly active); the rest are interior with finite or infinite
// bounds. m = n sparse rows (about 3 nonzeros), n/4 active. Hard: badly
// scaled variables (a scaling-blind pivot rule picks the wrong variable),
// many bound changes, and degenerate bounds.
func buildCondDiag(g *gen) {
	cond := math.Pow(10, float64(g.seed%11))
	g.diagH(cond)
	g.gaussX()
	g.infBounds()
	g.z = make([]float64, g.n)
	for i := 0; i < g.n; i++ {
		mag := g.logUnif(1e-3, 1e3)
		if g.coin(0.2) {
			mag = 0
		}
		switch g.r.IntN(3) {
		case 0:
			g.lower[i] = g.x[i]
			if g.coin(0.5) {
				g.upper[i] = g.x[i] + g.unif(0.5, 2)
			}
			g.z[i] = -mag
		case 1:
			g.upper[i] = g.x[i]
			if g.coin(0.5) {
				g.lower[i] = g.x[i] - g.unif(0.5, 2)
			}
			g.z[i] = mag
		default:
			if g.coin(0.6) {
				g.lower[i] = g.x[i] - g.unif(0.1, 2)
			}
			if g.coin(0.6) {
				g.upper[i] = g.x[i] + g.unif(0.1, 2)
			}
		}
	}
	density := min(1, 3/float64(g.n))
	g.addRows(g.n, g.n/4, func() []float64 { return g.gaussRow(density) },
		func() float64 { return g.logUnif(1e-2, 1e2) }, 0.2, g.gaussSlack)
}

// buildBoundsMixed (exact data): every variable gets one of eight bound
// patterns: fixed (lower == upper == x*_i, z of either sign or 0), active
// lower only (upper = +Inf), active upper only, active lower of a finite
// box, inactive lower only, inactive upper only, inactive finite box, free
// (both infinite). Active bounds get z = 0 with probability 1/4 (weakly
// active). n/2 + 1 dense rows, n/4 of them active. Hard: fixed variables
// (two bounds active at once, the multiplier's sign decides which), bounds
// that must never be treated as finite, degenerate bounds.
func buildBoundsMixed(g *gen) {
	g.exactH()
	g.dyadicX()
	g.infBounds()
	g.z = make([]float64, g.n)
	zmag := func() float64 {
		if g.coin(0.25) {
			return 0
		}
		return g.posDyadic(32, 4)
	}
	for i := 0; i < g.n; i++ {
		x := g.x[i]
		switch g.r.IntN(8) {
		case 0: // fixed
			g.lower[i], g.upper[i] = x, x
			g.z[i] = g.dyadic(32, 4)
		case 1:
			g.lower[i] = x
			g.z[i] = -zmag()
		case 2:
			g.upper[i] = x
			g.z[i] = zmag()
		case 3:
			g.lower[i], g.upper[i] = x, x+g.posDyadic(16, 8)
			g.z[i] = -zmag()
		case 4:
			g.lower[i] = x - g.posDyadic(16, 8)
		case 5:
			g.upper[i] = x + g.posDyadic(16, 8)
		case 6:
			g.lower[i], g.upper[i] = x-g.posDyadic(16, 8), x+g.posDyadic(16, 8)
		case 7: // free
		}
	}
	g.addRows(g.n/2+1, g.n/4, func() []float64 { return g.dyadicRow(1) },
		func() float64 { return g.posDyadic(16, 4) }, 0.2, g.dyadicSlack)
}

// buildEqDependent (exact data): meq0 = max(1, n/3) random equality rows,
// then meq0/2 + 1 rows that depend on them exactly: duplicates, negations,
// doubles, sums and differences of two rows, with beq = Aeq x* exact (so the
// dependent rows are consistent exactly, not just up to rounding). Dependent
// rows carry multiplier 0 or their own (the equality multipliers are not
// unique). n inequality rows, n/4 active. Hard: Aeq is rank deficient, so
// the KKT matrix with all equalities is singular; a solver must detect the
// dependency exactly (a rounding-level inconsistency would be a different,
// infeasible problem: see infeas-eq).
func buildEqDependent(g *gen) {
	g.exactH()
	g.dyadicX()
	meq0 := max(1, g.n/3)
	nu := func() float64 { return g.dyadicNZ(16, 4) }
	g.addEqs(meq0, func() []float64 { return g.dyadicRow(1) }, nu)
	for t := 0; t < meq0/2+1; t++ {
		r1 := g.eqs[g.r.IntN(meq0)].a
		r2 := g.eqs[g.r.IntN(meq0)].a
		a := make([]float64, g.n)
		kind := g.r.IntN(5)
		for k := range a {
			switch kind {
			case 0:
				a[k] = r1[k]
			case 1:
				a[k] = -r1[k]
			case 2:
				a[k] = 2 * r1[k]
			case 3:
				a[k] = r1[k] + r2[k]
			case 4:
				a[k] = r1[k] - r2[k]
			}
		}
		m := 0.0
		if g.coin(0.5) {
			m = nu()
		}
		g.eqs = append(g.eqs, con{a: a, mult: m})
	}
	g.addRows(g.n, g.n/4, func() []float64 { return g.dyadicRow(1) },
		func() float64 { return g.posDyadic(16, 4) }, 0.2, g.dyadicSlack)
}

// buildIneqDuplicate (exact data): n base rows, max(1, n/3) active; each
// active row is duplicated (exact copy, multiplier split in halves or all
// on one copy) or doubled (2a, with b exactly 2b) with probability 1/2;
// each inactive row is duplicated with probability 1/5; plus a zero row
// with b = 0 (satisfied with equality everywhere: always "active", no-op)
// and a zero row with b > 0. Hard: parallel active rows make the working
// set singular the moment both are added; zero rows have no direction at
// all (a ratio test divides by a'p = 0); multipliers are not unique.
func buildIneqDuplicate(g *gen) {
	g.exactH()
	g.dyadicX()
	nAct := max(1, g.n/3)
	g.addRows(g.n, nAct, func() []float64 { return g.dyadicRow(1) },
		func() float64 { return g.posDyadic(16, 2) }, 0.2, g.dyadicSlack)
	base := len(g.rows)
	for j := 0; j < base; j++ {
		c := g.rows[j]
		if j < nAct {
			if !g.coin(0.5) {
				continue
			}
			if g.coin(0.5) {
				d := con{a: append([]float64(nil), c.a...)}
				if g.coin(0.5) {
					d.mult = c.mult / 2
					g.rows[j].mult = c.mult / 2
				}
				g.rows = append(g.rows, d)
			} else {
				a := make([]float64, g.n)
				for k := range a {
					a[k] = 2 * c.a[k]
				}
				g.rows = append(g.rows, con{a: a})
			}
		} else if g.coin(0.2) {
			g.rows = append(g.rows, con{a: append([]float64(nil), c.a...), slack: c.slack})
		}
	}
	g.rows = append(g.rows, con{a: make([]float64, g.n)})
	g.rows = append(g.rows, con{a: make([]float64, g.n), slack: g.posDyadic(16, 8)})
}

// buildDegenerateVertex (exact data): x* is a vertex with more active rows
// than variables: n random rows through x*, plus n/2 + 1 more rows through
// x* (nonnegative integer combinations of two of them, or fresh random
// rows, which in R^n are necessarily dependent on the first n), plus n/2
// inactive rows. Multipliers are positive on a random part of the active
// rows (at least one) and exactly 0 on the rest; a quarter of the variables
// also get a lower bound at x*_i with z = 0. Hard: the textbook degenerate
// vertex — ratio tests tie, working sets are singular, anti-cycling matters,
// and the optimal multiplier is not unique.
func buildDegenerateVertex(g *gen) {
	g.exactH()
	g.dyadicX()
	n := g.n
	for j := 0; j < n; j++ {
		c := con{a: g.dyadicRow(1)}
		if j == 0 || g.coin(0.5) {
			c.mult = g.posDyadic(16, 4)
		}
		g.rows = append(g.rows, c)
	}
	for t := 0; t < n/2+1; t++ {
		var a []float64
		if g.coin(0.5) {
			r1, r2 := g.rows[g.r.IntN(n)].a, g.rows[g.r.IntN(n)].a
			c1, c2 := float64(g.r.IntN(2)+1), float64(g.r.IntN(3))
			a = make([]float64, n)
			for k := range a {
				a[k] = c1*r1[k] + c2*r2[k]
			}
		} else {
			a = g.dyadicRow(1)
		}
		c := con{a: a}
		if g.coin(0.5) {
			c.mult = g.posDyadic(16, 4)
		}
		g.rows = append(g.rows, c)
	}
	g.addRows(n/2, 0, func() []float64 { return g.dyadicRow(1) }, nil, 0, g.dyadicSlack)
	g.infBounds()
	g.z = make([]float64, n)
	for i := 0; i < n; i++ {
		if g.coin(0.25) {
			g.lower[i] = g.x[i]
		}
	}
}

// buildBigMultipliers: dense H with cond(H) = 10^(seed mod 9) (1 .. 1e8);
// A and x* dyadic (so b is exact); m = 2n rows, max(1, n/2) active with
// multipliers log-uniform in [1e-4, 1e8], the first exactly 1e8 and one in
// five exactly 0; a quarter of the variables at an active lower bound with
// z log-uniform in [1, 1e8]. Hard: c = -(Hx* + A'lambda* + z*) is of size
// 1e8 while x* is of size 1, so the gradient Hx + c cancels catastrophically
// near the optimum; multipliers spread over 12 decades make any absolute
// tolerance wrong; small multipliers next to huge ones are easy to drop.
func buildBigMultipliers(g *gen) {
	cond := math.Pow(10, float64(g.seed%9))
	g.denseH(cond)
	g.dyadicX()
	nAct := max(1, g.n/2)
	first := true
	g.addRows(2*g.n, nAct, func() []float64 { return g.dyadicRow(1) },
		func() float64 {
			if first {
				first = false
				return 1e8
			}
			return g.logUnif(1e-4, 1e8)
		}, 0.2, g.dyadicSlack)
	g.infBounds()
	g.z = make([]float64, g.n)
	for i := 0; i < g.n; i++ {
		if g.coin(0.25) {
			g.lower[i] = g.x[i]
			g.z[i] = -g.logUnif(1, 1e8)
		}
	}
}

// buildManyRows: m = 10n Gaussian rows scaled by 10^U(-3,3) (badly scaled
// rows), max(1, n/3) active with multipliers log-uniform in [1e-2, 1e2];
// one in ten inactive rows is nearly active (slack 1e-9 relative to the
// row's size), the others have ordinary slacks. Dense H with cond 1e3,
// infinite bounds stored explicitly as ±Inf. Hard: the working set must be
// picked from 10n candidates, nearly active rows look active to any loose
// tolerance, row scaling spans six decades.
func buildManyRows(g *gen) {
	g.denseH(1e3)
	g.gaussX()
	g.infBounds()
	row := func() []float64 {
		a := g.gaussRow(1)
		s := math.Pow(10, g.unif(-3, 3))
		for k := range a {
			a[k] *= s
		}
		return a
	}
	g.addRows(10*g.n, max(1, g.n/3), row, func() float64 { return g.logUnif(1e-2, 1e2) }, 0.1,
		func(a []float64) float64 {
			sz := 0.0
			for k, v := range a {
				sz += math.Abs(v * g.x[k])
			}
			sz += norm2(a)
			if g.coin(0.1) {
				return 1e-9 * sz
			}
			return sz * g.unif(0.01, 1)
		})
}

// infeasibleBase is the feasible part of every infeasible family (exact
// data): exact H, dyadic x*, n rows of which n/4 active, max(0, n/4 - 1)
// equalities.
func (g *gen) infeasibleBase() {
	g.exactH()
	g.dyadicX()
	g.addEqs(max(0, g.n/4-1), func() []float64 { return g.dyadicRow(1) }, func() float64 { return g.dyadicNZ(16, 4) })
	g.addRows(g.n, g.n/4, func() []float64 { return g.dyadicRow(1) },
		func() float64 { return g.posDyadic(16, 4) }, 0.2, g.dyadicSlack)
	g.infeasible = true
}

// buildInfeasNegation: a feasible base plus a row a'x <= b1 and its scaled
// negation -s a'x <= b2 with b2 = -s b1 - 2^-20 (s in {1, 2}): the two
// miss each other by a thin slab of width 2^-20 / (s |a|). Certificate
// yA = s on the first row, 1 on the second. Hard: the contradiction is
// tiny, so a solver with a loose feasibility tolerance "solves" it.
func buildInfeasNegation(g *gen) {
	g.infeasibleBase()
	a := g.dyadicRow(1)
	var d acc
	for k, v := range a {
		d.addProd(v, g.x[k])
	}
	b1 := d.value() + g.dyadic(8, 8)
	s := float64(g.r.IntN(2) + 1)
	na := make([]float64, g.n)
	for k := range a {
		na[k] = -s * a[k]
	}
	g.rows = append(g.rows,
		con{a: a, bSet: true, b: b1, cert: s},
		con{a: na, bSet: true, b: -s*b1 - math.Ldexp(1, -20), cert: 1})
}

// buildInfeasBox: a feasible base; finite box bounds on a random subset S
// of the variables (infinite on the others), and a row supported on S with
// b = min over the box of a'x minus 2^-16: the row and the box miss each
// other. Certificate: yA = 1 on that row. Hard: each constraint alone is
// satisfiable and the row touches only bounded variables, so only the
// combination with the bounds proves infeasibility.
func buildInfeasBox(g *gen) {
	g.infeasibleBase()
	g.infBounds()
	a := make([]float64, g.n)
	minBox := 0.0
	for i := 0; i < g.n; i++ {
		if i > 0 && !g.coin(0.5) {
			continue
		}
		g.lower[i] = g.x[i] - g.posDyadic(16, 8)
		g.upper[i] = g.x[i] + g.posDyadic(16, 8)
		a[i] = g.dyadicNZ(8, 8)
		if a[i] > 0 {
			minBox += a[i] * g.lower[i]
		} else {
			minBox += a[i] * g.upper[i]
		}
	}
	g.r.Shuffle(g.n, func(i, j int) {
		a[i], a[j] = a[j], a[i]
		g.lower[i], g.lower[j] = g.lower[j], g.lower[i]
		g.upper[i], g.upper[j] = g.upper[j], g.upper[i]
		g.x[i], g.x[j] = g.x[j], g.x[i]
	})
	g.rows = append(g.rows, con{a: a, bSet: true, b: minBox - math.Ldexp(1, -16), cert: 1})
}

// buildInfeasZeroRow: a feasible base plus a zero row with b = -2^-30 (0 <=
// -2^-30 is false for every x). Certificate: yA = 1 on that row. Hard: the
// row has no direction; a solver that skips zero rows as no-ops (right for
// b >= 0, see ineq-duplicate) calls this feasible.
func buildInfeasZeroRow(g *gen) {
	g.infeasibleBase()
	g.rows = append(g.rows, con{a: make([]float64, g.n), bSet: true, b: -math.Ldexp(1, -30), cert: 1})
}

// buildInfeasEq: a feasible base plus equalities r1'x = beq1, r2'x = beq2
// and (r1 + r2)'x = beq1 + beq2 + 2^-16 (dependent rows, inconsistent
// right-hand side). Certificate: yEq = (1, 1, -1) on those rows. Hard: the
// rank-deficient Aeq of eq-dependent, but with a small inconsistency that a
// least-squares treatment of dependent rows would average away.
func buildInfeasEq(g *gen) {
	g.infeasibleBase()
	r1, r2 := g.dyadicRow(1), g.dyadicRow(1)
	r3 := make([]float64, g.n)
	var d1, d2 acc
	for k := range r3 {
		r3[k] = r1[k] + r2[k]
		d1.addProd(r1[k], g.x[k])
		d2.addProd(r2[k], g.x[k])
	}
	b1, b2 := d1.value(), d2.value()
	g.eqs = append(g.eqs,
		con{a: r1, bSet: true, b: b1, cert: 1},
		con{a: r2, bSet: true, b: b2, cert: 1},
		con{a: r3, bSet: true, b: b1 + b2 + math.Ldexp(1, -16), cert: -1})
}
