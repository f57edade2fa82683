package softpen

import (
	"fmt"
	"math"
	"strconv"

	"github.com/softpen/softpen/mat"
)

// A variable that appears in no row of Phi, A or Aeq and in no
// off-diagonal entry of P is separable: the objective's only terms in it
// are h/2 x_j^2 + q_j x_j + l1 |x_j| with h = ridge + P_jj, under its own
// bounds, so its exact minimiser is the soft-threshold of -q_j by l1,
// divided by h and clipped to [lower_j, upper_j], whatever the other
// variables are. NewSolver and Solve take such variables out before the
// solver sees the problem, when that takes less memory (worthSeparating),
// and put them back in every Result: the solver
// works on the coupled variables alone (a LIBSVM file whose largest index
// is 2^24 but whose examples use a few features is a problem of a few
// variables), and the certificate is unchanged, since the separable
// variables' part of the gap is exactly zero.

// separable holds the variables taken out of a problem and the buffers
// that give every Result the caller's n variables.
type separable struct {
	n    int
	kept []int32 // the variables the solver sees, in order
	free []int32 // the separable ones, in order
	// h, q, lo and hi are each free variable's curvature, linear term
	// and bounds (lo and hi nil without bounds); l1 is the problem's.
	h, q, lo, hi []float64
	l1           float64
	x, z         []float64 // the Result's X and LambdaBox (z nil without bounds)
	qKept        []float64 // SetQ's q for the kept variables
	// loKept, hiKept: SetBounds' bounds for the kept variables.
	loKept, hiKept []float64
	obs            []float64 // Observe's point, the caller's n variables
	f              float64   // the free variables' objective terms (settle)
}

// separableVars returns the separable variables of p (which has passed
// Validate) in order, or nil when there are none. When every variable is
// separable the solver keeps variable 0, since it needs one. It reads a
// row of Phi, A or Aeq only while some variable is still unseen, and then
// only at those, so that on dense rows it stops after the first. The
// list is made in scratch when it can hold N entries (it then aliases
// scratch), else allocated.
func separableVars(p *Problem, scratch []int32) []int32 {
	// unseen is made at the first variable that P does not couple: with
	// a dense P (most small QPs) there is none, and nothing to allocate.
	var unseen []int32
	for j := 0; j < p.N; j++ {
		coupled := false
		if p.P != nil {
			for i := range p.P {
				if i != j && (p.P[i][j] != 0 || p.P[j][i] != 0) {
					coupled = true
					break
				}
			}
		}
		if !coupled {
			if unseen == nil {
				if unseen = scratch[:0]; cap(scratch) < p.N {
					unseen = make([]int32, 0, p.N-j)
				}
			}
			unseen = append(unseen, int32(j))
		}
	}
	if p.PhiSparse != nil || p.ASparse != nil {
		// Compressed rows name their columns: mark them, keep the rest.
		seen := make([]bool, p.N)
		for _, x := range []*mat.Sparse{p.PhiSparse, p.ASparse} {
			if x != nil {
				for _, j := range x.Idx {
					seen[j] = true
				}
			}
		}
		k := 0
		for _, j := range unseen {
			if !seen[j] {
				unseen[k] = j
				k++
			}
		}
		unseen = unseen[:k]
	}
	for _, rows := range [][][]float64{p.Phi, p.A, p.Aeq} {
		for _, r := range rows {
			if len(unseen) == 0 {
				return nil
			}
			k := 0
			for _, j := range unseen {
				if int(j) < len(r) && r[j] != 0 {
					continue
				}
				unseen[k] = j
				k++
			}
			unseen = unseen[:k]
		}
	}
	if len(unseen) == 0 || p.N == 1 {
		return nil
	}
	if len(unseen) == p.N {
		unseen = unseen[1:]
	}
	return unseen
}

// worthSeparating reports whether solving p without the variables free
// takes less memory than solving it whole, for the method opt chooses and
// with own saying whether the solver copies A anyway (NewSolver): Solve
// reads the rows of A in place, and taking variables out means a copy of
// every row, which a few empty columns of many rows do not repay. On the
// sparse paths (sparse, dualCD: see newSparseSolver) the copy is of the
// compressed rows' column numbers, 4 bytes an entry, against the solver's
// vectors over the columns taken out: on Zipf data with 1e6 features,
// 5e7 entries and 0.4% of the columns empty, separating would copy 200 MB
// to save 8.
func worthSeparating(p *Problem, opt *Options, own bool, free []int32, sparse, dualCD bool) bool {
	method := MethodAuto
	if opt != nil {
		method = opt.Method
	}
	n, kept, nf := float64(p.N), float64(p.N-len(free)), float64(len(free))
	rows := float64(len(p.Phi) + len(p.A) + len(p.Aeq))
	// What the separable set itself holds: its terms, the kept columns'
	// numbers and the positions of every column, and its bounds.
	setAside := 8*(n+nf) + 4*n
	if p.Lower != nil || p.Upper != nil {
		setAside += 8 * (n + 2*nf)
	}
	if sparse {
		var entries float64
		for _, x := range []*mat.Sparse{p.PhiSparse, p.ASparse} {
			if x != nil {
				entries += float64(len(x.Idx))
			}
		}
		svrg := p.lazyMethod(method)
		apart := 8*p.sparseWords(dualCD, svrg, kept) + 4*entries + 8*rows*kept + setAside
		return apart < 8*p.sparseWords(dualCD, svrg, n)
	}
	if p.PhiSparse != nil || p.ASparse != nil {
		return true // the alternative makes every column of the rows dense
	}
	whole := float64(p.memoryEstimate(method))
	if own {
		whole += 8 * float64(len(p.A)) * n
	}
	shadow := Problem{N: p.N - len(free), Loss: p.Loss, Phi: p.Phi, A: p.A, Aeq: p.Aeq, P: p.P}
	apart := float64(shadow.memoryEstimate(method)) + 8*rows*kept + setAside
	if p.P != nil {
		apart += 8 * kept * kept
	}
	return apart < whole
}

// newSeparable returns the separable variables free of p (from
// separableVars) with their terms.
func newSeparable(p *Problem, free []int32) *separable {
	sp := &separable{n: p.N, free: free, l1: p.L1}
	sp.kept = make([]int32, 0, p.N-len(sp.free))
	k := 0
	for j := 0; j < p.N; j++ {
		if k < len(sp.free) && int(sp.free[k]) == j {
			k++
			continue
		}
		sp.kept = append(sp.kept, int32(j))
	}
	nf := len(sp.free)
	sp.h, sp.q = make([]float64, nf), make([]float64, nf)
	box := p.Lower != nil || p.Upper != nil
	if box {
		sp.lo, sp.hi = make([]float64, nf), make([]float64, nf)
	}
	for k, j := range sp.free {
		sp.h[k] = p.Ridge
		if p.P != nil {
			sp.h[k] += p.P[j][j]
		}
		if p.Q != nil {
			sp.q[k] = p.Q[j]
		}
		if box {
			sp.lo[k], sp.hi[k] = lowerAt(p.Lower, int(j)), upperAt(p.Upper, int(j))
		}
	}
	sp.x = make([]float64, p.N)
	if box {
		sp.z = make([]float64, p.N)
	}
	sp.qKept = make([]float64, len(sp.kept))
	sp.settle()
	return sp
}

// check returns an *InputError when a separable variable has no positive
// curvature (ridge + P_jj <= 0, which P's semidefiniteness test lets pass
// when P_jj < 0 is below the rounding of P's largest entries): the
// objective is then not strongly convex in it.
func (sp *separable) check() error {
	for k, h := range sp.h {
		if !(h > 0) {
			j := strconv.Itoa(int(sp.free[k]))
			return inputErr("ridge", nil, "not strongly convex: variable "+j+
				" appears in no row of phi, A or Aeq and its quadratic term ridge + P["+j+"]["+j+"] = "+
				strconv.FormatFloat(h, 'g', 4, 64)+" is not positive")
		}
	}
	return nil
}

// reduced returns p without the separable variables: the rows of Phi, A,
// Aeq and P restricted to the kept ones (new rows; p is not changed).
// Compressed rows (PhiSparse, ASparse) become dense over the kept columns,
// or with keepSparse stay compressed, their columns renumbered.
func (sp *separable) reduced(p *Problem, keepSparse bool) *Problem {
	r := *p
	r.N = len(sp.kept)
	pick := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(sp.kept))
		for k, j := range sp.kept {
			out[k] = v[j]
		}
		return out
	}
	rows := func(m [][]float64) [][]float64 {
		if m == nil {
			return nil
		}
		out := make([][]float64, len(m))
		flat := make([]float64, len(m)*len(sp.kept))
		for i, row := range m {
			out[i] = flat[i*len(sp.kept) : (i+1)*len(sp.kept) : (i+1)*len(sp.kept)]
			for k, j := range sp.kept {
				out[i][k] = row[j]
			}
		}
		return out
	}
	// Compressed rows become dense rows over the kept columns only.
	pos := make([]int, p.N)
	for j := range pos {
		pos[j] = -1
	}
	for k, j := range sp.kept {
		pos[j] = k
	}
	sparseRows := func(x *mat.Sparse) [][]float64 {
		out := make([][]float64, x.Rows)
		flat := make([]float64, x.Rows*len(sp.kept))
		for i := range out {
			out[i] = flat[i*len(sp.kept) : (i+1)*len(sp.kept) : (i+1)*len(sp.kept)]
			idx, val := x.Row(i)
			for q, j := range idx {
				out[i][pos[j]] = val[q]
			}
		}
		return out
	}
	// Or compressed still: the same entries in the same order (the kept
	// columns keep their order), new column numbers.
	renumbered := func(x *mat.Sparse) *mat.Sparse {
		out := &mat.Sparse{Rows: x.Rows, Cols: len(sp.kept), Ptr: x.Ptr, Val: x.Val, Idx: make([]int32, len(x.Idx))}
		for q, j := range x.Idx {
			out.Idx[q] = int32(pos[j])
		}
		return out
	}
	r.Phi, r.A, r.Aeq = rows(p.Phi), rows(p.A), rows(p.Aeq)
	switch {
	case keepSparse:
		if p.PhiSparse != nil {
			r.PhiSparse = renumbered(p.PhiSparse)
		}
		if p.ASparse != nil {
			r.ASparse = renumbered(p.ASparse)
		}
	default:
		if p.PhiSparse != nil {
			r.Phi, r.PhiSparse = sparseRows(p.PhiSparse), nil
		}
		if p.ASparse != nil {
			r.A, r.ASparse = sparseRows(p.ASparse), nil
		}
	}
	r.Lower, r.Upper, r.Q = pick(p.Lower), pick(p.Upper), pick(p.Q)
	if p.P != nil {
		r.P = make([][]float64, len(sp.kept))
		for k, j := range sp.kept {
			r.P[k] = pick(p.P[j])
		}
	}
	return &r
}

// minimiser returns free variable k's exact minimiser and its bound
// multiplier (> 0 at the upper bound, < 0 at the lower, as in
// Solution.LambdaBox).
func (sp *separable) minimiser(k int) (x, zb float64) {
	h, q := sp.h[k], sp.q[k]
	switch {
	case -q > sp.l1:
		x = (-q - sp.l1) / h
	case -q < -sp.l1:
		x = (-q + sp.l1) / h
	}
	if sp.lo == nil {
		return x, 0
	}
	lo, hi := sp.lo[k], sp.hi[k]
	if x <= lo {
		x = lo
	} else if x >= hi {
		x = hi
	} else {
		return x, 0
	}
	// At a bound: h x + q + w + zb = 0 with w an l1 subgradient at x,
	// the one nearest -(h x + q) when x = 0.
	r := -(h*x + q)
	w := sp.l1
	switch {
	case x < 0:
		w = -sp.l1
	case x == 0:
		w = max(-sp.l1, min(sp.l1, r))
	}
	return x, r - w
}

// expand makes res, a Result of the reduced problem, one of the caller's:
// X and LambdaBox of length n, with the free variables' minimisers, and
// the objective with their terms. It allocates nothing. A free variable
// whose minimiser or objective term overflows float64 makes the answer
// precision_limit with a message, as the solver does for its own.
func (sp *separable) expand(res *Result) {
	for k, j := range sp.kept {
		sp.x[j] = res.X[k]
	}
	if sp.z != nil {
		for k, j := range sp.kept {
			sp.z[j] = 0
			if res.LambdaBox != nil {
				sp.z[j] = res.LambdaBox[k]
			}
		}
	}
	res.X, res.LambdaBox = sp.x, sp.z
	res.Objective += sp.f
	if math.IsInf(sp.f, 0) || math.IsNaN(sp.f) {
		res.Status, res.Gap, res.DistBound = StatusPrecisionLimit, math.Inf(1), math.Inf(1)
		res.Message = "a variable that appears in no row (its minimiser is -q_j / (ridge + P_jj) after l1 and bounds) or its objective term is not finite in float64: no certificate"
	}
}

// settle writes the free variables' minimisers into x (and Observe's
// point), their bound multipliers into z and their objective terms' sum
// into f: they change only with q and the bounds (setQ, setBounds), not
// from one Solve to the next.
func (sp *separable) settle() {
	sp.f = 0
	for k, j := range sp.free {
		x, zb := sp.minimiser(k)
		sp.x[j] = x
		if sp.z != nil {
			sp.z[j] = zb
		}
		if sp.obs != nil {
			sp.obs[j] = x
		}
		sp.f += (sp.h[k]/2*x+sp.q[k])*x + sp.l1*math.Abs(x)
	}
}

// setQ checks q (the caller's length n) and stores the free variables'
// part; it returns the kept variables' part for the solver. Nothing is
// stored when q has a bad entry.
func (sp *separable) setQ(q []float64) ([]float64, error) {
	if len(q) != sp.n {
		return nil, fmt.Errorf("q: length %d, want %d (n)", len(q), sp.n)
	}
	for i, v := range q {
		if bad(v) {
			return nil, fmt.Errorf("q[%d]: %g is not finite", i, v)
		}
	}
	for k, j := range sp.kept {
		sp.qKept[k] = q[j]
	}
	for k, j := range sp.free {
		sp.q[k] = q[j]
	}
	sp.settle()
	return sp.qKept, nil
}

// observe wraps an Observe callback so that it sees the caller's n
// variables. The wrapper allocates nothing.
func (sp *separable) observe(f func(int64, []float64)) func(int64, []float64) {
	sp.obs = make([]float64, sp.n)
	sp.settle()
	return func(steps int64, x []float64) {
		for k, j := range sp.kept {
			sp.obs[j] = x[k]
		}
		f(steps, sp.obs)
	}
}

// keptBounds returns the kept variables' part of the bounds lo and hi
// (the caller's n), in buffers allocated at the first call.
func (sp *separable) keptBounds(lo, hi []float64) ([]float64, []float64) {
	if sp.loKept == nil {
		sp.loKept, sp.hiKept = make([]float64, len(sp.kept)), make([]float64, len(sp.kept))
	}
	for k, j := range sp.kept {
		sp.loKept[k], sp.hiKept[k] = lo[j], hi[j]
	}
	return sp.loKept, sp.hiKept
}

// setBounds stores the free variables' bounds from lo and hi (the
// caller's n); a separable set built without bounds allocates them and
// LambdaBox once.
func (sp *separable) setBounds(lo, hi []float64) {
	if sp.lo == nil {
		sp.lo, sp.hi = make([]float64, len(sp.free)), make([]float64, len(sp.free))
		sp.z = make([]float64, sp.n)
	}
	for k, j := range sp.free {
		sp.lo[k], sp.hi[k] = lo[j], hi[j]
	}
	sp.settle()
}
