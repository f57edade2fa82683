package activeset

import (
	"runtime"
	"sync/atomic"
	"time"
)

// rowTeam runs the passes over every row of A on several goroutines: the
// rows are cut once into contiguous chunks of about equal size, whole
// spans of a scan of every row (checkRows), chunk k goes to goroutine k
// (chunk 0 to the caller's), and what the chunks find is combined in the
// order of the chunks. Every pass gives the bits of one goroutine's,
// whatever the number of chunks, and whichever goroutine runs a chunk: the
// caller, done with chunk 0, runs every chunk whose goroutine has not yet
// taken it (do), so that a pass never waits for a goroutine that a busy
// machine has not yet scheduled.
//
// The goroutines' functions are made once, in newRowTeam: a pass
// allocates nothing. A goroutine that has run its chunk, or started after
// its pass ended, waits for the next pass spinning (linger), and returns
// after teamLinger without one, or at once when the team rests (the end
// of a solve: the next one may be another Solver's, whose goroutines this
// one's would hold up). While it is alive no other is started for its
// chunk, so that the goroutines of a busy machine do not pile up (a new
// goroutine allocates).
type rowTeam struct {
	bounds []int          // chunk k is rows bounds[k]:bounds[k+1]
	start  []func()       // start[k] runs chunk k of job unless it is taken (k >= 1)
	state  []atomic.Int32 // chunk k's: chunkFree, chunkTaken or chunkDone
	alive  []atomic.Bool  // chunk k's goroutine has been started and not returned
	busy   atomic.Bool    // passes may follow: the goroutines linger (do sets it, rest clears it)
	done   chan struct{}  // a goroutine has run a chunk it took
	job    func(k, lo, hi int)
}

// The states of a chunk: free until a goroutine takes it in a pass, done
// between passes.
const (
	chunkFree int32 = iota
	chunkTaken
	chunkDone
)

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
	t := &rowTeam{bounds: make([]int, chunks+1), start: make([]func(), chunks),
		state: make([]atomic.Int32, chunks), alive: make([]atomic.Bool, chunks), done: make(chan struct{}, chunks)}
	for k := 0; k <= chunks; k++ {
		t.bounds[k] = min(m, k*blocks/chunks*block)
	}
	for k := 1; k < chunks; k++ {
		t.state[k].Store(chunkDone)
		t.start[k] = func() {
			for {
				if t.state[k].CompareAndSwap(chunkFree, chunkTaken) {
					t.job(k, t.bounds[k], t.bounds[k+1])
					t.state[k].Store(chunkDone)
					t.done <- struct{}{}
				}
				if !t.linger(k) {
					t.alive[k].Store(false)
					return
				}
			}
		}
	}
	// Started now, the goroutines are running when the first pass (the
	// rows' norms, soon after) comes: woken by it, they took part of it
	// 65-165 µs late on the large QP.
	t.busy.Store(true)
	for k := 1; k < chunks; k++ {
		t.alive[k].Store(true)
		go t.start[k]()
	}
	return t
}

// rest tells the goroutines that no pass follows soon (a solve has
// ended): they return instead of lingering. The next pass starts them
// again.
func (t *rowTeam) rest() {
	if t != nil {
		t.busy.Store(false)
	}
}

// splits says which passes, besides those over every row's entries (the
// rows' norms, the products with a hot start's guess), run on the team:
// those whose work is several times the cost of a pass on the team, that
// of waking and joining the other goroutines (BenchmarkTeamDo, rows=2).
// Each pass gives the same bits either way.
type splits struct {
	rows   bool // the scans of every row and the candidates of the pool's rebuilds
	sample bool // the sampled rows of the pool's rebuilds (rebuildPool)
}

// minSplitRows is the fewest rows whose violation bounds a pass on the
// team checks: about 2 ns a row (BenchmarkTeamDo).
const minSplitRows = 1 << 14

// newSplits is the splits of a team on m rows.
func newSplits(m int) splits {
	return splits{rows: m >= minSplitRows, sample: m/poolStride >= minSplitRows}
}

// chunks is the number of chunks.
func (t *rowTeam) chunks() int { return len(t.start) }

// do runs job(k, lo, hi) for every chunk, chunk 0 on the calling goroutine,
// and returns when all are done.
//
// The job is set before the chunks are freed, and read by a goroutine
// only once it has taken a chunk of this pass; each chunk taken by a
// goroutine sends on done once it has run, and the caller waits for
// exactly those.
func (t *rowTeam) do(job func(k, lo, hi int)) {
	t.job = job
	t.busy.Store(true)
	for k := 1; k < len(t.start); k++ {
		t.state[k].Store(chunkFree)
		if t.alive[k].CompareAndSwap(false, true) {
			go t.start[k]()
		}
	}
	job(0, t.bounds[0], t.bounds[1])
	taken := 0
	for k := 1; k < len(t.start); k++ {
		if t.state[k].CompareAndSwap(chunkFree, chunkTaken) {
			job(k, t.bounds[k], t.bounds[k+1])
			t.state[k].Store(chunkDone)
		} else {
			taken++
		}
	}
	for ; taken > 0; taken-- {
		<-t.done
	}
	t.job = nil
}

// teamLinger is how long a goroutine of the team waits for the next pass
// before it returns. A parked goroutine that a pass wakes (or a new one)
// can take longer to run than the caller takes for chunk 0 of a pass
// that checks violation bounds only: the caller then runs the other
// chunks too, and the pass gains nothing. On the large QP (m = 1e5, n =
// 100) with two goroutines, new goroutines took 3 or 4 of the 12 passes'
// second chunks; lingering ones take 11 or 12. The passes of a solve
// come a millisecond or less apart; spinning between them, as OpenMP's
// and BLAS's threads do, costs a core for at most teamLinger after the
// last. The spin yields the processor (runtime.Gosched) every few
// checks, so other goroutines still run.
const teamLinger = time.Millisecond

// linger waits, spinning, until chunk k is freed by the next pass (true),
// or the team rests or teamLinger has passed (false).
func (t *rowTeam) linger(k int) bool {
	deadline := time.Now().Add(teamLinger)
	for i := 1; ; i++ {
		if t.state[k].Load() == chunkFree {
			return true
		}
		if !t.busy.Load() {
			return false
		}
		if i%64 == 0 {
			if time.Now().After(deadline) {
				return false
			}
			runtime.Gosched()
		}
	}
}
