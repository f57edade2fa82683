// Command softpen solves problems in the JSON format of FORMATS.md, the
// hard-margin SVM on LIBSVM data, runs the demo, reruns the paper's
// experiments and measures kernel speed.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes of the command line contract.
const (
	exitSolved = 0 // status "solved" (and success of demo, bench, repro)
	exitInput  = 1 // bad input: a message naming the problem on stderr
	exitUsage  = 2 // usage error
	exitStatus = 3 // any other status
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a subcommand and returns the exit code; it never panics on
// user input.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runDemo(nil, stdout, stderr)
	}
	switch args[0] {
	case "demo":
		return runDemo(args[1:], stdout, stderr)
	case "solve":
		return runSolve(args[1:], stdout, stderr)
	case "svm":
		return runSVM(args[1:], stdout, stderr)
	case "bench":
		return runBench(args[1:], stdout, stderr)
	case "repro":
		return runRepro(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitSolved
	}
	fmt.Fprintf(stderr, "softpen: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  softpen                 run the demo (same as softpen demo)
  softpen demo            solve an embedded instance of the paper's QP and print a report
  softpen solve -in P.json [-out R.json] [-tol T] [-method M] [-screen] [-seed S]
                          [-max-steps K] [-time-limit D] [-progress]
  softpen svm -data FILE [same options]
  softpen repro qp [-sims 20] [-steps 1e7] [-out DIR] [-methods LIST]
  softpen repro svm -data FILE [-steps 1e7] [-out DIR] [-methods LIST]
  softpen bench [-json]   kernel throughput per available implementation
`)
}
