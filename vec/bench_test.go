package vec

import (
	"fmt"
	"testing"
)

var benchSizes = []int{16, 100, 1000, 10000, 1000000}

// benchKernel runs one kernel on every path at every size, reporting MB/s
// (bytes read and written per call) and ns/element.
func benchKernel(b *testing.B, bytesPerElem int, body func(p Path, x, y, z []float64)) {
	for _, p := range Paths() {
		for _, n := range benchSizes {
			x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = float64(i%13)*0.1-0.6, float64(i%7)*0.2-0.5
			}
			b.Run(fmt.Sprintf("%s/n=%d", p.Name, n), func(b *testing.B) {
				b.SetBytes(int64(bytesPerElem * n))
				for b.Loop() {
					body(p, x, y, z)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
	}
}

var sink float64

func BenchmarkDot(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, y, _ []float64) { sink += p.Dot(x, y) })
}
func BenchmarkAxpy(b *testing.B) {
	benchKernel(b, 24, func(p Path, x, y, _ []float64) { p.Axpy(1e-9, x, y) })
}
func BenchmarkScale(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, _ []float64) { p.Scale(1, x) })
}
func BenchmarkAxpbyTo(b *testing.B) {
	benchKernel(b, 24, func(p Path, x, y, z []float64) { p.AxpbyTo(z, 0.5, x, 0.5, y) })
}
func BenchmarkStep(b *testing.B) {
	benchKernel(b, 32, func(p Path, x, y, z []float64) { p.Step(1, 1e-9, x, 1e-9, y, z) })
}
func BenchmarkSoftplus(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, z []float64) { p.Softplus(z, x) })
}
func BenchmarkSigmoid(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, z []float64) { p.Sigmoid(z, x) })
}
func BenchmarkSigmoidScaled(b *testing.B) {
	benchKernel(b, 16, func(p Path, x, _, z []float64) { p.SigmoidScaled(z, x, 2, 3) })
}
func BenchmarkSoftplusSum(b *testing.B) {
	benchKernel(b, 8, func(p Path, x, _, _ []float64) { sink += p.SoftplusSum(x, 2) })
}

// BenchmarkSumSqDot compares SumSqDot with the two Dot calls it replaces
// (x'x and x'y), on every path, at row lengths of the active-set method's
// set-up. ns/op is the time of both results.
func BenchmarkSumSqDot(b *testing.B) {
	for _, p := range Paths() {
		for _, n := range []int{16, 100, 256} {
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = float64(i%13)*0.1-0.6, float64((i+3)%11)*0.1-0.5
			}
			b.Run(fmt.Sprintf("%s/SumSqDot/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					ss, d := p.SumSqDot(x, y)
					sink += ss + d
				}
			})
			b.Run(fmt.Sprintf("%s/2xDot/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += p.Dot(x, x) + p.Dot(x, y)
				}
			})
		}
	}
}

// BenchmarkDot4 compares Dot4 with the four Dot calls it replaces, on every
// path, at the lengths of the Gram and Cholesky column products it is for.
// ns/dot is the time per dot product.
func BenchmarkDot4(b *testing.B) {
	for _, p := range Paths() {
		for _, n := range []int{16, 100, 256} {
			var s [5][]float64
			for j := range s {
				s[j] = make([]float64, n)
				for i := range s[j] {
					s[j][i] = float64((i+3*j)%13)*0.1 - 0.6
				}
			}
			x, y0, y1, y2, y3 := s[0], s[1], s[2], s[3], s[4]
			b.Run(fmt.Sprintf("%s/Dot4/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += dot4Sum(p.Dot4(x, y0, y1, y2, y3))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4, "ns/dot")
			})
			b.Run(fmt.Sprintf("%s/4xDot/n=%d", p.Name, n), func(b *testing.B) {
				for b.Loop() {
					sink += p.Dot(x, y0) + p.Dot(x, y1) + p.Dot(x, y2) + p.Dot(x, y3)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4, "ns/dot")
			})
		}
	}
}
