package solver

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestSupportDropSettled: dropSettled keeps the rows whose interior pair
// has x_i >= z_i, in order, with their x and z; the dropped ones leave
// f.in with lam 0; the compacted K is, bit for bit, K of the kept rows
// computed at once, and K grown from it by new rows (the next round) is
// K of the kept and new rows at once.
func TestSupportDropSettled(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	m, n := 150, 70
	dense := make([][]float64, m)
	for i := range dense {
		dense[i] = make([]float64, n)
		for j := range dense[i] {
			if rng.IntN(5) == 0 {
				dense[i][j] = rng.NormFloat64()
			}
		}
	}
	a := mat.SparseFromRows(dense, n)
	perm := rng.Perm(m)
	const ridge = 0.3
	for _, ns := range []int{1, 2, 57, 100} {
		rows := make([]int32, ns)
		var f supportFinisher
		f.in = make([]bool, m)
		lam := make([]float64, m)
		for p := range rows {
			rows[p] = int32(perm[p])
			f.in[rows[p]], lam[rows[p]] = true, 1+rng.Float64()
		}
		k := f.growGram(ns, 0)
		supportGram(k, a, rows, 0, ridge)
		f.ls, f.z = make([]float64, ns), make([]float64, ns)
		var want []int32
		var wantX, wantZ []float64
		for p := range rows {
			f.ls[p], f.z[p] = rng.Float64(), rng.Float64()
			if f.ls[p] >= f.z[p] {
				want = append(want, rows[p])
				wantX, wantZ = append(wantX, f.ls[p]), append(wantZ, f.z[p])
			}
		}
		all := append([]int32(nil), rows...)
		got, q := f.dropSettled(rows, lam)
		if q != len(want) || len(got) != q || !slices.Equal(got, want) {
			t.Fatalf("ns %d: kept %v, want %v", ns, got, want)
		}
		if !slices.Equal(f.ls[:q], wantX) || !slices.Equal(f.z[:q], wantZ) {
			t.Fatalf("ns %d: x, z not compacted with the rows", ns)
		}
		for _, i := range all {
			kept := slices.Contains(want, i)
			if f.in[i] != kept || (lam[i] == 0) == kept {
				t.Fatalf("ns %d: row %d kept %v, in %v, lam %v", ns, i, kept, f.in[i], lam[i])
			}
		}
		// The next round: the rows kept and ten new ones.
		next := append(slices.Clone(got), make([]int32, 10)...)
		for p := q; p < len(next); p++ {
			next[p] = int32(perm[ns+p-q])
		}
		for round, size := range []int{q, len(next)} {
			var kk *mat.Dense
			if round == 0 {
				kk = &mat.Dense{Rows: q, Cols: q, Stride: q, Data: f.gram[:q*q]}
			} else {
				kk = f.growGram(size, q)
				supportGram(kk, a, next, q, ridge)
			}
			at := &mat.Dense{Rows: size, Cols: size, Stride: size, Data: make([]float64, size*size)}
			supportGram(at, a, next[:size], 0, ridge)
			if !slices.Equal(kk.Data[:size*size], at.Data) {
				t.Fatalf("ns %d, round %d: K differs from K of its rows at once", ns, round)
			}
		}
	}
}
