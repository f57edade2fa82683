package softpen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/softpen/softpen/mat"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The reader is hand-written; the writer is encoding/json's (Marshal of
// problemJSON). Unmarshal into a tagged struct cannot keep ReadProblem's
// contract:
//
//   - it matches keys case-insensitively (`"N": 3` sets n) and takes the
//     last of a repeated key, both silently;
//   - null inside a []float64 leaves 0 and no error, so a missing
//     coefficient would be read as zero; null as "no bound" in lower and
//     upper needs []*float64 and a second copy;
//   - its errors name the Go field, not the element or the place:
//     `json: cannot unmarshal bool into Go struct field problemJSON.A of
//     type float64`, where ReadProblem says
//     `line 3, column 12: A[1][1]: want a number, got a boolean`.
//
// It also allocates once per row where encoding/json allocates per number
// (TestReadProblemAllocs), and takes less time. ReadProblem
// makes two passes: json.Valid over the whole document (so that the rest
// may trust its syntax), then one of its own that splits the object into
// keys and values and parses the numbers in place, with one allocation per
// row.

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
// (twice: the bytes and a string of them) while decoding.
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
	PhiIdx [][]float64 `json:"phi_idx,omitempty"`
	PhiVal [][]float64 `json:"phi_val,omitempty"`
	Y      []float64   `json:"y,omitempty"`
	Ridge  float64     `json:"ridge"`
	L1     float64     `json:"l1,omitempty"`
	Lower  []*float64  `json:"lower,omitempty"`
	Upper  []*float64  `json:"upper,omitempty"`
	P      [][]float64 `json:"P,omitempty"`
	Q      []float64   `json:"q,omitempty"`
	Offset float64     `json:"offset,omitempty"`
	A      [][]float64 `json:"A,omitempty"`
	AIdx   [][]float64 `json:"A_idx,omitempty"`
	AVal   [][]float64 `json:"A_val,omitempty"`
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
	pj := problemJSON{
		Name: p.Name, N: p.N, Loss: loss, Phi: p.Phi, Y: p.Y, Ridge: p.Ridge, L1: p.L1,
		Lower: boundsJSON(p.Lower, -1), Upper: boundsJSON(p.Upper, 1),
		P: p.P, Q: p.Q, Offset: p.Offset, A: p.A, B: p.B, Aeq: p.Aeq, Beq: p.Beq,
	}
	pj.PhiIdx, pj.PhiVal = sparseRowsJSON(p.PhiSparse)
	pj.AIdx, pj.AVal = sparseRowsJSON(p.ASparse)
	return json.Marshal(pj)
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
const problemFields = "name, n, loss, phi, phi_idx, phi_val, y, ridge, l1, lower, upper, P, q, offset, A, A_idx, A_val, b, Aeq, beq"

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
	if err := checkSyntax(data); err != nil {
		return nil, err
	}
	doc := string(data) // one copy; every field's value is a substring of it
	i := skipWS(doc, 0)
	if doc[i] != '{' {
		l, c := lineCol(data, i)
		return nil, &InputError{Msg: "want a JSON object, got " + kindOf(doc[i]), Line: l, Column: c}
	}
	p := &Problem{}
	var sj sparseJSON
	var haveN, haveLoss bool
	seen := make(map[string]bool)
	for i = skipWS(doc, i+1); doc[i] != '}'; {
		f, next, err := nextField(doc, data, i, seen)
		if err != nil {
			return nil, err
		}
		if i = skipWS(doc, next); doc[i] == ',' {
			i = skipWS(doc, i+1)
		}
		if f.s == "null" {
			continue
		}
		haveN = haveN || f.name == "n"
		haveLoss = haveLoss || f.name == "loss"
		if dst := sj.field(f.name); dst != nil {
			m, err := f.matrix()
			if err != nil {
				return nil, err
			}
			*dst = m
			continue
		}
		if err := p.setField(f); err != nil {
			return nil, err
		}
	}
	if !haveN {
		return nil, inputErr("n", nil, "missing: the number of variables is required")
	}
	if !haveLoss {
		return nil, inputErr("loss", nil, `missing: want "squared", "logistic" or "none"`)
	}
	var err error
	if p.PhiSparse, err = sj.rows("phi", sj.phiIdx, sj.phiVal, p.N); err != nil {
		return nil, err
	}
	if p.ASparse, err = sj.rows("A", sj.aIdx, sj.aVal, p.N); err != nil {
		return nil, err
	}
	return p, nil
}

// sparseJSON holds the compressed rows of the JSON form while it is read:
// "phi_idx" and "phi_val" (and "A_idx", "A_val") are two arrays of rows,
// row i's 0-based column indices and their values.
type sparseJSON struct {
	phiIdx, phiVal, aIdx, aVal [][]float64
}

// field returns where the value of a sparse key goes, nil for other keys.
func (sj *sparseJSON) field(name string) *[][]float64 {
	switch name {
	case "phi_idx":
		return &sj.phiIdx
	case "phi_val":
		return &sj.phiVal
	case "A_idx":
		return &sj.aIdx
	case "A_val":
		return &sj.aVal
	}
	return nil
}

// rows builds the compressed rows of name ("phi" or "A") from its two
// arrays: both or neither, as many rows, each index row as long as its
// value row, every index an integer in [0, 2^31) (range, order and the
// values' finiteness are Validate's, naming name_sparse).
func (sj *sparseJSON) rows(name string, idx, val [][]float64, n int) (*mat.Sparse, error) {
	if idx == nil && val == nil {
		return nil, nil
	}
	if idx == nil || val == nil || len(idx) != len(val) {
		return nil, inputErr(name+"_idx", nil, fmt.Sprintf("%d rows of indices and %d of values: want both, with as many rows", len(idx), len(val)))
	}
	x := &mat.Sparse{Rows: len(idx), Cols: max(n, 0), Ptr: make([]int, len(idx)+1)}
	for i := range idx {
		if len(idx[i]) != len(val[i]) {
			return nil, inputErr(name+"_idx", []int{i}, fmt.Sprintf("%d indices but %d values", len(idx[i]), len(val[i])))
		}
		for k, v := range idx[i] {
			if v != math.Trunc(v) || v < 0 || v >= 1<<31 {
				return nil, inputErr(name+"_idx", []int{i, k}, fmtG(v)+": want a column index, an integer from 0")
			}
			x.Idx = append(x.Idx, int32(v))
		}
		x.Val = append(x.Val, val[i]...)
		x.Ptr[i+1] = len(x.Idx)
	}
	return x, nil
}

// sparseRowsJSON is the pair of arrays of the JSON form for x (nil, nil
// for nil).
func sparseRowsJSON(x *mat.Sparse) (idx, val [][]float64) {
	if x == nil {
		return nil, nil
	}
	idx, val = make([][]float64, x.Rows), make([][]float64, x.Rows)
	for i := range idx {
		ix, vx := x.Row(i)
		idx[i] = make([]float64, len(ix))
		for k, j := range ix {
			idx[i][k] = float64(j)
		}
		val[i] = vx
	}
	return idx, val
}

// checkSyntax checks the whole document with encoding/json, so that the
// reader after it may trust every value to be well-formed JSON. A syntax
// error carries the line and column of the offending byte.
func checkSyntax(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var whole json.RawMessage
	err := json.Unmarshal(data, &whole) // for the error and its offset
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &InputError{Msg: "malformed JSON: " + err.Error()}
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
	return &InputError{Msg: msg, Line: l, Column: c}
}

// nextField reads the key at offset i of the well-formed document doc
// (data as a string) and its value, and returns the field with the offset
// just after the value. A key seen before, or not of the format, is an
// error at the key.
func nextField(doc string, data []byte, i int, seen map[string]bool) (*jsonField, int, error) {
	end := endOfString(doc, i)
	key := doc[i+1 : end-1]
	if strings.IndexByte(key, '\\') >= 0 || !utf8.ValidString(key) {
		// Escapes, or bytes that are not UTF-8 (read as U+FFFD): decode
		// as encoding/json does; the key is well-formed.
		key = ""
		json.Unmarshal(data[i:end], &key)
	}
	keyOff := max(0, end-len(key)-2)
	i = skipWS(doc, skipWS(doc, end)+1) // past the ':'
	f := &jsonField{data: data, s: doc[i:endOfValue(doc, i)], base: i, name: key}
	if seen[key] {
		l, c := lineCol(data, keyOff)
		return nil, 0, &InputError{Msg: "field " + strconv.Quote(key) + " given twice", Line: l, Column: c}
	}
	seen[key] = true
	if !knownField[key] {
		l, c := lineCol(data, keyOff)
		return nil, 0, &InputError{Msg: "unknown field " + strconv.Quote(key) + " (want one of " + problemFields + ")", Line: l, Column: c}
	}
	return f, i + len(f.s), nil
}

// endOfString returns the offset just after the well-formed JSON string
// that starts at offset i of s.
func endOfString(s string, i int) int {
	for j := i + 1; ; j++ {
		switch s[j] {
		case '\\':
			j++ // the escaped byte
		case '"':
			return j + 1
		}
	}
}

// endOfValue returns the offset just after the well-formed JSON value that
// starts at offset i of s.
func endOfValue(s string, i int) int {
	switch s[i] {
	case '"':
		return endOfString(s, i)
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch s[j] {
			case '"':
				j = endOfString(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	j := i + 1 // a number, true, false or null
	for j < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[j])) {
		j++
	}
	return j
}

// setField stores the value of f (not null) in the field of p its key
// names. Besides the five fields with rules of their own, a key names a
// number, a vector or a matrix.
func (p *Problem) setField(f *jsonField) error {
	var err error
	switch f.name {
	case "name":
		err = f.str(&p.Name)
	case "n":
		p.N, err = f.integer()
	case "loss":
		if err = f.str(&p.Loss); err == nil && p.Loss == "" {
			err = f.errAt(0, -1, -1, `"": want squared, logistic or none`)
		}
	case "lower":
		p.Lower, err = f.bounds(-1)
	case "upper":
		p.Upper, err = f.bounds(1)
	case "ridge", "l1", "offset":
		dst := map[string]*float64{"ridge": &p.Ridge, "l1": &p.L1, "offset": &p.Offset}[f.name]
		*dst, err = f.scalar()
	case "y", "q", "b", "beq":
		dst := map[string]*[]float64{"y": &p.Y, "q": &p.Q, "b": &p.B, "beq": &p.Beq}[f.name]
		*dst, err = f.vector(false, 0)
	case "phi", "P", "A", "Aeq":
		dst := map[string]*[][]float64{"phi": &p.Phi, "P": &p.P, "A": &p.A, "Aeq": &p.Aeq}[f.name]
		*dst, err = f.matrix()
	}
	return err
}

// jsonField is the value of one key of a well-formed problem object, with
// what it takes to say where an error is.
type jsonField struct {
	data []byte // the whole document
	s    string // the value, a substring of the document as one string (numbers parse without allocating)
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
	i = skipWS(f.s, i+1)
	if f.s[i] == ']' {
		return []float64{}, i + 1, nil
	}
	// One allocation: numbers hold no ',' or ']', so the commas before the
	// first ']' count the entries (a wrong count, in an array that holds
	// something else and is an error, costs only the capacity).
	out := make([]float64, 0, 1+strings.Count(f.s[i:i+max(0, strings.IndexByte(f.s[i:], ']'))], ","))
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

// bounds parses the bounds lower (sign -1) or upper (sign +1): null, or a
// magnitude >= 1e20, is the infinity of that sign (no bound).
func (f *jsonField) bounds(sign int) ([]float64, error) {
	v, err := f.vector(true, math.Inf(sign))
	for i, x := range v {
		if math.Abs(x) >= noBound {
			v[i] = math.Inf(sign)
		}
	}
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
