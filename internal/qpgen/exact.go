package qpgen

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// ExactMaxN and ExactMaxCons limit Exact: n <= ExactMaxN and
// m + meq + (number of finite bounds) <= ExactMaxCons.
const (
	ExactMaxN    = 6
	ExactMaxCons = 12
)

// ExactResult is the exact solution of a tiny QP.
type ExactResult struct {
	// Infeasible is true when no x satisfies the constraints (exactly, for
	// the stored float64 data read as rationals).
	Infeasible bool
	// XRat is the exact optimum, X its entries rounded to nearest float64.
	XRat []*big.Rat
	X    []float64
	// F is the exact optimal value 1/2 x'Hx + c'x.
	F *big.Rat
	// Lambda, Nu, Z are one optimal multiplier vector (rounded to float64),
	// supported on linearly independent active constraints; Z follows
	// KKT's sign convention (z_i > 0: upper bound, z_i < 0: lower bound).
	Lambda, Nu, Z []float64
}

// excon is one constraint g'x <= d (or = d) of the enumeration: a row of A
// (kind 'A'), of Aeq ('E'), an upper bound ('U', g = e_i) or a lower bound
// ('L', g = -e_i, d = -lower_i).
type excon struct {
	g    []*big.Rat
	d    *big.Rat
	kind byte
	idx  int
}

func ratOf(v float64) *big.Rat {
	r := new(big.Rat)
	r.SetFloat64(v) // exact for finite v
	return r
}

// Exact solves a tiny QP exactly (in big.Rat, from the float64 data read
// exactly) by enumerating active sets, and returns its unique optimum or
// reports it infeasible. It returns an error when the problem is larger
// than ExactMaxN / ExactMaxCons, has non-finite data other than infinite
// bounds, or H is singular.
//
// Method. Let E be a maximal linearly independent subset of the equality
// rows. For every subset S of the inequality constraints (rows and finite
// bounds) with |S| <= n - |E| and E ∪ S linearly independent, solve the
// KKT system
//
//	H x + c + G_S' mu_S + G_E' mu_E = 0,   G_S x = d_S,   G_E x = d_E
//
// (nonsingular since H is positive definite and [G_S; G_E] has full row
// rank) and accept it if mu_S >= 0 and x satisfies every constraint,
// including the dependent equalities, exactly. An accepted x is a KKT point
// of a convex problem, hence optimal; strong convexity makes it unique.
//
// Completeness. If the problem is feasible it has a unique optimum x*, and
// since the constraints are linear the KKT conditions hold there without a
// constraint qualification: -(H x* + c) = sum_{j active} mu_j g_j +
// Aeq'nu with mu >= 0. Aeq'nu = G_E'nu' for some nu' because the rows of E
// span the rows of Aeq. Among all such (mu, nu') take one whose support
// T = {j : mu_j > 0} is smallest. If {g_j : j in T} ∪ E were linearly
// dependent, some sum_{j in T} alpha_j g_j + G_E'beta = 0 with alpha != 0
// (E alone is independent); flipping its sign so that some alpha_j > 0 and
// moving mu to mu - t alpha with the largest t keeping mu >= 0 zeroes a
// component of mu on T while keeping the equation (nu' absorbs beta):
// a smaller support, a contradiction (Carathéodory's argument). So T ∪ E is
// independent, |T| <= n - |E|, and the KKT system of S = T has the unique
// solution (x*, mu_T, nu'), which the enumeration accepts. Therefore: no
// accepted subset <=> infeasible. Singular KKT systems (dependent S, e.g.
// duplicate or zero rows) are skipped, which this argument allows.
//
// Implementation. With K = H^-1 computed exactly, x = -K(c + G'mu), the
// KKT system reduces to (G K G') mu = -(d + G K c); the matrix
// M = G K G' and w = G K c are formed once for all constraints and each
// subset solves a |E ∪ S| square system.
func Exact(q *QP) (*ExactResult, error) {
	if err := finiteData(q); err != nil {
		return nil, err // before H and c are read as rationals
	}
	h := make([][]*big.Rat, q.N)
	for i := range h {
		h[i] = ratVec(q.H[i])
	}
	return ExactRat(q, h, ratVec(q.C))
}

// ExactRat is Exact for the objective 1/2 x'hx + c'x given in rationals
// (h symmetric positive definite, n x n; c of length n) and the
// constraints of q (q.H and q.C are not read): the exact reference for an
// objective that float64 cannot hold, such as phi'phi/l formed from
// float64 rows.
func ExactRat(q *QP, h [][]*big.Rat, c []*big.Rat) (*ExactResult, error) {
	n := q.N
	if n > ExactMaxN {
		return nil, fmt.Errorf("qpgen: Exact: n = %d > %d", n, ExactMaxN)
	}
	if err := finiteData(q); err != nil { // H and c, if set, were checked too
		return nil, err
	}
	cons, nIneq, err := exactConstraints(q)
	if err != nil {
		return nil, err
	}
	sys, err := newExactSystem(h, c, cons, nIneq)
	if err != nil {
		return nil, err
	}
	eset := sys.independentEqualities()
	maxS := n - len(eset)
	for size := 0; size <= maxS && size <= nIneq; size++ {
		for mask := uint64(0); mask < 1<<nIneq; mask++ {
			if bits.OnesCount64(mask) != size {
				continue
			}
			set := append([]int(nil), eset...)
			for j := 0; j < nIneq; j++ {
				if mask&(1<<j) != 0 {
					set = append(set, j)
				}
			}
			if mu, ok := sys.candidate(set); ok {
				return exactAnswer(q, h, c, cons, set, mu, sys.kc, sys.kg), nil
			}
		}
	}
	return &ExactResult{Infeasible: true}, nil
}

// exactConstraints converts the rows of A, the finite bounds and the rows
// of Aeq to rationals, in that order, and returns them with the number of
// inequalities (which come first). It returns an error when there are more
// than ExactMaxCons.
func exactConstraints(q *QP) ([]excon, int, error) {
	n := q.N
	var cons []excon
	for j, row := range q.A {
		cons = append(cons, excon{g: ratVec(row), d: ratOf(q.B[j]), kind: 'A', idx: j})
	}
	for i := 0; i < n; i++ {
		if u := upperOf(q, i); !math.IsInf(u, 0) {
			g := zeroVec(n)
			g[i].SetInt64(1)
			cons = append(cons, excon{g: g, d: ratOf(u), kind: 'U', idx: i})
		}
		if l := lowerOf(q, i); !math.IsInf(l, 0) {
			g := zeroVec(n)
			g[i].SetInt64(-1)
			cons = append(cons, excon{g: g, d: new(big.Rat).Neg(ratOf(l)), kind: 'L', idx: i})
		}
	}
	nIneq := len(cons)
	for j, row := range q.Aeq {
		cons = append(cons, excon{g: ratVec(row), d: ratOf(q.Beq[j]), kind: 'E', idx: j})
	}
	if len(cons) > ExactMaxCons {
		return nil, 0, fmt.Errorf("qpgen: Exact: %d constraints > %d", len(cons), ExactMaxCons)
	}
	return cons, nIneq, nil
}

// exactSystem holds the data shared by every candidate active set:
// K = H^-1, kc = K c, kg[i] = K g_i, M = G K G' and w = G K c, all exact.
type exactSystem struct {
	cons  []excon
	nIneq int
	kc    []*big.Rat
	kg    [][]*big.Rat
	mm    [][]*big.Rat
	w     []*big.Rat
}

// newExactSystem inverts H exactly and forms M and w for all constraints.
func newExactSystem(hm [][]*big.Rat, c []*big.Rat, cons []excon, nIneq int) (*exactSystem, error) {
	kinv, ok := invRat(hm)
	if !ok {
		return nil, errors.New("qpgen: Exact: H is singular")
	}
	kc := matVecRat(kinv, c)
	kg := make([][]*big.Rat, len(cons))
	for i := range cons {
		kg[i] = matVecRat(kinv, cons[i].g)
	}
	nc := len(cons)
	mm := make([][]*big.Rat, nc)
	w := make([]*big.Rat, nc)
	for i := range cons {
		mm[i] = make([]*big.Rat, nc)
		for j := range cons {
			mm[i][j] = dotRat(cons[i].g, kg[j])
		}
		w[i] = dotRat(cons[i].g, kc)
	}
	return &exactSystem{cons: cons, nIneq: nIneq, kc: kc, kg: kg, mm: mm, w: w}, nil
}

// independentEqualities returns a maximal independent subset E of the
// equalities (greedy: keep a row if M restricted to the kept rows stays
// nonsingular).
func (sys *exactSystem) independentEqualities() []int {
	var eset []int
	for i := sys.nIneq; i < len(sys.cons); i++ {
		try := append(append([]int(nil), eset...), i)
		if _, ok := solveSub(sys.mm, try, make([]*big.Rat, len(try))); ok {
			eset = try
		}
	}
	return eset
}

// candidate solves the KKT system of the active set (equalities then
// inequalities) and reports its multipliers mu and whether it is accepted:
// the system is nonsingular, mu >= 0 on the inequalities and x satisfies
// every constraint exactly.
func (sys *exactSystem) candidate(set []int) ([]*big.Rat, bool) {
	cons, nIneq, mm, w := sys.cons, sys.nIneq, sys.mm, sys.w
	rhs := make([]*big.Rat, len(set))
	for a, i := range set {
		rhs[a] = new(big.Rat).Add(cons[i].d, w[i])
		rhs[a].Neg(rhs[a])
	}
	mu, ok := solveSub(mm, set, rhs)
	if !ok {
		return nil, false
	}
	for a, i := range set {
		if i < nIneq && mu[a].Sign() < 0 {
			return nil, false
		}
	}
	// g_i'x = -w_i - sum_a mu_a M[i][set[a]]
	for i := 0; i < len(cons); i++ {
		gx := new(big.Rat).Neg(w[i])
		t := new(big.Rat)
		for a, k := range set {
			gx.Sub(gx, t.Mul(mu[a], mm[i][k]))
		}
		cmp := gx.Cmp(cons[i].d)
		if (i < nIneq && cmp > 0) || (i >= nIneq && cmp != 0) {
			return nil, false
		}
	}
	return mu, true
}

// exactAnswer builds the result of an accepted active set.
func exactAnswer(q *QP, h [][]*big.Rat, c []*big.Rat, cons []excon, set []int, mu []*big.Rat, kc []*big.Rat, kg [][]*big.Rat) *ExactResult {
	n := q.N
	res := &ExactResult{
		XRat:   make([]*big.Rat, n),
		X:      make([]float64, n),
		Lambda: make([]float64, len(q.A)),
		Nu:     make([]float64, len(q.Aeq)),
		Z:      make([]float64, n),
	}
	t := new(big.Rat)
	for i := 0; i < n; i++ {
		x := new(big.Rat).Neg(kc[i])
		for a, k := range set {
			x.Sub(x, t.Mul(mu[a], kg[k][i]))
		}
		res.XRat[i] = x
		res.X[i], _ = x.Float64()
	}
	for a, k := range set {
		m, _ := mu[a].Float64()
		switch cons[k].kind {
		case 'A':
			res.Lambda[cons[k].idx] = m
		case 'E':
			res.Nu[cons[k].idx] = m
		case 'U':
			res.Z[cons[k].idx] += m
		case 'L':
			res.Z[cons[k].idx] -= m
		}
	}
	// F = 1/2 x'Hx + c'x
	f := new(big.Rat)
	for i := 0; i < n; i++ {
		s := new(big.Rat)
		for k := 0; k < n; k++ {
			s.Add(s, t.Mul(h[i][k], res.XRat[k]))
		}
		s.Mul(s, big.NewRat(1, 2))
		s.Add(s, c[i])
		f.Add(f, s.Mul(s, res.XRat[i]))
	}
	res.F = f
	return res
}

// ObjectiveRat returns F(x) = 1/2 x'Hx + c'x exactly.
func ObjectiveRat(q *QP, x []float64) *big.Rat {
	f, t := new(big.Rat), new(big.Rat)
	for i := 0; i < q.N; i++ {
		s := new(big.Rat)
		for k := 0; k < q.N; k++ {
			s.Add(s, t.Mul(ratOf(q.H[i][k]), ratOf(x[k])))
		}
		s.Mul(s, big.NewRat(1, 2))
		s.Add(s, ratOf(q.C[i]))
		f.Add(f, s.Mul(s, ratOf(x[i])))
	}
	return f
}

func finiteData(q *QP) error {
	check := func(name string, v []float64) error {
		for _, e := range v {
			if math.IsNaN(e) || math.IsInf(e, 0) {
				return fmt.Errorf("qpgen: Exact: non-finite entry in %s", name)
			}
		}
		return nil
	}
	for _, row := range q.H {
		if err := check("H", row); err != nil {
			return err
		}
	}
	for _, row := range q.A {
		if err := check("A", row); err != nil {
			return err
		}
	}
	for _, row := range q.Aeq {
		if err := check("Aeq", row); err != nil {
			return err
		}
	}
	for _, v := range [][]float64{q.C, q.B, q.Beq} {
		if err := check("c, b or beq", v); err != nil {
			return err
		}
	}
	for i := 0; i < q.N; i++ {
		if math.IsNaN(lowerOf(q, i)) || math.IsNaN(upperOf(q, i)) || lowerOf(q, i) == math.Inf(1) || upperOf(q, i) == math.Inf(-1) {
			return errors.New("qpgen: Exact: bad bound")
		}
	}
	return nil
}

func ratVec(v []float64) []*big.Rat {
	r := make([]*big.Rat, len(v))
	for i, e := range v {
		r[i] = ratOf(e)
	}
	return r
}

func zeroVec(n int) []*big.Rat {
	r := make([]*big.Rat, n)
	for i := range r {
		r[i] = new(big.Rat)
	}
	return r
}

func dotRat(a, b []*big.Rat) *big.Rat {
	s, t := new(big.Rat), new(big.Rat)
	for i := range a {
		if a[i].Sign() == 0 || b[i].Sign() == 0 {
			continue
		}
		s.Add(s, t.Mul(a[i], b[i]))
	}
	return s
}

func matVecRat(m [][]*big.Rat, v []*big.Rat) []*big.Rat {
	r := make([]*big.Rat, len(m))
	for i := range m {
		r[i] = dotRat(m[i], v)
	}
	return r
}

// invRat inverts a square matrix exactly by Gauss-Jordan elimination; ok is
// false when it is singular.
func invRat(m [][]*big.Rat) ([][]*big.Rat, bool) {
	n := len(m)
	a := make([][]*big.Rat, n)
	for i := range a {
		a[i] = make([]*big.Rat, 2*n)
		for j := 0; j < n; j++ {
			a[i][j] = new(big.Rat).Set(m[i][j])
			a[i][n+j] = new(big.Rat)
		}
		a[i][n+i].SetInt64(1)
	}
	if !gaussJordan(a, n) {
		return nil, false
	}
	inv := make([][]*big.Rat, n)
	for i := range inv {
		inv[i] = a[i][n:]
	}
	return inv, true
}

// gaussJordan reduces the first n columns of the augmented matrix a to the
// identity in place; false if they are singular.
func gaussJordan(a [][]*big.Rat, n int) bool {
	t := new(big.Rat)
	w := len(a[0])
	for col := 0; col < n; col++ {
		p := -1
		for i := col; i < n; i++ {
			if a[i][col].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			return false
		}
		a[col], a[p] = a[p], a[col]
		inv := new(big.Rat).Inv(a[col][col])
		for j := col; j < w; j++ {
			a[col][j].Mul(a[col][j], inv)
		}
		for i := 0; i < n; i++ {
			if i == col || a[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[i][col])
			for j := col; j < w; j++ {
				a[i][j].Sub(a[i][j], t.Mul(f, a[col][j]))
			}
		}
	}
	return true
}

// solveSub solves M[set][set] mu = rhs exactly (nil rhs entries are read
// as 0); ok is false when the submatrix is singular.
func solveSub(mm [][]*big.Rat, set []int, rhs []*big.Rat) ([]*big.Rat, bool) {
	k := len(set)
	if k == 0 {
		return nil, true
	}
	a := make([][]*big.Rat, k)
	for r, i := range set {
		a[r] = make([]*big.Rat, k+1)
		for c, j := range set {
			a[r][c] = new(big.Rat).Set(mm[i][j])
		}
		a[r][k] = new(big.Rat)
		if rhs[r] != nil {
			a[r][k].Set(rhs[r])
		}
	}
	if !gaussJordan(a, k) {
		return nil, false
	}
	mu := make([]*big.Rat, k)
	for r := range mu {
		mu[r] = a[r][k]
	}
	return mu, true
}
