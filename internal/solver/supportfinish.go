package solver

import (
	"cmp"
	"math"
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
// each time the interior-point method has gained a decimal digit of
// accuracy, the rows its point violates join S (K gains their rows and
// columns), from the third such round on the rows whose multipliers head
// for 0 leave it (finishDropDecade), and it goes on from that point,
// within a budget of factorisations (finishInteriorDecades). dualcd
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
	c, ls []float64 // the restricted dual's linear term and interior point
	z     []float64 // the multipliers of ls >= 0
	xi    []float64 // the round's answer
	keep  []int32   // dropSettled's rows kept
	qp    boxqp.Workspace
}

// growGram returns K of order ns with its leading block of order warm, the
// last round's K, kept: moved to the new row length in place, or into a
// larger allocation, with room for an eighth more rows (the Go-source set
// of scripts/liblinear grows its first support by 6%), so that K, the copy
// boxqp factors and the factor are not allocated again at each round, the
// old ones left as garbage: a third of the first call's peak memory.
func (f *supportFinisher) growGram(ns, warm int) *mat.Dense {
	old := f.gram
	if cap(f.gram) < ns*ns {
		room := min(ns+ns/8, finishMaxRows)
		f.gram = make([]float64, ns*ns, room*room)
		f.qp.Reserve(room)
	}
	f.gram = f.gram[:ns*ns]
	// Row p moves from p warm to p ns, the last row first: in place, a
	// row's new place is at or after its old one and before the old
	// places of the rows after it, which have moved by then.
	for p := warm - 1; p >= 0; p-- {
		copy(f.gram[p*ns:p*ns+warm], old[p*warm:p*warm+warm])
	}
	return &mat.Dense{Rows: ns, Cols: ns, Stride: ns, Data: f.gram}
}

// resized is s with length n, its entries below the old length kept (in
// place when its capacity allows).
func resized[T any](s []T, n int) []T {
	if n <= len(s) {
		return s[:n]
	}
	return slices.Grow(s, n-len(s))[:n]
}

// supportFinish is dualcd's Options.Finish for the rows a, right-hand side
// b: it replaces lam by the exact answer of the dual restricted to a
// support (see above), or the best point its budget reached, and reports
// true; it reports false and leaves lam as it was when the support is too
// large or the rows of the support are infeasible (the restricted dual is
// unbounded: dualcd's Farkas search is the way to that answer).
func (s *Solver) supportFinish(a *mat.Sparse, b, lam []float64) bool {
	f := s.finisher
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
	decade, warm := 0, 0
	for {
		tol := math.Pow(10, -float64(decade))
		ns := len(rows)
		k := f.growGram(ns, warm)
		supportGram(k, a, rows, warm, s.ridge)
		f.c, f.ls, f.z, f.xi = resized(f.c, ns), resized(f.ls, ns), resized(f.z, ns), resized(f.xi, ns)
		for p, i := range rows {
			f.c[p] = b[i]
			if s.q != nil {
				idx, val := a.Row(int(i))
				f.c[p] += vec.DotSparse(idx, val, s.q) / s.ridge
			}
			if warm == 0 {
				f.ls[p] = lam[i]
			}
		}
		stop := func() bool { return s.over(s.sparseRun) }
		res := f.qp.SolveInteriorFrom(k, f.c, f.ls, f.z, warm, boxqp.Options{Tol: tol, MaxFactorizations: budget,
			Threads: s.threads(), Stop: stop})
		budget -= res.Factorizations
		if res.Status == boxqp.Unbounded {
			break // the rows are infeasible
		}
		// Projected Newton finishes from a copy (the interior point is
		// where a next round starts).
		copy(f.xi, f.ls)
		final := decade == finishInteriorDecades || res.Status != boxqp.Converged
		if final && budget > 0 {
			res = f.qp.Solve(k, f.c, f.xi, boxqp.Options{MaxIter: finishMaxIter, MaxFactorizations: budget,
				Threads: s.threads(), Stop: stop})
			budget -= res.Factorizations
			if res.Status == boxqp.Unbounded {
				break
			}
		}
		// Every round's answer is a dual point, converged or not, and
		// coordinate descent certifies it or goes on from it.
		clear(lam)
		for p, i := range rows {
			lam[i] = f.xi[p]
		}
		ok = true
		if res.Status != boxqp.Converged || budget <= 0 {
			break
		}
		// The rows this answer violates join S, and the interior-point
		// method goes on from its point with them, the tolerance ten
		// times tighter; at the final tolerance, a round that adds no
		// row is the last.
		if !final && decade >= finishDropDecade {
			rows, ns = f.dropSettled(rows, lam)
		}
		s.dualPrimal(a, lam, f.x)
		a.MulVec(f.v, f.x)
		rows = addViolated(rows, f.in, f.v, b)
		if len(rows) == ns && final {
			break
		}
		decade, warm = min(decade+1, finishInteriorDecades), ns
	}
	f.rows = rows
	return ok
}

// finishMaxFactorizations bounds the factorisations of a call: a call on
// a support far from the answer's gives up instead of spending many
// seconds (the next, on a better support, is cheaper).
const finishMaxFactorizations = 100

// finishInteriorDecades: the interior-point method solves a restricted
// dual to relative accuracies 1, 0.1, ..., 10^-finishInteriorDecades, S
// growing by the rows each answer violates, and projected Newton takes
// over at the last: by then the bounds that hold are settled, and it ends
// in one or two factorisations. Rows found at a loose accuracy join while
// the iterate is still far from the bounds and cost few steps; found only
// at the end (the rounds of solving each S to 10^-8 before looking), they
// cost almost a fresh solve: on the separable Go-source sets of
// scripts/liblinear the first call takes 19 and 21 factorisations; with
// each S solved to 10^-8 before its violated rows were looked for, 35 and
// 42.
const finishInteriorDecades = 8

// finishDropDecade is the first round after which rows leave S: those
// whose pair in the interior point has x_i < z_i, a multiplier heading for
// 0 (dropSettled). The rows coordinate descent leaves with a positive
// multiplier include many that end at 0 (on gotext-noisy of
// scripts/liblinear, 2973 rows in S for 2335 support vectors), and each
// factorisation costs the cube of S's order: with the rows dropped from
// the third round on, the finisher's last rounds factor order 2335-2361
// instead of 2967-2973, and whole solves took 7.8, 7.8 and 8.9 s against
// 10.1, 10.5 and 9.4 s (seeds 0, 1, 2, one run each on a shared machine).
// A dropped row that the next answer violates joins S again, as any
// violated row does. Earlier, the indicator is not yet settled: from the
// first round, 8.8 to 13.2 s; from the second, 7.3 to 9.6 s.
const finishDropDecade = 2

// dropSettled removes from S (rows) the rows whose pair in the interior
// point (f.ls, f.z) has x_i < z_i, sets their lam to 0 and takes them out
// of f.in, and compacts K (f.gram, of order len(rows), becomes the
// leading block of the next round's), the interior point and its
// multipliers in place. It returns S and its order.
func (f *supportFinisher) dropSettled(rows []int32, lam []float64) ([]int32, int) {
	ns := len(rows)
	keep := f.keep[:0]
	for p, i := range rows {
		if f.ls[p] < f.z[p] {
			f.in[i], lam[i] = false, 0
			continue
		}
		keep = append(keep, int32(p))
	}
	f.keep = keep
	q := len(keep)
	if q == ns {
		return rows, ns
	}
	// Row p of K moves from p ns to p' q, p' <= p, its entries to the
	// left: every write lands at or before the entry it copies and after
	// every entry still to be read.
	for np, p := range keep {
		src := f.gram[int(p)*ns : int(p)*ns+ns]
		dst := f.gram[np*q : np*q+q]
		for nq, pp := range keep {
			dst[nq] = src[pp]
		}
		rows[np] = rows[p]
		f.ls[np], f.z[np] = f.ls[p], f.z[p]
	}
	f.gram = f.gram[:q*q]
	return rows[:q], q
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

// supportGram sets k (order len(rows)) to K = A_S A_S' / ridge for the
// rows S listed, but for its leading block of order from, which it takes
// as computed (the rows of an earlier round). Each row of K is
// accumulated from the columns of A_S: a pair of rows costs only the
// columns they share, where a dot product of sparse rows would read both
// whole. With from = 0, the columns in many of the rows (frequent words)
// are summed first as a dense product (supportDenseShare). Either way
// each entry is the dot product of two rows, rounded as a sum of its
// terms (the order of the terms differs, not the accuracy).
func supportGram(k *mat.Dense, a *mat.Sparse, rows []int32, from int, ridge float64) {
	ns := len(rows)
	// The columns of A_S, rows in order of position (a counting sort),
	// but for the dense ones.
	ptr := make([]int32, a.Cols+1)
	for _, i := range rows {
		idx, _ := a.Row(int(i))
		for _, j := range idx {
			ptr[j+1]++
		}
	}
	var slot []int32   // a dense column's row of bt, -1 for the others
	var bt [][]float64 // the dense columns of A_S, as rows
	if from == 0 && ns >= supportDenseMinRows {
		for j := 0; j < a.Cols; j++ {
			if int(ptr[j+1])*supportDenseShare <= ns {
				continue
			}
			if slot == nil {
				slot = make([]int32, a.Cols)
				for i := range slot {
					slot[i] = -1
				}
			}
			slot[j], ptr[j+1] = int32(len(bt)), 0
			bt = append(bt, make([]float64, ns))
		}
	}
	for j := 0; j < a.Cols; j++ {
		ptr[j+1] += ptr[j]
	}
	nnz := ptr[a.Cols]
	ent, val := make([]int32, nnz), make([]float64, nnz)
	next := append([]int32(nil), ptr[:a.Cols]...)
	for p, i := range rows {
		idx, v := a.Row(int(i))
		for q, j := range idx {
			if slot != nil && slot[j] >= 0 {
				bt[slot[j]][p] = v[q]
				continue
			}
			e := next[j]
			ent[e], val[e] = int32(p), v[q]
			next[j]++
		}
	}
	if len(bt) > 0 {
		mat.GramRows(k, bt, 1) // the dense columns' share of every entry
	}
	inv := 1 / ridge
	for p := from; p < ns; p++ {
		acc := k.Row(p)[:p+1]
		if len(bt) == 0 {
			clear(acc)
		}
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

// A column of A_S in c of its ns rows costs the loop of supportGram about
// c^2/2 scattered multiply-adds, and mat.GramRows ns^2/2 multiply-adds in
// its tiled kernel, some 40 times faster each: a column is summed densely
// when it is in more than ns/supportDenseShare rows (on the separable
// Go-source set of scripts/liblinear, 2600 of its rows: the first K in a
// tenth of the time; shares of 4 to 8 measured alike, 2 and 12 slower).
// Below supportDenseMinRows rows, K takes under a millisecond either way.
const (
	supportDenseShare   = 6
	supportDenseMinRows = 256
)
