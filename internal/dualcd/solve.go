package dualcd

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// Solve runs dual coordinate descent from the previous lambda (0 when
// cold) until the certified gap meets the tolerance, the data are proven
// infeasible, or Options.Stop says so. It allocates nothing.
//
// An epoch visits the unshrunk rows in a random order (the same for the
// same seed). A row at lambda_i = 0 whose gradient exceeds the largest
// projected gradient of the previous epoch is shrunk (LIBLINEAR's rule):
// it is likely to stay at 0. When the projected gradients of the active
// rows agree to eps, every row is brought back; when they agree with all
// rows in, the certificate is computed, and eps tightened tenfold if the
// gap is not yet below the tolerance.
func (w *Workspace) Solve() *Result {
	p := &w.p
	m := p.A.Rows
	res := &w.res
	*res = Result{Status: Stopped, X: w.xc, Lambda: w.lam, Gap: math.Inf(1)}
	w.rng = w.opt.Seed*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d
	w.rows, w.farkasAt, w.finishNext = 0, 0, finishFirst
	for i := range w.order {
		w.order[i] = int32(i)
	}
	w.active = m
	if w.pairI >= 0 {
		clear(w.y)
		w.y[w.pairI], w.y[w.pairJ] = 1, 1
		if w.checkFarkas() {
			res.Status, res.Farkas = Infeasible, w.y
			return res
		}
	}
	w.primalFromDual()
	eps := 0.1
	shrinkAbove := math.Inf(1)
	check := 16 // the next epoch certified whatever the gradients say
	for epoch := 0; ; epoch++ {
		res.Epochs, res.Rows = epoch, w.rows
		if epoch >= w.opt.MaxEpochs || (w.opt.Stop != nil && w.opt.Stop(w.rows)) {
			w.certify()
			return res
		}
		pgMax, pgMin := w.epoch(shrinkAbove)
		if epoch == check {
			// Certified at intervals too (16, 32, 64, then every 64
			// epochs, a few percent of the passes): a gap may meet the
			// tolerance before the gradients agree, and infeasible data
			// never converge.
			check += min(check, 64)
			if st, done := w.certify(); done {
				res.Status = st
				return res
			}
			if w.finish(epoch) {
				if st, done := w.certify(); done {
					res.Status = st
					return res
				}
				w.active, shrinkAbove = m, math.Inf(1)
			}
			if w.opt.Progress != nil {
				w.opt.Progress(epoch, w.rows, res.Gap)
			}
		}
		if pgMax-pgMin > eps {
			shrinkAbove = math.Inf(1)
			if pgMax > 0 {
				shrinkAbove = pgMax
			}
			continue
		}
		if w.active < m {
			w.active, shrinkAbove = m, math.Inf(1)
			continue
		}
		if st, done := w.certify(); done {
			res.Status = st
			return res
		}
		if w.opt.Progress != nil {
			w.opt.Progress(epoch, w.rows, res.Gap)
		}
		if eps < 1e-15 {
			res.Status = Stalled
			return res
		}
		eps /= 10
	}
}

// epoch makes one pass over the active rows and returns the largest and
// smallest projected gradient seen.
func (w *Workspace) epoch(shrinkAbove float64) (pgMax, pgMin float64) {
	p := &w.p
	pgMax, pgMin = math.Inf(-1), math.Inf(1)
	// Fisher-Yates on the active rows, xorshift64* for the draws.
	for k := w.active - 1; k > 0; k-- {
		w.rng ^= w.rng >> 12
		w.rng ^= w.rng << 25
		w.rng ^= w.rng >> 27
		r := int((w.rng * 2685821657736338717) >> 33 % uint64(k+1))
		w.order[k], w.order[r] = w.order[r], w.order[k]
	}
	for k := 0; k < w.active; {
		i := w.order[k]
		w.prefetch(k)
		idx, val := p.A.Row(int(i))
		g := p.B[i] - vec.DotSparse(idx, val, w.x) // d phi / d lambda_i = b_i - a_i'x
		pg := g
		if w.lam[i] == 0 {
			if g > shrinkAbove {
				w.active--
				w.order[k], w.order[w.active] = w.order[w.active], w.order[k]
				continue
			}
			pg = min(g, 0)
		}
		pgMax, pgMin = max(pgMax, pg), min(pgMin, pg)
		if pg != 0 && w.qii[i] > 0 {
			old := w.lam[i]
			w.lam[i] = max(old-g/w.qii[i], 0)
			if d := (w.lam[i] - old) / p.Ridge; d != 0 {
				vec.AxpySparse(-d, idx, val, w.x)
			}
		}
		k++
	}
	w.rows += int64(w.active)
	if pgMax < pgMin { // no active row
		pgMax, pgMin = 0, 0
	}
	return pgMax, pgMin
}

// prefetch asks for the rows visited after the k-th of the order: the
// place in the matrix of the one two ahead, the indices, values and
// multiplier of the next. Rows are visited in a random order, so without
// it each row's first lines are a miss the step waits for (on data larger
// than the caches, most of an epoch). A shrink reorders the rows ahead;
// a prefetch of a row no longer next costs a line, nothing else.
func (w *Workspace) prefetch(k int) {
	a := w.p.A
	if k+2 < w.active {
		vec.Prefetch(a.Ptr, int(w.order[k+2]))
	}
	if k+1 < w.active {
		j := int(w.order[k+1])
		lo := a.Ptr[j]
		vec.Prefetch(a.Idx, lo)
		vec.Prefetch(a.Val, lo)
		vec.Prefetch(w.lam, j)
	}
}

// finish calls Options.Finish when it is due and keeps its lambda if every
// entry is >= 0 and finite; it reports whether lambda changed. The first
// call is at epoch finishFirst, the next ones each time the epochs have
// doubled. The epochs between bring in the rows the new point violates
// and settle the multipliers near 0: on the separable text set of
// scripts/liblinear, with a finisher of projected Newton alone, a second
// call 64 epochs after the first took 20 iterations, where one after the
// doubling took 5 and the whole solve half the time.
func (w *Workspace) finish(epoch int) bool {
	if w.opt.Finish == nil || epoch < w.finishNext {
		return false
	}
	w.finishNext = 2 * epoch
	copy(w.y, w.lam)
	if !w.opt.Finish(w.lam) {
		copy(w.lam, w.y)
		return false
	}
	for _, l := range w.lam {
		if !(l >= 0) || math.IsInf(l, 1) { // NaN too
			copy(w.lam, w.y)
			return false
		}
	}
	return true
}

// finishFirst is the epoch of the first call of Options.Finish: on the
// separable text data of scripts/liblinear the rows with a positive
// multiplier are then those of the answer but for a few percent, where at
// 64 epochs they were a third more, and the restricted dual on them took
// longer than the epochs it saves. With the solver's interior-point
// finisher (rows joining at each decimal digit of its accuracy), first
// calls at 64, 128 and 256 epochs took 10.0, 7.9 and 8.2 s against 7.8 s
// on the separable Go-source set, and 10.3, 10.1 and 10.3 s against
// 10.0 s on gotext-noisy (whole processes, one run each).
const finishFirst = 512
