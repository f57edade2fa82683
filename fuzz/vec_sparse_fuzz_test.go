package fuzz

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/vec"
)

// FuzzVecSparsePaths compares DotSparse and AxpySparse on every non-generic
// path with the generic path on fuzzer-chosen sparse rows: the data holds
// the row's entries, 12 bytes each (a 32-bit index, reduced modulo the
// dense length unless the entry is chosen to be out of range, and a float64
// mapped by vfTame), after which come the dense vector's values (vfTame as
// well; missing ones are 1). Lengths, element offsets 0..7 of val and x in
// their buffers (off) and the dense length (nx) are fuzzer-chosen too.
// Indices may repeat. Bounds (see vec_fuzz_test.go): DotSparse is a sum of
// nnz terms val[k]*x[idx[k]], so two paths differ by at most
// vfSumBound(nnz, sum|terms|); AxpySparse runs the same Go loop on every
// path and must agree bit for bit. An out-of-range index must make both
// kernels panic on every path with the same runtime error. Guards around
// every slice must survive, and val and x (read-only for DotSparse) must
// not change.
func FuzzVecSparsePaths(f *testing.F) {
	for _, nnz := range []int{0, 1, 3, 4, 5, 15, 16, 17, 20, 33, 64} {
		b := make([]byte, 0, 12*nnz)
		for k := 0; k < nnz; k++ {
			b = binary.LittleEndian.AppendUint32(b, uint32(k*k*7+3))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(k%7)-3.25))
		}
		f.Add(uint8(nnz*37), uint16(nnz+3), uint8(nnz), uint8(0), b, 0.5)
	}
	// An index out of range (entry 5 of 20), and the largest indices.
	f.Add(uint8(3), uint16(40), uint8(20), uint8(5), vfBytes(vfRamp(40, func(i int) float64 { return float64(i) })...), -2.0)
	f.Add(uint8(0x5b), uint16(1), uint8(17), uint8(0xff), vfBytes(0, math.Copysign(0, -1), 0x1p300, -0x1p-300, 1, -1), 0x1p-300)
	f.Fuzz(func(t *testing.T, off uint8, nx uint16, nnz8 uint8, bad uint8, data []byte, alpha float64) {
		n := int(nx)%4096 + 1
		nnz := int(nnz8)
		if 12*nnz > len(data) {
			nnz = len(data) / 12
		}
		idx := make([]int32, nnz)
		val0 := make([]float64, nnz)
		for k := range idx {
			e := data[12*k:]
			idx[k] = int32(binary.LittleEndian.Uint32(e) % uint32(n))
			val0[k] = vfTame(binary.LittleEndian.Uint64(e[4:]))
		}
		badAt := -1
		if int(bad) < nnz {
			// Out of range: just past the end, or the 32-bit word itself
			// when it is (negative, or at least n).
			badAt = int(bad)
			w := int32(binary.LittleEndian.Uint32(data[12*badAt:]))
			if w >= 0 && int(w) < n {
				w = int32(n)
			}
			idx[badAt] = w
		}
		x0 := vfDecode(data[12*nnz:], vfTame)
		if len(x0) > n {
			x0 = x0[:n]
		}
		for len(x0) < n {
			x0 = append(x0, 1)
		}
		alpha = vfTame(math.Float64bits(alpha))
		ov, ox := int(off&7), int(off>>3&7)

		paths := vec.Paths()
		g := paths[0]
		type result struct {
			dot   float64
			y     []float64
			panic string
		}
		run := func(q vec.Path) result {
			var r result
			val, vb := vfPlace(val0, ov)
			x, xb := vfPlace(x0, ox)
			func() {
				defer func() {
					if e := recover(); e != nil {
						r.panic = fmt.Sprint(e)
					}
				}()
				r.dot = q.DotSparse(idx, val, x)
			}()
			vfCheckGuards(t, q.Name+" DotSparse val", vb, ov, nnz)
			vfCheckGuards(t, q.Name+" DotSparse x", xb, ox, n)
			for i := range x {
				if math.Float64bits(x[i]) != math.Float64bits(x0[i]) {
					t.Fatalf("%s DotSparse changed x[%d]", q.Name, i)
				}
			}
			for k := range val {
				if math.Float64bits(val[k]) != math.Float64bits(val0[k]) {
					t.Fatalf("%s DotSparse changed val[%d]", q.Name, k)
				}
			}
			func() {
				defer func() {
					if e := recover(); e != nil {
						r.panic += " / " + fmt.Sprint(e)
					}
				}()
				q.AxpySparse(alpha, idx, val, x)
			}()
			vfCheckGuards(t, q.Name+" AxpySparse y", xb, ox, n)
			r.y = x
			return r
		}
		rg := run(g)
		if (badAt >= 0) != (rg.panic != "") {
			t.Fatalf("generic: index %d of %d out of range: panic %q", badAt, nnz, rg.panic)
		}
		var sum float64
		for k, j := range idx {
			if k != badAt {
				sum += math.Abs(val0[k] * x0[j])
			}
		}
		for _, p := range paths[1:] {
			rp := run(p)
			if rp.panic != rg.panic {
				t.Fatalf("%s: panic %q, generic %q", p.Name, rp.panic, rg.panic)
			}
			if badAt < 0 {
				if d := math.Abs(rg.dot - rp.dot); !(d <= vfSumBound(nnz, sum)) {
					t.Fatalf("%s DotSparse = %v, generic %v: differ by %g > bound %g (nnz=%d, sum|terms|=%g)",
						p.Name, rp.dot, rg.dot, d, vfSumBound(nnz, sum), nnz, sum)
				}
			}
			for i := range rp.y {
				if math.Float64bits(rp.y[i]) != math.Float64bits(rg.y[i]) {
					t.Fatalf("%s AxpySparse y[%d] = %v, generic %v (same Go loop on every path)", p.Name, i, rp.y[i], rg.y[i])
				}
			}
		}
	})
}
