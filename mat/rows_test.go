package mat

import (
	"math"
	"testing"
)

// TestNormExtremeScales: Norm neither overflows nor underflows for rows
// whose sum of squares leaves the float64 range, and allocates nothing.
func TestNormExtremeScales(t *testing.T) {
	for _, s := range []float64{1, 1e-300, 1e150, 1e300} {
		for i := 0; i < 3; i++ {
			r := []float64{s * float64(3+i), s * float64(3+i) * 4 / 3}
			want := s * float64(3+i) * 5 / 3
			if v := Norm(r); math.Abs(v-want) > 1e-14*want {
				t.Errorf("scale %g row %d: got %g want %g", s, i, v, want)
			}
		}
	}
	if Norm(nil) != 0 || !math.IsInf(Norm([]float64{1, math.Inf(-1)}), 1) || !math.IsNaN(Norm([]float64{math.NaN(), 1e300})) {
		t.Error("special values")
	}
	r := []float64{1e300, 1e300}
	if n := testing.AllocsPerRun(10, func() { Norm(r) }); n != 0 {
		t.Fatalf("allocs %v", n)
	}
}

func TestAddDiag(t *testing.T) {
	sq := seq(3, 3, 5, entry)
	sq.AddDiag(10)
	if sq.Row(2)[2] != entry(2, 2)+10 || sq.Row(2)[1] != entry(2, 1) {
		t.Fatal("AddDiag")
	}
}
