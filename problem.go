package softpen

import (
	"math"
	"strconv"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/solver"
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
type Problem struct {
	Name   string
	N      int
	Loss   string // "squared", "logistic" or "none"
	Phi    [][]float64
	Y      []float64
	Ridge  float64
	L1     float64
	Lower  []float64
	Upper  []float64
	P      [][]float64
	Q      []float64
	Offset float64
	A      [][]float64
	B      []float64
	Aeq    [][]float64
	Beq    []float64
}

// noBound is the magnitude from which a bound means "none" (as in OSQP).
const noBound = 1e20

// maxN bounds the number of variables: beyond it one vector of the solver's
// workspace alone would take more than 512 MiB.
const maxN = 1 << 26

// bad reports whether v is NaN or ±Inf.
func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// Validate checks every field and returns the first problem found as an
// *InputError naming the field and index, e.g. "A[3][7]: NaN",
// "b: length 9, want 10 (rows of A)", "lower[2]: 3 > upper[2] = 1",
// "ridge: -0.1 < 0", "phi[4]: length 3, want n = 5",
// "y[7] = 0.5: logistic loss needs labels -1 or +1",
// "P[1][2]: not symmetric: 2 != P[2][1] = 0".
// NaN or ±Inf anywhere is an error (except ∓Inf as a missing bound). P must
// be symmetric to 1e-10 relative to its largest entry (the solver uses its
// symmetric part); positive semidefiniteness and strong convexity are the
// solver's checks, except for the obvious case of ridge = 0 with neither P
// nor a squared loss. Zero rows of A are allowed (the solver drops them, or
// reports infeasibility when b < 0). Validate does not modify p and never
// panics, whatever the lengths.
func (p *Problem) Validate() error {
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
	switch p.Loss {
	case "squared", "logistic":
		if len(p.Phi) == 0 {
			return inputErr("phi", nil, "loss "+strconv.Quote(p.Loss)+" needs at least one row")
		}
	case "none", "":
		if len(p.Phi) > 0 {
			return inputErr("phi", nil, `given, but loss is "none"`)
		}
		if len(p.Y) > 0 {
			return inputErr("y", nil, `given, but loss is "none"`)
		}
	default:
		return inputErr("loss", nil, strconv.Quote(p.Loss)+": want squared, logistic or none")
	}
	if err := checkMatrix("phi", p.Phi, -1, n); err != nil {
		return err
	}
	if len(p.Y) != len(p.Phi) {
		return inputErr("y", nil, "length "+strconv.Itoa(len(p.Y))+", want "+strconv.Itoa(len(p.Phi))+" (rows of phi)")
	}
	if err := checkVector("y", p.Y); err != nil {
		return err
	}
	if p.Loss == "logistic" {
		for i, v := range p.Y {
			if v != 1 && v != -1 {
				return inputErr("y", []int{i}, "= "+fmtG(v)+": logistic loss needs labels -1 or +1")
			}
		}
	}
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
	if err := checkBounds(p.Lower, p.Upper, n); err != nil {
		return err
	}
	if err := checkMatrix("P", p.P, n, n); err != nil {
		return err
	}
	if err := checkSymmetric(p.P); err != nil {
		return err
	}
	if p.Q != nil && len(p.Q) != n {
		return inputErr("q", nil, "length "+strconv.Itoa(len(p.Q))+", want n = "+strconv.Itoa(n))
	}
	if err := checkVector("q", p.Q); err != nil {
		return err
	}
	if err := checkMatrix("A", p.A, -1, n); err != nil {
		return err
	}
	if len(p.B) != len(p.A) {
		return inputErr("b", nil, "length "+strconv.Itoa(len(p.B))+", want "+strconv.Itoa(len(p.A))+" (rows of A)")
	}
	if err := checkVector("b", p.B); err != nil {
		return err
	}
	if err := checkMatrix("Aeq", p.Aeq, -1, n); err != nil {
		return err
	}
	if len(p.Beq) != len(p.Aeq) {
		return inputErr("beq", nil, "length "+strconv.Itoa(len(p.Beq))+", want "+strconv.Itoa(len(p.Aeq))+" (rows of Aeq)")
	}
	if err := checkVector("beq", p.Beq); err != nil {
		return err
	}
	if p.Ridge == 0 && len(p.P) == 0 && p.Loss != "squared" {
		return inputErr("ridge", nil, "not strongly convex: ridge = 0 and no quadratic term (P or squared loss)")
	}
	return nil
}

// checkMatrix checks that m has rows x cols finite entries (rows < 0: any
// number of rows). A nil or empty m passes.
func checkMatrix(name string, m [][]float64, rows, cols int) error {
	if len(m) == 0 {
		return nil
	}
	if rows >= 0 && len(m) != rows {
		return inputErr(name, nil, strconv.Itoa(len(m))+" rows, want n = "+strconv.Itoa(rows))
	}
	for i, r := range m {
		if len(r) != cols {
			return inputErr(name, []int{i}, "length "+strconv.Itoa(len(r))+", want n = "+strconv.Itoa(cols))
		}
		if d := vec.Dot(r, r); !bad(d) {
			continue // every entry finite (Dot overflows at worst)
		}
		for j, v := range r {
			if bad(v) {
				return inputErr(name, []int{i, j}, fmtG(v))
			}
		}
	}
	return nil
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

// checkSymmetric checks P (square, finite) against its transpose, to 1e-10
// relative to its largest entry.
func checkSymmetric(P [][]float64) error {
	var big float64
	for _, r := range P {
		for _, v := range r {
			big = math.Max(big, math.Abs(v))
		}
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

// denseOf copies rows into a new matrix; nil when there are none.
func denseOf(rows [][]float64, cols int) *mat.Dense {
	if len(rows) == 0 {
		return nil
	}
	d := mat.NewDense(len(rows), cols)
	for i, r := range rows {
		copy(d.Row(i), r)
	}
	return d
}

// internal builds the solver's form of p, which must have passed Validate:
// the matrices but A are copied into mat.Dense (nil when empty), A's rows
// are passed as they are (see newSolver), P is replaced by
// its symmetric part (P + P')/2, bounds of magnitude >= 1e20 become ∓Inf,
// and the vectors are shared (the solver copies what it keeps and modifies
// nothing).
func (p *Problem) internal() (*solver.Problem, error) {
	ip := &solver.Problem{
		N: p.N, Phi: denseOf(p.Phi, p.N), Y: p.Y, Ridge: p.Ridge, L1: p.L1,
		P: denseOf(p.P, p.N), Q: p.Q, Offset: p.Offset,
		ARows: p.A, B: p.B, Aeq: denseOf(p.Aeq, p.N), Beq: p.Beq,
	}
	if ip.P != nil {
		n := p.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				s := 0.5 * (p.P[i][j] + p.P[j][i])
				ip.P.Data[i*n+j], ip.P.Data[j*n+i] = s, s
			}
		}
	}
	if p.Lower != nil {
		ip.Lower = make([]float64, p.N)
		for i := range ip.Lower {
			ip.Lower[i] = lowerAt(p.Lower, i)
		}
	}
	if p.Upper != nil {
		ip.Upper = make([]float64, p.N)
		for i := range ip.Upper {
			ip.Upper[i] = upperAt(p.Upper, i)
		}
	}
	switch p.Loss {
	case "squared":
		ip.Loss = solver.LossSquared
	case "logistic":
		ip.Loss = solver.LossLogistic
	default:
		ip.Loss = solver.LossNone
	}
	return ip, nil
}
