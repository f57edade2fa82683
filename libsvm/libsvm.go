// Package libsvm reads the LIBSVM text format for binary classification:
// one example per line, "label index:value index:value ...", with 1-based,
// strictly increasing indices. Blank lines and '#' comments are ignored and
// CRLF line ends are accepted. The labels must be one of the pairs -1/+1,
// 0/1 or 1/2, and both of its labels must occur; the smaller maps to -1 and
// the larger to +1 (so 1/2 gives 1 -> -1, 2 -> +1). Any other label, a
// mixed pair (-1/2), and the "qid:" tokens of ranking data are rejected.
// Every malformed input is an *Error naming the line and, for a bad token,
// its column. The input is parsed in blocks of lines on GOMAXPROCS
// goroutines (blocks.go), with the result and the errors of reading it
// line by line.
package libsvm

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/softpen/softpen/mat"
)

// Data is a data set read densely: Rows[i] has NFeatures entries (zero
// where the file has none), all rows share one backing array, row-major.
type Data struct {
	Labels    []float64 // -1 or +1 (ReadTargets: the targets), one per row
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

// reader holds a file in sparse form while it is read: example i's
// entries are idxs and vals from ptr[i] to ptr[i+1] (one allocation per
// file rather than per row; ptr becomes the mat.Sparse's own).
type reader struct {
	nFeatures int       // fixed by the caller, or 0
	targets   bool      // labels are regression targets, kept as written
	labels    []float64 // as written, one per example
	ptr       []int     // ptr[0] = 0, then the end of each example's entries
	idxs      []int32   // feature indices of all rows, 0-based
	vals      []float64 // their values
	lines     []int     // the line of each example
	maxIdx    int
}

// examples returns the number of examples read.
func (rd *reader) examples() int { return len(rd.ptr) - 1 }

// Read reads a whole data set. nFeatures > 0 fixes the number of features
// (an index beyond it is an error, and rows are that long even if no index
// reaches it); 0 takes the largest index seen. Errors are *Error values
// naming the line and, for a bad token, its column: a bad label (not a
// finite number, or not one of -1, 0, 1, 2 and +1), a token without a
// colon, a "qid:" token (ranking data), an index that is not an integer in
// [1, 2^24], indices that do not strictly increase, a bad value (not a
// number, NaN or infinite), no examples, or labels other than the pair
// -1/+1, 0/1 or 1/2. Read never panics; it holds the file in sparse form,
// then densely.
func Read(r io.Reader, nFeatures int) (*Data, error) {
	return read(r, nFeatures, false)
}

// ReadTargets reads a data set for regression: as Read, with the same
// errors, except that the labels are targets kept as written, any finite
// number (a file of one distinct target is accepted).
func ReadTargets(r io.Reader, nFeatures int) (*Data, error) {
	return read(r, nFeatures, true)
}

// SparseData is a data set read in compressed sparse rows: X.Rows
// examples over X.Cols features, memory in proportion to the nonzeros.
type SparseData struct {
	Labels []float64 // -1 or +1 (ReadSparseTargets: the targets), one per row
	X      *mat.Sparse
}

// ReadSparse reads a data set as Read does, with the same checks and
// errors, and keeps the rows sparse: no limit on rows x features, and an
// index as large as 2^24 costs nothing until a caller densifies. Entries
// written with value 0 are kept.
func ReadSparse(r io.Reader, nFeatures int) (*SparseData, error) {
	return readSparse(r, nFeatures, false)
}

// ReadSparseTargets is ReadSparse for regression targets (see ReadTargets).
func ReadSparseTargets(r io.Reader, nFeatures int) (*SparseData, error) {
	return readSparse(r, nFeatures, true)
}

// read is Read, or with targets ReadTargets.
func read(r io.Reader, nFeatures int, targets bool) (*Data, error) {
	rd, lo, last, err := scan(r, nFeatures, targets)
	if err != nil {
		return nil, err
	}
	return rd.dense(lo, last)
}

// readSparse is ReadSparse, or with targets ReadSparseTargets.
func readSparse(r io.Reader, nFeatures int, targets bool) (*SparseData, error) {
	rd, lo, _, err := scan(r, nFeatures, targets)
	if err != nil {
		return nil, err
	}
	x := &mat.Sparse{Rows: rd.examples(), Cols: rd.features(), Ptr: rd.ptr, Idx: rd.idxs, Val: rd.vals}
	return &SparseData{Labels: rd.mapLabels(lo), X: x}, nil
}

// scan reads the whole input into a reader and checks the labels: lo is
// the label that maps to -1 (0 for targets), last the input's last line.
func scan(r io.Reader, nFeatures int, targets bool) (rd *reader, lo float64, last int, err error) {
	if nFeatures < 0 || nFeatures > maxIndex {
		return nil, 0, 0, &Error{Msg: fmt.Sprintf("%d features: want 0 (from the data) to %d", nFeatures, maxIndex)}
	}
	rd = &reader{nFeatures: nFeatures, targets: targets, ptr: []int{0}}
	if rs, ok := r.(io.ReadSeeker); ok {
		if err := rd.presize(rs); err != nil {
			return nil, 0, 0, &Error{Msg: err.Error()}
		}
	}
	line, err := rd.scanBlocks(r, blockSize)
	if err != nil {
		return nil, 0, 0, err
	}
	if rd.examples() == 0 {
		return nil, 0, 0, &Error{Line: line, Msg: "no examples"}
	}
	if targets {
		return rd, 0, line, nil
	}
	lo, err = checkLabels(rd.labels, rd.lines, line)
	if err != nil {
		return nil, 0, 0, err
	}
	return rd, lo, line, nil
}

// presize counts, in a first pass over a seekable input (a file), the
// lines and the colons (one an entry, plus any in comments) and sizes the
// reader's slices to hold them, then seeks back. The entries then take
// their own size, not the up to 3x of growing slices (a 1e6 x 1e6 data set
// with 5e7 entries: 600 MB instead of 1.6 GB at the peak). An input that
// cannot seek is read as a stream; one that seeks but cannot seek back is
// an error.
func (rd *reader) presize(rs io.ReadSeeker) error {
	start, err := rs.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	buf := make([]byte, 1<<20)
	lines, colons := 1, 0
	for {
		k, err := rs.Read(buf)
		lines += bytes.Count(buf[:k], []byte{'\n'})
		colons += bytes.Count(buf[:k], []byte{':'})
		if err == io.EOF {
			break
		}
		if err != nil {
			colons, lines = 0, 0
			break
		}
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return fmt.Errorf("seeking back after counting the entries: %v", err)
	}
	rd.idxs, rd.vals = make([]int32, 0, colons), make([]float64, 0, colons)
	rd.labels, rd.ptr, rd.lines = make([]float64, 0, lines), append(make([]int, 0, lines+1), 0), make([]int, 0, lines)
	return nil
}

// readLine reads one line (line is its number): an example, or nothing for
// a blank or comment line.
func (rd *reader) readLine(text []byte, line int) error {
	if i := bytes.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	pos := 0
	tok, col := nextField(text, &pos)
	if tok == nil {
		return nil // blank or comment
	}
	lab, ok := parseFloat(tok)
	if !ok {
		return &Error{line, col, fmt.Sprintf("bad label %q: want a finite number", tok)}
	}
	if !rd.targets && !knownLabel(lab) {
		return &Error{line, col, fmt.Sprintf("label %g: want the labels -1/+1, 0/1 or 1/2", lab)}
	}
	prev := 0
	for {
		tok, col := nextField(text, &pos)
		if tok == nil {
			break
		}
		idx, v, err := rd.entry(tok, prev, line, col)
		if err != nil {
			return err
		}
		prev = idx
		// Double when full: append's growth of large slices (1.25x)
		// copied mushrooms' entries five times over (13 MB allocated for
		// 2 MB of entries, an eighth of a whole softpen svm run).
		if len(rd.idxs) == cap(rd.idxs) {
			rd.idxs = slices.Grow(rd.idxs, max(len(rd.idxs), 4096))
		}
		if len(rd.vals) == cap(rd.vals) {
			rd.vals = slices.Grow(rd.vals, max(len(rd.vals), 4096))
		}
		rd.idxs = append(rd.idxs, int32(idx-1))
		rd.vals = append(rd.vals, v)
	}
	rd.maxIdx = max(rd.maxIdx, prev)
	rd.labels = append(rd.labels, lab)
	rd.ptr = append(rd.ptr, len(rd.idxs))
	rd.lines = append(rd.lines, line)
	return nil
}

// entry parses the token "index:value" at line and column col, after an
// entry of index prev (0 for the first).
func (rd *reader) entry(tok []byte, prev, line, col int) (int, float64, error) {
	colon := bytes.IndexByte(tok, ':')
	if colon < 0 {
		return 0, 0, &Error{line, col, fmt.Sprintf("%q: want index:value", tok)}
	}
	if string(tok[:colon]) == "qid" {
		return 0, 0, &Error{line, col, fmt.Sprintf("%q: query ids (LIBSVM ranking data) are not supported: this reader takes two-class data; remove the qid: tokens", tok)}
	}
	idx, ok := parseIndex(tok[:colon])
	if !ok || idx < 1 || idx > maxIndex {
		return 0, 0, &Error{line, col, fmt.Sprintf("%q: index must be an integer from 1 to %d", tok, maxIndex)}
	}
	if idx <= prev {
		return 0, 0, &Error{line, col, fmt.Sprintf("%q: indices must increase (previous %d)", tok, prev)}
	}
	if rd.nFeatures > 0 && idx > rd.nFeatures {
		return 0, 0, &Error{line, col, fmt.Sprintf("%q: index beyond %d features", tok, rd.nFeatures)}
	}
	v, ok := parseFloat(tok[colon+1:])
	if !ok {
		return 0, 0, &Error{line, col + colon + 1, fmt.Sprintf("%q: bad value: want a finite number", tok)}
	}
	return idx, v, nil
}

// knownLabel reports whether l can be in one of the accepted pairs.
func knownLabel(l float64) bool { return l == -1 || l == 0 || l == 1 || l == 2 }

// checkLabels checks that the labels (of the examples at lines; last is
// the file's last line) are both labels of one pair -1/+1, 0/1 or 1/2,
// and returns the smaller, which maps to -1.
func checkLabels(labels []float64, lines []int, last int) (float64, error) {
	lo, hi := labels[0], labels[0]
	for i, l := range labels {
		switch {
		case l == lo || l == hi:
		case lo == hi:
			a, b := min(lo, l), max(lo, l)
			if !(a == -1 && b == 1 || a == 0 && b == 1 || a == 1 && b == 2) {
				return 0, &Error{Line: lines[i], Column: 1, Msg: fmt.Sprintf("label %g after label %g (line %d): want the labels -1/+1, 0/1 or 1/2", l, lo, lines[0])}
			}
			lo, hi = a, b
		default:
			return 0, &Error{Line: lines[i], Column: 1, Msg: fmt.Sprintf("label %g: a third class (have %g and %g); want two", l, lo, hi)}
		}
	}
	if lo == hi {
		return 0, &Error{Line: last, Msg: fmt.Sprintf("only one class (label %g); want two", lo)}
	}
	return lo, nil
}

// features is the number of features: the caller's, or the largest index.
func (rd *reader) features() int {
	if rd.nFeatures != 0 {
		return rd.nFeatures
	}
	return rd.maxIdx
}

// mapLabels maps the labels in place, lo to -1 and the other to +1
// (targets kept as written), and returns them.
func (rd *reader) mapLabels(lo float64) []float64 {
	out := rd.labels
	for i, l := range rd.labels {
		switch {
		case rd.targets:
			out[i] = l
		case l == lo:
			out[i] = -1
		default:
			out[i] = 1
		}
	}
	return out
}

// dense returns the data set with the rows stored densely and label lo
// mapped to -1, the other to +1 (targets kept as written); last is the
// file's last line.
func (rd *reader) dense(lo float64, last int) (*Data, error) {
	n := rd.features()
	m := rd.examples()
	if m*n > maxDense {
		return nil, &Error{Line: last, Msg: fmt.Sprintf("%d rows x %d features is too large to hold densely (ReadSparse keeps it sparse)", m, n)}
	}
	d := &Data{NFeatures: n, Labels: rd.mapLabels(lo), Rows: make([][]float64, m)}
	flat := make([]float64, m*n)
	for i := range d.Rows {
		d.Rows[i] = flat[i*n : (i+1)*n : (i+1)*n]
		lo, hi := rd.ptr[i], rd.ptr[i+1]
		for k, j := range rd.idxs[lo:hi] {
			d.Rows[i][j] = rd.vals[lo+k]
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
	// The token as a string without a copy: ParseFloat keeps it only in
	// its error, which is dropped here, and this was one allocation an
	// entry (a third of the reading time of a 1.2 GB file).
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(tok), len(tok)), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
