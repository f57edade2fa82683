package fuzz

import (
	"context"
	"math"
	"testing"

	"github.com/softpen/softpen"
)

// FuzzTinyBoxQP is FuzzTinyQP with bounds on x (each variable: none, a
// lower, an upper or both, from the fuzzer's bytes), which sends the
// penalty method's certificate through its proximal branch. The
// reference is the enumeration over the rows and the bounds written as
// rows (x_i <= u_i, -x_i <= -l_i); a feasible problem is checked as in
// FuzzTinyQP, and a claimed infeasibility must carry a Farkas vector that
// proves it over the box.
func FuzzTinyBoxQP(f *testing.F) {
	f.Add([]byte{3, 4, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 7, 100, 150, 3, 90, 200, 1, 140})
	f.Add([]byte{1, 2, 128, 0, 255, 1, 2, 3, 3, 120, 136})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		n, m := 1+int(data[0])%4, int(data[1])%5
		src := &byteSource{data: data, pos: 2}
		p, H := tinyQP(src, n, m)
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		// The bounds, and the enumeration's rows: A's, then the bounds'.
		aug := &softpen.Problem{N: n, Loss: "none", Ridge: p.Ridge, Q: p.Q,
			A: append([][]float64(nil), p.A...), B: append([]float64(nil), p.B...)}
		for i := 0; i < n; i++ {
			kind := int(math.Abs(src.next()*32)) % 4
			lo, up := src.next(), src.next()
			if lo > up {
				lo, up = up, lo
			}
			p.Lower[i], p.Upper[i] = math.Inf(-1), math.Inf(1)
			if kind&1 != 0 {
				p.Lower[i] = lo
				row := make([]float64, n)
				row[i] = -1
				aug.A, aug.B = append(aug.A, row), append(aug.B, -lo)
			}
			if kind&2 != 0 {
				p.Upper[i] = up
				row := make([]float64, n)
				row[i] = 1
				aug.A, aug.B = append(aug.A, row), append(aug.B, up)
			}
		}
		if len(aug.A) == 0 {
			aug.B = nil
		}
		xs, lam, fstar, feasible := enumerateKKT(H, p.Q, aug.A, aug.B)
		for _, o := range tinyOptions {
			res, err := softpen.Solve(context.Background(), p, &o)
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			if !feasible {
				if res.Status == softpen.StatusSolved && res.MaxViolation > 1e-6 {
					t.Fatalf("%+v: solved with violation %g on a problem enumeration finds infeasible", o, res.MaxViolation)
				}
				if res.Status == softpen.StatusInfeasible {
					checkFarkasBox(t, p, res.FarkasA)
				}
				continue
			}
			if res.Status == softpen.StatusInfeasible {
				t.Fatalf("%+v: reported infeasible, but x* = %v is feasible", o, xs)
			}
			checkTinyQP(t, aug, &o, res, xs, lam, fstar, true)
		}
	})
}

// checkFarkasBox checks that y (on the rows of A) proves that no x in the
// box satisfies A x <= b: y >= 0 and b'y below the least value of (A'y)'x
// over the box, by a margin above the rounding of both sides.
func checkFarkasBox(t *testing.T, p *softpen.Problem, y []float64) {
	t.Helper()
	if len(y) != len(p.A) {
		t.Fatalf("farkas has %d entries for %d rows", len(y), len(p.A))
	}
	g := make([]float64, p.N)
	var by, size float64
	for j, v := range y {
		if v < 0 {
			t.Fatalf("farkas[%d] = %g < 0", j, v)
		}
		for i, a := range p.A[j] {
			g[i] += v * a
			size += math.Abs(v * a)
		}
		by += v * p.B[j]
		size += math.Abs(v * p.B[j])
	}
	least := 0.0
	for i, gi := range g {
		bound := p.Lower[i]
		if gi < 0 {
			bound = p.Upper[i]
		}
		if math.Abs(gi) <= 1e-9*size {
			continue // zero to rounding: no bound needed
		}
		if math.IsInf(bound, 0) {
			t.Fatalf("farkas %v: (A^T y)[%d] = %g against an infinite bound", y, i, gi)
		}
		least += gi * bound
	}
	if !(by < least-1e-12*size) {
		t.Fatalf("farkas %v: b'y = %g is not below min over the box of (A'y)'x = %g", y, by, least)
	}
}
