package sparsegen

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Zipf returns l rows over n features whose feature frequencies follow a
// Zipf law, as word frequencies in text do: each row draws features
// independently with probability proportional to 1/(j+1)^s for feature j,
// keeping the distinct ones, until it has k = min(nnzPerRow, n) of them or
// has made 8k draws. For s up to about 1.5 rows have their k features; a
// steeper law keeps returning the same few features and gives shorter
// rows. Each row's values are uniform in (0, 1], then scaled to unit
// Euclidean norm.
//
// The labels come from a planted sparse weight vector w, one feature in
// eight carrying a weight of magnitude in [0.5, 1) and random sign: a row
// is +1 when phi·w is above the median over the rows, -1 below it, and
// rows at the median are shared out at random, so the classes are
// balanced. Then about 5% of the labels are flipped, and a flipped row is
// a copy of the row before it, with the opposite label. Flips of
// independent rows would not do: with as many features as rows, the rare
// features single out rows and some w fits every label. A row and its
// flipped copy cannot both be fitted, so no w classifies more than about
// 95% of the rows, hard-margin SVMs are infeasible and the logistic loss
// stays away from zero, as on real data.
//
// Everything is computed from seed with a self-contained generator
// (xoshiro256**) using integer arithmetic and explicitly rounded
// floating-point operations, so a seed gives the same set bit for bit on
// every platform. Time and memory are O(n + l*k): the features are drawn
// in O(1) each from an alias table (Walker; Vose's construction).
//
// Zipf panics if l < 0, n < 1, n > 2^31-1, nnzPerRow < 0, or s is negative
// or not finite.
func Zipf(l, n, nnzPerRow int, s float64, seed uint64) *Set {
	set, table, k := newZipfSet("Zipf", "l", l, n, nnzPerRow, s)
	rng := newRand(seed, streamRows)
	flips := newRand(seed, streamFlips)
	flipped := make([]bool, l)
	seen := make([]bool, n) // the current row's features, cleared after it
	for i := range l {
		start := len(set.Idx)
		flipped[i] = flips.next() < flipBelow && i > 0 // one number a row, used or not
		if flipped[i] {
			prev := set.Ptr[i-1]
			set.Idx = append(set.Idx, set.Idx[prev:start]...)
			set.Val = append(set.Val, set.Val[prev:start]...)
			set.Ptr = append(set.Ptr, len(set.Idx))
			continue
		}
		row := set.drawRow(&table, &rng, seen, k)
		for range row {
			set.Val = append(set.Val, rng.unitOpen())
		}
		normalize(set.Val[start:])
		set.Ptr = append(set.Ptr, len(set.Idx))
	}
	plantLabels(set, flipped, seed)
	return set
}

// ZipfRows returns m constraint rows a_i'x <= b_i for a model over n
// features, in a Set whose Labels are the b_i: each row has k =
// min(nnzPerRow, n) distinct features drawn as Zipf's rows draw them (law
// s, at most 8k draws), so the frequent features, which carry the most
// weight in a fitted model, are the ones most constrained; its values are
// uniform in (0, 1] with a random sign, scaled to unit norm; every b_i is
// 0. x = 0 satisfies every row, so the rows are feasible with any bounds
// that contain 0, and a row cuts off a fitted model's weights about as
// often as not: at the answer many rows are active, more than real
// constraint sets (group caps, monotonicity, fairness) usually have.
// Deterministic across platforms as Zipf is, on a stream of its own; it
// panics on the arguments Zipf panics on.
func ZipfRows(m, n, nnzPerRow int, s float64, seed uint64) *Set {
	set, table, k := newZipfSet("ZipfRows", "m", m, n, nnzPerRow, s)
	rng := newRand(seed, streamConstraints)
	seen := make([]bool, n)
	for range m {
		start := len(set.Idx)
		row := set.drawRow(&table, &rng, seen, k)
		for range row {
			r := rng.next()
			v := float64(r>>11+1) * 0x1p-53
			if r&1 != 0 {
				v = -v
			}
			set.Val = append(set.Val, v)
		}
		normalize(set.Val[start:])
		set.Ptr = append(set.Ptr, len(set.Idx))
	}
	return set
}

// newZipfSet checks the arguments of Zipf or ZipfRows (named fn, its
// row count called rowsName), panicking as they document, and returns an
// empty set sized for rows rows of k = min(nnzPerRow, n) entries over n
// features, the alias table of the law s, and k.
func newZipfSet(fn, rowsName string, rows, n, nnzPerRow int, s float64) (*Set, aliasTable, int) {
	if rows < 0 || n < 1 || n > math.MaxInt32 || nnzPerRow < 0 || !(s >= 0) || math.IsInf(s, 1) {
		panic(fmt.Sprintf("sparsegen: %s(%s=%d, n=%d, nnzPerRow=%d, s=%v): bad argument", fn, rowsName, rows, n, nnzPerRow, s))
	}
	k := min(nnzPerRow, n)
	set := &Set{
		Labels:    make([]float64, rows),
		Ptr:       make([]int, 1, rows+1),
		Idx:       make([]int32, 0, rows*k),
		Val:       make([]float64, 0, rows*k),
		NFeatures: n,
	}
	return set, newAliasTable(zipfWeights(n, s)), k
}

// drawRow appends a row's features to s.Idx and returns them: drawn from
// table until k distinct ones or 8k draws, then sorted. seen is all false
// on entry and on return.
func (s *Set) drawRow(table *aliasTable, rng *xoshiro, seen []bool, k int) []int32 {
	start := len(s.Idx)
	for d := 0; d < 8*k && len(s.Idx)-start < k; d++ {
		if j := table.draw(rng); !seen[j] {
			seen[j] = true
			s.Idx = append(s.Idx, j)
		}
	}
	row := s.Idx[start:]
	for _, j := range row {
		seen[j] = false
	}
	slices.Sort(row)
	return row
}

// Streams of the generator: one per use, so that changing how one part
// consumes numbers does not change the others.
const (
	streamRows uint64 = 1 + iota
	streamWeights
	streamLabels
	streamFlips
	streamConstraints
)

// flipBelow makes one label in 20 flip: a uniform uint64 is below it with
// probability 1/20.
const flipBelow = math.MaxUint64 / 20

// plantLabels sets set.Labels from a planted weight vector, as described in
// Zipf's comment; flipped[i] marks row i as a copy of row i-1 to be given
// the opposite label.
func plantLabels(set *Set, flipped []bool, seed uint64) {
	l := set.Rows()
	if l == 0 {
		return
	}
	scores := set.scores(plantedWeights(set.NFeatures, seed))
	sorted := slices.Clone(scores)
	slices.Sort(sorted)
	median := sorted[l/2]

	// Rows scoring the median itself are +1 with the probability that
	// balances the classes: many rows can tie when the planted vector
	// sees few of the features (small n, steep law).
	above, ties := 0, 0
	for _, z := range scores {
		if z > median {
			above++
		} else if z == median {
			ties++
		}
	}
	pTie := min(1, max(0, (float64(l)/2-float64(above))/float64(ties)))
	coins := newRand(seed, streamLabels)
	for i, z := range scores {
		switch {
		case flipped[i]:
			set.Labels[i] = -set.Labels[i-1]
		case z > median || z == median && coins.unit() < pTie:
			set.Labels[i] = 1
		default:
			set.Labels[i] = -1
		}
	}
}

// plantedWeights is Zipf's planted vector for n features: one feature in
// eight has a weight of magnitude in [0.5, 1) and random sign.
func plantedWeights(n int, seed uint64) []float64 {
	w := make([]float64, n)
	rng := newRand(seed, streamWeights)
	for j := range w {
		r := rng.next()
		if r>>61 != 0 { // 7 features in 8 carry no weight
			continue
		}
		mag := 0.5 + 0.5*rng.unit() // exact: a 53-bit fraction halved, plus 0.5
		if r&1 != 0 {
			mag = -mag
		}
		w[j] = mag
	}
	return w
}

// scores returns the products of the rows with w, each sum taken in index
// order with every product rounded (no FMA on any platform), so the same
// on every platform.
func (s *Set) scores(w []float64) []float64 {
	z := make([]float64, s.Rows())
	for i := range z {
		var sum float64
		for p := s.Ptr[i]; p < s.Ptr[i+1]; p++ {
			sum += float64(s.Val[p] * w[s.Idx[p]])
		}
		z[i] = sum
	}
	return z
}

// zipfWeights returns w[j] = (j+1)^-s, computed with the portable
// logarithm and exponential so that the table, and so the features drawn,
// are the same on every platform (math.Log and math.Exp are assembly on
// some and FMA-fused Go on others, and may differ in the last bit).
func zipfWeights(n int, s float64) []float64 {
	w := make([]float64, n)
	for j := range w {
		if s == 0 {
			w[j] = 1
			continue
		}
		w[j] = portableExp(-s * portableLog(float64(j+1)))
	}
	return w
}

// aliasTable draws index j with probability proportional to the weight it
// was built from, in O(1): pick a cell uniformly, then keep its index or
// take its alias by a biased coin (Walker's alias method).
type aliasTable struct {
	n     uint64
	cells []aliasCell
}

// aliasCell is one cell of an alias table: its own index is kept when a
// 32-bit uniform coin is below keep, else alias is returned. Packed in
// 8 bytes, a draw reads one cell, and a million-feature table (8 MB) stays
// in a typical last-level cache.
type aliasCell struct {
	keep  uint32
	alias int32
}

// newAliasTable builds the table for the weights w (nonnegative, not all
// zero) by Vose's method, which moves probability only from over-full to
// under-full cells and so stays accurate in floating point. Only additions,
// subtractions and single products are used, each correctly rounded, so
// the table is the same on every platform.
func newAliasTable(w []float64) aliasTable {
	n := len(w)
	var total float64
	for j := n - 1; j >= 0; j-- { // smallest first: the Zipf weights decrease
		total += w[j]
	}
	scale := float64(n) / total
	q := make([]float64, n) // the cells' probabilities times n
	work := make([]int32, n)
	small, large := 0, n // work[:small] under-full cells, work[large:] over-full ones
	for j, x := range w {
		q[j] = x * scale
		if q[j] < 1 {
			work[small] = int32(j)
			small++
		} else {
			large--
			work[large] = int32(j)
		}
	}
	cells := make([]aliasCell, n)
	for j := range cells {
		// A cell that ends full (probability 1, up to rounding) keeps its
		// own index either way.
		cells[j] = aliasCell{keep: math.MaxUint32, alias: int32(j)}
	}
	for small > 0 && large < n {
		small--
		u := work[small]
		g := work[large]
		large++
		cells[u] = aliasCell{keep: uint32(q[u] * (1 << 32)), alias: g} // q[u] < 1: no overflow
		q[g] = (q[g] + q[u]) - 1
		if q[g] < 1 {
			work[small] = g
			small++
		} else {
			large--
			work[large] = g
		}
	}
	return aliasTable{n: uint64(n), cells: cells}
}

// draw returns a random index.
func (t *aliasTable) draw(r *xoshiro) int32 {
	j, _ := bits.Mul64(r.next(), t.n) // uniform in [0, n), bias below n/2^64
	c := t.cells[j]
	if uint32(r.next()>>32) < c.keep {
		return int32(j)
	}
	return c.alias
}

// xoshiro is the xoshiro256** generator (Blackman and Vigna, "Scrambled
// linear pseudorandom number generators", 2021): 256 bits of state,
// period 2^256-1, all 64 output bits of good quality, a few integer
// operations a number. It is written out here so that a seed's stream is
// fixed by this file alone, not by a library's choice of algorithm.
type xoshiro struct{ s0, s1, s2, s3 uint64 }

// newRand seeds a generator for (seed, stream) by splitmix64, as the
// xoshiro authors advise: the state is never all zero, and nearby seeds
// give unrelated states.
func newRand(seed, stream uint64) xoshiro {
	x := splitmix64(seed) ^ stream*0xd1b54a32d192ed03
	var r xoshiro
	x, r.s0 = x+0x9e3779b97f4a7c15, splitmix64(x)
	x, r.s1 = x+0x9e3779b97f4a7c15, splitmix64(x)
	x, r.s2 = x+0x9e3779b97f4a7c15, splitmix64(x)
	r.s3 = splitmix64(x)
	return r
}

// splitmix64 is the finaliser of Steele, Lea and Flood's SplitMix64, a
// bijection of uint64 that mixes every input bit into every output bit.
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *xoshiro) next() uint64 {
	out := bits.RotateLeft64(r.s1*5, 7) * 9
	t := r.s1 << 17
	r.s2 ^= r.s0
	r.s3 ^= r.s1
	r.s1 ^= r.s2
	r.s0 ^= r.s3
	r.s2 ^= t
	r.s3 = bits.RotateLeft64(r.s3, 45)
	return out
}

// unit returns a uniform float64 in [0, 1): 53 random bits, exactly.
func (r *xoshiro) unit() float64 { return float64(r.next()>>11) * 0x1p-53 }

// unitOpen returns a uniform float64 in (0, 1]: 53 random bits, exactly.
func (r *xoshiro) unitOpen() float64 { return float64(r.next()>>11+1) * 0x1p-53 }

// portableLog is the natural logarithm of x > 0, finite, within 1 ulp. It
// is fdlibm's e_log.c (the algorithm and coefficients of Go's pure-Go
// math.Log) with every product rounded explicitly: math.Log is assembly on
// amd64 and FMA-fused Go on arm64, and the two can differ in the last bit;
// this gives the same bits everywhere.
func portableLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
		ln2Lo = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	// x = 2^k (1+f) with sqrt(2)/2 <= 1+f < sqrt(2); Frexp is exact.
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	// log(1+f) = f - f^2/2 + s (f^2/2 + R(s^2)), s = f/(2+f).
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// portableExp is e^x within 1 ulp, fdlibm's e_exp.c (the algorithm and
// coefficients of Go's pure-Go math.Exp) with every product rounded
// explicitly, for the same reason as portableLog.
func portableExp(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
		p1        = 1.66666666666666657415e-01
		p2        = -2.77777777770155933842e-03
		p3        = 6.61375632143793436117e-05
		p4        = -1.65339022054652515390e-06
		p5        = 4.13813679705723846039e-08
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	// x = k ln2 + r, |r| <= ln2/2, r carried as hi - lo.
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	case x > 0:
		k = int(float64(log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*ln2Hi)
	lo := float64(float64(k) * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	c := r - float64(t*(p1+float64(t*(p2+float64(t*(p3+float64(t*(p4+float64(t*p5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k) // exact scaling by 2^k (rounded once if subnormal)
}
