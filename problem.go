package softpen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/solver"
)

// Problem is the problem of FORMATS.md, field for field:
//
//	minimize   (1/l) sum_i f_i(x) + 1/2 x'Px + q'x + ridge/2 ||x||^2 + l1 ||x||_1 + offset
//	subject to A x <= b,  Aeq x = beq,  lower <= x <= upper
//
// with f_i the loss ("squared": 1/2 (phi_i'x - y_i)^2, "logistic":
// log(1 + exp(-y_i phi_i'x)), or "none") over the rows of Phi. Every field
// but N and Loss may be left empty. Lower and Upper use -Inf / +Inf for a
// missing bound (null, or a magnitude >= 1e20, in JSON).
type Problem struct {
	Name   string      `json:"name,omitempty"`
	N      int         `json:"n"`
	Loss   string      `json:"loss"`
	Phi    [][]float64 `json:"phi,omitempty"`
	Y      []float64   `json:"y,omitempty"`
	Ridge  float64     `json:"ridge"`
	L1     float64     `json:"l1,omitempty"`
	Lower  Bounds      `json:"lower,omitempty"`
	Upper  Bounds      `json:"upper,omitempty"`
	P      [][]float64 `json:"P,omitempty"`
	Q      []float64   `json:"q,omitempty"`
	Offset float64     `json:"offset,omitempty"`
	A      [][]float64 `json:"A,omitempty"`
	B      []float64   `json:"b,omitempty"`
	Aeq    [][]float64 `json:"Aeq,omitempty"`
	Beq    []float64   `json:"beq,omitempty"`
}

// Bounds is a vector of box bounds whose JSON form allows null (and values
// of magnitude >= 1e20) for "no bound"; in Go a missing bound is ±Inf.
type Bounds []float64

// noBound is the magnitude from which a JSON bound means "none".
const noBound = 1e20

// UnmarshalJSON reads an array whose entries are numbers or null. A null
// entry is stored as NaN here and resolved to -Inf or +Inf by the Problem
// reader, which knows whether it is a lower or an upper bound.
func (b *Bounds) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		*b = nil
		return nil
	}
	var raw []*float64
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := make(Bounds, len(raw))
	for i, v := range raw {
		if v == nil {
			out[i] = math.NaN()
		} else {
			out[i] = *v
		}
	}
	*b = out
	return nil
}

// MarshalJSON writes infinite bounds as null.
func (b Bounds) MarshalJSON() ([]byte, error) {
	raw := make([]*float64, len(b))
	for i := range b {
		if !math.IsInf(b[i], 0) && !math.IsNaN(b[i]) {
			v := b[i]
			raw[i] = &v
		}
	}
	return json.Marshal(raw)
}

// InputError is a problem with the input, naming the field and, where there
// is one, the index (row, or row and column).
type InputError struct {
	Field string
	Index []int
	Msg   string
}

func (e *InputError) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Field)
	for _, i := range e.Index {
		sb.WriteString("[" + strconv.Itoa(i) + "]")
	}
	if e.Msg != "" {
		sb.WriteString(": " + e.Msg)
	}
	return sb.String()
}

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func indexErr(field string, idx []int, format string, args ...any) error {
	return &InputError{Field: field, Index: idx, Msg: fmt.Sprintf(format, args...)}
}

// ReadProblem reads one problem in the JSON format of FORMATS.md. It is
// strict: an unknown field, trailing data, a malformed document or a number
// out of range is an error that says where (line and column). Missing bounds
// (null or |v| >= 1e20) become -Inf/+Inf. The problem is not validated; call
// Validate (Solve and NewSolver do).
func ReadProblem(r io.Reader) (*Problem, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Problem
	if err := dec.Decode(&p); err != nil {
		return nil, jsonError(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		l, c := lineCol(data, off)
		return nil, fmt.Errorf("line %d, column %d: data after the problem object", l, c)
	}
	p.Lower = resolveBounds(p.Lower, math.Inf(-1))
	p.Upper = resolveBounds(p.Upper, math.Inf(1))
	return &p, nil
}

func resolveBounds(b Bounds, none float64) Bounds {
	for i, v := range b {
		if math.IsNaN(v) || math.Abs(v) >= noBound {
			b[i] = none
		}
	}
	return b
}

// jsonError turns a decoding error into one that says where it happened.
func jsonError(data []byte, dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		l, c := lineCol(data, se.Offset)
		return fmt.Errorf("line %d, column %d: malformed JSON: %v", l, c, se)
	case errors.As(err, &te):
		l, c := lineCol(data, te.Offset)
		field := te.Field
		if field == "" {
			field = "problem"
		}
		return fmt.Errorf("line %d, column %d: %s: want %v, got JSON %s", l, c, field, te.Type, te.Value)
	case errors.Is(err, io.EOF):
		return errors.New("empty input: want a JSON problem object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("malformed JSON: unexpected end of input")
	}
	l, c := lineCol(data, dec.InputOffset())
	return fmt.Errorf("line %d, column %d: %v", l, c, err)
}

func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// Validate checks every field and returns the first problem found as an
// *InputError naming the field and index. NaN or Inf anywhere (but ±Inf as a
// missing bound), wrong lengths, negative ridge or l1, lower > upper,
// unknown losses, logistic labels other than ±1, an asymmetric P and a
// missing strongly convex term are all errors. Zero rows of A are not (the
// solver drops them, or reports infeasibility when b < 0).
func (p *Problem) Validate() error {
	if p == nil {
		return errors.New("problem: nil")
	}
	n := p.N
	if n < 1 {
		return inputErr("n", "%d, want >= 1", n)
	}
	switch p.Loss {
	case "squared", "logistic":
		if len(p.Phi) == 0 {
			return inputErr("phi", "loss %q needs at least one row", p.Loss)
		}
		if len(p.Y) != len(p.Phi) {
			return inputErr("y", "length %d, want %d (rows of phi)", len(p.Y), len(p.Phi))
		}
	case "none", "":
		if len(p.Phi) > 0 || len(p.Y) > 0 {
			return inputErr("phi", "given, but loss is %q", p.Loss)
		}
	default:
		return inputErr("loss", "%q: want squared, logistic or none", p.Loss)
	}
	if err := checkMatrix("phi", p.Phi, -1, n); err != nil {
		return err
	}
	if err := checkVector("y", p.Y, len(p.Phi)); err != nil {
		return err
	}
	if p.Loss == "logistic" {
		for i, v := range p.Y {
			if v != 1 && v != -1 {
				return indexErr("y", []int{i}, "%g: logistic loss needs labels -1 or +1", v)
			}
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"ridge", p.Ridge}, {"l1", p.L1}, {"offset", p.Offset}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return inputErr(f.name, "%g is not finite", f.v)
		}
	}
	if p.Ridge < 0 {
		return inputErr("ridge", "%g < 0", p.Ridge)
	}
	if p.L1 < 0 {
		return inputErr("l1", "%g < 0", p.L1)
	}
	if err := checkBounds(p.Lower, p.Upper, n); err != nil {
		return err
	}
	if err := checkMatrix("P", p.P, n, n); err != nil {
		return err
	}
	for i := range p.P {
		for j := 0; j < i; j++ {
			a, b := p.P[i][j], p.P[j][i]
			if math.Abs(a-b) > 1e-12*(math.Abs(a)+math.Abs(b)) {
				return indexErr("P", []int{i, j}, "%g != P[%d][%d] = %g: P must be symmetric", a, j, i, b)
			}
		}
	}
	if err := checkVector("q", p.Q, n); err != nil {
		return err
	}
	if err := checkMatrix("A", p.A, -1, n); err != nil {
		return err
	}
	if len(p.B) != len(p.A) {
		return inputErr("b", "length %d, want %d (rows of A)", len(p.B), len(p.A))
	}
	if err := checkVector("b", p.B, len(p.A)); err != nil {
		return err
	}
	if err := checkMatrix("Aeq", p.Aeq, -1, n); err != nil {
		return err
	}
	if len(p.Beq) != len(p.Aeq) {
		return inputErr("beq", "length %d, want %d (rows of Aeq)", len(p.Beq), len(p.Aeq))
	}
	if err := checkVector("beq", p.Beq, len(p.Aeq)); err != nil {
		return err
	}
	if p.Ridge == 0 && len(p.P) == 0 && p.Loss != "squared" {
		return inputErr("ridge", "0 and no quadratic term (P or a squared loss): F is not strongly convex")
	}
	return nil
}

// checkMatrix checks that m has rows x cols finite entries (rows < 0: any
// number of rows).
func checkMatrix(name string, m [][]float64, rows, cols int) error {
	if m == nil {
		return nil
	}
	if rows >= 0 && len(m) != rows {
		return inputErr(name, "%d rows, want %d", len(m), rows)
	}
	for i, r := range m {
		if len(r) != cols {
			return indexErr(name, []int{i}, "length %d, want n = %d", len(r), cols)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return indexErr(name, []int{i, j}, "%g is not finite", v)
			}
		}
	}
	return nil
}

func checkVector(name string, v []float64, n int) error {
	if v == nil {
		return nil
	}
	if len(v) != n {
		return inputErr(name, "length %d, want %d", len(v), n)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return indexErr(name, []int{i}, "%g is not finite", x)
		}
	}
	return nil
}

func checkBounds(lo, hi Bounds, n int) error {
	if lo != nil && len(lo) != n {
		return inputErr("lower", "length %d, want n = %d", len(lo), n)
	}
	if hi != nil && len(hi) != n {
		return inputErr("upper", "length %d, want n = %d", len(hi), n)
	}
	for i := 0; i < n; i++ {
		l, h := math.Inf(-1), math.Inf(1)
		if lo != nil {
			l = lo[i]
			if math.IsNaN(l) || math.IsInf(l, 1) {
				return indexErr("lower", []int{i}, "%g", l)
			}
		}
		if hi != nil {
			h = hi[i]
			if math.IsNaN(h) || math.IsInf(h, -1) {
				return indexErr("upper", []int{i}, "%g", h)
			}
		}
		if l > h {
			return indexErr("lower", []int{i}, "%g > upper[%d] = %g", l, i, h)
		}
	}
	return nil
}

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

// internal builds the solver's form; p must have passed Validate.
func (p *Problem) internal() (*solver.Problem, error) {
	ip := &solver.Problem{
		N: p.N, Phi: denseOf(p.Phi, p.N), Y: p.Y, Ridge: p.Ridge, L1: p.L1,
		P: denseOf(p.P, p.N), Q: p.Q, Offset: p.Offset,
		A: denseOf(p.A, p.N), B: p.B, Aeq: denseOf(p.Aeq, p.N), Beq: p.Beq,
	}
	if p.Lower != nil {
		ip.Lower = []float64(p.Lower)
	}
	if p.Upper != nil {
		ip.Upper = []float64(p.Upper)
	}
	switch p.Loss {
	case "squared":
		ip.Loss = solver.LossSquared
	case "logistic":
		ip.Loss = solver.LossLogistic
	default:
		ip.Loss = solver.LossNone
	}
	if ip.B == nil {
		ip.B = []float64{}
	}
	return ip, nil
}

// SVMProblem is the hard-margin SVM of the paper's section 6.2,
//
//	minimize 1/2 ||x||^2  subject to  y_i a_i'x >= 1,
//
// as a Problem (no bias: with one-hot features it is redundant). With
// normalize, every feature column is first divided by its largest absolute
// value, so that each lies in [-1, 1] ("the features are normalized",
// section 6.2; columns that are all zero are left alone). labels must be ±1
// and every row as long as the first.
func SVMProblem(labels []float64, rows [][]float64, normalize bool) *Problem {
	n := 0
	if len(rows) > 0 {
		n = len(rows[0])
	}
	scale := make([]float64, n)
	for j := range scale {
		scale[j] = 1
	}
	if normalize {
		for j := range scale {
			var mx float64
			for _, r := range rows {
				mx = math.Max(mx, math.Abs(r[j]))
			}
			if mx > 0 {
				scale[j] = 1 / mx
			}
		}
	}
	p := &Problem{N: n, Loss: "none", Ridge: 1, A: make([][]float64, len(rows)), B: make([]float64, len(rows))}
	for i, r := range rows {
		a := make([]float64, n)
		for j, v := range r {
			a[j] = -labels[i] * v * scale[j]
		}
		p.A[i] = a
		p.B[i] = -1
	}
	return p
}
