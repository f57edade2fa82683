package dualcd

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestPrimalFromDualCompensated: x = -(q + A'lambda)/ridge summed with
// compensation is within (4 eps + gamma^2) (|q_k| + (|A|'lambda)_k) /
// ridge of the exact value (math/big, 300 bits) in every entry, on a
// column of 2000 positive terms and columns of both signs over six
// decades, where plain summation's bound is gamma = c eps; and on a
// column of 1 and 999 terms of 3/4 ulp of 1, where plain summation
// (primalFromDual) loses all of them, 749 eps.
func TestPrimalFromDualCompensated(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const m, n = 3000, 40
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			// Column 0 in every row, positive (a sum that only grows,
			// where plain summation's errors pile up: about sqrt(c)
			// eps times it), the others in about a fifth, of both
			// signs and over six decades.
			switch {
			case j == 0:
				a.Idx = append(a.Idx, 0)
				a.Val = append(a.Val, 1+rng.Float64())
			case rng.IntN(5) == 0:
				a.Idx = append(a.Idx, int32(j))
				a.Val = append(a.Val, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(7)-3)))
			}
		}
		a.Ptr[i+1] = len(a.Idx)
	}
	q := make([]float64, n)
	for j := range q {
		q[j] = rng.NormFloat64()
	}
	const ridge = 0.7
	w := New(Problem{A: a, B: make([]float64, m), Q: q, Ridge: ridge}, Options{})
	for i := range w.lam {
		if rng.IntN(3) > 0 {
			w.lam[i] = 1 + rng.Float64()
			if rng.IntN(2) == 0 {
				w.lam[i] = math.Abs(rng.NormFloat64()) * math.Pow(10, float64(rng.IntN(5)-2))
			}
		}
	}
	w.primalFromDualCompensated()
	checkCompensated(t, w, a, q, ridge)

	tiny := &mat.Sparse{Rows: 1000, Cols: 1, Ptr: make([]int, 1001), Idx: make([]int32, 1000), Val: make([]float64, 1000)}
	for i := range tiny.Val {
		tiny.Ptr[i+1], tiny.Val[i] = i+1, 0.75*0x1p-52
	}
	tiny.Val[0] = 1
	wt := New(Problem{A: tiny, B: make([]float64, 1000), Ridge: ridge}, Options{})
	for i := range wt.lam {
		wt.lam[i] = 1
	}
	wt.primalFromDualCompensated()
	checkCompensated(t, wt, tiny, make([]float64, 1), ridge)
}

// checkCompensated compares w.x with -(q + A'lambda)/ridge computed in
// math/big, entry by entry, against primalFromDualCompensated's bound.
func checkCompensated(t *testing.T, w *Workspace, a *mat.Sparse, q []float64, ridge float64) {
	t.Helper()
	m, n := a.Rows, a.Cols
	const prec = 300
	eps := 0x1p-52
	for k := 0; k < n; k++ {
		exact := new(big.Float).SetPrec(prec).SetFloat64(q[k])
		abs := math.Abs(q[k])
		count := 0
		for i := 0; i < m; i++ {
			idx, val := a.Row(i)
			for p, j := range idx {
				if int(j) == k && w.lam[i] != 0 {
					term := new(big.Float).SetPrec(prec).SetFloat64(w.lam[i])
					term.Mul(term, new(big.Float).SetPrec(prec).SetFloat64(val[p]))
					exact.Add(exact, term)
					abs += math.Abs(w.lam[i] * val[p])
					count++
				}
			}
		}
		exact.Quo(exact, new(big.Float).SetPrec(prec).SetFloat64(-ridge))
		want, _ := exact.Float64()
		g := float64(count+2) * eps / (1 - float64(count+2)*eps)
		bound := (4*eps + g*g) * abs / ridge
		if d := math.Abs(w.x[k] - want); d > bound {
			t.Fatalf("x[%d] = %.17g, exact %.17g: error %.3g above the bound %.3g (%d terms)", k, w.x[k], want, d, bound, count)
		}
	}
}
