package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

const fitSynopsis = "softpen fit -data FILE [-loss logistic|squared] [-ridge R] [-l1 W] [-lower V] [-upper V] [-rows FILE] [-features N] [the options of solve but -in]"

type fitArgs struct {
	data, rows   string
	loss         string
	ridge, l1    float64
	lower, upper float64
	features     int
	solveFlags
}

func (a *fitArgs) flagSet() *flag.FlagSet {
	fs := newFlagSet("fit")
	fs.StringVar(&a.data, "data", "", "LIBSVM data file: labels -1/+1, 0/1 or 1/2 for logistic (the smaller becomes -1), any numbers for squared")
	fs.StringVar(&a.loss, "loss", "logistic", "loss over the examples: logistic or squared")
	fs.Float64Var(&a.ridge, "ridge", 0, "ridge weight, > 0 (0: 1/l for l examples, LIBLINEAR's C = 1)")
	fs.Float64Var(&a.l1, "l1", 0, "l1 weight, >= 0")
	fs.Float64Var(&a.lower, "lower", math.Inf(-1), "lower bound on every weight (-Inf: none)")
	fs.Float64Var(&a.upper, "upper", math.Inf(1), "upper bound on every weight (+Inf: none)")
	fs.StringVar(&a.rows, "rows", "", "LIBSVM file of rows a_i'x <= b_i on the weights, one a line: b_i, then a_i's index:value pairs")
	fs.IntVar(&a.features, "features", 0, "number of features (0: the largest index in the files)")
	a.register(fs)
	return fs
}

// runFit is `softpen fit -data FILE [options]`: the model of the paper's
// section 2 with the data's examples as the rows phi_i and their labels as
// y_i,
//
//	minimize (1/l) sum_i f_i(phi_i'x) + ridge/2 ||x||^2 + l1 ||x||_1
//	subject to lower <= x_j <= upper, A x <= b,
//
// with f_i the logistic or the squared loss and the rows of A and b (none
// without -rows) read from a second LIBSVM file, b as its labels; solved
// and written as a result file (x holds the weights, lambda the rows'
// multipliers).
func runFit(args []string, stdout, stderr io.Writer) int {
	var a fitArgs
	fs := a.flagSet()
	if code, ok := parseFlags(fs, fitSynopsis, args, stdout, stderr); !ok {
		return code
	}
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "softpen fit: %s (usage: %s)\n", msg, fitSynopsis)
		return exitUsage
	}
	switch {
	case a.data == "" || fs.NArg() > 0:
		return usage("want -data FILE and no other arguments")
	case a.loss != "logistic" && a.loss != "squared":
		return usage(fmt.Sprintf("-loss %q: want logistic or squared", a.loss))
	case !(a.ridge >= 0) || math.IsInf(a.ridge, 0):
		return usage(fmt.Sprintf("-ridge %g: want a finite number > 0 (0: 1/l)", a.ridge))
	case !(a.l1 >= 0) || math.IsInf(a.l1, 0):
		return usage(fmt.Sprintf("-l1 %g: want a finite number >= 0", a.l1))
	case math.IsNaN(a.lower) || math.IsInf(a.lower, 1):
		return usage(fmt.Sprintf("-lower %g: want a number < +Inf", a.lower))
	case math.IsNaN(a.upper) || math.IsInf(a.upper, -1):
		return usage(fmt.Sprintf("-upper %g: want a number > -Inf", a.upper))
	case a.lower > a.upper:
		return usage(fmt.Sprintf("-lower %g is above -upper %g", a.lower, a.upper))
	case a.features < 0:
		return usage(fmt.Sprintf("-features %d: want >= 0", a.features))
	}
	opt, err := a.options()
	if err != nil {
		fmt.Fprintln(stderr, "softpen fit:", err)
		return exitUsage
	}
	defer a.limitCores()()
	file, err := openInput(a.data)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	read := libsvm.ReadSparse
	if a.loss == "squared" {
		read = libsvm.ReadSparseTargets
	}
	d, err := read(file, a.features)
	file.Close()
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", a.data, err)
		return exitInput
	}
	var rows *libsvm.SparseData
	if a.rows != "" {
		if rows, err = readRows(a.rows, a.features); err != nil {
			fmt.Fprintln(stderr, "softpen:", err)
			return exitInput
		}
		// Both files' rows take the wider of their column counts (with
		// -features, both have it already).
		n := max(d.X.Cols, rows.X.Cols)
		d.X.Cols, rows.X.Cols = n, n
	}
	p := fitProblem(d, a.loss, a.ridge, a.l1, a.lower, a.upper)
	if rows != nil {
		p.ASparse, p.B = rows.X, rows.Labels
	}
	p.Name = filepath.Base(a.data)
	return solveAndWrite(a.data, p, &a.solveFlags, opt, stdout, stderr)
}

// readRows reads the file of -rows: LIBSVM lines "b_i index:value ...",
// any numbers as b_i.
func readRows(path string, features int) (*libsvm.SparseData, error) {
	file, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	rows, err := libsvm.ReadSparseTargets(file, features)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}

// fitProblem is the model of runFit on the data d, its rows kept sparse
// and used in place (MethodAuto solves it by Newton-CG on them); ridge 0
// means 1/l.
func fitProblem(d *libsvm.SparseData, loss string, ridge, l1, lower, upper float64) *softpen.Problem {
	n := d.X.Cols
	if ridge == 0 {
		ridge = 1 / float64(d.X.Rows)
	}
	p := &softpen.Problem{N: n, Loss: loss, PhiSparse: d.X, Y: d.Labels, Ridge: ridge, L1: l1}
	fill := func(v float64) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = v
		}
		return out
	}
	if !math.IsInf(lower, -1) {
		p.Lower = fill(lower)
	}
	if !math.IsInf(upper, 1) {
		p.Upper = fill(upper)
	}
	return p
}
