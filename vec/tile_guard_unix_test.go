//go:build linux

package vec

import (
	"fmt"
	"testing"
)

// TestTileMulAddQuadGuardPage puts the 8 x 24 block of c with its last
// row flush against a PROT_NONE page (and its first row at the start of
// the page) for several ldc and depths: TileMulAddQuad must give the bits
// of four TileMulAdd calls of the same path and leave every element of the
// page outside the block as it was.
func TestTileMulAddQuadGuardPage(t *testing.T) {
	r := newGPRegion(t)
	for _, p := range tileQuadPaths() {
		for _, ldc := range []int{24, 25, 31, 40} {
			for _, kc := range []int{0, 1, 2, 5} {
				a0, a1 := make([]float64, kc*TileA), make([]float64, kc*TileA)
				b0, b1 := make([]float64, kc*TileB), make([]float64, kc*TileB)
				for i := range a0 {
					a0[i], a1[i] = gpVal(1, i), gpVal(2, i)
				}
				for i := range b0 {
					b0[i], b1[i] = gpVal(3, i), gpVal(4, i)
				}
				n := 7*ldc + 24
				for _, atEnd := range []bool{true, false} {
					c := r.slice(n, atEnd, func(i int) float64 { return gpVal(5, i) })
					want := append([]float64(nil), c...)
					p.single(want, ldc, a0, b0)
					p.single(want[TileA:], ldc, a1, b0)
					p.single(want[TileB*ldc:], ldc, a0, b1)
					p.single(want[TileB*ldc+TileA:], ldc, a1, b1)
					// The gaps between the block's rows must stay as they are.
					for j := 0; j < 7; j++ {
						for i := 24; i < ldc; i++ {
							c[j*ldc+i] = gpSentinel
							want[j*ldc+i] = gpSentinel
						}
					}
					p.quad(c, ldc, a0, a1, b0, b1)
					name := fmt.Sprintf("%s ldc=%d kc=%d atEnd=%v", p.name, ldc, kc, atEnd)
					if d := gpBitsEqual(c, want); d >= 0 {
						t.Fatalf("%s: c[%d] = %v, want %v", name, d, c[d], want[d])
					}
					r.check(t, c, name)
				}
			}
		}
	}
}
