package fuzz

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/mat"
)

// FuzzActiveSet checks the active-set engine against exact enumeration on
// tiny QPs with a general H, rows (duplicates, zero rows and dependent rows
// arise from the byte values), equalities, bounds (some fixed) and an l1
// term (enumerated orthant by orthant). The
// oracle sees every constraint as rows: an equality as two opposite rows, a
// bound as a unit row. An optimal answer must be within 1e-9 of the exact
// x*, an infeasible one must carry a Farkas certificate that the exact
// oracle agrees with, and the engine must never run out of iterations.
func FuzzActiveSet(f *testing.F) {
	f.Add([]byte{3, 4, 1, 7, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190})
	f.Add([]byte{2, 3, 2, 255, 128, 0, 255, 1, 2, 3, 128, 128, 130, 126, 0, 0})
	f.Add([]byte{4, 6, 0, 0, 129, 129, 129, 129, 129, 129, 129, 129, 127, 127, 127, 127})
	f.Add([]byte{2, 1, 0, 8, 140, 100, 120, 130, 170, 60, 90, 200, 150, 160, 100})
	f.Fuzz(checkActiveSet)
}

// TestActiveSetSweep runs the fuzz target's check on a fixed sweep of
// random inputs, so every CI run covers more than the seed corpus.
func TestActiveSetSweep(t *testing.T) {
	count := 1500
	if testing.Short() {
		count = 200
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < count; k++ {
		data := make([]byte, 4+rng.IntN(60))
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		checkActiveSet(t, data)
	}
}

func checkActiveSet(t *testing.T, data []byte) {
	if len(data) < 4 {
		return
	}
	n, m, meq, flags := 1+int(data[0])%4, int(data[1])%6, int(data[2])%3, data[3]
	src := &byteSource{data: data, pos: 4}
	next := src.next
	// H = ridge I + R'R with R's entries from the input.
	ridge := 0.05 + math.Abs(next())/4
	r := make([][]float64, n)
	for i := range r {
		r[i] = make([]float64, n)
		for j := range r[i] {
			r[i][j] = next()
		}
	}
	p := &activeset.Problem{N: n, H: mat.NewDense(n, n), C: make([]float64, n)}
	H := make([][]float64, n)
	for i := range H {
		H[i] = make([]float64, n)
		for j := range H[i] {
			for k := 0; k < n; k++ {
				H[i][j] += r[k][i] * r[k][j]
			}
		}
		H[i][i] += ridge
		copy(p.H.Row(i), H[i])
		p.C[i] = 4 * next()
	}
	var rowsA [][]float64
	var rhs []float64
	addRow := func(a []float64, b float64) { rowsA = append(rowsA, a); rhs = append(rhs, b) }
	if m > 0 {
		p.A, p.B = mat.NewDense(m, n), make([]float64, m)
		for j := 0; j < m; j++ {
			for i := range n {
				p.A.Row(j)[i] = next()
			}
			p.B[j] = next()
			addRow(p.A.Row(j), p.B[j])
		}
	}
	if meq > 0 {
		p.Aeq, p.Beq = mat.NewDense(meq, n), make([]float64, meq)
		for j := 0; j < meq; j++ {
			neg := make([]float64, n)
			for i := range n {
				p.Aeq.Row(j)[i] = next()
				neg[i] = -p.Aeq.Row(j)[i]
			}
			p.Beq[j] = next()
			addRow(p.Aeq.Row(j), p.Beq[j])
			addRow(neg, -p.Beq[j])
		}
	}
	if flags&1 != 0 {
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for i := range n {
			lo, width := next(), math.Abs(next())
			if flags&2 != 0 && i == 0 {
				width = 0 // a fixed variable
			}
			p.Lower[i], p.Upper[i] = lo, lo+width
			if flags&4 != 0 && i == n-1 {
				p.Lower[i] = math.Inf(-1)
			}
			e := make([]float64, n)
			e[i] = 1
			addRow(e, p.Upper[i])
			if !math.IsInf(p.Lower[i], -1) {
				ne := make([]float64, n)
				ne[i] = -1
				addRow(ne, -p.Lower[i])
			}
		}
	}
	if flags&8 != 0 {
		p.L1 = math.Abs(next())
	}
	var xs []float64
	var feasible bool
	if p.L1 == 0 {
		if len(rowsA) > 7 {
			return // 2^rows exact KKT solves: keep each input fast
		}
		xs, _, feasible = enumerate(H, p.C, rowsA, rhs)
	} else {
		if len(rowsA)+n > 7 {
			return
		}
		xs, feasible = enumerateL1(H, p.C, p.L1, rowsA, rhs)
	}
	s, err := activeset.New(p, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	res := s.Solve(context.Background())
	switch {
	case res.Status == activeset.StatusPrecisionLimit:
		t.Fatalf("precision limit after %d working-set changes", res.Steps)
	case res.Status == activeset.StatusInfeasible:
		if feasible {
			t.Fatalf("reported infeasible, but x* = %v is feasible", xs)
		}
		checkEngineFarkas(t, p, res)
	case !feasible:
		// Enumeration finds no exactly feasible point; the engine's
		// may be feasible to within rounding only.
		if res.MaxViolation > 1e-9 {
			t.Fatalf("optimal with violation %g on an infeasible problem", res.MaxViolation)
		}
	default:
		for i := range xs {
			if math.Abs(res.X[i]-xs[i]) > 1e-9*(1+math.Abs(xs[i])) {
				t.Fatalf("x = %v, exact x* = %v (%d working-set changes)", res.X, xs, res.Steps)
			}
		}
	}
}

// enumerateL1 solves min 1/2 x'Hx + q'x + l1 ||x||_1 s.t. A x <= b exactly:
// on each closed orthant s (s_i x_i >= 0) the objective is the quadratic
// with linear term q + l1 s, and the orthants cover the space, so the best
// of the orthants' exact minima is the optimum.
func enumerateL1(H [][]float64, q []float64, l1 float64, A [][]float64, b []float64) ([]float64, bool) {
	x, _, _, ok := enumerateL1KKT(H, q, l1, A, b)
	return x, ok
}

// enumerateL1KKT is enumerateL1 that also returns the exact multipliers of
// the rows of A at the optimal orthant's answer and F* (both rounded once).
// With l1 = 0 it is enumerateKKT.
//
// Each orthant's enumeration skips the active sets whose float64 answer is
// clearly not optimal (floatRejects); if no orthant then has a KKT point,
// the problem is infeasible exactly when enumerateKKT without l1 finds no
// point (an exhaustive exact search), and otherwise the orthants are
// searched again exactly.
func enumerateL1KKT(H [][]float64, q []float64, l1 float64, A [][]float64, b []float64) (x, lam []float64, fstar float64, ok bool) {
	if l1 == 0 {
		return enumerateKKT(H, q, A, b)
	}
	if x, lam, fstar, ok = enumerateOrthants(H, q, l1, A, b, true); ok {
		return x, lam, fstar, ok
	}
	// Whether any x satisfies the rows does not depend on l1: the search
	// without l1 (one orthant, exact when its filter finds nothing)
	// settles it; only a feasible problem needs the exact orthants.
	if _, _, _, feasible := enumerateKKT(H, q, A, b); !feasible {
		return nil, nil, 0, false
	}
	return enumerateOrthants(H, q, l1, A, b, false)
}

// orthantQP is the QP of the closed orthant whose signs s_i are -1 where
// mask has bit i: linear term q + l1 s, and the rows A x <= b with the
// sign rows -s_i x_i <= 0 after them.
func orthantQP(q []float64, l1 float64, A [][]float64, b []float64, mask int) (qs []float64, rows [][]float64, rhs []float64) {
	n := len(q)
	rows, rhs = append([][]float64(nil), A...), append([]float64(nil), b...)
	qs = make([]float64, n)
	for i := range n {
		s := 1.0
		if mask&(1<<i) != 0 {
			s = -1
		}
		qs[i] = q[i] + l1*s
		e := make([]float64, n)
		e[i] = -s
		rows, rhs = append(rows, e), append(rhs, 0)
	}
	return qs, rows, rhs
}

// enumerateOrthants is enumerateL1KKT's search, with or without the float64
// filter.
func enumerateOrthants(H [][]float64, q []float64, l1 float64, A [][]float64, b []float64, filter bool) (x, lam []float64, fstar float64, ok bool) {
	n := len(q)
	fstar = math.Inf(1)
	for mask := 0; mask < 1<<n; mask++ {
		qs, rows, rhs := orthantQP(q, l1, A, b, mask)
		xo, lo, f, good := enumerateKKTFiltered(H, qs, rows, rhs, filter)
		if good && f < fstar {
			x, lam, fstar = xo, lo[:len(A)], f
		}
	}
	return x, lam, fstar, x != nil
}

// leastPenalty is the least of sum_j lambda_j w_j (w >= 0) over the
// multipliers lambda of the rows of A at the optimum of min 1/2 x'Hx + q'x
// + l1 ||x||_1 s.t. A x <= b (a feasible problem), exact up to its final
// rounding. When the multipliers are not unique (a row active where l1's
// subdifferential could also carry the gradient), a certificate may rest
// on any of them, and the claims a test checks against one multiplier
// hold only for the least.
//
// A linear function with w >= 0 takes its least value over the
// multiplier set (a polyhedron in lambda >= 0) at a vertex. On the closed
// orthant of the signs s of such a vertex's l1 subgradient v (s_j = 1
// where v_j = 0), it is the row part of a vertex of that orthant's
// multipliers, whose sign row j carries l1 (1 - s_j v_j) <= l1 — a basic
// KKT point of the orthant's QP, which kktPoints visits. Conversely an
// orthant's KKT point at the optimum is a multiplier of the problem when
// its sign rows carry at most 2 l1 (v_j in [-1, 1]).
func leastPenalty(H [][]float64, q []float64, l1 float64, A [][]float64, b []float64, w []float64) float64 {
	n, m := len(q), len(A)
	var best, fmin *big.Rat
	for mask := 0; mask < 1<<n; mask++ {
		qs, rows, rhs := orthantQP(q, l1, A, b, mask)
		kktPoints(H, qs, rows, rhs, false, func(z []*big.Rat, S []int, f *big.Rat) bool {
			var sum, t big.Rat
			for a, j := range S {
				if j >= m {
					if z[n+a].Cmp(rat(2*l1)) > 0 {
						return true // v_j outside [-1, 1]
					}
					continue
				}
				sum.Add(&sum, t.Mul(z[n+a], rat(w[j])))
			}
			if fmin != nil {
				switch f.Cmp(fmin) {
				case 1:
					return true // not the optimum
				case -1:
					best, fmin = nil, nil // a better point: forget the others
				}
			}
			if fmin == nil {
				fmin = new(big.Rat).Set(f)
			}
			if best == nil || sum.Cmp(best) < 0 {
				best = new(big.Rat).Set(&sum)
			}
			return true
		})
	}
	if best == nil {
		return math.NaN()
	}
	v, _ := best.Float64()
	return v
}

// checkEngineFarkas requires the engine's FarkasA and FarkasEq to prove p
// infeasible, checked exactly by qpgen.CheckFarkas: FarkasA >= 0 and
// b'y + beq'yeq below the minimum over the box of (A'y + Aeq'yeq)'x,
// whose components on unbounded variables must vanish to
// qpgen.FarkasRelTol.
func checkEngineFarkas(t *testing.T, p *activeset.Problem, r *activeset.Result) {
	t.Helper()
	q := &qpgen.QP{N: p.N, A: testqp.RowsOf(p.A), B: p.B, Aeq: testqp.RowsOf(p.Aeq), Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
	if ok, why := qpgen.CheckFarkas(q, r.FarkasA, r.FarkasEq); !ok {
		t.Fatalf("Farkas (y %v, yeq %v): %s", r.FarkasA, r.FarkasEq, why)
	}
}
