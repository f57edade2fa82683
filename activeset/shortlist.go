package activeset

// Partial pricing: the rows to admit next are looked for first among the
// few most violated rows of the last scan.
//
// Each working-set change of the method admits the most violated row, and
// finding it costs a scan of the pool (rebuildPool) in which every row
// whose stored violation plus the drift of x since (drift.go) exceeds the
// largest violation found is recomputed: on the large-QP family a good
// part of the pool per change, because the rows near the optimal face are
// within the drift of x's steps. Any violated row keeps the dual method correct (its objective
// rises with any of them); the most violated is a heuristic for fewer
// changes. The simplex codes' partial pricing takes the same view: the
// rows most violated at the last scan stay the best candidates for a few
// changes. So a scan keeps its shortlistSize most violated rows; the next
// searches recompute only those, and admit the most violated of them while
// it is violated by at least shortlistRatio of what the last scan found;
// otherwise they scan (and refill the list). Optimality is still declared
// only after a scan of every row. The list cuts the row products of a
// solve several times over for about as many working-set changes
// (BenchmarkLargeQP, BenchmarkSeparableSVM).

// shortlistSize is the number of rows a scan keeps for the next searches:
// enough to hold the rows a few changes admit, few enough that
// recomputing them (four Dot4 calls) costs little against a scan.
const shortlistSize = 16

// shortlistRatio is the fraction of the last scan's largest violation
// below which the shortlist's best row is not admitted and the search
// scans again: the list has gone stale.
const shortlistRatio = 0.5

// shortlist is the last scan's most violated rows (violation > 0), at most
// shortlistSize, and the largest violation that scan found. Which rows it
// keeps depends only on the rows offered, not on their order: the most
// violated, of equal violations the lowest rows (add). A scan split among
// goroutines (scanOnTeam) thus keeps the rows one goroutine keeps, and
// sort puts them in one order, the rows' own.
type shortlist struct {
	rows    [shortlistSize]int32
	viol    [shortlistSize]float64
	n       int
	lowest  int     // the entry add replaces first (below), when n == shortlistSize
	max     float64 // the largest violation of the scan that filled the list
	filling bool    // a scan is running: violations adds the rows it computes
}

// clear empties the list.
func (l *shortlist) clear() { l.n, l.filling = 0, false }

// add offers row j, violated by v > 0: it goes in while the list has room,
// or in place of the entry that ranks last (the least violated, of equal
// violations the highest row) if it ranks above that entry. The list
// holds no row twice: a scan offers each row once.
func (l *shortlist) add(j int32, v float64) {
	if l.n < shortlistSize {
		l.rows[l.n], l.viol[l.n] = j, v
		l.n++
		if l.n == shortlistSize {
			l.findLowest()
		}
		return
	}
	if e := l.lowest; v > l.viol[e] || v == l.viol[e] && j < l.rows[e] {
		l.rows[e], l.viol[e] = j, v
		l.findLowest()
	}
}

// findLowest sets lowest to the entry that ranks last.
func (l *shortlist) findLowest() {
	l.lowest = 0
	for i, v := range l.viol[:l.n] {
		if e := l.lowest; v < l.viol[e] || v == l.viol[e] && l.rows[i] > l.rows[e] {
			l.lowest = i
		}
	}
}

// sort orders the entries by row (an insertion sort: there are at most
// shortlistSize), so that fromShortlist's ties and groups of four do not
// depend on the order in which a scan offered the rows.
func (l *shortlist) sort() {
	for i := 1; i < l.n; i++ {
		for k := i; k > 0 && l.rows[k] < l.rows[k-1]; k-- {
			l.rows[k], l.rows[k-1] = l.rows[k-1], l.rows[k]
			l.viol[k], l.viol[k-1] = l.viol[k-1], l.viol[k]
		}
	}
	if l.n == shortlistSize {
		l.findLowest()
	}
}

// fromShortlist recomputes the shortlist's rows at s.x (those still
// outside the working set and not skipped) and returns the most violated
// of them, with its violation, if it exceeds worst and shortlistRatio of
// the last scan's largest violation; otherwise it empties the list and
// reports false. The drift must be at s.x (measureDrift).
func (s *Solver) fromShortlist(worst float64) (constraint, float64, bool) {
	l := &s.short
	var js [4]int32
	k := 0
	best, found := constraint{}, false
	for _, j := range l.rows[:l.n] {
		if s.rowIn[j] || s.rowSkip[j] {
			continue
		}
		js[k] = j
		if k++; k == 4 {
			worst, best, found = s.violations(js[:], worst, best, found, &s.short)
			k = 0
		}
	}
	worst, best, found = s.violations(js[:k], worst, best, found, &s.short)
	if !found || worst < shortlistRatio*l.max {
		l.clear()
		return constraint{}, 0, false
	}
	return best, worst, true
}
