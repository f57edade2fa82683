package solver

import (
	"errors"
	"fmt"
	"time"

	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/internal/dualcd"
	"github.com/softpen/softpen/internal/newtoncg"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Solver is a reusable workspace for one problem. New does every allocation
// but one: Solve allocates nothing, except that the first re-solve of the
// exact engine on a small problem allocates its transformed normals
// (activeset.Solver.Solve), so repeated (warm) solves in a loop are free
// of garbage. A Solver is not safe for concurrent use.
type Solver struct {
	opt Options
	n   int

	// The objective, in the caller's terms.
	loss         Loss
	phi          *mat.Dense  // l x n (copy), nil without a loss and on the direct path
	phiRows      [][]float64 // Phi's rows: the caller's until New has chosen the path, then s.phi's (nil on the direct path)
	y            []float64
	l            int
	ridge, l1    float64
	offset       float64
	lower, upper []float64 // nil without a box
	pm           *mat.Dense
	q            []float64

	// The quadratic model F(x) = 1/2 x^T H x + c^T x + c0 (+ l1, box), formed
	// when the loss is squared or none and n <= maxDenseHessian.
	quad  bool
	h     *mat.Dense
	c     []float64
	cLoss []float64 // c without q: the loss's part (SetQ)
	// modelH and modelC bound the rounding of forming H and the loss's
	// part of c from the caller's data (modelRounding).
	modelH, modelC float64
	// scaledH, scaledC and scaledS are the same bounds in the metric of
	// H's diagonal, S = diag(sqrt(H_jj)) (scaledRounding, scaledGap);
	// scaledMu, once scaledGap has needed it (0 before, -1 if none), a
	// certified lower bound on the least eigenvalue of S^-1 H S^-1;
	// scaledBuf its certification's scratch.
	scaledH, scaledC, scaledMu float64
	scaledS, scaledBuf         []float64
	pRounding                  float64 // Problem.PRounding
	c0                         float64
	chol                       mat.Cholesky
	// hRowNorm holds ||H_i|| and hDiagMax max_i H_ii, made at the first
	// certificate (quadGap).
	hRowNorm []float64
	hDiagMax float64
	// smooth holds the row norms of the model that is not quadratic,
	// made at its first certificate (rounding.go; nil until then).
	smooth *smoothNorms

	mu float64 // certified strong convexity constant of F
	lf float64 // upper bound on the smoothness constant of the smooth part
	// lp bounds ||P||_2 (0 without P): the curvature that the stochastic
	// methods' steps take whole, not sampled (addDeterministic), which
	// their steps must allow for as the components' smoothness does.
	lp float64

	// The working constraints: unit-norm rows (A and both signs of Aeq),
	// compacted in place when screening drops rows. With a working set
	// (lazy), only the kept block a.Row(0..kept-1) holds row data; the
	// other rows are read from the caller's matrices (srcRows or srcA, and
	// srcEq, kept in either mode) and normalised on the fly, so New copies
	// none of them.
	a         *mat.Dense
	b         []float64
	code      []rowCode // caller row of each working row
	norm      []float64 // caller row norm of each working row
	bSrc      []float64 // caller's right-hand side of each working row, times its sign (sourceRow)
	m, meq    int       // caller's row counts
	mw        int       // working rows before screening
	kept      int       // working rows now
	smax      float64   // upper bound on ||A||_2 of the kept rows (read it with sMax)
	smaxStale bool      // the kept rows changed since smax was computed

	infeasibleRow rowCode // a zero row with b < 0, or noRow

	lazy    bool        // working-set mode: rows outside the kept block are not stored
	srcRows [][]float64 // the caller's A as rows (or nil)
	srcA    *mat.Dense  // the caller's A as a matrix (or nil)
	srcEq   *mat.Dense  // the caller's Aeq

	lfCert float64 // certified (Gershgorin / Frobenius) smoothness bound, for the dual bound
	steps  int64   // incremental steps of the current solve
	// Options.Observe is next due at step count obsNext (MaxInt64: never),
	// then every obsEvery steps (observe.go).
	obsNext, obsEvery int64
	stages            int
	warm              bool // state.x holds the previous solution

	lastXi float64 // the xi of the last result's certificate (F_{xi,0})

	zeroRows []int // caller inequality rows that are zero (left out of the working set)

	rng   rng
	state workspace
	res   Result

	direct *activeset.Solver // the direct path (direct.go), or nil
	// pending is the problem whose direct engine New left for the first
	// Solve with time for it, and cutX the sample's point meanwhile
	// (newDirect); nil once built.
	pending    *Problem
	cutX       []float64
	sample     sampledStart        // the direct path's sampled start on many rows (sample.go)
	fin        finisher            // the penalty method's exact finisher (handover.go)
	outside    *outsideBounds      // bounds on the outside rows' residuals (outside.go), nil without a working set
	newton     *newtonWork         // Newton steps for a logistic loss (newton.go), or nil
	sparse     *newtoncg.Workspace // the sparse-rows path (sparse.go), or nil
	sparseSVRG *lazySVRG           // SVRG on it (lazysvrg.go), or nil: Newton-CG
	// sparseRun is the sparse path's current solve, its budget, and
	// finisher dual-cd's finisher's storage (supportfinish.go): both
	// made by newSparseBase only, nil on the dense paths, whose set-up of
	// a small problem is mostly allocation (the Solver's size counts).
	sparseRun  *run
	sparseBase int64             // rows a sparse solve evaluated before Newton-CG took over (handover)
	cd         *dualcd.Workspace // the sparse-rows path of a ridge objective with rows (sparserows.go), or nil
	finisher   *supportFinisher
	mem        storage // what the Solver allocated for itself, for Load
	keepFactor bool    // build keeps mem's factor and mu (keptModel)
}

// New copies and normalises the data of p, which must be valid (see
// Problem), certifies the strong convexity of F and allocates the whole
// workspace. It returns an error when the options are invalid, F is not
// strongly convex, or a row of A or Aeq is not finite or cannot be scaled
// to unit norm (see Problem). The Solver keeps no pointer to *p itself
// (only to the vectors and matrices it holds), so p may live on the
// caller's stack.
func New(p *Problem, opt *Options) (*Solver, error) {
	start := time.Now()
	if p == nil {
		return nil, errors.New("solver: nil problem")
	}
	if p.PhiSparse != nil {
		return newSparse(p, opt)
	}
	if p.ASparse != nil {
		return newSparseRows(p, opt)
	}
	if opt != nil && (opt.Method == MethodNewtonCG || opt.Method == MethodDualCD) {
		return nil, fmt.Errorf("options: method %v runs on sparse rows (Problem.PhiSparse, ASparse) only", opt.Method)
	}
	s := new(Solver)
	if err := s.build(p, opt, start); err != nil {
		return nil, err
	}
	return s, nil
}

// build makes s the Solver of p (New, for the dense paths), in the storage
// s allocated for an earlier problem where it fits (Load; load.go) and in
// new allocations elsewhere: the same Solver bit for bit. After an error s
// holds no problem (only its storage).
func (s *Solver) build(p *Problem, opt *Options, start time.Time) error {
	*s = Solver{n: p.N, infeasibleRow: noRow, mem: s.storage()}
	// The factored model is valid again only once this build forms it.
	model := s.mem.model
	s.mem.model = keptModel{}
	if opt != nil {
		s.opt = *opt
	}
	if err := s.opt.check(); err != nil {
		return err
	}
	s.m, s.meq = p.rows()
	fl := s.copyObjective(p)
	if s.keepFactor = model.keeps(s, p); s.keepFactor {
		s.mu = model.mu
	}
	direct, err := s.useDirect()
	if err != nil {
		return err
	}
	newton, err := s.useNewton()
	if err != nil {
		return err
	}
	s.opt = s.opt.withDefaults()
	if direct {
		// The direct path keeps none of the penalty method's storage.
		if err := s.buildModel(false, &fl); err != nil {
			return err
		}
		if err := s.newDirect(p, start); err != nil {
			return err
		}
		// The model holds the objective (objective reads H): the direct
		// path keeps no copy of Phi.
		s.phiRows = nil
	} else {
		if s.l > 0 {
			// s.phiRows may be the caller's slice: copy, then point a
			// new one at the copy.
			s.phi = mat.NewDense(s.l, s.n)
			rows := make([][]float64, s.l)
			for i, r := range s.phiRows {
				rows[i] = s.phi.Row(i)
				copy(rows[i], r)
			}
			s.phiRows = rows
		}
		if err := s.copyConstraints(p); err != nil {
			return err
		}
		if err := s.buildModel(true, &fl); err != nil {
			return err
		}
		if err := s.newFinisher(p); err != nil {
			return err
		}
		s.allocOutside()
		s.state.alloc(s)
		if newton {
			s.newNewton(p)
		}
		if !s.useWorkingSet() {
			// With a working set, Solve sizes smax for the rows it starts on.
			s.updateSmax()
		}
	}
	s.allocResult(direct, &fl)
	s.res.Impl = vec.Impl()
	s.dropTrial()
	return nil
}

// resultFloats is the length of allocResult's pieces of fl.
func (s *Solver) resultFloats() int { return 3*s.n + 2*(s.m+s.meq) }

// allocResult sizes the Result's vectors, and the direct path's one
// scratch vector, as pieces of fl (copyObjective's allocation: a small
// problem's set-up is mostly allocation, and the garbage collector's work
// grows with each).
func (s *Solver) allocResult(direct bool, fl *floats) {
	s.res.X, s.res.Z = fl.take(s.n), fl.take(s.n)
	s.res.Lambda, s.res.Nu, s.res.Farkas = fl.take(s.m), fl.take(s.meq), fl.take(s.m+s.meq)
	if direct {
		s.state.tmp = fl.take(s.n)
	}
	// Only the penalty method (and its finisher) lists rows as Screened
	// or Outside; the direct path leaves both empty, and its m rows of
	// capacity would be 16 bytes a row of zeroed memory for nothing.
	rowLists := s.m
	if direct {
		rowLists = 0
	}
	s.res.Screened, s.res.Outside = make([]int, 0, rowLists), make([]int, 0, rowLists)
}

// workspace holds every vector the solve needs; alloc sizes them once.
type workspace struct {
	x, xPrev, yv, g, xt, tmp []float64 // length n
	snap, full, z, mom       []float64 // length n: SVRG snapshot and its full gradient, catalyst centre, momentum
	avg                      []float64 // length n: SGD's running average of the iterates
	best                     []float64 // length n: best certified point
	cycX, cycY               []float64 // length n: APG's saved state (cycle)
	gy, hd                   []float64 // length n: proxQuadGap's scratch
	r, lam, lamBest          []float64 // length mw: residuals and multipliers of the working rows
	dSnap                    []float64 // length l+mw: SVRG snapshot scalars per component
	rl                       []float64 // length l: loss residuals
	phiX                     phiCache  // phi x and grad f(x) at the last two points (not the quadratic model)
	lossW                    alias     // sampling of the loss rows by smoothness
	phase                    phaseWork // allocated by phase one on first use
}

func (w *workspace) alloc(s *Solver) {
	n, mw, l := s.n, s.mw, s.l
	f := func(k int) []float64 { return make([]float64, k) }
	w.x, w.xPrev, w.yv, w.g, w.xt, w.tmp = f(n), f(n), f(n), f(n), f(n), f(n)
	w.snap, w.full, w.z, w.mom, w.avg = f(n), f(n), f(n), f(n), f(n)
	w.best = f(n)
	w.cycX, w.cycY = f(n), f(n)
	if s.quad { // SetBounds may give a box later
		w.gy, w.hd = f(n), f(n)
	}
	w.r, w.lam, w.lamBest = f(mw), f(mw), f(mw)
	w.dSnap = f(l + mw)
	w.rl = f(l)
	if l > 0 && !s.quad {
		w.phiX.alloc(n, l)
	}
	if l > 0 {
		wt := make([]float64, l)
		for i := range wt {
			r := s.phi.Row(i)
			wt[i] = vec.Dot(r, r)
		}
		w.lossW.build(wt)
	}
}

// Reset forgets the warm start: the next Solve starts from x = 0.
func (s *Solver) Reset() {
	clear(s.state.x)
	s.warm = false
	if s.sparse != nil {
		s.sparse.Reset()
	}
	if s.sparseSVRG != nil {
		s.sparseSVRG.reset()
	}
	if s.cd != nil {
		s.cd.Reset()
	}
	if s.direct != nil {
		s.direct.Reset()
		s.sample.reset()
	}
	if s.newton != nil {
		s.newton.eng.Reset()
	}
}
