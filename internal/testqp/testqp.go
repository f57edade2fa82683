// Package testqp is the test support of every package: the paper's
// reference QPs (testdata/qp) and the SVM data (testdata/svm) read into
// plain slices, the generated families of the benchmarks (LargeQP,
// SeparableSVM, and the closed-loop MPC sequences of MPCSequence) drawn
// from the one seeded generator (LCG), and the small helpers every
// package's tests need (Dense, RowsOf, Norm, Dist, RelErr).
//
// It returns plain slices and imports nothing of the packages that use it
// but mat and libsvm (the root's own tests import it, and the root owns the
// full problem reader): each package wraps the data in its own types.
// The Farkas checker of the tests is qpgen.CheckFarkas.
package testqp

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"

	"github.com/softpen/softpen/libsvm"
	"github.com/softpen/softpen/mat"
)

// Problem is the subset of the problem format the paper's QPs use: the
// squared loss on Phi, y, a ridge, and the rows A x <= b. LargeQP's
// problems have the same form.
type Problem struct {
	Name  string      `json:"name"`
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

// SVMRef is the reference answer of an SVM data set (testdata/svm).
type SVMRef struct {
	X      []float64 `json:"x"`
	Active []int     `json:"active"`
}

// Mushrooms reads testdata/svm/mushrooms.libsvm and its reference from
// dir (the testdata/svm folder): labels in {-1, +1} and dense rows.
func Mushrooms(dir string) (labels []float64, rows [][]float64, ref *SVMRef, err error) {
	f, err := os.Open(filepath.Join(dir, "mushrooms.libsvm"))
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	d, err := libsvm.Read(f, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "mushrooms.ref.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	ref = new(SVMRef)
	if err := json.Unmarshal(b, ref); err != nil {
		return nil, nil, nil, err
	}
	return d.Labels, d.Rows, ref, nil
}

// HardMarginRows writes the hard-margin SVM's rows y_i a_i'x >= 1 as
// A x <= b: rows -y_i a_i (fresh copies, padded to the longest) and b = -1.
func HardMarginRows(labels []float64, rows [][]float64) (a [][]float64, b []float64) {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	a, b = make([][]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		a[i] = make([]float64, n)
		for j, v := range r {
			a[i][j] = -labels[i] * v
		}
		b[i] = -1
	}
	return a, b
}

// Dense copies rows, all of one length, into a new mat.Dense; no rows give
// nil.
func Dense(rows [][]float64) *mat.Dense {
	if len(rows) == 0 {
		return nil
	}
	d := mat.NewDense(len(rows), len(rows[0]))
	for i, r := range rows {
		copy(d.Row(i), r)
	}
	return d
}

// RowsOf returns the rows of d as slices that alias it; nil for nil.
func RowsOf(d *mat.Dense) [][]float64 {
	if d == nil {
		return nil
	}
	rows := make([][]float64, d.Rows)
	for i := range rows {
		rows[i] = d.Row(i)
	}
	return rows
}

// Norm is the Euclidean norm ||v||, summed in order (independent of vec's
// kernels).
func Norm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// Dist is the Euclidean distance ||x - y|| (over x's length).
func Dist(x, y []float64) float64 {
	var d float64
	for i := range x {
		d += (x[i] - y[i]) * (x[i] - y[i])
	}
	return math.Sqrt(d)
}

// RelErr is the relative error ||x - ref|| / ||ref|| (over ref's length).
func RelErr(x, ref []float64) float64 {
	var d, r float64
	for i := range ref {
		d += (x[i] - ref[i]) * (x[i] - ref[i])
		r += ref[i] * ref[i]
	}
	return math.Sqrt(d / r)
}

// RowExcess returns a'x - b of the sparse row (idx, val), computed
// exactly and rounded once, and its allowance for rounding: gamma_{k+1}
// (|a|'|x| + |b|), k the row's entries, what a sum of its products in
// float64 may err by. A point meets the row to rounding when the first is
// at most the second.
func RowExcess(idx []int32, val []float64, b float64, x []float64) (excess, allow float64) {
	r := new(big.Rat).SetFloat64(-b)
	size := math.Abs(b)
	for q, j := range idx {
		r.Add(r, new(big.Rat).Mul(new(big.Rat).SetFloat64(val[q]), new(big.Rat).SetFloat64(x[j])))
		size += math.Abs(val[q] * x[j])
	}
	excess, _ = r.Float64()
	k := float64(len(idx) + 1)
	return excess, k * 0x1p-53 / (1 - k*0x1p-53) * size
}
