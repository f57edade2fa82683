package solver

import (
	"cmp"
	"slices"

	"github.com/softpen/softpen/internal/boxqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// The hard-margin SVM separable by a small margin. Dual coordinate descent
// (package dualcd) finds the support vectors early but converges on their
// multipliers slowly when the rows are nearly dependent (text with more
// features than documents: every labelling is separable, by a small
// margin), and its certificate needs every margin to hold to the
// tolerance. supportFinish solves the dual restricted to the rows that can
// be support vectors exactly instead,
//
//	minimize_{lambda_S >= 0} 1/2 lambda_S' K lambda_S + c_S' lambda_S,
//	K = A_S A_S' / ridge,  c_S = b_S + A_S q / ridge,
//
// (the dual of package dualcd with every other multiplier at 0) by
// projected Newton on the dense K (package boxqp). S is the rows with a
// positive multiplier and those the current point violates. dualcd
// certifies the result as any other dual point, and goes on from it if it
// is not yet good enough: its next epochs bring in the rows the restricted
// answer violates, and the next call solves on the support they make.

// finishMaxRows bounds the restricted dual: K, the copy boxqp factors and
// the factor are three dense matrices of this order (226 MB at 3072).
const finishMaxRows = 3072

// finishMaxIter bounds the projected Newton iterations of a restricted
// dual (each at least one factorisation): on a good support it converges
// in a few, and on infeasible rows lambda grows without bound.
const finishMaxIter = 30

// supportFinish is dualcd's Options.Finish for the rows a, right-hand side
// b: it replaces lam by the exact answer of the dual restricted to a
// support (see above) and reports true, or reports false and leaves lam
// as it was when the support is too large or the time is up before the
// first restricted answer.
func (s *Solver) supportFinish(a *mat.Sparse, b, lam []float64) bool {
	m, n := a.Rows, a.Cols
	x, v := make([]float64, n), make([]float64, m)
	s.dualPrimal(a, lam, x)
	a.MulVec(v, x)
	in := make([]bool, m)
	var rows []int32
	for i, l := range lam {
		if l > 0 {
			rows, in[i] = append(rows, int32(i)), true
		}
	}
	if len(rows) == 0 || len(rows) > finishMaxRows {
		return false
	}
	rows = addViolated(rows, in, v, b)
	k := supportGram(a, rows, s.ridge)
	c, ls := make([]float64, len(rows)), make([]float64, len(rows))
	for p, i := range rows {
		c[p] = b[i]
		if s.q != nil {
			idx, val := a.Row(int(i))
			c[p] += vec.DotSparse(idx, val, s.q) / s.ridge
		}
		ls[p] = lam[i]
	}
	var qp boxqp.Workspace
	res := qp.Solve(k, c, ls, boxqp.Options{MaxIter: finishMaxIter, Stop: func() bool { return s.over(&s.sparseRun) }})
	if res.Status == boxqp.Stopped {
		return false // the time is up, or lambda grows without bound (infeasible rows)
	}
	clear(lam)
	for p, i := range rows {
		lam[i] = ls[p]
	}
	return true
}

// dualPrimal sets x = -(q + A'lam)/ridge, the primal point of lam.
func (s *Solver) dualPrimal(a *mat.Sparse, lam, x []float64) {
	clear(x)
	a.MulTransVecAdd(x, lam)
	if s.q != nil {
		vec.Axpy(1, s.q, x)
	}
	vec.Scale(-1/s.ridge, x)
}

// addViolated appends to rows the rows not in it (in marks them) with
// v_i > b_i, most violated first, up to finishMaxRows in all.
func addViolated(rows []int32, in []bool, v, b []float64) []int32 {
	k := len(rows)
	for i, vi := range v {
		if !in[i] && vi > b[i] {
			rows = append(rows, int32(i))
		}
	}
	added := rows[k:]
	slices.SortFunc(added, func(i, j int32) int {
		return cmp.Or(cmp.Compare(v[j]-b[j], v[i]-b[i]), cmp.Compare(i, j))
	})
	if len(rows) > finishMaxRows {
		rows = rows[:finishMaxRows]
	}
	for _, i := range rows[k:] {
		in[i] = true
	}
	return rows
}

// supportGram returns K = A_S A_S' / ridge for the rows S listed, each
// row of K accumulated from the columns of A_S: a pair of rows costs only
// the columns they share, where a dot product of sparse rows would read
// both whole.
func supportGram(a *mat.Sparse, rows []int32, ridge float64) *mat.Dense {
	ns := len(rows)
	k := mat.NewDense(ns, ns)
	// The columns of A_S, rows in order of position (a counting sort).
	ptr := make([]int32, a.Cols+1)
	nnz := 0
	for _, i := range rows {
		idx, _ := a.Row(int(i))
		for _, j := range idx {
			ptr[j+1]++
		}
		nnz += len(idx)
	}
	for j := 0; j < a.Cols; j++ {
		ptr[j+1] += ptr[j]
	}
	ent, val := make([]int32, nnz), make([]float64, nnz)
	next := append([]int32(nil), ptr[:a.Cols]...)
	for p, i := range rows {
		idx, v := a.Row(int(i))
		for q, j := range idx {
			e := next[j]
			ent[e], val[e] = int32(p), v[q]
			next[j]++
		}
	}
	inv := 1 / ridge
	for p := 0; p < ns; p++ {
		acc := k.Row(p)[:p+1]
		idx, v := a.Row(int(rows[p]))
		for q, j := range idx {
			u := v[q]
			for e := ptr[j]; e < ptr[j+1]; e++ {
				r := ent[e]
				if int(r) > p {
					break
				}
				acc[r] += u * val[e]
			}
		}
		for r := range acc {
			acc[r] *= inv
			k.Data[r*ns+p] = acc[r]
		}
	}
	return k
}
