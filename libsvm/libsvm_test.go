package libsvm

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"math"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMushrooms: both copies of the mushroom data read with the documented
// shape: 8124 rows, 3916 / 4208 classes, 126 resp. 112 features, 22 resp. 21
// non-zeros (all ones) per row.
func TestMushrooms(t *testing.T) {
	for _, c := range []struct {
		file     string
		nf, nnz  int
		neg, pos int // smaller label -> -1
	}{{"mushrooms.libsvm", 126, 22, 4208, 3916}, {"mushrooms112.libsvm", 112, 21, 3916, 4208}} {
		f, err := os.Open("../testdata/svm/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Read(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Rows) != 8124 || len(d.Labels) != 8124 || d.NFeatures != c.nf {
			t.Fatalf("%s: %d rows, %d labels, %d features", c.file, len(d.Rows), len(d.Labels), d.NFeatures)
		}
		var neg, pos int
		for i, l := range d.Labels {
			switch l {
			case -1:
				neg++
			case 1:
				pos++
			default:
				t.Fatalf("%s row %d: label %v", c.file, i, l)
			}
			nnz := 0
			for _, v := range d.Rows[i] {
				if v != 0 {
					nnz++
					if v != 1 {
						t.Fatalf("%s row %d: value %v, want 1", c.file, i, v)
					}
				}
			}
			if nnz != c.nnz || len(d.Rows[i]) != c.nf {
				t.Fatalf("%s row %d: %d non-zeros of %d, want %d of %d", c.file, i, nnz, len(d.Rows[i]), c.nnz, c.nf)
			}
		}
		if neg != c.neg || pos != c.pos {
			t.Errorf("%s: %d / %d labels -1 / +1, want %d / %d", c.file, neg, pos, c.neg, c.pos)
		}
	}
}

// TestMalformedSaysWhere: every malformed input is an *Error naming the
// line and, for a bad token, its column.
func TestMalformedSaysWhere(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1 1:2\nx 1:1\n", `line 2, column 1: bad label "x": want a finite number`},
		{"1 1:2\nnan 1:1\n", `line 2, column 1: bad label "nan"`},
		{"1 1:2\n-1 1:1 0:1\n", `line 2, column 8: "0:1": index must be an integer from 1 to 16777216`},
		{"1 1:2\n-1 -3:1\n", `line 2, column 4: "-3:1": index must be an integer`},
		{"1 1:2\n-1 99999999:1\n", `line 2, column 4: "99999999:1": index must be an integer`},
		{"1 a:2\n", `line 1, column 3: "a:2": index must be an integer`},
		{"1 2:2 1:1\n-1 1:1\n", `line 1, column 7: "1:1": indices must increase (previous 2)`},
		{"1 2:2 2:1\n-1 1:1\n", `line 1, column 7: "2:1": indices must increase (previous 2)`},
		{"1 1:2\n\n# c\n-1 3\n", `line 4, column 4: "3": want index:value`},
		{"1 1:nan\n-1 1:1\n", `line 1, column 5: "1:nan": bad value: want a finite number`},
		{"1 1:inf\n-1 1:1\n", `line 1, column 5: "1:inf": bad value`},
		{"1 1:1e400\n-1 1:1\n", `line 1, column 5: "1:1e400": bad value`},
		{"1 1:\n-1 1:1\n", `line 1, column 5: "1:": bad value`},
		{"1 1:1\n-1\t\t2:x\n", `line 2, column 7: "2:x": bad value`},
		{"1 1:1\n2 1:1\n\n3 1:1\n", "line 4, column 1: label 3: want the labels -1/+1, 0/1 or 1/2"},
		{"0 1:1\n1 1:1\n-1 1:1\n", "line 3, column 1: label -1: a third class (have 0 and 1); want two"},
		{"1 1:1\n1 1:2\n", "line 2: only one class (label 1); want two"},
		{"", "no examples"},
		{"# only\n\n", "line 2: no examples"},
		{"1 4:1\n-1 1:1\n", ""}, // fine with nFeatures 0 ...
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.in), 0)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
			}
			if _, err := Read(strings.NewReader(c.in), 3); err == nil || err.Error() != `line 1, column 3: "4:1": index beyond 3 features` {
				t.Errorf("%q with 3 features: %v", c.in, err) // ... an error with 3
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want %s", c.in, err, c.want)
		}
		var le *Error
		if !errors.As(err, &le) {
			t.Errorf("%q: %T is not an *Error", c.in, err)
		}
	}
	if _, err := Read(strings.NewReader("1 1:1\n-1 1:1\n"), -1); err == nil {
		t.Error("negative feature count accepted")
	}
}

// TestFormatVariants: 0/1 and +1/-1 labels, CRLF, tabs, comments, blank
// lines, a fixed feature count longer than the data, empty rows.
func TestFormatVariants(t *testing.T) {
	cases := []struct {
		in     string
		nf     int
		labels []float64
		rows   [][]float64
	}{
		{"0 1:1 # comment\r\n1 2:-1\r\n", 3, []float64{-1, 1}, [][]float64{{1, 0, 0}, {0, -1, 0}}},
		{"+1 1:0.5 3:2e-3\n\n  -1\t2:7\n", 0, []float64{1, -1}, [][]float64{{0.5, 0, 2e-3}, {0, 7, 0}}},
		{"# header\n2\n1 1:1\n", 0, []float64{1, -1}, [][]float64{{0}, {1}}},
		{"-1\n1\n", 0, []float64{-1, 1}, [][]float64{{}, {}}},
	}
	for _, c := range cases {
		d, err := Read(strings.NewReader(c.in), c.nf)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(d.Labels, c.labels) || !reflect.DeepEqual(d.Rows, c.rows) || d.NFeatures != len(c.rows[0]) {
			t.Errorf("%q: %+v", c.in, d)
		}
	}
}

// TestParseNumbers: the reader's own number parsing agrees with strconv bit
// for bit (signed zeros included) on both of its paths, and rejects what
// strconv rejects or what is not finite.
func TestParseNumbers(t *testing.T) {
	for _, tok := range []string{
		"0", "-0", "+0", "1", "-1", "+1", "007", "-007", "2", "126",
		"999999999999999", "-999999999999999", "9999999999999999", "12345678901234567890",
		"0.5", "-.5", "1e3", "1E-300", "0x1p-2", "1_0", "inf", "-Inf", "nan", "1e400",
		"", "-", "+", "--1", "1-", " 1", "1.", ".", "4.9e-324",
	} {
		got, ok := parseFloat([]byte(tok))
		want, err := strconv.ParseFloat(tok, 64)
		wantOK := err == nil && !math.IsNaN(want) && !math.IsInf(want, 0)
		if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseFloat(%q) = %v, %v; strconv: %v, %v", tok, got, ok, want, err)
		}
	}
	for _, tok := range []string{"1", "+1", "0", "007", "16777216", "999999999", "1000000000", "-1", "", "+", "1a", "1.0"} {
		got, ok := parseIndex([]byte(tok))
		want, err := strconv.Atoi(tok)
		if len(tok) > 9 || err != nil || want < 0 {
			if ok {
				t.Errorf("parseIndex(%q) = %d, want rejected", tok, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("parseIndex(%q) = %d, %v; want %d", tok, got, ok, want)
		}
	}
}

// TestLabelPairs: exactly the pairs -1/+1, 0/1 and 1/2 are accepted, the
// smaller label becoming -1 (1/2: 1 -> -1, 2 -> +1); any other label (5/7
// used to be accepted silently) or a mixed pair is an error naming the line
// and the label.
func TestLabelPairs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []float64
	}{
		{"-1 1:1\n+1 1:2\n", []float64{-1, 1}},
		{"1 1:1\n-1 1:2\n", []float64{1, -1}},
		{"1 1:1\n0 1:2\n", []float64{1, -1}},
		{"1 1:1\n2 1:2\n1 1:3\n", []float64{-1, 1, -1}},
		{"2.0 1:1\n1e0 1:2\n", []float64{1, -1}},
	} {
		d, err := Read(strings.NewReader(c.in), 0)
		if err != nil || !reflect.DeepEqual(d.Labels, c.want) {
			t.Errorf("%q: labels %v (%v), want %v", c.in, d, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"5 1:1\n7 1:2\n", "line 1, column 1: label 5: want the labels -1/+1, 0/1 or 1/2"},
		{"1 1:1\n\n7 1:2\n", "line 3, column 1: label 7: want the labels -1/+1, 0/1 or 1/2"},
		{"1 1:1\n0.5 1:2\n", "line 2, column 1: label 0.5: want"},
		{"-1 1:1\n2 1:2\n", "line 2, column 1: label 2 after label -1 (line 1): want the labels -1/+1, 0/1 or 1/2"},
		{"# h\n0 1:1\n0 1:1\n2 1:2\n", "line 4, column 1: label 2 after label 0 (line 2): want"},
		{"-1 1:1\n0 1:2\n", "line 2, column 1: label 0 after label -1 (line 1)"},
	} {
		_, err := Read(strings.NewReader(c.in), 0)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want %s", c.in, err, c.want)
		}
	}
}

// TestQid: the qid: tokens of LIBSVM ranking data are rejected with a
// message that says what they are, naming the line and column (they were
// reported as a bad index).
func TestQid(t *testing.T) {
	_, err := Read(strings.NewReader("1 1:1\n-1 qid:3 1:1\n"), 0)
	want := `line 2, column 4: "qid:3": query ids (LIBSVM ranking data) are not supported`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestFunctionLength: every function of the package stays short enough to
// read as named steps (Read was 108 lines).
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "libsvm.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > 80 {
				t.Errorf("%s is %d lines, want at most 80", fn.Name.Name, n)
			}
		}
	}
}

// TestReadTargets: ReadTargets keeps any finite label as the target
// (a single distinct one included), rejects what Read rejects in the
// entries, and a non-finite target.
func TestReadTargets(t *testing.T) {
	d, err := ReadTargets(strings.NewReader("2.5 1:1 3:-2\n-0.125 2:4\n2.5\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{2.5, -0.125, 2.5}; !slices.Equal(d.Labels, want) || d.NFeatures != 3 {
		t.Errorf("labels %v, features %d; want %v, 3", d.Labels, d.NFeatures, want)
	}
	if !slices.Equal(d.Rows[0], []float64{1, 0, -2}) || !slices.Equal(d.Rows[1], []float64{0, 4, 0}) {
		t.Errorf("rows %v", d.Rows)
	}
	if _, err := ReadTargets(strings.NewReader("7 1:1\n"), 0); err != nil {
		t.Errorf("one target: %v", err)
	}
	for _, bad := range []string{"1 2:1 1:1\n", "nan 1:1\n", "1 1:x\n", "inf 1:1\n"} {
		if _, err := ReadTargets(strings.NewReader(bad), 0); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestReadSparse: ReadSparse holds exactly what Read holds (every file of
// TestMushrooms and TestReadTargets' kind), its rows pass mat's Check, it
// rejects what Read rejects, and an index of 2^24 costs no dense row.
func TestReadSparse(t *testing.T) {
	for _, file := range []string{"mushrooms.libsvm", "mushrooms112.libsvm"} {
		raw, err := os.ReadFile("../testdata/svm/" + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, targets := range []bool{false, true} {
			rd, rs := Read, ReadSparse
			if targets {
				rd, rs = ReadTargets, ReadSparseTargets
			}
			d, err := rd(strings.NewReader(string(raw)), 0)
			if err != nil {
				t.Fatal(err)
			}
			s, err := rs(strings.NewReader(string(raw)), 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.X.Check(); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if !reflect.DeepEqual(s.Labels, d.Labels) || s.X.Cols != d.NFeatures {
				t.Fatalf("%s targets=%v: labels or width differ", file, targets)
			}
			if got := s.X.ToDense(); !reflect.DeepEqual(got.Data, slices.Concat(d.Rows...)) {
				t.Fatalf("%s targets=%v: rows differ", file, targets)
			}
			// A seekable input is counted first: the entries take their
			// own size. A stream gives the same data.
			if cap(s.X.Idx) != s.X.NNZ() || cap(s.X.Val) != s.X.NNZ() {
				t.Errorf("%s: capacity %d for %d entries", file, cap(s.X.Idx), s.X.NNZ())
			}
			st, err := rs(struct{ io.Reader }{strings.NewReader(string(raw))}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(st.X.Idx, s.X.Idx) || !reflect.DeepEqual(st.X.Val, s.X.Val) || !reflect.DeepEqual(st.X.Ptr, s.X.Ptr) || !reflect.DeepEqual(st.Labels, s.Labels) {
				t.Fatalf("%s: the stream reads differently", file)
			}
		}
	}
	huge := "+1 16777216:1\n-1 1:2 3:0.5\n"
	s, err := ReadSparse(strings.NewReader(huge), 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.X.Rows != 2 || s.X.Cols != 1<<24 || s.X.NNZ() != 3 || s.X.Check() != nil {
		t.Fatalf("huge index: %d x %d, %d entries", s.X.Rows, s.X.Cols, s.X.NNZ())
	}
	if _, err := Read(strings.NewReader(huge+strings.Repeat("-1 1:1\n", 10)), 0); err == nil {
		t.Fatal("Read: 12 rows x 2^24 features held densely")
	}
	for _, bad := range []string{"+1 2:1 1:1\n-1 1:1\n", "+1 1:x\n-1 1:1\n", "+1 1:1\n+1 2:1\n", "3 1:1\n-1 1:1\n"} {
		var e *Error
		if _, err := ReadSparse(strings.NewReader(bad), 0); !errors.As(err, &e) {
			t.Errorf("%q: err %v, want *Error", bad, err)
		}
	}
}

// TestReadSparseMemory: a seekable input is read into storage of its own
// size: the entries (12 bytes each), and per example its label, its line
// and its row pointer, which becomes the matrix's own (8 bytes each), with
// no copy of the labels or the row bounds left behind. 2^20 examples of
// one entry each, read with GOMAXPROCS 1 and 2 (the blocks' scratch is a
// few MB).
func TestReadSparseMemory(t *testing.T) {
	const m = 1 << 20
	var b strings.Builder
	for i := 0; i < m; i++ {
		b.WriteString([2]string{"+1 3:0.5\n", "-1 7:2\n"}[i%2])
	}
	text := b.String()
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d, err := ReadSparse(strings.NewReader(text), 0)
		runtime.ReadMemStats(&after)
		runtime.GOMAXPROCS(old)
		if err != nil || d.X.Rows != m {
			t.Fatalf("GOMAXPROCS %d: %v, %v", procs, d, err)
		}
		own := 12*m + 3*8*m
		if raceEnabled {
			continue // the detector's own allocations
		}
		if grew := int(after.TotalAlloc - before.TotalAlloc); grew > own+own/4 {
			t.Errorf("GOMAXPROCS %d: reading %d examples allocated %d bytes, %d of them its own storage", procs, m, grew, own)
		} else {
			t.Logf("GOMAXPROCS %d: %d bytes, %d its own storage", procs, grew, own)
		}
	}
}
