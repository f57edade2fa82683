package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

const svmSynopsis = "softpen svm -data FILE [-scale] [-features N] [the options of solve but -in]"

type svmArgs struct {
	data     string
	scale    bool
	features int
	solveFlags
}

// scaleHelp is the -scale flag of svm and repro svm, which share its
// default: off, the data as given, because scaling changes the problem and
// its answer x*; a user who wants the paper's normalised features asks.
const scaleHelp = "normalise each feature column to unit Euclidean norm first; this changes the problem and its answer, so it is off by default (the paper's experiments normalise)"

func (a *svmArgs) flagSet() *flag.FlagSet {
	fs := newFlagSet("svm")
	fs.StringVar(&a.data, "data", "", "LIBSVM data file (labels -1/+1, 0/1 or 1/2; the smaller becomes -1)")
	fs.BoolVar(&a.scale, "scale", false, scaleHelp)
	fs.IntVar(&a.features, "features", 0, "number of features (0: the largest index in the file)")
	a.register(fs)
	return fs
}

// runSVM is `softpen svm -data FILE [options] [-scale] [-features N]`: the
// hard-margin SVM of the paper's section 6.2 on LIBSVM data,
// min 1/2 ||x||^2 s.t. y_i a_i'x >= 1, solved and written as a result file
// (lambda has one entry per example). The data are read sparsely: a
// text-sized file with many features is solved on its sparse rows.
func runSVM(args []string, stdout, stderr io.Writer) int {
	var a svmArgs
	fs := a.flagSet()
	if code, ok := parseFlags(fs, svmSynopsis, args, stdout, stderr); !ok {
		return code
	}
	if a.data == "" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "softpen svm: want -data FILE and no other arguments (usage: %s)\n", svmSynopsis)
		return exitUsage
	}
	if a.features < 0 {
		fmt.Fprintf(stderr, "softpen svm: -features %d: want >= 0\n", a.features)
		return exitUsage
	}
	opt, err := a.options()
	if err != nil {
		fmt.Fprintln(stderr, "softpen svm:", err)
		return exitUsage
	}
	defer a.limitCores()()
	file, err := openInput(a.data)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	d, err := libsvm.ReadSparse(file, a.features)
	file.Close()
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", a.data, err)
		return exitInput
	}
	// Sparse rows: MethodAuto makes them dense for the exact engine where
	// they fit, and solves them by dual coordinate descent where not.
	p := softpen.SVMProblemSparse(d.Labels, d.X, a.scale)
	p.Name = filepath.Base(a.data)
	return solveAndWrite(a.data, p, &a.solveFlags, opt, stdout, stderr)
}
