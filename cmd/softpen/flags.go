package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/softpen/softpen"
)

// solveFlags are the options solve and svm share.
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
	fs.StringVar(&f.out, "out", "", "write the result JSON here (default: standard output)")
	fs.Float64Var(&f.tol, "tol", 1e-6, "certified gap tolerance, relative to max(1, |objective|)")
	fs.StringVar(&f.method, "method", "auto", "inner method: auto, sgd, sgdm, svrg, catalyst-svrg, apg")
	fs.StringVar(&f.screen, "screen", "gap-safe", "constraint screening: gap-safe (the default; a bare -screen means it too), paper, none")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the solver's generator")
	fs.Int64Var(&f.maxSteps, "max-steps", 0, "incremental step budget (0: none)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "wall-time limit, e.g. 500ms (0: none)")
	fs.BoolVar(&f.progress, "progress", false, "print one line per stage on standard error")
	fs.BoolVar(&f.noPolish, "no-polish", false, "skip active-set polishing")
}

// screenArgs rewrites a bare "-screen" (FORMATS.md's form) to
// "-screen=gap-safe" so the flag can also take a value.
func screenArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "-screen" || a == "--screen" {
			if i+1 >= len(args) || !isScreenValue(args[i+1]) {
				a = "-screen=gap-safe"
			}
		}
		out[i] = a
	}
	return out
}

func isScreenValue(s string) bool { return s == "none" || s == "paper" || s == "gap-safe" }

// options turns the flags into solver options; the error is a usage error.
func (f *solveFlags) options(stderr io.Writer) (*softpen.Options, error) {
	m, err := softpen.ParseMethod(f.method)
	if err != nil {
		return nil, err
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
		return nil, fmt.Errorf("-screen %q: want none, paper or gap-safe", f.screen)
	}
	if f.tol < 0 || f.maxSteps < 0 || f.timeLimit < 0 {
		return nil, fmt.Errorf("-tol, -max-steps and -time-limit must be >= 0")
	}
	if f.progress {
		opt.Progress = progressPrinter(stderr)
	}
	return opt, nil
}

// progressPrinter prints one line per stage; on a terminal it redraws one
// line instead.
func progressPrinter(w io.Writer) func(softpen.Stage) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return func(s softpen.Stage) {
		line := fmt.Sprintf("stage %3d  delta %.3e  xi %-6g  steps %12d  gap %.3e  kept %8d  violation %.3e",
			s.Index, s.Delta, s.Xi, s.Steps, s.Gap, s.Kept, s.Violation)
		if tty {
			fmt.Fprint(w, "\r"+line)
		} else {
			fmt.Fprintln(w, line)
		}
	}
}

// solveAndWrite solves p and writes the result, returning the exit code.
func solveAndWrite(name string, p *softpen.Problem, f *solveFlags, stdout, stderr io.Writer) int {
	opt, err := f.options(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "softpen:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := softpen.Solve(ctx, p, opt)
	if f.progress {
		if st, ok := stderr.(*os.File); ok {
			if fi, e := st.Stat(); e == nil && fi.Mode()&os.ModeCharDevice != 0 {
				fmt.Fprintln(stderr)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "softpen: %s: %v\n", filepath.Base(name), err)
		return exitInput
	}
	w := stdout
	if f.out != "" {
		file, err := os.Create(f.out)
		if err != nil {
			fmt.Fprintln(stderr, "softpen:", err)
			return exitInput
		}
		defer file.Close()
		w = file
	}
	if err := softpen.WriteResult(w, res); err != nil {
		fmt.Fprintln(stderr, "softpen: writing the result:", err)
		return exitInput
	}
	if res.Status != softpen.StatusSolved {
		return exitStatus
	}
	return exitSolved
}
