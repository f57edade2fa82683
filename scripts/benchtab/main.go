// Command benchtab turns `go test -bench` output into a markdown table:
// one row per benchmark, one column per metric, each cell the median of
// the runs with their spread (lowest-highest), as benchstat summarises
// them. The table is headed by what the output itself says of the machine
// (cpu, goos, goarch), the commit, the date and the command that made it,
// so that a figure is never quoted without them.
//
//	go test -run '^$' -bench X -count 5 ./pkg | benchtab -title T -cmd 'go test ...' -commit C -date D
//
// scripts/benchmarks.sh runs it once per section of BENCHMARKS.md.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// result is one benchmark's runs: each metric's values in run order.
type result struct {
	name    string
	metrics map[string][]float64
}

// table is a parsed `go test -bench` output.
type table struct {
	cpu, goos, goarch string
	results           []*result
	units             []string // metric units in order of first appearance
}

// procSuffix is the -GOMAXPROCS suffix the testing package adds to a name.
var procSuffix = regexp.MustCompile(`-\d+$`)

// parse reads benchmark lines ("BenchmarkX-2  N  v unit  v unit ...") and
// the header lines; everything else (logs, PASS, ok) is skipped.
func parse(r io.Reader) (*table, error) {
	t := &table{}
	byName := map[string]*result{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, h := range []struct {
			key string
			dst *string
		}{{"cpu: ", &t.cpu}, {"goos: ", &t.goos}, {"goarch: ", &t.goarch}} {
			if strings.HasPrefix(line, h.key) {
				*h.dst = strings.TrimPrefix(line, h.key)
			}
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := procSuffix.ReplaceAllString(strings.TrimPrefix(f[0], "Benchmark"), "")
		res := byName[name]
		if res == nil {
			res = &result{name: name, metrics: map[string][]float64{}}
			byName[name] = res
			t.results = append(t.results, res)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", line, err)
			}
			unit := f[i+1]
			if !slices.Contains(t.units, unit) {
				t.units = append(t.units, unit)
			}
			res.metrics[unit] = append(res.metrics[unit], v)
		}
	}
	return t, sc.Err()
}

// median returns the median of v (the mean of the middle two for an even
// count) and its lowest and highest values.
func median(v []float64) (med, lo, hi float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

// timeUnits rescales ns/op for reading: the unit that keeps the median
// between 1 and 1000.
var timeUnits = []struct {
	name  string
	scale float64
}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}

// cell formats a metric's runs: "median (lo-hi)", or the value alone when
// every run gave the same (a count, not a time).
func cell(unit string, v []float64) (string, string) {
	if len(v) == 0 {
		return "", unit
	}
	med, lo, hi := median(v)
	scale := 1.0
	if unit == "ns/op" {
		unit = "ns/op"
		for _, u := range timeUnits {
			if med >= u.scale {
				unit, scale = u.name, u.scale
				break
			}
		}
	}
	if lo == hi {
		return num(med / scale), unit
	}
	return fmt.Sprintf("%s (%s-%s)", num(med/scale), num(lo/scale), num(hi/scale)), unit
}

// num writes v with three significant digits.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e7 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// write prints the section: its title, the header of where and how the
// figures were made, and the table.
func write(w io.Writer, t *table, title, cmd, commit, date, note string) {
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "commit %s, %s, %s (%s/%s)  \n", commit, date, t.cpu, t.goos, t.goarch)
	fmt.Fprintf(w, "`%s`\n\n", cmd)
	if note != "" {
		fmt.Fprintf(w, "%s\n\n", note)
	}
	runs := 0
	for _, r := range t.results {
		runs = max(runs, len(r.metrics["ns/op"]))
	}
	fmt.Fprintf(w, "Median of %d runs (lowest-highest).\n\n", runs)
	header := []string{"benchmark"}
	for _, u := range t.units {
		if u == "ns/op" {
			header = append(header, "time/op")
		} else {
			header = append(header, u)
		}
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
	for _, r := range t.results {
		row := []string{r.name}
		for _, u := range t.units {
			c, unit := cell(u, r.metrics[u])
			if u == "ns/op" && c != "" {
				c += " " + unit
			}
			row = append(row, c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintln(w)
}

func main() {
	title := flag.String("title", "", "the section's title")
	cmd := flag.String("cmd", "", "the command that made the input")
	commit := flag.String("commit", "", "the commit measured")
	date := flag.String("date", "", "the date of the run")
	note := flag.String("note", "", "one paragraph under the header")
	flag.Parse()
	t, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtab:", err)
		os.Exit(1)
	}
	if len(t.results) == 0 {
		fmt.Fprintln(os.Stderr, "benchtab: no benchmark lines in the input")
		os.Exit(1)
	}
	write(os.Stdout, t, *title, *cmd, *commit, *date, *note)
}
