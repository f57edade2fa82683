package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/internal/testqp"
)

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSolveExitCodes: the exit codes of FORMATS.md for solve and svm: 2 for
// usage errors, 1 for bad input with a one-line message naming the file, the
// field and the index (no stack trace), 0 for solved with the result JSON on
// stdout, 3 for any other status.
func TestSolveExitCodes(t *testing.T) {
	dir := t.TempDir()
	ok := writeFile(t, dir, "ok.json", `{"n": 2, "loss": "none", "ridge": 1, "q": [-1, -1], "A": [[1, 1]], "b": [1]}`)
	malformed := writeFile(t, dir, "bad.json", "{\"n\": 2,\n \"loss\": }")
	unknown := writeFile(t, dir, "unknown.json", `{"n": 1, "loss": "none", "ridge": 1, "colour": "red"}`)
	huge := writeFile(t, dir, "huge.json", "{\"n\": 2, \"loss\": \"none\", \"ridge\": 1,\n \"A\": [[1, 1], [1, 1e999]], \"b\": [1, 1]}")
	short := writeFile(t, dir, "short.json", `{"n": 2, "loss": "none", "ridge": 1, "A": [[1, 1], [1, 1], [1]], "b": [1, 1, 1]}`)
	box := writeFile(t, dir, "box.json", `{"n": 1, "loss": "none", "ridge": 1, "lower": [3], "upper": [2]}`)
	labels := writeFile(t, dir, "labels.json", `{"n": 1, "loss": "logistic", "ridge": 1, "phi": [[1], [2]], "y": [1, 0.5]}`)
	convex := writeFile(t, dir, "convex.json", `{"n": 1, "loss": "none", "A": [[1]], "b": [1]}`)
	infeasible := writeFile(t, dir, "infeasible.json", `{"n": 1, "loss": "none", "ridge": 1, "A": [[1], [-1]], "b": [-1, -1]}`)
	okSVM := writeFile(t, dir, "ok.libsvm", "+1 1:2 2:1\n+1 1:3 2:3\n-1 1:-1 2:-2\n-1 1:-2 2:-1\n")
	badSVM := writeFile(t, dir, "bad.libsvm", "1 1:1\n-1 1:x\n")
	missing := filepath.Join(dir, "missing.json")
	cases := []struct {
		name string
		args []string
		code int
		msg  string // on stderr; for exit 1 the whole (one-line) message
	}{
		{"no -in", []string{"solve"}, exitUsage, "softpen solve: want -in P.json"},
		{"stray argument", []string{"solve", "-in", ok, "extra"}, exitUsage, "no other arguments"},
		{"unknown flag", []string{"solve", "-in", ok, "-bogus"}, exitUsage, "flag provided but not defined: -bogus"},
		{"bad -tol", []string{"solve", "-in", ok, "-tol", "x"}, exitUsage, `invalid value "x" for flag -tol`},
		{"negative -tol", []string{"solve", "-in", ok, "-tol", "-1"}, exitUsage, "-tol -1: want"},
		{"NaN -tol", []string{"solve", "-in", ok, "-tol", "NaN"}, exitUsage, "-tol NaN: want"},
		{"negative -max-steps", []string{"solve", "-in", ok, "-max-steps", "-5"}, exitUsage, "-max-steps -5"},
		{"negative -time-limit", []string{"solve", "-in", ok, "-time-limit", "-1s"}, exitUsage, "-time-limit -1s"},
		{"bad -time-limit", []string{"solve", "-in", ok, "-time-limit", "5"}, exitUsage, `invalid value "5" for flag -time-limit`},
		{"negative -threads", []string{"solve", "-in", ok, "-threads", "-1"}, exitUsage, "-threads -1: want >= 0"},
		{"unknown method", []string{"solve", "-in", ok, "-method", "simplex"}, exitUsage, `-method: unknown method "simplex"`},
		{"unknown screen", []string{"solve", "-in", ok, "-screen=always"}, exitUsage, `-screen "always"`},
		{"missing file", []string{"solve", "-in", missing}, exitInput, "softpen: " + missing + ": no such file or directory\n"},
		{"malformed JSON", []string{"solve", "-in", malformed}, exitInput,
			"softpen: " + malformed + ": line 2, column 10: malformed JSON: invalid character '}' looking for beginning of value\n"},
		{"unknown field", []string{"solve", "-in", unknown}, exitInput, `unknown field "colour"`},
		{"number out of range", []string{"solve", "-in", huge}, exitInput,
			"softpen: " + huge + ": line 2, column 20: A[1][1]: 1e999 is out of range for float64\n"},
		{"short row", []string{"solve", "-in", short}, exitInput, "softpen: " + short + ": A[2]: length 1, want n = 2\n"},
		{"empty box", []string{"solve", "-in", box}, exitInput, "softpen: " + box + ": lower[0]: 3 > upper[0] = 2\n"},
		{"logistic labels", []string{"solve", "-in", labels}, exitInput,
			"softpen: " + labels + ": y[1] = 0.5: logistic loss needs labels -1 or +1\n"},
		{"not strongly convex", []string{"solve", "-in", convex}, exitInput, "not strongly convex"},
		{"unwritable -out", []string{"solve", "-in", ok, "-out", filepath.Join(dir, "no", "such", "dir.json")}, exitInput, "softpen: -out: open "},
		{"solved", []string{"solve", "-in", ok}, exitSolved, ""},
		{"solved, bare -screen", []string{"solve", "-in", ok, "-screen", "-tol", "1e-9"}, exitSolved, ""},
		{"solved, every option", []string{"solve", "-in", ok, "-screen", "none", "-method", "apg", "-seed", "7",
			"-max-steps", "1000000", "-time-limit", "1m"}, exitSolved, ""},
		// The stages alone leave x violating its row beyond rounding:
		// never solved (its gap would need xi >= ||lambda*||_inf).
		{"stages alone", []string{"solve", "-in", ok, "-method", "apg", "-no-polish"}, exitStatus, "precision_limit: the point violates rows"},
		{"infeasible", []string{"solve", "-in", infeasible}, exitStatus, ""},
		{"svm: no -data", []string{"svm"}, exitUsage, "softpen svm: want -data FILE"},
		{"svm: negative -features", []string{"svm", "-data", okSVM, "-features", "-1"}, exitUsage, "-features -1"},
		{"svm: missing file", []string{"svm", "-data", missing}, exitInput, "softpen: " + missing + ": no such file or directory\n"},
		{"svm: bad value", []string{"svm", "-data", badSVM}, exitInput, "softpen: " + badSVM + `: line 2, column 6: "1:x": bad value: want a finite number` + "\n"},
		{"svm: too few features", []string{"svm", "-data", okSVM, "-features", "1"}, exitInput, `line 1, column 8: "2:1": index beyond 1 features`},
		{"svm: solved", []string{"svm", "-data", okSVM}, exitSolved, ""},
		{"svm: solved, scaled", []string{"svm", "-data", okSVM, "-scale", "-features", "3"}, exitSolved, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, errOut)
			}
			if c.code == exitInput {
				if errOut != c.msg && (!strings.Contains(errOut, c.msg) || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "softpen: ")) {
					t.Errorf("stderr %q, want one line like %q", errOut, c.msg)
				}
			} else if !strings.Contains(errOut, c.msg) {
				t.Errorf("stderr %q, want it to contain %q", errOut, c.msg)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Errorf("stack trace on stderr:\n%s", errOut)
			}
			if c.code == exitSolved && c.msg == "" || c.code == exitStatus {
				res, err := softpen.ReadResult(strings.NewReader(out))
				if err != nil {
					t.Fatalf("result is not a result file: %v\n%s", err, out)
				}
				want := softpen.StatusSolved
				if c.code == exitStatus {
					want = softpen.StatusInfeasible
					if strings.HasPrefix(c.msg, "precision_limit") {
						want = softpen.StatusPrecisionLimit
					}
				}
				if res.Status != want {
					t.Errorf("status %v, want %v", res.Status, want)
				}
				if want == softpen.StatusInfeasible && len(res.FarkasA)+len(res.FarkasEq) == 0 {
					t.Error("infeasible without a farkas certificate")
				}
			} else if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// TestSolvePaperQP: `softpen solve` on the paper's QP (seed 1) writes, to
// -out, a result that matches the reference solution. MethodAuto chooses by
// the problem alone: the same method (activeset) answers with -progress and
// with -max-steps. -progress prints the method's one line (plain when
// stderr is not a terminal), then the summary; -max-steps 1 stops with
// exit 3, status max_steps and the reason on stderr.
func TestSolvePaperQP(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "qp", "paper-qp-100-s1.json")
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCmd("solve", "-in", in, "-out", out, "-tol", "1e-9", "-progress")
	if code != exitSolved || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	res, err := softpen.ReadResult(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, ref, err := testqp.Paper(filepath.Join("..", "..", "testdata", "qp"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if rel := testqp.RelErr(res.X, ref.X); rel > 1e-12 || len(res.X) != 100 || len(res.Lambda) != 100 {
		t.Errorf("relative error %.3g against the reference (len x %d, lambda %d)", rel, len(res.X), len(res.Lambda))
	}
	if res.Method != softpen.MethodActiveSet {
		t.Errorf("-progress: method %v, want activeset (the problem's choice)", res.Method)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-2], "activeset  changes ") || strings.Contains(stderr, "\r") {
		t.Errorf("progress:\n%s", stderr)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "done: solved") {
		t.Errorf("no summary at the end of the progress:\n%s", stderr)
	}
	for _, key := range []string{"changes", "gap", "rows", "violation"} {
		if !strings.Contains(lines[len(lines)-2], key) {
			t.Errorf("progress line lacks %q: %s", key, lines[len(lines)-2])
		}
	}

	code, stdout, stderr = runCmd("solve", "-in", in, "-max-steps", "1")
	res, err = softpen.ReadResult(strings.NewReader(stdout))
	if code != exitStatus || err != nil || res.Status != softpen.StatusMaxSteps || res.Method != softpen.MethodActiveSet {
		t.Errorf("-max-steps 1: exit %d, %v, %v", code, res, err)
	}
	if !strings.Contains(stderr, "max_steps: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("-max-steps 1: stderr %q, want one line with the reason", stderr)
	}
	code, stdout, _ = runCmd("solve", "-in", in, "-max-steps", "1000000")
	if res, err := softpen.ReadResult(strings.NewReader(stdout)); code != exitSolved || err != nil || res.Method != softpen.MethodActiveSet {
		t.Errorf("-max-steps 1000000: exit %d, %v, %v", code, res, err)
	}
}

// TestInterruptCancels: SIGINT during a solve ends it with status canceled
// (exit 3) and a result file, instead of killing the process.
func TestInterruptCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("sends SIGINT to the test process")
	}
	// Our own registration keeps a SIGINT that arrives before the command's
	// from killing the test binary.
	sig := make(chan os.Signal, 16)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	in := filepath.Join("..", "..", "testdata", "qp", "paper-qp-100-s1.json")
	type ret struct {
		code     int
		out, err string
	}
	done := make(chan ret)
	go func() {
		// Plain SGD, unpolished, to 1e-12 does not finish within the time
		// limit (polished, it would reach the precision floor at once).
		code, out, err := runCmd("solve", "-in", in, "-method", "sgd", "-no-polish", "-tol", "1e-12", "-time-limit", "60s")
		done <- ret{code, out, err}
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			res, err := softpen.ReadResult(strings.NewReader(r.out))
			if r.code != exitStatus || err != nil || res.Status != softpen.StatusCanceled {
				t.Fatalf("exit %d, result %v (%v), stderr %q", r.code, res, err, r.err)
			}
			return
		case <-tick.C:
			syscall.Kill(os.Getpid(), syscall.SIGINT)
		}
	}
}
