package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/softpen/softpen/internal/repro"
)

// checkSVG parses every SVG in dir with encoding/xml and returns their names.
func checkSVG(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(b))
		root, paths := "", 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed XML: %v", f, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Local
				}
				if se.Name.Local == "path" || se.Name.Local == "rect" {
					paths++
				}
			}
		}
		if root != "svg" || paths == 0 {
			t.Errorf("%s: root %q with %d paths/rects", f, root, paths)
		}
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return names
}

// readCSV checks the header and returns the records.
func readCSV(t *testing.T, path string, cols []string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) < 2 || strings.Join(recs[0], ",") != strings.Join(cols, ",") {
		t.Fatalf("%s: header %v (want %v), %d records", path, recs[0], cols, len(recs))
	}
	return recs[1:]
}

// TestReproQP: `softpen repro qp` end to end at a reduced size — every
// method, the CSV columns, one curve point per 1000 steps, well-formed SVG,
// an index.html that shows every figure, and the summary table.
func TestReproQP(t *testing.T) {
	dir := t.TempDir()
	steps := 20000
	if testing.Short() {
		steps = 5000
	}
	code, out, errOut := runCmd("repro", "qp", "-sims", "2", "-steps", strconv.Itoa(steps), "-out", dir,
		"-testdata", filepath.Join("..", "..", "testdata", "qp"), "-q")
	if code != exitSolved {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, m := range repro.QPMethods() {
		if !strings.Contains(out, m.Name) {
			t.Errorf("summary lacks %s:\n%s", m.Name, out)
		}
	}
	if !strings.Contains(out, "median rel. err") || !strings.Contains(out, "worst ||x* - x_cvxopt||") {
		t.Errorf("summary lacks the table or the reference check:\n%s", out)
	}
	runs := readCSV(t, filepath.Join(dir, "qp_runs.csv"), repro.RunsColumns)
	if want := 2 * len(repro.QPMethods()); len(runs) != want {
		t.Errorf("%d runs, want %d", len(runs), want)
	}
	for _, r := range runs {
		if e, err := strconv.ParseFloat(r[3], 64); err != nil || !(e >= 0) {
			t.Errorf("run %v: final relative error %q", r, r[3])
		}
	}
	curves := readCSV(t, filepath.Join(dir, "qp_curves.csv"), repro.CurvesColumns)
	perRun := map[string]int{}
	for _, c := range curves {
		perRun[c[0]+"/"+c[1]]++
	}
	for k, n := range perRun {
		if n < steps/1000-2 || n > steps/1000 {
			t.Errorf("%s: %d curve points for %d steps", k, n, steps)
		}
	}
	readCSV(t, filepath.Join(dir, "qp_stages.csv"), repro.StagesColumns)
	svgs := checkSVG(t, dir)
	idx, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(svgs) != 4 {
		t.Errorf("figures %v, want 4", svgs)
	}
	for _, s := range svgs {
		if !strings.Contains(string(idx), `src="`+s+`"`) {
			t.Errorf("index.html does not show %s", s)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.txt")); err != nil {
		t.Error(err)
	}
}

// TestReproQPGrid: `softpen repro qp -grid` runs every setting of the
// appendix's grids (45) on each instance, lists each in the summary with
// the paper's three choices marked, writes their runs to qp_grid_runs.csv and one
// well-formed box plot per family (SASC, SGD, SGDM per momentum) that
// index.html shows.
func TestReproQPGrid(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd("repro", "qp", "-grid", "-methods", "Nested-SGD", "-sims", "1", "-steps", "2000", "-out", dir,
		"-testdata", filepath.Join("..", "..", "testdata", "qp"), "-q")
	if code != exitSolved {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	fams := repro.QPGrid()
	n, marked := 0, 0
	for _, f := range fams {
		chosen := 0
		for _, m := range f.Methods {
			n++
			if !strings.Contains(out, m.Name) {
				t.Errorf("summary lacks %s", m.Name)
			}
			if strings.HasSuffix(m.Name, "*") {
				chosen++
			}
		}
		if len(f.Methods) != 9 || chosen > 1 {
			t.Errorf("grid %s: %d settings, %d marked as the paper's choice", f.Name, len(f.Methods), chosen)
		}
		marked += chosen
	}
	// The paper chose one setting for each of SASC-SGD, Nested-SGD, Nested-SGDM.
	if len(fams) != 5 || n != 45 || marked != 3 {
		t.Errorf("%d families, %d settings, %d marked; want 5, 45 and 3", len(fams), n, marked)
	}
	if runs := readCSV(t, filepath.Join(dir, "qp_grid_runs.csv"), repro.RunsColumns); len(runs) != n {
		t.Errorf("qp_grid_runs.csv: %d runs, want %d", len(runs), n)
	}
	svgs := checkSVG(t, dir)
	idx, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	grids := 0
	for _, s := range svgs {
		if strings.HasPrefix(s, "qp_grid_") {
			grids++
			if !strings.Contains(string(idx), `src="`+s+`"`) {
				t.Errorf("index.html does not show %s", s)
			}
		}
	}
	if grids != len(fams) {
		t.Errorf("%d grid figures in %v, want %d", grids, svgs, len(fams))
	}
}

// TestReproSVM: `softpen repro svm` end to end on the first 600 rows of
// mushrooms (separable, so a valid hard-margin SVM), with the screening
// figures and the slack CSV.
func TestReproSVM(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "svm", "mushrooms.libsvm"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	data := filepath.Join(dir, "small.libsvm")
	os.WriteFile(data, []byte(strings.Join(lines[:600], "")), 0o644)
	steps := "20000"
	if testing.Short() {
		steps = "6000"
	}
	out := filepath.Join(dir, "out")
	code, stdout, errOut := runCmd("repro", "svm", "-data", data, "-steps", steps, "-out", out, "-q")
	if code != exitSolved {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errOut)
	}
	for _, m := range repro.SVMMethods(false) {
		if !strings.Contains(stdout, m.Name) {
			t.Errorf("summary lacks %s", m.Name)
		}
	}
	if !strings.Contains(stdout, "constraints kept at the last stage") {
		t.Errorf("summary lacks the screening count:\n%s", stdout)
	}
	readCSV(t, filepath.Join(out, "svm_runs.csv"), repro.RunsColumns)
	readCSV(t, filepath.Join(out, "svm_curves.csv"), repro.CurvesColumns)
	readCSV(t, filepath.Join(out, "svm_stages.csv"), repro.StagesColumns)
	if n := len(readCSV(t, filepath.Join(out, "svm_slack.csv"), repro.SlackColumns)); n != 600 {
		t.Errorf("%d slack rows, want 600", n)
	}
	svgs := checkSVG(t, out)
	want := []string{"svm_gap.svg", "svm_relerr.svg", "svm_screen_kept.svg", "svm_screen_kept_alg2.svg", "svm_screen_kept_gapsafe.svg", "svm_screen_relerr.svg", "svm_screen_slack.svg", "svm_screen_slack_alg2.svg", "svm_screen_slack_gapsafe.svg"}
	if strings.Join(svgs, ",") != strings.Join(want, ",") {
		t.Errorf("figures %v, want %v", svgs, want)
	}
}

// TestReproUsage: bad arguments are usage errors with a message.
func TestReproUsage(t *testing.T) {
	for _, args := range [][]string{
		{"repro"},
		{"repro", "lp"},
		{"repro", "svm"},
		{"repro", "qp", "-steps", "10"},
		{"repro", "qp", "extra"},
	} {
		code, _, errOut := runCmd(args...)
		if code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	code, _, errOut := runCmd("repro", "qp", "-methods", "Nested-Bogus", "-sims", "1", "-steps", "1000", "-out", t.TempDir(), "-q")
	if code == exitSolved || !strings.Contains(errOut, "unknown method") {
		t.Errorf("unknown method: exit %d, %q", code, errOut)
	}
}
