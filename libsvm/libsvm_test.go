package libsvm

import (
	"os"
	"strings"
	"testing"
)

func TestMushrooms(t *testing.T) {
	for _, c := range []struct {
		file     string
		nf, nnz  int
		neg, pos int
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
		var neg, pos int
		for i, l := range d.Labels {
			if l < 0 {
				neg++
			} else {
				pos++
			}
			nnz := 0
			for _, v := range d.Rows[i] {
				if v != 0 {
					nnz++
				}
			}
			if nnz != c.nnz {
				t.Fatalf("%s row %d: %d non-zeros, want %d", c.file, i, nnz, c.nnz)
			}
		}
		if len(d.Rows) != 8124 || d.NFeatures != c.nf || neg+pos != 8124 || neg != c.neg && neg != c.pos {
			t.Errorf("%s: %d rows, %d features, %d/%d labels", c.file, len(d.Rows), d.NFeatures, neg, pos)
		}
	}
}

func TestMalformedNamesLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1 1:2\nx 1:1\n", "line 2: bad label"},
		{"1 1:2\n-1 0:1\n", "line 2"},
		{"1 2:2 1:1\n-1 1:1\n", "line 1: \"1:1\": indices must increase"},
		{"1 1:2\n\n# c\n-1 3\n", "line 4: \"3\": want index:value"},
		{"1 1:nan\n-1 1:1\n", "line 1: \"1:nan\": bad value"},
		{"1 1:1\n2 1:1\n3 1:1\n", "3 distinct labels"},
		{"1 1:1\n1 1:2\n", "1 distinct labels"},
		{"", "no examples"},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.in), 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.in, err, c.want)
		}
	}
	d, err := Read(strings.NewReader("0 1:1 # comment\r\n1 2:-1\r\n"), 3)
	if err != nil || d.Labels[0] != -1 || d.Labels[1] != 1 || d.NFeatures != 3 || d.Rows[1][1] != -1 {
		t.Errorf("0/1 labels, CRLF, comments: %+v, %v", d, err)
	}
}
