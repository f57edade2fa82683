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
