package main

import (
	"bytes"
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/softpen/softpen"
)

// demoProblem is seed 1 of the paper's QP (section 6.1: l = m = n = 100,
// ridge 0.1), the file testdata/qp/paper-qp-100-s1.json.
//
//go:embed demodata/paper-qp-100-s1.json
var demoProblem []byte

// runDemo solves the embedded problem and prints a short report.
func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	method := fs.String("method", "auto", "inner method: auto, sgd, sgdm, svrg, catalyst-svrg, apg")
	tol := fs.Float64("tol", 1e-6, "certified gap tolerance, relative to max(1, |objective|)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	m, err := softpen.ParseMethod(*method)
	if err != nil {
		fmt.Fprintln(stderr, "softpen demo:", err)
		return exitUsage
	}
	p, err := softpen.ReadProblem(bytes.NewReader(demoProblem))
	if err != nil {
		fmt.Fprintln(stderr, "softpen demo: embedded problem:", err)
		return exitInput
	}
	res, err := softpen.Solve(context.Background(), p, &softpen.Options{Method: m, Tol: *tol})
	if err != nil {
		fmt.Fprintln(stderr, "softpen demo:", err)
		return exitInput
	}
	fmt.Fprintf(stdout, "softpen demo: the paper's QP (section 6.1), %s: n = %d, l = %d, m = %d, ridge = %g\n",
		p.Name, p.N, len(p.Phi), len(p.A), p.Ridge)
	fmt.Fprintf(stdout, "  status        %v\n", res.Status)
	fmt.Fprintf(stdout, "  objective     %.12g\n", res.Objective)
	fmt.Fprintf(stdout, "  certified gap %.3e\n", res.Gap)
	if !math.IsInf(res.DistBound, 0) {
		fmt.Fprintf(stdout, "  ||x - x*|| <= %.3e (certified)\n", res.DistBound)
	}
	fmt.Fprintf(stdout, "  max violation %.3e\n", res.MaxViolation)
	fmt.Fprintf(stdout, "  steps         %d incremental (%d stages, xi = %g, polished: %v)\n", res.Steps, res.Stages, res.Xi, res.Polished)
	fmt.Fprintf(stdout, "  time          %v\n", res.Time)
	fmt.Fprintf(stdout, "  method        %s, kernels: %s\n", res.Method, res.Impl)
	if res.Status != softpen.StatusSolved {
		return exitStatus
	}
	return exitSolved
}
