package solver

import (
	"math"
	"slices"

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
		thr = screen.PaperExperimentThreshold(s.kept, rn.sched.delta)
	case ScreenPaper:
		if saturated {
			return
		}
		thr = screen.PaperThreshold(s.kept, rn.sched.xi, s.mu, rn.sched.delta)
	case ScreenGapSafe:
		if saturated {
			return
		}
		// The rule needs the gap of the point it screens at: use the best
		// certified point and its residuals. The next stage starts from
		// it too, except for SGD and SGDM: their stage's answer is an
		// average of more samples than any earlier one, and a best point
		// that is an earlier, noisier average sets the next stage back
		// (paper QP, seed 3, with each point certified by its own
		// multipliers only: every stage from the 7th restarted 1.7e-3
		// away from the last answer, which was at 1.1e-4 relative error).
		// For the deterministic methods the best point is the better
		// start: separable SVM of the root benchmarks, m = 1e4 / 1e5 /
		// 1e6: 12.9e6 / 14.0e6 / 22.8e6 steps, 16.2e6 / 14.2e6 / 23.6e6
		// from the stage's output (the paper QPs: no difference).
		thr = screen.GapSafeThreshold(rn.best.gap, s.mu)
		at = s.state.best
		if s.opt.Method != MethodSGD && s.opt.Method != MethodSGDM {
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

// screenFinal proves rows inactive at x* with the answer's own certificate
// and sorts the caller's rows of A into Result.Screened and
// Result.Outside; it returns how many kept rows it proved inactive. With
// rho = Result.DistBound (finite only when x is feasible to rounding),
// ||x - x*|| <= rho, so a unit row with a_k^T x - b_k < -rho has
// a_k^T x* < b_k: it is inactive at the solution, and removing it leaves
// x* unchanged. A solved answer's gap is far smaller than the stages'
// gaps, so this proves many more rows inactive than the working set shows
// (a separable SVM with m = 1e5, n = 50: 7909 rows kept before it). Kept
// rows count only when their multiplier in the certificate is exactly 0, so
// the answer, its multipliers and its gap are those of the reported rows;
// they stay in the kept block (moving them would make the next solve
// re-estimate ||A||, which costs more than the rest of a warm re-solve of
// the paper QP: BenchmarkPaperQPWarm). Rows outside the final working set that the test cannot prove
// inactive (never admitted, or dropped by a stage's rule) are Outside.
// Reads the unit residuals callerViolation left in s.state.r. With
// ScreenNone nothing is proven.
func (s *Solver) screenFinal(rho float64) int {
	thr := -rho
	if s.opt.Screen == ScreenNone {
		thr = math.Inf(-1)
	}
	r := s.state.r[:s.mw]
	proved := 0
	for k, v := range r {
		c := s.code[k]
		switch {
		case c.isEq():
		case v < thr && (k >= s.kept || s.state.lamBest[k] == 0):
			s.res.Screened = append(s.res.Screened, c.ineqRow())
			if k < s.kept {
				proved++
			}
		case k >= s.kept:
			s.res.Outside = append(s.res.Outside, c.ineqRow())
		}
	}
	slices.Sort(s.res.Screened)
	slices.Sort(s.res.Outside)
	return proved
}
