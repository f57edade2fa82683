package softpen

import (
	"encoding/json"
	"io"
	"math"
	"time"
)

// resultJSON is the result file of FORMATS.md. JSON has no Inf or NaN:
// such values are written as null.
type resultJSON struct {
	Status       string    `json:"status"`
	X            []float64 `json:"x"`
	Lambda       []float64 `json:"lambda"`
	Nu           []float64 `json:"nu,omitempty"`
	Objective    *float64  `json:"objective"`
	Gap          *float64  `json:"gap"`
	DistBound    *float64  `json:"dist_bound"`
	MaxViolation *float64  `json:"max_violation"`
	Steps        int64     `json:"steps"`
	Stages       int       `json:"stages"`
	Kept         int       `json:"kept"`
	Dropped      []int     `json:"dropped,omitempty"`
	Farkas       []float64 `json:"farkas,omitempty"`
	Xi           float64   `json:"xi"`
	Polished     bool      `json:"polished"`
	TimeS        float64   `json:"time_s"`
	Method       string    `json:"method"`
	Impl         string    `json:"impl"`
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// WriteResult writes r as the result JSON of FORMATS.md (one object,
// indented, with a final newline). "dropped" appears when screening dropped
// rows, "farkas" when the status is infeasible.
func WriteResult(w io.Writer, r *Result) error {
	out := resultJSON{
		Status: r.Status.String(), X: r.X, Lambda: r.Lambda, Nu: r.Nu,
		Objective: finite(r.Objective), Gap: finite(r.Gap), DistBound: finite(r.DistBound),
		MaxViolation: finite(r.MaxViolation), Steps: r.Steps, Stages: r.Stages, Kept: r.Kept,
		Dropped: r.Dropped, Xi: r.Xi, Polished: r.Polished, TimeS: r.Time.Seconds(),
		Method: r.Method, Impl: r.Impl,
	}
	if out.Lambda == nil {
		out.Lambda = []float64{}
	}
	if r.Status == StatusInfeasible {
		out.Farkas = r.Farkas
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

// ReadResult reads a result file written by WriteResult; null numbers come
// back as +Inf (gap, dist_bound) or NaN (objective, max_violation).
func ReadResult(rd io.Reader) (*Result, error) {
	var in resultJSON
	if err := json.NewDecoder(rd).Decode(&in); err != nil {
		return nil, err
	}
	val := func(p *float64, none float64) float64 {
		if p == nil {
			return none
		}
		return *p
	}
	r := &Result{
		X: in.X, Lambda: in.Lambda, Nu: in.Nu,
		Objective: val(in.Objective, math.NaN()), Gap: val(in.Gap, math.Inf(1)),
		DistBound: val(in.DistBound, math.Inf(1)), MaxViolation: val(in.MaxViolation, math.NaN()),
		Steps: in.Steps, Stages: in.Stages, Kept: in.Kept, Dropped: in.Dropped, Farkas: in.Farkas,
		Xi: in.Xi, Polished: in.Polished, Time: time.Duration(in.TimeS * 1e9),
		Method: in.Method, Impl: in.Impl,
	}
	for s := StatusSolved; s <= StatusCanceled; s++ {
		if s.String() == in.Status {
			r.Status = s
		}
	}
	return r, nil
}
