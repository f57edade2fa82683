package libsvm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// scanLines reads r line by line into a reader, as the package did before
// it read in blocks: the reference scanBlocks must match.
func scanLines(r io.Reader, nFeatures int, targets bool) (*reader, int, error) {
	rd := &reader{nFeatures: nFeatures, targets: targets}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if err := rd.readLine(sc.Bytes(), line); err != nil {
			return nil, 0, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, &Error{Line: line + 1, Msg: err.Error()}
	}
	return rd, line, nil
}

// blockText is a LIBSVM text of about rows lines with blank lines,
// comments, CRLF ends, tabs, empty examples and long ones (seeded).
func blockText(rows int, seed uint64) string {
	s := seed*0x9e3779b97f4a7c15 + 7
	next := func(n int) int {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		return int(s % uint64(n))
	}
	var b strings.Builder
	for i := 0; i < rows; i++ {
		switch next(20) {
		case 0:
			b.WriteString("\n")
			continue
		case 1:
			b.WriteString("# a comment: 3:4\n")
			continue
		}
		fmt.Fprintf(&b, "%d", 2*next(2)-1)
		idx := 0
		for k, nz := 0, next(8)+next(2)*next(200); k < nz; k++ {
			idx += 1 + next(30)
			sep := " "
			if next(9) == 0 {
				sep = "\t"
			}
			fmt.Fprintf(&b, "%s%d:%g", sep, idx, float64(next(2001)-1000)/float64(1+next(300)))
		}
		if next(7) == 0 {
			b.WriteString(" # trailing")
		}
		if next(5) == 0 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
	}
	b.WriteString("-1 2:0.5 7:1e-3") // no newline at the end
	return b.String()
}

// sameReader reports how two readers of the same input differ, or "".
func sameReader(a, b *reader) string {
	switch {
	case !reflect.DeepEqual(a.labels, b.labels):
		return "labels"
	case !reflect.DeepEqual(a.ptr, b.ptr):
		return "rows"
	case !reflect.DeepEqual(a.idxs, b.idxs):
		return "indices"
	case len(a.vals) != len(b.vals):
		return "values' length"
	case !reflect.DeepEqual(a.lines, b.lines):
		return "lines"
	case a.maxIdx != b.maxIdx:
		return "largest index"
	}
	for k := range a.vals {
		if math.Float64bits(a.vals[k]) != math.Float64bits(b.vals[k]) {
			return fmt.Sprintf("value %d", k)
		}
	}
	return ""
}

// TestBlocksMatchLines: reading in blocks, of any size down to one byte,
// on one goroutine or several, from a reader that gives one byte at a
// time or all it has, gives the examples, the line numbers and the errors
// of reading line by line; an error in a later block is reported only
// when the earlier ones have none.
func TestBlocksMatchLines(t *testing.T) {
	text := blockText(3000, 1)
	bad := strings.Split(text, "\n")
	bad[1700] = "1 3:4 2:1" // indices not increasing
	bad[2900] = "x 1:1"     // bad label, later
	badText := strings.Join(bad, "\n")
	lateBad := strings.Split(text, "\n")
	lateBad[2900] = "1 1:nan"
	lateBadText := strings.Join(lateBad, "\n")
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		for _, size := range []int{1, 5, 64, 4096, blockSize} {
			for _, in := range []string{text, badText, lateBadText, "", "\n\n", "1 1:1", "# c\n1 1:1\r\n"} {
				for _, oneByte := range []bool{false, true} {
					var r io.Reader = strings.NewReader(in)
					if oneByte {
						r = iotest.OneByteReader(r)
					}
					want, wantLine, wantErr := scanLines(strings.NewReader(in), 0, false)
					got := &reader{}
					line, err := got.scanBlocks(r, size)
					name := fmt.Sprintf("procs %d, size %d, one byte %v, input of %d bytes", procs, size, oneByte, len(in))
					if fmt.Sprint(err) != fmt.Sprint(wantErr) {
						t.Fatalf("%s: error %v, want %v", name, err, wantErr)
					}
					if err != nil {
						continue
					}
					if line != wantLine {
						t.Fatalf("%s: %d lines, want %d", name, line, wantLine)
					}
					if d := sameReader(got, want); d != "" {
						t.Fatalf("%s: %s differ", name, d)
					}
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestBlocksReadError: an input that fails after some lines is an *Error
// naming the line after the last one read, as when reading line by line.
func TestBlocksReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	in := io.MultiReader(strings.NewReader("1 1:1\n-1 2:1\n"), iotest.ErrReader(boom))
	_, err := ReadSparse(in, 0)
	var le *Error
	if !errors.As(err, &le) || le.Line != 3 || le.Msg != boom.Error() {
		t.Fatalf("error %v, want line 3: %v", err, boom)
	}
}

// TestBlocksLongLine: a line longer than maxLine is an error naming it,
// after the lines before it.
func TestBlocksLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("a 64 MiB line")
	}
	for _, in := range []string{
		"1 1:1\n-1 1:2\n1 " + strings.Repeat("1", maxLine) + "\n-1 1:1\n",
		"1 1:1\n-1 1:2\n1 " + strings.Repeat("1", maxLine), // the last line, no newline
	} {
		_, err := ReadSparse(strings.NewReader(in), 0)
		var le *Error
		if !errors.As(err, &le) || le.Line != 3 || le.Column != 0 || !strings.Contains(le.Msg, "too long") {
			msg := fmt.Sprint(err)
			t.Fatalf("error %.80s, want line 3: token too long", msg)
		}
	}
}

// BenchmarkReadSparse reads about 66 MB of LIBSVM text (a text-like set:
// tens of entries a line) from memory; run it with -cpu 1,2,... for the
// speed-up of the parse on several cores.
func BenchmarkReadSparse(b *testing.B) {
	text := blockText(60000, 3)
	for len(text) < 66<<20 {
		text += "\n" + blockText(5000, uint64(len(text)))
	}
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReadSparse(strings.NewReader(text), 0); err != nil {
			b.Fatal(err)
		}
	}
}
