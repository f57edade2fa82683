package qpgen

import (
	"math"
	"math/big"
	"slices"
	"testing"
)

// exactFamilies are the families whose construction is exact (QP.Exact).
var exactFamilies = map[string]bool{
	"bounds-mixed": true, "eq-dependent": true, "ineq-duplicate": true, "degenerate-vertex": true,
	"eq-near-copy": true, "row-near-copy": true,
}

// condFamilies choose cond(H) from the seed: sweep seeds 0..10 for them.
var condFamilies = map[string]bool{"cond-dense": true, "cond-diag": true, "big-multipliers": true}

func infeasibleFamily(f string) bool { return len(f) > 7 && f[:7] == "infeas-" }

// seedsFor returns the seeds the tests sweep for a family.
func seedsFor(f string) []uint64 {
	if condFamilies[f] {
		return []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	}
	return []uint64{0, 1, 2, 3}
}

// sameBits reports whether a and b hold the same float64 values bit for
// bit (so -0 differs from 0, and a NaN equals the same NaN).
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func sameMat(a, b [][]float64) bool { return slices.EqualFunc(a, b, sameBits) }

func sameQP(p, q *QP) bool {
	return p.Name == q.Name && p.N == q.N && p.Infeasible == q.Infeasible && p.Exact == q.Exact &&
		p.MayBeUndecided == q.MayBeUndecided && p.NearGap == q.NearGap &&
		slices.Equal(p.NearA, q.NearA) && slices.Equal(p.NearEq, q.NearEq) &&
		sameMat(p.H, q.H) && sameBits(p.C, q.C) && sameMat(p.A, q.A) && sameBits(p.B, q.B) &&
		sameMat(p.Aeq, q.Aeq) && sameBits(p.Beq, q.Beq) && sameBits(p.Lower, q.Lower) &&
		sameBits(p.Upper, q.Upper) && sameBits(p.XStar, q.XStar) && sameBits(p.LambdaStar, q.LambdaStar) &&
		sameBits(p.NuStar, q.NuStar) && sameBits(p.ZStar, q.ZStar) && sameBits(p.FarkasA, q.FarkasA) &&
		sameBits(p.FarkasEq, q.FarkasEq)
}

func TestFamiliesList(t *testing.T) {
	fs := Families()
	if len(fs) != 16 {
		t.Fatalf("%d families, want 16", len(fs))
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f] {
			t.Errorf("duplicate family %s", f)
		}
		seen[f] = true
	}
	defer func() {
		if recover() == nil {
			t.Error("Generate with an unknown family did not panic")
		}
	}()
	Generate("no-such-family", 3, 1)
}

func TestDeterministic(t *testing.T) {
	for _, f := range Families() {
		for _, n := range []int{1, 5, 23} {
			p, q := Generate(f, n, 7), Generate(f, n, 7)
			if !sameQP(p, q) {
				t.Errorf("%s n=%d: two calls with seed 7 differ", f, n)
			}
			if n == 23 && sameQP(p, Generate(f, n, 8)) {
				t.Errorf("%s n=%d: seeds 7 and 8 give the same problem", f, n)
			}
		}
	}
}

// TestShapes builds every family at several sizes and seeds and checks
// dimensions, finiteness, symmetry and definiteness of H, consistent
// bounds, and that each problem carries its answer or its certificate.
func TestShapes(t *testing.T) {
	for _, f := range Families() {
		for _, n := range []int{1, 2, 3, 4, 7, 16, 50} {
			for _, s := range seedsFor(f) {
				q := Generate(f, n, s)
				checkShape(t, q)
				if exactFamilies[f] && !q.Exact {
					t.Errorf("%s: construction not exact", q.Name)
				}
			}
		}
	}
}

func checkShape(t *testing.T, q *QP) {
	t.Helper()
	n := q.N
	finite := func(what string, v []float64) {
		for i, e := range v {
			if math.IsNaN(e) || math.IsInf(e, 0) {
				t.Errorf("%s: %s[%d] = %g", q.Name, what, i, e)
			}
		}
	}
	if len(q.H) != n || len(q.C) != n {
		t.Fatalf("%s: H or c of wrong size", q.Name)
	}
	for i := range q.H {
		if len(q.H[i]) != n {
			t.Fatalf("%s: H row %d has length %d", q.Name, i, len(q.H[i]))
		}
		finite("H", q.H[i])
		for k := range q.H[i] {
			if q.H[i][k] != q.H[k][i] {
				t.Errorf("%s: H not symmetric at %d,%d", q.Name, i, k)
			}
		}
	}
	if _, ok := cholesky64(q.H); !ok {
		t.Errorf("%s: H not positive definite", q.Name)
	}
	finite("c", q.C)
	if len(q.A) != len(q.B) || len(q.Aeq) != len(q.Beq) {
		t.Fatalf("%s: A/b or Aeq/beq lengths differ", q.Name)
	}
	if len(q.A) > 10*n+4 {
		t.Errorf("%s: m = %d > 10n + 4", q.Name, len(q.A))
	}
	for j := range q.A {
		if len(q.A[j]) != n {
			t.Fatalf("%s: row %d of A has length %d", q.Name, j, len(q.A[j]))
		}
		finite("A", q.A[j])
	}
	for j := range q.Aeq {
		if len(q.Aeq[j]) != n {
			t.Fatalf("%s: row %d of Aeq has length %d", q.Name, j, len(q.Aeq[j]))
		}
		finite("Aeq", q.Aeq[j])
	}
	finite("b", q.B)
	finite("beq", q.Beq)
	if (q.Lower == nil) != (q.Upper == nil) || (q.Lower != nil && (len(q.Lower) != n || len(q.Upper) != n)) {
		t.Fatalf("%s: bounds of wrong size", q.Name)
	}
	for i := range q.Lower {
		if q.Lower[i] > q.Upper[i] || math.IsNaN(q.Lower[i]) || math.IsNaN(q.Upper[i]) ||
			q.Lower[i] == math.Inf(1) || q.Upper[i] == math.Inf(-1) {
			t.Errorf("%s: bounds [%g, %g] at %d", q.Name, q.Lower[i], q.Upper[i], i)
		}
	}
	if q.NearGap > 0 && (len(q.NearA) != len(q.A) || len(q.NearEq) != len(q.Aeq)) {
		t.Errorf("%s: near-copy marks of the wrong size", q.Name)
	}
	if q.Infeasible {
		if q.XStar != nil || len(q.FarkasA) != len(q.A) || len(q.FarkasEq) != len(q.Aeq) {
			t.Errorf("%s: infeasible problem without a certificate of the right size", q.Name)
		}
		return
	}
	if len(q.XStar) != n || len(q.LambdaStar) != len(q.A) || len(q.NuStar) != len(q.Aeq) || len(q.ZStar) != n {
		t.Errorf("%s: feasible problem without XStar and multipliers of the right size", q.Name)
	}
	finite("XStar", q.XStar)
}

// TestFamilyFeatures checks that each family contains the structure its
// comment promises (over a few seeds).
func TestFamilyFeatures(t *testing.T) {
	const n = 12
	count := map[string]int{}
	for _, f := range Families() {
		for s := uint64(0); s < 6; s++ {
			q := Generate(f, n, s)
			if q.Infeasible {
				continue
			}
			// rows active at XStar, exactly (for exact data)
			active := 0
			for j := range q.A {
				if exactSlack(q.A[j], q.B[j], q.XStar).Sign() == 0 {
					active++
				}
				zero := true
				for _, v := range q.A[j] {
					zero = zero && v == 0
				}
				if zero {
					if q.B[j] < 0 {
						t.Errorf("%s: zero row with b < 0 in a feasible family", q.Name)
					}
					count[f+"/zero-row"]++
				}
				for k := 0; k < j; k++ {
					if sameBits(q.A[j], q.A[k]) {
						count[f+"/duplicate-row"]++
					}
				}
				if q.LambdaStar[j] == 0 && exactSlack(q.A[j], q.B[j], q.XStar).Sign() == 0 {
					count[f+"/weakly-active"]++
				}
				if q.LambdaStar[j] == 1e8 {
					count[f+"/lambda-1e8"]++
				}
			}
			if active > n {
				count[f+"/more-active-than-n"]++
			}
			for i := range q.Lower {
				lo, hi := q.Lower[i], q.Upper[i]
				switch {
				case lo == hi:
					count[f+"/fixed"]++
				case math.IsInf(lo, -1) && math.IsInf(hi, 1):
					count[f+"/free"]++
				case math.IsInf(lo, -1) || math.IsInf(hi, 1):
					count[f+"/one-sided"]++
				}
			}
			if len(q.Aeq) > 0 && rankRat(q.Aeq) < len(q.Aeq) {
				count[f+"/dependent-eq"]++
			}
			if q.NearGap > 0 {
				count[f+"/near-copy-eq"] += nearCopies(q.Aeq, q.NearGap)
				count[f+"/near-copy-row"] += nearCopies(q.A, q.NearGap)
			}
		}
	}
	for _, want := range []string{
		"bounds-mixed/fixed", "bounds-mixed/free", "bounds-mixed/one-sided", "bounds-mixed/weakly-active",
		"cond-diag/one-sided", "eq-dependent/dependent-eq", "ineq-duplicate/duplicate-row",
		"ineq-duplicate/zero-row", "degenerate-vertex/more-active-than-n", "degenerate-vertex/weakly-active",
		"big-multipliers/lambda-1e8", "big-multipliers/weakly-active",
		"eq-near-copy/near-copy-eq", "eq-near-copy/fixed", "row-near-copy/near-copy-row", "row-near-copy/fixed",
		"row-near-copy/weakly-active",
	} {
		if count[want] == 0 {
			t.Errorf("no instance of %s", want)
		}
	}
	if q := Generate("many-rows", n, 1); len(q.A) != 10*n {
		t.Errorf("many-rows: m = %d, want %d", len(q.A), 10*n)
	}
}

// nearCopies counts the pairs of rows that differ in one entry by gap, or
// whose negations do (a wedge of the row-near-copy family).
func nearCopies(rows [][]float64, gap float64) int {
	count := 0
	for i := range rows {
		for j := range rows[:i] {
			for _, sign := range []float64{1, -1} {
				diff := 0
				for k := range rows[i] {
					if d := math.Abs(rows[i][k] - sign*rows[j][k]); d == gap {
						diff++
					} else if d != 0 {
						diff = 2
						break
					}
				}
				if diff == 1 {
					count++
				}
			}
		}
	}
	return count
}

// exactSlack returns b - a'x exactly.
func exactSlack(a []float64, b float64, x []float64) *big.Rat {
	s := ratOf(b)
	t := new(big.Rat)
	for k := range a {
		s.Sub(s, t.Mul(ratOf(a[k]), ratOf(x[k])))
	}
	return s
}

// rankRat is the exact rank of a matrix.
func rankRat(m [][]float64) int {
	rows := make([][]*big.Rat, len(m))
	for i := range m {
		rows[i] = ratVec(m[i])
	}
	rank := 0
	t := new(big.Rat)
	for col := 0; col < len(m[0]) && rank < len(rows); col++ {
		p := -1
		for i := rank; i < len(rows); i++ {
			if rows[i][col].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[rank], rows[p] = rows[p], rows[rank]
		for i := rank + 1; i < len(rows); i++ {
			if rows[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(rows[i][col], rows[rank][col])
			for k := col; k < len(rows[i]); k++ {
				rows[i][k].Sub(rows[i][k], t.Mul(f, rows[rank][k]))
			}
		}
		rank++
	}
	return rank
}

// TestCondition checks that the dense and diagonal families reach the
// condition number they promise: lambda_max / lambda_min of H estimated by
// power iteration on H and on H^-1 (through the Cholesky factor).
func TestCondition(t *testing.T) {
	for _, f := range []string{"cond-dense", "cond-diag"} {
		for _, s := range []uint64{0, 4, 10} {
			q := Generate(f, 20, s)
			want := math.Pow(10, float64(s))
			got := condEstimate(q.H)
			if math.Abs(math.Log10(got/want)) > 0.01 {
				t.Errorf("%s: cond(H) ~ %.3g, want %.3g", q.Name, got, want)
			}
		}
	}
}

// condEstimate estimates cond_2(H) = ||H||_2 ||H^-1||_2 by power iteration.
func condEstimate(h [][]float64) float64 {
	mul := func(v []float64) []float64 {
		w := make([]float64, len(h))
		for i := range h {
			for k := range h[i] {
				w[i] += h[i][k] * v[k]
			}
		}
		return w
	}
	return powerNorm(len(h), mul) * invNorm(h)
}

// invNorm estimates ||H^-1||_2 by power iteration with the Cholesky factor.
func invNorm(h [][]float64) float64 {
	l, _ := cholesky64(h)
	return powerNorm(len(h), func(v []float64) []float64 { return cholSolve64(l, v) })
}

// powerNorm estimates the largest eigenvalue of the symmetric positive
// definite map apply on R^n by 3000 steps of power iteration.
func powerNorm(n int, apply func([]float64) []float64) float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1 + float64(i%3)
	}
	lam := 0.0
	for it := 0; it < 3000; it++ {
		w := apply(v)
		nw := norm2(w)
		lam = nw / norm2(v)
		for i := range w {
			w[i] /= nw
		}
		v = w
	}
	return lam
}
