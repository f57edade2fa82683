package solver

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Row storage and the working set. The constraints are stored as unit
// rows a_k (A's rows and both signs of each row of Aeq) with b_k scaled to
// match, in the working matrix s.a; rows 0..kept-1 are the kept block, the
// rows the inner methods see, and the rest stand behind it. With a working
// set (lazy), only the kept block holds row data and the others are read
// from the caller's matrices; rows join the block when a point violates
// them (admitViolated, readmit) and leave it by screening (screening.go).

// rowCode names the caller's row behind a working row. Inequality row j of
// A is the working row a_j^T x <= b_j; equality row k of Aeq appears twice,
// as aeq_k^T x <= beq_k (its plus row) and -aeq_k^T x <= -beq_k (its minus
// row). Codes >= 0 are inequality rows, negative codes equality rows:
// ^(2k) is the plus row of equality k and ^(2k+1) its minus row.
type rowCode int

// noRow is the rowCode of no row.
const noRow = rowCode(math.MinInt)

func ineqCode(j int) rowCode { return rowCode(j) }

// eqCode is the plus (negated false) or minus row of equality k.
func eqCode(k int, negated bool) rowCode {
	if negated {
		return rowCode(^(2*k + 1))
	}
	return rowCode(^(2 * k))
}

// isEq reports whether c is one of the two rows of an equality.
func (c rowCode) isEq() bool { return c < 0 }

// isEqPlus and isEqMinus tell the two rows of an equality apart.
func (c rowCode) isEqPlus() bool { return c < 0 && ^c&1 == 0 }

func (c rowCode) isEqMinus() bool { return c < 0 && ^c&1 == 1 }

// ineqRow is the caller's row of A behind an inequality code.
func (c rowCode) ineqRow() int { return int(c) }

// eqRow is the caller's row of Aeq behind an equality code.
func (c rowCode) eqRow() int { return int(^c) / 2 }

// sign is the sign of the caller's row in the working row: -1 for the
// minus row of an equality, 1 otherwise.
func (c rowCode) sign() float64 {
	if c.isEqMinus() {
		return -1
	}
	return 1
}

// resultIndex is the row's place in Result.Farkas: A's m rows first, then
// the rows of Aeq.
func (c rowCode) resultIndex(m int) int {
	if c.isEq() {
		return m + c.eqRow()
	}
	return c.ineqRow()
}

// copyConstraints normalises the rows of A and Aeq into the working matrix.
// A zero row with b >= 0 always holds and is left out; a zero row with b < 0
// makes the problem infeasible (recorded, reported by Solve). A row whose
// norm is not finite (a NaN or infinite entry, or an overflow), or so small
// that the row or its right-hand side over it overflows, is an error: every
// row's data is checked here (softpen's Validate leaves the entries of A to
// it, and to the direct path's activeset.New, to read the rows once).
func (s *Solver) copyConstraints(p *Problem) error {
	n := p.N
	rowA := func(j int) []float64 { return p.ARows[j] }
	s.m = len(p.ARows)
	if p.A != nil {
		s.m = p.A.Rows
		rowA = p.A.Row
	}
	if p.Aeq != nil {
		s.meq = p.Aeq.Rows
	}
	total := s.m + 2*s.meq
	s.b = make([]float64, total)
	s.code = make([]rowCode, total)
	s.norm = make([]float64, total)
	s.bSrc = make([]float64, total)
	// First pass: norms, scaled b, codes.
	w := 0
	add := func(name string, i int, row []float64, bi float64, code rowCode) error {
		sign := code.sign()
		nr := mat.Norm(row)
		if math.IsInf(nr, 0) || math.IsNaN(nr) {
			return fmt.Errorf("%s[%d]: the row's norm is %v (an entry is not finite, or the norm overflows)", name, i, nr)
		}
		if nr > 0 && (math.IsInf(1/nr, 0) || math.IsInf(bi/nr, 0)) {
			return fmt.Errorf("%s[%d]: the row's norm %v is too small to scale the row and its right-hand side %v", name, i, nr, bi)
		}
		if nr == 0 {
			if !code.isEq() {
				s.zeroRows = append(s.zeroRows, code.ineqRow())
			}
			if sign*bi < 0 && s.infeasibleRow == noRow {
				s.infeasibleRow = code
			}
			return nil
		}
		s.b[w] = sign * bi / nr
		s.bSrc[w] = sign * bi
		s.code[w] = code
		s.norm[w] = nr
		w++
		return nil
	}
	for j := 0; j < s.m; j++ {
		if err := add("A", j, rowA(j), p.B[j], ineqCode(j)); err != nil {
			return err
		}
	}
	for k := 0; k < s.meq; k++ {
		row := p.Aeq.Row(k)
		if err := add("Aeq", k, row, p.Beq[k], eqCode(k, false)); err != nil {
			return err
		}
		if err := add("Aeq", k, row, p.Beq[k], eqCode(k, true)); err != nil {
			return err
		}
	}
	s.mw, s.kept = w, w
	s.srcRows, s.srcA, s.srcEq = p.ARows, p.A, p.Aeq
	// Second pass: the unit rows. A working set stores only its kept
	// block (Solve fills it); otherwise every row is copied now. The
	// caller's matrices are kept either way (no copy): a Farkas
	// certificate is confirmed on them (confirmFarkas).
	s.lazy = s.useWorkingSet()
	if s.lazy {
		s.a = mat.NewDense(min(s.mw, 2*s.wsBatch()), n)
		s.kept = 0 // Solve selects and stores the first working set
		return nil
	}
	s.a = mat.NewDense(s.mw, n)
	for k := 0; k < s.mw; k++ {
		s.materialize(k)
	}
	return nil
}

// sourceRow returns the caller's row behind code and its sign in the
// working row.
func (s *Solver) sourceRow(code rowCode) ([]float64, float64) {
	switch {
	case code.isEq():
		return s.srcEq.Row(code.eqRow()), code.sign()
	case s.srcRows != nil:
		return s.srcRows[code.ineqRow()], 1
	}
	return s.srcA.Row(code.ineqRow()), 1
}

// materialize writes the unit row of working row k into a.Row(k): the
// caller's row times sign/norm, the same bits whether the row is stored at
// setup or when it joins a working set.
func (s *Solver) materialize(k int) {
	row, sign := s.sourceRow(s.code[k])
	dst := s.a.Row(k)
	copy(dst, row)
	vec.Scale(sign/s.norm[k], dst)
}

// reserveRows makes room for rows working rows in a (lazy mode), keeping
// the stored ones. It allocates only when a solve needs more rows than any
// before it, doubling the room up to mw.
func (s *Solver) reserveRows(rows int) {
	if rows <= s.a.Rows {
		return
	}
	grown := mat.NewDense(min(s.mw, max(rows, 2*s.a.Rows)), s.n)
	copy(grown.Data, s.a.Data[:s.kept*s.n])
	s.a = grown
}

// working returns the view of the kept working rows.
func (s *Solver) working() *mat.Dense {
	return &mat.Dense{Rows: s.kept, Cols: s.n, Stride: s.a.Stride, Data: s.a.Data}
}

// residual sets r = A x - b over the kept working rows.
func (s *Solver) residual(r, x []float64) {
	s.working().MulVecSub(r[:s.kept], x, s.b[:s.kept])
}

// rowResidual is a_k^T x - b_k for working row k on the unit row: from the
// stored row inside the kept block (or always, without a working set), from
// the caller's row divided by its norm outside it.
func (s *Solver) rowResidual(k int, x []float64) float64 {
	if !s.lazy || k < s.kept {
		return vec.Dot(s.a.Row(k), x) - s.b[k]
	}
	row, sign := s.sourceRow(s.code[k])
	return sign*vec.Dot(row, x)/s.norm[k] - s.b[k]
}

// addUnitRow adds alpha times the unit row of working row k to dst.
func (s *Solver) addUnitRow(k int, alpha float64, dst []float64) {
	if !s.lazy || k < s.kept {
		vec.Axpy(alpha, s.a.Row(k), dst)
		return
	}
	row, sign := s.sourceRow(s.code[k])
	vec.Axpy(alpha*sign/s.norm[k], row, dst)
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
	s.bSrc[i], s.bSrc[j] = s.bSrc[j], s.bSrc[i]
	s.state.lamBest[i], s.state.lamBest[j] = s.state.lamBest[j], s.state.lamBest[i]
}

// useWorkingSet reports whether Solve starts from a working set of rows.
func (s *Solver) useWorkingSet() bool {
	return !s.opt.AllRows && s.mw >= wsMinRows && s.mw >= wsRowsPerVar*s.n
}

// wsBatch is the most rows one working-set step admits: a few per variable,
// since a strongly convex problem in n variables has at most about n active
// rows at a non-degenerate solution.
func (s *Solver) wsBatch() int { return wsBatchPerVar * s.n }

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

// admitCut returns the residual from which rows are admitted when at most
// limit of the candidates v may be: -Inf (all) when they fit, otherwise the
// limit-th largest of v, with room the number of rows equal to it that may
// still be admitted. It reorders v.
func admitCut(v []float64, limit int) (cut float64, room int) {
	if len(v) <= limit {
		return math.Inf(-1), len(v)
	}
	cut = vec.SelectLargest(v, limit)
	above := 0
	for _, x := range v {
		if x > cut {
			above++
		}
	}
	return cut, limit - above
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
	s.readmitDelta(&rn.sched, worst)
	return true
}

// admitViolated moves the rows outside the kept block that x violates
// (a_k^T x - b_k > 0), the wsBatch(n) most violated when there are more,
// into the kept block and returns the worst violation (0: none). Admitting
// a row changes the problem on the kept rows, so the certificate so far is
// dropped. After wsMaxRounds admissions every row comes back.
func (s *Solver) admitViolated(rn *run, x []float64) float64 {
	out := s.state.r[s.kept:s.mw]
	for i := range out {
		out[i] = s.rowResidual(s.kept+i, x)
	}
	return s.admitOutside(rn)
}

// admitOutside is admitViolated on residuals already in state.r[kept:mw]
// (a non-positive value stands for any residual <= 0).
func (s *Solver) admitOutside(rn *run) float64 {
	out := s.state.r[s.kept:s.mw]
	cand := s.state.lam[:0]
	worst := 0.0
	for i := range out {
		if out[i] > 0 {
			cand = append(cand, out[i])
			worst = max(worst, out[i])
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
	rn.best.forget()
	return worst
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

// updateSmax marks smax stale after the kept rows changed; sMax recomputes
// it when a stage needs it. Working-set rounds change the kept rows several
// times between stages, and the polish between them does not use smax: on
// mushrooms, estimating it at every change took 20% of the solve.
func (s *Solver) updateSmax() { s.smaxStale = true }

// sMax returns the bound on ||A||_2 over the kept rows (unit norm): a
// power-iteration estimate with a 5% margin, capped by sqrt(kept), the
// Frobenius norm, recomputed if the kept rows changed since. It sets step
// sizes only, and uses workspace vectors, so it allocates nothing.
func (s *Solver) sMax() float64 {
	if !s.smaxStale {
		return s.smax
	}
	s.smaxStale = false
	if s.kept == 0 {
		s.smax = 0
		return 0
	}
	w := &s.state
	est := s.working().NormEstimate(30, w.yv, w.xt, w.dSnap[:s.kept])
	s.smax = min(math.Sqrt(float64(s.kept)), 1.05*est)
	return s.smax
}
