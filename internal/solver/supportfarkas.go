package solver

import (
	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/mat"
)

// Infeasibility of sparse rows in general position. Dual coordinate descent
// (package dualcd) finds a certificate by itself when the conflict is rows
// of equal weight (the same example under both labels). In general the
// rows in conflict combine with unequal weights, and lambda only
// approaches their direction, never exactly: supportFarkas takes the rows
// whose multipliers lead, keeps those that can be in a certificate, and
// hands the small problem they make to the exact engine, whose Farkas
// vector — padded with zeros — certifies the whole problem (dualcd checks
// it again, exactly, on every row).

// supportThetas are the fractions of lambda's largest entry above which a
// row is taken into the support, tried in turn: lambda grows along a
// certificate, so its rows lead by more the longer the solve runs, and a
// small support is cheap to try.
var supportThetas = [...]float64{0.5, 0.1, 0.01}

// supportMaxEntries bounds the dense problem of a support (rows x columns
// plus the columns' n x n identity, 32 MB): a support that large is not
// yet a conflict worth an exact solve.
const supportMaxEntries = 1 << 22

// supportFarkas is dualcd's Options.Farkas for the rows a, right-hand
// side b: it writes into y a certificate for a support of lambda, or
// reports false.
func (s *Solver) supportFarkas(a *mat.Sparse, b, lam, y []float64) bool {
	lmax := 0.0
	for _, l := range lam {
		lmax = max(lmax, l)
	}
	count := make([]int32, a.Cols) // kept rows per column
	col := make([]int32, a.Cols)   // a column's index in the small problem
	prev := -1
	for _, theta := range supportThetas {
		clear(count)
		var rows []int
		for i, l := range lam {
			if l > 0 && l >= theta*lmax {
				rows = append(rows, i)
			}
		}
		rows = peelSupport(a, rows, count)
		if len(rows) == 0 || len(rows) == prev {
			continue
		}
		prev = len(rows)
		k := 0
		for _, i := range rows {
			idx, _ := a.Row(i)
			for _, j := range idx {
				if count[j] > 0 {
					col[j], count[j] = int32(k), -1 // numbered once
					k++
				}
			}
		}
		if (len(rows)+k)*k > supportMaxEntries {
			return false // the next theta's support is larger still
		}
		if s.solveSupport(a, b, rows, col, k, y) {
			return true
		}
	}
	return false
}

// peelSupport drops from rows, until none is left to drop, each row with
// a column no other row of the support has: in a certificate that column's
// sum is y_i a_ij alone, so y_i = 0. What is left is where a certificate
// within rows can lie. count, of length a.Cols and zero on entry, is left
// holding the number of kept rows in each column.
func peelSupport(a *mat.Sparse, rows []int, count []int32) []int {
	for _, i := range rows {
		idx, _ := a.Row(i)
		for _, j := range idx {
			count[j]++
		}
	}
	for {
		kept := rows[:0]
		for _, i := range rows {
			idx, _ := a.Row(i)
			own := false
			for _, j := range idx {
				if count[j] == 1 {
					own = true
					break
				}
			}
			if !own {
				kept = append(kept, i)
				continue
			}
			for _, j := range idx {
				count[j]--
			}
		}
		if len(kept) == len(rows) {
			return kept
		}
		rows = kept
	}
}

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
			row[col[j]] = val[q]
		}
		bs[r] = b[i]
	}
	h := mat.NewDense(k, k)
	for j := 0; j < k; j++ {
		h.Data[j*k+j] = 1
	}
	// The engine's time limit counts from the solve's start, as the
	// handover's does (handover.go): it ends when the whole solve would.
	rn := &s.sparseRun
	eng, err := activeset.New(&activeset.Problem{N: k, H: h, C: make([]float64, k), A: ad, B: bs}, &activeset.Options{TimeLimit: s.opt.TimeLimit})
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
