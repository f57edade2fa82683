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
// (the dual of package dualcd with every other multiplier at 0) on the
// dense K (package boxqp; its factorisations run on GOMAXPROCS goroutines,
// with the same answer as on one): an interior-point method finds which
// multipliers are 0, which projected Newton alone took a hundred
// factorisations and more to settle on those rows (each step changes many
// bounds, and the rows, nearly dependent, make K singular to rounding),
// and projected Newton from its point finishes on that face. S is the
// rows with a positive multiplier and those the current point violates;
// the rows the restricted answer violates join S and the dual is solved
// again from it, a few rounds within a budget of factorisations. dualcd
// certifies the result as any other dual point, and goes on from it if
// it is not yet good enough; its next call (when the epochs have
// doubled) starts from a support the epochs between have settled.

// finishMaxRows bounds the restricted dual: K, the copy boxqp factors and
// the factor are three dense matrices of this order (226 MB at 3072).
const finishMaxRows = 3072

// finishMaxIter bounds the projected Newton iterations of a restricted
// dual (each at least one factorisation): on a good support it converges
// in a few, and on infeasible rows lambda grows without bound.
const finishMaxIter = 30

// supportFinisher is the storage of supportFinish, kept from call to call
// (each call would otherwise allocate three matrices of order |S| anew).
type supportFinisher struct {
	x, v  []float64 // the primal point (n) and A x (m)
	in    []bool    // row i is in S
	rows  []int32   // S
	gram  []float64 // K's storage
	c, ls []float64 // the restricted dual's linear term and answer
	qp    boxqp.Workspace
}

// supportFinish is dualcd's Options.Finish for the rows a, right-hand side
// b: it replaces lam by the exact answer of the dual restricted to a
// support (see above), or the best point its budget reached, and reports
// true; it reports false and leaves lam as it was when the support is too
// large or the rows of the support are infeasible (the restricted dual is
// unbounded: dualcd's Farkas search is the way to that answer).
func (s *Solver) supportFinish(a *mat.Sparse, b, lam []float64) bool {
	f := &s.finisher
	m, n := a.Rows, a.Cols
	if f.x == nil {
		f.x, f.v, f.in = make([]float64, n), make([]float64, m), make([]bool, m)
	}
	s.dualPrimal(a, lam, f.x)
	a.MulVec(f.v, f.x)
	clear(f.in)
	rows := f.rows[:0]
	for i, l := range lam {
		if l > 0 {
			rows, f.in[i] = append(rows, int32(i)), true
		}
	}
	if len(rows) == 0 || len(rows) > finishMaxRows {
		return false
	}
	rows = addViolated(rows, f.in, f.v, b)
	budget := finishMaxFactorizations
	ok := false
	for round := 0; round < finishMaxRounds; round++ {
		ns := len(rows)
		if cap(f.gram) < ns*ns {
			// Room for the rows the next rounds add (an eighth more:
			// the Go-source set's first call grew its 2559 rows by 6%),
			// so that K, the copy boxqp factors and the factor are not
			// allocated again at each round, the old ones left as
			// garbage: a third of that call's peak memory.
			room := min(ns+ns/8, finishMaxRows)
			f.gram = make([]float64, ns*ns, room*room)
			f.qp.Reserve(room)
		}
		k := &mat.Dense{Rows: ns, Cols: ns, Stride: ns, Data: f.gram[:ns*ns]}
		supportGram(k, a, rows, s.ridge)
		f.c, f.ls = slices.Grow(f.c[:0], ns)[:ns], slices.Grow(f.ls[:0], ns)[:ns]
		for p, i := range rows {
			f.c[p] = b[i]
			if s.q != nil {
				idx, val := a.Row(int(i))
				f.c[p] += vec.DotSparse(idx, val, s.q) / s.ridge
			}
			f.ls[p] = lam[i]
		}
		stop := func() bool { return s.over(&s.sparseRun) }
		res := f.qp.SolveInterior(k, f.c, f.ls, boxqp.Options{Tol: finishInteriorTol, MaxFactorizations: budget,
			Threads: s.threads(), Stop: stop})
		budget -= res.Factorizations
		if res.Status != boxqp.Unbounded && budget > 0 {
			res = f.qp.Solve(k, f.c, f.ls, boxqp.Options{MaxIter: finishMaxIter, MaxFactorizations: budget,
				Threads: s.threads(), Stop: stop})
			budget -= res.Factorizations
		}
		if res.Status == boxqp.Unbounded {
			break // the rows are infeasible
		}
		// Every round's answer is a dual point, converged or not, and
		// coordinate descent certifies it or goes on from it.
		clear(lam)
		for p, i := range rows {
			lam[i] = f.ls[p]
		}
		ok = true
		if res.Status != boxqp.Converged || budget <= 0 {
			break
		}
		// The rows this answer violates join S, and the restricted dual
		// is solved again from it.
		s.dualPrimal(a, lam, f.x)
		a.MulVec(f.v, f.x)
		if rows = addViolated(rows, f.in, f.v, b); len(rows) == ns {
			break
		}
	}
	f.rows = rows
	return ok
}

// finishMaxRounds bounds the rounds of adding the violated rows in a call,
// and finishMaxFactorizations the factorisations of a call: a call on a
// support far from the answer's gives up instead of spending many seconds
// (the next, on a better support, is cheaper).
const (
	finishMaxRounds         = 3
	finishMaxFactorizations = 100
)

// finishInteriorTol is the relative accuracy to which the interior-point
// method solves a restricted dual before projected Newton takes over: by
// then the bounds that hold are settled, and projected Newton ends in one
// or two factorisations (on the separable Go-source set of
// scripts/liblinear, one after each of the three rounds of the first
// call, which took 18, 9 and 6 interior iterations).
const finishInteriorTol = 1e-8

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

// supportGram sets k (order len(rows)) to K = A_S A_S' / ridge for the rows S listed, each
// row of K accumulated from the columns of A_S: a pair of rows costs only
// the columns they share, where a dot product of sparse rows would read
// both whole.
func supportGram(k *mat.Dense, a *mat.Sparse, rows []int32, ridge float64) {
	ns := len(rows)
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
		clear(acc)
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
			k.Data[r*k.Stride+p] = acc[r]
		}
	}
}
