package fuzz

import (
	"context"
	"math"
	"math/big"
	"math/bits"
	"testing"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/internal/qpgen"
)

// solveExact solves the square system M z = r exactly; ok is false when M
// is singular. Each row is scaled to integers (by the least common
// multiple of its denominators), eliminated fraction-free
// (Bareiss: every division exact, no GCDs), and z found by back
// substitution over the rationals.
func solveExact(M [][]*big.Rat, r []*big.Rat) (z []*big.Rat, ok bool) {
	n := len(r)
	a := make([][]*big.Int, n)
	for i := range a {
		den, g := new(big.Int).Set(r[i].Denom()), new(big.Int)
		for _, v := range M[i] { // den = lcm of the row's denominators
			g.GCD(nil, nil, den, v.Denom())
			den.Mul(den, g.Quo(v.Denom(), g))
		}
		a[i] = make([]*big.Int, n+1)
		for j := 0; j <= n; j++ {
			v := r[i]
			if j < n {
				v = M[i][j]
			}
			e := new(big.Int).Mul(v.Num(), den)
			a[i][j] = e.Quo(e, v.Denom())
		}
	}
	prev := big.NewInt(1)
	var t big.Int
	for k := 0; k < n; k++ {
		p := k
		for p < n && a[p][k].Sign() == 0 {
			p++
		}
		if p == n {
			return nil, false
		}
		a[k], a[p] = a[p], a[k]
		for i := k + 1; i < n; i++ {
			for j := k + 1; j <= n; j++ {
				a[i][j].Mul(a[i][j], a[k][k])
				a[i][j].Sub(a[i][j], t.Mul(a[i][k], a[k][j]))
				a[i][j].Quo(a[i][j], prev)
			}
			a[i][k].SetInt64(0)
		}
		prev = a[k][k]
	}
	z = make([]*big.Rat, n)
	var s, u big.Rat
	for i := n - 1; i >= 0; i-- {
		s.SetInt(a[i][n])
		for j := i + 1; j < n; j++ {
			s.Sub(&s, u.Mul(new(big.Rat).SetInt(a[i][j]), z[j]))
		}
		z[i] = new(big.Rat).Quo(&s, new(big.Rat).SetInt(a[i][i]))
	}
	return z, true
}

// rat is the exact value of a float64 (every input of the fuzz problems is
// finite).
func rat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// enumerate finds the solution of min 1/2 x'Hx + q'x s.t. A x <= b by trying
// every active set: the KKT point of a set that is primal and dual feasible
// is optimal, and some optimal active set has independent rows, so it is
// found. The arithmetic is exact: with nearly dependent rows the multipliers
// reach 1e5 and more, and a floating-point KKT solve that is off by 1e-9 in
// the constraints is off by 1e-4 in the objective, more than the certified
// gaps under test. x and fstar are the exact solution rounded once.
func enumerate(H [][]float64, q []float64, A [][]float64, b []float64) (x []float64, fstar float64, ok bool) {
	x, _, fstar, ok = enumerateKKT(H, q, A, b)
	return x, fstar, ok
}

// enumerateKKT is enumerate that also returns the exact multipliers of the
// rows (rounded once), zero off the optimal active set.
//
// Each active set's KKT system is first solved in float64 and skipped when
// that answer is far from feasible or from nonnegative multipliers
// (floatRejects); the exact one decides for the others. If the filtered
// search finds nothing, the search is repeated without the filter, so
// that only an exhaustive exact search ever answers "infeasible".
func enumerateKKT(H [][]float64, q []float64, A [][]float64, b []float64) (x, lam []float64, fstar float64, ok bool) {
	if x, lam, fstar, ok = enumerateKKTFiltered(H, q, A, b, true); ok {
		return x, lam, fstar, ok
	}
	return enumerateKKTFiltered(H, q, A, b, false)
}

func enumerateKKTFiltered(H [][]float64, q []float64, A [][]float64, b []float64, filter bool) (x, lam []float64, fstar float64, ok bool) {
	kktPoints(H, q, A, b, filter, func(z []*big.Rat, S []int, f *big.Rat) bool {
		n := len(q)
		x = make([]float64, n)
		for i := range x {
			x[i], _ = z[i].Float64()
		}
		fstar, _ = f.Float64()
		lam = make([]float64, len(b))
		for a, j := range S {
			lam[j], _ = z[n+a].Float64()
		}
		ok = true
		return false
	})
	return x, lam, fstar, ok
}

// kktPoints calls visit with every KKT point of min 1/2 x'Hx + q'x s.t.
// A x <= b whose active set S has independent rows (with filter: those
// floatRejects keeps), in the order of S's bit mask, until visit returns
// false: z = (x, the multipliers of S's rows) and f the objective at x,
// all exact. H is positive definite, so every such point has the one
// optimal x; what differs between them is the multipliers, and each
// vertex of the multiplier set is among them.
func kktPoints(H [][]float64, q []float64, A [][]float64, b []float64, filter bool, visit func(z []*big.Rat, S []int, f *big.Rat) bool) {
	n, m := len(q), len(b)
	for mask := 0; mask < 1<<m; mask++ {
		if bits.OnesCount(uint(mask)) > n {
			// H is positive definite, so some multipliers of x* are
			// carried by linearly independent rows (Caratheodory): at
			// most n of them, whose system is nonsingular.
			continue
		}
		var S []int
		for j := 0; j < m; j++ {
			if mask&(1<<j) != 0 {
				S = append(S, j)
			}
		}
		k := len(S)
		if filter && floatRejects(H, q, A, b, S) {
			continue
		}
		M := make([][]*big.Rat, n+k)
		r := make([]*big.Rat, n+k)
		for i := range M {
			M[i] = make([]*big.Rat, n+k)
			for j := range M[i] {
				M[i][j] = new(big.Rat)
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				M[i][j] = rat(H[i][j])
			}
			for a, j := range S {
				M[i][n+a] = rat(A[j][i])
			}
			r[i] = rat(-q[i])
		}
		for a, j := range S {
			for i := 0; i < n; i++ {
				M[n+a][i] = rat(A[j][i])
			}
			r[n+a] = rat(b[j])
		}
		z, good := solveExact(M, r)
		if !good {
			continue
		}
		feasible := true
		for a := 0; a < k; a++ {
			if z[n+a].Sign() < 0 {
				feasible = false
			}
		}
		var s, t big.Rat
		for j := 0; j < m && feasible; j++ {
			s.SetInt64(0)
			for i := 0; i < n; i++ {
				s.Add(&s, t.Mul(rat(A[j][i]), z[i]))
			}
			if s.Cmp(rat(b[j])) > 0 {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		var f, hx big.Rat
		for i := 0; i < n; i++ {
			hx.SetInt64(0)
			for j := 0; j < n; j++ {
				hx.Add(&hx, t.Mul(rat(H[i][j]), z[j]))
			}
			// f += x_i (1/2 (Hx)_i + q_i)
			t.Mul(&hx, big.NewRat(1, 2))
			t.Add(&t, rat(q[i]))
			f.Add(&f, t.Mul(&t, z[i]))
		}
		if !visit(z, S, &f) {
			return
		}
	}
}

// FuzzTinyQP builds problems with n <= 4 and m <= 6 from the fuzzer's bytes
// (and an l1 weight from the byte after them: 0 when the input has ended)
// and checks the solver against exact enumeration (checkTinyQP), cold,
// warm after SetB with right-hand sides moved by the bytes after that, and
// after a Load of a second problem of the shape from the bytes after those.
func FuzzTinyQP(f *testing.F) {
	f.Add([]byte{3, 4, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190})
	f.Add([]byte{1, 2, 128, 0, 255, 1, 2, 3})
	f.Add([]byte{2, 3, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 168})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		src := &byteSource{data: data, pos: 2}
		p, H := tinyQP(src, 1+int(data[0])%4, int(data[1])%7)
		p.L1 = math.Abs(src.next()) / 4
		xs, lam, fstar, feasible := enumerateL1KKT(H, p.Q, p.L1, p.A, p.B)
		for _, o := range tinyOptions {
			res, err := softpen.Solve(context.Background(), p, &o)
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			checkTinyQP(t, p, &o, res, xs, lam, fstar, feasible)
		}
		// A warm re-solve after SetB answers the new problem.
		q := *p
		q.B = make([]float64, len(p.B))
		for j, v := range p.B {
			q.B[j] = v + src.next()/4
		}
		xs, lam, fstar, feasible = enumerateL1KKT(H, q.Q, q.L1, q.A, q.B)
		for _, o := range tinyOptions[:2] {
			s, err := softpen.NewSolver(p, &o)
			if err != nil {
				t.Fatalf("NewSolver: %v", err)
			}
			if _, err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := s.SetB(q.B); err != nil {
				t.Fatal(err)
			}
			res, err := s.Solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			checkTinyQP(t, &q, &o, res, xs, lam, fstar, feasible)
		}
		// A Load of a second problem of the shape, from the bytes after
		// that, into the exact path's Solver of the first: checked against
		// enumeration, and the answer of a new Solver bit for bit.
		p2, H2 := tinyQP(src, p.N, len(p.A))
		p2.L1 = p.L1
		xs, lam, fstar, feasible = enumerateL1KKT(H2, p2.Q, p2.L1, p2.A, p2.B)
		o := tinyOptions[1]
		s, err := softpen.NewSolver(p, &o)
		if err != nil {
			t.Fatalf("NewSolver: %v", err)
		}
		if _, err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.Load(p2); err != nil {
			t.Fatalf("Load: %v", err)
		}
		res, err := s.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		checkTinyQP(t, p2, &o, res, xs, lam, fstar, feasible)
		fresh, err := softpen.NewSolver(p2, &o)
		if err != nil {
			t.Fatalf("NewSolver: %v", err)
		}
		want, err := fresh.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != want.Status || math.Float64bits(res.Gap) != math.Float64bits(want.Gap) || !sameBits(res.X, want.X) {
			t.Fatalf("after Load: %v gap %v x %v, a new Solver's %v gap %v x %v", res.Status, res.Gap, res.X, want.Status, want.Gap, want.X)
		}
	})
}

// sameBits reports whether a and b hold the same float64s bit for bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// tinyOptions are the solves the tiny-QP targets check: the penalty method
// with polish, the exact path, and the penalty method held at xi = 1
// without polish (which stops on its budget far from x* whenever
// ||lambda*||_inf > 1). Every certificate must hold on every status.
var tinyOptions = []softpen.Options{
	{Method: softpen.MethodAPG, Tol: 1e-9, MaxSteps: 2e6},
	{Tol: 1e-9},
	{Method: softpen.MethodAPG, Tol: 1e-9, MaxSteps: 2e4,
		Penalty: &softpen.PenaltyOptions{Xi: 1, FixedXi: true, NoPolish: true}},
}

// tinyQP reads from src a problem of n variables and m rows: the ridge
// (at least 0.1), q, then each row of A and its b. H is its Hessian,
// ridge I, for the enumeration.
func tinyQP(src *byteSource, n, m int) (p *softpen.Problem, H [][]float64) {
	ridge := 0.1 + math.Abs(src.next())
	p = &softpen.Problem{N: n, Loss: "none", Ridge: ridge, Q: make([]float64, n)}
	H = make([][]float64, n)
	for i := range H {
		H[i] = make([]float64, n)
		H[i][i] = ridge
		p.Q[i] = src.next()
	}
	for j := 0; j < m; j++ {
		row := make([]float64, n)
		for i := range row {
			row[i] = src.next()
		}
		p.A = append(p.A, row)
		p.B = append(p.B, src.next())
	}
	return p, H
}

// checkTinyQP checks one answer against the exact x*, its multipliers and
// F* (feasible), or against the knowledge that no x is feasible:
//
//   - "infeasible" only on an infeasible problem, with a Farkas certificate
//     that qpgen.CheckFarkas accepts in exact arithmetic;
//   - on an infeasible problem "solved" only at a point that satisfies the
//     rows to within rounding of their own terms (an infeasibility within
//     rounding): never one that violates a row beyond it;
//   - "solved" carries a finite distance bound, x lies within it of x*, and
//     |F(x) - F*| is within the certified gap (F(x) may lie below F* only
//     by what x's own rounding-level violations allow);
//   - every other status: x within its distance bound (when finite), and
//     the gap bounds F(x) - F* when x is feasible to rounding;
//   - the exact path (no step budget) ends solved, or precision_limit when
//     not even x* certifies Tol in float64 (roundingCharge).
func checkTinyQP(t *testing.T, p *softpen.Problem, o *softpen.Options, res *softpen.Result, xs, lam []float64, fstar float64, feasible bool) {
	t.Helper()
	if !feasible {
		if res.Status == softpen.StatusSolved && !withinRounding(p, res.X) {
			t.Fatalf("%+v: solved at x = %v, violation %g, on a problem enumeration finds infeasible", *o, res.X, res.MaxViolation)
		}
		if res.Status == softpen.StatusInfeasible {
			checkFarkas(t, p, res.FarkasA)
		}
		return
	}
	if res.Status == softpen.StatusInfeasible {
		t.Fatalf("%+v: reported infeasible, but x* = %v is feasible", *o, xs)
	}
	scale := 1 + math.Abs(fstar)
	if o.MaxSteps == 0 && res.Status != softpen.StatusSolved &&
		!(res.Status == softpen.StatusPrecisionLimit && roundingCharge(p, xs, lam) > o.Tol*scale) {
		t.Fatalf("%+v: exact path ended %v (%s)", *o, res.Status, res.Message)
	}
	d := math.Sqrt(sqDist(res.X, xs))
	if res.Status == softpen.StatusSolved && math.IsInf(res.DistBound, 1) {
		t.Fatalf("%+v: solved without a distance bound (x %v, violation %g)", *o, res.X, res.MaxViolation)
	}
	if d > res.DistBound*(1+1e-6)+1e-9 {
		t.Fatalf("%+v: status %v: ||x - x*|| = %g > certified %g (x %v, x* %v)", *o, res.Status, d, res.DistBound, res.X, xs)
	}
	gapOK := res.Status == softpen.StatusSolved || withinRounding(p, res.X)
	if gapOK && res.Objective-fstar > res.Gap+1e-9*scale {
		t.Fatalf("%+v: status %v: F(x) - F* = %g > certified gap %g", *o, res.Status, res.Objective-fstar, res.Gap)
	}
	if res.Status == softpen.StatusSolved {
		// F(x) >= F* - lambda*'(A x - b)_+ for any x (weak duality at
		// lambda*); x violates rows by rounding at most.
		allow := 1e-9 * scale
		for j, l := range lam {
			allow += l * math.Max(rowResidual(p, j, res.X), 0)
		}
		if fstar-res.Objective > allow {
			t.Fatalf("%+v: solved with F(x) = %.17g below F* = %.17g by more than its violations allow", *o, res.Objective, fstar)
		}
	}
}

// sqDist is ||x - y||^2.
func sqDist(x, y []float64) float64 {
	var d float64
	for i := range x {
		d += (x[i] - y[i]) * (x[i] - y[i])
	}
	return d
}

// rowResidual is a_j'x - b_j.
func rowResidual(p *softpen.Problem, j int, x []float64) float64 {
	r := -p.B[j]
	for i, a := range p.A[j] {
		r += a * x[i]
	}
	return r
}

// withinRounding reports whether x satisfies every row of p and its box to
// within 64 eps of the row's terms (sum_i |a_ji x_i| + |b_j|): what the
// rounding of x and of the row's evaluation explain, and no more.
func withinRounding(p *softpen.Problem, x []float64) bool {
	for j := range p.A {
		size := math.Abs(p.B[j])
		for i, a := range p.A[j] {
			size += math.Abs(a * x[i])
		}
		if rowResidual(p, j, x) > 64*0x1p-52*size {
			return false
		}
	}
	for i, v := range x {
		if p.Lower != nil && v < p.Lower[i] || p.Upper != nil && v > p.Upper[i] {
			return false
		}
	}
	return true
}

// roundingCharge is what the certificate charges at x* rounded to
// float64: the exact penalty's, for rows off by about one rounding of
// their terms, sum_j lambda*_j eps (|a_j|'|x*| + |b_j|) (lambda* the exact
// multipliers), and the dual's, for the rounding of its sum c + A'lambda*:
// sqrt(k+1) eps (|x*|'|c| + the same sum) over the k active rows (the
// engine's certificate charges less: it sums both again in twice the
// precision where they weigh). Above Tol |F*| not even x* certifies Tol in float64
// (a vertex at ||x*|| = 5e6 with multipliers of 1.5e13: 2.7 Tol |F*|),
// and the exact path may end precision_limit; below it, it must solve.
func roundingCharge(p *softpen.Problem, xs, lam []float64) float64 {
	c, k := 0.0, 0
	for j, l := range lam {
		size := math.Abs(p.B[j])
		for i, a := range p.A[j] {
			size += math.Abs(a * xs[i])
		}
		c += l * size * 0x1p-52
		if l != 0 {
			k++
		}
	}
	xc := 0.0
	for i, v := range xs {
		xc += math.Abs(v * p.Q[i])
	}
	return c + math.Sqrt(float64(k+1))*(c+xc*0x1p-52)
}

// checkFarkas requires y (on the rows of A) to prove that no x in p's box
// (if any) has A x <= b, checked exactly by qpgen.CheckFarkas: y >= 0 and
// b'y below the minimum over the box of (A'y)'x, whose components on
// unbounded variables must vanish to qpgen.FarkasRelTol.
func checkFarkas(t *testing.T, p *softpen.Problem, y []float64) {
	t.Helper()
	q := &qpgen.QP{N: p.N, A: p.A, B: p.B, Lower: p.Lower, Upper: p.Upper}
	if ok, why := qpgen.CheckFarkas(q, y, nil); !ok {
		t.Fatalf("farkas %v: %s", y, why)
	}
}

// floatRejects solves the KKT system of the active set S in float64
// (Gaussian elimination with partial pivoting) and reports whether its
// answer is clearly not the optimum: a multiplier below -1e-3 or a row
// violated by more than 1e-3, both relative to the sizes involved (far
// above the float64 error of these systems of at most 8 unknowns unless
// their condition passes 1e12). A singular system is never rejected (the
// exact solve decides).
func floatRejects(H [][]float64, q []float64, A [][]float64, b []float64, S []int) bool {
	n, k := len(q), len(S)
	d := n + k
	M := make([][]float64, d)
	for i := range M {
		M[i] = make([]float64, d+1)
	}
	for i := 0; i < n; i++ {
		copy(M[i], H[i])
		for a, j := range S {
			M[i][n+a] = A[j][i]
		}
		M[i][d] = -q[i]
	}
	for a, j := range S {
		copy(M[n+a], A[j])
		M[n+a][d] = b[j]
	}
	for c := 0; c < d; c++ {
		p := c
		for r := c + 1; r < d; r++ {
			if math.Abs(M[r][c]) > math.Abs(M[p][c]) {
				p = r
			}
		}
		if M[p][c] == 0 {
			return false
		}
		M[c], M[p] = M[p], M[c]
		for r := c + 1; r < d; r++ {
			f := M[r][c] / M[c][c]
			for j := c; j <= d; j++ {
				M[r][j] -= f * M[c][j]
			}
		}
	}
	z := make([]float64, d)
	for c := d - 1; c >= 0; c-- {
		v := M[c][d]
		for j := c + 1; j < d; j++ {
			v -= M[c][j] * z[j]
		}
		z[c] = v / M[c][c]
	}
	size := 1.0
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
		size = math.Max(size, math.Abs(v))
	}
	for a := range S {
		if z[n+a] < -1e-3*size {
			return true
		}
	}
	for j := range A {
		ax, mag := 0.0, math.Abs(b[j])
		for i := 0; i < n; i++ {
			ax += A[j][i] * z[i]
			mag += math.Abs(A[j][i] * z[i])
		}
		if ax-b[j] > 1e-3*math.Max(1, mag) {
			return true
		}
	}
	return false
}

// TestSolveExact: on systems of float64 entries (random, with tiny and huge
// magnitudes and a singular one) M z = r holds exactly for the z of
// solveExact, and a singular M is reported.
func TestSolveExact(t *testing.T) {
	g := uint64(7)
	next := func() float64 {
		g = g*6364136223846793005 + 1442695040888963407
		return math.Ldexp(float64(int64(g>>20)%2001-1000), int(g>>8)%60-30)
	}
	for trial := 0; trial < 200; trial++ {
		n := 1 + trial%8
		M, r := make([][]*big.Rat, n), make([]*big.Rat, n)
		Mc := make([][]*big.Rat, n)
		for i := range M {
			M[i], Mc[i] = make([]*big.Rat, n), make([]*big.Rat, n)
			for j := range M[i] {
				v := next()
				M[i][j], Mc[i][j] = rat(v), rat(v)
			}
			r[i] = rat(next())
		}
		rc := append([]*big.Rat(nil), r...)
		z, ok := solveExact(M, r)
		if !ok {
			continue
		}
		for i := range Mc {
			s := new(big.Rat)
			for j := range Mc[i] {
				s.Add(s, new(big.Rat).Mul(Mc[i][j], z[j]))
			}
			if s.Cmp(rc[i]) != 0 {
				t.Fatalf("trial %d: row %d: M z = %v, r = %v", trial, i, s, rc[i])
			}
		}
	}
	sing := [][]*big.Rat{{rat(1), rat(2)}, {rat(0.5), rat(1)}}
	if _, ok := solveExact(sing, []*big.Rat{rat(1), rat(3)}); ok {
		t.Error("singular system solved")
	}
}
