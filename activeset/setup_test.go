package activeset

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestNewBytesPerRow: New allocates what its per-row vectors need and no
// more. On many rows its allocation is mostly zeroed memory a solve pays
// for row by row (the large QP at m = 250000: 35 MB, 10% of a cold
// solve), so a vector sized for rows it no longer has is a cost that no
// other test sees (7 floats a row were allocated for 4 once). Counted
// per row: b and its scaled copy, Lambda and FarkasA (32 bytes), the
// stored bounds (16), the inverse norms (8), the pool's scores (8), the
// sparse lists' offsets and flags (5), rowIn (1): 70 bytes; and when A
// comes as a matrix, not as rows (ARows), the rows' slice headers (24).
func TestNewBytesPerRow(t *testing.T) {
	const m, n = 1 << 15, 16
	rng := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(m, n)
	b := make([]float64, m)
	for j := range m {
		for k := range n {
			a.Row(j)[k] = rng.NormFloat64()
		}
		b[j] = 1
	}
	h := mat.NewDense(n, n)
	for i := range n {
		h.Row(i)[i] = 1
	}
	rows := make([][]float64, m)
	for j := range rows {
		rows[j] = a.Row(j)
	}
	for _, c := range []struct {
		name string
		p    *Problem
		want float64 // bytes a row, with 6 for the rest (the pool and sparse lists: O(sqrt(m)) and 4096 entries)
	}{
		{"ARows", &Problem{N: n, H: h, C: make([]float64, n), ARows: rows, B: b}, 76},
		{"A", &Problem{N: n, H: h, C: make([]float64, n), A: a, B: b}, 100},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := New(c.p, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		perRow := float64(after.TotalAlloc-before.TotalAlloc) / m
		t.Logf("%s: New allocates %.1f bytes a row", c.name, perRow)
		if perRow > c.want {
			t.Errorf("%s: New allocates %.1f bytes a row, want at most %v", c.name, perRow, c.want)
		}
	}
}
