package softpen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// resultJSON is the result file of FORMATS.md, in reading form: every
// number may be null (JSON has no Inf or NaN).
type resultJSON struct {
	Status       string     `json:"status"`
	X            []*float64 `json:"x"`
	Lambda       []*float64 `json:"lambda"`
	Nu           []*float64 `json:"nu"`
	Objective    *float64   `json:"objective"`
	Gap          *float64   `json:"gap"`
	DistBound    *float64   `json:"dist_bound"`
	MaxViolation *float64   `json:"max_violation"`
	Steps        int64      `json:"steps"`
	Stages       int        `json:"stages"`
	Kept         int        `json:"kept"`
	TimeS        *float64   `json:"time_s"`
	Method       string     `json:"method"`
	Impl         string     `json:"impl"`
	Screened     []int      `json:"screened"`
	Outside      []int      `json:"outside"`
	Farkas       []*float64 `json:"farkas"`
	Xi           *float64   `json:"xi"`
	Polished     bool       `json:"polished"`
	Iterations   int        `json:"iterations"`
	Message      string     `json:"message"`
}

// appendNumber appends v as JSON: the shortest form that reads back
// exactly, or null when v is NaN or infinite.
func appendNumber(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

func jsonNumber(v float64) []byte { return appendNumber(nil, v) }

// jsonNumbers is v as a JSON array (never null: [] for an empty v), with
// NaN and infinities as null.
func jsonNumbers(v []float64) []byte {
	b := make([]byte, 0, 2+20*len(v))
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNumber(b, x)
	}
	return append(b, ']')
}

// WriteResult writes r as the result file of FORMATS.md: one JSON object
// with one key per line, in the order status, x, lambda, nu (when there are
// equality rows), objective, gap, dist_bound, max_violation, steps, stages,
// kept, time_s, method, impl, then screened and outside (when not empty),
// farkas (when the status is infeasible), xi and polished. JSON has no Inf
// or NaN: such numbers are written as null (a dist_bound of +Inf, "no
// bound", is null). Numbers are written in the shortest form that reads back
// exactly. r is not modified.
func WriteResult(w io.Writer, r *Result) error {
	if r == nil {
		return errors.New("softpen: WriteResult: nil result")
	}
	var buf bytes.Buffer
	first := true
	put := func(key string, val []byte) {
		if first {
			buf.WriteString("{\n")
			first = false
		} else {
			buf.WriteString(",\n")
		}
		buf.WriteString(` "` + key + `": `)
		buf.Write(val)
	}
	str := func(s string) []byte { b, _ := json.Marshal(s); return b }
	put("status", str(r.Status.String()))
	put("x", jsonNumbers(r.X))
	put("lambda", jsonNumbers(r.Lambda))
	if len(r.Nu) > 0 {
		put("nu", jsonNumbers(r.Nu))
	}
	put("objective", jsonNumber(r.Objective))
	put("gap", jsonNumber(r.Gap))
	put("dist_bound", jsonNumber(r.DistBound))
	put("max_violation", jsonNumber(r.MaxViolation))
	put("steps", []byte(strconv.FormatInt(r.Steps, 10)))
	put("stages", []byte(strconv.Itoa(r.Stages)))
	put("kept", []byte(strconv.Itoa(r.Kept)))
	put("time_s", jsonNumber(r.Time.Seconds()))
	put("method", str(r.Method))
	put("impl", str(r.Impl))
	if len(r.Screened) > 0 {
		d, _ := json.Marshal(r.Screened)
		put("screened", d)
	}
	if len(r.Outside) > 0 {
		d, _ := json.Marshal(r.Outside)
		put("outside", d)
	}
	if r.Status == StatusInfeasible {
		put("farkas", jsonNumbers(r.Farkas))
	}
	put("xi", jsonNumber(r.Xi))
	put("polished", []byte(strconv.FormatBool(r.Polished)))
	if r.Iterations > 0 {
		put("iterations", []byte(strconv.Itoa(r.Iterations)))
	}
	if r.Message != "" {
		put("message", str(r.Message))
	}
	buf.WriteString("\n}\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadResult reads a result file as WriteResult writes it (keys it does not
// know are ignored, so later additions to the format still read). A null
// number comes back as +Inf for gap and dist_bound and as NaN elsewhere; an
// unknown status is an error. For tests and tools: the Result is freshly
// allocated and owned by the caller.
func ReadResult(rd io.Reader) (*Result, error) {
	var in resultJSON
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	r := &Result{
		X: values(in.X), Lambda: values(in.Lambda), Nu: values(in.Nu),
		Objective: value(in.Objective, math.NaN()), Gap: value(in.Gap, math.Inf(1)),
		DistBound: value(in.DistBound, math.Inf(1)), MaxViolation: value(in.MaxViolation, math.NaN()),
		Steps: in.Steps, Stages: in.Stages, Kept: in.Kept, Screened: in.Screened, Outside: in.Outside, Farkas: values(in.Farkas),
		Xi: value(in.Xi, math.NaN()), Polished: in.Polished, Iterations: in.Iterations, Message: in.Message,
		Time:   time.Duration(math.Round(value(in.TimeS, 0) * 1e9)),
		Method: in.Method, Impl: in.Impl,
	}
	r.Status = -1
	for s := Status(0); s < 256 && r.Status < 0; s++ {
		if s.String() == in.Status {
			r.Status = s
		}
	}
	if r.Status < 0 {
		return nil, fmt.Errorf("result: status %q: want solved, max_steps, time_limit, infeasible or canceled", in.Status)
	}
	return r, nil
}

func value(p *float64, none float64) float64 {
	if p == nil {
		return none
	}
	return *p
}

func values(p []*float64) []float64 {
	if p == nil {
		return nil
	}
	out := make([]float64, len(p))
	for i := range p {
		out[i] = value(p[i], math.NaN())
	}
	return out
}
