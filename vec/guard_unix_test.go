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
	for _, p := range Paths() {
		for n := 0; n <= 70; n++ {
			for _, atEnd := range []bool{true, false} {
				c := gpCase{t: t, p: p, r: r, n: n, atEnd: atEnd, where: "end"}
				if !atEnd {
					c.where = "start"
				}
				c.reductions()
				c.linear()
				c.maps()
			}
		}
	}
}

// gpCase is one path, length and placement of TestDenseGuardPages.
type gpCase struct {
	t     *testing.T
	p     Path
	r     [5]*gpRegion
	n     int
	atEnd bool
	where string // "end" or "start": which side of the page the guard is on
}

func (c *gpCase) fail(kernel string, format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("%s %s n=%d at page %s: "+format, append([]any{c.p.Name, kernel, c.n, c.where}, args...)...)
}

// sl places n inputs of the given seed in region k.
func (c *gpCase) sl(k, seed int) []float64 {
	return c.r[k].slice(c.n, c.atEnd, func(i int) float64 { return gpVal(seed, i) })
}

// chk checks that region k is untouched outside ss[k] (nil: region k is
// not in this call).
func (c *gpCase) chk(kernel string, ss ...[]float64) {
	c.t.Helper()
	for k, s := range ss {
		if s != nil {
			c.r[k].check(c.t, s, c.p.Name+" "+kernel+" at page "+c.where)
		}
	}
}

func gpHeap(s []float64) []float64 { return append(make([]float64, 0, len(s)), s...) }

// reductions checks Dot, SumSqDot, Dot4, MaxAbs and SoftplusSum.
func (c *gpCase) reductions() {
	p := c.p
	x, y := c.sl(0, 1), c.sl(1, 2)
	if g, w := p.Dot(x, y), p.Dot(gpHeap(x), gpHeap(y)); math.Float64bits(g) != math.Float64bits(w) {
		c.fail("Dot", "%v, on heap copies %v", g, w)
	}
	gs, gd := p.SumSqDot(x, y)
	ws, wd := p.SumSqDot(gpHeap(x), gpHeap(y))
	if math.Float64bits(gs) != math.Float64bits(ws) || math.Float64bits(gd) != math.Float64bits(wd) {
		c.fail("SumSqDot", "(%v, %v), on heap copies (%v, %v)", gs, gd, ws, wd)
	}
	c.chk("Dot/SumSqDot", x, y)
	x, y0, y1, y2, y3 := c.sl(0, 1), c.sl(1, 2), c.sl(2, 3), c.sl(3, 4), c.sl(4, 5)
	g0, g1, g2, g3 := p.Dot4(x, y0, y1, y2, y3)
	w0, w1, w2, w3 := p.Dot4(gpHeap(x), gpHeap(y0), gpHeap(y1), gpHeap(y2), gpHeap(y3))
	if gpBitsEqual([]float64{g0, g1, g2, g3}, []float64{w0, w1, w2, w3}) >= 0 {
		c.fail("Dot4", "%v, on heap copies %v", []float64{g0, g1, g2, g3}, []float64{w0, w1, w2, w3})
	}
	c.chk("Dot4", x, y0, y1, y2, y3)
	// MaxAbs with its largest element first, last, and (a NaN) ignored
	// there, so that the elements next to the guard decide the result.
	for _, at := range []int{0, c.n - 1} {
		for _, v := range []float64{1e300, math.NaN()} {
			x = c.sl(0, 19)
			if c.n > 0 {
				x[at] = v
			}
			if g, w := p.MaxAbs(x), maxAbsLoop(gpHeap(x)); math.Float64bits(g) != math.Float64bits(w) {
				c.fail("MaxAbs", "%v with %v at %d, the Go loop on a heap copy %v", g, v, at, w)
			}
			c.chk("MaxAbs", x)
		}
	}
	x = c.sl(0, 6)
	if g, w := p.SoftplusSum(x, -1.5), p.SoftplusSum(gpHeap(x), -1.5); math.Float64bits(g) != math.Float64bits(w) {
		c.fail("SoftplusSum", "%v, on heap copies %v", g, w)
	}
	c.chk("SoftplusSum", x)
}

// linear checks Axpy (also with x = y), Scale, AxpbyTo (also with dst = x
// and dst = y) and Step (also with u = v) against the same path on heap
// copies.
func (c *gpCase) linear() {
	p := c.p
	x, y := c.sl(0, 7), c.sl(1, 8)
	wx, wy := gpHeap(x), gpHeap(y)
	p.Axpy(-0.75, wx, wy)
	p.Axpy(-0.75, x, y)
	if i := gpBitsEqual(y, wy); i >= 0 {
		c.fail("Axpy", "y[%d] = %v, on heap copies %v", i, y[i], wy[i])
	}
	c.chk("Axpy", x, y)
	y = c.sl(1, 9)
	wy = gpHeap(y)
	p.Axpy(2.5, wy, wy)
	p.Axpy(2.5, y, y)
	if i := gpBitsEqual(y, wy); i >= 0 {
		c.fail("Axpy(x = y)", "y[%d] = %v, on heap copies %v", i, y[i], wy[i])
	}
	c.chk("Axpy(x = y)", nil, y)
	x = c.sl(0, 10)
	wx = gpHeap(x)
	p.Scale(-1.25, wx)
	p.Scale(-1.25, x)
	if i := gpBitsEqual(x, wx); i >= 0 {
		c.fail("Scale", "x[%d] = %v, on heap copies %v", i, x[i], wx[i])
	}
	c.chk("Scale", x)

	for _, alias := range []string{"", "dst = x", "dst = y"} {
		x, y := c.sl(0, 11), c.sl(1, 12)
		wx, wy := gpHeap(x), gpHeap(y)
		var d, wd, dChk []float64
		switch alias {
		case "dst = x":
			d, wd = x, wx
		case "dst = y":
			d, wd = y, wy
		default:
			d = c.sl(2, 13)
			wd, dChk = gpHeap(d), d
		}
		p.AxpbyTo(wd, 0.3, wx, -1.7, wy)
		p.AxpbyTo(d, 0.3, x, -1.7, y)
		if i := gpBitsEqual(d, wd); i >= 0 {
			c.fail("AxpbyTo("+alias+")", "dst[%d] = %v, on heap copies %v", i, d[i], wd[i])
		}
		c.chk("AxpbyTo("+alias+")", x, y, dChk)
	}

	for _, sameUV := range []bool{false, true} {
		u, v, x := c.sl(0, 14), c.sl(1, 15), c.sl(2, 16)
		if sameUV {
			v = u
		}
		wu, wv, wx := gpHeap(u), gpHeap(v), gpHeap(x)
		p.Step(0.9, 1.1, wu, -0.6, wv, wx)
		p.Step(0.9, 1.1, u, -0.6, v, x)
		if i := gpBitsEqual(x, wx); i >= 0 {
			c.fail("Step", "x[%d] = %v (u = v: %v), on heap copies %v", i, x[i], sameUV, wx[i])
		}
		if sameUV {
			c.chk("Step(u = v)", u, nil, x)
		} else {
			c.chk("Step", u, v, x)
		}
	}
}

// maps checks Softplus, Sigmoid and SigmoidScaled, also in place.
func (c *gpCase) maps() {
	p := c.p
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
			x, d := c.sl(0, 17), c.sl(1, 18)
			if inPlace {
				d = x
			}
			wx, wd := gpHeap(x), gpHeap(d)
			if inPlace {
				wd = wx
			}
			m.f(wd, wx)
			m.f(d, x)
			if i := gpBitsEqual(d, wd); i >= 0 {
				c.fail(m.name, "dst[%d] = %v (in place: %v), on heap copies %v", i, d[i], inPlace, wd[i])
			}
			if inPlace {
				c.chk(m.name+" in place", x)
			} else {
				c.chk(m.name, x, d)
			}
		}
	}
}
