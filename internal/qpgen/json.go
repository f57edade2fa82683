package qpgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// noBound is the magnitude from which the JSON problem format reads a bound
// as absent (FORMATS.md).
const noBound = 1e20

// jsonProblem is the problem file of /work/shared/FORMATS.md with loss
// "none": P = H, q = c.
type jsonProblem struct {
	Name  string      `json:"name,omitempty"`
	N     int         `json:"n"`
	Loss  string      `json:"loss"`
	P     [][]float64 `json:"P"`
	Q     []float64   `json:"q"`
	A     [][]float64 `json:"A"`
	B     []float64   `json:"b"`
	Aeq   [][]float64 `json:"Aeq,omitempty"`
	Beq   []float64   `json:"beq,omitempty"`
	Lower []*float64  `json:"lower,omitempty"`
	Upper []*float64  `json:"upper,omitempty"`
}

// WriteJSON writes q in the project's JSON problem format (FORMATS.md):
// {"name", "n", "loss": "none", "P": H, "q": c, "A", "b", "Aeq", "beq",
// "lower", "upper"}, infinite bounds as null. Numbers are written in the
// shortest form that reads back to the same float64. It returns an error
// for non-finite data or a finite bound of magnitude >= 1e20 (which the
// format would read as no bound).
func WriteJSON(w io.Writer, q *QP) error {
	p := jsonProblem{Name: q.Name, N: q.N, Loss: "none", P: q.H, Q: q.C, A: q.A, B: q.B}
	if p.A == nil {
		p.A = [][]float64{}
		p.B = []float64{}
	}
	if len(q.Aeq) > 0 {
		p.Aeq, p.Beq = q.Aeq, q.Beq
	}
	bounds := func(v []float64, name string) ([]*float64, error) {
		if v == nil {
			return nil, nil
		}
		out := make([]*float64, len(v))
		some := false
		for i, e := range v {
			if math.IsInf(e, 0) {
				continue
			}
			if math.IsNaN(e) || math.Abs(e) >= noBound {
				return nil, fmt.Errorf("qpgen: %s[%d] = %g cannot be written as a bound", name, i, e)
			}
			e := e
			out[i] = &e
			some = true
		}
		if !some {
			return nil, nil
		}
		return out, nil
	}
	var err error
	if p.Lower, err = bounds(q.Lower, "lower"); err != nil {
		return err
	}
	if p.Upper, err = bounds(q.Upper, "upper"); err != nil {
		return err
	}
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("qpgen: %s: %w", q.Name, err)
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// jsonReference is the known answer in the field names of the result file
// of FORMATS.md, plus "z" for the bound multipliers.
type jsonReference struct {
	Name      string    `json:"name,omitempty"`
	Status    string    `json:"status"`
	X         []float64 `json:"x,omitempty"`
	Lambda    []float64 `json:"lambda,omitempty"`
	Nu        []float64 `json:"nu,omitempty"`
	Z         []float64 `json:"z,omitempty"`
	Objective *float64  `json:"objective,omitempty"`
	Exact     bool      `json:"exact"`
}

// WriteReference writes the known answer of q: {"name", "status":
// "solved", "x": XStar, "lambda", "nu", "z", "objective": F(XStar)
// (computed in big.Float and rounded), "exact"} or {"name", "status":
// "infeasible"}. It returns an error when q has no known answer.
func WriteReference(w io.Writer, q *QP) error {
	ref := jsonReference{Name: q.Name}
	switch {
	case q.Infeasible:
		ref.Status = "infeasible"
	case q.XStar != nil:
		ref.Status = "solved"
		ref.X, ref.Lambda, ref.Nu, ref.Z = q.XStar, q.LambdaStar, q.NuStar, q.ZStar
		f := f64(ObjectiveBig(q, q.XStar))
		ref.Objective = &f
		ref.Exact = q.Exact
	default:
		return errors.New("qpgen: " + q.Name + " has no known answer")
	}
	data, err := json.Marshal(ref)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
