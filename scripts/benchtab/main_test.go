package main

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: example
cpu: Some CPU @ 3GHz
BenchmarkA/n=1-2         	      20	      3000 ns/op	         4.000 steps
--- BENCH: BenchmarkA/n=1-2
    a_test.go:1: log line
BenchmarkA/n=1-2         	      20	      1000 ns/op	         4.000 steps
BenchmarkA/n=1-2         	      20	      2000 ns/op	         4.000 steps
BenchmarkB-2             	       1	2500000000 ns/op	      7.5 MB/s
PASS
ok  	example	1.0s
`

// TestTable: the median and spread per metric, the time in a readable
// unit, a constant metric without a range, names without the -GOMAXPROCS
// suffix, and the header with the machine, commit, date and command.
func TestTable(t *testing.T) {
	tb, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	write(&buf, tb, "Title", "go test -bench .", "abc123", "DATE", "")
	out := buf.String()
	for _, want := range []string{
		"## Title", "commit abc123, DATE, Some CPU @ 3GHz (linux/amd64)", "`go test -bench .`",
		"Median of 3 runs", "| benchmark | time/op | steps | MB/s |",
		"| A/n=1 | 2 (1-3) µs | 4 |  |", "| B | 2.5 s |  | 7.5 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestMedian: odd and even counts.
func TestMedian(t *testing.T) {
	if m, lo, hi := median([]float64{3, 1, 2}); m != 2 || lo != 1 || hi != 3 {
		t.Errorf("odd: %v %v %v", m, lo, hi)
	}
	if m, _, _ := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Errorf("even: %v", m)
	}
}
