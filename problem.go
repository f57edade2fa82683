package softpen

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/softpen/softpen/internal/solver"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// Problem is the problem file of FORMATS.md, field for field:
//
//	minimize   (1/l) sum_i f_i(x) + 1/2 x'Px + q'x + ridge/2 ||x||^2 + l1 ||x||_1 + offset
//	subject to A x <= b,  Aeq x = beq,  lower <= x <= upper
//
// with f_i the loss over the rows phi_i of Phi: "squared" 1/2 (phi_i'x - y_i)^2,
// "logistic" log(1 + exp(-y_i phi_i'x)) with y_i = ±1, or "none" (no Phi and
// no Y; the empty string means the same in Go). Every field but N and Loss
// may be left empty (nil). A missing bound in Lower or Upper is -Inf or +Inf;
// as in the JSON form, a bound of magnitude >= 1e20 also means none.
//
// Problem marshals to and from the JSON form with encoding/json (through
// ReadProblem's strict reader and WriteProblem's writer).
//
// The loss's rows may instead be given sparsely, in PhiSparse (compressed
// rows, memory in proportion to the nonzeros; Phi then stays nil). With no
// Aeq or P and ridge > 0 — the fitting model of `softpen fit` — such a
// problem is solved on its sparse rows by Newton-CG (MethodNewtonCG), with
// no n x n matrix and no dense copy: a text or click data set with 1e6
// features fits. Rows A x <= b (best given in ASparse) join it by an
// augmented Lagrangian where the problem is too large to hold densely
// (n > 3000, or (l + m) n > 2^27 entries) or MethodNewtonCG asks for it.
// Otherwise the rows are made dense for the other methods, within the
// memory limit. Its JSON form is phi_idx and phi_val; Solve reads it in
// place and NewSolver keeps a reference to it, so it must not change while
// either uses it.
type Problem struct {
	Name      string
	N         int
	Loss      string // "squared", "logistic" or "none"
	Phi       [][]float64
	PhiSparse *mat.Sparse
	// ASparse holds the rows of A in compressed form instead of A (nil
	// then). With a ridge objective (ridge > 0, q; no loss, P, l1,
	// bounds or Aeq) and every b_i < 0 — the hard-margin SVM — it is
	// solved on the sparse rows by dual coordinate descent
	// (MethodDualCD) when the rows are too large to hold densely or use
	// more than 3000 columns; with a loss on sparse rows, by Newton-CG as
	// above; otherwise the rows are made dense. Read in place, as
	// PhiSparse.
	ASparse *mat.Sparse
	Y       []float64
	Ridge   float64
	L1      float64
	Lower   []float64
	Upper   []float64
	P       [][]float64
	Q       []float64
	Offset  float64
	A       [][]float64
	B       []float64
	Aeq     [][]float64
	Beq     []float64
}

// noBound is the magnitude from which a bound means "none" (as in OSQP).
const noBound = 1e20

// maxN bounds the number of variables: beyond it one vector of the solver's
// workspace alone would take more than 512 MiB.
const maxN = 1 << 26

// bad reports whether v is NaN or ±Inf.
func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// Validate is the one check of a problem's data: Solve and NewSolver run it
// before any of the data reaches the solver. It returns the first problem
// found as an *InputError naming the field and index, e.g. "A[3][7]: NaN".
//
// The rules, field by field:
//
//   - n: 1 <= n <= 2^26 (beyond, one vector of the solver's workspace alone
//     takes more than 512 MiB).
//   - loss: "squared", "logistic", "none" or "" (the same as "none").
//   - phi: at least one row with a loss, none without; every row of length
//     n, every entry finite.
//   - y: as many entries as phi has rows, every one finite; with the
//     logistic loss, each -1 or +1.
//   - ridge, l1: finite and >= 0; offset: finite.
//   - lower, upper: absent (nil) or of length n; lower[i] not NaN or +Inf,
//     upper[i] not NaN or -Inf (∓Inf, or a magnitude >= 1e20, is no bound);
//     lower[i] <= upper[i] once missing bounds are infinite.
//   - P: absent, or n rows of length n, every entry finite, and symmetric:
//     |P[i][j] - P[j][i]| <= 1e-10 * max_kl |P[k][l]|. The solver uses the
//     symmetric part (P + P')/2, which gives the same x'Px, so asymmetry
//     changes nothing; the check catches a wrong matrix, not rounding. The
//     tolerance is relative to the largest entry, because that is the size
//     of the rounding in a computed P (say, M'M) at any scale, including in
//     entries that cancel to zero on one side and not the other.
//   - q: absent or of length n, every entry finite.
//   - A, Aeq: every row of length n, every entry finite; zero rows are
//     allowed (the solver drops them, or reports infeasibility when the
//     right-hand side is negative).
//   - b, beq: as many entries as A (Aeq) has rows, every one finite.
//   - the scale of each nonzero row a_j of A or Aeq: the solver divides
//     a_j and its right-hand side b_j by the Euclidean norm ||a_j||, so
//     ||a_j||, 1/||a_j|| and b_j/||a_j|| must be finite (a norm above
//     about 1.8e308 or below about 5.6e-309, or too small for b_j, is an
//     error naming the row).
//   - P positive semidefinite: its symmetric part plus delta I has a
//     Cholesky factor, delta = 4 (n+1) eps ||P|| the rounding of such a
//     factorisation (n^3/3 flops).
//   - strong convexity, where it is plain from the fields: ridge = 0 needs
//     P or the squared loss.
//
// Whether the whole quadratic part is positive definite when ridge = 0 (and
// so the constant mu of strong convexity) takes a factorisation of it: the
// solver finds it, once, and returns an *InputError naming ridge if not.
// Validate does not modify p and never panics, whatever the lengths.
func (p *Problem) Validate() error { return p.validate(true, true, false) }

// validate is Validate; with entriesOfA false it leaves out the pass over
// the entries of A (finite, and the norms that scaling needs), which
// solver.New makes as it reads the rows anyway: see newSolver.
//
// With semidefinite false, P is not factored: the caller proves P positive
// semidefinite otherwise (newSolver, where the solver factors P itself).
// With knownP, P's checks are left out: the caller has found P, bit for
// bit, finite and symmetric already (Solver.sameP), so they would pass.
func (p *Problem) validate(entriesOfA, semidefinite, knownP bool) error {
	if p == nil {
		return inputErr("problem", nil, "nil")
	}
	n := p.N
	if n < 1 {
		return inputErr("n", nil, "must be >= 1, got "+strconv.Itoa(n))
	}
	if n > maxN {
		return inputErr("n", nil, strconv.Itoa(n)+" is too large (at most "+strconv.Itoa(maxN)+")")
	}
	for _, check := range [...]func() error{
		p.checkLoss,
		p.checkScalars,
		func() error { return checkBounds(p.Lower, p.Upper, n) },
		func() error { return p.checkQuadratic(semidefinite, knownP) },
		func() error { return p.checkConstraints(entriesOfA) },
	} {
		if err := check(); err != nil {
			return err
		}
	}
	if p.Ridge == 0 && len(p.P) == 0 && p.Loss != "squared" {
		return inputErr("ridge", nil, "not strongly convex: ridge = 0 and no quadratic term (P or squared loss)")
	}
	return nil
}

// checkLoss checks loss, phi and y.
func (p *Problem) checkLoss() error {
	switch p.Loss {
	case "squared", "logistic":
		if p.PhiSparse != nil {
			return p.checkPhiSparse()
		}
		if len(p.Phi) == 0 {
			return inputErr("phi", nil, "loss "+strconv.Quote(p.Loss)+" needs at least one row")
		}
	case "none", "":
		if len(p.Phi) > 0 || p.PhiSparse != nil {
			return inputErr("phi", nil, `given, but loss is "none"`)
		}
		if len(p.Y) > 0 {
			return inputErr("y", nil, `given, but loss is "none"`)
		}
	default:
		return inputErr("loss", nil, strconv.Quote(p.Loss)+": want squared, logistic or none")
	}
	if _, err := checkMatrix("phi", p.Phi, -1, p.N); err != nil {
		return err
	}
	if err := checkRHS("y", p.Y, len(p.Phi), "phi"); err != nil {
		return err
	}
	return p.checkLabels()
}

// checkLabels checks that y holds -1 and +1 only, with the logistic loss.
func (p *Problem) checkLabels() error {
	if p.Loss == "logistic" {
		for i, v := range p.Y {
			if v != 1 && v != -1 {
				return inputErr("y", []int{i}, "= "+fmtG(v)+": logistic loss needs labels -1 or +1")
			}
		}
	}
	return nil
}

// checkPhiSparse checks PhiSparse (Phi must then be nil) and y.
func (p *Problem) checkPhiSparse() error {
	x := p.PhiSparse
	if len(p.Phi) > 0 {
		return inputErr("phi", nil, "given beside phi_sparse: want one of them")
	}
	if err := checkSparse("phi_sparse", x, p.N); err != nil {
		return err
	}
	if x.Rows == 0 {
		return inputErr("phi_sparse", nil, "loss "+strconv.Quote(p.Loss)+" needs at least one row")
	}
	if err := checkRHS("y", p.Y, x.Rows, "phi_sparse"); err != nil {
		return err
	}
	return p.checkLabels()
}

// checkSparse checks compressed rows (named name): well formed, with n
// columns.
func checkSparse(name string, x *mat.Sparse, n int) error {
	if err := x.Check(); err != nil {
		var se *mat.SparseError
		if errors.As(err, &se) && se.Row >= 0 {
			at := []int{se.Row}
			if se.K >= 0 {
				at = append(at, se.K)
			}
			return inputErr(name, at, se.Msg)
		}
		return inputErr(name, nil, err.Error())
	}
	if x.Cols != n {
		return inputErr(name, nil, strconv.Itoa(x.Cols)+" columns, want n = "+strconv.Itoa(n))
	}
	return nil
}

// rowsOfA is the number of rows of A or ASparse.
func (p *Problem) rowsOfA() int {
	if p.ASparse != nil {
		return p.ASparse.Rows
	}
	return len(p.A)
}

// lossRows is the number of rows of Phi or PhiSparse.
func (p *Problem) lossRows() int {
	if p.PhiSparse != nil {
		return p.PhiSparse.Rows
	}
	return len(p.Phi)
}

// checkScalars checks ridge, l1 and offset.
func (p *Problem) checkScalars() error {
	for _, f := range [...]struct {
		name string
		v    float64
	}{{"ridge", p.Ridge}, {"l1", p.L1}, {"offset", p.Offset}} {
		if bad(f.v) {
			return inputErr(f.name, nil, fmtG(f.v))
		}
		if f.v < 0 && f.name != "offset" {
			return inputErr(f.name, nil, fmtG(f.v)+" < 0")
		}
	}
	return nil
}

// checkQuadratic checks P and q (P positive semidefinite only with
// semidefinite).
func (p *Problem) checkQuadratic(semidefinite, knownP bool) error {
	if knownP {
		return p.checkQ()
	}
	if _, err := checkMatrix("P", p.P, p.N, p.N); err != nil {
		return err
	}
	if err := checkSymmetric(p.P); err != nil {
		return err
	}
	if semidefinite {
		if err := checkSemidefinite(p.P); err != nil {
			return err
		}
	}
	return p.checkQ()
}

// checkQ checks q: n finite entries, or none.
func (p *Problem) checkQ() error {
	if p.Q != nil && len(p.Q) != p.N {
		return inputErr("q", nil, "length "+strconv.Itoa(len(p.Q))+", want n = "+strconv.Itoa(p.N))
	}
	return checkVector("q", p.Q)
}

// checkSemidefinite checks that P (symmetric, checked) is positive
// semidefinite: its symmetric part plus delta I has a Cholesky factor,
// delta = mat.SemidefiniteShift, the rounding such a factorisation
// carries. The solver's strong convexity constant relies on it (P adds at
// least -delta to the ridge). It takes n^3/3 flops and 3 n^2 floats.
func checkSemidefinite(pm [][]float64) error {
	if len(pm) == 0 {
		return nil
	}
	d, _ := symmetricPart(pm)
	var nd *mat.NotPDError
	if err := mat.CheckSemidefinite(d); errors.As(err, &nd) {
		return inputErr("P", nil, fmt.Sprintf("not positive semidefinite: the Cholesky factor of P + %.3g I fails at pivot %d (an eigenvalue below %.3g); P must be positive semidefinite on its own (ridge is not counted)",
			mat.SemidefiniteShift(d), nd.Pivot, -mat.SemidefiniteShift(d)))
	}
	return nil
}

// symmetricPart is (P + P')/2 as a dense matrix (nil for no P): the
// solver's P, which gives the same x'Px, and a bound on the 2-norm of its
// rounding (by its Frobenius norm): where P_ij != P_ji (Validate allows a
// relative 1e-10) the average rounds, by at most 2^-52 of its value; a
// symmetric P is its own symmetric part, exactly (rounding 0).
func symmetricPart(pm [][]float64) (d *mat.Dense, rounding float64) {
	if len(pm) == 0 {
		return nil, 0
	}
	data := make([]float64, len(pm)*len(pm))
	return symmetricPartInto(new(mat.Dense), &data, pm)
}

// symmetricPartInto is symmetricPart with d's header and data given: the
// data are taken from the front of *fl.
func symmetricPartInto(d *mat.Dense, fl *[]float64, pm [][]float64) (*mat.Dense, float64) {
	n := len(pm)
	if n == 0 {
		return nil, 0
	}
	d = denseInto(d, fl, pm, n)
	var rounding float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if pm[i][j] == pm[j][i] {
				continue
			}
			s := 0.5 * (pm[i][j] + pm[j][i])
			d.Data[i*n+j], d.Data[j*n+i] = s, s
			rounding += 2 * s * s
		}
	}
	return d, 0x1p-52 * math.Sqrt(rounding)
}

// checkConstraints checks A, b, Aeq and beq; with entriesOfA false, only
// the shape of A (and b).
func (p *Problem) checkConstraints(entriesOfA bool) error {
	if p.ASparse != nil {
		if err := checkSparse("A_sparse", p.ASparse, p.N); err != nil {
			return err
		}
		if len(p.A) > 0 {
			return inputErr("A", nil, "given beside A_sparse: want one of them")
		}
		if err := checkRHS("b", p.B, p.ASparse.Rows, "A_sparse"); err != nil {
			return err
		}
		return checkRows("Aeq", p.Aeq, "beq", p.Beq, p.N)
	}
	if !entriesOfA {
		if err := checkShape("A", p.A, p.N); err != nil {
			return err
		}
		if err := checkRHS("b", p.B, len(p.A), "A"); err != nil {
			return err
		}
	} else if err := checkRows("A", p.A, "b", p.B, p.N); err != nil {
		return err
	}
	return checkRows("Aeq", p.Aeq, "beq", p.Beq, p.N)
}

// checkShape checks that every row of m has length cols.
func checkShape(name string, m [][]float64, cols int) error {
	for i, r := range m {
		if len(r) != cols {
			return inputErr(name, []int{i}, "length "+strconv.Itoa(len(r))+", want n = "+strconv.Itoa(cols))
		}
	}
	return nil
}

// rowScaleWhy says why a row's norm matters.
const rowScaleWhy = " (the solver divides each row and its right-hand side by the row's norm)"

// checkRows checks constraint rows (A or Aeq, named name) and their
// right-hand side (b or beq): rows of length n with finite entries, one
// finite right-hand side per row, and for each nonzero row a norm that is
// finite and whose reciprocal and quotient with the right-hand side are
// finite too. The norm is computed (as the solver does, by mat.Norm) only
// where one of these can fail: rows whose squared norm checkMatrix found
// outside [2^-800, +Inf), and right-hand sides above 2^-500 MaxFloat64.
func checkRows(name string, rows [][]float64, rhsName string, rhs []float64, n int) error {
	careful, err := checkMatrix(name, rows, -1, n)
	if err != nil {
		return err
	}
	if err := checkRHS(rhsName, rhs, len(rows), name); err != nil {
		return err
	}
	for j, v := range rhs {
		if len(careful) > 0 && careful[0] == j {
			careful = careful[1:]
		} else if math.Abs(v) <= 0x1p-500*math.MaxFloat64 {
			continue // ||row|| >= 2^-400: norm, reciprocal and quotient are finite
		}
		nr := mat.Norm(rows[j])
		switch {
		case bad(nr):
			return inputErr(name, []int{j}, "the row's norm overflows float64"+rowScaleWhy)
		case nr > 0 && bad(1/nr):
			return inputErr(name, []int{j}, "norm "+fmtG(nr)+" is too small: 1/norm overflows float64"+rowScaleWhy)
		case nr > 0 && bad(v/nr):
			return inputErr(name, []int{j}, "norm "+fmtG(nr)+" is too small for "+rhsName+"["+strconv.Itoa(j)+"] = "+
				fmtG(v)+": the quotient overflows float64"+rowScaleWhy)
		}
	}
	return nil
}

// checkMatrix checks that m has rows x cols finite entries (rows < 0: any
// number of rows); a nil or empty m passes. It returns the rows whose
// squared norm, as vec.Dot computes it, is below 2^-800 or overflows: the
// rows whose norm needs a closer look (see checkRows).
func checkMatrix(name string, m [][]float64, rows, cols int) (careful []int, err error) {
	if len(m) == 0 {
		return nil, nil
	}
	if rows >= 0 && len(m) != rows {
		return nil, inputErr(name, nil, strconv.Itoa(len(m))+" rows, want n = "+strconv.Itoa(rows))
	}
	if err := checkShape(name, m, cols); err != nil {
		return nil, err
	}
	for i, r := range m {
		d := vec.Dot(r, r)
		if !bad(d) {
			if d < 0x1p-800 {
				careful = append(careful, i)
			}
			continue // every entry finite
		}
		for j, v := range r {
			if bad(v) {
				return nil, inputErr(name, []int{i, j}, fmtG(v))
			}
		}
		careful = append(careful, i) // finite entries whose squares overflow
	}
	return careful, nil
}

// checkRHS checks that v, the right-hand side (or labels) of the rows of
// the matrix named of, has one finite entry per row.
func checkRHS(name string, v []float64, rows int, of string) error {
	if len(v) != rows {
		return inputErr(name, nil, "length "+strconv.Itoa(len(v))+", want "+strconv.Itoa(rows)+" (rows of "+of+")")
	}
	return checkVector(name, v)
}

// checkVector checks that every entry of v is finite.
func checkVector(name string, v []float64) error {
	for i, x := range v {
		if bad(x) {
			return inputErr(name, []int{i}, fmtG(x))
		}
	}
	return nil
}

// checkSymmetric checks P (square, finite) against its transpose:
// |P[i][j] - P[j][i]| <= 1e-10 * max |P| (see Validate for why).
func checkSymmetric(P [][]float64) error {
	var big float64
	for _, r := range P {
		big = max(big, vec.MaxAbs(r)) // the entries are finite (checkMatrix)
	}
	tol := 1e-10 * big
	for i := range P {
		for j := i + 1; j < len(P); j++ {
			if a, b := P[i][j], P[j][i]; math.Abs(a-b) > tol {
				return inputErr("P", []int{i, j}, "not symmetric: "+fmtG(a)+" != P["+
					strconv.Itoa(j)+"]["+strconv.Itoa(i)+"] = "+fmtG(b))
			}
		}
	}
	return nil
}

// lowerAt and upperAt read bound i, mapping magnitudes >= 1e20 to no bound.
func lowerAt(lo []float64, i int) float64 {
	if lo == nil || lo[i] <= -noBound || lo[i] >= noBound {
		return math.Inf(-1)
	}
	return lo[i]
}

func upperAt(hi []float64, i int) float64 {
	if hi == nil || hi[i] <= -noBound || hi[i] >= noBound {
		return math.Inf(1)
	}
	return hi[i]
}

func checkBounds(lo, hi []float64, n int) error {
	if lo != nil && len(lo) != n {
		return inputErr("lower", nil, "length "+strconv.Itoa(len(lo))+", want n = "+strconv.Itoa(n))
	}
	if hi != nil && len(hi) != n {
		return inputErr("upper", nil, "length "+strconv.Itoa(len(hi))+", want n = "+strconv.Itoa(n))
	}
	for i := range lo {
		if v := lo[i]; math.IsNaN(v) || math.IsInf(v, 1) {
			return inputErr("lower", []int{i}, fmtG(v)+": want a number < +Inf (-Inf for no bound)")
		}
	}
	for i := range hi {
		if v := hi[i]; math.IsNaN(v) || math.IsInf(v, -1) {
			return inputErr("upper", []int{i}, fmtG(v)+": want a number > -Inf (+Inf for no bound)")
		}
	}
	if lo == nil || hi == nil {
		return nil
	}
	for i := 0; i < n; i++ {
		if l, h := lowerAt(lo, i), upperAt(hi, i); l > h {
			return inputErr("lower", []int{i}, fmtG(l)+" > upper["+strconv.Itoa(i)+"] = "+fmtG(h))
		}
	}
	return nil
}

// denseInto copies rows into d (nil when there are none), its data the
// first len(rows)*cols floats of *fl, which it moves past them.
func denseInto(d *mat.Dense, fl *[]float64, rows [][]float64, cols int) *mat.Dense {
	if len(rows) == 0 {
		return nil
	}
	k := len(rows) * cols
	*d = mat.Dense{Rows: len(rows), Cols: cols, Stride: cols, Data: (*fl)[:k:k]}
	*fl = (*fl)[k:]
	for i, r := range rows {
		copy(d.Row(i), r)
	}
	return d
}

// denseHeaders are the headers of the matrices of internalInto's
// solver.Problem.
type denseHeaders struct{ p, aeq, a mat.Dense }

// internal builds the solver's form of p, which must have passed Validate
// (newSolver runs it first, before internalInto or newSparseSolver): P and Aeq are
// copied into mat.Dense (nil when empty), the rows of A and Phi are passed
// as they are (see newSolver; the solver copies Phi's only on the penalty
// path, and reads them only in solver.New), P is replaced by its symmetric part
// (P + P')/2, bounds of magnitude >= 1e20 become ∓Inf, and the vectors are
// shared (the solver copies what it keeps and modifies nothing).
func (p *Problem) internal() (*solver.Problem, error) {
	ip := new(solver.Problem)
	p.internalInto(ip, new(denseHeaders), false)
	return ip, nil
}

// internalInto is internal into *ip, with the matrices' headers in h;
// with copyA, A is copied too, into ip.A (ip.ARows nil). The matrices'
// data and the bounds are pieces of one allocation (a small problem's
// set-up is mostly allocation, and the garbage collector's work grows with
// each). It keeps no pointer to ip.
func (p *Problem) internalInto(ip *solver.Problem, h *denseHeaders, copyA bool) {
	p.internalReusing(ip, h, copyA, nil)
}

// internalReusing is internalInto with the allocation taken from old where
// it fits (Solver.Load); it returns the allocation.
func (p *Problem) internalReusing(ip *solver.Problem, h *denseHeaders, copyA bool, old []float64) []float64 {
	n := p.N
	size := len(p.Aeq) * n
	if len(p.P) > 0 {
		size += n * n
	}
	if p.Lower != nil {
		size += n
	}
	if p.Upper != nil {
		size += n
	}
	if copyA {
		size += len(p.A) * n
	}
	var fl []float64
	switch {
	case size <= cap(old):
		// Every entry is written below: no clearing needed.
		fl = old[:size]
	case size > 0:
		fl = make([]float64, size)
	}
	slab := fl
	*ip = solver.Problem{
		N: p.N, PhiRows: p.Phi, Y: p.Y, Ridge: p.Ridge, L1: p.L1,
		OwnP: true, Q: p.Q, Offset: p.Offset,
		ARows: p.A, B: p.B, Aeq: denseInto(&h.aeq, &fl, p.Aeq, n), Beq: p.Beq,
	}
	if copyA {
		ip.ARows, ip.A = nil, denseInto(&h.a, &fl, p.A, n)
	}
	ip.P, ip.PRounding = symmetricPartInto(&h.p, &fl, p.P)
	if ip.P == nil {
		h.p = mat.Dense{} // no P: nothing for the next Load to compare with
	}
	bounds := fl[:0]
	if p.Lower != nil {
		for i := 0; i < p.N; i++ {
			bounds = append(bounds, lowerAt(p.Lower, i))
		}
		ip.Lower, bounds = bounds[:p.N:p.N], bounds[p.N:]
	}
	if p.Upper != nil {
		for i := 0; i < p.N; i++ {
			bounds = append(bounds, upperAt(p.Upper, i))
		}
		ip.Upper = bounds[:p.N:p.N]
	}
	ip.Loss = lossOf(p.Loss)
	return slab
}

// lossOf is the solver's form of Problem.Loss.
func lossOf(name string) solver.Loss {
	switch name {
	case "squared":
		return solver.LossSquared
	case "logistic":
		return solver.LossLogistic
	}
	return solver.LossNone
}
