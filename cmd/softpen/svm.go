package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

// runSVM is `softpen svm -data FILE [options]`: the hard-margin SVM of the
// paper's section 6.2 on LIBSVM data.
func runSVM(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("svm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "LIBSVM data file")
	scale := fs.Bool("scale", false, "divide each feature by its largest absolute value first")
	var f solveFlags
	f.register(fs)
	if err := fs.Parse(screenArgs(args)); err != nil {
		return exitUsage
	}
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "softpen svm: want -data FILE and no other arguments")
		return exitUsage
	}
	file, err := os.Open(*data)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	defer file.Close()
	d, err := libsvm.Read(file, 0)
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", filepath.Base(*data), err)
		return exitInput
	}
	p := softpen.SVMProblem(d.Labels, d.Rows, *scale)
	p.Name = filepath.Base(*data)
	return solveAndWrite(*data, p, &f, stdout, stderr)
}
