package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs the command line in-process.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestDemo: the demo (no arguments) solves with a small certified gap.
func TestDemo(t *testing.T) {
	code, out, _ := runCmd()
	if code != exitSolved || !strings.Contains(out, "status        solved") || !strings.Contains(out, "certified gap") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

// TestExitCodes: the documented exit codes, each with a one-line message and
// no stack trace.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.json", "{\"n\": 2,\n \"loss\": }")
	nan := writeFile(t, dir, "nan.json", `{"n": 1, "loss": "none", "ridge": 1, "A": [[1]], "b": [1], "lower": [3], "upper": [2]}`)
	infeas := writeFile(t, dir, "inf.json", `{"n": 1, "loss": "none", "ridge": 1, "A": [[1], [-1]], "b": [-1, -1]}`)
	ok := writeFile(t, dir, "ok.json", `{"n": 2, "loss": "none", "ridge": 1, "q": [-1, -1], "A": [[1, 1]], "b": [1]}`)
	badsvm := writeFile(t, dir, "bad.libsvm", "1 1:1\n-1 1:x\n")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"frobnicate"}, exitUsage, "unknown command"},
		{[]string{"solve"}, exitUsage, "want -in"},
		{[]string{"solve", "-in", ok, "-method", "simplex"}, exitUsage, "unknown method"},
		{[]string{"solve", "-in", ok, "-bogus"}, exitUsage, "flag provided but not defined"},
		{[]string{"solve", "-in", filepath.Join(dir, "missing.json")}, exitInput, "no such file"},
		{[]string{"solve", "-in", bad}, exitInput, "bad.json: line 2"},
		{[]string{"solve", "-in", nan}, exitInput, "nan.json: lower[0]: 3 > upper[0] = 2"},
		{[]string{"solve", "-in", infeas}, exitStatus, ""},
		{[]string{"solve", "-in", ok, "-screen"}, exitSolved, ""},
		{[]string{"svm", "-data", badsvm}, exitInput, "bad.libsvm: line 2"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q", c.args, code, c.code, errOut)
		}
		if strings.Contains(errOut, "goroutine") {
			t.Errorf("%v: stack trace on stderr", c.args)
		}
		if c.code == exitSolved || c.code == exitStatus {
			var res map[string]any
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Errorf("%v: result is not JSON: %v", c.args, err)
			} else if c.code == exitStatus && res["status"] != "infeasible" {
				t.Errorf("%v: status %v, want infeasible", c.args, res["status"])
			} else if c.code == exitStatus && res["farkas"] == nil {
				t.Errorf("%v: no farkas certificate", c.args)
			}
		}
	}
}
