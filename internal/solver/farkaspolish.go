package solver

import (
	"math"

	"github.com/softpen/softpen/internal/dualcd"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Polishing a near-certificate of infeasibility. reduceSupport's box QP
// names the rows of a conflict and gives weights y on them with A_S'y
// small, but only to the rounding of the Gram matrix it works on (about
// sqrt(eps) of the terms), where a certificate needs A'y = 0 to the
// rounding of its own sums (dualcd.FarkasHolds). The exact engine decides
// such small supports, but the rows of a conflict in text are nearly
// dependent in more ways than one, and on them it often ends at its
// precision limit: on scripts/liblinear's gofunc-distinct set every
// support of the first five doublings of lambda was one (the QP's value
// 0 to 1e-16), and the engine proved only the sixth.
//
// polishFarkas instead projects y onto the null space of A_S' directly:
// a Householder QR of A_S with column pivoting gives an orthonormal basis
// Q of the range of A_S (R^|S|) to the numerical rank r, and y - Q Q'y,
// computed twice (the second pass removes what rounding left of the
// first), is orthogonal to every column of A_S to working precision: A'y
// = 0 to the rounding of its sums, if the conflict is what the QR sees.
// The rank is uncertain on nearly dependent rows, so each of a few
// relative thresholds on R's diagonal is tried, and a projection is kept
// only if it is >= 0 (entries below 1e-12 of the largest are rounded up
// to 0) and dualcd.FarkasHolds accepts it on the whole problem.

// polishRankTols are the thresholds, relative to R's first diagonal entry,
// below which a diagonal entry of the pivoted QR ends the numerical rank.
var polishRankTols = [...]float64{1e-13, 1e-10, 1e-7}

// polishMaxFlops bounds the QR's work, |S|^2 times the columns, and
// supportMaxEntries the dense copy of A_S it works on (32 MB).
const polishMaxFlops = 1 << 31

// polishFarkas writes into y (length a.Rows, zero on entry) a certificate
// on rows, polished from the weights ys (aligned with rows, > 0) of a
// near-certificate, and reports whether dualcd.FarkasHolds accepts it; if
// not it leaves y zero. col numbers the k columns of the rows. stop is
// asked between the QR's steps (the solve's time limit and context): when
// it says so, polishFarkas gives up.
//
// A projection that is >= 0 but refused is tried once more on its own
// support: the rows it weighs above polishNoise of its largest entry,
// from its weights there. The rows the box QP named are often a few more
// than the conflict's, and the projection leaves those the rounding of
// its arithmetic (weights of 1e-17..1e-15 beside 0.007..1 on the
// Go-source set by function); each such row is alone in some column of
// its own, whose sum is then nothing but that row's term, and FarkasHolds
// rightly refuses it. On the smaller support the null space is the
// conflict's and the projection exact to rounding.
func polishFarkas(a *mat.Sparse, b []float64, rows []int, col []int32, k int, ys, y []float64, stop func() bool) bool {
	ok, keep, zkeep := polishOnce(a, b, rows, col, k, ys, y, stop)
	if ok || len(keep) < 2 || len(keep) == len(rows) {
		return ok
	}
	ok, _, _ = polishOnce(a, b, keep, col, k, zkeep, y, stop)
	return ok
}

// polishNoise: a polished weight below this fraction of the largest is
// taken for the projection's rounding (eps times the conditioning of
// A_S, far below it on the supports of text) and its row dropped before
// the second try. A certificate whose weights span more than 1/polishNoise
// is left to the engine.
const polishNoise = 0x1p-26

// polishOnce is polishFarkas's projection of ys on the rows. When no
// rank gives a certificate, it returns the rows the first projection >= 0
// weighs above polishNoise of its largest entry, and their weights.
func polishOnce(a *mat.Sparse, b []float64, rows []int, col []int32, k int, ys, y []float64, stop func() bool) (ok bool, keep []int, zkeep []float64) {
	s := len(rows)
	if s < 2 || float64(s)*float64(s)*float64(k) > polishMaxFlops || s*k > supportMaxEntries {
		return false, nil, nil
	}
	// A_S column by column: m[j*s+i] = a_{rows[i], j}.
	m := make([]float64, k*s)
	for i, r := range rows {
		idx, val := a.Row(r)
		for q, j := range idx {
			if val[q] != 0 {
				m[int(col[j])*s+i] = val[q]
			}
		}
	}
	vs, diag := pivotedQR(m, s, k, stop)
	if vs == nil {
		return false, nil, nil
	}
	aty, size := make([]float64, a.Cols), make([]float64, a.Cols)
	z := make([]float64, s)
	last := -1
	for _, tol := range polishRankTols {
		rank := 0
		for rank < len(diag) && math.Abs(diag[rank]) > tol*math.Abs(diag[0]) {
			rank++
		}
		if rank == s || rank == last {
			continue // no null space, or the projection already tried
		}
		last = rank
		copy(z, ys)
		for range 2 {
			projectOut(vs[:rank], z)
		}
		zmax := 0.0
		for _, v := range z {
			zmax = max(zmax, v)
		}
		ok := zmax > 0
		for p, v := range z {
			switch {
			case v >= 0:
			case v >= -1e-12*zmax:
				z[p] = 0
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		for p, r := range rows {
			y[r] = z[p] / zmax
		}
		if dualcd.FarkasHolds(a, b, y, aty, size) {
			return true, nil, nil
		}
		first := keep == nil // the first projection >= 0, whose largest entry is kept at least
		for p, r := range rows {
			y[r] = 0
			if first && z[p] > polishNoise*zmax {
				keep, zkeep = append(keep, r), append(zkeep, z[p])
			}
		}
	}
	return false, keep, zkeep
}

// householder is a reflection I - tau v v' acting on entries from..len-1
// of a vector of R^|S| (v is that long).
type householder struct {
	from int
	v    []float64
	tau  float64
}

// apply reflects u (length |S|) in place.
func (h householder) apply(u []float64) {
	w := u[h.from : h.from+len(h.v)]
	vec.Axpy(-h.tau*vec.Dot(h.v, w), h.v, w)
}

// pivotedQR factors the s x k matrix m (column j at m[j*s:(j+1)*s],
// overwritten) as m P = Q R by Householder reflections with column
// pivoting (the remaining column of largest norm first), and returns the
// reflections, Q = H_0 H_1 ..., and R's diagonal, of decreasing magnitude.
// It stops early when every remaining column is 0, and returns nil when
// stop says so before a step.
func pivotedQR(m []float64, s, k int, stop func() bool) ([]householder, []float64) {
	vs := []householder{}
	var diag []float64
	for t := 0; t < min(s, k); t++ {
		if stop != nil && stop() {
			return nil, nil
		}
		best, bn := -1, 0.0
		for j := t; j < k; j++ {
			c := m[j*s+t : (j+1)*s]
			if n2 := vec.Dot(c, c); n2 > bn {
				best, bn = j, n2
			}
		}
		if best < 0 {
			break
		}
		if best != t {
			for i := 0; i < s; i++ {
				m[t*s+i], m[best*s+i] = m[best*s+i], m[t*s+i]
			}
		}
		x := m[t*s+t : (t+1)*s]
		alpha := -math.Copysign(math.Sqrt(bn), x[0])
		v := append([]float64(nil), x...)
		v[0] -= alpha
		h := householder{from: t, v: v, tau: 2 / vec.Dot(v, v)}
		for j := t + 1; j < k; j++ {
			h.apply(m[j*s : (j+1)*s])
		}
		vs = append(vs, h)
		diag = append(diag, alpha)
	}
	return vs, diag
}

// projectOut sets z to z - Q Q'z for Q = H_0 H_1 ... H_{r-1} restricted to
// its first r columns: reflect, zero the first r entries, reflect back.
func projectOut(vs []householder, z []float64) {
	for _, h := range vs {
		h.apply(z)
	}
	for t := range vs {
		z[t] = 0
	}
	for t := len(vs) - 1; t >= 0; t-- {
		vs[t].apply(z)
	}
}
