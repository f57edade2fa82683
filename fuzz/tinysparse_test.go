package fuzz

import (
	"context"
	"math"
	"testing"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/mat"
)

// FuzzTinySparse: the sparse-row paths against the exact answer, as
// FuzzTinyQP checks the dense ones.
//
//   - dual-cd: ridge, q and rows A x <= b with every b < 0 (an SVM's
//     shape), given as ASparse; "solved" within its certified gap and
//     distance of the enumerated x*, "infeasible" only with a Farkas
//     vector that holds exactly.
//   - newton-cg: the squared loss on rows phi_i (given as PhiSparse) with
//     ridge, l1 and bounds, a QP with H = Phi'Phi/l + ridge I and q =
//     -Phi'y/l whose exact answer the orthant enumeration finds (the
//     bounds as rows); the objective's constant ||y||^2/(2l) is taken off
//     softpen's before the comparison. svrg and catalyst-svrg on the same
//     fit, within a step budget.
//   - newton-cg with rows A x <= b (its augmented Lagrangian) beside that
//     fit, asked for by method: see tinyFitRows.
func FuzzTinySparse(f *testing.F) {
	f.Add([]byte{3, 4, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 7, 100})
	f.Add([]byte{1, 2, 128, 0, 255, 1, 2, 3, 3, 120, 136})
	f.Add([]byte{2, 3, 0, 0, 30, 0, 0, 60, 70, 0, 90, 100, 0, 120, 0, 140, 168, 5, 77, 13})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		n, m := 1+int(data[0])%4, int(data[1])%6
		src := &byteSource{data: data, pos: 2}
		tinySVM(t, src, n, m)
		tinyFit(t, src, n, 1+m)
		tinyFitRows(t, src, n, 2+m, m%4)
	})
}

// sparseOf returns rows in compressed form (their nonzero entries).
func sparseOf(rows [][]float64, n int) *mat.Sparse { return mat.SparseFromRows(rows, n) }

// tinySVM checks dual-cd on a problem read from src.
func tinySVM(t *testing.T, src *byteSource, n, m int) {
	if m == 0 {
		return
	}
	p, H := tinyQP(src, n, m)
	for j := range p.B {
		p.B[j] = -math.Abs(p.B[j]) - 1.0/64 // dual-cd's shape: every b < 0
	}
	xs, lam, fstar, feasible := enumerateL1KKT(H, p.Q, 0, p.A, p.B)
	sp := &softpen.Problem{N: n, Loss: "none", Ridge: p.Ridge, Q: p.Q, ASparse: sparseOf(p.A, n), B: p.B}
	o := softpen.Options{Method: softpen.MethodDualCD, Tol: 1e-9, MaxSteps: 2e6}
	res, err := softpen.Solve(context.Background(), sp, &o)
	if err != nil {
		t.Fatalf("dual-cd: %v", err)
	}
	if res.Method != softpen.MethodDualCD {
		t.Fatalf("dual-cd asked, %v ran", res.Method)
	}
	checkTinyQP(t, p, &o, res, xs, lam, fstar, feasible)
}

// tinyFitProblem reads a squared-loss fit from src, l rows over n
// variables with ridge, l1 and bounds, as p (PhiSparse) and as the QP the
// enumeration solves, qp (H, q, the bounds as rows); c0 = ||y||^2/(2l) is
// the objective's constant that qp leaves out.
func tinyFitProblem(src *byteSource, n, l int) (p, qp *softpen.Problem, H [][]float64, q []float64, c0 float64) {
	phi := make([][]float64, l)
	y := make([]float64, l)
	for i := range phi {
		phi[i] = make([]float64, n)
		for j := range phi[i] {
			if v := src.next(); math.Abs(v) > 0.25 { // some entries zero
				phi[i][j] = v
			}
		}
		y[i] = src.next()
	}
	ridge := 0.05 + math.Abs(src.next())/4
	l1 := math.Abs(src.next()) / 8
	p = &softpen.Problem{N: n, Loss: "squared", PhiSparse: sparseOf(phi, n), Y: y, Ridge: ridge, L1: l1,
		Lower: make([]float64, n), Upper: make([]float64, n)}
	H = make([][]float64, n)
	q = make([]float64, n)
	qp = &softpen.Problem{N: n, Loss: "none", Ridge: ridge, L1: l1, Q: q}
	for i := range phi {
		c0 += y[i] * y[i] / (2 * float64(l))
	}
	for a := 0; a < n; a++ {
		H[a] = make([]float64, n)
		for b := 0; b < n; b++ {
			for i := range phi {
				H[a][b] += phi[i][a] * phi[i][b] / float64(l)
			}
		}
		H[a][a] += ridge
		for i := range phi {
			q[a] -= phi[i][a] * y[i] / float64(l)
		}
		lo, up := src.next(), src.next()
		if lo > up {
			lo, up = up, lo
		}
		p.Lower[a], p.Upper[a] = math.Inf(-1), math.Inf(1)
		if kind := int(math.Abs(src.next()*32)) % 4; kind&1 != 0 {
			p.Lower[a] = lo
			row := make([]float64, n)
			row[a] = -1
			qp.A, qp.B = append(qp.A, row), append(qp.B, -lo)
		} else if kind&2 != 0 {
			p.Upper[a] = up
			row := make([]float64, n)
			row[a] = 1
			qp.A, qp.B = append(qp.A, row), append(qp.B, up)
		}
	}
	return p, qp, H, q, c0
}

// tinyFit checks newton-cg on a squared-loss fit read from src: l rows.
func tinyFit(t *testing.T, src *byteSource, n, l int) {
	p, qp, H, q, c0 := tinyFitProblem(src, n, l)
	xs, lam, fstar, feasible := enumerateL1KKT(H, q, qp.L1, qp.A, qp.B)
	if !feasible {
		t.Fatalf("a box is always feasible: %v %v", p.Lower, p.Upper)
	}
	o := softpen.Options{Tol: 1e-9}
	res, err := softpen.Solve(context.Background(), p, &o)
	if err != nil {
		t.Fatalf("newton-cg: %v", err)
	}
	if res.Method != softpen.MethodNewtonCG {
		t.Fatalf("sparse fit: %v ran", res.Method)
	}
	r := *res
	r.Objective -= c0
	checkTinyQP(t, qp, &o, &r, xs, lam, fstar, true)
	// The same fit by SVRG and catalyst-SVRG on the sparse rows (lazy
	// updates; newton-cg finishes where they plateau), within a budget:
	// whatever their status, the certified gap and distance hold against
	// x*.
	for _, m := range []softpen.Method{softpen.MethodSVRG, softpen.MethodCatalyst} {
		o := softpen.Options{Method: m, Tol: 1e-9, MaxSteps: 2e5}
		res, err := softpen.Solve(context.Background(), p, &o)
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if res.Method != m && res.Method != softpen.MethodNewtonCG { // newton-cg after a handover
			t.Fatalf("%v asked, %v ran", m, res.Method)
		}
		r := *res
		r.Objective -= c0
		checkTinyQP(t, qp, &o, &r, xs, lam, fstar, true)
	}
}

// tinyFitRows checks newton-cg's augmented Lagrangian: the fit of
// tinyFitProblem with m rows A x <= b besides (ASparse), which the
// enumeration takes with the bounds' rows. Infeasible: never "solved"
// (beyond rounding), and "infeasible" only with a Farkas vector that
// holds exactly. Feasible: never "infeasible"; "solved" (the path ends
// solved or at its rounding) with F(x) + lambda*'(A x - b)_+ - F*, which
// bounds mu/2 ||x - x*||^2 by strong convexity of the Lagrangian at
// lambda*, within the certified gap (the gap assumes xi >= lambda*, which
// this checks in effect; when the multipliers are not unique, the least
// lambda*'(A x - b)_+ over them) and the distance within that bound. Its points
// may violate rows slightly, so it reports no distance bound.
func tinyFitRows(t *testing.T, src *byteSource, n, l, m int) {
	if m == 0 {
		return
	}
	p, qp, H, q, c0 := tinyFitProblem(src, n, l)
	rows := make([][]float64, m)
	b := make([]float64, m)
	for i := range rows {
		rows[i] = make([]float64, n)
		for j := range rows[i] {
			if v := src.next(); math.Abs(v) > 0.3 {
				rows[i][j] = v
			}
		}
		b[i] = src.next() / 2
	}
	p.ASparse, p.B = sparseOf(rows, n), b
	all := &softpen.Problem{N: n, Loss: "none", Ridge: qp.Ridge, L1: qp.L1, Q: q,
		A: append(append([][]float64(nil), rows...), qp.A...), B: append(append([]float64(nil), b...), qp.B...)}
	xs, lam, fstar, feasible := enumerateL1KKT(H, q, qp.L1, all.A, all.B)
	for _, method := range []softpen.Method{softpen.MethodNewtonCG, softpen.MethodSVRG, softpen.MethodCatalyst} {
		// The penalty methods within a step budget: whatever their
		// status, "solved" and "infeasible" are checked as newton-cg's.
		o := softpen.Options{Tol: 1e-9, Method: method, MaxSteps: 2e5}
		if method == softpen.MethodNewtonCG {
			o.MaxSteps = 0
		}
		res, err := softpen.Solve(context.Background(), p, &o)
		if err != nil {
			t.Fatalf("%v with rows: %v", method, err)
		}
		// A penalty method may hand over to newton-cg (saturated far
		// out, or on a plateau), which then says it answered.
		if res.Method != method && res.Method != softpen.MethodNewtonCG {
			t.Fatalf("%v asked, %v ran", method, res.Method)
		}
		checkFitRows(t, method, p, all, rows, b, qp.Ridge, qp.L1, H, q, c0, res, xs, lam, fstar, feasible, o.Tol)
	}
}

// checkFitRows is tinyFitRows' check of one method's answer res.
func checkFitRows(t *testing.T, method softpen.Method, p, all *softpen.Problem, rows [][]float64, b []float64,
	ridge, l1 float64, H [][]float64, q []float64, c0 float64, res *softpen.Result,
	xs, lam []float64, fstar float64, feasible bool, tol float64) {
	n := p.N
	f := res.Objective - c0
	if !feasible {
		if res.Status == softpen.StatusSolved && !withinRounding(all, res.X) {
			t.Fatalf("%v: solved at x = %v, violation %g, on a problem enumeration finds infeasible", method, res.X, res.MaxViolation)
		}
		if res.Status == softpen.StatusInfeasible {
			checkFarkas(t, &softpen.Problem{N: n, A: rows, B: b, Lower: p.Lower, Upper: p.Upper}, res.FarkasA)
		}
		return
	}
	if res.Status == softpen.StatusInfeasible {
		t.Fatalf("%v: reported infeasible, but x* = %v is feasible", method, xs)
	}
	scale := 1 + math.Abs(fstar)
	if method == softpen.MethodNewtonCG && res.Status != softpen.StatusSolved && !(res.Status == softpen.StatusPrecisionLimit && roundingCharge(all, xs, lam) > tol*scale) {
		t.Fatalf("ended %v (%s): rows %v b %v lo %v up %v l1 %v x %v x* %v lam* %v viol %g lambda %v", res.Status, res.Message, rows, b, p.Lower, p.Upper, l1, res.X, xs, lam, res.MaxViolation, res.Lambda)
	}
	if res.Status != softpen.StatusSolved {
		return
	}
	viol := make([]float64, len(lam))
	excess := f - fstar
	for j, lj := range lam {
		viol[j] = math.Max(rowResidual(all, j, res.X), 0)
		excess += lj * viol[j]
	}
	if excess > res.Gap+1e-9*scale {
		// lam is one multiplier; the certificate may rest on a smaller
		// one when they are not unique.
		excess = f - fstar + leastPenalty(H, q, l1, all.A, all.B, viol)
	}
	if excess > res.Gap+1e-9*scale {
		t.Fatalf("%v: F(x) + lambda*'(Ax - b)_+ - F* = %g beyond the certified gap %g (x %v, x* %v, lambda* %v, lambda %v)",
			method, excess, res.Gap, res.X, xs, lam, res.Lambda)
	}
	if d2 := sqDist(res.X, xs); d2 > 2*math.Max(excess, 0)/ridge*(1+1e-6)+1e-12 {
		t.Fatalf("%v: ||x - x*|| = %g beyond strong convexity's %g (x %v, x* %v)", method, math.Sqrt(d2), math.Sqrt(2*math.Max(excess, 0)/ridge), res.X, xs)
	}
}
