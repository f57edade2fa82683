package solver

import (
	"slices"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestPeelSupport: rows with a column of their own leave, and so do the
// rows that such a leaving gives a column of their own (a chain), until
// every column of the rows kept is shared.
func TestPeelSupport(t *testing.T) {
	a := mat.SparseFromRows([][]float64{
		{1, 1, 0, 0, 0, 0, 0, 0}, // 0: shares 0 with 2 and 4, 1 with 1
		{0, 1, 1, 0, 0, 0, 0, 0}, // 1
		{1, 0, 1, 0, 0, 0, 0, 0}, // 2
		{0, 0, 0, 1, 0, 0, 0, 0}, // 3: column 3 its own
		{1, 0, 0, 0, 1, 0, 0, 0}, // 4: column 4 its own
		{0, 0, 0, 0, 0, 1, 1, 0}, // 5: column 5 its own
		{0, 0, 0, 0, 0, 0, 1, 1}, // 6: column 7 its own; 6 shared with 5 only
	}, 8)
	count := make([]int32, a.Cols)
	got := peelSupport(a, []int{0, 1, 2, 3, 4, 5, 6}, count)
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("kept %v, want [0 1 2]", got)
	}
	if want := []int32{2, 2, 2, 0, 0, 0, 0, 0}; !slices.Equal(count, want) {
		t.Fatalf("count %v, want %v", count, want)
	}
	clear(count)
	if got := peelSupport(a, []int{5, 6}, count); len(got) != 0 {
		t.Fatalf("chain: kept %v", got)
	}
}
