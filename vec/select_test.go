package vec

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectLargest: for every k the k-th largest of random data with ties,
// against a sort, and the k largest first.
func TestSelectLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 3, 7, 64, 257} {
		for _, k := range []int{1, 2, n / 2, n - 1, n} {
			if k < 1 || k > n {
				continue
			}
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(rng.IntN(10))
			}
			want := slices.Clone(v)
			slices.Sort(want)
			slices.Reverse(want)
			got := SelectLargest(v, k)
			if got != want[k-1] {
				t.Fatalf("n %d k %d: %v, want %v", n, k, got, want[k-1])
			}
			for i := 0; i < k; i++ {
				if v[i] < got {
					t.Fatalf("n %d k %d: v[%d] = %v below the k-th largest %v", n, k, i, v[i], got)
				}
			}
		}
	}
}
