package main

// softpen bench measures kernel throughput on every path this CPU can run.
//
// JSON schema "softpen-bench/1" (-json), stable:
//
//	{
//	  "schema": "softpen-bench/1",
//	  "cpu": "model name from /proc/cpuinfo, or unknown",
//	  "goos": "linux", "goarch": "amd64", "go": "go1.26.x",
//	  "features": {"avx2": true, "fma": true, "avx512f": false, "asimd": false},
//	  "results": [
//	    {"kernel": "dot", "path": "avx2", "n": 1000,
//	     "ns_per_op": 78.1, "gb_per_s": 204.8, "elems_per_s": 1.28e10}, ...
//	  ]
//	}
//
// gb_per_s counts the bytes each call reads and writes (e.g. Dot reads 16
// bytes per element); each figure is the median of 5 timed repetitions.

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/cpu"

	"github.com/softpen/softpen/vec"
)

type benchKernel struct {
	name  string
	bytes int // bytes read and written per element
	run   func(p vec.Path, x, y, z []float64)
}

var benchSink float64

var benchKernels = []benchKernel{
	{"dot", 16, func(p vec.Path, x, y, _ []float64) { benchSink += p.Dot(x, y) }},
	{"axpy", 24, func(p vec.Path, x, y, _ []float64) { p.Axpy(1e-9, x, y) }},
	{"scale", 16, func(p vec.Path, x, _, _ []float64) { p.Scale(1, x) }},
	{"axpbyto", 24, func(p vec.Path, x, y, z []float64) { p.AxpbyTo(z, 0.5, x, 0.5, y) }},
	{"step", 32, func(p vec.Path, x, y, z []float64) { p.Step(1, 1e-9, x, 1e-9, y, z) }},
	{"softplus", 16, func(p vec.Path, x, _, z []float64) { p.Softplus(z, x) }},
	{"sigmoid", 16, func(p vec.Path, x, _, z []float64) { p.Sigmoid(z, x) }},
	{"sigmoidscaled", 16, func(p vec.Path, x, _, z []float64) { p.SigmoidScaled(z, x, 2, 3) }},
	{"softplussum", 8, func(p vec.Path, x, _, _ []float64) { benchSink += p.SoftplusSum(x, 2) }},
}

type benchResult struct {
	Kernel    string  `json:"kernel"`
	Path      string  `json:"path"`
	N         int     `json:"n"`
	NsPerOp   float64 `json:"ns_per_op"`
	GBPerS    float64 `json:"gb_per_s"`
	ElemsPerS float64 `json:"elems_per_s"`
}

type benchReport struct {
	Schema   string          `json:"schema"`
	CPU      string          `json:"cpu"`
	GOOS     string          `json:"goos"`
	GOARCH   string          `json:"goarch"`
	Go       string          `json:"go"`
	Features map[string]bool `json:"features"`
	Results  []benchResult   `json:"results"`
}

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "write the softpen-bench/1 JSON document")
	sizes := fs.String("n", "16,100,1000,10000,1000000", "comma-separated lengths")
	kernels := fs.String("kernels", "", "comma-separated kernels (default: all)")
	budget := fs.Duration("time", 100*time.Millisecond, "time per measurement")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1<<27 {
			fmt.Fprintf(stderr, "softpen bench: -n %q: want lengths between 1 and %d\n", f, 1<<27)
			return exitUsage
		}
		ns = append(ns, n)
	}
	want := map[string]bool{}
	for _, k := range strings.Split(*kernels, ",") {
		if k = strings.TrimSpace(k); k != "" {
			want[k] = true
		}
	}
	for k := range want {
		if !knownKernel(k) {
			fmt.Fprintf(stderr, "softpen bench: unknown kernel %q\n", k)
			return exitUsage
		}
	}
	if *budget <= 0 {
		fmt.Fprintln(stderr, "softpen bench: -time must be > 0")
		return exitUsage
	}
	rep := benchReport{Schema: "softpen-bench/1", CPU: cpuModel(), GOOS: runtime.GOOS,
		GOARCH: runtime.GOARCH, Go: runtime.Version(), Features: map[string]bool{
			"avx2": cpu.X86.HasAVX2, "fma": cpu.X86.HasFMA, "avx512f": cpu.X86.HasAVX512F,
			"asimd": cpu.ARM64.HasASIMD}}
	for _, k := range benchKernels {
		if len(want) > 0 && !want[k.name] {
			continue
		}
		for _, p := range vec.Paths() {
			for _, n := range ns {
				nsop := measure(k, p, n, *budget)
				rep.Results = append(rep.Results, benchResult{Kernel: k.name, Path: p.Name, N: n,
					NsPerOp: nsop, GBPerS: float64(k.bytes*n) / nsop, ElemsPerS: float64(n) / nsop * 1e9})
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		enc.Encode(rep)
		return exitSolved
	}
	fmt.Fprintf(stdout, "cpu: %s (%s/%s, %s)  features: avx2=%v fma=%v avx512f=%v asimd=%v\n",
		rep.CPU, rep.GOOS, rep.GOARCH, rep.Go, rep.Features["avx2"], rep.Features["fma"],
		rep.Features["avx512f"], rep.Features["asimd"])
	fmt.Fprintf(stdout, "%-14s %-8s %9s %12s %9s %12s\n", "kernel", "path", "n", "ns/op", "GB/s", "Melem/s")
	for _, r := range rep.Results {
		fmt.Fprintf(stdout, "%-14s %-8s %9d %12.1f %9.2f %12.1f\n", r.Kernel, r.Path, r.N, r.NsPerOp, r.GBPerS, r.ElemsPerS/1e6)
	}
	return exitSolved
}

func knownKernel(name string) bool {
	for _, k := range benchKernels {
		if k.name == name {
			return true
		}
	}
	return false
}

// measure returns the median ns per call over 5 repetitions of about
// budget/5 each.
func measure(k benchKernel, p vec.Path, n int, budget time.Duration) float64 {
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i%13)*0.1-0.6, float64(i%7)*0.2-0.5
	}
	k.run(p, x, y, z) // warm up
	var reps [5]float64
	for r := range reps {
		calls, start := 0, time.Now()
		for time.Since(start) < budget/5 || calls == 0 {
			for i := 0; i < 8; i++ {
				k.run(p, x, y, z)
			}
			calls += 8
		}
		reps[r] = float64(time.Since(start).Nanoseconds()) / float64(calls)
	}
	s := reps[:]
	sort.Float64s(s)
	return s[2]
}

// cpuModel reads the model name on Linux; elsewhere it says unknown.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
