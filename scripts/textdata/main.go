// Command textdata writes a sparse binary classification set in the LIBSVM
// format, made on the spot by internal/sparsegen: either the TF-IDF text
// set of Go's own source tree, which every machine with Go has, or a Zipf
// set of any size. It is how the sparse paths are measured against
// LIBLINEAR on data that needs no download.
//
//	go run ./scripts/textdata -out /tmp/gotext.libsvm
//	go run ./scripts/textdata -byfunc -mindocs 6 -maxdocs 63482 -out /tmp/gofunc.libsvm
//	go run ./scripts/textdata -kind zipf -l 1000000 -n 1000000 -nnz 50 -out /tmp/zipf.libsvm
//	go run ./scripts/textdata -kind zipf -l 1000000 -n 1000000 -nnz 50 -out /tmp/zipf.libsvm \
//		-rows 10000 -rows-out /tmp/zipf-rows.libsvm
//
// With -rows M a zipf set comes with M constraint rows a_i'x <= 0 over the
// same features (sparsegen.ZipfRows, -rows-nnz features each), written to
// -rows-out for `softpen fit -rows`.
//
// A one-line summary (rows, features, nonzeros, positive fraction, time)
// goes to standard error.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/softpen/softpen/internal/sparsegen"
)

func main() {
	out := flag.String("out", "", "output file (default standard output)")
	kind := flag.String("kind", "gotext", "gotext (Go's source tree) or zipf (synthetic)")
	root := flag.String("root", filepath.Join(runtime.GOROOT(), "src"), "gotext: the tree to read")
	maxDocs := flag.Int("maxdocs", 0, "gotext: keep this many documents, evenly spaced (0: all)")
	byFunc := flag.Bool("byfunc", false, "gotext: a document per top-level function, not per file")
	minDocs := flag.Int("mindocs", 0, "gotext: fewest files a token must be in (0: 2)")
	l := flag.Int("l", 100000, "zipf: rows")
	n := flag.Int("n", 100000, "zipf: features")
	nnz := flag.Int("nnz", 50, "zipf: distinct features a row")
	s := flag.Float64("s", 1, "zipf: exponent of the law")
	seed := flag.Uint64("seed", 1, "zipf: seed")
	rows := flag.Int("rows", 0, "zipf: constraint rows to write to -rows-out (0: none)")
	rowsNNZ := flag.Int("rows-nnz", 20, "zipf: distinct features a constraint row")
	rowsOut := flag.String("rows-out", "", "zipf: the constraint rows' file (needed with -rows)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: textdata [flags]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}

	start := time.Now()
	var set *sparsegen.Set
	switch *kind {
	case "gotext":
		var err error
		set, err = sparsegen.GoText(*root, sparsegen.TextOptions{MinDocs: *minDocs, MaxDocs: *maxDocs, ByFunc: *byFunc})
		if err != nil {
			fmt.Fprintln(os.Stderr, "textdata:", err)
			os.Exit(1)
		}
	case "zipf":
		if *l < 0 || *n < 1 || *n > math.MaxInt32 || *nnz < 0 || !(*s >= 0) || math.IsInf(*s, 1) {
			fmt.Fprintln(os.Stderr, "textdata: zipf needs -l >= 0, 1 <= -n < 2^31, -nnz >= 0, finite -s >= 0")
			os.Exit(2)
		}
		set = sparsegen.Zipf(*l, *n, *nnz, *s, *seed)
		if *rows < 0 || *rowsNNZ < 0 || (*rows > 0) != (*rowsOut != "") {
			fmt.Fprintln(os.Stderr, "textdata: -rows M >= 0 and -rows-nnz >= 0 go with -rows-out FILE")
			os.Exit(2)
		}
		if *rows > 0 {
			if err := write(*rowsOut, sparsegen.ZipfRows(*rows, *n, *rowsNNZ, *s, *seed)); err != nil {
				fmt.Fprintln(os.Stderr, "textdata:", err)
				os.Exit(1)
			}
		}
	default:
		fmt.Fprintf(os.Stderr, "textdata: -kind %q: want gotext or zipf\n", *kind)
		os.Exit(2)
	}
	built := time.Since(start)

	if err := write(*out, set); err != nil {
		fmt.Fprintln(os.Stderr, "textdata:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "textdata: %s: %d rows, %d features, %d nonzeros, %.4f positive; built in %.2fs, written in %.2fs\n",
		*kind, set.Rows(), set.NFeatures, set.NNZ(), set.PositiveFraction(),
		built.Seconds(), time.Since(start.Add(built)).Seconds())
}

// write writes set to the file name, or to standard output if name is "".
func write(name string, set *sparsegen.Set) error {
	var w io.Writer = os.Stdout
	var f *os.File
	if name != "" {
		var err error
		if f, err = os.Create(name); err != nil {
			return err
		}
		w = f
	}
	err := set.WriteLIBSVM(w) // buffered inside
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
