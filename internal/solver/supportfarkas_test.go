package solver

import (
	"slices"
	"testing"

	"github.com/softpen/softpen/mat"
)

// TestPeelSupport: rows with a value that no other row of the support
// meets with the opposite sign in its column leave (a column of the row's
// own is the plainest case), and so do the rows that such a leaving
// strands (a chain), until every value of the rows kept is met.
func TestPeelSupport(t *testing.T) {
	a := mat.SparseFromRows([][]float64{
		{1, 1, 0, 0, 0, 0, 0, 0, 0},   // 0: meets 2 in column 0, 1 in column 1
		{0, -1, 1, 0, 0, 0, 0, 0, 0},  // 1
		{-1, 0, -1, 0, 0, 0, 0, 0, 0}, // 2
		{0, 0, 0, 1, 0, 0, 0, 0, 0},   // 3: column 3 its own
		{-1, 0, 0, 0, 1, 0, 0, 0, 0},  // 4: column 4 its own
		{0, 0, 0, 0, 0, 1, 1, 0, 0},   // 5: column 5 its own
		{0, 0, 0, 0, 0, 0, -1, 1, 0},  // 6: column 7 its own; 6 met by 5 only
		{1, 0, 0, 0, 0, 0, 0, 0, 2},   // 7: column 8 shared with 8, one sign
		{0, -1, 0, 0, 0, 0, 0, 0, 3},  // 8
	}, 9)
	pos, neg := make([]int32, a.Cols), make([]int32, a.Cols)
	got := peelSupport(a, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, pos, neg)
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("kept %v, want [0 1 2]", got)
	}
	if want := []int32{1, 1, 1, 0, 0, 0, 0, 0, 0}; !slices.Equal(pos, want) {
		t.Errorf("pos %v, want %v", pos, want)
	}
	if want := []int32{1, 1, 1, 0, 0, 0, 0, 0, 0}; !slices.Equal(neg, want) {
		t.Errorf("neg %v, want %v", neg, want)
	}
	clear(pos)
	clear(neg)
	if got := peelSupport(a, []int{5, 6}, pos, neg); len(got) != 0 {
		t.Fatalf("chain: kept %v", got)
	}
}
