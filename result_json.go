package softpen

import (
	"bufio"
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
	LambdaBox    []*float64 `json:"lambda_box"`
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

// writeNumbers writes v to w as a JSON array (never null: [] for an
// empty v), with NaN and infinities as null, a number at a time: a result
// of 1e6 variables is not held a second time as text.
func writeNumbers(w *bufio.Writer, v []float64) {
	var num [32]byte
	w.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			w.WriteByte(',')
		}
		w.Write(appendNumber(num[:0], x))
	}
	w.WriteByte(']')
}

// WriteResult writes r as the result file of FORMATS.md: one JSON object
// with one key per line, in the order status, x, lambda, nu (when there are
// equality rows), lambda_box (when there are bounds), objective, gap,
// dist_bound, max_violation, steps, stages, kept, time_s, method, impl,
// iterations (when the active-set method ran), then, when a penalty
// method's stages ran, screened and outside (when not empty), xi and
// polished, then farkas (when the status is infeasible: the rows of A, then
// those of Aeq) and message (when not solved). stages is 0 and kept the
// number of rows when no stage ran. JSON has no Inf or NaN: such numbers
// are written as null (a dist_bound of +Inf, "no bound", is null). Numbers
// are written in the shortest form that reads back exactly. r is not
// modified.
func WriteResult(w io.Writer, r *Result) error {
	if r == nil {
		return errors.New("softpen: WriteResult: nil result")
	}
	// Written as it is made: the arrays of a large result are the size
	// of its solution again as text, and twice that in a buffer grown to
	// hold them.
	bw := bufio.NewWriter(w)
	first := true
	key := func(k string) {
		if first {
			bw.WriteString("{\n")
			first = false
		} else {
			bw.WriteString(",\n")
		}
		bw.WriteString(` "` + k + `": `)
	}
	put := func(k string, val []byte) {
		key(k)
		bw.Write(val)
	}
	numbers := func(k string, v []float64) {
		key(k)
		writeNumbers(bw, v)
	}
	str := func(s string) []byte { b, _ := json.Marshal(s); return b }
	put("status", str(r.Status.String()))
	numbers("x", r.X)
	numbers("lambda", r.Lambda)
	if len(r.Nu) > 0 {
		numbers("nu", r.Nu)
	}
	if r.LambdaBox != nil {
		numbers("lambda_box", r.LambdaBox)
	}
	put("objective", jsonNumber(r.Objective))
	put("gap", jsonNumber(r.Gap))
	put("dist_bound", jsonNumber(r.DistBound))
	put("max_violation", jsonNumber(r.MaxViolation))
	put("steps", []byte(strconv.FormatInt(r.Steps, 10)))
	stages, kept := 0, len(r.Lambda)+len(r.Nu)
	if r.Penalty != nil {
		stages, kept = r.Penalty.Stages, r.Penalty.Kept
	}
	put("stages", []byte(strconv.Itoa(stages)))
	put("kept", []byte(strconv.Itoa(kept)))
	put("time_s", jsonNumber(r.Time.Seconds()))
	put("method", str(r.Method.String()))
	put("impl", str(r.Impl))
	if r.Iterations > 0 {
		put("iterations", []byte(strconv.Itoa(r.Iterations)))
	}
	if pen := r.Penalty; pen != nil {
		if len(pen.Screened) > 0 {
			d, _ := json.Marshal(pen.Screened)
			put("screened", d)
		}
		if len(pen.Outside) > 0 {
			d, _ := json.Marshal(pen.Outside)
			put("outside", d)
		}
		put("xi", jsonNumber(pen.Xi))
		put("polished", []byte(strconv.FormatBool(pen.Polished)))
	}
	if r.Status == StatusInfeasible {
		numbers("farkas", append(append(make([]float64, 0, len(r.FarkasA)+len(r.FarkasEq)), r.FarkasA...), r.FarkasEq...))
	}
	if r.Message != "" {
		put("message", str(r.Message))
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// ReadResult reads a result file as WriteResult writes it (keys it does
// not know are ignored, so later additions to the format still read). A
// null number comes back as +Inf for gap and dist_bound and as NaN
// elsewhere; an unknown status or method is an error. Info.Penalty is set
// when the file has stages or xi. For tests and tools: the Result is
// freshly allocated and owned by the caller.
func ReadResult(rd io.Reader) (*Result, error) {
	var in resultJSON
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	r := &Result{
		Solution: Solution{X: values(in.X), Lambda: values(in.Lambda), Nu: values(in.Nu), LambdaBox: values(in.LambdaBox)},
		Info: Info{Objective: value(in.Objective, math.NaN()), Gap: value(in.Gap, math.Inf(1)),
			DistBound: value(in.DistBound, math.Inf(1)), MaxViolation: value(in.MaxViolation, math.NaN()),
			Steps: in.Steps, Iterations: in.Iterations, Message: in.Message,
			Time: time.Duration(math.Round(value(in.TimeS, 0) * 1e9)), Impl: in.Impl},
	}
	if in.Stages > 0 || in.Xi != nil {
		r.Penalty = &PenaltyInfo{Stages: in.Stages, Kept: in.Kept, Xi: value(in.Xi, math.NaN()),
			Screened: in.Screened, Outside: in.Outside, Polished: in.Polished}
	}
	if f := values(in.Farkas); f != nil {
		m := min(len(r.Lambda), len(f))
		r.FarkasA, r.FarkasEq = f[:m], f[m:]
	}
	r.Status = -1
	for st := StatusSolved; st <= StatusPrecisionLimit; st++ {
		if st.String() == in.Status {
			r.Status = st
		}
	}
	if r.Status < 0 {
		return nil, fmt.Errorf("result: status %q: want solved, max_steps, time_limit, infeasible, canceled or precision_limit", in.Status)
	}
	m, err := ParseMethod(in.Method)
	if err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	r.Method = m
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
