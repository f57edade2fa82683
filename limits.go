package softpen

import (
	"strconv"

	"github.com/softpen/softpen/internal/solver"
)

// DefaultMemoryLimit is the memory Solve and NewSolver let a problem take
// unless Options.MaxMemory (cmd/softpen's -max-memory) says otherwise:
// 4 GiB, a budget most machines have, so that a mistyped "n" is refused
// with a message naming the limit instead of ending in the out-of-memory
// killer or a runtime stack trace.
const DefaultMemoryLimit int64 = 4 << 30

// MemoryError is what Solve and NewSolver return, before allocating
// anything large, for a problem whose MemoryEstimate is above the limit.
type MemoryError struct {
	Estimate int64 // Problem.MemoryEstimate, bytes
	Limit    int64 // the limit it exceeds, bytes
}

func (e *MemoryError) Error() string {
	return "the solver would need about " + FormatBytes(e.Estimate) + " (Problem.MemoryEstimate), above the memory limit of " +
		FormatBytes(e.Limit) + " (Options.MaxMemory, default DefaultMemoryLimit); raise it, or set it to -1 for no limit, if this machine has the memory"
}

// CheckMemory returns a *MemoryError when p's memory estimate for the
// method opt chooses (MemoryEstimate for MethodAuto and MethodActiveSet;
// the penalty method's storage for the others) is above the limit opt sets
// (Options.MaxMemory: 0 or a nil opt means DefaultMemoryLimit, a negative
// value no limit), and nil otherwise. Solve and NewSolver call it after
// Validate; it only reads the sizes of p.
func (p *Problem) CheckMemory(opt *Options) error {
	limit := DefaultMemoryLimit
	method := MethodAuto
	if opt != nil {
		method = opt.Method
		if opt.MaxMemory != 0 {
			limit = opt.MaxMemory
		}
	}
	if est := p.memoryEstimate(method); limit > 0 && est > limit {
		return &MemoryError{Estimate: est, Limit: limit}
	}
	return nil
}

// FormatBytes writes n in the largest binary unit (KiB, MiB, GiB, TiB)
// that keeps it at least 1, to three significant digits: 3.4GiB, 512MiB.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		s string
		f float64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if float64(n) >= u.f {
			return strconv.FormatFloat(float64(n)/u.f, 'g', 3, 64) + u.s
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// MemoryEstimate returns about how many bytes NewSolver and Solve allocate
// for p with MethodAuto, before allocating any of it, so that a caller can refuse a problem
// that would not fit. It counts the solver's own storage, not p itself.
// With n variables, l loss rows, m rows in A, meq rows in Aeq, mw = m +
// 2 meq working rows and k = min(mw, n), it is 8 bytes times
//
//	16 n                            iterates, gradients, averages, bounds
//	+ l n + meq n + mw n            the solver's copy of Phi, Aeq, unit
//	                                rows of A
//	+ n^2           (with P)        dense copy of P
//	+ 12 mw + 4 l                   residuals, multipliers, row codes, results
//	+ 5 n^2 + 14 (m + meq) + T      Hessian, its Cholesky factor, the
//	                                strong-convexity certificate's
//	                                factor, and the active-set
//	                                engine of the exact finish (normals,
//	                                Gram factor, per-row state), when the
//	                                objective is quadratic (loss not
//	                                "logistic") and n <= 3000 (the solver's
//	                                dense-model limit) and a penalty method
//	                                is chosen (CheckMemory)
//	+ 3 n^2 + 11 (m + meq) + 2 mw   the Newton steps' Hessian and engine
//	  + l + 30 n + T                (logistic, n <= 3000)
//	+ 2 n^2         (logistic or n > 3000, with P)  P + ridge I and its factor
//	+ 2 l + 4 n     (logistic or n > 3000, with Phi)  Phi x and the
//	                                gradient at the last two points
//
// MethodAuto takes the direct path for a quadratic objective (with n <=
// 3000): the penalty method's storage is not allocated, and the estimate
// is instead 8 bytes times
//
//	24 n + l n + 15 (m + meq)       vectors, Phi's columns (read once to
//	                                form Phi'Phi), per-row state
//	+ 1.75 m        (m >= max(10000, 200 n)) the samples' engines (a
//	                                twentieth of the rows) and the rows'
//	                                products with the sample's answer
//	+ n^2           (with P)        dense copy of P
//	+ 4 n^2 + T                     Hessian, its factor, the working set's
//	                                normals and Gram factor
//
// where T = (m + n) n + m + n while (m + n) n <= 2^16, 0 above: the
// engine's transformed normals of the rows and bounds it has admitted,
// which a Solver's first re-solve allocates (a single solve allocates
// that much less).
//
// (the rows are read in place; NewSolver adds its own copy of A, 8 m n
// bytes, which Solve does not make)
//
// With ASparse, a ridge objective and b < 0 (the hard-margin SVM), the
// rows are read in place and the estimate is 8 (9 m + 6 n) bytes.
// With PhiSparse and the fitting model (no Aeq or P, ridge > 0), the
// rows are read in place and the estimate is 8 (6 l + 22 n) bytes, plus
// 8 (10 m + 3 n) with m rows of A on the same path (their compressed copy
// too when given densely); with PhiSparse otherwise it is as above, l n
// included for the dense copy of the rows.
//
// Variables that appear in no row (columns.go) are counted as the
// solver's; NewSolver and Solve leave them out of what the solver sees
// when that takes less memory, and then allocate less than the estimate.
//
// It is an estimate: on the problems of limits_test.go it is within 25% of
// what Solve allocates (the paper's QP 1.14x, mushrooms 0.93x, a problem of
// 2^20 variables in one row 0.97x, a logistic loss with l = 2000, n = m = 100 0.96x,
// the large QP with m = 1e5 1.07x, a separable SVM with m = 2.5e5, n = 10
// 0.99x); the penalty method's working set (many more rows than variables)
// stores only part of the unit rows, and there it is up to 6x above
// (NewSolver, which copies every row, allocates more). Sizes are taken from the fields as they
// are (N, len(Phi), len(A), len(Aeq)); p need not be valid. The result
// saturates at math.MaxInt64 instead of overflowing.
func (p *Problem) MemoryEstimate() int64 { return p.memoryEstimate(MethodAuto) }

// memoryEstimate is MemoryEstimate for the given method: the direct path's
// figure for MethodAuto and MethodActiveSet on a quadratic objective, the
// penalty method's otherwise.
func (p *Problem) memoryEstimate(method Method) int64 {
	n := float64(max(p.N, 0))
	l, m, meq := float64(p.lossRows()), float64(p.rowsOfA()), float64(len(p.Aeq))
	if dualCD := p.dualCDPath(method); dualCD || p.sparsePath(method) {
		return saturate(8 * p.sparseWords(dualCD, p.lazyMethod(method), n))
	}
	mw := m + 2*meq
	words := 16*n + l*n + meq*n + mw*n + 12*mw + 4*l
	if p.P != nil {
		words += n * n
	}
	quad := p.Loss != "logistic" && p.N <= memDenseModelMax
	if quad && (method == MethodAuto || method == MethodActiveSet) {
		// Per row: the engine's vectors and bounds (70 bytes,
		// activeset.TestNewBytesPerRow), Lambda and Farkas here and in
		// the Result.
		words = 24*n + l*n + 11*(m+meq) + 4*n*n + keptNormals(m, n)
		if m >= float64(max(10000, 200*p.N)) {
			// The samples' engines (a twentieth of the rows) and New's
			// products of the rows with the sample's answer.
			words += 11*m/20 + m
		}
		if p.P != nil {
			words += n * n
		}
		return saturate(8 * words)
	}
	if quad { // 2n: the certificate's scratch with l1 or a box
		return saturate(8 * (words + 5*n*n + 14*(m+meq) + 2*n + keptNormals(m, n)))
	}
	if l > 0 { // phiCache: Phi x and the gradient at two points
		words += 2*l + 4*n
	}
	if p.Loss == "logistic" && p.N <= memDenseModelMax {
		words += 3*n*n + 11*(m+meq) + 2*mw + l + 30*n + keptNormals(m, n)
	}
	if p.P != nil {
		words += 2 * n * n
	}
	return saturate(8 * words)
}

// keptNormals is what an active-set engine on m rows and n variables
// keeps of its rows' and bounds' transformed normals: (m + n) n + m + n
// floats while (m + n) n <= 2^16, none above (activeset's
// transformedMax).
func keptNormals(m, n float64) float64 {
	if (m+n)*n > 1<<16 {
		return 0
	}
	return (m+n)*n + m + n
}

// sparsePath reports whether p is solved on sparse rows by Newton-CG
// with the method asked for: the fitting model (a loss, ridge > 0, no Aeq
// or P; rows of A are taken by newtoncg's augmented Lagrangian) with
// MethodNewtonCG, with MethodSVRG or MethodCatalyst when given with
// PhiSparse (proximal SVRG on the sparse rows, rows of A by the softplus
// penalty, certified by Newton-CG's gap), or
// with MethodAuto when given with PhiSparse or when
// n > 3000. Above that size the alternative is the penalty method, and
// Newton-CG is the faster by orders of magnitude: on 4000 logistic
// examples over 5000 features, 2% nonzero, 83 ms against 35 s for apg
// (BenchmarkFitMethods). Below it, dense Newton steps are the faster with
// bounds and l1 (mushrooms: 56 ms against 177 ms). With rows of A,
// MethodAuto keeps a problem that fits densely (n <= 3000 and l n + m n
// <= sparseRowsDenseMax) on the dense paths, which answer to rounding
// where the augmented Lagrangian answers to the tolerance, and confirm
// a Farkas certificate with the exact engine where the augmented
// Lagrangian's must cancel exactly on unbounded variables.
func (p *Problem) sparsePath(method Method) bool {
	fit := (p.Loss == "squared" || p.Loss == "logistic") && p.Ridge > 0 && len(p.Aeq) == 0 && len(p.P) == 0
	if !fit {
		return false
	}
	if method == MethodNewtonCG {
		return true
	}
	if p.lazyMethod(method) {
		// Proximal SVRG and SGD with lazy updates: O(nnz(phi_i)) (or
		// O(nnz(a_k))) a step where the dense penalty method's steps are
		// O(n); APG's full gradients are O(nnz) passes, where the dense
		// ones are O(l n).
		return p.PhiSparse != nil
	}
	if method != MethodAuto {
		return false
	}
	if m := p.rowsOfA(); m > 0 {
		entries := (float64(p.lossRows()) + float64(m)) * float64(p.N)
		return p.N > memDenseModelMax || entries > sparseRowsDenseMax
	}
	return p.PhiSparse != nil || p.N > memDenseModelMax
}

// sparseWords is the estimate, in words, of the sparse paths (dualCD:
// the hard-margin SVM's dual coordinate descent; otherwise newtoncg, and
// with svrg proximal SVRG beside it) for p with n columns: a sum of terms
// in l, m and n, so that n may be fewer than p.N (columns.go's
// worthSeparating).
func (p *Problem) sparseWords(dualCD, svrg bool, n float64) float64 {
	l, m := float64(p.lossRows()), float64(p.rowsOfA())
	if dualCD {
		// dualcd's 5 vectors of length m and 2 of length n, b's copy, the
		// Result's multipliers, Farkas vector and x.
		return 9*m + 6*n
	}
	// newtoncg's 5 vectors of length l and 15 of length n, its column
	// counts, the labels' copy, the Result's x and multipliers and the
	// bounds: the rows themselves are the caller's, or, given densely,
	// compressed (at most 12 bytes an entry).
	// With rows of A: newtoncg's 7 vectors of length m and 2 of length n
	// (and, while New runs, one of each), b's copy, Lambda and Farkas, and
	// A compressed when given densely.
	words := 6*l + 22*n
	if svrg {
		// The rows' table (5 words a row) and the powers of the step's
		// shrink over an epoch (at most 2l + 1), kept; while it is built,
		// the rows' weights and the alias construction's six vectors of
		// length l; the iterate, the best snapshot and four words a
		// coordinate of epoch state (nine with catalyst's three, seven
		// with APG's last step or SGD's average, eight with SGDM's
		// average and momentum). With
		// rows of A, their table entries, norms, weights and screening
		// marks, the answer's lists of screened rows, and their alias
		// table with its construction's vectors, kept for rebuilds.
		words += 14*l + 9*n + 20*m
	}
	if p.PhiSparse == nil {
		words += 1.5 * l * n
	}
	if m > 0 {
		words += 10*m + 3*n
		if p.ASparse == nil {
			words += 1.5 * m * n
		}
	}
	return words
}

// lazyMethod reports whether method runs on p's sparse rows in the
// solver's lazy SVRG (internal/solver/lazysvrg.go): svrg, catalyst-svrg,
// apg and sgd, and sgdm without l1 and finite bounds (with them its
// momentum has no closed form through the prox, and it takes the rows
// densely).
func (p *Problem) lazyMethod(method Method) bool {
	switch method {
	case MethodSVRG, MethodCatalyst, MethodAPG, MethodSGD:
		return true
	case MethodSGDM:
		return solver.SGDMLazy(p.L1, p.Lower, p.Upper)
	}
	return false
}

// sparseRowsDenseMax is the most entries (m n) up to which MethodAuto
// makes sparse rows of A dense for the exact engine: 2^27, 1 GiB.
const sparseRowsDenseMax = 1 << 27

// dualCDPath reports whether p is solved on sparse rows of A by dual
// coordinate descent with the method asked for: ASparse, ridge > 0, q,
// every b_i < 0 and nothing else, with MethodAuto or MethodDualCD.
func (p *Problem) dualCDPath(method Method) bool {
	if p.ASparse == nil || (method != MethodAuto && method != MethodDualCD) {
		return false
	}
	if method == MethodAuto && p.denseEngineFits() {
		// The exact engine on the dense rows answers to rounding, and
		// faster where they fit (mushrooms' SVM: 12 ms against seconds
		// for dual coordinate descent to 1e-12; TestSparseSVM).
		return false
	}
	return p.dualCDShape()
}

// denseEngineFits reports whether MethodAuto makes p's sparse rows of A
// dense for the exact engine: they fit (sparseRowsDenseMax) and the
// columns they name (the others are separable and taken out, as
// separableVars finds them, explicit zeros counted) are few enough for its
// dense model (memDenseModelMax). Beyond that the dense path of a ridge
// objective is a penalty method, whose stages cannot certify a hard-margin
// SVM to a tight tolerance (text by function, 4724 documents x 3755
// features: apg at a relative gap of 2 after 20 s, dual-cd solved to
// 1e-10 in 4.7 s). It reads p.ASparse's indices but need not find them
// valid (MemoryEstimate's p need not be): on an index outside [0, N) it
// reports true, the dense path, whose validation names the index. The
// count stops past memDenseModelMax; its bit set takes N/8 bytes, at most
// 16 MiB, since N <= sparseRowsDenseMax here.
func (p *Problem) denseEngineFits() bool {
	a := p.ASparse
	if float64(a.Rows)*float64(p.N) > sparseRowsDenseMax {
		return false
	}
	if len(a.Idx) <= memDenseModelMax || p.N <= memDenseModelMax {
		return true
	}
	used := make([]uint64, (p.N+63)/64)
	k := 0
	for _, j := range a.Idx {
		if j < 0 || int(j) >= p.N {
			return true
		}
		if bit := uint64(1) << (j % 64); used[j/64]&bit == 0 {
			used[j/64] |= bit
			if k++; k > memDenseModelMax {
				return false
			}
		}
	}
	return true
}

// dualCDShape reports whether dual-cd takes p: sparse rows of A, ridge >
// 0, q, every b_i < 0 and nothing else.
func (p *Problem) dualCDShape() bool {
	if p.ASparse == nil {
		return false
	}
	if (p.Loss != "none" && p.Loss != "") || !(p.Ridge > 0) || p.L1 != 0 || len(p.P) > 0 || len(p.Aeq) > 0 || p.Lower != nil || p.Upper != nil {
		return false
	}
	for _, b := range p.B {
		if !(b < 0) {
			return false
		}
	}
	return true
}

// saturate converts a byte count to int64, saturating at math.MaxInt64.
func saturate(b float64) int64 {
	if b < 1<<63 {
		return int64(b)
	}
	return 1<<63 - 1
}

// memDenseModelMax is the largest n for which the solver forms the dense
// Hessian of a quadratic objective (solver's maxDenseHessian).
const memDenseModelMax = 3000
