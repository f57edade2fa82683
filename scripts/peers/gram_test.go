package peers

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/mat"
)

// BenchmarkGram: A'A for a dense row-major l x n A, softpen's mat.Gram
// (blocked, exactly symmetric) against OpenBLAS dsyrk (lower triangle) and
// dgemm (A^T A in full), one thread, at mat's BenchmarkGram sizes. GFLOP/s
// counts l*n*(n+1) flops for all three.
func BenchmarkGram(b *testing.B) {
	big := 200000
	if testing.Short() {
		big = 40000
	}
	for _, sz := range [][2]int{{200, 20}, {1000, 100}, {20000, 400}, {big, 400}} {
		l, n := sz[0], sz[1]
		a := mat.NewDense(l, n)
		for i := range a.Data {
			a.Data[i] = math.Sin(float64(i + 1))
		}
		g := mat.NewDense(n, n)
		for _, impl := range []struct {
			name string
			f    func(reps int)
		}{
			{"softpen", func(reps int) {
				for range reps {
					a.Gram(g, 1)
				}
			}},
			{"openblas-dsyrk", func(reps int) { OBSyrk(l, n, a.Data, g.Data, reps) }},
			{"openblas-dgemm", func(reps int) { OBGemmTN(l, n, a.Data, g.Data, reps) }},
		} {
			b.Run(fmt.Sprintf("l=%d/n=%d/impl=%s", l, n, impl.name), func(b *testing.B) {
				impl.f(b.N)
				b.ReportMetric(float64(l)*float64(n)*float64(n+1)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
