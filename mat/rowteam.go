package mat

import (
	"sort"
	"sync"

	"github.com/softpen/softpen/vec"
)

// RowTeam runs the passes over a sparse matrix's rows on several
// goroutines: the rows are cut once into chunks of about equal nonzeros,
// chunk k goes to goroutine k, and what the chunks compute is combined in
// the order of the chunks. So a pass gives the same bits on every run for
// a given number of chunks; with one chunk it is the plain loop.
//
// A team makes its goroutines' functions once, in NewRowTeam, and starts
// them anew for each pass: a pass allocates nothing and leaves no
// goroutine behind. A team is for one goroutine's use at a time.
type RowTeam struct {
	m      *Sparse
	bounds []int       // chunk k is rows bounds[k]:bounds[k+1]
	part   [][]float64 // part[k], k >= 1: chunk k's share of a product M'y
	start  []func()    // start[k] runs chunk k of job (k >= 1)
	wg     sync.WaitGroup
	job    func(k, lo, hi int)
	// The operands of the product in progress, and its three jobs.
	dst, x, w, u             []float64
	mulVec, mulTrans, normal func(k, lo, hi int)
}

// minChunkNNZ is the fewest nonzeros a chunk is given: a pass over 2^16
// nonzeros takes some 50 µs, against a few µs to start and join a
// goroutine, so smaller problems keep one chunk and the plain loop.
const minChunkNNZ = 1 << 16

// NewRowTeam returns a team for m with up to threads chunks (fewer when m
// has fewer than minChunkNNZ nonzeros a chunk; threads < 1 counts as 1).
// It keeps m, whose shape must not change, and allocates a vector of
// length m.Cols for each chunk past the first.
func NewRowTeam(m *Sparse, threads int) *RowTeam {
	chunks := max(1, min(threads, m.NNZ()/minChunkNNZ))
	t := &RowTeam{m: m, bounds: make([]int, chunks+1), part: make([][]float64, chunks), start: make([]func(), chunks)}
	nnz := m.NNZ()
	for k := 1; k < chunks; k++ {
		// The first row at or past k/chunks of the nonzeros.
		t.bounds[k] = sort.SearchInts(m.Ptr[:m.Rows+1], k*nnz/chunks)
	}
	t.bounds[chunks] = m.Rows
	for k := 1; k < chunks; k++ {
		t.part[k] = make([]float64, m.Cols)
		t.start[k] = func() {
			t.job(k, t.bounds[k], t.bounds[k+1])
			t.wg.Done()
		}
	}
	t.mulVec = func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			idx, val := m.Row(i)
			t.dst[i] = vec.DotSparse(idx, val, t.x)
		}
	}
	t.mulTrans = func(k, lo, hi int) {
		out := t.dst
		if k > 0 {
			out = t.part[k]
			clear(out)
		}
		for i := lo; i < hi; i++ {
			if yi := t.x[i]; yi != 0 {
				idx, val := m.Row(i)
				vec.AxpySparse(yi, idx, val, out)
			}
		}
	}
	t.normal = func(k, lo, hi int) {
		out := t.dst
		if k > 0 {
			out = t.part[k]
			clear(out)
		}
		for i := lo; i < hi; i++ {
			idx, val := m.Row(i)
			ui := vec.DotSparse(idx, val, t.x) * t.w[i]
			t.u[i] = ui
			if ui != 0 {
				vec.AxpySparse(ui, idx, val, out)
			}
		}
	}
	return t
}

// Chunks returns the number of chunks (and goroutines) of a pass.
func (t *RowTeam) Chunks() int { return len(t.start) }

// Do calls job(k, lo, hi) for every chunk k, rows lo to hi, chunk 0 on
// the calling goroutine and the others each on its own, and returns when
// all have. job must be a function made once (a closure made per call
// would be an allocation each time) and must write only what its chunk
// owns.
func (t *RowTeam) Do(job func(k, lo, hi int)) {
	n := len(t.start)
	if n == 1 {
		job(0, 0, t.m.Rows)
		return
	}
	t.job = job
	t.wg.Add(n - 1)
	for k := 1; k < n; k++ {
		go t.start[k]()
	}
	job(0, t.bounds[0], t.bounds[1])
	t.wg.Wait()
	t.job = nil
}

// MulVec sets dst = M x, as Sparse.MulVec does and with the same bits
// (each row's product is one chunk's). dst must not alias x.
func (t *RowTeam) MulVec(dst, x []float64) {
	check("RowTeam.MulVec", len(dst), t.m.Rows, "dst")
	check("RowTeam.MulVec", len(x), t.m.Cols, "x")
	t.dst, t.x = dst, x
	t.Do(t.mulVec)
	t.dst, t.x = nil, nil
}

// MulTransVecAdd sets dst += M'y: chunk 0 adds its rows into dst as
// Sparse.MulTransVecAdd does, each other chunk sums its rows apart, and
// those sums are added to dst in the order of the chunks. With one chunk
// the bits are Sparse.MulTransVecAdd's; with more, they differ from them
// by rounding only. dst must not alias y.
func (t *RowTeam) MulTransVecAdd(dst, y []float64) {
	check("RowTeam.MulTransVecAdd", len(dst), t.m.Cols, "dst")
	check("RowTeam.MulTransVecAdd", len(y), t.m.Rows, "y")
	t.dst, t.x = dst, y
	t.Do(t.mulTrans)
	for _, p := range t.part[1:] {
		vec.Axpy(1, p, dst)
	}
	t.dst, t.x = nil, nil
}

// NormalAdd sets u = diag(w) M x and dst += M'u (= M' diag(w) M x) in one
// pass over the rows: each row's product with x, scaled by w_i, is added
// back along the row while the row is still in cache, so the matrix is
// read from memory once instead of twice. The bits are those of MulVec
// into u, u_i *= w_i, then MulTransVecAdd(dst, u). dst, x, w and u must
// not alias one another.
func (t *RowTeam) NormalAdd(dst, x, w, u []float64) {
	check("RowTeam.NormalAdd", len(dst), t.m.Cols, "dst")
	check("RowTeam.NormalAdd", len(x), t.m.Cols, "x")
	check("RowTeam.NormalAdd", len(w), t.m.Rows, "w")
	check("RowTeam.NormalAdd", len(u), t.m.Rows, "u")
	t.dst, t.x, t.w, t.u = dst, x, w, u
	t.Do(t.normal)
	for _, p := range t.part[1:] {
		vec.Axpy(1, p, dst)
	}
	t.dst, t.x, t.w, t.u = nil, nil, nil, nil
}
