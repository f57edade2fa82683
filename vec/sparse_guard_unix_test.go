//go:build linux

package vec

import (
	"fmt"
	"math"
	"testing"
	"unsafe"
)

// TestSparseGuardPagesAllSlices puts idx, val and the dense vector each
// flush against a PROT_NONE page (after it or before it), for every row
// length 0..40 on every path, so that any read or write one element past
// any of the three slices faults: the masked and reloaded tails, the short
// rows and the empty row. Indices include 0 and len(x)-1 and repeats. The
// results must equal the generic path's (the data are small integers, so
// every sum is exact), nothing of the pages outside y may change, and an
// index len(x) or -1 in the last entry must panic like the Go loop, with
// the same updates of y made before it.
func TestSparseGuardPagesAllSlices(t *testing.T) {
	ri, rv, rx := newGPRegion(t), newGPRegion(t), newGPRegion(t)
	for _, p := range Paths() {
		for _, m := range []int{1, 3, 37} {
			for nnz := 0; nnz <= 40; nnz++ {
				for place := 0; place < 8; place++ {
					idxEnd, valEnd, xEnd := place&1 != 0, place&2 != 0, place&4 != 0
					off := 0
					if idxEnd {
						off = 8*len(ri.page) - 4*nnz
					}
					idx := unsafe.Slice((*int32)(unsafe.Add(ri.base, off)), nnz)
					for k := range idx {
						idx[k] = int32((k * 7) % m)
						if k%5 == 4 {
							idx[k] = int32(m - 1)
						}
					}
					val := rv.slice(nnz, valEnd, func(i int) float64 { return float64(i%9 - 4) })
					x := rx.slice(m, xEnd, func(i int) float64 { return float64(i%5 - 2) })
					name := fmt.Sprintf("%s m=%d nnz=%d idxEnd=%v valEnd=%v xEnd=%v", p.Name, m, nnz, idxEnd, valEnd, xEnd)
					if got, want := p.DotSparse(idx, val, x), dotSparseGeneric(idx, val, x); got != want {
						t.Fatalf("%s DotSparse: %v, want %v", name, got, want)
					}
					want := append([]float64(nil), x...)
					axpySparseGeneric(3, idx, val, want)
					p.AxpySparse(3, idx, val, x)
					if d := gpBitsEqual(x, want); d >= 0 {
						t.Fatalf("%s AxpySparse: y[%d] = %v, want %v", name, d, x[d], want[d])
					}
					rx.check(t, x, name+" AxpySparse")
					rv.check(t, val, name+" AxpySparse val")
					if nnz == 0 {
						continue
					}
					for _, bad := range []int32{int32(m), -1, math.MaxInt32} {
						keep := idx[nnz-1]
						idx[nnz-1] = bad
						var wantErr any
						func() {
							defer func() { wantErr = recover() }()
							dotSparseGeneric(idx, val, x)
						}()
						gotErr := vsPanic(func() { p.DotSparse(idx, val, x) })
						if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
							t.Fatalf("%s DotSparse index %d: panic %v, want %v", name, bad, gotErr, wantErr)
						}
						want := append([]float64(nil), x...)
						vsPanic(func() { axpySparseGeneric(3, idx, val, want) })
						gotErr = vsPanic(func() { p.AxpySparse(3, idx, val, x) })
						if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
							t.Fatalf("%s AxpySparse index %d: panic %v, want %v", name, bad, gotErr, wantErr)
						}
						if d := gpBitsEqual(x, want); d >= 0 {
							t.Fatalf("%s AxpySparse index %d: y[%d] = %v, want %v", name, bad, d, x[d], want[d])
						}
						rx.check(t, x, name+" AxpySparse bad index")
						idx[nnz-1] = keep
					}
				}
			}
		}
	}
}
