package activeset

import "github.com/softpen/softpen/mat"

// storage is the memory a Solver allocated for itself and a later build
// (Load) reuses: a service that solves problems of one shape, one after
// the other, then allocates nothing. Nothing of the caller's is ever
// written: H with a given factor and ARows are read in place (the row
// lists of a Dense A point at the caller's rows), and B, Beq, C and the
// bounds are copied into the slabs. Each piece keeps its capacity, so a
// larger problem after a smaller one reuses what the first allocated.
type storage struct {
	// The slabs every vector of the Solver is a piece of (build).
	fl []float64
	in []int32
	bl []bool
	i8 []int8
	ws []constraint // the working set and SetObjective's copy of it
	// rowBnd: the rows' violation bounds; a, aeq: the row lists of a
	// Dense A and Aeq (denseRows).
	rowBnd []rowBound
	a, aeq [][]float64
	// hFactor's own: the copy of a dense H and its factor (when the
	// caller gives none), the diagonal of a diagonal H and its root.
	h           *mat.Dense
	chol        mat.Cholesky
	hd, ld, ldi []float64
	pool, cand  []int32
	score       []float64
	transformed transformedNormals
	// The workspace of rare steps (rareWork, keptX, the QR factor of the
	// members), kept for a problem of the same shape (shape: n, m, meq)
	// only: it is sized by them.
	rare  *rareWork
	keptX []float64
	basis orthoBasis
	shape [3]int
}

// storage returns what build may reuse: s.mem, the transformed normals
// the re-solves allocated and the workspace of rare steps.
func (s *Solver) storage() storage {
	m := s.mem
	if s.tNormals.data != nil {
		m.transformed = s.tNormals
	}
	m.rare, m.keptX, m.basis, m.shape = s.rare, s.keptX, s.basis, [3]int{s.n, s.m, s.meq}
	return m
}

// keepRare gives s the workspace of rare steps in mem when it was sized for
// s's shape: without the index of opposite rows, which is the problem's,
// and with the QR factor's storage cleared, as allocated.
func (s *Solver) keepRare() {
	if s.mem.shape != [3]int{s.n, s.m, s.meq} {
		return
	}
	if s.rare, s.keptX = s.mem.rare, s.mem.keptX; s.rare != nil {
		s.rare.opp = oppositeRows{}
	}
	if b := s.mem.basis; b.q != nil {
		clear(b.q)
		clear(b.r)
		s.basis = orthoBasis{n: b.n, cap: b.cap, q: b.q, r: b.r}
	}
}

// Load makes s the Solver of p, as New(p, opt) does, in the storage s
// allocated for the problems it held before where it fits (the same
// Solver bit for bit): a service that solves problems of one shape one
// after the other then allocates nothing (but the team of goroutines of
// Options.Threads, made anew for problems of 2^18 entries of A and more).
// The next Solve starts cold. A p that shares storage with s's vectors
// (its Result's: a C taken from the last X) is built in new storage, as
// New builds it: Load clears its storage before it reads p. After an
// error s holds no problem: it must be loaded again before a Solve, which
// panics otherwise (its setters act on no problem).
func (s *Solver) Load(p *Problem, opt *Options) error {
	if s.inStorage(p) {
		// Built in new storage, as New would: the old stays p's until
		// the build has copied it.
		s.mem = storage{}
	}
	if err := s.build(p, opt, &guess{}); err != nil {
		*s = Solver{mem: s.storage(), unloaded: true}
		return err
	}
	return nil
}

// inStorage reports whether a vector or matrix of p lives in the slab of
// s's vectors, the Result's among them.
func (s *Solver) inStorage(p *Problem) bool {
	fl := s.mem.fl[:cap(s.mem.fl)]
	for _, v := range [][]float64{p.C, p.B, p.Beq, p.Lower, p.Upper} {
		if mat.Overlaps(v, fl) {
			return true
		}
	}
	for _, m := range []*mat.Dense{p.H, p.A, p.Aeq} {
		if m != nil && mat.Overlaps(m.Data, fl) {
			return true
		}
	}
	for _, r := range p.ARows {
		if mat.Overlaps(r, fl) {
			return true
		}
	}
	return false
}

// reuse returns old[:k] cleared when old can hold k entries, else a new
// slice of length k: either way k zero entries, as make gives, and the
// capacity of old kept for the next reuse.
func reuse[T any](old []T, k int) []T {
	if cap(old) < k {
		return make([]T, k)
	}
	v := old[:k]
	clear(v)
	return v
}
