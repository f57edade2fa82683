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
}

func (f *solveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "out", "", "write the result JSON to this file (default: standard output)")
	fs.Float64Var(&f.tol, "tol", 1e-6, "certified gap tolerance, relative to max(1, |objective|)")
	fs.StringVar(&f.method, "method", "auto", "inner method: auto, sgd, sgdm, svrg, catalyst-svrg, apg")
	fs.StringVar(&f.screen, "screen", "gap-safe", "constraint screening: gap-safe (the default; a bare -screen means it too), paper or none")
	fs.Uint64Var(&f.seed, "seed", 0, "seed of the solver's random generator")
	fs.Int64Var(&f.maxSteps, "max-steps", 0, "budget of incremental steps (0: none)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "wall-time limit, e.g. 500ms or 2m (0: none)")
	fs.BoolVar(&f.progress, "progress", false, "print one line per stage on standard error")
	fs.BoolVar(&f.noPolish, "no-polish", false, "skip active-set polishing")
}

// newFlagSet is a flag set that reports to stderr and, for -h, prints
// synopsis and then the flags.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; ok is false when the command should stop with
// code (0 after -h, 2 on a usage error, reported by the flag package).
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(screenArgs(args))
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		return exitSolved, false
	}
	return exitUsage, false
}

// screenArgs rewrites a bare "-screen" (FORMATS.md's boolean form) to
// "-screen=gap-safe", so that the flag can also take a value.
func screenArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-screen" || a == "--screen") && (i+1 >= len(args) || !isScreenValue(args[i+1])) {
			a = "-screen=gap-safe"
		}
		out = append(out, a)
	}
	return out
}

func isScreenValue(s string) bool { return s == "none" || s == "paper" || s == "gap-safe" }

// options turns the flags into solver options; an error is a usage error.
func (f *solveFlags) options(stderr io.Writer) (*softpen.Options, error) {
	m, err := softpen.ParseMethod(f.method)
	if err != nil {
		return nil, fmt.Errorf("-method: %v", err)
	}
	opt := &softpen.Options{Method: m, Tol: f.tol, Seed: f.seed, MaxSteps: f.maxSteps,
		TimeLimit: f.timeLimit, NoPolish: f.noPolish}
	switch f.screen {
	case "none":
		opt.Screen = softpen.ScreenNone
	case "paper":
		opt.Screen = softpen.ScreenPaper
	case "gap-safe":
		opt.Screen = softpen.ScreenGapSafe
	default:
		return nil, fmt.Errorf("-screen %q: want gap-safe, paper or none", f.screen)
	}
	switch {
	case !(f.tol >= 0 && f.tol < math.Inf(1)):
		return nil, fmt.Errorf("-tol %g: want a finite number >= 0 (0: the default, 1e-6)", f.tol)
	case f.maxSteps < 0:
		return nil, fmt.Errorf("-max-steps %d: want >= 0", f.maxSteps)
	case f.timeLimit < 0:
		return nil, fmt.Errorf("-time-limit %v: want >= 0", f.timeLimit)
	}
	if f.progress {
		opt.Progress = progressPrinter(stderr, isTerminal(stderr))
	}
	return opt, nil
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

// progressPrinter prints one line per stage: plain lines, or on a terminal
// one line redrawn in place (the caller ends it with a newline).
func progressPrinter(w io.Writer, tty bool) func(softpen.Stage) {
	return func(s softpen.Stage) {
		line := fmt.Sprintf("stage %3d  delta %.3e  xi %-6g  steps %12d  gap %.3e  kept %8d  violation %.3e",
			s.Index, s.Delta, s.Xi, s.Steps, s.Gap, s.Kept, s.Violation)
		if tty {
			fmt.Fprint(w, "\r"+line+"\x1b[K")
		} else {
			fmt.Fprintln(w, line)
		}
	}
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

// solveAndWrite validates p, solves it and writes the result, returning the
// exit code: 0 solved, 1 bad input (or an unwritable -out), 2 bad options, 3
// any other status. name is the input file, for messages.
func solveAndWrite(name string, p *softpen.Problem, f *solveFlags, stdout, stderr io.Writer) int {
	opt, err := f.options(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitUsage
	}
	if err := p.Validate(); err != nil {
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := softpen.Solve(ctx, p, opt)
	if f.progress && isTerminal(stderr) {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", name, err)
		return exitInput
	}
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
		return exitStatus
	}
	return exitSolved
}
