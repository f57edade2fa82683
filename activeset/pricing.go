package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// mostViolated returns, given the working set's residual res (memberResidual
// at s.x) and ||s.x||_inf, the constraint outside the working set with the
// largest violation of the unit rows and bounds at x, if one exceeds both
// PrimalTol (1 + ||x||_inf) and twice the largest residual of the working
// set's own constraints. The latter is the rounding floor of this x: with
// large multipliers v = v_u - N lambda cancels, and the members, which the
// method holds at equality, are off by that much. A row violated by less
// is within rounding of satisfied, and admitting it makes the method cycle
// on rows whose multiplier comes out of the noise with either sign. Ties go
// to the lowest index, rows first.
func (s *Solver) mostViolated(res, xn float64) (constraint, bool) {
	// The floor from the members' residual is capped at driftTol: above it
	// the residual is not rounding (iterate refactors then), and it must
	// never hide a real violation.
	worst := max(s.opt.PrimalTol*(1+xn), min(2*res, driftTol*(1+xn)))
	best, found := constraint{}, false
	// A row whose stored violation plus the drift since is below the
	// threshold is not recomputed (drift.go). Late in a solve x moves
	// little and most rows are skipped.
	s.measureDrift(xn)
	// The last scan's most violated rows come first (shortlist.go).
	// Then the rows most likely to be violated (the pool) are scanned;
	// all rows only when none of them is, and then the pool is rebuilt.
	// Optimality is declared only after a scan of every row. A full scan
	// moves the anchor to x first: the rows it computes are stamped exact.
	if c, v, ok := s.fromShortlist(worst); ok {
		worst, best, found = v, c, true
	} else {
		s.short.filling = true
		if s.poolOK {
			worst, best, found = s.checkRows(s.pool, worst, best, found)
		}
		if !found {
			s.drift.reanchor()
			worst, best, found = s.checkRows(nil, worst, best, found)
			s.rebuildPool()
		}
		s.short.filling, s.short.max = false, worst
		s.short.sort()
	}
	if s.boxed { // else no bound is finite: none is violated
		for i, x := range s.x {
			if s.boundIn[i] != 0 {
				continue
			}
			if v := x - s.up[i]; v > worst && s.boundSkip[i]&skipUpper == 0 {
				worst, best, found = v, constraint{kindUpper, int32(i)}, true
			}
			if v := s.lo[i] - x; v > worst && s.boundSkip[i]&skipLower == 0 {
				worst, best, found = v, constraint{kindLower, int32(i)}, true
			}
		}
	}
	if s.l1 > 0 {
		// A kink capped at +l1 needs x_i >= 0, at -l1 x_i <= 0.
		for i, x := range s.x {
			if v := -float64(s.capSign[i]) * x; !s.kinkIn[i] && v > worst {
				worst, best, found = v, constraint{kindKink, int32(i)}, true
			}
		}
	}
	return best, found
}

// forgetViolations marks every row's stored violation as unknown (after
// the right-hand sides change, or when a row leaves the working set).
func (s *Solver) forgetViolations() {
	for j := range s.rowBnd {
		s.rowBnd[j] = unknownBound
		if s.ainv[j] == 0 {
			s.rowBnd[j] = zeroRowBound // never computed: its bound never passes
		}
	}
	s.poolOK = false
	s.short.clear()
}

// checkRows computes the violation of each row of js (nil: every row)
// unless it is in the working set, zero, or provably below worst (its
// stored violation plus the drift since), and makes the first largest
// above worst the best so far. The rows to compute are taken four at a
// time (violations): a scan's rows come from memory, and four dense rows
// in one vec.Dot4 overlap their loads and read x once (BenchmarkLargeQP,
// BenchmarkDot4). A row chosen while worst was lower than it becomes
// before the four are computed is computed for nothing, never skipped
// wrongly.
//
// Every row is scanned in spans fixed by A's shape (span), each from
// worst with a running maximum of its own, the spans' most violated rows
// combined in span order, the first largest winning: on the team's
// goroutines, whole spans to a goroutine, when there are enough rows to
// pay for it (splits), with the same bits (scanSpans). The pool is
// scanned as one span: its rows are few, and spans of it, each from
// worst, offer the shortlist rows that one running maximum skips, which
// makes later admissions worse (BenchmarkSeparableSVM at m = 1e4: a
// fifth more working-set changes with eight spans).
func (s *Solver) checkRows(js []int32, worst float64, best constraint, found bool) (float64, constraint, bool) {
	if js != nil {
		return s.scanRows(0, len(js), js, worst, best, found, &s.short)
	}
	var r scanResult
	if s.split.rows {
		r = s.scanOnTeam(worst)
	} else {
		r = s.scanSpans(0, s.spans(), worst, &s.short)
	}
	if r.found {
		return r.worst, r.best, true
	}
	return worst, best, found
}

// scanRows is checkRows for the rows js[lo:hi] (rows lo..hi-1 when js is
// nil) in one span, the violated ones offered to short.
func (s *Solver) scanRows(lo, hi int, js []int32, worst float64, best constraint, found bool, short *shortlist) (float64, constraint, bool) {
	rowIn, ainv, bnd := s.rowIn, s.ainv, s.rowBnd
	path, anchor := s.drift.offsets()
	var four [4]int32
	k := 0
	for t := lo; t < hi; t++ {
		j := int32(t)
		if js != nil {
			j = js[t]
		}
		// The bound first: it alone rules out most rows, and a scan then
		// reads 16 bytes a row from one array.
		if b := bnd[j]; min(b.p+path, b.a+anchor) <= worst || rowIn[j] || ainv[j] == 0 || s.rowSkip[j] {
			continue
		}
		four[k] = j
		if k++; k == 4 {
			worst, best, found = s.violations(four[:], worst, best, found, short)
			k = 0
		}
	}
	return s.violations(four[:k], worst, best, found, short)
}

// scanBlockEntries is the entries of A in a span of a scan of every row:
// small enough that the spans, whole ones to a goroutine, balance the
// team's goroutines, large enough that the rows a span computes before
// its running maximum rises are few against its rows.
const scanBlockEntries = 1 << 16

// scanBlockRows is the rows of a span of a scan of every row of n entries.
func scanBlockRows(n int) int { return max(1, scanBlockEntries/max(n, 1)) }

// spans is the number of spans of a scan of every row.
func (s *Solver) spans() int { return (s.m + s.block - 1) / s.block }

// scanSpans scans spans first..end-1 of every row (span i is rows
// i s.block .. (i+1) s.block - 1), each from worst with a running maximum
// of its own, its violated rows offered to short, and returns the spans'
// most violated row above worst, the first largest in span order. What a
// scan computes, stores and finds is thus the same bit for bit however
// the spans are shared among goroutines.
func (s *Solver) scanSpans(first, end int, worst float64, short *shortlist) scanResult {
	r := scanResult{worst: worst}
	for i := first; i < end; i++ {
		lo, hi := i*s.block, min((i+1)*s.block, s.m)
		if w, c, f := s.scanRows(lo, hi, nil, worst, constraint{}, false, short); f && w > r.worst {
			r = scanResult{w, c, true}
		}
	}
	return r
}

// scanOnTeam is scanSpans over every span on the team's goroutines: chunk
// k takes its rows' spans with a shortlist of its own (chunk 0 with
// s.short), and the chunks' most violated rows and shortlists are
// combined in chunk order.
func (s *Solver) scanOnTeam(worst float64) scanResult {
	sc := &s.scan
	sc.worst = worst
	for k := 1; k < len(sc.short); k++ {
		sc.short[k].clear()
		sc.short[k].filling = s.short.filling
	}
	s.team.do(sc.job)
	r := scanResult{worst: worst}
	for k, c := range sc.res {
		if c.found && c.worst > r.worst {
			r = c
		}
		if k > 0 && s.short.filling {
			l := &sc.short[k]
			for e := 0; e < l.n; e++ {
				s.short.add(l.rows[e], l.viol[e])
			}
		}
	}
	return r
}

// parallelScan is the storage of scanOnTeam: the scan's threshold, the
// chunks' shortlists (chunk 0 uses s.short) and results, and the team's
// job, made once.
type parallelScan struct {
	worst float64
	short []shortlist
	res   []scanResult
	job   func(k, lo, hi int)
}

// scanResult is the most violated row above a scan's incoming worst.
type scanResult struct {
	worst float64
	best  constraint
	found bool
}

// newParallelScan sizes s.scan for s.team and makes its job.
func (s *Solver) newParallelScan() {
	c := s.team.chunks()
	s.scan = parallelScan{short: make([]shortlist, c), res: make([]scanResult, c)}
	s.scan.job = func(k, lo, hi int) {
		short := &s.short
		if k > 0 {
			short = &s.scan.short[k]
		}
		// The team's chunks are whole spans (newRowTeam).
		s.scan.res[k] = s.scanSpans(lo/s.block, (hi+s.block-1)/s.block, s.scan.worst, short)
	}
}

// violations computes and stores the violations at s.x of the rows js (at
// most four; vec.Dot4 when there are four dense ones) and, in the order of
// js, makes the first largest above worst the best so far.
func (s *Solver) violations(js []int32, worst float64, best constraint, found bool, short *shortlist) (float64, constraint, bool) {
	var d [4]float64
	sparse := s.sp.sparse
	if len(js) == 4 && (sparse == nil || !sparse[js[0]] && !sparse[js[1]] && !sparse[js[2]] && !sparse[js[3]]) {
		d[0], d[1], d[2], d[3] = vec.Dot4(s.x, s.a[js[0]], s.a[js[1]], s.a[js[2]], s.a[js[3]])
	} else {
		for i, j := range js {
			d[i] = s.rowDot(int(j), s.x)
		}
	}
	path, anchor := s.drift.stamps()
	for i, j := range js {
		v := d[i]*s.ainv[j] - s.b[j]
		s.rowBnd[j] = computedBound(v, path, anchor)
		if v > 0 && short.filling {
			short.add(j, v)
		}
		if v > worst {
			worst, best, found = v, constraint{kindRow, j}, true
		}
	}
	return worst, best, found
}

// measureDrift moves the drift bounds to s.x (||s.x||_inf = xn) and
// restarts those that have grown too long (drift.go).
func (s *Solver) measureDrift(xn float64) {
	path, anchors := s.drift.measure(s.x, xn)
	switch {
	case anchors:
		s.forgetViolations()
		s.drift.restart(s.x)
	case path:
		s.drift.restartPath()
		for j := range s.rowBnd {
			s.rowBnd[j].p = math.Inf(1) // the path bound no longer holds
		}
	}
}

// violationBound is an upper bound on row j's violation at the current
// point: its stored value plus the drift since (drift.go).
func (s *Solver) violationBound(j int) float64 {
	path, anchor := s.drift.offsets()
	return s.rowBnd[j].at(path, anchor)
}
