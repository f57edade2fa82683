package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// poolSize is the number of rows scanned first (rebuildPool): enough for
// the rows a solve admits (at most n are active) and those it drops, and
// 4 sqrt(m), which balances the pool's scan at every working-set change
// against the full scans that follow once no pool row is violated: a pool
// too small for m (a fixed 512 at m = 1e6) makes a hot-started separable
// SVM scan every row many times more often (BenchmarkSeparableSVM), while
// the large QP is indifferent to the pool's size (BenchmarkLargeQP).
func poolSize(n, m int) int { return max(512, 8*n, 4*int(math.Sqrt(float64(m)))) }

// poolStride is the spacing of the rows whose bounds estimate the pool's
// cut (rebuildPool).
const poolStride = 8

// rebuildPool keeps in the pool the cap(s.pool) rows outside the working
// set whose violation bound (stored violation plus drift) is largest: the
// rows the next iterations are likely to admit. The pool only orders the
// scan, so any choice is correct.
//
// The k-th largest bound of all rows is estimated first as the
// (k/poolStride)-th largest of every poolStride-th row; only the rows at or
// above that estimate are then ranked (up to 4k of them, else all rows
// are). A selection over all m bounds would be half the cost of a
// rebuild, and a solve on many rows rebuilds after each of its full scans
// (BenchmarkLargeQP). Both passes over the rows run on the team's
// goroutines when they are long enough (split), their lists joined in row
// order: the same pool on any number.
func (s *Solver) rebuildPool() {
	k := cap(s.pool)
	if k == 0 || s.m <= k {
		s.poolOK = false
		return
	}
	score := s.sampledBounds()
	if len(score) <= k/poolStride {
		s.poolOK = false // nearly every row is in the working set or zero
		return
	}
	// The rows at or above the estimated cut, and their bounds, unless
	// there are too many of them (ties after forgetViolations): then all
	// rows are ranked.
	cand, score, all := s.poolCandidates(vec.SelectLargest(score, k/poolStride))
	if all {
		score = s.poolScore[:0]
		for j := 0; j < s.m; j++ {
			if !s.rowIn[j] && s.ainv[j] != 0 {
				score = append(score, s.violationBound(j))
			}
		}
	}
	s.pool = s.pool[:0]
	if !all && len(cand) <= k {
		s.pool = append(s.pool, cand...)
		s.poolOK = true
		return
	}
	if len(score) <= k {
		s.poolOK = false
		return
	}
	cut := vec.SelectLargest(score, k)
	if !all {
		for _, j := range cand {
			if len(s.pool) < k && s.violationBound(int(j)) >= cut {
				s.pool = append(s.pool, j)
			}
		}
	} else {
		for j := 0; j < s.m && len(s.pool) < k; j++ {
			if !s.rowIn[j] && s.ainv[j] != 0 && s.violationBound(j) >= cut {
				s.pool = append(s.pool, int32(j))
			}
		}
	}
	s.poolOK = true
}

// sampledBounds returns, in s.poolScore, the violation bounds of the rows
// j = 0, poolStride, 2 poolStride, ... outside the working set and not
// zero, in row order.
func (s *Solver) sampledBounds() []float64 {
	if !s.split.sample {
		return s.sampleRows(s.poolScore[:0], 0, s.m)
	}
	pt := s.poolTeam
	pt.sampling = true
	s.team.do(pt.job)
	// Chunk k wrote from the slot of its first row, at or beyond the end
	// of the chunks before it (sampleSlot).
	score := s.poolScore[:pt.n[0]]
	for k := 1; k < len(pt.n); k++ {
		at := sampleSlot(s.team.bounds[k])
		score = append(score, s.poolScore[at:at+pt.n[k]]...)
	}
	return score
}

// sampleSlot is the number of rows before row lo that rebuildPool samples.
func sampleSlot(lo int) int { return (lo + poolStride - 1) / poolStride }

// sampleRows appends to dst the bounds of the sampled rows among rows
// lo..hi-1 (sampledBounds).
func (s *Solver) sampleRows(dst []float64, lo, hi int) []float64 {
	path, anchor := s.drift.offsets()
	for j := sampleSlot(lo) * poolStride; j < hi; j += poolStride {
		if !s.rowIn[j] && s.ainv[j] != 0 {
			dst = append(dst, s.rowBnd[j].at(path, anchor))
		}
	}
	return dst
}

// poolCandidates returns, in s.poolCand and s.poolScore, the rows outside
// the working set and not zero whose violation bound is at least cut, and
// their bounds, in row order, and whether there are more than
// cap(s.poolCand) (then the lists are not all of them).
func (s *Solver) poolCandidates(cut float64) ([]int32, []float64, bool) {
	cand, score := s.poolCand[:0], s.poolScore[:0]
	if !s.split.rows {
		return s.candidateRows(cand, score, 0, s.m, cut)
	}
	pt := s.poolTeam
	pt.sampling, pt.cut = false, cut
	s.team.do(pt.job)
	over := pt.over[0]
	cand, score = cand[:pt.n[0]], score[:pt.n[0]]
	for k := 1; k < len(pt.n) && !over; k++ {
		if over = pt.over[k] || len(cand)+pt.n[k] > cap(cand); !over {
			cand, score = append(cand, pt.cand[k][:pt.n[k]]...), append(score, pt.score[k][:pt.n[k]]...)
		}
	}
	return cand, score, over
}

// candidateRows appends to cand and score the rows among lo..hi-1 that
// poolCandidates lists, and their bounds, up to cap(cand) of them, and
// reports whether there are more.
func (s *Solver) candidateRows(cand []int32, score []float64, lo, hi int, cut float64) ([]int32, []float64, bool) {
	path, anchor := s.drift.offsets()
	for j := lo; j < hi; j++ {
		if v := s.rowBnd[j].at(path, anchor); v >= cut && !s.rowIn[j] && s.ainv[j] != 0 {
			if len(cand) == cap(cand) {
				return cand, score, true
			}
			cand, score = append(cand, int32(j)), append(score, v)
		}
	}
	return cand, score, false
}

// poolTeam is the storage of rebuildPool's passes on the team: which pass
// runs (and the candidates' cut), each chunk's count of rows found and
// whether it found more than it holds, the candidates of chunks 1, 2,
// ... (chunk 0's go to s.poolCand and s.poolScore), and the job, made
// once.
type poolTeam struct {
	sampling bool
	cut      float64
	n        []int
	over     []bool
	cand     [][]int32
	score    [][]float64
	job      func(k, lo, hi int)
}

// newPoolTeam makes s.poolTeam, sized for s.team and s.pool, and its job.
func (s *Solver) newPoolTeam() {
	c, room := s.team.chunks(), cap(s.poolCand)
	pt := new(poolTeam)
	s.poolTeam = pt
	pt.n, pt.over = make([]int, c), make([]bool, c)
	pt.cand, pt.score = make([][]int32, c), make([][]float64, c)
	for k := 1; k < c; k++ {
		pt.cand[k], pt.score[k] = make([]int32, 0, room), make([]float64, 0, room)
	}
	pt.job = func(k, lo, hi int) {
		if pt.sampling {
			at := sampleSlot(lo)
			pt.n[k] = len(s.sampleRows(s.poolScore[at:at], lo, hi))
			return
		}
		cand, score := s.poolCand[:0], s.poolScore[:0]
		if k > 0 {
			cand, score = pt.cand[k][:0], pt.score[k][:0]
		}
		cand, _, pt.over[k] = s.candidateRows(cand, score, lo, hi, pt.cut)
		pt.n[k] = len(cand)
	}
}
