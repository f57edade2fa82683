package solver

import (
	"errors"
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// maxDenseHessian is the largest n for which the Hessian of a quadratic
// objective is formed and factored explicitly (8 n^2 bytes, n^3/3 flops once).
// Beyond it the gradient streams phi instead and the dual bound comes from
// the gradient mapping.
const maxDenseHessian = 3000

// Solver is a reusable workspace for one problem. New does every allocation;
// Solve allocates nothing, so repeated (warm) solves in a loop are free of
// garbage. A Solver is not safe for concurrent use.
type Solver struct {
	opt Options
	n   int

	// The objective, in the caller's terms.
	loss         Loss
	phi          *mat.Dense // l x n (copy), nil without a loss
	y            []float64
	l            int
	ridge, l1    float64
	offset       float64
	lower, upper []float64 // nil without a box
	pm           *mat.Dense
	q            []float64

	// The quadratic model F(x) = 1/2 x^T H x + c^T x + c0 (+ l1, box), formed
	// when the loss is squared or none and n <= maxDenseHessian.
	quad bool
	h    *mat.Dense
	c    []float64
	c0   float64
	chol mat.Cholesky

	mu float64 // certified strong convexity constant of F
	lf float64 // upper bound on the smoothness constant of the smooth part

	// The working constraints: unit-norm rows (A and both signs of Aeq),
	// compacted in place when screening drops rows. With a working set
	// (lazy), only the kept block a.Row(0..kept-1) holds row data; the
	// other rows are read from the caller's matrices (srcRows or srcA, and
	// srcEq) and normalised on the fly, so New copies none of them.
	a         *mat.Dense
	b         []float64
	code      []rowCode // caller row of each working row
	norm      []float64 // caller row norm of each working row
	m, meq    int       // caller's row counts
	mw        int       // working rows before screening
	kept      int       // working rows now
	smax      float64   // upper bound on ||A||_2 of the kept rows (read it with sMax)
	smaxStale bool      // the kept rows changed since smax was computed

	infeasibleRow rowCode // a zero row with b < 0, or noRow

	lazy    bool        // working-set mode: rows outside the kept block are not stored
	srcRows [][]float64 // the caller's A as rows (lazy only)
	srcA    *mat.Dense  // the caller's A as a matrix (lazy only)
	srcEq   *mat.Dense  // the caller's Aeq (lazy only)

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
}

// rowCode names the caller's row behind a working row. Inequality row j of
// A is the working row a_j^T x <= b_j; equality row k of Aeq appears twice,
// as aeq_k^T x <= beq_k (its plus row) and -aeq_k^T x <= -beq_k (its minus
// row). Codes >= 0 are inequality rows, negative codes equality rows:
// ^(2k) is the plus row of equality k and ^(2k+1) its minus row.
type rowCode int

// noRow is the rowCode of no row.
const noRow = rowCode(math.MinInt)

func ineqCode(j int) rowCode { return rowCode(j) }

// eqCode is the plus (negated false) or minus row of equality k.
func eqCode(k int, negated bool) rowCode {
	if negated {
		return rowCode(^(2*k + 1))
	}
	return rowCode(^(2 * k))
}

// isEq reports whether c is one of the two rows of an equality.
func (c rowCode) isEq() bool { return c < 0 }

// isEqPlus and isEqMinus tell the two rows of an equality apart.
func (c rowCode) isEqPlus() bool  { return c < 0 && ^c&1 == 0 }
func (c rowCode) isEqMinus() bool { return c < 0 && ^c&1 == 1 }

// ineqRow is the caller's row of A behind an inequality code.
func (c rowCode) ineqRow() int { return int(c) }

// eqRow is the caller's row of Aeq behind an equality code.
func (c rowCode) eqRow() int { return int(^c) / 2 }

// sign is the sign of the caller's row in the working row: -1 for the
// minus row of an equality, 1 otherwise.
func (c rowCode) sign() float64 {
	if c.isEqMinus() {
		return -1
	}
	return 1
}

// resultIndex is the row's place in Result.Farkas: A's m rows first, then
// the rows of Aeq.
func (c rowCode) resultIndex(m int) int {
	if c.isEq() {
		return m + c.eqRow()
	}
	return c.ineqRow()
}

// New validates the strong convexity of p, copies and normalises its data and
// allocates the whole workspace. It returns an error (never panics) when the
// problem is malformed or F is not strongly convex.
func New(p *Problem, opt *Options) (*Solver, error) {
	if p == nil {
		return nil, errors.New("solver: nil problem")
	}
	s := &Solver{n: p.N, infeasibleRow: noRow}
	if opt != nil {
		s.opt = *opt
	}
	if err := s.opt.check(); err != nil {
		return nil, err
	}
	if err := s.copyObjective(p); err != nil {
		return nil, err
	}
	if err := s.copyConstraints(p); err != nil {
		return nil, err
	}
	if err := s.buildModel(); err != nil {
		return nil, err
	}
	s.state.alloc(s)
	if !s.useWorkingSet() {
		// With a working set, Solve sizes smax for the rows it starts on.
		s.updateSmax()
	}
	s.res.X = make([]float64, s.n)
	s.res.Lambda = make([]float64, s.m)
	s.res.Nu = make([]float64, s.meq)
	s.res.Farkas = make([]float64, s.m+s.meq)
	s.res.Dropped = make([]int, 0, s.m+2*s.meq)
	s.res.Impl = vec.Impl()
	return s, nil
}

func (o *Options) check() error {
	switch {
	case o.Method < MethodAuto || o.Method > MethodAPG:
		return fmt.Errorf("options: unknown method %d", int(o.Method))
	case o.Tol < 0 || math.IsNaN(o.Tol):
		return fmt.Errorf("options: tol = %g, want >= 0", o.Tol)
	case o.MaxSteps < 0:
		return fmt.Errorf("options: max steps = %d, want >= 0", o.MaxSteps)
	case o.TimeLimit < 0:
		return fmt.Errorf("options: time limit = %v, want >= 0", o.TimeLimit)
	case o.Xi < 0 || math.IsNaN(o.Xi) || math.IsInf(o.Xi, 0):
		return fmt.Errorf("options: xi = %g, want > 0", o.Xi)
	case o.StageMult < 0 || math.IsNaN(o.StageMult) || math.IsInf(o.StageMult, 0):
		return fmt.Errorf("options: stage multiplier = %g, want >= 0 and finite", o.StageMult)
	case !(o.Momentum >= 0 && o.Momentum < 1):
		return fmt.Errorf("options: momentum = %g, want in [0, 1)", o.Momentum)
	case !(o.StepScale >= 0) || math.IsInf(o.StepScale, 0):
		return fmt.Errorf("options: step scale = %g, want >= 0 and finite", o.StepScale)
	case !(o.SVRGEpoch >= 0) || math.IsInf(o.SVRGEpoch, 0):
		return fmt.Errorf("options: SVRG epoch = %g, want >= 0 and finite", o.SVRGEpoch)
	case o.Eta != 0 && !(o.Eta > 1) || math.IsInf(o.Eta, 0):
		return fmt.Errorf("options: eta = %g, want > 1", o.Eta)
	case o.Delta0 < 0 || math.IsNaN(o.Delta0) || math.IsInf(o.Delta0, 0):
		return fmt.Errorf("options: delta0 = %g, want > 0", o.Delta0)
	case o.Static && o.Delta0 == 0:
		return errors.New("options: static needs delta0 > 0")
	case o.Screen < ScreenGapSafe || o.Screen > ScreenPaperExperiment:
		return fmt.Errorf("options: unknown screening rule %d", int(o.Screen))
	}
	return nil
}

func finiteSlice(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d]: %g is not finite", name, i, x)
		}
	}
	return nil
}

func copyDense(name string, m *mat.Dense, rows, cols int) (*mat.Dense, error) {
	if m == nil {
		return nil, nil
	}
	if m.Rows != rows && rows >= 0 || m.Cols != cols {
		return nil, fmt.Errorf("%s: %dx%d, want %dx%d", name, m.Rows, m.Cols, rows, cols)
	}
	out := mat.NewDense(m.Rows, m.Cols)
	for i := 0; i < m.Rows; i++ {
		row := m.Row(i)
		if err := finiteSlice(fmt.Sprintf("%s[%d]", name, i), row); err != nil {
			return nil, err
		}
		copy(out.Row(i), row)
	}
	return out, nil
}

func (s *Solver) copyObjective(p *Problem) error {
	n := p.N
	if n < 1 {
		return fmt.Errorf("n = %d, want >= 1", n)
	}
	s.loss = p.Loss
	switch p.Loss {
	case LossNone:
	case LossSquared, LossLogistic:
		if p.Phi == nil || p.Phi.Rows == 0 {
			return errors.New("phi: a loss needs at least one row")
		}
		var err error
		if s.phi, err = copyDense("phi", p.Phi, -1, n); err != nil {
			return err
		}
		s.l = p.Phi.Rows
		if len(p.Y) != s.l {
			return fmt.Errorf("y: length %d, want %d (rows of phi)", len(p.Y), s.l)
		}
		if err := finiteSlice("y", p.Y); err != nil {
			return err
		}
		s.y = append([]float64(nil), p.Y...)
		if p.Loss == LossLogistic {
			for i, v := range s.y {
				if v != 1 && v != -1 {
					return fmt.Errorf("y[%d] = %g: logistic loss needs labels -1 or +1", i, v)
				}
			}
		}
	default:
		return fmt.Errorf("loss: unknown value %d", int(p.Loss))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"ridge", p.Ridge}, {"l1", p.L1}, {"offset", p.Offset}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s: %g is not finite", f.name, f.v)
		}
	}
	if p.Ridge < 0 {
		return fmt.Errorf("ridge: %g < 0", p.Ridge)
	}
	if p.L1 < 0 {
		return fmt.Errorf("l1: %g < 0", p.L1)
	}
	s.ridge, s.l1, s.offset = p.Ridge, p.L1, p.Offset
	if p.Lower != nil || p.Upper != nil {
		s.lower = make([]float64, n)
		s.upper = make([]float64, n)
		for i := range s.lower {
			s.lower[i], s.upper[i] = math.Inf(-1), math.Inf(1)
		}
		if p.Lower != nil {
			if len(p.Lower) != n {
				return fmt.Errorf("lower: length %d, want n = %d", len(p.Lower), n)
			}
			for i, v := range p.Lower {
				if math.IsNaN(v) || math.IsInf(v, 1) {
					return fmt.Errorf("lower[%d]: %g", i, v)
				}
			}
			copy(s.lower, p.Lower)
		}
		if p.Upper != nil {
			if len(p.Upper) != n {
				return fmt.Errorf("upper: length %d, want n = %d", len(p.Upper), n)
			}
			for i, v := range p.Upper {
				if math.IsNaN(v) || math.IsInf(v, -1) {
					return fmt.Errorf("upper[%d]: %g", i, v)
				}
			}
			copy(s.upper, p.Upper)
		}
		for i := range s.lower {
			if s.lower[i] > s.upper[i] {
				return fmt.Errorf("lower[%d] = %g > upper[%d] = %g", i, s.lower[i], i, s.upper[i])
			}
		}
	}
	var err error
	if s.pm, err = copyDense("P", p.P, n, n); err != nil {
		return err
	}
	if s.pm != nil {
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				x, y := s.pm.Data[i*n+j], s.pm.Data[j*n+i]
				if math.Abs(x-y) > 1e-12*(math.Abs(x)+math.Abs(y)) {
					return fmt.Errorf("P: not symmetric at [%d][%d]", i, j)
				}
			}
		}
	}
	if p.Q != nil {
		if len(p.Q) != n {
			return fmt.Errorf("q: length %d, want n = %d", len(p.Q), n)
		}
		if err := finiteSlice("q", p.Q); err != nil {
			return err
		}
		s.q = append([]float64(nil), p.Q...)
	}
	return nil
}

// copyConstraints normalises the rows of A and Aeq into the working matrix.
// A zero row with b >= 0 always holds and is left out; a zero row with b < 0
// makes the problem infeasible (recorded, reported by Solve).
func (s *Solver) copyConstraints(p *Problem) error {
	n := p.N
	rowA := func(j int) []float64 { return p.ARows[j] }
	switch {
	case p.A != nil && p.ARows != nil:
		return errors.New("A and ARows: set at most one")
	case p.A != nil:
		if p.A.Cols != n {
			return fmt.Errorf("A: %d columns, want n = %d", p.A.Cols, n)
		}
		s.m = p.A.Rows
		rowA = p.A.Row
	case p.ARows != nil:
		for j, row := range p.ARows {
			if len(row) != n {
				return fmt.Errorf("ARows[%d]: length %d, want n = %d", j, len(row), n)
			}
		}
		s.m = len(p.ARows)
	}
	if len(p.B) != s.m {
		return fmt.Errorf("b: length %d, want %d (rows of A)", len(p.B), s.m)
	}
	if err := finiteSlice("b", p.B); err != nil {
		return err
	}
	if p.Aeq != nil {
		if p.Aeq.Cols != n {
			return fmt.Errorf("Aeq: %d columns, want n = %d", p.Aeq.Cols, n)
		}
		s.meq = p.Aeq.Rows
	}
	if len(p.Beq) != s.meq {
		return fmt.Errorf("beq: length %d, want %d (rows of Aeq)", len(p.Beq), s.meq)
	}
	if err := finiteSlice("beq", p.Beq); err != nil {
		return err
	}
	total := s.m + 2*s.meq
	s.b = make([]float64, total)
	s.code = make([]rowCode, total)
	s.norm = make([]float64, total)
	// First pass: norms (which also find NaN and Inf), scaled b, codes.
	w := 0
	add := func(name string, i int, row []float64, bi float64, code rowCode) error {
		sign := code.sign()
		nr := mat.Norm(row)
		if math.IsNaN(nr) || math.IsInf(nr, 0) {
			// Formatted only on failure: this runs once per row.
			if err := finiteSlice(fmt.Sprintf("%s[%d]", name, i), row); err != nil {
				return err
			}
			return fmt.Errorf("%s[%d]: the row's norm overflows", name, i)
		}
		if nr == 0 {
			if !code.isEq() {
				s.zeroRows = append(s.zeroRows, code.ineqRow())
			}
			if sign*bi < 0 && s.infeasibleRow == noRow {
				s.infeasibleRow = code
			}
			return nil
		}
		s.b[w] = sign * bi / nr
		s.code[w] = code
		s.norm[w] = nr
		w++
		return nil
	}
	for j := 0; j < s.m; j++ {
		if err := add("A", j, rowA(j), p.B[j], ineqCode(j)); err != nil {
			return err
		}
	}
	for k := 0; k < s.meq; k++ {
		row := p.Aeq.Row(k)
		if err := add("Aeq", k, row, p.Beq[k], eqCode(k, false)); err != nil {
			return err
		}
		if err := add("Aeq", k, row, p.Beq[k], eqCode(k, true)); err != nil {
			return err
		}
	}
	s.mw, s.kept = w, w
	s.srcRows, s.srcA, s.srcEq = p.ARows, p.A, p.Aeq
	// Second pass: the unit rows. A working set stores only its kept
	// block (Solve fills it); otherwise every row is copied now and the
	// caller's matrices are not kept.
	s.lazy = s.useWorkingSet()
	if s.lazy {
		s.a = mat.NewDense(min(s.mw, 2*s.wsBatch()), n)
		s.kept = 0 // Solve selects and stores the first working set
		return nil
	}
	s.a = mat.NewDense(s.mw, n)
	for k := 0; k < s.mw; k++ {
		s.materialize(k)
	}
	s.srcRows, s.srcA, s.srcEq = nil, nil, nil
	return nil
}

// sourceRow returns the caller's row behind code and its sign in the
// working row.
func (s *Solver) sourceRow(code rowCode) ([]float64, float64) {
	switch {
	case code.isEq():
		return s.srcEq.Row(code.eqRow()), code.sign()
	case s.srcRows != nil:
		return s.srcRows[code.ineqRow()], 1
	}
	return s.srcA.Row(code.ineqRow()), 1
}

// materialize writes the unit row of working row k into a.Row(k): the
// caller's row times sign/norm, the same bits whether the row is stored at
// setup or when it joins a working set.
func (s *Solver) materialize(k int) {
	row, sign := s.sourceRow(s.code[k])
	dst := s.a.Row(k)
	copy(dst, row)
	vec.Scale(sign/s.norm[k], dst)
}

// reserveRows makes room for rows working rows in a (lazy mode), keeping
// the stored ones. It allocates only when a solve needs more rows than any
// before it, doubling the room up to mw.
func (s *Solver) reserveRows(rows int) {
	if rows <= s.a.Rows {
		return
	}
	grown := mat.NewDense(min(s.mw, max(rows, 2*s.a.Rows)), s.n)
	copy(grown.Data, s.a.Data[:s.kept*s.n])
	s.a = grown
}

// rowResidual is a_k^T x - b_k for working row k on the unit row: from the
// stored row inside the kept block (or always, without a working set), from
// the caller's row divided by its norm outside it.
func (s *Solver) rowResidual(k int, x []float64) float64 {
	if !s.lazy || k < s.kept {
		return vec.Dot(s.a.Row(k), x) - s.b[k]
	}
	row, sign := s.sourceRow(s.code[k])
	return sign*vec.Dot(row, x)/s.norm[k] - s.b[k]
}

// buildModel forms the quadratic model when it applies, certifies the strong
// convexity constant mu and bounds the smoothness constants.
func (s *Solver) buildModel() error {
	n := s.n
	s.quad = s.loss != LossLogistic && n <= maxDenseHessian
	if s.quad {
		// H = phi^T phi / l + P + ridge I,  c = -phi^T y / l + q,
		// c0 = ||y||^2 / (2l) + offset.
		s.h = mat.NewDense(n, n)
		s.c = make([]float64, n)
		if s.phi != nil {
			s.phi.Gram(s.h, 1/float64(s.l))
			s.phi.MulTransVec(s.c, s.y)
			vec.Scale(-1/float64(s.l), s.c)
			s.c0 = vec.Dot(s.y, s.y) / (2 * float64(s.l))
		}
		if s.pm != nil {
			vec.Axpy(1, s.pm.Data, s.h.Data)
		}
		for i := 0; i < n; i++ {
			s.h.Data[i*n+i] += s.ridge
		}
		if s.q != nil {
			vec.Axpy(1, s.q, s.c)
		}
		s.c0 += s.offset
		if err := s.chol.Factor(s.h); err != nil {
			return fmt.Errorf("not strongly convex: the quadratic part phi^T phi/l + P + ridge I is not positive definite (%v)", err)
		}
		s.mu = s.certifyMinEig(s.h, s.ridge)
		s.lf = symNormUpper(s.h)
		s.lfCert = gershgorin(s.h)
	} else {
		// Logistic loss (or a very large n): mu comes from ridge and P only.
		s.mu = s.ridge
		if s.pm != nil {
			var c mat.Cholesky
			hp := mat.NewDense(n, n)
			copy(hp.Data, s.pm.Data)
			for i := 0; i < n; i++ {
				hp.Data[i*n+i] += s.ridge
			}
			if err := c.Factor(hp); err == nil {
				s.mu = s.certifyMinEig(hp, s.ridge)
			}
			s.lf = symNormUpper(hp)
			s.lfCert = gershgorin(hp)
		} else {
			s.lf, s.lfCert = s.ridge, s.ridge
		}
		if s.phi != nil {
			// Squared: ||phi||_2^2 / l; logistic: a quarter of it.
			f := 1.0
			if s.loss == LossLogistic {
				f = 0.25
			}
			fr := f * frobSq(s.phi) / float64(s.l)
			s.lf += fr
			s.lfCert += fr
		}
	}
	if !(s.mu > 0) {
		return errors.New("not strongly convex: ridge = 0 and the quadratic part is singular")
	}
	return nil
}

// certifyMinEig returns a certified lower bound on the smallest eigenvalue of
// the symmetric matrix m: an estimate from inverse iteration, shrunk until
// m - mu I has a Cholesky factor (which proves m - mu I is positive definite),
// and never below floor (a bound known by construction, e.g. the ridge).
func (s *Solver) certifyMinEig(m *mat.Dense, floor float64) float64 {
	est := s.chol.MinEigen(50)
	if m != s.h {
		var c mat.Cholesky
		if c.Factor(m) == nil {
			est = c.MinEigen(50)
		}
	}
	n := m.Rows
	shifted := mat.NewDense(n, n)
	var c mat.Cholesky
	for mu := 0.99 * est; mu > floor; mu *= 0.5 {
		copy(shifted.Data, m.Data)
		for i := 0; i < n; i++ {
			shifted.Data[i*n+i] -= mu
		}
		if c.Factor(shifted) == nil {
			return mu
		}
	}
	return floor
}

// symNormUpper bounds ||m||_2 of the symmetric m: a power-iteration estimate
// with a 5% margin, capped by the Gershgorin bound. It sets step sizes only;
// no certificate depends on it.
func symNormUpper(m *mat.Dense) float64 {
	v, w := make([]float64, m.Rows), make([]float64, m.Rows)
	return math.Min(gershgorin(m), 1.05*m.SymNormEstimate(30, v, w))
}

// updateSmax marks smax stale after the kept rows changed; sMax recomputes
// it when a stage needs it. Working-set rounds change the kept rows several
// times between stages, and the polish between them does not use smax: on
// mushrooms, estimating it at every change took 20% of the solve.
func (s *Solver) updateSmax() { s.smaxStale = true }

// sMax returns the bound on ||A||_2 over the kept rows (unit norm): a
// power-iteration estimate with a 5% margin, capped by sqrt(kept), the
// Frobenius norm, recomputed if the kept rows changed since. It sets step
// sizes only, and uses workspace vectors, so it allocates nothing.
func (s *Solver) sMax() float64 {
	if !s.smaxStale {
		return s.smax
	}
	s.smaxStale = false
	if s.kept == 0 {
		s.smax = 0
		return 0
	}
	w := &s.state
	est := s.working().NormEstimate(30, w.yv, w.xt, w.dSnap[:s.kept])
	s.smax = math.Min(math.Sqrt(float64(s.kept)), 1.05*est)
	return s.smax
}

// gershgorin bounds the largest eigenvalue of the symmetric m from above.
func gershgorin(m *mat.Dense) float64 {
	var mx float64
	for i := 0; i < m.Rows; i++ {
		var s float64
		for _, v := range m.Row(i) {
			s += math.Abs(v)
		}
		mx = math.Max(mx, s)
	}
	return mx
}

func frobSq(m *mat.Dense) float64 {
	var s float64
	for i := 0; i < m.Rows; i++ {
		r := m.Row(i)
		s += vec.Dot(r, r)
	}
	return s
}

// SetB replaces the right-hand side of the caller's inequality rows for the
// next Solve (the warm start is kept). It returns an error naming the index
// of a non-finite entry, or a length mismatch, and allocates nothing.
func (s *Solver) SetB(b []float64) error {
	if len(b) != s.m {
		return fmt.Errorf("b: length %d, want %d (rows of A)", len(b), s.m)
	}
	for i, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("b[%d]: %g is not finite", i, v)
		}
	}
	for k := 0; k < s.mw; k++ {
		if c := s.code[k]; !c.isEq() {
			s.b[k] = b[c.ineqRow()] / s.norm[k]
		}
	}
	// Zero rows: a negative right-hand side now makes the problem infeasible.
	if !s.infeasibleRow.isEq() {
		s.infeasibleRow = noRow
	}
	for _, j := range s.zeroRows {
		if b[j] < 0 && s.infeasibleRow == noRow {
			s.infeasibleRow = ineqCode(j)
		}
	}
	return nil
}
