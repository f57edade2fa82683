package activeset

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/vec"
)

// TestGramSolveBlocks: the Gram factor's solve, whose forward substitution
// takes four rows in one vec.Dot4 where their first nonzeros are close
// (forward4), solves G x = b as the substitution one row at a time does,
// to rounding: on a dense factor (unit normals in general position, as a
// dense H makes of bounds), on one whose rows start far apart (normals
// with disjoint supports but for a few), after a member's removal, and for
// every leading block kk.
func TestGramSolveBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	const n, k = 60, 41
	for _, sparse := range []bool{false, true} {
		normals := make([][]float64, k)
		for i := range normals {
			v := make([]float64, n)
			switch {
			case !sparse:
				for c := range v {
					v[c] = rng.NormFloat64()
				}
			case i%5 == 4:
				for c := 0; c < i; c++ {
					v[c] = rng.NormFloat64() // overlaps the members before it
				}
			default:
				v[i] = 1 // disjoint from every other but the overlapping ones
			}
			nrm := math.Sqrt(dotGo(v, v))
			for c := range v {
				v[c] /= nrm
			}
			normals[i] = v
		}
		fl := slab[float64](make([]float64, gramLDLFloats(k)))
		in := slab[int32](make([]int32, gramLDLInts(k)))
		f := newGramLDL(k, &fl, &in)
		g := make([]float64, k)
		for i := range normals {
			for j := 0; j < i; j++ {
				g[j] = dotGo(normals[j], normals[i])
			}
			f.add(g, 1)
		}
		blocks := 0
		x := make([]float64, k)
		for i := 0; i+4 <= k; i += 4 {
			if f.forward4(x, i) {
				blocks++
			}
		}
		if sparse != (blocks == 0) {
			t.Errorf("sparse %v: %d blocks of four rows in one product", sparse, blocks)
		}
		check := func(name string, members [][]float64) {
			t.Helper()
			for kk := 1; kk <= len(members); kk++ {
				b := make([]float64, kk)
				for i := range b {
					b[i] = rng.NormFloat64()
				}
				got, want := append([]float64(nil), b...), append([]float64(nil), b...)
				f.solve(got, kk)
				rowByRow(f, want, kk)
				for i := range got {
					if d := math.Abs(got[i] - want[i]); d > 1e-11*(1+math.Abs(want[i])) {
						t.Fatalf("sparse %v, %s, kk %d: x[%d] = %v, row by row %v", sparse, name, kk, i, got[i], want[i])
					}
				}
				// G x = b to rounding.
				for i := range b {
					r := -b[i]
					for j := range got {
						r += dotGo(members[i], members[j]) * got[j]
					}
					if math.Abs(r) > 1e-10*(1+vec.MaxAbs(got)) {
						t.Fatalf("sparse %v, %s, kk %d: residual %v in row %d", sparse, name, kk, r, i)
					}
				}
			}
		}
		check("built", normals)
		f.remove(3)
		check("after a removal", append(append([][]float64(nil), normals[:3]...), normals[4:]...))
	}
}

// rowByRow is gramLDL.solve with its forward substitution one row at a
// time.
func rowByRow(f gramLDL, x []float64, kk int) {
	for i := 0; i < kk; i++ {
		if lo, li := f.span(i); len(li) > 0 {
			x[i] -= dot(li, x[lo:i])
		}
	}
	for i := 0; i < kk; i++ {
		x[i] /= f.d[i]
	}
	for i := kk - 1; i > 0; i-- {
		if lo, li := f.span(i); len(li) > 0 {
			axpy(-x[i], li, x[lo:i])
		}
	}
}

func dotGo(x, y []float64) float64 {
	d := 0.0
	for i, v := range x {
		d += v * y[i]
	}
	return d
}
