package softpen_test

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
)

// Solve a small QP and read its certificate.
func Example() {
	// minimize 1/2 ||x||^2 - x0 - x1  subject to  x0 + x1 <= 1
	p := &softpen.Problem{
		N: 2, Loss: "none", Ridge: 1,
		Q: []float64{-1, -1},
		A: [][]float64{{1, 1}}, B: []float64{1},
	}
	res, err := softpen.Solve(context.Background(), p, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v x = [%.6f %.6f] lambda = [%.6f] gap < 1e-9: %v\n",
		res.Status, res.X[0], res.X[1], res.Lambda[0], res.Gap < 1e-9)
	// Output: solved x = [0.500000 0.500000] lambda = [0.500000] gap < 1e-9: true
}

// A Solver re-solves with a new right-hand side, warm-started and without
// allocating.
func ExampleSolver() {
	p := &softpen.Problem{
		N: 2, Loss: "none", Ridge: 1,
		Q: []float64{-1, -1},
		A: [][]float64{{1, 1}}, B: []float64{1},
	}
	s, err := softpen.NewSolver(p, nil)
	if err != nil {
		panic(err)
	}
	for _, b := range []float64{1, 0.5, 0} {
		s.SetB([]float64{b})
		res, _ := s.Solve(context.Background())
		// x0 is exact to rounding, which may leave it at -1e-17 for b = 0:
		// rounded to four decimals, the sum with +0 prints as 0.0000.
		fmt.Printf("b = %.1f: %v x0 = %.4f\n", b, res.Status, math.Round(res.X[0]*1e4)/1e4+0)
	}
	// Output:
	// b = 1.0: solved x0 = 0.5000
	// b = 0.5: solved x0 = 0.2500
	// b = 0.0: solved x0 = 0.0000
}

// A hard-margin SVM from LIBSVM data: min 1/2||x||^2 s.t. y_i a_i'x >= 1.
func ExampleSVMProblem() {
	data := "+1 1:2 2:1\n+1 1:3 2:3\n-1 1:-1 2:-2\n-1 1:-2 2:-1\n"
	d, err := libsvm.Read(strings.NewReader(data), 0)
	if err != nil {
		panic(err)
	}
	p := softpen.SVMProblem(d.Labels, d.Rows, false)
	res, err := softpen.Solve(context.Background(), p, nil)
	if err != nil {
		panic(err)
	}
	// The margin constraints that hold with equality (the multipliers of
	// rows 0 and 3 are not unique: they share 1/9).
	tight := 0
	for i, row := range p.A {
		if r := row[0]*res.X[0] + row[1]*res.X[1] - p.B[i]; r > -1e-6 {
			tight++
		}
	}
	fmt.Printf("%v w = [%.4f %.4f], %d tight constraints\n", res.Status, res.X[0], res.X[1], tight)
	// Output: solved w = [0.3333 0.3333], 3 tight constraints
}

// Reading the certificate: the gap bounds F(x) - F* (x is feasible here),
// and DistBound bounds ||x - x*||.
func ExampleResult_certificate() {
	p := &softpen.Problem{
		N: 2, Loss: "none", Ridge: 2,
		Q: []float64{-4, 0},
		A: [][]float64{{1, 0}, {0, -1}}, B: []float64{1, 0},
	}
	res, _ := softpen.Solve(context.Background(), p, &softpen.Options{Tol: 1e-8})
	fmt.Printf("objective %.6f, certified gap below 1e-8: %v, |x - x*| <= %.0e: %v\n",
		res.Objective, res.Gap <= 1e-8, 1e-3, res.DistBound <= 1e-3)
	// Output: objective -3.000000, certified gap below 1e-8: true, |x - x*| <= 1e-03: true
}
