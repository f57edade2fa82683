package qpgen

import (
	"math"
	"math/rand/v2"
)

// UnscaledSVM draws a hard-margin SVM the way real data arrives: n raw
// features whose column scales spread over 1e-3..1e4, many of them small
// integers with zeros (counts, pixels), duplicated rows, and a margin so
// thin that the multipliers of the unit rows reach 1e6..1e10. The labels
// come from a hyperplane w in the raw features; every point is moved to
// distance at least margin * ||w|| from it on its own side, so the set is
// separable by construction. With flip, the last row repeats another row
// with the opposite label: no x satisfies both (y a'x >= 1 and
// -y a'x >= 1), so the problem is infeasible.
func UnscaledSVM(m, n int, margin float64, flip bool, seed uint64) (labels []float64, rows [][]float64) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	scale := make([]float64, n)
	integer := make([]bool, n)
	for k := range scale {
		scale[k] = math.Pow(10, -3+7*r.Float64())
		integer[k] = r.IntN(3) == 0
	}
	w := make([]float64, n)
	var ww float64
	for k := range w {
		w[k] = r.NormFloat64() / scale[k]
		ww += w[k] * w[k]
	}
	wn := math.Sqrt(ww)
	for len(rows) < m {
		if len(rows) > 0 && r.IntN(10) == 0 { // a duplicate
			i := r.IntN(len(rows))
			rows, labels = append(rows, append([]float64(nil), rows[i]...)), append(labels, labels[i])
			continue
		}
		a := make([]float64, n)
		for k := range a {
			switch {
			case integer[k]:
				a[k] = float64(max(0, r.IntN(17)-6)) * scale[k]
			default:
				a[k] = r.NormFloat64() * scale[k]
			}
		}
		s := dot(w, a) / wn // signed distance to the hyperplane
		if math.Abs(s) < margin {
			continue // too close: draw again (keeps integer features integer)
		}
		rows, labels = append(rows, a), append(labels, math.Copysign(1, s))
	}
	if flip {
		i := r.IntN(m)
		rows[m-1], labels[m-1] = append([]float64(nil), rows[i]...), -labels[i]
	}
	return labels, rows
}

func dot(x, y []float64) float64 {
	var s float64
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}
