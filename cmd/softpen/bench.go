package main

// softpen bench measures the throughput of every vec kernel on every path
// this CPU can run (vec.Paths(): "generic" always, then "avx2" and "avx512",
// or "neon", when present), at each requested length, and reports the machine next to the
// figures so that results from different machines can be compared.
//
//	softpen bench [-json] [-n 16,100,1000,10000,1000000] [-kernels dot,axpy,...] [-time 100ms]
//
// Each figure is the median over 5 timed repetitions of about time/5 each,
// after one untimed call; the fastest and slowest repetition are reported
// beside it. The inputs are the same for every path.
//
// With -json the output is one JSON document, schema "softpen-bench/2".
// The schema is stable: fields are only ever added, never renamed or
// re-typed; a change of meaning gets a new schema name. (softpen-bench/1
// had no num_cpu, gomaxprocs, timing, ns_min or ns_max, and listed the
// features of both architectures, the other's as false.)
//
//	{
//	  "schema":   "softpen-bench/2",
//	  "cpu":      "Intel(R) Xeon(R) ...",  // /proc/cpuinfo model name (on arm64
//	                                      // "arm64 implementer 0x41 part 0xd0c"),
//	                                      // or "unknown"
//	  "goos":     "linux",                 // runtime.GOOS
//	  "goarch":   "amd64",                 // runtime.GOARCH
//	  "go":       "go1.26.8",              // runtime.Version()
//	  "num_cpu":  2,                       // runtime.NumCPU()
//	  "gomaxprocs": 2,                     // runtime.GOMAXPROCS(0): the goroutines
//	                                      // a solve runs on with Options.Threads
//	                                      // = 0; the kernels run on one
//	  "impl":     "avx512",                // vec.Impl(): the path the library
//	                                      // dispatches to (added to /2 later)
//	  "timing": {                          // how every row was measured
//	    "time_per_case_s": 0.1,            // -time: one kernel, path and length
//	    "reps": 5,                         // timed repetitions, time_per_case_s/reps each
//	    "warmup_calls": 1,                 // untimed calls before them
//	    "statistic": "median"              // ns_per_op is this over the reps
//	  },
//	  "features": {                        // golang.org/x/sys/cpu, after GODEBUG,
//	    "avx": true, "avx2": true,         // of the running architecture only:
//	    "fma": true, "avx512f": true,      // amd64 avx avx2 fma avx512f
//	    "avx512dq": true, "avx512vl": true // avx512dq avx512vl (the last two
//	  },                                   // added to /2 later), arm64 asimd fp,
//	                                      // others none
//	  "results": [                         // kernel-major (in the order below),
//	    {                                  // then length, then path
//	      "kernel": "dot",                 // dot axpy scale axpbyto step softplus
//	                                      // sigmoid sigmoidscaled softplussum
//	      "path": "avx2",                  // generic, avx2, avx512 or neon
//	      "n": 1000,                       // vector length
//	      "ns_per_op": 78.1,               // nanoseconds per call (median of the reps)
//	      "ns_min": 77.9, "ns_max": 80.2,  // the fastest and slowest rep: the spread
//	      "gb_per_s": 204.8,               // bytes read + written per call / ns_per_op
//	      "elems_per_s": 1.28e10           // n / ns_per_op * 1e9
//	    }
//	  ]
//	}
//
// Bytes per element, read + written: dot 16, axpy 24, scale 16, axpbyto 24,
// step 32, softplus 16, sigmoid 16, sigmoidscaled 16, softplussum 8. Short
// vectors stay in cache, so gb_per_s can exceed the memory bandwidth.

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
	NsMin     float64 `json:"ns_min"`
	NsMax     float64 `json:"ns_max"`
	GBPerS    float64 `json:"gb_per_s"`
	ElemsPerS float64 `json:"elems_per_s"`
}

type benchReport struct {
	Schema     string          `json:"schema"`
	CPU        string          `json:"cpu"`
	GOOS       string          `json:"goos"`
	GOARCH     string          `json:"goarch"`
	Go         string          `json:"go"`
	NumCPU     int             `json:"num_cpu"`
	GOMAXPROCS int             `json:"gomaxprocs"`
	Impl       string          `json:"impl"`
	Timing     benchTiming     `json:"timing"`
	Features   map[string]bool `json:"features"`
	Results    []benchResult   `json:"results"`
}

// benchTiming says how the rows were measured.
type benchTiming struct {
	TimePerCase float64 `json:"time_per_case_s"`
	Reps        int     `json:"reps"`
	Warmup      int     `json:"warmup_calls"`
	Statistic   string  `json:"statistic"`
}

// benchReps and benchWarmup: measure's repetitions and untimed calls.
const (
	benchReps   = 5
	benchWarmup = 1
)

// benchSynopsis is the one-line usage of softpen bench.
const benchSynopsis = "softpen bench [-json] [-n 16,100,1000,10000,1000000] [-kernels dot,axpy,...] [-time 100ms]"

type benchArgs struct {
	json    bool
	sizes   string
	kernels string
	budget  time.Duration
}

func (a *benchArgs) flagSet() *flag.FlagSet {
	fs := newFlagSet("bench")
	fs.BoolVar(&a.json, "json", false, "write the softpen-bench/2 JSON document instead of a table")
	fs.StringVar(&a.sizes, "n", "16,100,1000,10000,1000000", "comma-separated vector lengths")
	fs.StringVar(&a.kernels, "kernels", "", "comma-separated kernels (default all: "+kernelNames()+")")
	fs.DurationVar(&a.budget, "time", 100*time.Millisecond, "time per kernel, path and length (5 repetitions share it)")
	return fs
}

// runBench is `softpen bench`. Flags and arguments are checked before
// anything is measured: a bad one is a one-line message and exitUsage.
func runBench(args []string, stdout, stderr io.Writer) int {
	var a benchArgs
	fs := a.flagSet()
	if code, ok := parseNoArgs(fs, benchSynopsis, args, stdout, stderr); !ok {
		return code
	}
	asJSON, sizes, kernels, budget := &a.json, &a.sizes, &a.kernels, &a.budget
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > maxBenchLen {
			fmt.Fprintf(stderr, "softpen bench: -n %q: want comma-separated lengths between 1 and %d\n", f, maxBenchLen)
			return exitUsage
		}
		ns = append(ns, n)
	}
	want := map[string]bool{}
	for _, k := range strings.Split(*kernels, ",") {
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "" {
			continue
		}
		if !knownKernel(k) {
			fmt.Fprintf(stderr, "softpen bench: unknown kernel %q (want some of %s)\n", k, kernelNames())
			return exitUsage
		}
		want[k] = true
	}
	if *budget <= 0 {
		fmt.Fprintf(stderr, "softpen bench: -time %v: want a positive duration\n", *budget)
		return exitUsage
	}
	rep := benchReport{Schema: "softpen-bench/2", CPU: cpuModel(), GOOS: runtime.GOOS,
		GOARCH: runtime.GOARCH, Go: runtime.Version(), NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Impl: vec.Impl(),
		Timing:   benchTiming{TimePerCase: budget.Seconds(), Reps: benchReps, Warmup: benchWarmup, Statistic: "median"},
		Features: cpuFeatures(runtime.GOARCH), Results: []benchResult{}}
	paths := vec.Paths()
	for _, n := range ns {
		// One set of inputs per length, shared by all kernels and paths.
		x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
		for _, k := range benchKernels {
			if len(want) > 0 && !want[k.name] {
				continue
			}
			for _, p := range paths {
				nsop, lo, hi := measure(k, p, x, y, z, *budget)
				rep.Results = append(rep.Results, benchResult{Kernel: k.name, Path: p.Name, N: n,
					NsPerOp: nsop, NsMin: lo, NsMax: hi, GBPerS: float64(k.bytes*n) / nsop, ElemsPerS: float64(n) / nsop * 1e9})
			}
		}
	}
	sort.SliceStable(rep.Results, func(i, j int) bool {
		return kernelIndex(rep.Results[i].Kernel) < kernelIndex(rep.Results[j].Kernel)
	})
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "softpen bench:", err)
			return exitInput
		}
		return exitSolved
	}
	var flags []string
	for _, name := range featureNames[runtime.GOARCH] {
		flags = append(flags, fmt.Sprintf("%s=%v", name, rep.Features[name]))
	}
	fmt.Fprintf(stdout, "cpu:      %s\nplatform: %s/%s, %s, %d CPUs, GOMAXPROCS %d\nfeatures: %s\npaths:    %s (library uses %s)\ntiming:   median of %d reps of %v each, after %d untimed call; min-max beside it\n\n",
		rep.CPU, rep.GOOS, rep.GOARCH, rep.Go, rep.NumCPU, rep.GOMAXPROCS, strings.Join(flags, " "),
		pathNames(paths), vec.Impl(), benchReps, *budget/benchReps, benchWarmup)
	fmt.Fprintf(stdout, "%-14s %-8s %9s %12s %21s %9s %12s\n", "kernel", "path", "n", "ns/op", "min-max", "GB/s", "Melem/s")
	for _, r := range rep.Results {
		fmt.Fprintf(stdout, "%-14s %-8s %9d %12.1f %10.1f-%-10.1f %9.2f %12.1f\n", r.Kernel, r.Path, r.N, r.NsPerOp, r.NsMin, r.NsMax, r.GBPerS, r.ElemsPerS/1e6)
	}
	return exitSolved
}

// maxBenchLen bounds -n: three vectors of this length take 384 MiB.
const maxBenchLen = 1 << 24

// featureNames are the keys of the "features" object per architecture, in
// table order.
var featureNames = map[string][]string{
	"amd64": {"avx", "avx2", "fma", "avx512f", "avx512dq", "avx512vl"},
	"arm64": {"asimd", "fp"},
}

// cpuFeatures reports the CPU features of architecture goarch that the
// kernel paths depend on, as golang.org/x/sys/cpu sees them (so
// GODEBUG=cpu.avx2=off shows here too); none for another architecture.
func cpuFeatures(goarch string) map[string]bool {
	switch goarch {
	case "amd64":
		return map[string]bool{"avx": cpu.X86.HasAVX, "avx2": cpu.X86.HasAVX2, "fma": cpu.X86.HasFMA,
			"avx512f": cpu.X86.HasAVX512F, "avx512dq": cpu.X86.HasAVX512DQ, "avx512vl": cpu.X86.HasAVX512VL}
	case "arm64":
		return map[string]bool{"asimd": cpu.ARM64.HasASIMD, "fp": cpu.ARM64.HasFP}
	}
	return map[string]bool{}
}

func pathNames(ps []vec.Path) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Name)
	}
	return strings.Join(s, ", ")
}

func kernelNames() string {
	var s []string
	for _, k := range benchKernels {
		s = append(s, k.name)
	}
	return strings.Join(s, ",")
}

func kernelIndex(name string) int {
	for i, k := range benchKernels {
		if k.name == name {
			return i
		}
	}
	return len(benchKernels)
}

func knownKernel(name string) bool {
	for _, k := range benchKernels {
		if k.name == name {
			return true
		}
	}
	return false
}

// measure returns the median, least and greatest ns per call over
// benchReps repetitions of about budget/benchReps each, after benchWarmup
// untimed calls. x and y are refilled first, so every
// kernel starts from the same inputs: values in [-8, 8] of both signs, which
// exercise both branches of the exp-based kernels; the updates the linear
// kernels make (factors 1 and 1e-9) keep them there.
func measure(k benchKernel, p vec.Path, x, y, z []float64, budget time.Duration) (med, lo, hi float64) {
	for i := range x {
		x[i], y[i], z[i] = float64(i%17)-8.25, float64(i%7)*0.2-0.5, 0
	}
	for range benchWarmup {
		k.run(p, x, y, z)
	}
	var reps [benchReps]float64
	for r := range reps {
		calls, start := 0, time.Now()
		for calls == 0 || time.Since(start) < budget/benchReps {
			for i := 0; i < 8; i++ {
				k.run(p, x, y, z)
			}
			calls += 8
		}
		reps[r] = float64(time.Since(start).Nanoseconds()) / float64(calls)
	}
	s := reps[:]
	sort.Float64s(s)
	return s[len(s)/2], s[0], s[len(s)-1]
}

// cpuModel reads the processor's name from /proc/cpuinfo: the "model name"
// line (x86), else the implementer and part numbers (arm64); "unknown" when
// there is neither or no /proc.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	var impl, part string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case k == "model name" && v != "":
			return v
		case k == "CPU implementer" && impl == "":
			impl = v
		case k == "CPU part" && part == "":
			part = v
		}
	}
	if impl != "" || part != "" {
		return runtime.GOARCH + " implementer " + impl + " part " + part
	}
	return "unknown"
}
