package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/softpen/softpen"
)

// TestProgressThroughTheSolve: -progress on svm prints the active-set
// method's line and a summary; with a penalty method every stage has its
// line, a long stage lines while it runs, and a summary ends it all.
func TestProgressThroughTheSolve(t *testing.T) {
	data := filepath.Join("..", "..", "testdata", "svm", "mushrooms.libsvm")
	code, _, errOut := runCmd("svm", "-data", data, "-progress")
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if !strings.HasPrefix(lines[len(lines)-2], "activeset  changes ") {
		t.Errorf("next to last line %q", lines[len(lines)-2])
	}
	last := lines[len(lines)-1]
	for _, w := range []string{"done: solved in ", "activeset", "gap ", "objective ", "steps "} {
		if !strings.Contains(last, w) {
			t.Errorf("summary %q lacks %q", last, w)
		}
	}
	code, _, errOut = runCmd("svm", "-data", data, "-progress", "-method", "apg")
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines = strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "stage   0  delta") {
		t.Errorf("first line %q", lines[0])
	}
	last = lines[len(lines)-1]
	for _, w := range []string{"done: solved in ", "gap ", "objective ", "steps ", "stages ", "kept ", "polished true"} {
		if !strings.Contains(last, w) {
			t.Errorf("summary %q lacks %q", last, w)
		}
	}
	// Lines while a stage runs (here at every observation).
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	in := filepath.Join("..", "..", "testdata", "qp", "paper-qp-100-s1.json")
	code, _, errOut = runCmd("solve", "-in", in, "-method", "apg", "-no-polish", "-progress")
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	running := regexp.MustCompile(`(?m)^stage +(\d+)  running  steps +(\d+)  elapsed `).FindAllStringSubmatch(errOut, -1)
	if len(running) < 2 || !strings.Contains(errOut, "\ndone: solved") {
		t.Fatalf("%d running lines:\n%s", len(running), errOut)
	}
	prev := int64(0)
	for _, r := range running {
		s, _ := strconv.ParseInt(r[2], 10, 64)
		if s < prev {
			t.Errorf("steps go back: %v", r)
		}
		prev = s
	}
}

// TestProgressAPG: with a penalty method, -progress prints a line per
// stage, then the summary.
func TestProgressAPG(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "qp", "paper-qp-100-s1.json")
	code, stdout, stderr := runCmd("solve", "-in", in, "-method", "apg", "-tol", "1e-9", "-progress")
	if code != exitSolved {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	res, err := softpen.ReadResult(strings.NewReader(stdout))
	if err != nil || res.Penalty == nil {
		t.Fatalf("%v, %+v", err, res)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	lines, summary := lines[:len(lines)-1], lines[len(lines)-1]
	if len(lines) != res.Penalty.Stages || !strings.HasPrefix(lines[0], "stage   0  delta ") {
		t.Errorf("%d stages, progress:\n%s", res.Penalty.Stages, stderr)
	}
	if !strings.HasPrefix(summary, "done: solved") {
		t.Errorf("no summary at the end of the progress:\n%s", stderr)
	}
	for _, key := range []string{"delta", "steps", "gap", "kept", "violation"} {
		if !strings.Contains(lines[len(lines)-1], key) {
			t.Errorf("progress line lacks %q: %s", key, lines[len(lines)-1])
		}
	}
}

// TestProgressOnTerminal: on a terminal the progress redraws one line,
// and the summary ends it.
func TestProgressOnTerminal(t *testing.T) {
	var buf bytes.Buffer
	pr := newProgress(&buf, true)
	pr.stage(softpen.Progress{Method: softpen.MethodAPG, Index: 0, Delta: 1, Steps: 10, Gap: 1, Kept: 5})
	pr.stage(softpen.Progress{Method: softpen.MethodAPG, Index: 1, Delta: 0.25, Steps: 20, Gap: 0.1, Kept: 4})
	if s := buf.String(); strings.Count(s, "\r") != 2 || strings.Contains(s, "\n") {
		t.Errorf("%q", s)
	}
	pr.summary(&softpen.Result{Info: softpen.Info{Status: softpen.StatusSolved}})
	if s := buf.String(); !strings.Contains(s, "\x1b[K\ndone: solved") || !strings.HasSuffix(s, "\n") {
		t.Errorf("%q", s)
	}
	if isTerminal(&buf) {
		t.Error("a buffer is not a terminal")
	}
}

// TestProgressSparseSVRG: -progress on fit with svrg (sparse rows, no
// penalty stages) prints a line an epoch and a summary.
func TestProgressSparseSVRG(t *testing.T) {
	data := filepath.Join("..", "..", "testdata", "svm", "mushrooms.libsvm")
	code, _, errOut := runCmd("fit", "-data", data, "-method", "svrg", "-progress", "-out", filepath.Join(t.TempDir(), "r.json"))
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "svrg epoch      0  row steps") || !strings.HasPrefix(lines[1], "svrg epoch      1") {
		t.Errorf("first lines %q", lines[:min(len(lines), 2)])
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "done: solved in ") || !strings.Contains(last, "svrg") {
		t.Errorf("summary %q", last)
	}
}
