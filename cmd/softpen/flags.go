package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/softpen/softpen"
)

// solveFlags are the options solve and svm share (FORMATS.md, "Command
// line").
type solveFlags struct {
	out       string
	tol       float64
	method    string
	screen    string
	seed      uint64
	maxSteps  int64
	timeLimit time.Duration
	progress  bool
	noPolish  bool
	maxMemory byteSize
	threads   int
}

func (f *solveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "out", "", "write the result JSON to this file (default: standard output)")
	fs.Float64Var(&f.tol, "tol", 1e-6, "certified gap tolerance, relative to max(1, |objective|); 0 means the default, 1e-6")
	fs.StringVar(&f.method, "method", "auto", "method: auto (chosen by the problem), activeset (exact, quadratic objectives), newton (logistic loss), newton-cg (sparse rows, no A, Aeq or P), dual-cd (sparse rows of A, b < 0, ridge only), or a penalty method: apg, svrg, catalyst-svrg, sgd, sgdm")
	fs.StringVar(&f.screen, "screen", "gap-safe", "a penalty method's constraint screening: gap-safe, paper or none (a bare -screen means gap-safe)")
	fs.Uint64Var(&f.seed, "seed", 0, "seed of the solver's random generator")
	fs.Int64Var(&f.maxSteps, "max-steps", 0, "budget of the method's steps: component gradients of a penalty method or newton, working-set changes of activeset (0: none)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "wall-time limit, e.g. 500ms or 2m (0: none)")
	fs.BoolVar(&f.progress, "progress", false, "on standard error: a line per stage or Newton step, a line at least every second while the solve runs, and a summary at the end")
	fs.IntVar(&f.threads, "threads", 0, "cores the command uses: the LIBSVM reader, the passes over all rows (newton-cg, the active-set method), dual-cd's exact steps and the forming of phi'phi (0: GOMAXPROCS, every core the process may use)")
	fs.BoolVar(&f.noPolish, "no-polish", false, "a penalty method's stages answer alone, without the exact finish by the active-set method")
	f.maxMemory = byteSize(softpen.DefaultMemoryLimit)
	fs.Var(&f.maxMemory, "max-memory", "refuse a problem whose estimated solver memory (Problem.MemoryEstimate) exceeds this `size`, e.g. 512MiB, 16GiB (0: no limit)")
}

// byteSize is a flag value: a number of bytes with an optional suffix B,
// KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
type byteSize int64

var byteSuffixes = []struct {
	s string
	f float64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}

func (b *byteSize) String() string { return softpen.FormatBytes(int64(*b)) }

func (b *byteSize) Set(s string) error {
	num, mul := strings.TrimSpace(s), 1.0
	for _, suf := range byteSuffixes {
		if strings.HasSuffix(strings.ToUpper(num), strings.ToUpper(suf.s)) {
			num, mul = strings.TrimSpace(num[:len(num)-len(suf.s)]), suf.f
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v >= 0) || v*mul >= math.MaxInt64 {
		return errors.New("want a size such as 512MiB, 4GiB or 8GB (0: no limit)")
	}
	*b = byteSize(v * mul)
	return nil
}

// newFlagSet is a flag set that prints nothing itself: parseFlags reports
// errors on one line and prints the help.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printHelp writes "usage: synopsis" and the flags with their defaults.
func printHelp(w io.Writer, synopsis string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n", synopsis)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// parseFlags parses args for the command named name; ok is false when the
// command should stop with code: after -h (the help on stdout, exit 0) or a
// usage error (one line on stderr, exit 2).
func parseFlags(fs *flag.FlagSet, synopsis string, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	err := fs.Parse(screenArgs(args))
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		printHelp(stdout, synopsis, fs)
		return exitSolved, false
	}
	fmt.Fprintf(stderr, "softpen %s: %v (softpen %s -h lists the flags)\n", fs.Name(), err, fs.Name())
	return exitUsage, false
}

// parseNoArgs is parseFlags for a command that takes flags only: an
// argument left over is a usage error.
func parseNoArgs(fs *flag.FlagSet, synopsis string, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if code, ok := parseFlags(fs, synopsis, args, stdout, stderr); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "softpen %s: unexpected argument %q (usage: %s)\n", fs.Name(), fs.Arg(0), synopsis)
		return exitUsage, false
	}
	return 0, true
}

// screenArgs rewrites a bare "-screen" (FORMATS.md's boolean form: last, or
// followed by another flag) to "-screen=gap-safe", so that the flag can
// also take a value; any other word after it is its value, checked later.
func screenArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-screen" || a == "--screen") && (i+1 >= len(args) || strings.HasPrefix(args[i+1], "-")) {
			a = "-screen=gap-safe"
		}
		out = append(out, a)
	}
	return out
}

// options turns the flags into solver options; an error is a usage error
// naming the flag and what it accepts.
func (f *solveFlags) options() (*softpen.Options, error) {
	m, err := softpen.ParseMethod(f.method)
	if err != nil {
		return nil, fmt.Errorf("-method: %v", err)
	}
	opt := &softpen.Options{Method: m, Tol: f.tol, Seed: f.seed, MaxSteps: f.maxSteps,
		TimeLimit: f.timeLimit, MaxMemory: int64(f.maxMemory), Threads: f.threads,
		Penalty: &softpen.PenaltyOptions{NoPolish: f.noPolish}}
	if opt.MaxMemory == 0 {
		opt.MaxMemory = -1 // -max-memory 0: no limit
	}
	switch f.screen {
	case "none":
		opt.Penalty.Screen = softpen.ScreenNone
	case "paper":
		opt.Penalty.Screen = softpen.ScreenPaper
	case "gap-safe":
		opt.Penalty.Screen = softpen.ScreenGapSafe
	default:
		return nil, fmt.Errorf("-screen %q: want gap-safe (the default), paper or none", f.screen)
	}
	switch {
	case !(f.tol >= 0 && f.tol < math.Inf(1)):
		return nil, fmt.Errorf("-tol %g: want a finite number >= 0 (0: the default, 1e-6)", f.tol)
	case f.maxSteps < 0:
		return nil, fmt.Errorf("-max-steps %d: want >= 0", f.maxSteps)
	case f.timeLimit < 0:
		return nil, fmt.Errorf("-time-limit %v: want >= 0", f.timeLimit)
	case f.threads < 0:
		return nil, fmt.Errorf("-threads %d: want >= 0 (0: GOMAXPROCS)", f.threads)
	}
	return opt, nil
}

// limitCores makes -threads N (N > 0) the cores of the whole command, not
// only of the solver's passes: the LIBSVM reader's goroutines and the
// runtime's follow GOMAXPROCS, which it sets to N. The function it returns
// restores the old value.
func (f *solveFlags) limitCores() func() {
	if f.threads <= 0 {
		return func() {}
	}
	old := runtime.GOMAXPROCS(f.threads)
	return func() { runtime.GOMAXPROCS(old) }
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// openInput opens a named input file; the error is one line naming it.
func openInput(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", name, pe.Err)
		}
		return nil, err
	}
	return f, nil
}

// checkMemory refuses a problem whose estimated solver memory is above the
// -max-memory limit (0: no limit), before anything large is allocated, with
// the message naming the flag. opt.MaxMemory carries the same limit into
// the library (options).
func checkMemory(p *softpen.Problem, opt *softpen.Options) error {
	var me *softpen.MemoryError
	if err := p.CheckMemory(opt); !errors.As(err, &me) {
		return err
	}
	return fmt.Errorf("the solver would need about %s (Problem.MemoryEstimate), above the -max-memory limit of %s; raise it with -max-memory %s if this machine has the memory",
		softpen.FormatBytes(me.Estimate), softpen.FormatBytes(me.Limit), softpen.FormatBytes(me.Estimate+me.Estimate/4))
}

// solveAndWrite validates p, solves it and writes the result, returning the
// exit code: 0 solved, 1 bad input (or an unwritable -out), 3 any other
// status. opt comes from f.options; name is the input file, for messages.
func solveAndWrite(name string, p *softpen.Problem, f *solveFlags, opt *softpen.Options, stdout, stderr io.Writer) int {
	if err := p.Validate(); err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", name, err)
		return exitInput
	}
	if err := checkMemory(p, opt); err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", name, err)
		return exitInput
	}
	w := stdout
	if f.out != "" {
		file, err := os.Create(f.out)
		if err != nil {
			fmt.Fprintf(stderr, "softpen: -out: %v\n", err)
			return exitInput
		}
		defer file.Close()
		w = file
	}
	var pr *progress
	if f.progress {
		pr = newProgress(stderr, isTerminal(stderr))
		pr.attach(opt)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := softpen.Solve(ctx, p, opt)
	if err != nil {
		pr.finish()
		fmt.Fprintf(stderr, "softpen: %s: %v\n", name, err)
		return exitInput
	}
	pr.summary(res)
	if err := softpen.WriteResult(w, res); err != nil {
		fmt.Fprintln(stderr, "softpen: writing the result:", err)
		return exitInput
	}
	if f.out != "" {
		if err := w.(*os.File).Close(); err != nil {
			fmt.Fprintln(stderr, "softpen: writing the result:", err)
			return exitInput
		}
	}
	if res.Status != softpen.StatusSolved {
		fmt.Fprintf(stderr, "softpen: %s: %v: %s\n", name, res.Status, res.Message)
		return exitStatus
	}
	return exitSolved
}
