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
//     softpen's before the comparison.
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

// tinyFit checks newton-cg on a squared-loss fit read from src: l rows.
func tinyFit(t *testing.T, src *byteSource, n, l int) {
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
	p := &softpen.Problem{N: n, Loss: "squared", PhiSparse: sparseOf(phi, n), Y: y, Ridge: ridge, L1: l1,
		Lower: make([]float64, n), Upper: make([]float64, n)}
	// The QP of the enumeration: H, q, and the bounds as rows.
	H := make([][]float64, n)
	q := make([]float64, n)
	qp := &softpen.Problem{N: n, Loss: "none", Ridge: ridge, L1: l1, Q: q}
	var c0 float64
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
	xs, lam, fstar, feasible := enumerateL1KKT(H, q, l1, qp.A, qp.B)
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
}
