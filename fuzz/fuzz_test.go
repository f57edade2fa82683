package fuzz

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
	"github.com/softpen/softpen/vec"
)

// floats decodes 8 bytes per float64.
func floats(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

func ulpDiff(a, b float64) float64 {
	if a == b || math.IsNaN(a) && math.IsNaN(b) {
		return 0
	}
	return math.Abs(a-b) / math.Max(ulp(a), ulp(b))
}

func ulp(x float64) float64 {
	x = math.Abs(x)
	if math.IsInf(x, 0) {
		return math.Inf(1)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

// FuzzKernels compares every kernel path with the generic one on
// fuzzer-chosen lengths, offsets and values: Dot within the summation bound
// 2 n eps sum|x_i y_i|, Axpy exactly or within an ulp per element (FMA),
// Softplus/Sigmoid within 8 ulp of each other (each is within 4 of exact).
func FuzzKernels(f *testing.F) {
	f.Add(uint8(0), []byte{}, 0.5)
	f.Add(uint8(3), bytes.Repeat([]byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 1}, 37), -2.0)
	f.Fuzz(func(t *testing.T, off uint8, data []byte, alpha float64) {
		all := floats(data)
		o := int(off % 8)
		if o > len(all) {
			o = len(all)
		}
		x := all[o:]
		n := len(x) / 2
		a, b := x[:n], x[n:2*n]
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e150 {
				return // the bounds below assume finite products
			}
		}
		paths := vec.Paths()
		g := paths[0]
		for _, p := range paths[1:] {
			d0, d1 := g.Dot(a, b), p.Dot(a, b)
			var s float64
			for i := range a {
				s += math.Abs(a[i] * b[i])
			}
			if math.Abs(d0-d1) > 2*float64(n+1)*0x1p-52*s {
				t.Fatalf("%s Dot %v vs generic %v (n=%d)", p.Name, d1, d0, n)
			}
			y0, y1 := append([]float64(nil), b...), append([]float64(nil), b...)
			g.Axpy(alpha, a, y0)
			p.Axpy(alpha, a, y1)
			for i := range y0 {
				if math.Abs(y0[i]-y1[i]) > 2*ulp(alpha*a[i])+ulp(y0[i]) {
					t.Fatalf("%s Axpy[%d] %v vs %v", p.Name, i, y1[i], y0[i])
				}
			}
			s0, s1 := make([]float64, n), make([]float64, n)
			g.Softplus(s0, a)
			p.Softplus(s1, a)
			for i := range s0 {
				if ulpDiff(s0[i], s1[i]) > 8 {
					t.Fatalf("%s Softplus(%v) = %v vs %v", p.Name, a[i], s1[i], s0[i])
				}
			}
			g.Sigmoid(s0, a)
			p.Sigmoid(s1, a)
			for i := range s0 {
				if ulpDiff(s0[i], s1[i]) > 8 {
					t.Fatalf("%s Sigmoid(%v) = %v vs %v", p.Name, a[i], s1[i], s0[i])
				}
			}
		}
	})
}

// FuzzSpecialValues feeds Softplus and Sigmoid arbitrary bit patterns: no NaN
// from a non-NaN input, softplus >= max(x, 0), sigmoid in [0, 1].
func FuzzSpecialValues(f *testing.F) {
	f.Add(uint64(0x7ff0000000000000))
	f.Add(uint64(0x0000000000000001))
	f.Add(uint64(0xc086232bdd7abcd2))
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := []float64{math.Float64frombits(bits)}
		for _, p := range vec.Paths() {
			sp, sg := make([]float64, 1), make([]float64, 1)
			p.Softplus(sp, x)
			p.Sigmoid(sg, x)
			if math.IsNaN(x[0]) {
				continue
			}
			if math.IsNaN(sp[0]) || sp[0] < math.Max(x[0], 0) {
				t.Fatalf("%s Softplus(%v) = %v", p.Name, x[0], sp[0])
			}
			if !(sg[0] >= 0 && sg[0] <= 1) {
				t.Fatalf("%s Sigmoid(%v) = %v", p.Name, x[0], sg[0])
			}
		}
	})
}

// FuzzReadProblem: arbitrary bytes never panic the reader, the validator or
// the solver's setup.
func FuzzReadProblem(f *testing.F) {
	f.Add([]byte(`{"n": 2, "loss": "none", "ridge": 1, "q": [-1, -1], "A": [[1, 1]], "b": [1]}`))
	f.Add([]byte(`{"n": 1, "loss": "logistic", "phi": [[1]], "y": [1], "ridge": 1, "lower": [null], "upper": [1e30]}`))
	f.Add([]byte(`{"n": 2, "loss": "squared", "phi": [[1,2]], "y": [0], "P": [[1,0],[0,1]], "Aeq": [[1,0]], "beq": [2]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := softpen.ReadProblem(bytes.NewReader(data))
		if err != nil || p.Validate() != nil {
			return
		}
		if p.N > 50 || len(p.A)+len(p.Phi)+len(p.Aeq) > 200 {
			return
		}
		softpen.Solve(context.Background(), p, &softpen.Options{MaxSteps: 20000})
	})
}

// FuzzLIBSVM: arbitrary bytes never panic; a successful read has labels
// ±1, rows of NFeatures finite values.
func FuzzLIBSVM(f *testing.F) {
	f.Add([]byte("1 1:0.5 3:1\n-1 2:1\n"))
	f.Add([]byte("2 1:1 # c\r\n1 4:-2\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := libsvm.Read(bytes.NewReader(data), 0)
		if err != nil {
			return
		}
		if d.NFeatures > 1<<16 {
			return
		}
		for i, r := range d.Rows {
			if d.Labels[i] != 1 && d.Labels[i] != -1 || len(r) != d.NFeatures {
				t.Fatalf("row %d: label %v, %d values", i, d.Labels[i], len(r))
			}
			for _, v := range r {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d: %v", i, v)
				}
			}
		}
	})
}
