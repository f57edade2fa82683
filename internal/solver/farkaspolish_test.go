package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/internal/dualcd"
	"github.com/softpen/softpen/mat"
)

// conflictRows returns s sparse rows over k columns in which row s-1 is
// -(sum_{i<s-1} w_i row_i) / w_{s-1}, every value a small integer or a sum
// of them (exact in float64), and b with b'w = -1: w > 0 is a certificate
// of infeasibility, the only one up to scale when the other rows are
// independent. Two extra rows that are not in the conflict make m = s + 2.
func conflictRows(rng *rand.Rand, s, k int) (*mat.Sparse, []float64, []float64) {
	dense := make([][]float64, s+2)
	w := make([]float64, s+2)
	last := make([]float64, k)
	for i := range dense {
		dense[i] = make([]float64, k)
		if i == s-1 {
			continue
		}
		for range 4 {
			dense[i][rng.IntN(k)] = float64(rng.IntN(9) - 4)
		}
		if i < s-1 {
			w[i] = float64(1 + rng.IntN(3))
			for j, v := range dense[i] {
				last[j] -= w[i] * v
			}
		}
	}
	w[s-1] = 1
	dense[s-1] = last
	b := make([]float64, s+2)
	for i := range b {
		b[i] = float64(rng.IntN(5))
	}
	var bw float64
	for i := 0; i < s-1; i++ {
		bw += b[i] * w[i]
	}
	b[s-1] = -bw - 1 // b'w = -1
	a := &mat.Sparse{Rows: s + 2, Cols: k, Ptr: []int{0}}
	for _, row := range dense {
		for j, v := range row {
			if v != 0 {
				a.Idx, a.Val = append(a.Idx, int32(j)), append(a.Val, v)
			}
		}
		a.Ptr = append(a.Ptr, len(a.Idx))
	}
	return a, b, w
}

// TestPolishFarkas: from weights within 1e-6 of a certificate, as
// reduceSupport's box QP gives them, polishFarkas finds one that
// dualcd.FarkasHolds accepts (those weights themselves it rejects), on the
// conflict's rows and proportional to the certificate; on rows that hold
// none it finds nothing and leaves y zero.
func TestPolishFarkas(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		s, k := 3+rng.IntN(40), 60+rng.IntN(200)
		a, b, w := conflictRows(rng, s, k)
		rows := make([]int, s)
		col := make([]int32, k)
		for i := range rows {
			rows[i] = i
		}
		for j := range col {
			col[j] = int32(j)
		}
		ys := make([]float64, s)
		for i := range ys {
			ys[i] = w[i] * (1 + 1e-6*rng.NormFloat64())
		}
		y := make([]float64, a.Rows)
		copy(y, ys)
		aty, size := make([]float64, k), make([]float64, k)
		if dualcd.FarkasHolds(a, b, y, aty, size) {
			t.Fatalf("trial %d: the perturbed weights pass as a certificate", trial)
		}
		clear(y)
		if !polishFarkas(a, b, rows, col, k, ys, y, nil) {
			t.Fatalf("trial %d (%d rows, %d columns): no certificate from weights near one", trial, s, k)
		}
		if !dualcd.FarkasHolds(a, b, y, aty, size) {
			t.Fatalf("trial %d: polishFarkas reports a certificate FarkasHolds rejects", trial)
		}
		for i := range y {
			if d := math.Abs(y[i] - w[i]/w[s-1]*y[s-1]); d > 1e-9*y[s-1] || (i >= s && y[i] != 0) {
				t.Fatalf("trial %d: y[%d] = %g, want %g (proportional to the certificate)", trial, i, y[i], w[i]/w[s-1]*y[s-1])
			}
		}

		// Without the dependent row the conflict is gone.
		rows = rows[:s-1]
		clear(y)
		if polishFarkas(a, b, rows, col, k, ys[:s-1], y, nil) {
			t.Fatalf("trial %d: a certificate on rows that hold none", trial)
		}
		for i, v := range y {
			if v != 0 {
				t.Fatalf("trial %d: y[%d] = %g left after a failed polish", trial, i, v)
			}
		}
	}
}

// TestPolishFarkasExtraRows: the rows reduceSupport names may be a few
// more than the conflict's. Here two rows out of it, each with a column of
// its own, come with weights of the certificate's size; the projection
// leaves them rounding-level weights whose own columns FarkasHolds rightly
// refuses, and polishFarkas must find the certificate on the conflict's
// rows alone, with exact zeros on the others.
func TestPolishFarkasExtraRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		s, k := 3+rng.IntN(40), 60+rng.IntN(200)
		a, b, w := conflictRows(rng, s, k)
		// Rows s and s+1 get columns k and k+1 of their own.
		own := &mat.Sparse{Rows: a.Rows, Cols: k + 2, Ptr: []int{0}}
		for i := range a.Rows {
			idx, val := a.Row(i)
			own.Idx, own.Val = append(own.Idx, idx...), append(own.Val, val...)
			if i >= s {
				own.Idx, own.Val = append(own.Idx, int32(k+i-s)), append(own.Val, float64(1+rng.IntN(4)))
			}
			own.Ptr = append(own.Ptr, len(own.Idx))
		}
		rows := make([]int, s+2)
		col := make([]int32, k+2)
		for i := range rows {
			rows[i] = i
		}
		for j := range col {
			col[j] = int32(j)
		}
		ys := make([]float64, s+2)
		for i := range ys {
			ys[i] = w[i] * (1 + 1e-6*rng.NormFloat64())
		}
		ys[s], ys[s+1] = 0.5+rng.Float64(), 0.5+rng.Float64()
		y := make([]float64, own.Rows)
		if !polishFarkas(own, b, rows, col, k+2, ys, y, nil) {
			t.Fatalf("trial %d (%d rows, %d columns): no certificate from weights near one", trial, s, k)
		}
		aty, size := make([]float64, k+2), make([]float64, k+2)
		if !dualcd.FarkasHolds(own, b, y, aty, size) {
			t.Fatalf("trial %d: polishFarkas reports a certificate FarkasHolds rejects", trial)
		}
		if y[s] != 0 || y[s+1] != 0 {
			t.Fatalf("trial %d: rows out of the conflict weigh %g and %g", trial, y[s], y[s+1])
		}
	}
}
