// Package libsvm reads the LIBSVM text format for binary classification:
// one example per line, "label index:value index:value ...", with 1-based,
// strictly increasing indices. Blank lines and '#' comments are ignored and
// CRLF line ends are accepted. Exactly two distinct labels are expected; the
// smaller maps to -1 and the larger to +1 (so +1/-1, 1/2 and 0/1 all work).
// Every malformed input is an *Error naming the line and, for a bad token,
// its column.
package libsvm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Data is a data set read densely: Rows[i] has NFeatures entries (zero
// where the file has none), all rows share one backing array, row-major.
type Data struct {
	Labels    []float64 // -1 or +1, one per row
	Rows      [][]float64
	NFeatures int
}

// Error is a malformed input: the line (1-based; 0 when the input has no
// lines) and, when the fault is in one token, its column (1-based, in bytes;
// 0 otherwise).
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	if e.Column > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Limits that keep a hostile file from asking for unbounded memory.
const (
	maxIndex = 1 << 24 // largest feature index
	maxDense = 1 << 27 // largest rows x features held densely (1 GiB)
)

// sparseRow is one example's entries, a range of the reader's shared index
// and value slices (one allocation per file rather than per row).
type sparseRow struct {
	lo, hi int
}

// Read reads a whole data set. nFeatures > 0 fixes the number of features
// (an index beyond it is an error, and rows are that long even if no index
// reaches it); 0 takes the largest index seen. Errors are *Error values
// naming the line and, for a bad token, its column: a bad label (not a
// finite number), a token without a colon, an index that is not an integer
// in [1, 2^24], indices that do not strictly increase, a bad value (not a
// number, NaN or infinite), no examples, or other than two distinct labels.
// Read never panics; it holds the file in sparse form, then densely.
func Read(r io.Reader, nFeatures int) (*Data, error) {
	if nFeatures < 0 || nFeatures > maxIndex {
		return nil, &Error{Msg: fmt.Sprintf("%d features: want 0 (from the data) to %d", nFeatures, maxIndex)}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	var raw []float64
	var rows []sparseRow
	var idxs []int32   // feature indices of all rows, 0-based
	var vals []float64 // their values
	var lines []int    // the line of each example
	maxIdx := 0
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if i := bytes.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		row := sparseRow{lo: len(idxs)}
		prev := 0
		first := true
		var lab float64
		for pos := 0; ; {
			tok, col := nextField(text, &pos)
			if tok == nil {
				break
			}
			if first {
				first = false
				v, ok := parseFloat(tok)
				if !ok {
					return nil, &Error{line, col, fmt.Sprintf("bad label %q: want a finite number", tok)}
				}
				lab = v
				continue
			}
			colon := bytes.IndexByte(tok, ':')
			if colon < 0 {
				return nil, &Error{line, col, fmt.Sprintf("%q: want index:value", tok)}
			}
			idx, ok := parseIndex(tok[:colon])
			if !ok || idx < 1 || idx > maxIndex {
				return nil, &Error{line, col, fmt.Sprintf("%q: index must be an integer from 1 to %d", tok, maxIndex)}
			}
			if idx <= prev {
				return nil, &Error{line, col, fmt.Sprintf("%q: indices must increase (previous %d)", tok, prev)}
			}
			if nFeatures > 0 && idx > nFeatures {
				return nil, &Error{line, col, fmt.Sprintf("%q: index beyond %d features", tok, nFeatures)}
			}
			v, ok := parseFloat(tok[colon+1:])
			if !ok {
				return nil, &Error{line, col + colon + 1, fmt.Sprintf("%q: bad value: want a finite number", tok)}
			}
			prev = idx
			idxs = append(idxs, int32(idx-1))
			vals = append(vals, v)
		}
		if first {
			continue // blank or comment
		}
		row.hi = len(idxs)
		maxIdx = max(maxIdx, prev)
		raw = append(raw, lab)
		rows = append(rows, row)
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{Line: line + 1, Msg: err.Error()}
	}
	if len(rows) == 0 {
		return nil, &Error{Line: line, Msg: "no examples"}
	}
	lo, hi := raw[0], raw[0]
	for i, l := range raw {
		switch {
		case l == lo || l == hi:
		case lo == hi:
			lo, hi = min(lo, l), max(hi, l)
		default:
			return nil, &Error{Line: lines[i], Column: 1, Msg: fmt.Sprintf("label %g: a third class (have %g and %g); want two", l, lo, hi)}
		}
	}
	if lo == hi {
		return nil, &Error{Line: line, Msg: fmt.Sprintf("only one class (label %g); want two", lo)}
	}
	n := nFeatures
	if n == 0 {
		n = maxIdx
	}
	if len(rows)*n > maxDense {
		return nil, &Error{Line: line, Msg: fmt.Sprintf("%d rows x %d features is too large to hold densely", len(rows), n)}
	}
	d := &Data{NFeatures: n, Labels: make([]float64, len(rows)), Rows: make([][]float64, len(rows))}
	flat := make([]float64, len(rows)*n)
	for i, r := range rows {
		d.Labels[i] = 1
		if raw[i] == lo {
			d.Labels[i] = -1
		}
		d.Rows[i] = flat[i*n : (i+1)*n : (i+1)*n]
		for k, j := range idxs[r.lo:r.hi] {
			d.Rows[i][j] = vals[r.lo+k]
		}
	}
	return d, nil
}

// nextField returns the next whitespace-separated token of text at or after
// *pos and its 1-based column, advancing *pos; nil at the end of the line.
func nextField(text []byte, pos *int) ([]byte, int) {
	i := *pos
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	if i == len(text) {
		*pos = i
		return nil, 0
	}
	j := i
	for j < len(text) && !isSpace(text[j]) {
		j++
	}
	*pos = j
	return text[i:j], i + 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parseIndex parses a feature index: an optional '+' and decimal digits
// (at most 9, far above maxIndex), as strconv.Atoi would for such a token.
func parseIndex(tok []byte) (int, bool) {
	if len(tok) > 1 && tok[0] == '+' {
		tok = tok[1:]
	}
	if len(tok) == 0 || len(tok) > 9 {
		return 0, false
	}
	v := 0
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int(c-'0')
	}
	return v, true
}

// parseFloat parses a finite float64 as strconv.ParseFloat does. Tokens of
// at most 15 decimal digits with an optional sign (the common 0/1 features
// and labels) are converted directly, exactly (an integer below 2^53 is a
// float64); anything else goes to strconv. Either way nothing is allocated
// per token unless it is malformed.
func parseFloat(tok []byte) (float64, bool) {
	digits := tok
	neg := false
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		neg = digits[0] == '-'
		digits = digits[1:]
	}
	if len(digits) > 0 && len(digits) <= 15 {
		v := int64(0)
		for _, c := range digits {
			if c < '0' || c > '9' {
				goto general
			}
			v = 10*v + int64(c-'0')
		}
		f := float64(v)
		if neg {
			f = -f
		}
		return f, true
	}
general:
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
