package dualcd

import (
	"math"
	"slices"

	"github.com/softpen/softpen/mat"
)

// The commonest infeasibility of real classification data is one example
// under both labels: in the hard-margin SVM's rows a_i = -y_i x_i that is
// a pair of rows with a_i = -a_j, and y = e_i + e_j is an exact Farkas
// certificate (A'y = 0 with no rounding at all, b'y = b_i + b_j < 0).
// Coordinate descent finds it only slowly when such pairs are many and
// come in groups of unequal sizes (an example three times under one label
// and once under the other): lambda then grows along every group at once,
// with weights no rounding of lambda recovers. So New looks for such a
// pair directly, by hashing the rows up to sign, in O(nnz + m log m).

// antipodalPair returns rows i != j of a with a_i = -a_j exactly — the same
// columns, each value the negation of the other's — or -1, -1 if there is
// none. Rows with no nonzero value are skipped (certify handles them).
func antipodalPair(a *mat.Sparse) (int, int) {
	m := a.Rows
	hash := make([]uint64, m)
	rows := make([]int32, 0, m)
	for i := 0; i < m; i++ {
		idx, val := a.Row(i)
		s := leadSign(val)
		if s == 0 {
			continue
		}
		h := uint64(len(idx))*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d
		for k, j := range idx {
			h = mix(h ^ uint64(j))
			h = mix(h ^ math.Float64bits(s*val[k]+0)) // +0 folds -0 into 0
		}
		hash[i] = h
		rows = append(rows, int32(i))
	}
	slices.SortFunc(rows, func(p, q int32) int {
		if hash[p] != hash[q] {
			if hash[p] < hash[q] {
				return -1
			}
			return 1
		}
		return int(p - q)
	})
	// Within a run of equal hashes, reps are its distinct rows up to sign
	// (first occurrences); each row is either a copy of one, the negation
	// of one (the pair), or a new one. A run almost always holds copies of
	// a single row, so this is linear in the run.
	var reps []int
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && hash[rows[hi]] == hash[rows[lo]] {
			hi++
		}
		reps = reps[:0]
	row:
		for _, r := range rows[lo:hi] {
			i := int(r)
			for _, k := range reps {
				if sameRow(a, k, i, 1) {
					continue row
				}
				if sameRow(a, k, i, -1) {
					return k, i
				}
			}
			reps = append(reps, i)
		}
		lo = hi
	}
	return -1, -1
}

// leadSign is the sign of the first nonzero value (0 if there is none).
func leadSign(val []float64) float64 {
	for _, v := range val {
		if v > 0 {
			return 1
		}
		if v < 0 {
			return -1
		}
	}
	return 0
}

// sameRow reports whether rows i and j of a have the same columns and
// a_j = s a_i value by value (s = 1 or -1).
func sameRow(a *mat.Sparse, i, j int, s float64) bool {
	ii, vi := a.Row(i)
	ij, vj := a.Row(j)
	if len(ii) != len(ij) {
		return false
	}
	for k := range ii {
		if ii[k] != ij[k] || vj[k] != s*vi[k] {
			return false
		}
	}
	return true
}

// mix is a 64-bit finaliser (splitmix64's): every input bit moves every
// output bit.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}
