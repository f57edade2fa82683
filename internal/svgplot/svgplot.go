// Package svgplot draws the few kinds of figure the paper's experiments
// need — line plots (convergence curves), box plots (final errors of many
// runs, optionally with every value drawn as a point) — as standalone SVG
// with axes, tick labels, optional log scales and a legend. It depends on
// the standard library only.
package svgplot

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Figure geometry, in SVG user units (pixels).
const (
	width   = 720
	height  = 450
	marginL = 80
	marginR = 20
	marginT = 40
	marginB = 60
)

// palette is a colour-blind-safe cycle (Okabe–Ito).
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

// Color returns the i-th colour of the cycle.
func Color(i int) string { return palette[i%len(palette)] }

func pick(c string, i int) string {
	if c != "" {
		return c
	}
	return Color(i)
}

// Series is one curve of a line plot. Points with a non-finite coordinate,
// or a non-positive one on a log axis, are skipped (the curve is broken
// there).
type Series struct {
	Name    string
	X, Y    []float64
	Markers bool // draw a dot at every point
	Dashed  bool
	Color   string // "" means the k-th colour of the cycle
}

// LinePlot is a plot of curves against a common x axis.
type LinePlot struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []Series
}

// Group is one box of a box plot.
type Group struct {
	Name   string
	Values []float64
	Color  string // "" means the k-th colour of the cycle
}

// BoxPlot draws one box per group: median, quartiles, whiskers to the most
// extreme values within 1.5 IQR, and the values beyond as outliers; with
// Points, every value is drawn (jittered) over its box.
type BoxPlot struct {
	Title, YLabel string
	LogY          bool
	Points        bool
	Groups        []Group
}

// axis maps data values to pixels, linearly or in log10.
type axis struct {
	log    bool
	lo, hi float64 // data range (log10 of it on a log axis)
	p0, p1 float64 // pixel range
}

func (a *axis) ok(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!a.log || v > 0)
}

func (a *axis) px(v float64) float64 {
	if a.log {
		v = math.Log10(v)
	}
	return a.p0 + (v-a.lo)/(a.hi-a.lo)*(a.p1-a.p0)
}

// fit sets the range from the finite values in vs (already filtered by ok).
func (a *axis) fit(vs []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if !a.ok(v) {
			continue
		}
		if a.log {
			v = math.Log10(v)
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	if a.log {
		lo, hi = math.Floor(lo), math.Ceil(hi)
		if hi <= lo {
			hi = lo + 1
		}
	} else {
		if hi <= lo {
			d := max(math.Abs(lo)*0.1, 1)
			lo, hi = lo-d, hi+d
		}
		step := niceStep((hi - lo) / 5)
		lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	}
	a.lo, a.hi = lo, hi
}

func niceStep(raw float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / e; {
	case f <= 1:
		return e
	case f <= 2:
		return 2 * e
	case f <= 5:
		return 5 * e
	}
	return 10 * e
}

// ticks returns the tick values (data units) and their labels.
func (a *axis) ticks() ([]float64, []string) {
	var vs []float64
	var ls []string
	if a.log {
		n := int(a.hi - a.lo)
		stride := 1
		for n/stride > 8 {
			stride++
		}
		for e := int(a.lo); e <= int(a.hi); e += stride {
			vs = append(vs, math.Pow(10, float64(e)))
			ls = append(ls, "1e"+strconv.Itoa(e))
		}
		return vs, ls
	}
	step := niceStep((a.hi - a.lo) / 5)
	for v := a.lo; v <= a.hi+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		vs = append(vs, v)
		ls = append(ls, strconv.FormatFloat(v, 'g', 4, 64))
	}
	return vs, ls
}

// writer accumulates SVG and the first error.
type writer struct {
	w   *bufio.Writer
	err error
}

func (w *writer) f(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, format, args...)
	}
}

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func (w *writer) header(title string) {
	w.f(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	w.f(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	w.f(`<text x="%d" y="22" text-anchor="middle" font-size="15">%s</text>`+"\n", (marginL+width-marginR)/2, esc(title))
}

func (w *writer) axes(xa, ya *axis, xlabel, ylabel string, xticks bool) {
	x0, x1 := float64(marginL), float64(width-marginR)
	y0, y1 := float64(height-marginB), float64(marginT)
	w.f(`<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="black"/>`+"\n", x0, y1, x1-x0, y0-y1)
	vs, ls := ya.ticks()
	for i, v := range vs {
		p := ya.px(v)
		w.f(`<line x1="%g" y1="%.2f" x2="%g" y2="%.2f" stroke="#ddd"/>`+"\n", x0, p, x1, p)
		w.f(`<text x="%g" y="%.2f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", x0-6, p, esc(ls[i]))
	}
	if xticks {
		vs, ls = xa.ticks()
		for i, v := range vs {
			p := xa.px(v)
			w.f(`<line x1="%.2f" y1="%g" x2="%.2f" y2="%g" stroke="#ddd"/>`+"\n", p, y0, p, y1)
			w.f(`<text x="%.2f" y="%g" text-anchor="middle">%s</text>`+"\n", p, y0+16, esc(ls[i]))
		}
	}
	w.f(`<text x="%g" y="%d" text-anchor="middle">%s</text>`+"\n", (x0+x1)/2, height-14, esc(xlabel))
	w.f(`<text x="18" y="%g" text-anchor="middle" transform="rotate(-90 18 %g)">%s</text>`+"\n", (y0+y1)/2, (y0+y1)/2, esc(ylabel))
}

func (w *writer) legend(names []string, dashed []bool, colors []string) {
	if len(names) == 0 {
		return
	}
	wd := 0
	for _, n := range names {
		wd = max(wd, len(n))
	}
	bw := float64(wd)*7 + 40
	x := float64(width-marginR) - bw - 8
	y := float64(marginT) + 8
	w.f(`<rect x="%g" y="%g" width="%g" height="%d" fill="white" fill-opacity="0.85" stroke="#999"/>`+"\n", x, y, bw, 16*len(names)+8)
	for i, n := range names {
		yy := y + 14 + float64(16*i)
		dash := ""
		if dashed != nil && dashed[i] {
			dash = ` stroke-dasharray="6 3"`
		}
		w.f(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="2"%s/>`+"\n", x+6, yy-4, x+28, yy-4, colors[i], dash)
		w.f(`<text x="%g" y="%g">%s</text>`+"\n", x+34, yy, esc(n))
	}
}

func (w *writer) end() error {
	w.f("</svg>\n")
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

// WriteSVG writes the line plot as a standalone SVG document.
func (p *LinePlot) WriteSVG(out io.Writer) error {
	xa := &axis{log: p.LogX, p0: marginL, p1: width - marginR}
	ya := &axis{log: p.LogY, p0: height - marginB, p1: marginT}
	var xs, ys []float64
	for _, s := range p.Series {
		for i := range s.X {
			if i < len(s.Y) && xa.ok(s.X[i]) && ya.ok(s.Y[i]) {
				xs, ys = append(xs, s.X[i]), append(ys, s.Y[i])
			}
		}
	}
	xa.fit(xs)
	ya.fit(ys)
	w := &writer{w: bufio.NewWriter(out)}
	w.header(p.Title)
	w.axes(xa, ya, p.XLabel, p.YLabel, true)
	w.f(`<g fill="none" stroke-width="1.5">` + "\n")
	names := make([]string, len(p.Series))
	dashed := make([]bool, len(p.Series))
	colors := make([]string, len(p.Series))
	for k, s := range p.Series {
		names[k], dashed[k], colors[k] = s.Name, s.Dashed, pick(s.Color, k)
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 3"`
		}
		var path strings.Builder
		pen := false
		for i := range s.X {
			if i >= len(s.Y) || !xa.ok(s.X[i]) || !ya.ok(s.Y[i]) {
				pen = false
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			fmt.Fprintf(&path, "%s%.2f %.2f ", cmd, xa.px(s.X[i]), ya.px(s.Y[i]))
			pen = true
		}
		if path.Len() > 0 {
			w.f(`<path d="%s" stroke="%s"%s><title>%s</title></path>`+"\n", strings.TrimSpace(path.String()), colors[k], dash, esc(s.Name))
		}
		if s.Markers {
			for i := range s.X {
				if i < len(s.Y) && xa.ok(s.X[i]) && ya.ok(s.Y[i]) {
					w.f(`<circle cx="%.2f" cy="%.2f" r="3" fill="%s" stroke="none"/>`+"\n", xa.px(s.X[i]), ya.px(s.Y[i]), colors[k])
				}
			}
		}
	}
	w.f("</g>\n")
	w.legend(names, dashed, colors)
	return w.end()
}

// Quantile returns the q-quantile (0 <= q <= 1) of the sorted values by
// linear interpolation; NaN for an empty slice.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// WriteSVG writes the box plot as a standalone SVG document.
func (b *BoxPlot) WriteSVG(out io.Writer) error {
	ya := &axis{log: b.LogY, p0: height - marginB, p1: marginT}
	var all []float64
	for _, g := range b.Groups {
		all = append(all, g.Values...)
	}
	ya.fit(all)
	xa := &axis{lo: 0, hi: float64(max(len(b.Groups), 1)), p0: marginL, p1: width - marginR}
	w := &writer{w: bufio.NewWriter(out)}
	w.header(b.Title)
	w.axes(xa, ya, "", b.YLabel, false)
	slot := (xa.p1 - xa.p0) / float64(max(len(b.Groups), 1))
	for k, g := range b.Groups {
		cx := xa.px(float64(k) + 0.5)
		w.f(`<text x="%.2f" y="%d" text-anchor="middle">%s</text>`+"\n", cx, height-marginB+16, esc(g.Name))
		var v []float64
		for _, x := range g.Values {
			if ya.ok(x) {
				v = append(v, x)
			}
		}
		if len(v) == 0 {
			continue
		}
		sort.Float64s(v)
		tr := func(q float64) float64 { // quantiles on the axis' scale
			if ya.log {
				lv := make([]float64, len(v))
				for i, x := range v {
					lv[i] = math.Log10(x)
				}
				return math.Pow(10, Quantile(lv, q))
			}
			return Quantile(v, q)
		}
		q1, med, q3 := tr(0.25), tr(0.5), tr(0.75)
		lq1, lq3 := q1, q3
		if ya.log {
			lq1, lq3 = math.Log10(q1), math.Log10(q3)
		}
		iqr := lq3 - lq1
		lo, hi := math.Inf(1), math.Inf(-1)
		var out []float64
		for _, x := range v {
			lx := x
			if ya.log {
				lx = math.Log10(x)
			}
			if lx < lq1-1.5*iqr || lx > lq3+1.5*iqr {
				out = append(out, x)
				continue
			}
			lo, hi = min(lo, x), max(hi, x)
		}
		bw := min(slot*0.5, 60)
		c := pick(g.Color, k)
		w.f(`<g stroke="%s" stroke-width="1.5" fill="none"><title>%s: median %.3g, quartiles %.3g / %.3g, n = %d</title>`+"\n", c, esc(g.Name), med, q1, q3, len(v))
		if !math.IsInf(lo, 0) {
			w.f(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>`+"\n", cx, ya.px(lo), cx, ya.px(q1))
			w.f(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>`+"\n", cx, ya.px(q3), cx, ya.px(hi))
			w.f(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>`+"\n", cx-bw/4, ya.px(lo), cx+bw/4, ya.px(lo))
			w.f(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>`+"\n", cx-bw/4, ya.px(hi), cx+bw/4, ya.px(hi))
		}
		w.f(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" fill-opacity="0.15"/>`+"\n", cx-bw/2, ya.px(q3), bw, max(ya.px(q1)-ya.px(q3), 0.5), c)
		w.f(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke-width="2.5"/>`+"\n", cx-bw/2, ya.px(med), cx+bw/2, ya.px(med))
		for _, x := range out {
			w.f(`<circle cx="%.2f" cy="%.2f" r="3"/>`+"\n", cx, ya.px(x))
		}
		w.f("</g>\n")
		if b.Points {
			for i, x := range v {
				// deterministic jitter
				j := (float64((i*7919)%97)/96 - 0.5) * bw * 0.8
				w.f(`<circle cx="%.2f" cy="%.2f" r="1.5" fill="%s" fill-opacity="0.5"/>`+"\n", cx+j, ya.px(x), c)
			}
		}
	}
	return w.end()
}
