package main

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/softpen/softpen/vec"
)

// TestBenchJSONSchema protects the softpen-bench/2 document: the top-level
// and per-row field names and types (decoded without the Go structs, so a
// renamed tag fails), the CPU count and timing settings, every feature key
// of the running architecture and none of another, one row per kernel per
// path per length in kernel-major order, and figures consistent with each
// other (the median between the fastest and slowest repetition).
func TestBenchJSONSchema(t *testing.T) {
	ns := []int{3, 20}
	code, out, errOut := runCmd("bench", "-json", "-n", "3,20", "-time", "1ms")
	if code != exitSolved || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var doc struct {
		Schema     *string          `json:"schema"`
		CPU        *string          `json:"cpu"`
		GOOS       *string          `json:"goos"`
		GOARCH     *string          `json:"goarch"`
		Go         *string          `json:"go"`
		NumCPU     *float64         `json:"num_cpu"`
		GOMAXPROCS *float64         `json:"gomaxprocs"`
		Impl       *string          `json:"impl"`
		Timing     map[string]any   `json:"timing"`
		Features   map[string]*bool `json:"features"`
		Results    []map[string]any `json:"results"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatal("more than one JSON document")
	}
	for name, v := range map[string]*string{"schema": doc.Schema, "cpu": doc.CPU, "goos": doc.GOOS, "goarch": doc.GOARCH, "go": doc.Go} {
		if v == nil || *v == "" {
			t.Errorf("field %q missing or empty", name)
		}
	}
	if doc.Schema != nil && *doc.Schema != "softpen-bench/2" {
		t.Errorf("schema %q", *doc.Schema)
	}
	if doc.NumCPU == nil || *doc.NumCPU != float64(runtime.NumCPU()) || doc.GOMAXPROCS == nil || *doc.GOMAXPROCS != float64(runtime.GOMAXPROCS(0)) {
		t.Errorf("num_cpu %v, gomaxprocs %v; want %d, %d", doc.NumCPU, doc.GOMAXPROCS, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	}
	if doc.Impl == nil || *doc.Impl != vec.Impl() {
		t.Errorf("impl %v, want %q", doc.Impl, vec.Impl())
	}
	want := map[string]any{"time_per_case_s": 0.001, "reps": float64(benchReps), "warmup_calls": float64(benchWarmup), "statistic": "median"}
	if fmt.Sprint(doc.Timing) != fmt.Sprint(want) {
		t.Errorf("timing %v, want %v", doc.Timing, want)
	}
	for _, k := range featureNames[runtime.GOARCH] {
		if doc.Features[k] == nil {
			t.Errorf("features.%s missing", k)
		}
	}
	if len(doc.Features) != len(featureNames[runtime.GOARCH]) {
		t.Errorf("features %v, want exactly %v (the running architecture's)", doc.Features, featureNames[runtime.GOARCH])
	}
	for arch, names := range featureNames {
		for _, k := range names {
			if _, ok := doc.Features[k]; ok && arch != runtime.GOARCH {
				t.Errorf("features.%s of %s on %s", k, arch, runtime.GOARCH)
			}
		}
	}

	paths := vec.Paths()
	type key struct {
		kernel, path string
		n            int
	}
	seen := map[key]bool{}
	last := -1
	for i, r := range doc.Results {
		kernel, _ := r["kernel"].(string)
		path, _ := r["path"].(string)
		nf, _ := r["n"].(float64)
		nsop, _ := r["ns_per_op"].(float64)
		lo, _ := r["ns_min"].(float64)
		hi, _ := r["ns_max"].(float64)
		gbs, _ := r["gb_per_s"].(float64)
		eps, _ := r["elems_per_s"].(float64)
		if len(r) != 8 {
			t.Errorf("row %d has %d fields, want 8: %v", i, len(r), r)
		}
		if !(lo > 0 && lo <= nsop && nsop <= hi) {
			t.Errorf("row %d: ns_min %v, ns_per_op %v, ns_max %v", i, lo, nsop, hi)
		}
		ki := kernelIndex(kernel)
		if ki == len(benchKernels) {
			t.Errorf("row %d: unknown kernel %q", i, kernel)
			continue
		}
		if ki < last {
			t.Errorf("row %d: kernel %q out of order", i, kernel)
		}
		last = ki
		k := key{kernel, path, int(nf)}
		if seen[k] {
			t.Errorf("row %d: duplicate %v", i, k)
		}
		seen[k] = true
		if !(nsop > 0) || math.IsInf(nsop, 0) {
			t.Errorf("row %d: ns_per_op %v", i, nsop)
			continue
		}
		wantGB := float64(benchKernels[ki].bytes) * nf / nsop
		wantE := nf / nsop * 1e9
		if math.Abs(gbs-wantGB) > 1e-9*wantGB || math.Abs(eps-wantE) > 1e-9*wantE {
			t.Errorf("row %d: gb_per_s %v, elems_per_s %v; want %v, %v from ns_per_op %v", i, gbs, eps, wantGB, wantE, nsop)
		}
	}
	for _, k := range benchKernels {
		for _, p := range paths {
			for _, n := range ns {
				if !seen[key{k.name, p.Name, n}] {
					t.Errorf("no row for kernel %s, path %s, n %d", k.name, p.Name, n)
				}
			}
		}
	}
	if want := len(benchKernels) * len(paths) * len(ns); len(doc.Results) != want {
		t.Errorf("%d rows, want %d", len(doc.Results), want)
	}
}

// TestBenchKernelsFlag: -kernels selects exactly the named kernels (case
// and spaces ignored) on every path.
func TestBenchKernelsFlag(t *testing.T) {
	code, out, errOut := runCmd("bench", "-json", "-n", "5", "-time", "1ms", "-kernels", "Dot, sigmoid")
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range rep.Results {
		got[r.Kernel]++
	}
	np := len(vec.Paths())
	if len(got) != 2 || got["dot"] != np || got["sigmoid"] != np {
		t.Errorf("rows per kernel %v, want dot and sigmoid with %d each", got, np)
	}
}

// TestBenchTable: the default output names the machine (cpu, platform,
// features, paths) and has a header and one line per kernel, path and length.
func TestBenchTable(t *testing.T) {
	code, out, errOut := runCmd("bench", "-n", "7", "-time", "1ms", "-kernels", "axpy,softplussum")
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wants := []string{"cpu:", "platform:", "CPUs", "GOMAXPROCS", "features:", "paths:", "timing:", "median of 5 reps", "ns/op", "min-max", "GB/s"}
	for _, f := range featureNames[runtime.GOARCH] {
		wants = append(wants, f+"=")
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if other := map[string]string{"amd64": "asimd=", "arm64": "avx2="}[runtime.GOARCH]; other != "" && strings.Contains(out, other) {
		t.Errorf("output shows the other architecture's %q:\n%s", other, out)
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 7 && (f[0] == "axpy" || f[0] == "softplussum") && f[2] == "7" {
			rows++
		}
	}
	if want := 2 * len(vec.Paths()); rows != want {
		t.Errorf("%d table rows, want %d:\n%s", rows, want, out)
	}
}

// TestBenchBadFlagsExitUsage: every malformed invocation exits with
// exitUsage and one line on stderr, before measuring anything (nothing on
// stdout).
func TestBenchBadFlagsExitUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-x"},
		{"-n", "0"},
		{"-n", "-5"},
		{"-n", "abc"},
		{"-n", "16,,100"},
		{"-n", ""},
		{"-n", fmt.Sprint(maxBenchLen + 1)},
		{"-kernels", "fft"},
		{"-kernels", "dot,fft"},
		{"-time", "0"},
		{"-time", "-1s"},
		{"-time", "fast"},
		{"-json=maybe"},
		{"extra"},
		{"-n", "16", "extra"},
	} {
		code, out, errOut := runCmd(append([]string{"bench"}, args...)...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
		if out != "" {
			t.Errorf("%q: wrote to stdout: %q", args, out)
		}
		if !strings.HasPrefix(errOut, "softpen bench: ") || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") {
			t.Errorf("%q: stderr is not one line starting \"softpen bench: \": %q", args, errOut)
		}
	}
}

// TestBenchHelp: -h prints the usage to stdout and succeeds.
func TestBenchHelp(t *testing.T) {
	code, out, errOut := runCmd("bench", "-h")
	if code != exitSolved || errOut != "" || !strings.Contains(out, "usage: softpen bench") || !strings.Contains(out, "-kernels") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestCPUModel: the machine description is never empty.
func TestCPUModel(t *testing.T) {
	if m := cpuModel(); strings.TrimSpace(m) == "" {
		t.Error("cpuModel returned an empty string")
	}
}

// TestBenchJSON: the bench JSON parses and has a row per kernel per path;
// bad flags are usage errors.
func TestBenchJSON(t *testing.T) {
	code, out, errOut := runCmd("bench", "-json", "-n", "64", "-time", "2ms")
	if code != exitSolved {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != "softpen-bench/2" || len(rep.Results) != len(benchKernels)*len(vecPathNames()) {
		t.Errorf("schema %q, %d rows", rep.Schema, len(rep.Results))
	}
	for _, r := range rep.Results {
		if !(r.NsPerOp > 0) || !(r.GBPerS > 0) {
			t.Errorf("row %+v", r)
		}
	}
	for _, bad := range [][]string{{"bench", "-n", "0"}, {"bench", "-kernels", "fft"}, {"bench", "-x"}} {
		if code, _, _ := runCmd(bad...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}

func vecPathNames() []string {
	var out []string
	for _, p := range vec.Paths() {
		out = append(out, p.Name)
	}
	return out
}
