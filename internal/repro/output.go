package repro

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/softpen/softpen/internal/svgplot"
)

// CSV columns, fixed so that tests and downstream scripts can rely on them.
var (
	RunsColumns   = []string{"method", "sim", "instance", "final_relerr", "steps_to_1e-3", "time_s", "stages", "delta0", "delta_end", "min_gap"}
	CurvesColumns = []string{"method", "sim", "steps", "relerr", "gap", "min_gap"}
	StagesColumns = []string{"method", "sim", "stage", "delta", "xi", "steps", "kept"}
)

func fmtF(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 8, 64)
}

// csvFile writes rows of already formatted fields (none of ours needs quoting:
// names are plain words and dashes; checked anyway).
func csvFile(path string, header []string, rows func(emit func(...string))) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	line := func(fields ...string) {
		for i, s := range fields {
			if i > 0 {
				w.WriteByte(',')
			}
			if needsQuote(s) {
				s = strconv.Quote(s)
			}
			w.WriteString(s)
		}
		w.WriteByte('\n')
	}
	line(header...)
	rows(line)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func needsQuote(s string) bool {
	for _, c := range s {
		if c == ',' || c == '"' || c == '\n' {
			return true
		}
	}
	return false
}

func minGapFinal(r *Run) float64 {
	mg := r.MinGap()
	if len(mg) == 0 {
		return math.NaN()
	}
	return mg[len(mg)-1]
}

func writeRuns(dir, prefix string, runs []*Run) error {
	err := csvFile(filepath.Join(dir, prefix+"_runs.csv"), RunsColumns, func(emit func(...string)) {
		for _, r := range runs {
			emit(r.Method, strconv.Itoa(r.Sim), r.Instance, fmtF(r.Final), strconv.FormatInt(r.StepsTo(1e-3), 10),
				fmtF(r.Time.Seconds()), strconv.Itoa(len(r.Stages)), fmtF(r.Delta0), fmtF(r.DeltaEnd), fmtF(minGapFinal(r)))
		}
	})
	if err != nil {
		return err
	}
	err = csvFile(filepath.Join(dir, prefix+"_curves.csv"), CurvesColumns, func(emit func(...string)) {
		for _, r := range runs {
			mg := r.MinGap()
			for i := range r.Steps {
				emit(r.Method, strconv.Itoa(r.Sim), strconv.FormatInt(r.Steps[i], 10), fmtF(r.RelErr[i]), fmtF(r.Gap[i]), fmtF(mg[i]))
			}
		}
	})
	if err != nil {
		return err
	}
	return csvFile(filepath.Join(dir, prefix+"_stages.csv"), StagesColumns, func(emit func(...string)) {
		for _, r := range runs {
			for _, s := range r.Stages {
				emit(r.Method, strconv.Itoa(r.Sim), strconv.Itoa(s.Index), fmtF(s.Delta), fmtF(s.Xi), strconv.FormatInt(s.Steps, 10), strconv.Itoa(s.Kept))
			}
		}
	})
}

// byMethod groups runs by method name, in the order of methods.
func byMethod(methods []Method, runs []*Run) [][]*Run {
	out := make([][]*Run, len(methods))
	for i, m := range methods {
		for _, r := range runs {
			if r.Method == m.Name && r.Err == nil {
				out[i] = append(out[i], r)
			}
		}
	}
	return out
}

func median(v []float64) float64 {
	var s []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	sort.Float64s(s)
	return svgplot.Quantile(s, 0.5)
}

// medianCurve is the pointwise median over runs of f(run) against the
// median step count of each observation index (observations of different
// runs fall within a few steps of the same multiple of 1000).
func medianCurve(runs []*Run, f func(*Run) []float64) ([]float64, []float64) {
	n := math.MaxInt
	for _, r := range runs {
		n = min(n, len(r.Steps))
	}
	if len(runs) == 0 || n == 0 {
		return nil, nil
	}
	xs, ys := make([]float64, n), make([]float64, n)
	vals := make([][]float64, len(runs))
	for k, r := range runs {
		vals[k] = f(r)
	}
	col, st := make([]float64, len(runs)), make([]float64, len(runs))
	for i := 0; i < n; i++ {
		for k, r := range runs {
			col[k], st[k] = vals[k][i], float64(r.Steps[i])
		}
		xs[i], ys[i] = median(st), median(col)
	}
	return thin(xs, ys, 2000)
}

// thin keeps about max points, log-spaced in x, so that the SVG of a 1e7-step
// curve stays small.
func thin(xs, ys []float64, maxPts int) ([]float64, []float64) {
	if len(xs) <= maxPts {
		return xs, ys
	}
	var ox, oy []float64
	last := -1
	for k := 0; k < maxPts; k++ {
		i := int(math.Round(math.Pow(float64(len(xs)-1), float64(k)/float64(maxPts-1))))
		if i > last {
			ox, oy = append(ox, xs[i]), append(oy, ys[i])
			last = i
		}
	}
	return ox, oy
}

// figures collects the SVG files of an experiment with their captions, for
// index.html.
type figures struct {
	dir  string
	list [][2]string // file name, caption
}

// add writes p as dir/name and records it with its caption.
func (f *figures) add(name, caption string, p interface{ WriteSVG(io.Writer) error }) error {
	f.list = append(f.list, [2]string{name, caption})
	return writeSVG(f.dir, name, p)
}

// logger returns a Printf to w; with a nil w it prints nothing.
func logger(w io.Writer) func(format string, args ...any) {
	return func(format string, args ...any) {
		if w != nil {
			fmt.Fprintf(w, format, args...)
		}
	}
}

func writeSVG(dir, name string, p interface{ WriteSVG(io.Writer) error }) error {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := p.WriteSVG(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// pick returns the methods for which keep is true, in their order, with
// their groups of runs.
func pick(methods []Method, groups [][]*Run, keep func(Method) bool) ([]Method, [][]*Run) {
	var ms []Method
	var gs [][]*Run
	for i, m := range methods {
		if keep(m) {
			ms, gs = append(ms, m), append(gs, groups[i])
		}
	}
	return ms, gs
}

// curvePlot draws the median curve of f for each group of runs.
func curvePlot(title, ylabel string, methods []Method, groups [][]*Run, f func(*Run) []float64) *svgplot.LinePlot {
	p := &svgplot.LinePlot{Title: title, XLabel: "incremental steps", YLabel: ylabel, LogX: true, LogY: true}
	for i, m := range methods {
		xs, ys := medianCurve(groups[i], f)
		if xs == nil {
			continue
		}
		p.Series = append(p.Series, svgplot.Series{Name: m.Name, X: xs, Y: ys, Dashed: m.Kind == KindStatic, Color: m.Color})
	}
	return p
}

func boxPlot(title string, methods []Method, groups [][]*Run) *svgplot.BoxPlot {
	b := &svgplot.BoxPlot{Title: title, YLabel: "relative error ||x - x*|| / ||x*||", LogY: true, Points: true}
	for i, m := range methods {
		g := svgplot.Group{Name: m.Name, Color: m.Color}
		for _, r := range groups[i] {
			g.Values = append(g.Values, r.Final)
		}
		b.Groups = append(b.Groups, g)
	}
	return b
}

// Summary writes the table the issue asks for: per method the median and
// worst final relative error, the median steps to 1e-3 (over the runs that
// got there; "-" when none did) and the mean time per run (solver time,
// without the observer's error and gap evaluations).
func Summary(w io.Writer, methods []Method, groups [][]*Run) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\truns\tmedian rel. err\tworst rel. err\tsteps to 1e-3 (median)\treached 1e-3\ttime/run\tsettings")
	for i, m := range methods {
		rs := groups[i]
		if len(rs) == 0 {
			fmt.Fprintf(tw, "%s\t0\t-\t-\t-\t-\t-\t%s\n", m.Name, m.Note)
			continue
		}
		var fin, st []float64
		var tot time.Duration
		worst := 0.0
		for _, r := range rs {
			fin = append(fin, r.Final)
			if r.Final > worst || math.IsNaN(r.Final) {
				worst = r.Final
			}
			if k := r.StepsTo(1e-3); k >= 0 {
				st = append(st, float64(k))
			}
			tot += r.Time
		}
		s := "-"
		if len(st) > 0 {
			s = fmt.Sprintf("%.3g", median(st))
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3e\t%.3e\t%s\t%d/%d\t%v\t%s\n", m.Name, len(rs), median(fin), worst, s, len(st), len(rs),
			(tot / time.Duration(len(rs))).Round(time.Millisecond), m.Note)
	}
	tw.Flush()
}

// writeIndex writes index.html showing every figure with its caption and
// the summary text.
func writeIndex(dir, title, summary string, figs [][2]string) error {
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>\n", html.EscapeString(title))
	fmt.Fprint(w, "<style>body{font-family:sans-serif;max-width:1500px;margin:auto} figure{display:inline-block;margin:8px} pre{background:#f6f6f6;padding:8px;overflow-x:auto}</style></head><body>\n")
	fmt.Fprintf(w, "<h1>%s</h1>\n<pre>%s</pre>\n", html.EscapeString(title), html.EscapeString(summary))
	for _, fg := range figs {
		fmt.Fprintf(w, "<figure><img src=\"%s\" width=\"720\" height=\"450\" alt=\"%s\"><figcaption>%s</figcaption></figure>\n",
			html.EscapeString(fg[0]), html.EscapeString(fg[1]), html.EscapeString(fg[1]))
	}
	fmt.Fprint(w, "</body></html>\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
