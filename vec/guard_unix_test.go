//go:build linux

package vec

import (
	"math"
	"syscall"
	"testing"
	"unsafe"
)

// gpRegion is one read-write page between two PROT_NONE pages: a load or
// store of even one byte before its start or past its end faults.
type gpRegion struct {
	page []float64 // the read-write page
	base unsafe.Pointer
}

// gpSentinel fills a region's page outside the slices under test; it must
// be there, unchanged, after every call.
var gpSentinel = math.Float64frombits(0x5a5a_5a5a_5a5a_5a5a)

func newGPRegion(t *testing.T) *gpRegion {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[2*page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	base := unsafe.Pointer(&mem[page])
	return &gpRegion{page: unsafe.Slice((*float64)(base), page/8), base: base}
}

// slice returns n elements of the page, flush against the guard after it
// (atEnd) or before it, the other elements set to gpSentinel. At n = 0 and
// atEnd the slice's pointer is the first byte of the guard page.
func (r *gpRegion) slice(n int, atEnd bool, fill func(i int) float64) []float64 {
	for i := range r.page {
		r.page[i] = gpSentinel
	}
	off := 0
	if atEnd {
		off = len(r.page) - n
	}
	s := unsafe.Slice((*float64)(unsafe.Add(r.base, 8*off)), n)
	for i := range s {
		s[i] = fill(i)
	}
	return s
}

// check fails unless every element of the page outside s (a slice of it)
// still holds gpSentinel.
func (r *gpRegion) check(t *testing.T, s []float64, what string) {
	t.Helper()
	lo := len(r.page)
	if len(s) > 0 {
		lo = int((uintptr(unsafe.Pointer(&s[0])) - uintptr(r.base)) / 8)
	}
	for i, v := range r.page {
		if (i < lo || i >= lo+len(s)) && math.Float64bits(v) != math.Float64bits(gpSentinel) {
			t.Fatalf("%s: element %d of the page, outside the slice [%d, %d), overwritten with %v", what, i, lo, lo+len(s), v)
		}
	}
}

// gpVal is a deterministic, sign-mixed, inexact input (softplus and
// sigmoid see both signs and the exp range).
func gpVal(seed, i int) float64 {
	return math.Sin(float64(i*37+seed*11)) * math.Exp(float64((i+seed)%11-5))
}

func gpBitsEqual(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestDenseGuardPages runs every dense kernel of every path at every length
// 0..70 with each slice flush against an unmapped page, either ending at
// the last byte before one or starting at the first byte after one (the
// in-place forms too: AxpbyTo with dst = x and dst = y, Softplus and the
// sigmoids with dst = x, Axpy with x = y, Step with u = v). A read or write
// of a single element outside a slice faults. Each result must have the
// bits the same path gives on heap copies of the inputs (the results depend
// on the values and the length only), and nothing else on the page may
// change.
func TestDenseGuardPages(t *testing.T) {
	var r [5]*gpRegion
	for i := range r {
		r[i] = newGPRegion(t)
	}
	heap := func(s []float64) []float64 { return append(make([]float64, 0, len(s)), s...) }
	for _, p := range Paths() {
		for n := 0; n <= 70; n++ {
			for _, atEnd := range []bool{true, false} {
				where := "end"
				if !atEnd {
					where = "start"
				}
				fail := func(kernel string, format string, args ...any) {
					t.Helper()
					t.Fatalf("%s %s n=%d at page %s: "+format, append([]any{p.Name, kernel, n, where}, args...)...)
				}
				sl := func(k, seed int) []float64 {
					return r[k].slice(n, atEnd, func(i int) float64 { return gpVal(seed, i) })
				}
				chk := func(kernel string, ss ...[]float64) {
					t.Helper()
					for k, s := range ss {
						if s != nil { // nil: region k not in this call
							r[k].check(t, s, p.Name+" "+kernel+" at page "+where)
						}
					}
				}

				// Reductions.
				x, y := sl(0, 1), sl(1, 2)
				if g, w := p.Dot(x, y), p.Dot(heap(x), heap(y)); math.Float64bits(g) != math.Float64bits(w) {
					fail("Dot", "%v, on heap copies %v", g, w)
				}
				gs, gd := p.SumSqDot(x, y)
				ws, wd := p.SumSqDot(heap(x), heap(y))
				if math.Float64bits(gs) != math.Float64bits(ws) || math.Float64bits(gd) != math.Float64bits(wd) {
					fail("SumSqDot", "(%v, %v), on heap copies (%v, %v)", gs, gd, ws, wd)
				}
				chk("Dot/SumSqDot", x, y)
				x, y0, y1, y2, y3 := sl(0, 1), sl(1, 2), sl(2, 3), sl(3, 4), sl(4, 5)
				g0, g1, g2, g3 := p.Dot4(x, y0, y1, y2, y3)
				w0, w1, w2, w3 := p.Dot4(heap(x), heap(y0), heap(y1), heap(y2), heap(y3))
				if gpBitsEqual([]float64{g0, g1, g2, g3}, []float64{w0, w1, w2, w3}) >= 0 {
					fail("Dot4", "%v, on heap copies %v", []float64{g0, g1, g2, g3}, []float64{w0, w1, w2, w3})
				}
				chk("Dot4", x, y0, y1, y2, y3)
				x = sl(0, 6)
				if g, w := p.SoftplusSum(x, -1.5), p.SoftplusSum(heap(x), -1.5); math.Float64bits(g) != math.Float64bits(w) {
					fail("SoftplusSum", "%v, on heap copies %v", g, w)
				}
				chk("SoftplusSum", x)

				// Elementwise kernels: want is the same path on heap copies.
				x, y = sl(0, 7), sl(1, 8)
				wx, wy := heap(x), heap(y)
				p.Axpy(-0.75, wx, wy)
				p.Axpy(-0.75, x, y)
				if i := gpBitsEqual(y, wy); i >= 0 {
					fail("Axpy", "y[%d] = %v, on heap copies %v", i, y[i], wy[i])
				}
				chk("Axpy", x, y)
				y = sl(1, 9)
				wy = heap(y)
				p.Axpy(2.5, wy, wy)
				p.Axpy(2.5, y, y)
				if i := gpBitsEqual(y, wy); i >= 0 {
					fail("Axpy(x = y)", "y[%d] = %v, on heap copies %v", i, y[i], wy[i])
				}
				chk("Axpy(x = y)", nil, y)
				x = sl(0, 10)
				wx = heap(x)
				p.Scale(-1.25, wx)
				p.Scale(-1.25, x)
				if i := gpBitsEqual(x, wx); i >= 0 {
					fail("Scale", "x[%d] = %v, on heap copies %v", i, x[i], wx[i])
				}
				chk("Scale", x)

				for _, alias := range []string{"", "dst = x", "dst = y"} {
					x, y := sl(0, 11), sl(1, 12)
					wx, wy := heap(x), heap(y)
					var d, wd, dChk []float64
					switch alias {
					case "dst = x":
						d, wd = x, wx
					case "dst = y":
						d, wd = y, wy
					default:
						d = sl(2, 13)
						wd, dChk = heap(d), d
					}
					p.AxpbyTo(wd, 0.3, wx, -1.7, wy)
					p.AxpbyTo(d, 0.3, x, -1.7, y)
					if i := gpBitsEqual(d, wd); i >= 0 {
						fail("AxpbyTo("+alias+")", "dst[%d] = %v, on heap copies %v", i, d[i], wd[i])
					}
					chk("AxpbyTo("+alias+")", x, y, dChk)
				}

				for _, sameUV := range []bool{false, true} {
					u, v, x := sl(0, 14), sl(1, 15), sl(2, 16)
					if sameUV {
						v = u
					}
					wu, wv, wx := heap(u), heap(v), heap(x)
					p.Step(0.9, 1.1, wu, -0.6, wv, wx)
					p.Step(0.9, 1.1, u, -0.6, v, x)
					if i := gpBitsEqual(x, wx); i >= 0 {
						fail("Step", "x[%d] = %v (u = v: %v), on heap copies %v", i, x[i], sameUV, wx[i])
					}
					if sameUV {
						chk("Step(u = v)", u, nil, x)
					} else {
						chk("Step", u, v, x)
					}
				}

				maps := []struct {
					name string
					f    func(d, x []float64)
				}{
					{"Softplus", p.Softplus},
					{"Sigmoid", p.Sigmoid},
					{"SigmoidScaled", func(d, x []float64) { p.SigmoidScaled(d, x, -2.25, 0.4) }},
				}
				for _, m := range maps {
					for _, inPlace := range []bool{false, true} {
						x, d := sl(0, 17), sl(1, 18)
						if inPlace {
							d = x
						}
						wx, wd := heap(x), heap(d)
						if inPlace {
							wd = wx
						}
						m.f(wd, wx)
						m.f(d, x)
						if i := gpBitsEqual(d, wd); i >= 0 {
							fail(m.name, "dst[%d] = %v (in place: %v), on heap copies %v", i, d[i], inPlace, wd[i])
						}
						if inPlace {
							chk(m.name+" in place", x)
						} else {
							chk(m.name, x, d)
						}
					}
				}
			}
		}
	}
}
