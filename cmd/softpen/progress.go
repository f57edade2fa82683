package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/softpen/softpen"
)

// progressEvery is the longest time -progress stays silent while a solve
// runs.
var progressEvery = time.Second

// progressObserveEvery is how many steps apart the solver calls the
// progress's observer (which then looks at the clock).
const progressObserveEvery = 10000

// progress is -progress: a line per stage or Newton step
// (Options.Progress), a line at least every progressEvery while the solve
// runs (from a ticker, so that a long set-up, a long stage or a long
// active-set solve is not silent), and a summary once the solve is over.
// On a terminal the lines are one line redrawn in place, ended by the
// summary. The callbacks run on the solving goroutine and the ticker on
// its own: a mutex orders their lines. A nil *progress does nothing.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	start time.Time
	last  time.Time // of the last line
	steps int64     // the last step count seen
	next  int       // index of the stage now running
	open  bool      // a redrawn line awaits its newline
	stop  chan struct{}
	done  sync.WaitGroup
}

func newProgress(w io.Writer, tty bool) *progress {
	now := time.Now()
	return &progress{w: w, tty: tty, start: now, last: now}
}

// attach sets opt's Progress and Observe callbacks to p's and starts the
// ticker; finish stops it.
func (p *progress) attach(opt *softpen.Options) {
	opt.Progress = p.stage
	opt.Observe = p.observe
	opt.ObserveEvery = progressObserveEvery
	p.stop = make(chan struct{})
	p.done.Add(1)
	go p.tick()
}

// tick prints a running line whenever progressEvery has passed without one.
func (p *progress) tick() {
	defer p.done.Done()
	t := time.NewTicker(max(progressEvery/4, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			if now.Sub(p.last) >= progressEvery {
				p.line(fmt.Sprintf("stage %3d  running  steps %12d  elapsed %v", p.next, p.steps, now.Sub(p.start).Round(time.Millisecond)))
			}
			p.mu.Unlock()
		}
	}
}

// line prints s; the caller holds p.mu.
func (p *progress) line(s string) {
	p.last = time.Now()
	if p.tty {
		fmt.Fprint(p.w, "\r"+s+"\x1b[K")
		p.open = true
		return
	}
	fmt.Fprintln(p.w, s)
}

// finish stops the ticker and ends a redrawn line, if one is open.
func (p *progress) finish() {
	if p == nil {
		return
	}
	if p.stop != nil {
		close(p.stop)
		p.done.Wait()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

func (p *progress) stage(s softpen.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps = s.Steps
	switch s.Method {
	case softpen.MethodActiveSet:
		p.line(fmt.Sprintf("activeset  changes %8d  gap %.3e  rows %8d  violation %.3e", s.Steps, s.Gap, s.Kept, s.Violation))
	case softpen.MethodNewtonCG:
		p.line(fmt.Sprintf("newton-cg %3d  row evaluations %12d  gap %.3e", s.Index, s.Steps, s.Gap))
	case softpen.MethodDualCD:
		p.line(fmt.Sprintf("dual-cd epoch %6d  row steps %12d  gap %.3e", s.Index, s.Steps, s.Gap))
	case softpen.MethodNewton:
		p.line(fmt.Sprintf("newton %3d  steps %12d  gap %.3e  kept %8d  violation %.3e", s.Index, s.Steps, s.Gap, s.Kept, s.Violation))
	case softpen.MethodSVRG, softpen.MethodCatalyst:
		if s.Delta == 0 { // on sparse rows: epochs, no penalty stages
			p.line(fmt.Sprintf("%s epoch %6d  row steps %12d  gap %.3e", s.Method, s.Index, s.Steps, s.Gap))
			break
		}
		fallthrough
	default:
		p.line(fmt.Sprintf("stage %3d  delta %.3e  xi %-6g  steps %12d  gap %.3e  kept %8d  violation %.3e",
			s.Index, s.Delta, s.Xi, s.Steps, s.Gap, s.Kept, s.Violation))
	}
	p.next = s.Index + 1
}

func (p *progress) observe(steps int64, _ []float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps = steps
	if time.Since(p.last) < progressEvery {
		return
	}
	p.line(fmt.Sprintf("stage %3d  running  steps %12d  elapsed %v", p.next, steps, time.Since(p.start).Round(time.Millisecond)))
}

// summary stops the ticker and prints how the solve ended.
func (p *progress) summary(r *softpen.Result) {
	if p == nil {
		return
	}
	p.finish()
	p.mu.Lock()
	defer p.mu.Unlock()
	stages, kept, polished := 0, len(r.Lambda)+len(r.Nu), false
	if r.Penalty != nil {
		stages, kept, polished = r.Penalty.Stages, r.Penalty.Kept, r.Penalty.Polished
	}
	fmt.Fprintf(p.w, "done: %v in %v  %v  gap %.3e  objective %.12g  steps %d  stages %d  kept %d  polished %v  violation %.3e\n",
		r.Status, r.Time.Round(time.Microsecond), r.Method, r.Gap, r.Objective, r.Steps, stages, kept, polished, r.MaxViolation)
}
