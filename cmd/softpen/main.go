// Command softpen solves problems in the JSON format of FORMATS.md, the
// hard-margin SVM and regularised regression on LIBSVM data, runs the demo, reruns the paper's
// experiments and measures kernel speed.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// Exit codes of the command line contract.
const (
	exitSolved = 0 // status "solved" (and success of demo, bench, repro, and -h)
	exitInput  = 1 // bad input: a message naming the problem on stderr
	exitUsage  = 2 // usage error
	exitStatus = 3 // any other status
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// gcPercent is the collector's GOGC for a run of the command (a GOGC set
// in the environment is kept). A run is one solve: it allocates the data
// and the workspace once, plus the reader's garbage (about the data's size
// again), so a heap may grow to a few times the live data whatever GOGC
// is. At the default of 100, from its 4 MB start, the collector runs
// three times while softpen svm reads mushrooms (8 MB of rows), a sixth of
// the process; at 400 it runs once, and higher values gain nothing more
// (BenchmarkSVMCommand).
const gcPercent = 400

// command is one subcommand: its synopsis, a one-line description, its
// flags (a fresh set bound to fresh values, used by the command itself and
// by the top-level help, so that help lists exactly the flags that parse)
// and its entry point.
type command struct {
	name, synopsis, about string
	flags                 func() *flag.FlagSet
	run                   func(args []string, stdout, stderr io.Writer) int
}

// commands in the order of the help.
func commands() []command {
	return []command{
		{"demo", demoSynopsis, "solve an embedded instance of the paper's QP and compare with its reference", func() *flag.FlagSet { return new(demoArgs).flagSet() }, runDemo},
		{"solve", solveSynopsis, "solve a problem file (FORMATS.md) and write the result file", func() *flag.FlagSet { return new(solveArgs).flagSet() }, runSolve},
		{"svm", svmSynopsis, "the hard-margin SVM of the paper's section 6.2 on LIBSVM data", func() *flag.FlagSet { return new(svmArgs).flagSet() }, runSVM},
		{"fit", fitSynopsis, "logistic or least-squares regression with ridge, l1 and bounds on LIBSVM data", func() *flag.FlagSet { return new(fitArgs).flagSet() }, runFit},
		{"repro qp", reproQPSynopsis, "rerun the paper's QP experiment (section 6.1)", func() *flag.FlagSet { return new(reproArgs).flagSet("qp") }, nil},
		{"repro svm", reproSVMSynopsis, "rerun the paper's SVM experiment (section 6.2)", func() *flag.FlagSet { return new(reproArgs).flagSet("svm") }, nil},
		{"bench", benchSynopsis, "kernel throughput per available implementation on this CPU", func() *flag.FlagSet { return new(benchArgs).flagSet() }, runBench},
	}
}

// run dispatches a subcommand and returns the exit code; it never panics on
// user input.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runDemo(nil, stdout, stderr)
	}
	switch args[0] {
	case "repro":
		return runRepro(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitSolved
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "softpen: unknown command %q (softpen -h lists the commands)\n", args[0])
	return exitUsage
}

// usage is the top-level help: every command with every flag it takes.
func usage(w io.Writer) {
	fmt.Fprint(w, `softpen solves strongly convex problems with many linear constraints (FORMATS.md).
With no arguments it runs the demo. Every command takes -h. Exit status: 0 solved
(or success), 1 bad input, 2 usage error, 3 any other status.

`)
	for _, c := range commands() {
		fmt.Fprintf(w, "softpen %s: %s\n", c.name, c.about)
		printHelp(w, c.synopsis, c.flags())
		fmt.Fprintln(w)
	}
}
