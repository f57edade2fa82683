package softpen_test

import (
	"context"
	"fmt"

	"github.com/softpen/softpen"
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
		fmt.Printf("b = %.1f: %v x0 = %.4f\n", b, res.Status, res.X[0])
	}
	// Output:
	// b = 1.0: solved x0 = 0.5000
	// b = 0.5: solved x0 = 0.2500
	// b = 0.0: solved x0 = 0.0000
}
