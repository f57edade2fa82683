package activeset

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestBadInput: malformed problems are errors naming the field.
func TestBadInput(t *testing.T) {
	id := dense([][]float64{{1, 0}, {0, 1}})
	for _, tc := range []struct {
		p     Problem
		field string
	}{
		{Problem{N: 0}, "N"},
		{Problem{N: 2, C: []float64{0, 0}}, "H"},
		{Problem{N: 2, H: id}, "C"},
		{Problem{N: 2, H: id, C: []float64{0, math.NaN()}}, "C[1]"},
		{Problem{N: 2, H: id, C: []float64{0, 0}, A: dense([][]float64{{1, 1}})}, "B"},
		{Problem{N: 2, H: id, C: []float64{0, 0}, A: dense([][]float64{{1, math.Inf(1)}}), B: []float64{1}}, "A[0]: column 1"},
		{Problem{N: 2, H: id, C: []float64{0, 0}, Lower: []float64{1, 0}, Upper: []float64{0, 0}}, "Lower[0]"},
		{Problem{N: 2, H: id, C: []float64{0, 0}, Upper: []float64{0}}, "Upper"},
	} {
		_, err := New(&tc.p, nil)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("want an error naming %s, got %v", tc.field, err)
		}
	}
	_, err := New(&Problem{N: 2, H: dense([][]float64{{1, 2}, {2, 1}}), C: []float64{0, 0}}, nil)
	if err == nil {
		t.Error("an indefinite H was accepted")
	}
}

// TestOptionsRefused: options no solve can take are refused by New with
// an *InputError naming the field: a Mu that is negative, infinite or NaN
// (a wrong lower bound on H's eigenvalues makes certificates that do not
// hold), and NaN or infinite tolerances. Mu = 0 (none) and a true bound
// are taken.
func TestOptionsRefused(t *testing.T) {
	p := &Problem{N: 2, H: dense([][]float64{{1, 0}, {0, 1}}), C: []float64{1, -1}}
	for _, c := range []struct {
		opt   Options
		field string
	}{
		{Options{Mu: -1}, "Options.Mu"},
		{Options{Mu: math.NaN()}, "Options.Mu"},
		{Options{Mu: math.Inf(1)}, "Options.Mu"},
		{Options{PrimalTol: math.NaN()}, "Options.PrimalTol"},
		{Options{DualTol: math.Inf(1)}, "Options.DualTol"},
	} {
		_, err := New(p, &c.opt)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("%+v: %v, want an *InputError naming %s", c.opt, err, c.field)
		}
	}
	for _, mu := range []float64{0, 1} {
		if _, err := New(p, &Options{Mu: mu}); err != nil {
			t.Errorf("Mu = %g: %v", mu, err)
		}
	}
}
