package softpen_test

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/libsvm"
	"github.com/softpen/softpen/mat"
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

// A receding-horizon controller: a double integrator (position p, velocity
// v, sampled every 0.1 s) is driven from p = 1 to the origin with
// |u| <= 1 and |v| <= 0.5, by solving at every step the QP of the next 10
// inputs, minimize sum_k p_k^2 + v_k^2 + 0.1 u_k^2 subject to the bounds,
// and applying the first. The state enters the QP only through q and the
// rows' right-hand sides: one Solver serves every step, SetQ and SetB
// bring the new state, and each Solve starts from the last working set
// without allocating.
func ExampleSolver_SetQ() {
	const N, dt = 10, 0.1
	// x_{k+1} = A x_k + B u_k; x_k = A^k x0 + sum_{j<k} A^(k-1-j) B u_j.
	// Row 2k of G maps the inputs to p_(k+1), row 2k+1 to v_(k+1).
	G := make([][]float64, 2*N)
	for k := range N {
		G[2*k], G[2*k+1] = make([]float64, N), make([]float64, N)
		for j := 0; j <= k; j++ {
			s := float64(k - j) // A^s B = (dt^2/2 + s dt^2, dt)
			G[2*k][j], G[2*k+1][j] = dt*dt/2+s*dt*dt, dt
		}
	}
	// H = G'G + 0.1 I; the rows are +-(velocity rows of G) <= 0.5 -+ free motion.
	p := &softpen.Problem{N: N, Loss: "none", P: make([][]float64, N), Q: make([]float64, N),
		Lower: make([]float64, N), Upper: make([]float64, N), B: make([]float64, 2*N)}
	for i := range N {
		p.P[i] = make([]float64, N)
		for j := range N {
			for r := range G {
				p.P[i][j] += G[r][i] * G[r][j]
			}
		}
		p.P[i][i] += 0.1
		p.Lower[i], p.Upper[i] = -1, 1
	}
	for k := range N {
		p.A = append(p.A, G[2*k+1], neg(G[2*k+1]))
	}
	pos, vel := 1.0, 0.0
	// update writes q = G'(free motion) and b for the state (pos, vel).
	update := func() {
		free := make([]float64, 2*N)
		for k := range N {
			free[2*k], free[2*k+1] = pos+float64(k+1)*dt*vel, vel
		}
		for i := range N {
			p.Q[i] = 0
			for r := range G {
				p.Q[i] += G[r][i] * free[r]
			}
		}
		for k := range N {
			p.B[2*k], p.B[2*k+1] = 0.5-free[2*k+1], 0.5+free[2*k+1]
		}
	}
	update()
	s, err := softpen.NewSolver(p, nil)
	if err != nil {
		panic(err)
	}
	for step := range 40 {
		res, err := s.Solve(context.Background())
		if err != nil || res.Status != softpen.StatusSolved {
			panic(fmt.Sprint(err, res.Status))
		}
		u := res.X[0]
		pos, vel = pos+dt*vel+dt*dt/2*u, vel+dt*u
		if step%10 == 9 {
			fmt.Printf("t = %.1f s: position %.3f, velocity %.3f\n", float64(step+1)*dt, pos, vel)
		}
		update()
		if err := s.SetQ(p.Q); err != nil {
			panic(err)
		}
		if err := s.SetB(p.B); err != nil {
			panic(err)
		}
	}
	// Output:
	// t = 1.0 s: position 0.680, velocity -0.397
	// t = 2.0 s: position 0.366, velocity -0.233
	// t = 3.0 s: position 0.193, velocity -0.124
	// t = 4.0 s: position 0.101, velocity -0.065
}

// neg is -v.
func neg(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = -x
	}
	return out
}

// Logistic regression on sparse rows read from LIBSVM text: each example
// keeps only its nonzero features, so a text set with a million features
// takes memory in proportion to its words. The fitting model (ridge, l1,
// bounds) is solved by Newton-CG on the rows where they are.
func ExampleProblem_sparseRows() {
	data := `+1 1:0.5 70000:1
-1 2:1 70000:0.5
+1 1:1 3:0.25
-1 2:0.75 3:1
`
	d, err := libsvm.ReadSparse(strings.NewReader(data), 0)
	if err != nil {
		panic(err)
	}
	upper := make([]float64, d.X.Cols) // every weight at most 0.5
	for j := range upper {
		upper[j] = 0.5
	}
	p := &softpen.Problem{N: d.X.Cols, Loss: "logistic", PhiSparse: d.X, Y: d.Labels,
		Ridge: 0.1, L1: 0.01, Upper: upper}
	res, err := softpen.Solve(context.Background(), p, &softpen.Options{Tol: 1e-12})
	if err != nil {
		panic(err)
	}
	fmt.Println(d.X.Rows, "examples,", d.X.Cols, "features,", d.X.NNZ(), "nonzeros")
	fmt.Println(res.Status, res.Method, res.Gap <= 1e-12)
	fmt.Printf("weights of features 1, 2, 3: %.4f %.4f %.4f\n", res.X[0], res.X[1], res.X[2])
	// Output:
	// 4 examples, 70000 features, 8 nonzeros
	// solved newton-cg true
	// weights of features 1, 2, 3: 0.5000 -1.0937 -0.2786
}

// The same model by the paper's stochastic method: proximal SVRG on the
// sparse rows, each step touching only the features of the example it
// draws (the others catch up in closed form when next read). Every epoch
// ends with the same certificate as Newton-CG's, so the answer carries a
// gap either way; here they agree on the weights.
func ExampleProblem_sparseRowsSVRG() {
	data := `+1 1:0.5 70000:1
-1 2:1 70000:0.5
+1 1:1 3:0.25
-1 2:0.75 3:1
`
	d, err := libsvm.ReadSparse(strings.NewReader(data), 0)
	if err != nil {
		panic(err)
	}
	upper := make([]float64, d.X.Cols)
	for j := range upper {
		upper[j] = 0.5
	}
	p := &softpen.Problem{N: d.X.Cols, Loss: "logistic", PhiSparse: d.X, Y: d.Labels,
		Ridge: 0.1, L1: 0.01, Upper: upper}
	res, err := softpen.Solve(context.Background(), p, &softpen.Options{Method: softpen.MethodSVRG, Tol: 1e-12})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.Method, res.Gap <= 1e-12)
	fmt.Printf("weights of features 1, 2, 3: %.4f %.4f %.4f\n", res.X[0], res.X[1], res.X[2])
	// Output:
	// solved svrg true
	// weights of features 1, 2, 3: 0.5000 -1.0937 -0.2786
}

// Rows of A on sparse data with svrg: they enter as the paper's softplus
// penalty, drawn beside the loss rows, and the answer is certified by the
// exact-penalty gap with the penalty's multipliers. Here a cap on the sum
// of two weights, x_1 + x_3 <= 0.2, binds (newton-cg's multiplier: 0.0379).
// The penalty's conditioning grows as 1/delta, so this path suits moderate
// tolerances; newton-cg, the default, reaches tight ones far sooner.
func ExampleProblem_sparseRowsPenalty() {
	data := `+1 1:0.5 70000:1
-1 2:1 70000:0.5
+1 1:1 3:0.25
-1 2:0.75 3:1
`
	d, err := libsvm.ReadSparse(strings.NewReader(data), 0)
	if err != nil {
		panic(err)
	}
	a := &mat.Sparse{Rows: 1, Cols: d.X.Cols, Ptr: []int{0, 2}, Idx: []int32{0, 2}, Val: []float64{1, 1}}
	p := &softpen.Problem{N: d.X.Cols, Loss: "logistic", PhiSparse: d.X, Y: d.Labels,
		Ridge: 0.1, ASparse: a, B: []float64{0.2}}
	res, err := softpen.Solve(context.Background(), p, &softpen.Options{Method: softpen.MethodSVRG, Tol: 1e-6})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.Method, res.Gap <= 1e-6*max(1, res.Objective))
	fmt.Printf("x_1 + x_3 = %.4f, its multiplier %.3f\n", res.X[0]+res.X[2], res.Lambda[0])
	// Output:
	// solved svrg true
	// x_1 + x_3 = 0.2000, its multiplier 0.038
}

// ExampleSolver_Load: a service that answers one small QP per request, all
// of one shape, in one Solver: each request's weighted projection onto the
// simplex, minimize 1/2 sum w_i (x_i - c_i)^2 subject to sum x = 1, x >= 0.
// Load takes each request's P and q in the Solver's storage (allocating
// nothing after the first Load), and Solve answers it as a new Solver
// would.
func ExampleSolver_Load() {
	requests := []struct{ w, c []float64 }{
		{[]float64{1, 1, 1, 1}, []float64{0.5, 0.4, 0.3, -0.2}},
		{[]float64{4, 1, 1, 2}, []float64{0.5, 0.4, 0.3, -0.2}},
		{[]float64{1, 2, 3, 4}, []float64{0.9, 0.1, 0.6, 0.2}},
	}
	const n = 4
	p := &softpen.Problem{N: n, Loss: "none", P: make([][]float64, n), Q: make([]float64, n),
		Aeq: [][]float64{{1, 1, 1, 1}}, Beq: []float64{1}, Lower: make([]float64, n)}
	for i := range p.P {
		p.P[i] = make([]float64, n)
	}
	// request writes request r into p: P = diag(w), q = -w c.
	request := func(r int) {
		for i, w := range requests[r].w {
			p.P[i][i], p.Q[i] = w, -w*requests[r].c[i]
		}
	}
	request(0)
	s, err := softpen.NewSolver(p, nil)
	if err != nil {
		panic(err)
	}
	for r := range requests {
		if r > 0 {
			request(r)
			if err := s.Load(p); err != nil {
				panic(err)
			}
		}
		res, err := s.Solve(context.Background())
		if err != nil || res.Status != softpen.StatusSolved {
			panic(fmt.Sprint(err, res.Status))
		}
		fmt.Printf("request %d: x = %.4f\n", r, res.X)
	}
	// Output:
	// request 0: x = [0.4333 0.3333 0.2333 0.0000]
	// request 1: x = [0.4778 0.3111 0.2111 0.0000]
	// request 2: x = [0.4579 0.0000 0.4526 0.0895]
}
