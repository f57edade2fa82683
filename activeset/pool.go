package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// The pool: the rows a search scans first. Each working-set change admits
// the most violated row, and most of the time it is among the rows whose
// violation bounds (drift.go) were largest at the last scan of every row:
// those rows are the pool, and a search recomputes them first (after the
// shortlist, shortlist.go). Only when none of them is violated are all
// rows scanned, and that scan picks the next pool as it goes
// (poolPicker): the rows' bounds are read once per scan, by the scan.
// Picking the pool in a pass of its own after the scan read the 16-byte
// bounds of every row twice more (an estimate of the cut over every
// eighth row, which touches half the cache lines, and a pass for the rows
// above it): on the large QP at m = 250000, 4 MB of bounds that no longer
// fit the L2 cache, 8 ms of a 65 ms solve. The pool only orders the
// search, so any choice is correct; this one is the rows of the largest
// bounds, ties aside.

// poolSize is the number of rows in the pool: enough for the rows a solve
// admits (at most n are active) and those it tries, and 4 sqrt(m), which
// balances the pool's scan at every working-set change against the full
// scans that follow once no pool row is violated. Measured on separable
// SVMs (n = 50) hot-started from a 5% sample's active set, the best pool
// was 1024 at m = 62500 and 125000, 2048 at 250000, 1024..4096 at 1e6,
// where the fixed 512 took 2.5 s instead of 0.24 s (more full scans of
// 400 MB of rows); the large QP (n = 100, m = 1e5) does not mind (800,
// 1265, 2048: within noise).
func poolSize(n, m int) int { return max(512, 8*n, 4*int(math.Sqrt(float64(m)))) }

// poolPicker keeps the k rows of largest bound among those offered to it,
// in one pass and O(1) amortised per row: offered rows above the cut go
// into a buffer of 4k, and when it is full the k-th largest of the buffer
// becomes the cut and only the rows above it (and ties up to k) stay. The
// cut rises quickly, so most rows cost one comparison.
type poolPicker struct {
	cand  []int32   // the rows kept, capacity 4k
	score []float64 // their bounds
	tmp   []float64 // the selection's scratch, capacity 4k
	cut   float64   // rows at or below it are not kept
	on    bool      // a full scan is offering its rows (checkRows, violations)
}

// newPoolPicker returns a picker for pools of k rows.
func newPoolPicker(k int) poolPicker {
	return poolPicker{cand: make([]int32, 0, 4*k), score: make([]float64, 0, 4*k), tmp: make([]float64, 4*k)}
}

// start empties the picker and turns it on.
func (p *poolPicker) start() {
	p.cand, p.score = p.cand[:0], p.score[:0]
	p.cut, p.on = math.Inf(-1), true
}

// offer proposes row j with bound b: kept if b is above the cut. A bound of
// -Inf (a zero row) is never kept.
func (p *poolPicker) offer(j int32, b float64) {
	if b <= p.cut {
		return
	}
	if len(p.cand) == cap(p.cand) {
		p.keep(cap(p.cand) / 4)
		if b <= p.cut {
			return
		}
	}
	p.cand, p.score = append(p.cand, j), append(p.score, b)
}

// keep reduces the rows kept to the k of largest bound (those above the
// k-th largest, then ties with it in the order offered), and makes the k-th
// largest the cut. Nothing changes with at most k rows kept.
func (p *poolPicker) keep(k int) {
	if len(p.cand) <= k {
		return
	}
	tmp := p.tmp[:len(p.score)]
	copy(tmp, p.score)
	kth := vec.SelectLargest(tmp, k)
	above := 0
	for _, b := range p.score {
		if b > kth {
			above++
		}
	}
	ties := k - above // the ties kept, first offered first
	n := 0
	for i, b := range p.score {
		if b > kth || b == kth && ties > 0 {
			if b == kth {
				ties--
			}
			p.cand[n], p.score[n] = p.cand[i], b
			n++
		}
	}
	p.cand, p.score = p.cand[:n], p.score[:n]
	p.cut = kth
}

// takePool turns the picker off and makes its rows the pool; the pool is
// valid only when it is full (with fewer rows above -Inf outside the
// working set, a full scan costs little more than the pool's).
func (s *Solver) takePool() {
	k := cap(s.pool)
	s.pick.on = false
	s.pick.keep(k)
	s.pool = append(s.pool[:0], s.pick.cand...)
	s.poolOK = k > 0 && len(s.pool) == k
}

// rebuildPool picks the pool from the bounds as they stand, in a pass of
// its own (after a hot start; the searches' full scans pick it as they
// go).
func (s *Solver) rebuildPool() {
	k := cap(s.pool)
	if k == 0 {
		s.poolOK = false
		return
	}
	path, anchor := s.drift.offsets()
	s.pick.start()
	for j, b := range s.rowBnd {
		if v := b.at(path, anchor); v > s.pick.cut && !s.rowIn[j] {
			s.pick.offer(int32(j), v)
		}
	}
	s.takePool()
}
