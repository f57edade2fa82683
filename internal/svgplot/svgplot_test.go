package svgplot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

// parse checks that doc is well-formed XML with an <svg> root and returns
// the count of each element name and all text content.
func parse(t *testing.T, doc []byte) (map[string]int, string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	counts := map[string]int{}
	var text strings.Builder
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = e.Name.Local
			}
			counts[e.Name.Local]++
		case xml.CharData:
			text.Write(e)
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return counts, text.String()
}

func TestLinePlot(t *testing.T) {
	p := &LinePlot{Title: "a < b & c", XLabel: "steps", YLabel: "error", LogX: true, LogY: true,
		Series: []Series{
			{Name: "one", X: []float64{1e3, 1e4, 1e5, 1e6}, Y: []float64{1, 0.1, math.NaN(), 1e-4}},
			{Name: "two", X: []float64{1e3, 1e4}, Y: []float64{0, 0.5}, Markers: true, Dashed: true},
		}}
	var buf bytes.Buffer
	if err := p.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	c, text := parse(t, buf.Bytes())
	if c["path"] != 2 {
		t.Errorf("%d paths, want 2", c["path"])
	}
	for _, want := range []string{"a < b & c", "steps", "error", "one", "two", "1e3", "1e6", "1e-4", "1e0"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	// The NaN breaks the first curve into two pieces; the zero on a log axis is skipped.
	if n := strings.Count(buf.String(), "M"); n < 3 {
		t.Errorf("%d path starts, want >= 3", n)
	}
}

func TestBoxPlot(t *testing.T) {
	b := &BoxPlot{Title: "final", YLabel: "relative error", LogY: true, Points: true, Groups: []Group{
		{Name: "A", Values: []float64{1e-3, 2e-3, 3e-3, 5e-3, 1}},
		{Name: "B", Values: []float64{0.1}},
		{Name: "empty"},
	}}
	var buf bytes.Buffer
	if err := b.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	c, text := parse(t, buf.Bytes())
	if c["rect"] < 3 {
		t.Errorf("%d rects, want background, frame and boxes", c["rect"])
	}
	for _, want := range []string{"A", "B", "empty", "relative error"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

func TestLinearAxisAndQuantile(t *testing.T) {
	p := &LinePlot{Title: "lin", Series: []Series{{Name: "s", X: []float64{0, 1, 2}, Y: []float64{5, 5, 5}}}}
	var buf bytes.Buffer
	if err := p.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	parse(t, buf.Bytes())
	if q := Quantile([]float64{1, 2, 3, 4}, 0.5); q != 2.5 {
		t.Errorf("median %v, want 2.5", q)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("quantile of nothing is not NaN")
	}
}
