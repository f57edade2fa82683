package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDemoComparesWithReference: the demo prints its relative error to the
// stored reference (small: the polish reaches machine precision) and says
// why the distance bound is so much larger than the gap; the embedded
// files are those of testdata.
func TestDemoComparesWithReference(t *testing.T) {
	code, out, _ := runCmd("demo")
	if code != exitSolved {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	m := regexp.MustCompile(`rel\. error +([0-9.e+-]+) = \|\|x - x_ref\|\| / \|\|x_ref\|\|`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no relative error:\n%s", out)
	}
	if e, err := strconv.ParseFloat(m[1], 64); err != nil || !(e < 1e-9) {
		t.Errorf("relative error %s to the reference", m[1])
	}
	for _, w := range []string{"sqrt(2 gap / mu)", "paper-qp-100-s1.ref.json"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for name, emb := range map[string][]byte{"paper-qp-100-s1.json": demoProblem, "paper-qp-100-s1.ref.json": demoRef} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "qp", name))
		if err != nil || !bytes.Equal(b, emb) {
			t.Errorf("demodata/%s differs from testdata/qp/%s (%v)", name, name, err)
		}
	}
}
