package fuzz

import (
	"context"
	"math"
	"testing"

	"github.com/softpen/softpen"
)

// solveDense solves the square system M z = r by Gaussian elimination with
// partial pivoting; ok is false when M is (numerically) singular.
func solveDense(M [][]float64, r []float64) (z []float64, ok bool) {
	n := len(r)
	for c := 0; c < n; c++ {
		p := c
		for i := c + 1; i < n; i++ {
			if math.Abs(M[i][c]) > math.Abs(M[p][c]) {
				p = i
			}
		}
		if math.Abs(M[p][c]) < 1e-10 {
			return nil, false
		}
		M[c], M[p] = M[p], M[c]
		r[c], r[p] = r[p], r[c]
		for i := c + 1; i < n; i++ {
			f := M[i][c] / M[c][c]
			for j := c; j < n; j++ {
				M[i][j] -= f * M[c][j]
			}
			r[i] -= f * r[c]
		}
	}
	z = make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := r[i]
		for j := i + 1; j < n; j++ {
			s -= M[i][j] * z[j]
		}
		z[i] = s / M[i][i]
	}
	return z, true
}

// enumerate finds the solution of min 1/2 x'Hx + q'x s.t. A x <= b by trying
// every active set: the KKT point of a set that is primal and dual feasible
// is optimal (some optimal active set has independent rows, so it is found).
func enumerate(H [][]float64, q []float64, A [][]float64, b []float64) (x []float64, fstar float64, ok bool) {
	n, m := len(q), len(b)
	for mask := 0; mask < 1<<m; mask++ {
		var S []int
		for j := 0; j < m; j++ {
			if mask&(1<<j) != 0 {
				S = append(S, j)
			}
		}
		k := len(S)
		M := make([][]float64, n+k)
		r := make([]float64, n+k)
		for i := 0; i < n; i++ {
			M[i] = make([]float64, n+k)
			copy(M[i], H[i])
			for a, j := range S {
				M[i][n+a] = A[j][i]
			}
			r[i] = -q[i]
		}
		for a, j := range S {
			M[n+a] = make([]float64, n+k)
			copy(M[n+a], A[j])
			r[n+a] = b[j]
		}
		z, good := solveDense(M, r)
		if !good {
			continue
		}
		feasible := true
		for a := 0; a < k; a++ {
			if z[n+a] < -1e-9 {
				feasible = false
			}
		}
		for j := 0; j < m && feasible; j++ {
			var s float64
			for i := 0; i < n; i++ {
				s += A[j][i] * z[i]
			}
			if s-b[j] > 1e-9*(1+math.Abs(b[j])) {
				feasible = false
			}
		}
		if feasible {
			x = z[:n]
			for i := 0; i < n; i++ {
				fstar += q[i] * x[i]
				for j := 0; j < n; j++ {
					fstar += 0.5 * x[i] * H[i][j] * x[j]
				}
			}
			return x, fstar, true
		}
	}
	return nil, 0, false
}

// FuzzTinyQP builds problems with n <= 4 and m <= 6 from the fuzzer's bytes
// and checks the solver against enumeration: a feasible problem is solved to
// within the certified distance bound, the certified gap is at least the true
// suboptimality, and an infeasible one is reported infeasible.
func FuzzTinyQP(f *testing.F) {
	f.Add([]byte{3, 4, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190})
	f.Add([]byte{1, 2, 128, 0, 255, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		n := 1 + int(data[0])%4
		m := int(data[1]) % 7
		pos := 2
		next := func() float64 { // values in [-2, 2] in steps of 1/32
			v := 0.0
			if pos < len(data) {
				v = float64(int(data[pos])-128) / 32
			}
			pos++
			return v
		}
		ridge := 0.1 + math.Abs(next())
		p := &softpen.Problem{N: n, Loss: "none", Ridge: ridge, Q: make([]float64, n)}
		H := make([][]float64, n)
		for i := range H {
			H[i] = make([]float64, n)
			H[i][i] = ridge
			p.Q[i] = next()
		}
		for j := 0; j < m; j++ {
			row := make([]float64, n)
			for i := range row {
				row[i] = next()
			}
			p.A = append(p.A, row)
			p.B = append(p.B, next())
		}
		if m == 0 {
			p.B = nil
		}
		xs, fstar, feasible := enumerate(H, p.Q, p.A, p.B)
		res, err := softpen.Solve(context.Background(), p, &softpen.Options{Tol: 1e-9, MaxSteps: 2e6})
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		if !feasible {
			// Enumeration failing can also mean a degenerate feasible set
			// with singular KKT systems; only a claimed solution is checked.
			if res.Status == softpen.StatusSolved && res.MaxViolation > 1e-6 {
				t.Fatalf("solved with violation %g on a problem enumeration finds infeasible", res.MaxViolation)
			}
			return
		}
		if res.Status == softpen.StatusInfeasible {
			t.Fatalf("reported infeasible, but x* = %v is feasible", xs)
		}
		if res.Status != softpen.StatusSolved {
			return
		}
		var d float64
		for i := range xs {
			d += (res.X[i] - xs[i]) * (res.X[i] - xs[i])
		}
		d = math.Sqrt(d)
		if d > res.DistBound*(1+1e-6)+1e-9 {
			t.Fatalf("||x - x*|| = %g > certified %g (x %v, x* %v)", d, res.DistBound, res.X, xs)
		}
		if res.Objective-fstar > res.Gap+1e-9*(1+math.Abs(fstar)) && res.MaxViolation < 1e-12 {
			t.Fatalf("F(x) - F* = %g > certified gap %g", res.Objective-fstar, res.Gap)
		}
	})
}
