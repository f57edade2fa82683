package peers

import (
	"fmt"
	"testing"

	"github.com/softpen/softpen/vec"
	"gonum.org/v1/gonum/floats"
)

var sink float64

// kernel is one implementation of a benchmarked operation: f runs it reps
// times on x, y (inputs; y is updated by Axpy) and z (output).
type kernel struct {
	impl string
	f    func(x, y, z []float64, reps int)
}

// repeat makes a kernel function of a single call.
func repeat(call func(x, y, z []float64)) func(x, y, z []float64, reps int) {
	return func(x, y, z []float64, reps int) {
		for range reps {
			call(x, y, z)
		}
	}
}

// bench runs every kernel at every size as impl=NAME/n=SIZE, reporting
// MB/s (bpe bytes per element) and ns/element. The inputs are those of
// vec's own benchmarks.
func bench(b *testing.B, sizes []int, bpe int, ks []kernel) {
	for _, n := range sizes {
		for _, k := range ks {
			b.Run(fmt.Sprintf("impl=%s/n=%d", k.impl, n), func(b *testing.B) {
				x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
				for i := range x {
					x[i], y[i] = float64(i%13)*0.1-0.6, float64(i%7)*0.2-0.5
				}
				b.SetBytes(int64(bpe * n))
				b.ResetTimer()
				k.f(x, y, z, b.N)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
	}
}

// path returns vec's path of that name (avx2 or generic).
func path(name string) vec.Path {
	for _, p := range vec.Paths() {
		if p.Name == name {
			return p
		}
	}
	panic("no vec path " + name)
}

func BenchmarkDot(b *testing.B) {
	avx2, gen := path("avx2"), path("generic")
	bench(b, []int{1000, 1000000}, 16, []kernel{
		{"softpen-avx2", repeat(func(x, y, _ []float64) { sink += avx2.Dot(x, y) })},
		{"softpen-generic", repeat(func(x, y, _ []float64) { sink += gen.Dot(x, y) })},
		{"gonum", repeat(func(x, y, _ []float64) { sink += floats.Dot(x, y) })},
		{"openblas", func(x, y, _ []float64, r int) { sink += OBDot(x, y, r) }},
	})
}

func BenchmarkAxpy(b *testing.B) {
	avx2 := path("avx2")
	bench(b, []int{1000, 1000000}, 24, []kernel{
		{"softpen-avx2", repeat(func(x, y, _ []float64) { avx2.Axpy(1e-9, x, y) })},
		{"gonum", repeat(func(x, y, _ []float64) { floats.AddScaled(y, 1e-9, x) })},
		{"openblas", func(x, y, _ []float64, r int) { OBAxpy(x, y, r) }},
	})
}

func BenchmarkSoftplus(b *testing.B) {
	avx2, gen := path("avx2"), path("generic")
	bench(b, []int{1000}, 16, []kernel{
		{"softpen-avx2", repeat(func(x, _, z []float64) { avx2.Softplus(z, x) })},
		{"softpen-generic", repeat(func(x, _, z []float64) { gen.Softplus(z, x) })},
		{"sleef-avx2", func(x, _, z []float64, r int) { SLSoftplus(z, x, r) }},
	})
}

func BenchmarkSigmoid(b *testing.B) {
	avx2, gen := path("avx2"), path("generic")
	bench(b, []int{1000}, 16, []kernel{
		{"softpen-avx2", repeat(func(x, _, z []float64) { avx2.Sigmoid(z, x) })},
		{"softpen-generic", repeat(func(x, _, z []float64) { gen.Sigmoid(z, x) })},
		{"sleef-avx2", func(x, _, z []float64, r int) { SLSigmoid(z, x, r) }},
	})
}
