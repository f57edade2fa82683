package solver

import "math/bits"

// rng is the solver's own generator (xoshiro256**, seeded by SplitMix64), so
// that a solve is reproducible bit for bit from Options.Seed and never
// touches a global source.
type rng struct{ s [4]uint64 }

func (r *rng) seed(seed uint64) {
	for i := range r.s {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		r.s[i] = z ^ (z >> 31)
	}
}

func (r *rng) next() uint64 {
	s := &r.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// float returns a uniform float64 in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) * 0x1p-53 }

// intn returns a uniform int in [0, n), n > 0, without modulo bias.
func (r *rng) intn(n int) int {
	hi, lo := bits.Mul64(r.next(), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			hi, lo = bits.Mul64(r.next(), uint64(n))
		}
	}
	return int(hi)
}

// alias samples index i with probability w[i]/sum(w) in O(1) (Walker's alias
// method, Vose's construction). The first build allocates; a later build
// of at most as many weights reuses its storage; sample allocates nothing.
type alias struct {
	prob  []float64
	alias []int
	w     []float64 // the weights
	mean  float64   // mean of the weights
	max   float64   // largest weight
	// the construction's scratch, kept for the next build
	small, large []int
	p            []float64
}

// weight returns the weight of index i as given to build.
func (a *alias) weight(i int) float64 { return a.w[i] }

func (a *alias) build(w []float64) {
	n := len(w)
	a.prob = resized(a.prob, n)
	a.alias = resized(a.alias, n)
	a.w = append(a.w[:0], w...)
	var sum float64
	a.max = 0
	for _, v := range w {
		sum += v
		a.max = max(a.max, v)
	}
	a.mean = sum / float64(n)
	if sum == 0 {
		for i := range a.prob {
			a.prob[i] = 1
			a.alias[i] = i
		}
		return
	}
	small := resized(a.small, n)[:0]
	large := resized(a.large, n)[:0]
	p := resized(a.p, n)
	for i, v := range w {
		p[i] = v * float64(n) / sum
		if p[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s] = p[s]
		a.alias[s] = l
		p[l] -= 1 - p[s]
		if p[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range large {
		a.prob[i], a.alias[i] = 1, i
	}
	for _, i := range small {
		a.prob[i], a.alias[i] = 1, i
	}
	a.small, a.large, a.p = small, large, p
}

func (a *alias) sample(r *rng) int {
	i := r.intn(len(a.prob))
	if r.float() < a.prob[i] {
		return i
	}
	return a.alias[i]
}
