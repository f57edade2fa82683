package activeset

import "sync"

// rowTeam runs the passes over every row of A on several goroutines: the
// rows are cut once into contiguous chunks of about equal size, whole
// spans of a scan of every row (checkRows), chunk k goes to goroutine k
// (chunk 0 to the caller's), and what the chunks find is combined in the
// order of the chunks. Every pass gives the bits of one goroutine's,
// whatever the number of chunks.
//
// The goroutines' functions are made once, in newRowTeam: a pass
// allocates nothing and leaves no goroutine behind.
type rowTeam struct {
	bounds []int    // chunk k is rows bounds[k]:bounds[k+1]
	start  []func() // start[k] runs chunk k of job (k >= 1)
	wg     sync.WaitGroup
	job    func(k, lo, hi int)
}

// minChunkEntries is the fewest entries of A a chunk is given: a pass over
// 2^17 entries (1 MiB) takes about 100 µs, against a few µs to start and
// join a goroutine, so smaller problems keep one chunk.
const minChunkEntries = 1 << 17

// newRowTeam returns a team for m rows of n entries with up to threads
// chunks, or nil when one chunk is all the rows are worth. Each chunk is
// whole spans of block rows of a scan of every row (checkRows), the last
// perhaps short.
func newRowTeam(m, n, block, threads int) *rowTeam {
	blocks := (m + block - 1) / block
	chunks := min(threads, m*max(n, 1)/minChunkEntries, blocks)
	if chunks < 2 {
		return nil
	}
	t := &rowTeam{bounds: make([]int, chunks+1), start: make([]func(), chunks)}
	for k := 0; k <= chunks; k++ {
		t.bounds[k] = min(m, k*blocks/chunks*block)
	}
	for k := 1; k < chunks; k++ {
		t.start[k] = func() {
			t.job(k, t.bounds[k], t.bounds[k+1])
			t.wg.Done()
		}
	}
	return t
}

// splits says which passes, besides those over every row's entries (the
// rows' norms, the products with a hot start's guess), run on the team:
// those whose work is several times the cost of a pass on the team, that
// of waking and joining the other goroutines (BenchmarkTeamDo, rows=2).
// Each pass gives the same bits either way.
type splits struct {
	rows   bool // the scans of every row and the candidates of the pool's rebuilds
	sample bool // the sampled rows of the pool's rebuilds (rebuildPool)
	pool   bool // the scans of the pool
}

// minSplitRows is the fewest rows whose violation bounds a pass on the
// team checks: about 2 ns a row (BenchmarkTeamDo).
const minSplitRows = 1 << 14

// minSplitPool is the fewest entries, pool rows times n, of a scan of the
// pool on the team: about half of its rows are computed, each read from
// memory (BenchmarkLargeQP).
const minSplitPool = 1 << 16

// newSplits is the splits of a team on m rows of n entries and a pool of
// k rows.
func newSplits(m, n, k int) splits {
	return splits{rows: m >= minSplitRows, sample: m/poolStride >= minSplitRows, pool: k > 0 && k*n >= minSplitPool}
}

// chunks is the number of chunks.
func (t *rowTeam) chunks() int { return len(t.start) }

// do runs job(k, lo, hi) for every chunk, chunk 0 on the calling goroutine,
// and returns when all are done.
func (t *rowTeam) do(job func(k, lo, hi int)) {
	t.job = job
	t.wg.Add(len(t.start) - 1)
	for _, f := range t.start[1:] {
		go f()
	}
	job(0, t.bounds[0], t.bounds[1])
	t.wg.Wait()
	t.job = nil
}
