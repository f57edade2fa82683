package peers

import (
	"fmt"
	"testing"

	"github.com/softpen/softpen/vec"
	"gonum.org/v1/gonum/floats"
)

var sizes = []int{1000, 1000000}
var sink float64

func data(n int) (x, y, z []float64) {
	x, y, z = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i%13)*0.1-0.6, float64(i%7)*0.2-0.5
	}
	return
}

func run(b *testing.B, n, bpe int, f func(x, y, z []float64, reps int)) {
	x, y, z := data(n)
	b.SetBytes(int64(bpe * n))
	b.ResetTimer()
	f(x, y, z, b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

func paths() map[string]vec.Path {
	m := map[string]vec.Path{}
	for _, p := range vec.Paths() {
		m[p.Name] = p
	}
	return m
}

func BenchmarkDot(b *testing.B) {
	ps := paths()
	for _, n := range sizes {
		b.Run(fmt.Sprintf("impl=softpen-avx2/n=%d", n), func(b *testing.B) {
			run(b, n, 16, func(x, y, _ []float64, r int) {
				for range r {
					sink += ps["avx2"].Dot(x, y)
				}
			})
		})
		b.Run(fmt.Sprintf("impl=softpen-generic/n=%d", n), func(b *testing.B) {
			run(b, n, 16, func(x, y, _ []float64, r int) {
				for range r {
					sink += ps["generic"].Dot(x, y)
				}
			})
		})
		b.Run(fmt.Sprintf("impl=gonum/n=%d", n), func(b *testing.B) {
			run(b, n, 16, func(x, y, _ []float64, r int) {
				for range r {
					sink += floats.Dot(x, y)
				}
			})
		})
		b.Run(fmt.Sprintf("impl=openblas/n=%d", n), func(b *testing.B) {
			run(b, n, 16, func(x, y, _ []float64, r int) { sink += OBDot(x, y, r) })
		})
	}
}

func BenchmarkAxpy(b *testing.B) {
	ps := paths()
	for _, n := range sizes {
		b.Run(fmt.Sprintf("impl=softpen-avx2/n=%d", n), func(b *testing.B) {
			run(b, n, 24, func(x, y, _ []float64, r int) {
				for range r {
					ps["avx2"].Axpy(1e-9, x, y)
				}
			})
		})
		b.Run(fmt.Sprintf("impl=gonum/n=%d", n), func(b *testing.B) {
			run(b, n, 24, func(x, y, _ []float64, r int) {
				for range r {
					floats.AddScaled(y, 1e-9, x)
				}
			})
		})
		b.Run(fmt.Sprintf("impl=openblas/n=%d", n), func(b *testing.B) {
			run(b, n, 24, func(x, y, _ []float64, r int) { OBAxpy(x, y, r) })
		})
	}
}

func BenchmarkSoftplus(b *testing.B) {
	ps := paths()
	n := 1000
	b.Run("impl=softpen-avx2/n=1000", func(b *testing.B) {
		run(b, n, 16, func(x, _, z []float64, r int) {
			for range r {
				ps["avx2"].Softplus(z, x)
			}
		})
	})
	b.Run("impl=softpen-generic/n=1000", func(b *testing.B) {
		run(b, n, 16, func(x, _, z []float64, r int) {
			for range r {
				ps["generic"].Softplus(z, x)
			}
		})
	})
	b.Run("impl=sleef-avx2/n=1000", func(b *testing.B) {
		run(b, n, 16, func(x, _, z []float64, r int) { SLSoftplus(z, x, r) })
	})
}

func BenchmarkSigmoid(b *testing.B) {
	ps := paths()
	n := 1000
	b.Run("impl=softpen-avx2/n=1000", func(b *testing.B) {
		run(b, n, 16, func(x, _, z []float64, r int) {
			for range r {
				ps["avx2"].Sigmoid(z, x)
			}
		})
	})
	b.Run("impl=softpen-generic/n=1000", func(b *testing.B) {
		run(b, n, 16, func(x, _, z []float64, r int) {
			for range r {
				ps["generic"].Sigmoid(z, x)
			}
		})
	})
	b.Run("impl=sleef-avx2/n=1000", func(b *testing.B) {
		run(b, n, 16, func(x, _, z []float64, r int) { SLSigmoid(z, x, r) })
	})
}
