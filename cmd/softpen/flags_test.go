package main

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The command-line items of issue 18: what a new user sees.

// cliFlags lists, per command, every flag it takes: the help must show
// each one (written out here, not taken from the flag sets, so that a flag
// the help forgets is caught).
var cliFlags = map[string][]string{
	"demo":      {"method", "tol"},
	"solve":     {"in", "out", "tol", "method", "screen", "seed", "max-steps", "time-limit", "progress", "no-polish", "max-memory", "threads"},
	"svm":       {"data", "scale", "features", "out", "tol", "method", "screen", "seed", "max-steps", "time-limit", "progress", "no-polish", "max-memory", "threads"},
	"repro qp":  {"sims", "steps", "out", "methods", "testdata", "j", "grid", "q"},
	"repro svm": {"data", "steps", "out", "methods", "scale", "raise-xi", "ref", "q"},
	"bench":     {"json", "n", "kernels", "time"},
}

// TestHelpListsEveryFlag: `softpen -h` lists every flag of every command
// (it used to omit -no-polish, -scale, -features, -grid, -j), and each
// command's own -h lists its flags and no other command's.
func TestHelpListsEveryFlag(t *testing.T) {
	code, top, errOut := runCmd("-h")
	if code != exitSolved || errOut != "" {
		t.Fatalf("softpen -h: exit %d, stderr %q", code, errOut)
	}
	for cmd, flags := range cliFlags {
		if !strings.Contains(top, "softpen "+cmd) {
			t.Errorf("softpen -h does not name %q", cmd)
		}
		_, own, _ := runCmd(append(strings.Fields(cmd), "-h")...)
		for _, f := range flags {
			if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f) + `\b`).MatchString(top) {
				t.Errorf("softpen -h lacks -%s (of %s)", f, cmd)
			}
			if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f) + `\b`).MatchString(own) {
				t.Errorf("softpen %s -h lacks -%s:\n%s", cmd, f, own)
			}
		}
		for _, line := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(own, -1) {
			if !contains(flags, line[1]) {
				t.Errorf("softpen %s -h lists -%s, which it does not take", cmd, line[1])
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestHelpExitsZero: -h (and help) prints our usage on stdout and exits 0
// everywhere (demo printed Go's "Usage of demo", repro -h exited 2).
func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"--help"}, {"help"}, {"demo", "-h"}, {"solve", "-h"}, {"svm", "-h"}, {"bench", "-h"},
		{"repro", "-h"}, {"repro", "help"}, {"repro", "qp", "-h"}, {"repro", "svm", "-h"},
	} {
		code, out, errOut := runCmd(args...)
		if code != exitSolved || errOut != "" || !strings.Contains(out, "usage: softpen") || strings.Contains(out, "Usage of") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, code, errOut, out)
		}
	}
}

// TestUsageErrorsNameTheFlag: a bad flag value is a usage error (exit 2)
// naming the flag and what it accepts; "-screen foo" used to read foo as a
// stray argument ("want -in P.json and no other arguments").
func TestUsageErrorsNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	ok := writeFile(t, dir, "ok.json", `{"n": 2, "loss": "none", "ridge": 1, "q": [-1, -1], "A": [[1, 1]], "b": [1]}`)
	okSVM := writeFile(t, dir, "ok.libsvm", "+1 1:2 2:1\n-1 1:-1 2:-2\n")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"solve", "-in", ok, "-screen", "foo"}, []string{`-screen "foo"`, "gap-safe", "paper", "none"}},
		{[]string{"solve", "-screen", "foo", "-in", ok}, []string{`-screen "foo"`, "gap-safe", "paper", "none"}},
		{[]string{"svm", "-data", okSVM, "-screen", "foo"}, []string{`-screen "foo"`, "gap-safe", "paper", "none"}},
		{[]string{"solve", "-in", ok, "-max-memory", "lots"}, []string{"-max-memory", "512MiB"}},
		{[]string{"demo", "-method", "simplex"}, []string{"-method", "simplex"}},
		{[]string{"repro", "qp", "-data", "x"}, []string{"-data", "repro qp -h"}},
	} {
		code, out, errOut := runCmd(c.args...)
		if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "no other arguments") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%q: stderr %q lacks %q", c.args, errOut, w)
			}
		}
	}
	// The bare form still means gap-safe, last or before another flag.
	for _, args := range [][]string{{"solve", "-in", ok, "-screen"}, {"solve", "-screen", "-in", ok}} {
		if code, _, errOut := runCmd(args...); code != exitSolved {
			t.Errorf("%q: exit %d, %s", args, code, errOut)
		}
	}
}

// TestHelpDocumentsDefaults: -tol 0 meaning the default is in the help (it
// was only in an error message), and svm and repro svm share one -scale
// default, off, with the reason (repro svm's was on).
func TestHelpDocumentsDefaults(t *testing.T) {
	for _, cmd := range [][]string{{"solve", "-h"}, {"svm", "-h"}, {"demo", "-h"}} {
		_, out, _ := runCmd(cmd...)
		if !regexp.MustCompile(`-tol float\n\s+[^\n]*0 means the default, 1e-6`).MatchString(out) {
			t.Errorf("%q: -tol's help does not say what 0 means:\n%s", cmd, out)
		}
	}
	for _, cmd := range [][]string{{"svm", "-h"}, {"repro", "svm", "-h"}} {
		_, out, _ := runCmd(cmd...)
		m := regexp.MustCompile(`(?m)^  -scale\n((?:    .*\n)+)`).FindStringSubmatch(out)
		if m == nil || strings.Contains(m[1], "(default true)") || !strings.Contains(m[1], "off by default") {
			t.Errorf("%q: -scale's help %q: want off by default, with the reason", cmd, m)
		}
	}
}

// TestMemoryLimit: the problem of issue 18, 2^26 variables (3.4 GB when
// solved; under a memory limit the process died with a stack trace), is
// refused before anything is allocated, with a message naming the limit
// and the flag that raises it; -max-memory raises it (0: none).
func TestMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	huge := writeFile(t, dir, "huge.json", `{"n": 67108864, "loss": "none", "ridge": 1}`)
	start := time.Now()
	code, out, errOut := runCmd("solve", "-in", huge)
	if code != exitInput || out != "" || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "goroutine") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, w := range []string{"huge.json", "-max-memory limit of 4GiB", "raise it with -max-memory "} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr %q lacks %q", errOut, w)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: refused after allocating?", d)
	}
	ok := writeFile(t, dir, "ok.json", `{"n": 2, "loss": "none", "ridge": 1, "q": [-1, -1], "A": [[1, 1]], "b": [1]}`)
	if code, _, errOut := runCmd("solve", "-in", ok, "-max-memory", "100B"); code != exitInput || !strings.Contains(errOut, "-max-memory limit of 100B") {
		t.Errorf("-max-memory 100B: exit %d, %q", code, errOut)
	}
	for _, lim := range []string{"0", "1MiB", "2GB"} {
		if code, _, errOut := runCmd("solve", "-in", ok, "-max-memory", lim); code != exitSolved {
			t.Errorf("-max-memory %s: exit %d, %q", lim, code, errOut)
		}
	}
}

// TestThreadsLimitCores: -threads N sets GOMAXPROCS to N for the command
// (so the LIBSVM reader's goroutines follow it too) and restores it after;
// -threads 0 leaves it alone. A whole svm run with -threads 1 is solved
// and leaves GOMAXPROCS as it was.
func TestThreadsLimitCores(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	restore := (&solveFlags{threads: 1}).limitCores()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		restore()
		t.Fatalf("-threads 1: GOMAXPROCS %d during the command", got)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != old {
		t.Fatalf("GOMAXPROCS %d after the command, was %d", got, old)
	}
	(&solveFlags{threads: 0}).limitCores()()
	if got := runtime.GOMAXPROCS(0); got != old {
		t.Fatalf("-threads 0: GOMAXPROCS %d, was %d", got, old)
	}
	code, out, errOut := runCmd("svm", "-data", "../../testdata/svm/mushrooms.libsvm", "-threads", "1")
	if code != exitSolved || !strings.Contains(out, `"solved"`) {
		t.Fatalf("svm -threads 1: exit %d, stderr %q", code, errOut)
	}
	if got := runtime.GOMAXPROCS(0); got != old {
		t.Fatalf("GOMAXPROCS %d after svm -threads 1, was %d", got, old)
	}
}
