package fuzz

import (
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

// FuzzLIBSVMFile: the LIBSVM reader never panics on arbitrary bytes and
// fails only with a *libsvm.Error. A successful read has labels ±1 with
// both present, NFeatures values per row, all finite, and its SVM problem
// validates (with and without feature normalisation). A fixed feature count
// that is large enough gives the same data, padded with zeros.
func FuzzLIBSVMFile(f *testing.F) {
	for _, s := range []string{
		"1 1:0.5 3:1\n-1 2:1\n",
		"2 1:1 # c\r\n1 4:-2\n\n",
		"0 1:1\n1 1:-1 2:3e-300\n",
		"+1 1:1e300 2:-1e300\n-1\t3:0\n",
		"-1\n1\n",
		"1 2:1 1:1\n-1 1:1\n",
		"1 1:nan\n-1 1:1\n",
		"1 0:1\n-1 1:1\n",
		"1 1:1\n2 1:1\n3 1:1\n",
		"1 1\n-1 1:1\n",
		"1 99999999:1\n-1 1:1\n",
		"# only a comment\n",
		"x 1:1\n",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	const wide = 4096
	f.Fuzz(func(t *testing.T, data []byte, nf uint8) {
		// The sparse form: the same verdict as Read, well formed, and the
		// same entries; from a stream (no counting pass) the same again.
		s, errS := libsvm.ReadSparse(bytes.NewReader(data), int(nf%64))
		d, errD := libsvm.Read(bytes.NewReader(data), int(nf%64))
		if (errS == nil) != (errD == nil) && !(errD != nil && strings.Contains(errD.Error(), "too large to hold densely")) {
			t.Fatalf("ReadSparse: %v; Read: %v", errS, errD)
		}
		if errS == nil {
			if err := s.X.Check(); err != nil {
				t.Fatalf("ReadSparse: %v", err)
			}
			st, err := libsvm.ReadSparse(struct{ io.Reader }{bytes.NewReader(data)}, int(nf%64))
			if err != nil || !slices.Equal(st.X.Idx, s.X.Idx) || !slices.Equal(st.X.Ptr, s.X.Ptr) || !slices.Equal(st.Labels, s.Labels) ||
				!slices.EqualFunc(st.X.Val, s.X.Val, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Fatalf("ReadSparse from a stream differs (err %v)", err)
			}
			if errD == nil {
				dd := s.X.ToDense()
				for i, r := range d.Rows {
					if s.Labels[i] != d.Labels[i] || !slices.Equal(dd.Row(i), r) {
						t.Fatalf("row %d: sparse and dense differ", i)
					}
				}
			}
		}
		dw, errW := libsvm.Read(bytes.NewReader(data), wide)
		if errW == nil {
			checkData(t, dw, wide)
		} else {
			checkErr(t, errW)
		}
		// With a fixed small count: same invariants.
		if d, err := libsvm.Read(bytes.NewReader(data), int(nf%64)); err == nil {
			checkData(t, d, int(nf%64))
		} else {
			checkErr(t, err)
		}
		if errW != nil && strings.Contains(errW.Error(), "index beyond") {
			return // the natural width could be up to 2^24: not here
		}
		d0, err0 := libsvm.Read(bytes.NewReader(data), 0)
		if (err0 == nil) != (errW == nil) {
			t.Fatalf("natural width: %v; width %d: %v", err0, wide, errW)
		}
		if err0 != nil {
			return
		}
		checkData(t, d0, 0)
		for i, r := range dw.Rows {
			if d0.Labels[i] != dw.Labels[i] {
				t.Fatalf("row %d: labels differ", i)
			}
			for j, v := range r {
				if j < d0.NFeatures && v != d0.Rows[i][j] || j >= d0.NFeatures && v != 0 {
					t.Fatalf("row %d col %d: %v at width %d, natural width %d", i, j, v, wide, d0.NFeatures)
				}
			}
		}
		if d0.NFeatures >= 1 {
			for _, norm := range []bool{false, true} {
				p := softpen.SVMProblem(d0.Labels, d0.Rows, norm)
				if err := p.Validate(); err != nil && !tinyRowRefused(p, err) {
					t.Fatalf("SVM problem (normalised %v): %v", norm, err)
				}
			}
		}
	})
}

// tinyRowRefused reports whether err is Validate's documented refusal of
// a row of A whose norm is so small (a subnormal feature value such as
// 1e-310) that 1/norm overflows: an *InputError naming A and that row.
func tinyRowRefused(p *softpen.Problem, err error) bool {
	var ie *softpen.InputError
	if !errors.As(err, &ie) || ie.Field != "A" || len(ie.Index) != 1 {
		return false
	}
	var ss float64
	for _, v := range p.A[ie.Index[0]] {
		ss += v * v
	}
	return math.IsInf(1/math.Sqrt(ss), 1) || math.Sqrt(ss) < 1/math.MaxFloat64
}

func checkErr(t *testing.T, err error) {
	var le *libsvm.Error
	if !errors.As(err, &le) || err.Error() == "" || le.Line < 0 || le.Column < 0 {
		t.Fatalf("error %T %q", err, err)
	}
}

func checkData(t *testing.T, d *libsvm.Data, nf int) {
	if nf > 0 && d.NFeatures != nf || len(d.Labels) != len(d.Rows) || len(d.Rows) == 0 {
		t.Fatalf("%d features (want %d), %d labels, %d rows", d.NFeatures, nf, len(d.Labels), len(d.Rows))
	}
	var neg, pos bool
	for i, r := range d.Rows {
		switch d.Labels[i] {
		case -1:
			neg = true
		case 1:
			pos = true
		default:
			t.Fatalf("row %d: label %v", i, d.Labels[i])
		}
		if len(r) != d.NFeatures {
			t.Fatalf("row %d: %d values, want %d", i, len(r), d.NFeatures)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("row %d col %d: %v", i, j, v)
			}
		}
	}
	if !neg || !pos {
		t.Fatal("a class is missing")
	}
}

// FuzzLIBSVMValue: a feature value is read exactly as strconv.ParseFloat
// reads it (bit for bit, signed zeros included), and rejected exactly when
// strconv rejects it or it is not finite. The reader has a fast path of its
// own for integer tokens; this holds both paths to strconv.
func FuzzLIBSVMValue(f *testing.F) {
	for _, s := range []string{"1", "-0", "+7", "007", "999999999999999", "9999999999999999", "0.5", "1e-320", "1e999", "nan", "-", "0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if tok == "" || strings.ContainsAny(tok, " \t\r\v\f\n#:") {
			return // would change the line's fields, not the value
		}
		d, err := libsvm.Read(strings.NewReader("1 1:"+tok+"\n-1 2:1\n"), 0)
		want, perr := strconv.ParseFloat(tok, 64)
		ok := perr == nil && !math.IsNaN(want) && !math.IsInf(want, 0)
		if !ok {
			if err == nil {
				t.Fatalf("value %q read as %v; strconv: %v, %v", tok, d.Rows[0][0], want, perr)
			}
			return
		}
		if err != nil {
			t.Fatalf("value %q: %v; strconv reads %v", tok, err, want)
		}
		if got := d.Rows[0][0]; math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("value %q read as %v (%#x), strconv %v (%#x)", tok, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	})
}
