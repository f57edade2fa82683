package solver

import (
	"math"

	"github.com/softpen/softpen/vec"

	"github.com/softpen/softpen/screen"
)

// screenRows applies the chosen screening rule at the end of a stage to the
// stage's output state.x, moving the dropped rows behind the kept ones (the
// inner loops then stream only kept rows) and recording their caller
// indices. Equality rows are never dropped.
func (s *Solver) screenRows(rn *run) {
	if s.opt.Screen == ScreenNone || s.kept == 0 {
		return
	}
	var thr float64
	switch s.opt.Screen {
	case ScreenPaper:
		thr = screen.PaperThreshold(s.kept, rn.xi, s.mu, rn.delta)
	case ScreenGapSafe:
		// The rule needs the gap of the point it screens at: use the best
		// certified point and its residuals.
		thr = screen.GapSafeThreshold(rn.bestGap, s.mu)
		copy(s.state.x, s.state.best)
	}
	if math.IsInf(thr, -1) {
		return
	}
	r := s.state.r[:s.kept]
	s.residual(r, s.state.x)
	w := 0
	for k := 0; k < s.kept; k++ {
		if r[k] < thr && s.code[k] < s.m {
			s.res.Dropped = append(s.res.Dropped, s.code[k])
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

// swapRows exchanges working rows i and j with everything that goes with
// them, so that the full set stays intact behind the kept block.
func (s *Solver) swapRows(i, j int) {
	ri, rj := s.a.Row(i), s.a.Row(j)
	for c := range ri {
		ri[c], rj[c] = rj[c], ri[c]
	}
	s.b[i], s.b[j] = s.b[j], s.b[i]
	s.code[i], s.code[j] = s.code[j], s.code[i]
	s.norm[i], s.norm[j] = s.norm[j], s.norm[i]
	s.state.lamBest[i], s.state.lamBest[j] = s.state.lamBest[j], s.state.lamBest[i]
}

// droppedViolated reports whether the best point violates a dropped row
// (beyond rounding), which would mean the screening was not safe.
func (s *Solver) droppedViolated() bool {
	x := s.state.best
	for k := s.kept; k < s.mw; k++ {
		if vec.Dot(s.a.Row(k), x)-s.b[k] > 1e-12*(1+math.Abs(s.b[k])) {
			return true
		}
	}
	return false
}

// restoreRows brings every working row back into the problem at the start
// of a solve. Row order may differ from the first solve's; nothing depends
// on it except the order of sampling, which is why a screened solve is
// reproducible from the same Solver state, not across states.
func (s *Solver) restoreRows() {
	if s.kept != s.mw {
		s.kept = s.mw
		s.updateSmax()
	}
}
