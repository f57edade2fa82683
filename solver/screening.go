package solver

import (
	"math"

	"github.com/softpen/softpen/screen"
)

// screenRows applies the chosen screening rule at the end of a stage to the
// stage's output state.x, moving the dropped rows behind the kept ones (the
// inner loops then stream only kept rows) and recording their caller
// indices. Equality rows are never dropped. The safe rules assume
// xi >= xi_bar, which saturated multipliers deny: they then drop nothing;
// the paper's experimental rule screens regardless, as its run did.
func (s *Solver) screenRows(rn *run, saturated bool) {
	if s.opt.Screen == ScreenNone || s.kept == 0 {
		return
	}
	var thr float64
	at := s.state.x // the point whose residuals decide
	switch s.opt.Screen {
	case ScreenPaperExperiment:
		thr = screen.PaperExperimentThreshold(s.kept, rn.delta)
	case ScreenPaper:
		if saturated {
			return
		}
		thr = screen.PaperThreshold(s.kept, rn.xi, s.mu, rn.delta)
	case ScreenGapSafe:
		if saturated {
			return
		}
		// The rule needs the gap of the point it screens at: use the best
		// certified point and its residuals. The next stage starts from
		// it too, except for SGD and SGDM: their stage's answer is an
		// average of more samples than any earlier one, and a best point
		// that is an earlier, noisier average sets the next stage back
		// (paper QP, seed 3, before certifyPoint paired points with the
		// best multipliers: every stage from the 7th restarted 1.7e-3 away
		// from the last answer, which was at 1.1e-4 relative error). For
		// the deterministic methods the best point is the better start:
		// separable SVM of the root benchmarks, m = 1e4 / 1e5 / 1e6:
		// 12.9e6 / 14.0e6 / 22.8e6 steps, 16.2e6 / 14.2e6 / 23.6e6 from
		// the stage's output (the paper QPs: no difference).
		thr = screen.GapSafeThreshold(rn.bestGap, s.mu)
		at = s.state.best
		if rn.method != MethodSGD && rn.method != MethodSGDM {
			copy(s.state.x, s.state.best)
		}
	}
	if math.IsInf(thr, -1) {
		return
	}
	r := s.state.r[:s.kept]
	s.residual(r, at)
	w := 0
	for k := 0; k < s.kept; k++ {
		if r[k] < thr && !s.code[k].isEq() {
			continue
		}
		if w != k {
			s.swapRows(w, k)
		}
		w++
	}
	s.kept = w
	s.updateSmax()
}

// screenFinal applies the gap-safe rule once more with the final
// certificate and returns how many kept rows it proves inactive, adding
// their caller indices to Result.Dropped. A solved answer's gap is far
// smaller than the stages' gaps, so it proves many more rows inactive than
// the working set shows (a separable SVM with m = 1e5, n = 50: 7909 rows
// kept before it). Only rows whose multiplier in the certificate is exactly
// 0 count, so the answer, its multipliers and its gap are those of the
// reported rows. The rows stay in the kept block: moving them would make
// the next solve re-estimate ||A|| (on the paper QP that cost 95 us of a
// 150 us warm solve).
func (s *Solver) screenFinal(rn *run) int {
	if s.opt.Screen != ScreenGapSafe || s.kept == 0 {
		return 0
	}
	thr := screen.GapSafeThreshold(rn.bestGap, s.mu)
	if math.IsInf(thr, -1) {
		return 0
	}
	r := s.state.r[:s.kept]
	s.residual(r, s.state.best)
	dropped := 0
	for k, v := range r {
		if v < thr && !s.code[k].isEq() && s.state.lamBest[k] == 0 {
			s.res.Dropped = append(s.res.Dropped, s.code[k].ineqRow())
			dropped++
		}
	}
	return dropped
}

// swapRows exchanges working rows i and j with everything that goes with
// them, so that the full set stays intact behind the kept block. In lazy
// mode only rows inside the kept block carry data; a row that enters the
// block from outside is materialized by the caller.
func (s *Solver) swapRows(i, j int) {
	if !s.lazy || i < s.kept && j < s.kept {
		ri, rj := s.a.Row(i), s.a.Row(j)
		for c := range ri {
			ri[c], rj[c] = rj[c], ri[c]
		}
	}
	s.b[i], s.b[j] = s.b[j], s.b[i]
	s.code[i], s.code[j] = s.code[j], s.code[i]
	s.norm[i], s.norm[j] = s.norm[j], s.norm[i]
	s.state.lamBest[i], s.state.lamBest[j] = s.state.lamBest[j], s.state.lamBest[i]
}

// useWorkingSet reports whether Solve starts from a working set of rows.
func (s *Solver) useWorkingSet() bool {
	return !s.opt.AllRows && s.mw >= wsMinRows && s.mw >= wsRowsPerVar*s.n
}

// selectRows makes the working set at the start point x: every equality
// row, and of the rows that x violates or nearly meets
// (a_k^T x - b_k >= -1e-9 (1 + |b_k|), which keeps the active rows of a warm
// start) the wsBatch(n) with the largest residuals, and stores them (lazy
// mode: the residuals come from the caller's rows, nothing else is stored).
func (s *Solver) selectRows(x []float64) {
	s.kept = 0
	r := s.state.r[:s.mw]
	for k := range r {
		r[k] = s.rowResidual(k, x)
	}
	cand := s.state.lam[:0]
	for k, rk := range r {
		if rk >= -1e-9*(1+math.Abs(s.b[k])) && !s.code[k].isEq() {
			cand = append(cand, rk)
		}
	}
	cut, room := admitCut(cand, s.wsBatch())
	w := 0
	for k := 0; k < s.mw; k++ {
		if !s.code[k].isEq() {
			if r[k] < -1e-9*(1+math.Abs(s.b[k])) || r[k] < cut || r[k] == cut && room == 0 {
				continue
			}
			if r[k] == cut {
				room--
			}
		}
		if w != k {
			s.swapRows(w, k)
			r[w], r[k] = r[k], r[w]
		}
		w++
	}
	s.reserveRows(w)
	for k := 0; k < w; k++ {
		s.materialize(k)
	}
	s.kept = w
	s.updateSmax()
}

// wsBatch is the most rows one working-set step admits: a few per variable,
// since a strongly convex problem in n variables has at most about n active
// rows at a non-degenerate solution.
func (s *Solver) wsBatch() int { return wsBatchPerVar * s.n }

// admitCut returns the residual from which rows are admitted when at most
// limit of the candidates v may be: -Inf (all) when they fit, otherwise the
// limit-th largest of v, with room the number of rows equal to it that may
// still be admitted. It reorders v.
func admitCut(v []float64, limit int) (cut float64, room int) {
	if len(v) <= limit {
		return math.Inf(-1), len(v)
	}
	cut = selectLargest(v, limit)
	above := 0
	for _, x := range v {
		if x > cut {
			above++
		}
	}
	return cut, limit - above
}

// selectLargest reorders v so that its k largest values come first and
// returns the k-th largest (1 <= k <= len(v)): quickselect with a
// median-of-three pivot, deterministic and allocation-free.
func selectLargest(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	t := k - 1 // index of the answer in descending order
	for lo < hi {
		mid := lo + (hi-lo)/2
		a, b, c := v[lo], v[mid], v[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for v[i] > p {
				i++
			}
			for v[j] < p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case t <= j:
			hi = j
		case t >= i:
			lo = i
		default:
			return v[t]
		}
	}
	return v[t]
}

// readmit is called when the best point is certified on the kept rows. It
// admits the rows outside the kept block that the best point violates (see
// admitViolated) and reports whether there was one; the solve then goes on
// from the best point, with delta raised to the worst violation (at most the
// first delta) unless it is static.
func (s *Solver) readmit(rn *run) bool {
	worst := s.admitViolated(rn, s.state.best)
	if worst == 0 {
		return false
	}
	copy(s.state.x, s.state.best)
	if !s.opt.Static {
		rn.delta = math.Min(s.firstDelta(rn.xi), math.Max(rn.delta, worst))
	}
	return true
}

// admitViolated moves the rows outside the kept block that x violates
// (a_k^T x - b_k > 0), the wsBatch(n) most violated when there are more,
// into the kept block and returns the worst violation (0: none). Admitting
// a row changes the problem on the kept rows, so the certificate so far is
// dropped. After wsMaxRounds admissions every row comes back.
func (s *Solver) admitViolated(rn *run, x []float64) float64 {
	out := s.state.r[s.kept:s.mw]
	cand := s.state.lam[:0]
	worst := 0.0
	for i := range out {
		out[i] = s.rowResidual(s.kept+i, x)
		if out[i] > 0 {
			cand = append(cand, out[i])
			worst = math.Max(worst, out[i])
		}
	}
	if len(cand) == 0 {
		return 0
	}
	cut, room := admitCut(cand, s.wsBatch())
	r := s.state.r
	for k := s.kept; k < s.mw; k++ {
		if r[k] <= 0 || r[k] < cut || r[k] == cut && room == 0 {
			continue
		}
		if r[k] == cut {
			room--
		}
		s.swapRows(s.kept, k)
		r[s.kept], r[k] = r[k], r[s.kept]
		if s.lazy {
			s.reserveRows(s.kept + 1)
			s.materialize(s.kept)
		}
		s.kept++
	}
	rn.rounds++
	if rn.rounds > wsMaxRounds {
		s.restoreRows()
	} else {
		s.updateSmax()
	}
	rn.bestGap, rn.bestG = math.Inf(1), math.Inf(-1)
	return worst
}

// outsidePenalty is xi * sum (a_k^T x - b_k)_+ over the rows outside the
// kept block: what the penalised objective of the whole problem adds to
// that of the kept rows at x.
func (s *Solver) outsidePenalty(x []float64, xi float64) float64 {
	var p float64
	for k := s.kept; k < s.mw; k++ {
		if rk := s.rowResidual(k, x); rk > 0 {
			p += rk
		}
	}
	return xi * p
}

// restoreRows brings every working row back into the problem at the start
// of a solve. Row order may differ from the first solve's; nothing depends
// on it except the order of sampling, which is why a screened solve is
// reproducible from the same Solver state, not across states.
func (s *Solver) restoreRows() {
	if s.kept != s.mw {
		if s.lazy {
			s.reserveRows(s.mw)
			for k := s.kept; k < s.mw; k++ {
				s.materialize(k)
			}
		}
		s.kept = s.mw
		s.updateSmax()
	}
}
