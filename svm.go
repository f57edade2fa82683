package softpen

import (
	"math"
	"strconv"

	"github.com/softpen/softpen/mat"
)

// SVMProblem is the hard-margin SVM of the paper's section 6.2,
//
//	minimize 1/2 ||x||^2  subject to  y_i a_i'x >= 1,
//
// as a Problem: ridge 1, loss "none", rows -y_i a_i of A and b_i = -1 (no
// bias: with one-hot features a bias is redundant). n is the length of the
// longest row; shorter rows are padded with zeros. labels must be ±1 and as
// many as the rows (fewer is a programmer error and panics); rows are
// copied, never modified.
//
// With normalizeFeatures, each feature column j is first divided by its
// Euclidean norm ||a_{.j}|| (all-zero columns are left alone). The paper
// says only that "the features are normalized"; we take unit-norm columns
// because a positive column scaling keeps a separable set separable (and x
// maps back as x_j / ||a_{.j}||), whereas centring would destroy the
// implicit bias of one-hot data, and unit max-abs scaling leaves 0/1
// features unchanged. testdata/README.md compares the resulting slack
// counts with the paper's (none of the variants matches them exactly).
func SVMProblem(labels []float64, rows [][]float64, normalizeFeatures bool) *Problem {
	return svmProblem(labels, rows, normalizeFeatures, false)
}

// SVMProblemInPlace is SVMProblem without the copy: each row of the
// longest length is overwritten with -y_i a_i (scaled) and becomes p.A[i]
// itself (shorter rows are copied, padded). For callers done with the rows,
// such as a data set fresh from libsvm.Read, which saves a copy of every
// row (8 MB for mushrooms).
func SVMProblemInPlace(labels []float64, rows [][]float64, normalizeFeatures bool) *Problem {
	return svmProblem(labels, rows, normalizeFeatures, true)
}

func svmProblem(labels []float64, rows [][]float64, normalizeFeatures, inPlace bool) *Problem {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	scale := make([]float64, n)
	for j := range scale {
		scale[j] = 1
	}
	if normalizeFeatures {
		ss := make([]float64, n)
		for _, r := range rows {
			for j, v := range r {
				ss[j] += v * v
			}
		}
		for j, s := range ss {
			if s > 0 {
				scale[j] = 1 / math.Sqrt(s)
			}
		}
	}
	p := &Problem{N: n, Loss: "none", Ridge: 1, A: make([][]float64, len(rows)), B: make([]float64, len(rows))}
	var flat []float64
	if !inPlace {
		flat = make([]float64, len(rows)*n)
	}
	for i, r := range rows {
		var a []float64
		switch {
		case inPlace && len(r) == n:
			a = r
		case inPlace:
			a = make([]float64, n)
		default:
			a = flat[i*n : (i+1)*n : (i+1)*n]
		}
		for j, v := range r {
			a[j] = -labels[i] * v * scale[j]
		}
		p.A[i] = a
		p.B[i] = -1
	}
	return p
}

// SVMProblemSparse is SVMProblem on sparse rows x (n = x.Cols): the rows
// -y_i a_i of A are held in ASparse, sharing x's index arrays (x must not
// change while the problem is in use) with values of their own, so that
// MethodAuto solves it by dual coordinate descent with memory in
// proportion to the nonzeros. labels must be ±1, one per row (otherwise a
// programmer error: it panics).
func SVMProblemSparse(labels []float64, x *mat.Sparse, normalizeFeatures bool) *Problem {
	if len(labels) != x.Rows {
		panic("softpen: SVMProblemSparse: " + strconv.Itoa(len(labels)) + " labels for " + strconv.Itoa(x.Rows) + " rows")
	}
	var scale []float64
	if normalizeFeatures {
		scale = make([]float64, x.Cols)
		for k, j := range x.Idx {
			scale[j] += x.Val[k] * x.Val[k]
		}
		for j, s := range scale {
			scale[j] = 1
			if s > 0 {
				scale[j] = 1 / math.Sqrt(s)
			}
		}
	}
	a := &mat.Sparse{Rows: x.Rows, Cols: x.Cols, Ptr: x.Ptr, Idx: x.Idx, Val: make([]float64, len(x.Val))}
	b := make([]float64, x.Rows)
	for i := range b {
		b[i] = -1
		for k := x.Ptr[i]; k < x.Ptr[i+1]; k++ {
			v := -labels[i] * x.Val[k]
			if scale != nil {
				v *= scale[x.Idx[k]]
			}
			a.Val[k] = v
		}
	}
	return &Problem{N: x.Cols, Loss: "none", Ridge: 1, ASparse: a, B: b}
}
