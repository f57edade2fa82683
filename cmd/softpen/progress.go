package main

import (
	"fmt"
	"io"
	"time"

	"github.com/softpen/softpen"
)

// progressEvery is the least time between two lines about a running stage.
var progressEvery = time.Second

// progressObserveEvery is how many incremental steps apart the solver calls
// the progress's observer (which then looks at the clock).
const progressObserveEvery = 10000

// progress is -progress: a line per stage (Options.Progress), a line at most
// every progressEvery while a stage runs (Options.Observe, so a long stage
// is not silent), and a summary once the solve, polish included, is over.
// On a terminal the lines are one line redrawn in place, ended by the
// summary. A nil *progress does nothing.
type progress struct {
	w     io.Writer
	tty   bool
	start time.Time
	last  time.Time // of the last line
	next  int       // index of the stage now running
	open  bool      // a redrawn line awaits its newline
}

func newProgress(w io.Writer, tty bool) *progress {
	now := time.Now()
	return &progress{w: w, tty: tty, start: now, last: now}
}

// attach sets opt's Progress and Observe callbacks to p's.
func (p *progress) attach(opt *softpen.Options) {
	opt.Progress = p.stage
	opt.Observe = p.observe
	opt.ObserveEvery = progressObserveEvery
}

func (p *progress) line(s string) {
	p.last = time.Now()
	if p.tty {
		fmt.Fprint(p.w, "\r"+s+"\x1b[K")
		p.open = true
		return
	}
	fmt.Fprintln(p.w, s)
}

// endLine ends a redrawn line, if one is open.
func (p *progress) endLine() {
	if p != nil && p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

func (p *progress) stage(s softpen.Stage) {
	p.line(fmt.Sprintf("stage %3d  delta %.3e  xi %-6g  steps %12d  gap %.3e  kept %8d  violation %.3e",
		s.Index, s.Delta, s.Xi, s.Steps, s.Gap, s.Kept, s.Violation))
	p.next = s.Index + 1
}

func (p *progress) observe(steps int64, _ []float64) {
	if time.Since(p.last) < progressEvery {
		return
	}
	p.line(fmt.Sprintf("stage %3d  running  steps %12d  elapsed %v", p.next, steps, time.Since(p.start).Round(time.Millisecond)))
}

// done prints the summary: how the solve ended, with the polish.
func (p *progress) done(r *softpen.Result) {
	if p == nil {
		return
	}
	p.endLine()
	fmt.Fprintf(p.w, "done: %v in %v  gap %.3e  objective %.12g  steps %d  stages %d  kept %d  polished %v  violation %.3e\n",
		r.Status, r.Time.Round(time.Microsecond), r.Gap, r.Objective, r.Steps, r.Stages, r.Kept, r.Polished, r.MaxViolation)
}
