package main

import (
	"fmt"
	"io"

	"github.com/softpen/softpen"
)

// runSolve is `softpen solve -in P.json [options]`: it reads a problem file
// (FORMATS.md), solves it and writes the result file to -out or stdout.
func runSolve(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("solve", "softpen solve -in P.json [-out R.json] [-tol T] [-method M] [-screen] [-seed S] [-max-steps K] [-time-limit D] [-progress]", stderr)
	in := fs.String("in", "", "problem file (JSON, see FORMATS.md)")
	var f solveFlags
	f.register(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *in == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "softpen solve: want -in P.json and no other arguments")
		return exitUsage
	}
	file, err := openInput(*in)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	p, err := softpen.ReadProblem(file)
	file.Close()
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", *in, err)
		return exitInput
	}
	return solveAndWrite(*in, p, &f, stdout, stderr)
}
