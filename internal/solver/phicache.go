package solver

import "math"

// phiCache keeps, for the last two points x at which the loss was
// evaluated, phi x and the smooth part's gradient at x. The certificate
// asks for F and grad f at one point up to four times (certify's four
// multiplier maps, each pairing x with its own x~), and Newton's next
// model asks again at the point just certified: each pass over phi is
// the cost of the call, and a hit costs a comparison of x.
//
// A point is found by its bits (math.Float64bits of every entry), so a
// caller that changes x in place, or passes another slice holding the
// same values, gets what a fresh computation gives; every value returned
// is the one the computation it replaces returns, bit for bit. The slot
// used least recently is the one refilled. Anything else the values
// depend on (q, by SetQ) forgets the gradients (forgetGrads).
type phiCache struct {
	slots [2]phiSlot
	old   int // the slot used least recently
}

// phiSlot is one cached point: x, phi x, and the gradient when hasGrad.
type phiSlot struct {
	x, z, grad     []float64
	valid, hasGrad bool
}

// alloc sizes the cache for n variables and l loss rows.
func (c *phiCache) alloc(n, l int) {
	buf := make([]float64, 2*(2*n+l))
	for k := range c.slots {
		sl := &c.slots[k]
		sl.x, buf = buf[:n:n], buf[n:]
		sl.grad, buf = buf[:n:n], buf[n:]
		sl.z, buf = buf[:l:l], buf[l:]
		sl.valid, sl.hasGrad = false, false
	}
}

// find returns the slot holding x (nil if none) and marks it used.
func (c *phiCache) find(x []float64) *phiSlot {
	for k := range c.slots {
		if sl := &c.slots[k]; sl.valid && sameBits(sl.x, x) {
			c.old = 1 - k
			return sl
		}
	}
	return nil
}

// fill takes the least recently used slot for x (its z and grad to be
// written by the caller) and marks it used.
func (c *phiCache) fill(x []float64) *phiSlot {
	k := c.old
	sl := &c.slots[k]
	copy(sl.x, x)
	sl.valid, sl.hasGrad = true, false
	c.old = 1 - k
	return sl
}

// forgetGrads drops the cached gradients (q changed); phi x stands.
func (c *phiCache) forgetGrads() {
	for k := range c.slots {
		c.slots[k].hasGrad = false
	}
}

// sameBits reports whether a and b hold the same bits (so -0 differs from
// 0, and a NaN equals the same NaN), a and b of equal length.
func sameBits(a, b []float64) bool {
	b = b[:len(a)]
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// phiX returns phi x (read-only: it is the cache's), computed unless x is
// cached. phi must be set.
func (s *Solver) phiX(x []float64) []float64 {
	c := &s.state.phiX
	if c.slots[0].z == nil {
		// No cache (the workspace is not allocated): state.rl.
		s.phi.MulVec(s.state.rl, x)
		return s.state.rl
	}
	if sl := c.find(x); sl != nil {
		return sl.z
	}
	sl := c.fill(x)
	s.phi.MulVec(sl.z, x)
	return sl.z
}
