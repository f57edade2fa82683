package softpen

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

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

// ReadProblem reads one problem in the JSON form of FORMATS.md. It is
// strict, and every error is an *InputError that says where, e.g.
// `line 3, column 17: A[0][2]: "x": want a number, got a string`:
//
//   - malformed JSON, or anything after the problem object, is an error with
//     the line and column of the offending byte;
//   - keys match exactly (case included); an unknown or repeated key is an
//     error naming it; "n" and "loss" are required;
//   - numbers are read exactly as strconv.ParseFloat reads them; one outside
//     the float64 range (1e400) is an error naming the field and index; null
//     is a number only in "lower" and "upper", where it means no bound (as
//     does a magnitude >= 1e20; both are stored as -Inf / +Inf);
//   - a field whose value is null is the same as an absent field.
//
// The problem is not validated: call Validate (Solve and NewSolver do).
// ReadProblem reads r to its end; it holds the whole document in memory
// while decoding.
func ReadProblem(r io.Reader) (*Problem, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return decodeProblem(data)
}

// UnmarshalJSON decodes the JSON form as strictly as ReadProblem does.
func (p *Problem) UnmarshalJSON(data []byte) error {
	q, err := decodeProblem(data)
	if err != nil {
		return err
	}
	*p = *q
	return nil
}

// problemJSON is the JSON form for writing.
type problemJSON struct {
	Name   string      `json:"name,omitempty"`
	N      int         `json:"n"`
	Loss   string      `json:"loss"`
	Phi    [][]float64 `json:"phi,omitempty"`
	Y      []float64   `json:"y,omitempty"`
	Ridge  float64     `json:"ridge"`
	L1     float64     `json:"l1,omitempty"`
	Lower  []*float64  `json:"lower,omitempty"`
	Upper  []*float64  `json:"upper,omitempty"`
	P      [][]float64 `json:"P,omitempty"`
	Q      []float64   `json:"q,omitempty"`
	Offset float64     `json:"offset,omitempty"`
	A      [][]float64 `json:"A,omitempty"`
	B      []float64   `json:"b,omitempty"`
	Aeq    [][]float64 `json:"Aeq,omitempty"`
	Beq    []float64   `json:"beq,omitempty"`
}

// boundsJSON writes a missing bound (the infinity of the given sign, or a
// magnitude >= 1e20) as null; NaN is kept, and fails to encode.
func boundsJSON(v []float64, sign int) []*float64 {
	if v == nil {
		return nil
	}
	out := make([]*float64, len(v))
	for i := range v {
		if !math.IsInf(v[i], sign) && !(math.Abs(v[i]) >= noBound) {
			out[i] = &v[i]
		}
	}
	return out
}

// MarshalJSON encodes p in the JSON form of FORMATS.md (see WriteProblem).
func (p Problem) MarshalJSON() ([]byte, error) {
	loss := p.Loss
	if loss == "" {
		loss = "none"
	}
	return json.Marshal(problemJSON{
		Name: p.Name, N: p.N, Loss: loss, Phi: p.Phi, Y: p.Y, Ridge: p.Ridge, L1: p.L1,
		Lower: boundsJSON(p.Lower, -1), Upper: boundsJSON(p.Upper, 1),
		P: p.P, Q: p.Q, Offset: p.Offset, A: p.A, B: p.B, Aeq: p.Aeq, Beq: p.Beq,
	})
}

// WriteProblem writes p as one line of JSON in the form ReadProblem reads,
// followed by a newline. Numbers are written in the shortest form that reads
// back exactly, so WriteProblem then ReadProblem gives p back (a missing
// bound, written as null, comes back as -Inf / +Inf; an empty Loss as
// "none"). A NaN or an infinity other than a missing bound is an error:
// JSON cannot hold it.
func WriteProblem(w io.Writer, p *Problem) error {
	b, err := p.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// problemFields are the keys of the JSON form, in FORMATS.md's order.
const problemFields = "name, n, loss, phi, y, ridge, l1, lower, upper, P, q, offset, A, b, Aeq, beq"

var knownField = func() map[string]bool {
	m := make(map[string]bool)
	for _, k := range strings.Split(problemFields, ", ") {
		m[k] = true
	}
	return m
}()

// decodeProblem is ReadProblem on a document in memory.
func decodeProblem(data []byte) (*Problem, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &InputError{Msg: "empty input: want a JSON problem object"}
	}
	// One pass over the whole document first: syntax errors then carry
	// offsets into it (a json.Decoder's do not), and afterwards every
	// value is known to be well-formed JSON.
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return nil, &InputError{Msg: "malformed JSON: " + err.Error()}
		}
		off := int(se.Offset)
		msg := "malformed JSON: " + se.Error()
		if strings.Contains(se.Error(), "after top-level value") {
			msg = "data after the problem object"
		}
		if off > 0 && off <= len(data) && se.Error() != "unexpected end of JSON input" {
			off-- // Offset counts the offending byte
		}
		l, c := lineCol(data, off)
		return nil, &InputError{Msg: msg, Line: l, Column: c}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
		l, c := lineCol(data, start)
		return nil, &InputError{Msg: "want a JSON object, got " + kindOf(data[start]), Line: l, Column: c}
	}
	p := &Problem{}
	var haveN, haveLoss bool
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, &InputError{Msg: "malformed JSON: " + err.Error()}
		}
		key, _ := tok.(string)
		keyOff := max(0, int(dec.InputOffset())-len(key)-2)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, &InputError{Msg: "malformed JSON: " + err.Error()}
		}
		f := &jsonField{data: data, s: string(v), base: int(dec.InputOffset()) - len(v), name: key}
		if seen[key] {
			l, c := lineCol(data, keyOff)
			return nil, &InputError{Msg: "field " + strconv.Quote(key) + " given twice", Line: l, Column: c}
		}
		seen[key] = true
		if !knownField[key] {
			l, c := lineCol(data, keyOff)
			return nil, &InputError{Msg: "unknown field " + strconv.Quote(key) + " (want one of " + problemFields + ")", Line: l, Column: c}
		}
		if f.s == "null" {
			continue
		}
		switch key {
		case "name":
			err = f.str(&p.Name)
		case "n":
			haveN = true
			p.N, err = f.integer()
		case "loss":
			haveLoss = true
			if err = f.str(&p.Loss); err == nil && p.Loss == "" {
				err = f.errAt(0, -1, -1, `"": want squared, logistic or none`)
			}
		case "ridge":
			p.Ridge, err = f.scalar()
		case "l1":
			p.L1, err = f.scalar()
		case "offset":
			p.Offset, err = f.scalar()
		case "phi":
			p.Phi, err = f.matrix()
		case "P":
			p.P, err = f.matrix()
		case "A":
			p.A, err = f.matrix()
		case "Aeq":
			p.Aeq, err = f.matrix()
		case "y":
			p.Y, err = f.vector(false, 0)
		case "q":
			p.Q, err = f.vector(false, 0)
		case "b":
			p.B, err = f.vector(false, 0)
		case "beq":
			p.Beq, err = f.vector(false, 0)
		case "lower":
			p.Lower, err = f.vector(true, math.Inf(-1))
			for i, x := range p.Lower {
				if math.Abs(x) >= noBound {
					p.Lower[i] = math.Inf(-1)
				}
			}
		case "upper":
			p.Upper, err = f.vector(true, math.Inf(1))
			for i, x := range p.Upper {
				if math.Abs(x) >= noBound {
					p.Upper[i] = math.Inf(1)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if !haveN {
		return nil, inputErr("n", nil, "missing: the number of variables is required")
	}
	if !haveLoss {
		return nil, inputErr("loss", nil, `missing: want "squared", "logistic" or "none"`)
	}
	return p, nil
}

// jsonField is the value of one key of a well-formed problem object, with
// what it takes to say where an error is.
type jsonField struct {
	data []byte // the whole document
	s    string // the value (one conversion, so numbers parse without allocating)
	base int    // offset of s in data
	name string
}

// errAt is an error at offset off of the value, for element [row][col]
// (-1: no such index).
func (f *jsonField) errAt(off, row, col int, msg string) *InputError {
	l, c := lineCol(f.data, f.base+off)
	e := &InputError{Field: f.name, Msg: msg, Line: l, Column: c}
	if row >= 0 {
		e.Index = append(e.Index, row)
	}
	if col >= 0 {
		e.Index = append(e.Index, col)
	}
	return e
}

// kindOf names the JSON value that starts with byte b.
func kindOf(b byte) string {
	switch b {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func (f *jsonField) str(dst *string) error {
	if f.s[0] != '"' {
		return f.errAt(0, -1, -1, "want a string, got "+kindOf(f.s[0]))
	}
	return json.Unmarshal([]byte(f.s), dst)
}

func (f *jsonField) scalar() (float64, error) {
	x, _, err := f.num(0, -1, -1, false, 0)
	return x, err
}

func (f *jsonField) integer() (int, error) {
	x, _, err := f.num(0, -1, -1, false, 0)
	if err != nil {
		return 0, err
	}
	if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, f.errAt(0, -1, -1, f.s+": want an integer")
	}
	return int(x), nil
}

// num parses the number (or, with nullOK, the null) at offset i and returns
// it with the offset just after it.
func (f *jsonField) num(i, row, col int, nullOK bool, null float64) (float64, int, error) {
	c := f.s[i]
	if c == 'n' && nullOK {
		return null, i + len("null"), nil
	}
	if c != '-' && (c < '0' || c > '9') {
		return 0, i, f.errAt(i, row, col, "want a number, got "+kindOf(c))
	}
	j := i + 1
	for j < len(f.s) && isNumByte(f.s[j]) {
		j++
	}
	x, err := strconv.ParseFloat(f.s[i:j], 64)
	if err != nil {
		return 0, i, f.errAt(i, row, col, f.s[i:j]+" is out of range for float64")
	}
	return x, j, nil
}

func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// numbers parses the array of numbers at offset i (row < 0: the value is a
// vector) and returns it with the offset after its ']'. An empty array gives
// an empty, non-nil slice.
func (f *jsonField) numbers(i, row int, nullOK bool, null float64) ([]float64, int, error) {
	if f.s[i] != '[' {
		return nil, i, f.errAt(i, row, -1, "want an array of numbers, got "+kindOf(f.s[i]))
	}
	out := []float64{}
	i = skipWS(f.s, i+1)
	if f.s[i] == ']' {
		return out, i + 1, nil
	}
	for k := 0; ; k++ {
		r, c := row, k
		if row < 0 {
			r, c = k, -1
		}
		x, j, err := f.num(i, r, c, nullOK, null)
		if err != nil {
			return nil, j, err
		}
		out = append(out, x)
		i = skipWS(f.s, j)
		if f.s[i] == ']' {
			return out, i + 1, nil
		}
		i = skipWS(f.s, i+1) // past the ','
	}
}

func (f *jsonField) vector(nullOK bool, null float64) ([]float64, error) {
	v, _, err := f.numbers(0, -1, nullOK, null)
	return v, err
}

func (f *jsonField) matrix() ([][]float64, error) {
	if f.s[0] != '[' {
		return nil, f.errAt(0, -1, -1, "want an array of rows, got "+kindOf(f.s[0]))
	}
	out := [][]float64{}
	i := skipWS(f.s, 1)
	if f.s[i] == ']' {
		return out, nil
	}
	for r := 0; ; r++ {
		row, j, err := f.numbers(i, r, false, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, row)
		i = skipWS(f.s, j)
		if f.s[i] == ']' {
			return out, nil
		}
		i = skipWS(f.s, i+1)
	}
}

// lineCol turns a byte offset into a 1-based line and column (in bytes).
func lineCol(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// noBound is the magnitude from which a bound means "none" (as in OSQP).
const noBound = 1e20

// maxN bounds the number of variables: beyond it one vector of the solver's
// workspace alone would take more than 512 MiB.
const maxN = 1 << 26

// InputError is a problem with the input. It names the field and, where
// there is one, the index (row, or row and column); errors found while
// reading a file also carry the line and column (1-based; 0 when unknown).
// Its text is "[line L, column C: ]field[i][j]: message", or
// "field[i] = value: message" when Msg starts with "= ".
type InputError struct {
	Field        string
	Index        []int
	Msg          string
	Line, Column int
}

func (e *InputError) Error() string {
	var sb strings.Builder
	if e.Line > 0 {
		sb.WriteString("line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": ")
	}
	sb.WriteString(e.Field)
	for _, i := range e.Index {
		sb.WriteString("[" + strconv.Itoa(i) + "]")
	}
	if e.Msg != "" {
		switch {
		case e.Field == "":
		case strings.HasPrefix(e.Msg, "= "):
			sb.WriteByte(' ')
		default:
			sb.WriteString(": ")
		}
		sb.WriteString(e.Msg)
	}
	return sb.String()
}

func inputErr(field string, idx []int, msg string) *InputError {
	return &InputError{Field: field, Index: idx, Msg: msg}
}

// fmtG formats v in the shortest form that reads back exactly.
func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

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

// SVMProblem is the hard-margin SVM of the paper's section 6.2,
//
//	minimize 1/2 ||x||^2  subject to  y_i a_i'x >= 1,
//
// as a Problem: ridge 1, loss "none", rows -y_i a_i of A and b_i = -1 (no
// bias: with one-hot features a bias is redundant). n is the length of the
// longest row; shorter rows are padded with zeros. labels must be ±1 and as
// many as the rows (fewer is a programmer error and panics); rows are
// copied, never modified.
//
// With normalizeFeatures, each feature column j is first divided by its
// Euclidean norm ||a_{.j}|| (all-zero columns are left alone). The paper
// says only that "the features are normalized"; we take unit-norm columns
// because a positive column scaling keeps a separable set separable (and x
// maps back as x_j / ||a_{.j}||), whereas centring would destroy the
// implicit bias of one-hot data, and unit max-abs scaling leaves 0/1
// features unchanged. testdata/README.md compares the resulting slack
// counts with the paper's (none of the variants matches them exactly).
func SVMProblem(labels []float64, rows [][]float64, normalizeFeatures bool) *Problem {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	scale := make([]float64, n)
	for j := range scale {
		scale[j] = 1
	}
	if normalizeFeatures {
		ss := make([]float64, n)
		for _, r := range rows {
			for j, v := range r {
				ss[j] += v * v
			}
		}
		for j, s := range ss {
			if s > 0 {
				scale[j] = 1 / math.Sqrt(s)
			}
		}
	}
	p := &Problem{N: n, Loss: "none", Ridge: 1, A: make([][]float64, len(rows)), B: make([]float64, len(rows))}
	flat := make([]float64, len(rows)*n)
	for i, r := range rows {
		a := flat[i*n : (i+1)*n : (i+1)*n]
		for j, v := range r {
			a[j] = -labels[i] * v * scale[j]
		}
		p.A[i] = a
		p.B[i] = -1
	}
	return p
}
