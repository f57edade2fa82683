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

// path returns vec's path of that name (generic, avx2 or avx512), and
// whether this CPU runs it.
func path(name string) (vec.Path, bool) {
	for _, p := range vec.Paths() {
		if p.Name == name {
			return p, true
		}
	}
	return vec.Path{}, false
}

// softpenKernels lists one kernel per assembly path this CPU runs (avx2, then
// avx512), named softpen-PATH, made by mk from the path, then the generic
// path's if generic is set.
func softpenKernels(generic bool, mk func(p vec.Path) func(x, y, z []float64)) []kernel {
	names := []string{"avx2", "avx512"}
	if generic {
		names = append(names, "generic")
	}
	var ks []kernel
	for _, name := range names {
		if p, ok := path(name); ok {
			ks = append(ks, kernel{"softpen-" + name, repeat(mk(p))})
		}
	}
	return ks
}

// sleef lists SLEEF's 256-bit kernel and, on a CPU where vec runs avx512,
// its 512-bit one.
func sleef(k256, k512 func(dst, x []float64, reps int)) []kernel {
	ks := []kernel{{"sleef-avx2", func(x, _, z []float64, r int) { k256(z, x, r) }}}
	if _, ok := path("avx512"); ok {
		ks = append(ks, kernel{"sleef-avx512", func(x, _, z []float64, r int) { k512(z, x, r) }})
	}
	return ks
}

func BenchmarkDot(b *testing.B) {
	ks := softpenKernels(true, func(p vec.Path) func(x, y, z []float64) {
		return func(x, y, _ []float64) { sink += p.Dot(x, y) }
	})
	bench(b, []int{1000, 1000000}, 16, append(ks,
		kernel{"gonum", repeat(func(x, y, _ []float64) { sink += floats.Dot(x, y) })},
		kernel{"openblas", func(x, y, _ []float64, r int) { sink += OBDot(x, y, r) }},
	))
}

func BenchmarkAxpy(b *testing.B) {
	ks := softpenKernels(false, func(p vec.Path) func(x, y, z []float64) {
		return func(x, y, _ []float64) { p.Axpy(1e-9, x, y) }
	})
	bench(b, []int{1000, 1000000}, 24, append(ks,
		kernel{"gonum", repeat(func(x, y, _ []float64) { floats.AddScaled(y, 1e-9, x) })},
		kernel{"openblas", func(x, y, _ []float64, r int) { OBAxpy(x, y, r) }},
	))
}

func BenchmarkSoftplus(b *testing.B) {
	ks := softpenKernels(true, func(p vec.Path) func(x, y, z []float64) {
		return func(x, _, z []float64) { p.Softplus(z, x) }
	})
	bench(b, []int{1000}, 16, append(ks, sleef(SLSoftplus, SLSoftplus512)...))
}

func BenchmarkSigmoid(b *testing.B) {
	ks := softpenKernels(true, func(p vec.Path) func(x, y, z []float64) {
		return func(x, _, z []float64) { p.Sigmoid(z, x) }
	})
	bench(b, []int{1000}, 16, append(ks, sleef(SLSigmoid, SLSigmoid512)...))
}
