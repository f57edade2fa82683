package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/softpen/softpen"
)

// runSolve is `softpen solve -in P.json [options]`.
func runSolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "problem file (JSON, see FORMATS.md)")
	var f solveFlags
	f.register(fs)
	if err := fs.Parse(screenArgs(args)); err != nil {
		return exitUsage
	}
	if *in == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "softpen solve: want -in P.json and no other arguments")
		return exitUsage
	}
	file, err := os.Open(*in)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitInput
	}
	defer file.Close()
	p, err := softpen.ReadProblem(file)
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", filepath.Base(*in), err)
		return exitInput
	}
	return solveAndWrite(*in, p, &f, stdout, stderr)
}
