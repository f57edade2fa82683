package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/softpen/softpen"
)

const solveSynopsis = "softpen solve -in P.json [-out R.json] [-tol T] [-method M] [-screen R] [-seed S] [-max-steps K] [-time-limit D] [-progress] [-no-polish] [-max-memory B] [-threads T]"

type solveArgs struct {
	in string
	solveFlags
}

func (a *solveArgs) flagSet() *flag.FlagSet {
	fs := newFlagSet("solve")
	fs.StringVar(&a.in, "in", "", "problem file (JSON, see FORMATS.md)")
	a.register(fs)
	return fs
}

// runSolve is `softpen solve -in P.json [options]`: it reads a problem file
// (FORMATS.md), solves it and writes the result file to -out or stdout.
func runSolve(args []string, stdout, stderr io.Writer) int {
	var a solveArgs
	fs := a.flagSet()
	if code, ok := parseFlags(fs, solveSynopsis, args, stdout, stderr); !ok {
		return code
	}
	if a.in == "" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "softpen solve: want -in P.json and no other arguments (usage: %s)\n", solveSynopsis)
		return exitUsage
	}
	opt, err := a.options()
	if err != nil {
		fmt.Fprintln(stderr, "softpen solve:", err)
		return exitUsage
	}
	defer a.limitCores()()
	file, err := openInput(a.in)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	p, err := softpen.ReadProblem(file)
	file.Close()
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", a.in, err)
		return exitInput
	}
	return solveAndWrite(a.in, p, &a.solveFlags, opt, stdout, stderr)
}
