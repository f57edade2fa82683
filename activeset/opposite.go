package activeset

import (
	"cmp"
	"math"
	"slices"
)

// Two rows whose directions are exact opposites, a_j = -c a_i with c > 0
// (a data point repeated with the other label, a constraint written once
// as <= and once as >=), contradict each other when
// bhat_i + bhat_j < 0, and y = (1/||a_i||, 1/||a_j||) proves it: A'y is
// zero (exactly when a_j = -a_i bit for bit, to rounding otherwise) and
// b'y = bhat_i + bhat_j < 0. The loop finds such a pair only if one of the
// two rows is admitted while the other is a member, and it admits the most
// violated row: the pair's violation is the fixed amount
// -(bhat_i + bhat_j), which other rows can exceed until the multipliers
// have grown past what float64 can follow (a raw-feature SVM with one
// point repeated with the opposite label, the root package's
// TestUnscaledSVM): the loop then cycles without admitting the pair. So a
// solve that cannot settle, at a check of its large multipliers as a
// certificate or at its bound on working-set changes, looks for such a
// pair (oppositeCertificate; TestOppositeAtRayTry, TestOppositeAtMaxSteps).

// oppositeRows is the index of the rows of A that have an opposite: the
// classes of rows with the same direction to the last bit (the entries
// divided by the first nonzero), of which some rows point one way (first
// nonzero positive) and some the other. Class g is
// rows[start[g]:start[g+1]], the rows pointing the positive way first,
// up to mid[g]; every class has both kinds, and the classes are in the
// order of their lowest row index. Built once per Solver, when first
// needed (the rows never change); nil start means not built.
type oppositeRows struct {
	rows       []int32
	start, mid []int32
}

// directionHash hashes the direction of row j over its first nonzero, f,
// and at most most nonzeros after it (FNV-1a over their columns and their
// entries divided by a_j[f]), and returns the hash with f. Zeros of either
// sign are skipped alike; rows of opposite directions hash alike.
func (s *Solver) directionHash(j, most int) (h uint64, f int) {
	a := s.a[j]
	for f = 0; f < len(a) && a[f] == 0; f++ {
	}
	const prime = 0x100000001b3
	h = (0xcbf29ce484222325 ^ uint64(f)) * prime
	for c := f + 1; c < len(a) && most > 0; c++ {
		if a[c] == 0 {
			continue
		}
		h = (h ^ uint64(c)) * prime
		h = (h ^ math.Float64bits(a[c]/a[f])) * prime
		most--
	}
	return h, f
}

// oppositeSample is how many nonzeros after the first buildOpposites
// hashes to screen the rows: enough to tell apart rows that are not
// copies of each other, in a pass that reads a few entries per row.
const oppositeSample = 8

// sameDirection reports whether rows i and j, whose first nonzeros are
// both at f, have the same direction to the last bit, up to sign:
// a_i/a_i[f] and a_j/a_j[f] are equal entry for entry.
func (s *Solver) sameDirection(i, j, f int) bool {
	ai, aj := s.a[i], s.a[j]
	for c := f + 1; c < len(ai); c++ {
		if ai[c]/ai[f] != aj[c]/aj[f] {
			return false
		}
	}
	return true
}

// buildOpposites builds the index of opposite rows: the rows that may
// have an opposite (oppositeCandidates), sorted by their direction's hash,
// split into classes (oppositeClasses), in the order of each class's
// lowest row. On random rows it costs a few times a product with every
// row.
func (s *Solver) buildOpposites() {
	o := &s.rareWork().opp
	o.start = make([]int32, 0, 1)
	keys := s.oppositeCandidates()
	slices.SortFunc(keys, func(x, y directionKey) int {
		if c := cmp.Compare(x.h, y.h); c != 0 {
			return c
		}
		if c := cmp.Compare(x.f, y.f); c != 0 {
			return c
		}
		return cmp.Compare(x.j, y.j)
	})
	found := s.oppositeClasses(keys)
	// Both sides are in increasing row order (the sort's tie-break).
	lowest := func(c oppositeClass) int32 { return min(c.rows[0], c.rows[c.mid]) }
	slices.SortFunc(found, func(x, y oppositeClass) int { return cmp.Compare(lowest(x), lowest(y)) })
	for _, c := range found {
		o.start = append(o.start, int32(len(o.rows)))
		o.mid = append(o.mid, int32(len(o.rows)+c.mid))
		o.rows = append(o.rows, c.rows...)
	}
	o.start = append(o.start, int32(len(o.rows)))
}

// directionKey is a row j, the hash h of its whole direction and its
// first nonzero f (directionHash).
type directionKey struct {
	h    uint64
	f, j int32
}

// oppositeCandidates returns the keys of the rows that may have an
// opposite. A first pass hashes each row's first nonzeros (directionHash,
// oppositeSample) into a table that notes the signs seen in each bucket;
// only the rows of a bucket with both signs (an opposite, or a collision)
// are hashed in full.
func (s *Solver) oppositeCandidates() []directionKey {
	size := 1
	for size < 8*s.m {
		size *= 2
	}
	signs := make([]uint8, size) // bit 1: a row with a_j[f] > 0 hashed here, bit 2: < 0
	sample := make([]uint64, s.m)
	sign := func(j, f int) uint8 {
		if s.a[j][f] > 0 {
			return 1
		}
		return 2
	}
	for j := 0; j < s.m; j++ {
		if s.ainv[j] == 0 {
			continue
		}
		h, f := s.directionHash(j, oppositeSample)
		sample[j] = h
		signs[h&uint64(size-1)] |= sign(j, f)
	}
	var keys []directionKey
	for j := 0; j < s.m; j++ {
		if s.ainv[j] != 0 && signs[sample[j]&uint64(size-1)] == 3 {
			h, f := s.directionHash(j, s.n)
			keys = append(keys, directionKey{h, int32(f), int32(j)})
		}
	}
	return keys
}

// oppositeClass is one class of rows of the same direction up to sign:
// the rows pointing the positive way, then the others from mid on.
type oppositeClass struct {
	rows []int32
	mid  int
}

// oppositeClasses splits the sorted keys into classes of rows with the
// same direction that have both signs. Each run of equal hash and first
// nonzero holds one class, or a few if the hash collided: the rows of the
// first row's direction are split off until the run is empty.
func (s *Solver) oppositeClasses(keys []directionKey) []oppositeClass {
	var found []oppositeClass
	var pos, neg, rest []int32
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi].h == keys[lo].h && keys[hi].f == keys[lo].f {
			hi++
		}
		f := int(keys[lo].f)
		rest = rest[:0]
		for _, k := range keys[lo:hi] {
			rest = append(rest, k.j)
		}
		for len(rest) > 0 {
			first := int(rest[0])
			pos, neg = pos[:0], neg[:0]
			n := 0
			for _, j := range rest {
				switch {
				case !s.sameDirection(first, int(j), f):
					rest[n] = j
					n++
				case s.a[j][f] > 0:
					pos = append(pos, j)
				default:
					neg = append(neg, j)
				}
			}
			rest = rest[:n]
			if len(pos) > 0 && len(neg) > 0 {
				found = append(found, oppositeClass{slices.Concat(pos, neg), len(pos)})
			}
		}
		lo = hi
	}
	return found
}

// oppositeCertificate looks for two opposite rows whose right-hand sides
// contradict each other (see oppositeRows). In each class in turn, the
// row of each side with the smallest bhat (the lowest index on ties) make
// the pair, weighted by their inverse norms or, failing that, by each
// other's first nonzero; the first pair whose certificate holds in the
// caller's data (farkasHolds) is written into the Result and it returns
// true. Otherwise the Result's certificate is cleared. O(rows with an
// opposite) after the index is built; it allocates only to build it (and
// tiltFarkas when it moves an entry).
func (s *Solver) oppositeCertificate() bool {
	if s.rare == nil || s.rare.opp.start == nil {
		s.buildOpposites()
	}
	o, r := &s.rare.opp, &s.res
	for g := 0; g+1 < len(o.start); g++ {
		lo, mid, hi := o.start[g], o.mid[g], o.start[g+1]
		i, j := s.lowestB(o.rows[lo:mid]), s.lowestB(o.rows[mid:hi])
		if !(s.b[i]+s.b[j] < 0) {
			continue
		}
		clear(r.FarkasA)
		clear(r.FarkasEq)
		big := max(s.ainv[i], s.ainv[j])
		r.FarkasA[i], r.FarkasA[j] = s.ainv[i]/big, s.ainv[j]/big
		// A'y is zero only to the rounding of 1/||a||: a bound far out
		// on the coordinate can turn its sign into the certificate's
		// failure.
		s.tiltFarkas()
		if ok, _ := s.farkasHolds(); ok {
			s.farkasBuilt = true
			return true
		}
		// Each row weighted by the other's first nonzero makes A'y
		// exactly zero where the rows are exact multiples of each other
		// (any two rows of one column), which no bound can spoil.
		f := s.firstNonzero(i)
		yi, yj := math.Abs(s.a[j][f]), math.Abs(s.a[i][f])
		_, e := math.Frexp(max(yi, yj))
		clear(r.FarkasA)
		r.FarkasA[i], r.FarkasA[j] = math.Ldexp(yi, -e), math.Ldexp(yj, -e)
		if ok, _ := s.farkasHolds(); ok {
			s.farkasBuilt = true
			return true
		}
	}
	clear(r.FarkasA)
	clear(r.FarkasEq)
	return false
}

// firstNonzero returns the column of row j's first nonzero entry.
func (s *Solver) firstNonzero(j int) int {
	f := 0
	for f < len(s.a[j])-1 && s.a[j][f] == 0 {
		f++
	}
	return f
}

// lowestB returns the row of rows with the smallest bhat, the first on
// ties.
func (s *Solver) lowestB(rows []int32) int {
	best := int(rows[0])
	for _, j := range rows[1:] {
		if s.b[j] < s.b[best] {
			best = int(j)
		}
	}
	return best
}
