package solver

import (
	"cmp"
	"slices"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/internal/boxqp"
	"github.com/softpen/softpen/mat"
)

// Infeasibility of sparse rows in general position. Dual coordinate descent
// (package dualcd) finds a certificate by itself when the conflict is rows
// of equal weight (the same example under both labels). In general the
// rows in conflict combine with unequal weights, and lambda only
// approaches their direction, never exactly. supportFarkas takes the rows
// whose multipliers lead (thousands on text), keeps those that can be in a
// certificate (peelSupport), and finds among them the few that are one
// (reduceSupport: on the Go-source set by function, 60 of 1907 rows). The
// exact engine solves the small problem those make, and its Farkas vector
// — padded with zeros — certifies the whole problem (dualcd checks it
// again, exactly, on every row).

// supportThetas are the fractions of lambda's largest entry above which a
// row is taken into the support, tried in turn: lambda grows along a
// certificate, so its rows lead by more the longer the solve runs, and a
// small support is cheap to try.
var supportThetas = [...]float64{0.5, 0.1, 0.01}

// supportMaxEntries bounds the dense problem of a support (rows x columns
// plus the columns' n x n identity, 32 MB): a support that large is not
// yet a conflict worth an exact solve.
const supportMaxEntries = 1 << 22

// reduceMaxRows bounds the supports reduceSupport takes: its matrix and
// the two that projected Newton factors are dense of this order (226 MB at
// 3072, as the finisher's).
const reduceMaxRows = finishMaxRows

// supportFarkas is dualcd's Options.Farkas for the rows a, right-hand
// side b: it writes into y a certificate for a support of lambda, or
// reports false.
func (s *Solver) supportFarkas(a *mat.Sparse, b, lam, y []float64) bool {
	lmax := 0.0
	for _, l := range lam {
		lmax = max(lmax, l)
	}
	pos := make([]int32, a.Cols) // kept rows with a positive value, per column
	neg := make([]int32, a.Cols) // and with a negative one
	col := make([]int32, a.Cols) // a column's index in the small problem
	prev := -1
	for _, theta := range supportThetas {
		clear(pos)
		clear(neg)
		var rows []int
		for i, l := range lam {
			if l > 0 && l >= theta*lmax {
				rows = append(rows, i)
			}
		}
		rows = peelSupport(a, rows, pos, neg)
		if len(rows) == 0 || len(rows) == prev {
			continue
		}
		prev = len(rows)
		k := numberColumns(a, rows, pos, neg, col)
		if (len(rows)+k)*k <= supportMaxEntries && s.solveSupport(a, b, rows, col, k, y) {
			return true
		}
		// The support is too large for the engine, or too degenerate for
		// it to decide: the rows of a certificate within it, and the
		// engine on those.
		if len(rows) > reduceMaxRows {
			// Strongly infeasible data (many more rows than the columns
			// they span) have certificates through most rows; the rows
			// whose multipliers lead most hold one as well.
			slices.SortFunc(rows, func(i, j int) int { return cmp.Or(cmp.Compare(lam[j], lam[i]), cmp.Compare(i, j)) })
			rows = rows[:reduceMaxRows]
			slices.Sort(rows)
		}
		few, fy := s.reduceSupport(a, b, rows, pos, neg)
		if len(few) == 0 || len(few) == len(rows) {
			continue
		}
		k = numberColumns(a, few, pos, neg, col)
		if polishFarkas(a, b, few, col, k, fy, y, func() bool { return s.over(s.sparseRun) }) {
			return true
		}
		if (len(few)+k)*k <= supportMaxEntries && s.solveSupport(a, b, few, col, k, y) {
			return true
		}
	}
	return false
}

// numberColumns numbers 0, 1, ... in col the columns of the rows with a
// kept value (pos or neg positive, as peelSupport leaves them), clearing
// pos and neg there, and returns how many there are.
func numberColumns(a *mat.Sparse, rows []int, pos, neg, col []int32) int {
	k := 0
	for _, i := range rows {
		idx, _ := a.Row(i)
		for _, j := range idx {
			if pos[j]+neg[j] > 0 {
				col[j], pos[j], neg[j] = int32(k), 0, 0 // numbered once
				k++
			}
		}
	}
	return k
}

// reduceSupport returns the rows of a certificate within rows, if they
// hold one: the support of the answer of
//
//	minimize_{y >= 0} 1/2 ||A_S'y||^2 + rho/2 (b_S'y + 1)^2,
//
// whose value is 0 exactly at the certificates normalised to b_S'y = -1
// (rho, the largest ||a_i||^2, weighs the two terms alike). It is a box QP
// in the Gram matrix K = A_S A_S' + rho b_S b_S' (boxqp, the finisher's
// storage), bounded whether or not the rows are infeasible; its answer is
// computed with the rounding of K, a sqrt(eps) view of A_S'y, too coarse
// for a certificate but fine for naming the rows of one. Projected Newton
// ends at a face of the box, often one with few rows free (60 of 1907 on
// the Go-source set by function, 198 of 1395 in
// TestSparseSVMInfeasibleManyConflicts); on random rows far more numerous
// than their columns, most rows stay. The rows returned are peeled
// (peelSupport, which leaves pos and neg set).
func (s *Solver) reduceSupport(a *mat.Sparse, b []float64, rows []int, pos, neg []int32) ([]int, []float64) {
	f := s.finisher
	ns := len(rows)
	f.rows = f.rows[:0]
	for _, i := range rows {
		f.rows = append(f.rows, int32(i))
	}
	if cap(f.gram) < ns*ns {
		f.gram = make([]float64, ns*ns)
	}
	k := &mat.Dense{Rows: ns, Cols: ns, Stride: ns, Data: f.gram[:ns*ns]}
	supportGram(k, a, f.rows, 0, 1)
	rho := 0.0
	for p := range ns {
		rho = max(rho, k.Data[p*ns+p])
	}
	f.c, f.ls = slices.Grow(f.c[:0], ns)[:ns], slices.Grow(f.ls[:0], ns)[:ns]
	for p, i := range rows {
		f.c[p], f.ls[p] = rho*b[i], 0
		row := k.Row(p)
		for q, j := range rows {
			row[q] += rho * b[i] * b[j]
		}
	}
	f.qp.Solve(k, f.c, f.ls, boxqp.Options{MaxIter: finishMaxIter, MaxFactorizations: finishMaxFactorizations,
		Threads: s.threads(), Stop: func() bool { return s.over(s.sparseRun) }})
	var few []int
	weight := map[int]float64{}
	for p, v := range f.ls {
		if v > 0 {
			few = append(few, rows[p])
			weight[rows[p]] = v
		}
	}
	clear(pos)
	clear(neg)
	few = peelSupport(a, few, pos, neg)
	ys := make([]float64, len(few))
	for p, i := range few {
		ys[p] = weight[i]
	}
	return few, ys
}

// peelSupport drops from rows, until none is left to drop, each row with a
// column in which no other row of the support has a value of the opposite
// sign: in a certificate that column's sum, sum_i y_i a_ij with y >= 0, can
// vanish only if y_i = 0 (a column of the row's own is the case with no
// other value at all). What is left is where a certificate within rows can
// lie. pos and neg, of length a.Cols and zero on entry, are left holding
// the number of kept rows with a positive and with a negative value in
// each column.
func peelSupport(a *mat.Sparse, rows []int, pos, neg []int32) []int {
	count := func(i int, d int32) {
		idx, val := a.Row(i)
		for k, j := range idx {
			switch {
			case val[k] > 0:
				pos[j] += d
			case val[k] < 0:
				neg[j] += d
			}
		}
	}
	for _, i := range rows {
		count(i, 1)
	}
	for {
		kept := rows[:0]
		for _, i := range rows {
			idx, val := a.Row(i)
			alone := false
			for k, j := range idx {
				if (val[k] > 0 && neg[j] == 0) || (val[k] < 0 && pos[j] == 0) {
					alone = true
					break
				}
			}
			if alone {
				count(i, -1)
			} else {
				kept = append(kept, i)
			}
		}
		if len(kept) == len(rows) {
			return kept
		}
		rows = kept
	}
}

// supportMaxSteps is the working-set changes the engine may make on a
// support of m rows and k columns. Where it proves a random support of
// 2000 rows in 500 columns infeasible it makes about 600; on a support
// that is degenerate to rounding it may cycle for tens of thousands
// (until the safety bound, 50 (m + k)), and the support of a later
// doubling of lambda is the better try.
func supportMaxSteps(m, k int) int { return 2*(m+k) + 100 }

// solveSupport solves minimize 1/2 ||x||^2 subject to the rows of the
// support on their k columns (col numbers them) with the exact engine, and
// if it proves them infeasible, writes its Farkas vector into y at the
// support's rows. The engine stops where the solve's time limit ends.
func (s *Solver) solveSupport(a *mat.Sparse, b []float64, rows []int, col []int32, k int, y []float64) bool {
	ad := mat.NewDense(len(rows), k)
	bs := make([]float64, len(rows))
	for r, i := range rows {
		idx, val := a.Row(i)
		row := ad.Row(r)
		for q, j := range idx {
			if val[q] != 0 { // an explicit 0 may be in a column not numbered
				row[col[j]] = val[q]
			}
		}
		bs[r] = b[i]
	}
	h := mat.NewDense(k, k)
	for j := 0; j < k; j++ {
		h.Data[j*k+j] = 1
	}
	// The engine's time limit counts from the solve's start, as the
	// handover's does (handover.go): it ends when the whole solve would.
	rn := s.sparseRun
	eng, err := activeset.New(&activeset.Problem{N: k, H: h, C: make([]float64, k), A: ad, B: bs},
		&activeset.Options{TimeLimit: s.opt.TimeLimit, MaxSteps: supportMaxSteps(len(rows), k), OneShot: true})
	if err != nil {
		return false
	}
	res := eng.SolveFrom(rn.ctx, rn.start)
	if res.Status != activeset.StatusInfeasible {
		return false
	}
	for r, i := range rows {
		y[i] = res.FarkasA[r]
	}
	return true
}
