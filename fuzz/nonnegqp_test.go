package fuzz

import (
	"math"
	"testing"

	"github.com/softpen/softpen/internal/boxqp"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// FuzzNonnegQP: the restricted SVM dual's solvers (package boxqp) on
// minimize 1/2 x'Kx + c'x, x >= 0, K = B B' for a B of 1 to 6 rows and 1
// to 7 columns from the fuzzer's bytes (so K is often singular, as on
// dependent rows), by the interior-point method followed by projected
// Newton (the SVM finisher's order: the interior-point method on all but
// the last variable to 0.1, then on all from that point, to 1e-8) and by
// projected Newton alone. A
// "converged" answer must meet the optimality conditions (x >= 0, the
// gradient >= 0 where x = 0 and 0 where x > 0) to 1e-9 of the data's
// scale, and when both converge their objectives (the minimum, unique
// even where x is not) must agree to the same accuracy.
func FuzzNonnegQP(f *testing.F) {
	f.Add([]byte{3, 4, 10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150})
	f.Add([]byte{2, 1, 160, 160, 100, 100})
	f.Add([]byte{5, 2, 140, 140, 140, 140, 116, 116, 141, 139, 60, 60, 60, 60, 60})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		n, r := 1+int(data[0])%6, 1+int(data[1])%7
		src := &byteSource{data: data, pos: 2}
		b := make([]float64, n*r)
		for i := range b {
			b[i] = src.next()
		}
		k := mat.NewDense(n, n)
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				var s float64
				for q := 0; q < r; q++ {
					s += b[i*r+q] * b[j*r+q]
				}
				k.Data[i*n+j], k.Data[j*n+i] = s, s
			}
		}
		c := make([]float64, n)
		scale := 1.0
		for i := range c {
			c[i] = src.next()
			scale = math.Max(scale, math.Abs(c[i]))
		}
		for _, v := range k.Data {
			scale = math.Max(scale, math.Abs(v))
		}
		var w boxqp.Workspace
		xi, zi := make([]float64, n), make([]float64, n)
		warm := 0
		if n > 1 {
			// The finisher's rounds: all but the last variable to a
			// loose accuracy, then the whole from that point.
			k0 := &mat.Dense{Rows: n - 1, Cols: n - 1, Stride: n, Data: k.Data}
			if r0 := w.SolveInteriorFrom(k0, c[:n-1], xi[:n-1], zi[:n-1], 0, boxqp.Options{Tol: 0.1}); r0.Status == boxqp.Converged {
				warm = n - 1
			} else {
				clear(xi)
			}
		}
		var res boxqp.Result
		if res = w.SolveInteriorFrom(k, c, xi, zi, warm, boxqp.Options{Tol: 1e-8}); res.Status != boxqp.Unbounded {
			res = w.Solve(k, c, xi, boxqp.Options{})
		}
		xp := make([]float64, n)
		alone := w.Solve(k, c, xp, boxqp.Options{})
		for _, s := range []struct {
			name string
			x    []float64
			st   boxqp.Status
		}{{"interior, then projected Newton", xi, res.Status}, {"projected Newton", xp, alone.Status}} {
			if s.st != boxqp.Converged {
				continue
			}
			// Converged means within Tol, or within the rounding of the
			// computed gradient (large on an unbounded optimal face,
			// along which x may have gone far).
			floor := 4 * vec.DotErrorBound(n+1) * nonnegGradScale(k, c, s.x)
			if e := nonnegKKT(k, c, s.x); e > math.Max(1e-9*scale*float64(n), 2*floor) {
				t.Fatalf("%s: converged, but the optimality conditions fail by %.3g (scale %.3g, rounding %.3g), x %v", s.name, e, scale, floor, s.x)
			}
		}
		if res.Status == boxqp.Converged && alone.Status == boxqp.Converged {
			// For convex f, f(x) - f(y) <= g(x)'(x - y) <= e_x (|x|_1 +
			// |y|_1) at a point x whose optimality conditions hold to
			// e_x; and each f is computed to within its rounding (an
			// optimal face that is unbounded lets x be large, and f's
			// terms cancel).
			fi, fp := nonnegObjective(k, c, xi), nonnegObjective(k, c, xp)
			e := math.Max(nonnegKKT(k, c, xi), nonnegKKT(k, c, xp))
			bound := e*(norm1(xi)+norm1(xp)) + nonnegRounding(k, c, xi) + nonnegRounding(k, c, xp)
			if math.Abs(fi-fp) > bound {
				t.Fatalf("objectives %.17g (interior, then projected Newton) and %.17g (projected Newton) differ by %.3g, bound %.3g",
					fi, fp, math.Abs(fi-fp), bound)
			}
		}
	})
}

func norm1(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}

// nonnegRounding bounds the rounding of nonnegObjective at x: 4 (n + 2)
// eps (|x|'|K||x|/2 + |c|'|x|).
func nonnegRounding(k *mat.Dense, c, x []float64) float64 {
	n := len(x)
	var s float64
	for i := 0; i < n; i++ {
		var row float64
		for j := 0; j < n; j++ {
			row += math.Abs(k.Data[i*n+j] * x[j])
		}
		s += math.Abs(x[i]) * (0.5*row + math.Abs(c[i]))
	}
	return 4 * float64(n+2) * 0x1p-52 * s
}

// nonnegKKT is the largest violation of x >= 0 and of g = Kx + c >= 0
// where x = 0, g = 0 where x > 0.
func nonnegKKT(k *mat.Dense, c, x []float64) float64 {
	g := make([]float64, len(x))
	k.MulVec(g, x)
	var e float64
	for i := range x {
		g[i] += c[i]
		switch {
		case x[i] < 0:
			e = math.Max(e, -x[i])
		case x[i] == 0:
			e = math.Max(e, -g[i])
		default:
			e = math.Max(e, math.Abs(g[i]))
		}
	}
	return e
}

// nonnegGradScale is max_i (|K||x| + |c|)_i, the scale of the gradient's
// rounding.
func nonnegGradScale(k *mat.Dense, c, x []float64) float64 {
	n := len(x)
	var big float64
	for i := 0; i < n; i++ {
		s := math.Abs(c[i])
		for j := 0; j < n; j++ {
			s += math.Abs(k.Data[i*n+j] * x[j])
		}
		big = math.Max(big, s)
	}
	return big
}

// nonnegObjective is 1/2 x'Kx + c'x.
func nonnegObjective(k *mat.Dense, c, x []float64) float64 {
	kx := make([]float64, len(x))
	k.MulVec(kx, x)
	var f float64
	for i := range x {
		f += x[i] * (0.5*kx[i] + c[i])
	}
	return f
}
