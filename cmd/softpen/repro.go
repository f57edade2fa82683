package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/softpen/softpen/internal/repro"
)

const (
	reproQPSynopsis  = "softpen repro qp [-sims 20] [-steps 1e7] [-out DIR] [-methods LIST] [-testdata DIR] [-j N] [-grid] [-q]"
	reproSVMSynopsis = "softpen repro svm -data FILE [-steps 1e7] [-out DIR] [-methods LIST] [-scale] [-raise-xi] [-ref R.json] [-q]"
)

// reproCommon are the flags both experiments take.
type reproCommon struct {
	steps   float64
	out     string
	methods string
	quiet   bool
}

func (c *reproCommon) register(fs *flag.FlagSet, exp string) {
	fs.Float64Var(&c.steps, "steps", 1e7, "incremental steps per method and simulation, 1000 to 1e12")
	fs.StringVar(&c.out, "out", "repro-"+exp, "output directory (CSV, SVG, index.html, summary.txt)")
	fs.StringVar(&c.methods, "methods", "all", "comma-separated method names, or all")
	fs.BoolVar(&c.quiet, "q", false, "no progress lines on standard error")
}

func (c *reproCommon) log(stderr io.Writer) io.Writer {
	if c.quiet {
		return nil
	}
	return stderr
}

// reproArgs are the flags of one experiment: the common ones and qp's or
// svm's, bound to the configuration internal/repro takes.
type reproArgs struct {
	reproCommon
	qp  repro.QPConfig
	svm repro.SVMConfig
}

// flagSet is the flag set of experiment exp, "qp" or "svm": each has only
// its own flags.
func (a *reproArgs) flagSet(exp string) *flag.FlagSet {
	fs := newFlagSet("repro " + exp)
	a.register(fs, exp)
	if exp == "qp" {
		fs.IntVar(&a.qp.Sims, "sims", 20, "number of simulations: instances and random index sequences")
		fs.IntVar(&a.qp.Workers, "j", runtime.NumCPU(), "simulations run in parallel")
		fs.StringVar(&a.qp.Testdata, "testdata", "testdata/qp", "directory of paper-qp-100-s*.json instances and their .ref.json references; missing ones are generated")
		fs.BoolVar(&a.qp.Grid, "grid", false, "also run the appendix's parameter grids (45 settings per instance)")
	} else {
		fs.StringVar(&a.svm.Data, "data", "", "LIBSVM data file")
		fs.StringVar(&a.svm.Ref, "ref", "", "reference result JSON to check x* against (default: none)")
		fs.BoolVar(&a.svm.Scale, "scale", false, scaleHelp)
		fs.BoolVar(&a.svm.RaiseXi, "raise-xi", false, "let the solver raise xi when the multipliers saturate (the paper keeps xi = 1, below ||lambda*||_inf on mushrooms)")
	}
	return fs
}

// reproUsage is the help of `softpen repro`: both experiments' flags.
func reproUsage(w io.Writer) {
	printHelp(w, reproQPSynopsis, new(reproArgs).flagSet("qp"))
	fmt.Fprintln(w)
	printHelp(w, reproSVMSynopsis, new(reproArgs).flagSet("svm"))
}

// runRepro is `softpen repro qp|svm`: the paper's experiments (section 6)
// with every method it compares, written as CSV, SVG and index.html into
// -out, with a summary table on standard output.
func runRepro(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "softpen repro: want qp or svm (usage: %s | %s)\n", reproQPSynopsis, reproSVMSynopsis)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		reproUsage(stdout)
		return exitSolved
	case "qp":
		return runReproQP(args[1:], stdout, stderr)
	case "svm":
		return runReproSVM(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "softpen repro: unknown experiment %q: want qp or svm (softpen repro -h lists the flags)\n", args[0])
	return exitUsage
}

// parseRepro parses an experiment's flags and checks what they share.
func parseRepro(fs *flag.FlagSet, synopsis string, c *reproCommon, args []string, stdout, stderr io.Writer) (int, bool) {
	if code, ok := parseNoArgs(fs, synopsis, args, stdout, stderr); !ok {
		return code, false
	}
	if c.steps < 1000 || c.steps > 1e12 {
		fmt.Fprintf(stderr, "softpen %s: -steps %g: want 1000 to 1e12\n", fs.Name(), c.steps)
		return exitUsage, false
	}
	return 0, true
}

func runReproQP(args []string, stdout, stderr io.Writer) int {
	var a reproArgs
	fs := a.flagSet("qp")
	if code, ok := parseRepro(fs, reproQPSynopsis, &a.reproCommon, args, stdout, stderr); !ok {
		return code
	}
	if a.qp.Sims < 1 {
		fmt.Fprintf(stderr, "softpen repro qp: -sims %d: want >= 1\n", a.qp.Sims)
		return exitUsage
	}
	if _, e := os.Stat(a.qp.Testdata); e != nil {
		a.qp.Testdata = ""
	}
	a.qp.Steps, a.qp.Out, a.qp.Methods, a.qp.Log = int64(a.steps), a.out, a.methods, a.log(stderr)
	if err := repro.RunQP(a.qp, stdout); err != nil {
		fmt.Fprintln(stderr, "softpen repro qp:", err)
		return exitInput
	}
	return exitSolved
}

func runReproSVM(args []string, stdout, stderr io.Writer) int {
	var a reproArgs
	fs := a.flagSet("svm")
	if code, ok := parseRepro(fs, reproSVMSynopsis, &a.reproCommon, args, stdout, stderr); !ok {
		return code
	}
	if a.svm.Data == "" {
		fmt.Fprintf(stderr, "softpen repro svm: want -data FILE (usage: %s)\n", reproSVMSynopsis)
		return exitUsage
	}
	a.svm.Steps, a.svm.Out, a.svm.Methods, a.svm.Log = int64(a.steps), a.out, a.methods, a.log(stderr)
	if err := repro.RunSVM(a.svm, stdout); err != nil {
		fmt.Fprintln(stderr, "softpen repro svm:", err)
		return exitInput
	}
	return exitSolved
}
