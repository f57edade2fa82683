// Package libsvm reads the LIBSVM text format for binary classification:
// one example per line, "label index:value index:value ...", with 1-based,
// strictly increasing indices. Blank lines and '#' comments are ignored and
// CRLF line ends are accepted. Exactly two distinct labels are expected; the
// smaller maps to -1 and the larger to +1 (so +1/-1, 1/2 and 0/1 all work).
// Every malformed line is an error naming its line number.
package libsvm

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Data is a data set read densely: Rows[i] has NFeatures entries.
type Data struct {
	Labels    []float64 // -1 or +1
	Rows      [][]float64
	NFeatures int
}

// Error is a malformed line.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

type sparseRow struct {
	idx []int
	val []float64
}

// Read reads a whole data set. nFeatures > 0 fixes the number of features
// (an index beyond it is an error); 0 takes the largest index seen.
func Read(r io.Reader, nFeatures int) (*Data, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	var raw []float64
	var rows []sparseRow
	maxIdx := 0
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		lab, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || math.IsNaN(lab) || math.IsInf(lab, 0) {
			return nil, &Error{line, fmt.Sprintf("bad label %q", fields[0])}
		}
		var row sparseRow
		prev := 0
		for _, f := range fields[1:] {
			colon := strings.IndexByte(f, ':')
			if colon < 0 {
				return nil, &Error{line, fmt.Sprintf("%q: want index:value", f)}
			}
			idx, err := strconv.Atoi(f[:colon])
			if err != nil || idx < 1 {
				return nil, &Error{line, fmt.Sprintf("%q: index must be an integer >= 1", f)}
			}
			if idx <= prev {
				return nil, &Error{line, fmt.Sprintf("%q: indices must increase", f)}
			}
			if nFeatures > 0 && idx > nFeatures {
				return nil, &Error{line, fmt.Sprintf("%q: index beyond %d features", f, nFeatures)}
			}
			if idx > 1<<24 {
				return nil, &Error{line, fmt.Sprintf("%q: index too large for a dense matrix", f)}
			}
			v, err := strconv.ParseFloat(f[colon+1:], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &Error{line, fmt.Sprintf("%q: bad value", f)}
			}
			prev = idx
			row.idx = append(row.idx, idx-1)
			row.val = append(row.val, v)
		}
		maxIdx = max(maxIdx, prev)
		raw = append(raw, lab)
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{line + 1, err.Error()}
	}
	if len(rows) == 0 {
		return nil, &Error{line, "no examples"}
	}
	classes := map[float64]bool{}
	for _, l := range raw {
		classes[l] = true
	}
	if len(classes) != 2 {
		return nil, &Error{line, fmt.Sprintf("%d distinct labels, want 2", len(classes))}
	}
	var cl []float64
	for c := range classes {
		cl = append(cl, c)
	}
	sort.Float64s(cl)
	n := nFeatures
	if n == 0 {
		n = maxIdx
	}
	if len(rows)*n > 1<<27 {
		return nil, &Error{line, fmt.Sprintf("%d rows x %d features is too large to hold densely", len(rows), n)}
	}
	d := &Data{NFeatures: n, Labels: make([]float64, len(rows)), Rows: make([][]float64, len(rows))}
	flat := make([]float64, len(rows)*n)
	for i, r := range rows {
		d.Labels[i] = 1
		if raw[i] == cl[0] {
			d.Labels[i] = -1
		}
		d.Rows[i] = flat[i*n : (i+1)*n : (i+1)*n]
		for k, j := range r.idx {
			d.Rows[i][j] = r.val[k]
		}
	}
	return d, nil
}
