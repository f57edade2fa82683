package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

// readResultFile reads a result file written by a command.
func readResultFile(t *testing.T, path string) *softpen.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := softpen.ReadResult(f)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// fitObjective returns F(x) for the model of runFit, computed here from
// the data, independently of the solver.
func fitObjective(d *libsvm.Data, loss string, ridge, l1 float64, x []float64) float64 {
	var f float64
	for i, r := range d.Rows {
		t := 0.0
		for j, v := range r {
			t += v * x[j]
		}
		if loss == "logistic" {
			f += math.Log1p(math.Exp(-d.Labels[i] * t))
		} else {
			f += 0.5 * (t - d.Labels[i]) * (t - d.Labels[i])
		}
	}
	f /= float64(len(d.Rows))
	for _, v := range x {
		f += 0.5*ridge*v*v + l1*math.Abs(v)
	}
	return f
}

// TestFit: softpen fit on mushrooms (logistic, ridge 1/l) and on a
// regression file (squared loss, l1 and bounds on every weight) ends
// solved, and what it claims holds in the data: its answer's objective,
// computed here, is within the tolerance (1e-9 relative to max(1, F)) of
// the optimum, which a dense solve of the same model to 1e-13 brackets
// with its own certified gap.
func TestFit(t *testing.T) {
	dir := t.TempDir()
	var reg strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&reg, "%g", 3*math.Sin(float64(i))+float64(i%5))
		for j := 1; j <= 8; j++ {
			if (i+j)%3 != 0 {
				fmt.Fprintf(&reg, " %d:%g", j, math.Cos(float64(i*j)))
			}
		}
		reg.WriteString("\n")
	}
	regFile := writeFile(t, dir, "reg.libsvm", reg.String())
	for _, c := range []struct {
		name, data, loss string
		ridge, l1        float64
		args             []string
	}{
		{"mushrooms logistic", "../../testdata/svm/mushrooms.libsvm", "logistic", 0, 0, nil},
		{"regression, l1 and bounds", regFile, "squared", 0.01, 0.001, []string{"-loss", "squared", "-ridge", "0.01", "-l1", "0.001", "-lower", "-0.2", "-upper", "0.25"}},
	} {
		out := filepath.Join(dir, "result.json")
		args := append([]string{"-data", c.data, "-tol", "1e-9", "-out", out}, c.args...)
		var stderr strings.Builder
		if code := runFit(args, io.Discard, &stderr); code != exitSolved {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr.String())
		}
		res := readResultFile(t, out)
		f, err := os.Open(c.data)
		if err != nil {
			t.Fatal(err)
		}
		read := libsvm.Read
		if c.loss == "squared" {
			read = libsvm.ReadTargets
		}
		d, err := read(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		ridge := c.ridge
		if ridge == 0 {
			ridge = 1 / float64(len(d.Rows))
		}
		if len(res.X) != d.NFeatures {
			t.Fatalf("%s: %d weights, want %d", c.name, len(res.X), d.NFeatures)
		}
		lo, hi := math.Inf(-1), math.Inf(1)
		if c.loss == "squared" {
			lo, hi = -0.2, 0.25
		}
		box := func(v float64) []float64 {
			out := make([]float64, d.NFeatures)
			for j := range out {
				out[j] = v
			}
			return out
		}
		ref, err := softpen.Solve(context.Background(), &softpen.Problem{N: d.NFeatures, Loss: c.loss, Phi: d.Rows, Y: d.Labels,
			Ridge: ridge, L1: c.l1, Lower: box(lo), Upper: box(hi)}, &softpen.Options{Tol: 1e-13})
		if err != nil || ref.Status != softpen.StatusSolved {
			t.Fatalf("%s: dense reference: %v %v", c.name, ref, err)
		}
		fx := fitObjective(d, c.loss, ridge, c.l1, res.X)
		fRef := fitObjective(d, c.loss, ridge, c.l1, ref.X)
		if fx-fRef > 1e-9*math.Max(1, math.Abs(fRef))+ref.Gap || fRef-fx > ref.Gap+1e-14 {
			t.Errorf("%s: F(x) = %.16g, the reference's %.16g (gap %.2g): not within the tolerance", c.name, fx, fRef, ref.Gap)
		}
		if res.Gap > 1e-9*math.Max(1, math.Abs(res.Objective)) || math.Abs(res.Objective-fx) > 1e-12*math.Max(1, math.Abs(fx)) {
			t.Errorf("%s: reported objective %.16g (here %.16g), gap %.2g", c.name, res.Objective, fx, res.Gap)
		}
		atBound := 0
		for _, x := range res.X {
			if x == -0.2 || x == 0.25 {
				atBound++
			}
		}
		t.Logf("%s: %v, gap %.3g, %d weights at a bound", c.name, res.Status, res.Gap, atBound)
		if c.loss == "squared" && atBound == 0 {
			t.Errorf("%s: no weight at a bound; the test wants some", c.name)
		}
	}
}

// TestFitRows: softpen fit -rows on mushrooms with three rows on the
// weights (the sum of the first ten at most -0.5, weight 5 at least 0.2,
// and a row on feature 130, beyond the data's 126, which widens the
// model) ends solved with the answer of a dense solve of the same model,
// the rows holding and their multipliers in lambda; with -method
// newton-cg (the sparse rows' path) too. A malformed rows file is bad
// input naming it.
func TestFitRows(t *testing.T) {
	dir := t.TempDir()
	rowsFile := writeFile(t, dir, "rows.libsvm",
		"-0.5 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1 10:1\n-0.2 5:-1\n3 130:1\n")
	f, err := os.Open("../../testdata/svm/mushrooms.libsvm")
	if err != nil {
		t.Fatal(err)
	}
	d, err := libsvm.Read(f, 130)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	a := make([][]float64, 3)
	for i := range a {
		a[i] = make([]float64, 130)
	}
	for j := 0; j < 10; j++ {
		a[0][j] = 1
	}
	a[1][4], a[2][129] = -1, 1
	b := []float64{-0.5, -0.2, 3}
	ridge := 1 / float64(len(d.Rows))
	ref, err := softpen.Solve(context.Background(), &softpen.Problem{N: 130, Loss: "logistic", Phi: d.Rows, Y: d.Labels,
		Ridge: ridge, A: a, B: b}, &softpen.Options{Tol: 1e-13})
	if err != nil || ref.Status != softpen.StatusSolved {
		t.Fatalf("dense reference: %v %v", ref, err)
	}
	for _, method := range []string{"auto", "newton-cg"} {
		out := filepath.Join(dir, "result.json")
		args := []string{"-data", "../../testdata/svm/mushrooms.libsvm", "-rows", rowsFile, "-tol", "1e-10", "-method", method, "-out", out}
		var stderr strings.Builder
		if code := runFit(args, io.Discard, &stderr); code != exitSolved {
			t.Fatalf("%s: exit %d: %s", method, code, stderr.String())
		}
		res := readResultFile(t, out)
		if len(res.X) != 130 || len(res.Lambda) != 3 {
			t.Fatalf("%s: %d weights and %d multipliers, want 130 and 3", method, len(res.X), len(res.Lambda))
		}
		fx := fitObjective(d, "logistic", ridge, 0, res.X)
		fRef := fitObjective(d, "logistic", ridge, 0, ref.X)
		var viol float64
		for i, row := range a {
			var ax float64
			for j, v := range row {
				ax += v * res.X[j]
			}
			viol = math.Max(viol, ax-b[i])
		}
		t.Logf("%s: %v (%v), F %.16g, reference %.16g, lambda %v, violation %.2g", method, res.Status, res.Method, fx, fRef, res.Lambda, viol)
		if math.Abs(fx-fRef) > 1e-10*math.Max(1, fRef)+ref.Gap || viol > 1e-9 {
			t.Errorf("%s: F(x) = %.16g against %.16g, violation %g", method, fx, fRef, viol)
		}
		if !(res.Lambda[0] > 0) || !(res.Lambda[1] > 0) || res.Lambda[2] != 0 {
			t.Errorf("%s: lambda %v: want the first two rows active, the third not", method, res.Lambda)
		}
	}
	bad := writeFile(t, dir, "bad.libsvm", "1 3:1\n2 x:1\n")
	var stderr strings.Builder
	code := runFit([]string{"-data", "../../testdata/svm/mushrooms.libsvm", "-rows", bad}, io.Discard, &stderr)
	if code != exitInput || !strings.Contains(stderr.String(), "bad.libsvm") || !strings.Contains(stderr.String(), "line 2") {
		t.Errorf("malformed rows file: exit %d: %s", code, stderr.String())
	}
}

// TestFitUsage: bad flags are usage errors naming the flag; labels the
// logistic loss cannot take are bad input naming the line.
func TestFitUsage(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "three.libsvm", "0.5 1:1\n2 2:1\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "-data"},
		{[]string{"-data", data, "-loss", "hinge"}, exitUsage, "-loss"},
		{[]string{"-data", data, "-ridge", "-1"}, exitUsage, "-ridge"},
		{[]string{"-data", data, "-l1", "NaN"}, exitUsage, "-l1"},
		{[]string{"-data", data, "-lower", "1", "-upper", "0"}, exitUsage, "-lower"},
		{[]string{"-data", data}, exitInput, "line 1"},
	} {
		var stderr strings.Builder
		code := runFit(c.args, io.Discard, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("fit %v: exit %d, %q; want exit %d naming %s", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if code := runFit([]string{"-data", data, "-loss", "squared", "-out", filepath.Join(dir, "r.json")}, io.Discard, io.Discard); code != exitSolved {
		t.Errorf("squared loss on the targets 0.5 and 2: exit %d", code)
	}
}
