// Package testqp reads the paper's reference QPs (testdata/qp) for the tests
// of the packages below the root, which owns the full problem reader: one
// reader of the subset of the format those tests need.
package testqp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Problem is the subset of the problem format the paper's QPs use: the
// squared loss on Phi, y, a ridge, and the rows A x <= b.
type Problem struct {
	N     int         `json:"n"`
	Loss  string      `json:"loss"`
	Phi   [][]float64 `json:"phi"`
	Y     []float64   `json:"y"`
	Ridge float64     `json:"ridge"`
	A     [][]float64 `json:"A"`
	B     []float64   `json:"b"`
}

// Solution is the reference answer stored beside a problem.
type Solution struct {
	X         []float64 `json:"x"`
	Lambda    []float64 `json:"lambda"`
	Objective float64   `json:"objective"`
	Active    []int     `json:"active"`
	LambdaInf float64   `json:"lambda_inf"`
}

// Paper reads paper-qp-100-s<seed>.json and its .ref.json from dir.
func Paper(dir string, seed int) (*Problem, *Solution, error) {
	base := filepath.Join(dir, fmt.Sprintf("paper-qp-100-s%d", seed))
	var p Problem
	var ref Solution
	for _, f := range []struct {
		path string
		v    any
	}{{base + ".json", &p}, {base + ".ref.json", &ref}} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(b, f.v); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f.path, err)
		}
	}
	return &p, &ref, nil
}
