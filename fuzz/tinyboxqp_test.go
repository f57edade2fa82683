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
// FuzzTinyQP (with its l1 weight), and a claimed infeasibility must carry a Farkas vector that
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
		p.L1 = math.Abs(src.next()) / 4 // 0 when the input has ended
		aug.L1 = p.L1
		xs, lam, fstar, feasible := enumerateL1KKT(H, p.Q, p.L1, aug.A, aug.B)
		// A feasible answer is checked on the rows (bounds included), a
		// certificate of infeasibility over the box.
		check := aug
		if !feasible {
			check = p
		}
		for _, o := range tinyOptions {
			res, err := softpen.Solve(context.Background(), p, &o)
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			checkTinyQP(t, check, &o, res, xs, lam, fstar, feasible)
		}
	})
}
