package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/vec"
)

// demoProblem is seed 1 of the paper's QP (section 6.1: l = m = n = 100,
// ridge 0.1), the file testdata/qp/paper-qp-100-s1.json, and demoRef its
// reference answer, testdata/qp/paper-qp-100-s1.ref.json: cvxopt 1.3.0 at
// tolerances 1e-12, then the KKT system solved on cvxopt's active set, kept
// only with every KKT residual below 1e-15 (testdata/README.md). A test
// checks that the copies here equal those files.
//
//go:embed demodata/paper-qp-100-s1.json
var demoProblem []byte

//go:embed demodata/paper-qp-100-s1.ref.json
var demoRef []byte

const demoSynopsis = "softpen demo [-method M] [-tol T]"

type demoArgs struct {
	method string
	tol    float64
}

func (a *demoArgs) flagSet() *flag.FlagSet {
	fs := newFlagSet("demo")
	fs.StringVar(&a.method, "method", "auto", "method: auto, activeset (exact, quadratic objectives), or a penalty method: sgd, sgdm, svrg, catalyst-svrg, apg")
	fs.Float64Var(&a.tol, "tol", 1e-6, "certified gap tolerance, relative to max(1, |objective|); 0 means the default, 1e-6")
	return fs
}

// runDemo solves the embedded problem and prints a short report, with the
// distance to the stored reference answer.
func runDemo(args []string, stdout, stderr io.Writer) int {
	var a demoArgs
	fs := a.flagSet()
	if code, ok := parseNoArgs(fs, demoSynopsis, args, stdout, stderr); !ok {
		return code
	}
	m, err := softpen.ParseMethod(a.method)
	if err != nil {
		fmt.Fprintln(stderr, "softpen demo: -method:", err)
		return exitUsage
	}
	if !(a.tol >= 0 && a.tol < math.Inf(1)) {
		fmt.Fprintf(stderr, "softpen demo: -tol %g: want a finite number >= 0 (0: the default, 1e-6)\n", a.tol)
		return exitUsage
	}
	p, err := softpen.ReadProblem(bytes.NewReader(demoProblem))
	if err != nil {
		fmt.Fprintln(stderr, "softpen demo: embedded problem:", err)
		return exitInput
	}
	var ref struct {
		X         []float64 `json:"x"`
		Objective float64   `json:"objective"`
	}
	if err := json.Unmarshal(demoRef, &ref); err != nil || len(ref.X) != p.N {
		fmt.Fprintln(stderr, "softpen demo: embedded reference: malformed", err)
		return exitInput
	}
	res, err := softpen.Solve(context.Background(), p, &softpen.Options{Method: m, Tol: a.tol})
	if err != nil {
		fmt.Fprintln(stderr, "softpen demo:", err)
		return exitInput
	}
	fmt.Fprintf(stdout, "softpen demo: the paper's QP (section 6.1), %s: n = %d, l = %d, m = %d, ridge = %g\n",
		p.Name, p.N, len(p.Phi), len(p.A), p.Ridge)
	fmt.Fprintf(stdout, "  status        %v\n", res.Status)
	fmt.Fprintf(stdout, "  objective     %.12g (reference %.12g)\n", res.Objective, ref.Objective)
	fmt.Fprintf(stdout, "  certified gap %.3e\n", res.Gap)
	if !math.IsInf(res.DistBound, 0) {
		fmt.Fprintf(stdout, "  ||x - x*|| <= %.3e (certified: sqrt(2 gap / mu), mu the certified strong convexity,\n", res.DistBound)
		fmt.Fprintln(stdout, "                 at least the ridge: a square root of the gap, so far above it and above the error below)")
	}
	fmt.Fprintf(stdout, "  rel. error    %.3e = ||x - x_ref|| / ||x_ref||, x_ref the stored reference\n", relErr(res.X, ref.X))
	fmt.Fprintln(stdout, "                (cvxopt at 1e-12, then a KKT solve on its active set: testdata/qp/paper-qp-100-s1.ref.json)")
	fmt.Fprintf(stdout, "  max violation %.3e\n", res.MaxViolation)
	if pen := res.Penalty; pen != nil {
		fmt.Fprintf(stdout, "  steps         %d incremental (%d stages, xi = %g, exact finish: %v)\n", res.Steps, pen.Stages, pen.Xi, pen.Polished)
	} else {
		fmt.Fprintf(stdout, "  iterations    %d working-set changes of the exact active-set method\n", res.Iterations)
	}
	if res.Message != "" {
		fmt.Fprintf(stdout, "  note          %s\n", res.Message)
	}
	fmt.Fprintf(stdout, "  time          %v\n", res.Time)
	fmt.Fprintf(stdout, "  method        %s, kernels: %s\n", res.Method, res.Impl)
	if res.Status != softpen.StatusSolved {
		return exitStatus
	}
	return exitSolved
}

// relErr is ||x - ref|| / ||ref||.
func relErr(x, ref []float64) float64 {
	diff := make([]float64, len(ref))
	vec.AxpbyTo(diff, 1, x, -1, ref)
	return math.Sqrt(vec.Dot(diff, diff) / vec.Dot(ref, ref))
}
