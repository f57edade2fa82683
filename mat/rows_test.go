package mat

import (
	"math"
	"testing"
)

func TestRowNormsExtremeScales(t *testing.T) {
	for _, s := range []float64{1, 1e-300, 1e150, 1e300} {
		m := seq(3, 2, 4, func(i, j int) float64 { return s * float64(3+i) * float64(1+j*0) * []float64{1, 4.0 / 3}[j] })
		d := make([]float64, 3)
		m.RowNorms(d)
		for i, v := range d {
			want := s * float64(3+i) * 5 / 3
			if math.Abs(v-want) > 1e-14*want {
				t.Errorf("scale %g row %d: got %g want %g", s, i, v, want)
			}
		}
	}
}

func TestCompactScaleAddDiag(t *testing.T) {
	m := seq(5, 3, 4, entry)
	ref := seq(5, 3, 4, entry)
	keep := []int{1, 3, 4}
	v := m.Compact(keep)
	if v.Rows != 3 {
		t.Fatalf("rows %d", v.Rows)
	}
	for k, i := range keep {
		for j := 0; j < 3; j++ {
			if v.Row(k)[j] != ref.Row(i)[j] {
				t.Fatalf("row %d col %d", k, j)
			}
		}
	}
	v.ScaleRows([]float64{2, 0, -1})
	if v.Row(0)[1] != 2*ref.Row(1)[1] || v.Row(1)[2] != 0 || v.Row(2)[0] != -ref.Row(4)[0] {
		t.Fatal("ScaleRows")
	}
	sq := seq(3, 3, 5, entry)
	sq.AddDiag(10)
	if sq.Row(2)[2] != entry(2, 2)+10 || sq.Row(2)[1] != entry(2, 1) {
		t.Fatal("AddDiag")
	}
}

func TestNormUpperBoundDominatesEstimate(t *testing.T) {
	m := seq(7, 4, 6, entry)
	v, w, r := make([]float64, 4), make([]float64, 4), make([]float64, 7)
	est := m.NormEstimate(200, v, w, r)
	ub := m.NormUpperBound(v)
	if !(ub >= est*(1-1e-12)) {
		t.Fatalf("upper bound %g < estimate %g", ub, est)
	}
	if n := testing.AllocsPerRun(10, func() { m.NormUpperBound(v); m.RowNorms(r) }); n != 0 {
		t.Fatalf("allocs %v", n)
	}
}
