package main

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/softpen/softpen/internal/repro"
)

// runRepro is `softpen repro qp|svm`: the paper's experiments (section 6)
// with every method it compares, written as CSV, SVG and index.html into
// -out, with a summary table on standard output.
func runRepro(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "qp" && args[0] != "svm") {
		fmt.Fprintln(stderr, "usage: softpen repro qp [-sims 20] [-steps 1e7] [-out DIR] [-methods LIST]\n       softpen repro svm -data FILE [-steps 1e7] [-out DIR] [-methods LIST]")
		return exitUsage
	}
	exp := args[0]
	fs := newFlagSet("repro "+exp, "softpen repro "+exp+" [flags]", stderr)
	sims := fs.Int("sims", 20, "number of simulations (qp): instances and random index sequences")
	steps := fs.Float64("steps", 1e7, "incremental steps per method and simulation")
	out := fs.String("out", "repro-"+exp, "output directory (CSV, SVG, index.html, summary.txt)")
	methods := fs.String("methods", "all", "comma-separated method names, or all")
	workers := fs.Int("j", runtime.NumCPU(), "simulations run in parallel (qp)")
	testdata := fs.String("testdata", "testdata/qp", "directory of paper-qp-100-s*.json instances and their .ref.json references (qp); missing ones are generated")
	data := fs.String("data", "", "LIBSVM data file (svm)")
	ref := fs.String("ref", "", "reference result JSON to check x* against (svm; default: none)")
	scale := fs.Bool("scale", true, "normalise the feature columns to unit norm (svm; the paper: \"the features are normalized\")")
	raiseXi := fs.Bool("raise-xi", false, "svm: let the solver raise xi when the multipliers saturate (the paper keeps xi = 1, below ||lambda*||_inf on mushrooms)")
	grid := fs.Bool("grid", false, "qp: also run the appendix's parameter grids (45 settings per instance)")
	quiet := fs.Bool("q", false, "no progress lines on standard error")
	if code, ok := parseFlags(fs, args[1:]); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "softpen repro %s: unexpected argument %q\n", exp, fs.Arg(0))
		return exitUsage
	}
	if *steps < 1000 || *steps > 1e12 || *sims < 1 {
		fmt.Fprintln(stderr, "softpen repro: want -steps in [1000, 1e12] and -sims >= 1")
		return exitUsage
	}
	var log io.Writer = stderr
	if *quiet {
		log = nil
	}
	var err error
	switch exp {
	case "qp":
		if _, e := os.Stat(*testdata); e != nil {
			*testdata = ""
		}
		err = repro.RunQP(repro.QPConfig{Sims: *sims, Steps: int64(*steps), Out: *out, Testdata: *testdata,
			Methods: *methods, Workers: *workers, Grid: *grid, Log: log}, stdout)
	case "svm":
		if *data == "" {
			fmt.Fprintln(stderr, "softpen repro svm: want -data FILE")
			return exitUsage
		}
		err = repro.RunSVM(repro.SVMConfig{Data: *data, Ref: *ref, Scale: *scale, RaiseXi: *raiseXi, Steps: int64(*steps), Out: *out,
			Methods: *methods, Log: log}, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "softpen repro %s: %v\n", exp, err)
		return exitInput
	}
	return exitSolved
}
