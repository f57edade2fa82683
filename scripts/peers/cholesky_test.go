package peers

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// BenchmarkCholesky: the Cholesky factor of B'B + I, softpen's
// mat.Cholesky.Factor (blocked above n = 256; it copies the lower
// triangle first) on one goroutine and on two (Threads = 2) against
// OpenBLAS's dpotrf (one thread; the matrix copied into its work array
// each time too), at mat's BenchmarkCholesky sizes from n = 500.
// GFLOP/s counts n^3/3 flops.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 3000} {
		src := mat.NewDense(n, n)
		for i := range src.Data {
			src.Data[i] = math.Sin(float64(i + 1))
		}
		a := mat.NewDense(n, n)
		src.Gram(a, 1)
		a.AddDiag(1)
		work := make([]float64, n*n)
		flops := float64(n) * float64(n) * float64(n) / 3
		b.Run(fmt.Sprintf("n=%d/impl=softpen", n), func(b *testing.B) {
			var c mat.Cholesky
			for b.Loop() {
				if err := c.Factor(a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("n=%d/impl=softpen-threads2", n), func(b *testing.B) {
			c := mat.Cholesky{Threads: 2}
			for b.Loop() {
				if err := c.Factor(a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("n=%d/impl=openblas-dpotrf", n), func(b *testing.B) {
			if info := OBPotrf(n, a.Data, work, b.N); info != 0 {
				b.Fatalf("dpotrf info %d", info)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
