package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

// runSVM is `softpen svm -data FILE [options] [-scale] [-features N]`: the
// hard-margin SVM of the paper's section 6.2 on LIBSVM data,
// min 1/2 ||x||^2 s.t. y_i a_i'x >= 1, solved and written as a result file
// (lambda has one entry per example).
func runSVM(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("svm", "softpen svm -data FILE [-scale] [-features N] [-out R.json] [-tol T] [-method M] [-screen] [-seed S] [-max-steps K] [-time-limit D] [-progress]", stderr)
	data := fs.String("data", "", "LIBSVM data file (two classes; the smaller label becomes -1)")
	scale := fs.Bool("scale", false, "normalise the features first: each column to unit Euclidean norm")
	nf := fs.Int("features", 0, "number of features (0: the largest index in the file)")
	var f solveFlags
	f.register(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "softpen svm: want -data FILE and no other arguments")
		return exitUsage
	}
	if *nf < 0 {
		fmt.Fprintf(stderr, "softpen svm: -features %d: want >= 0\n", *nf)
		return exitUsage
	}
	file, err := openInput(*data)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	d, err := libsvm.Read(file, *nf)
	file.Close()
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", *data, err)
		return exitInput
	}
	p := softpen.SVMProblem(d.Labels, d.Rows, *scale)
	p.Name = filepath.Base(*data)
	return solveAndWrite(*data, p, &f, stdout, stderr)
}
