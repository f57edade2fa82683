package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestSupportGramGrows: K grown by rows in rounds (growGram keeping the
// last round's block, supportGram computing the rest) is, bit for bit,
// the K of the whole support computed at once, whether the storage has
// room for the new rows (moved in place) or not (a new allocation); and
// every entry is the dot product of its two rows over ridge.
func TestSupportGramGrows(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	dense := make([][]float64, 120)
	for i := range dense {
		dense[i] = make([]float64, 60)
		for j := range dense[i] {
			if rng.IntN(6) == 0 {
				dense[i][j] = rng.NormFloat64()
			}
		}
	}
	a := mat.SparseFromRows(dense, 60)
	perm := rng.Perm(len(dense))
	rows := make([]int32, len(perm))
	for p, i := range perm {
		rows[p] = int32(i)
	}
	const ridge = 0.7
	for _, steps := range [][]int{{40, 42, 45}, {40, 90, 91, 120}, {1, 2, 120}} {
		var f supportFinisher
		warm := 0
		var k *mat.Dense
		for _, ns := range steps {
			k = f.growGram(ns, warm)
			supportGram(k, a, rows[:ns], warm, ridge)
			warm = ns
		}
		ns := steps[len(steps)-1]
		want := &mat.Dense{Rows: ns, Cols: ns, Stride: ns, Data: make([]float64, ns*ns)}
		supportGram(want, a, rows[:ns], 0, ridge)
		for p := 0; p < ns; p++ {
			for r := 0; r < ns; r++ {
				got := k.Data[p*ns+r]
				if got != want.Data[p*ns+r] {
					t.Fatalf("steps %v: K[%d][%d] = %v, at once %v", steps, p, r, got, want.Data[p*ns+r])
				}
				dot := 0.0
				for j := range dense[0] {
					dot += dense[rows[p]][j] * dense[rows[r]][j]
				}
				if math.Abs(got-dot/ridge) > 1e-13*(1+math.Abs(dot)) {
					t.Fatalf("steps %v: K[%d][%d] = %v, want %v", steps, p, r, got, dot/ridge)
				}
			}
		}
	}
}

// TestSupportGramDenseColumns: with columns in most rows (above
// supportDenseMinRows rows, the dense product's share of K), every entry
// of K is the dot product of its rows over ridge to the rounding of the
// sum of its terms, computed at once or grown in rounds (which sum the
// new rows' entries by columns alone).
func TestSupportGramDenseColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	const rowsN, cols, ridge = 400, 90, 1.3
	dense := make([][]float64, rowsN)
	for i := range dense {
		dense[i] = make([]float64, cols)
		for j := range dense[i] {
			// Columns 0..9 in about 60% of the rows, the others in 5%.
			if (j < 10 && rng.IntN(5) < 3) || rng.IntN(20) == 0 {
				dense[i][j] = rng.NormFloat64()
			}
		}
	}
	a := mat.SparseFromRows(dense, cols)
	rows := make([]int32, rowsN)
	for p := range rows {
		rows[p] = int32(rowsN - 1 - p)
	}
	check := func(what string, k *mat.Dense, ns int) {
		for p := 0; p < ns; p++ {
			for r := 0; r < ns; r++ {
				dot, size := 0.0, 0.0
				for j := range dense[0] {
					v := dense[rows[p]][j] * dense[rows[r]][j]
					dot += v
					size += math.Abs(v)
				}
				got := k.Data[p*ns+r]
				if got != k.Data[r*ns+p] {
					t.Fatalf("%s: K[%d][%d] = %v, K[%d][%d] = %v", what, p, r, got, r, p, k.Data[r*ns+p])
				}
				if math.Abs(got-dot/ridge) > 4*float64(cols)*0x1p-52*size/ridge {
					t.Fatalf("%s: K[%d][%d] = %v, want %v (terms summing to %v in size)", what, p, r, got, dot/ridge, size)
				}
			}
		}
	}
	var f supportFinisher
	k := f.growGram(rowsN, 0)
	supportGram(k, a, rows, 0, ridge)
	check("at once", k, rowsN)
	var g supportFinisher
	k = g.growGram(300, 0)
	supportGram(k, a, rows[:300], 0, ridge)
	k = g.growGram(rowsN, 300)
	supportGram(k, a, rows, 300, ridge)
	check("grown", k, rowsN)
}
