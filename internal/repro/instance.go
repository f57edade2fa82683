// Package repro reruns the experiments of section 6 of Li, Grigas and
// Atamtürk (the paper in DESIGN.md) with every method the paper compares:
// the nested softplus-penalty method with SGD, SGD with momentum and SVRG
// (with and without screening) as inner methods, the static-delta variant,
// and the two external baselines of package baseline. It records the
// relative error ||x - x*|| / ||x*|| and the paper's duality gap every 1000
// incremental steps and writes CSV files, SVG figures, an index.html and a
// summary table.
//
// The reference x* comes from the exact active-set method
// (softpen.MethodActiveSet at tol 1e-12), an algorithm none of the measured
// methods share, and is accepted only if its KKT conditions, computed in
// big.Float from the problem's own data (internal/qpgen.KKT), hold to
// 1e-12 relative; it is compared with the cvxopt references in testdata
// where they exist.
package repro

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/softplus"
)

// Instance is one problem of an experiment with what the measurements need:
// the problem for the solver, the same problem with unit-norm rows for the
// baselines and the gap, the quadratic model of F for the dual function, and
// the reference solution.
type Instance struct {
	Name string
	P    *softpen.Problem

	n, l  int
	Phi   *mat.Dense // l x n, nil when l = 0
	Y     []float64
	Ridge float64
	A     *mat.Dense // m x n, unit-norm rows
	B     []float64

	// F(x) = 1/2 x^T H x + c^T x + c0 with H = Phi^T Phi / l + ridge I.
	h    *mat.Dense
	chol mat.Cholesky
	c    []float64
	c0   float64

	XStar     []float64
	normXStar float64
	LambdaInf float64 // ||lambda*||_inf for the unit-norm rows (our reference's multipliers)
	RefCheck  float64 // ||x_ours - x_ref|| / ||x_ref|| against a stored reference; NaN when none
	RefKKT    float64 // largest relative KKT residual of x* and its multipliers, in big.Float
	RefGap    float64 // relative duality gap of x* and its multipliers, in big.Float
	RefSlack  []float64
}

// newInstance builds the derived data; p must be valid, with squared or no
// loss and no terms besides ridge.
func newInstance(name string, p *softpen.Problem) (*Instance, error) {
	in := &Instance{Name: name, P: p, n: p.N, l: len(p.Phi), Y: p.Y, Ridge: p.Ridge, RefCheck: math.NaN()}
	if in.l > 0 {
		in.Phi = denseOf(p.Phi, p.N)
	}
	in.A = denseOf(p.A, p.N)
	in.B = append([]float64(nil), p.B...)
	for j := range in.B {
		r := in.A.Row(j)
		var s float64
		for _, v := range r {
			s += v * v
		}
		s = math.Sqrt(s)
		if s == 0 {
			return nil, fmt.Errorf("%s: row %d of A is zero", name, j)
		}
		for k := range r {
			r[k] /= s
		}
		in.B[j] /= s
	}
	h := mat.NewDense(p.N, p.N)
	in.c = make([]float64, p.N)
	if in.l > 0 {
		in.Phi.Gram(h, 1/float64(in.l))
		in.Phi.MulTransVec(in.c, in.Y)
		for i := range in.c {
			in.c[i] /= -float64(in.l)
		}
		for _, v := range in.Y {
			in.c0 += v * v
		}
		in.c0 /= 2 * float64(in.l)
	}
	h.AddDiag(p.Ridge)
	in.h = h
	if err := in.chol.Factor(h); err != nil {
		return nil, fmt.Errorf("%s: Hessian: %v", name, err)
	}
	return in, nil
}

func denseOf(rows [][]float64, n int) *mat.Dense {
	d := mat.NewDense(len(rows), n)
	for i, r := range rows {
		copy(d.Row(i), r)
	}
	return d
}

// refTol is the relative KKT residual and gap a reference must meet.
const refTol = 1e-12

// solveReference computes x* with the exact active-set method, checks it
// independently (checkKKT), and sets the unit-row multipliers' infinity
// norm and slacks.
func (in *Instance) solveReference() error {
	res, err := softpen.Solve(context.Background(), in.P, &softpen.Options{Method: softpen.MethodActiveSet, Tol: refTol})
	if err != nil {
		return err
	}
	if res.Status != softpen.StatusSolved {
		return fmt.Errorf("%s: reference solve ended with status %v (gap %.3g)", in.Name, res.Status, res.Gap)
	}
	if err := in.checkKKT(res.X, res.Lambda); err != nil {
		return err
	}
	in.XStar = append([]float64(nil), res.X...)
	in.normXStar = norm(in.XStar)
	in.LambdaInf = 0
	for j, l := range res.Lambda {
		// lambda for the unit-norm row j is lambda_orig * ||a_j||.
		in.LambdaInf = max(in.LambdaInf, l*norm(in.P.A[j]))
	}
	in.RefSlack = make([]float64, len(in.B))
	in.A.MulVecSub(in.RefSlack, in.XStar, in.B)
	for j := range in.RefSlack {
		in.RefSlack[j] = -in.RefSlack[j]
	}
	return nil
}

// checkKKT checks x and multipliers lambda of the caller's rows against the
// problem's data alone, in big.Float (qpgen.KKT: stationarity, feasibility,
// dual feasibility, complementarity, each relative to the size of its
// terms, and the duality gap), so that the reference does not rest on the
// solver that produced it: feasible x with a relative gap g is within
// sqrt(2 g max(1, |F|) / ridge) of the exact optimum.
func (in *Instance) checkKKT(x, lambda []float64) error {
	q := &qpgen.QP{Name: in.Name, N: in.n, H: make([][]float64, in.n), C: in.c, A: in.P.A, B: in.P.B}
	for i := range q.H {
		q.H[i] = in.h.Row(i)
	}
	r, err := qpgen.KKT(q, x, lambda, nil, nil)
	if err != nil {
		return fmt.Errorf("%s: reference check: %v", in.Name, err)
	}
	in.RefKKT = max(r.RelStationarity, r.RelPrimal, r.RelDual, r.RelComplementarity)
	in.RefGap = math.Abs(r.RelGap)
	if !(in.RefKKT <= refTol && in.RefGap <= refTol) {
		return fmt.Errorf("%s: the reference fails its KKT check: relative residual %.3g, relative gap %.3g (want <= %g)", in.Name, in.RefKKT, in.RefGap, refTol)
	}
	return nil
}

// refSource says where the references come from and how well they passed
// their independent check (worst relative KKT residual and gap).
func refSource(kkt, gap float64) string {
	return fmt.Sprintf("reference x*: the exact active-set method (tol %g), KKT checked in big.Float: worst relative residual %.1e, relative gap %.1e", refTol, kkt, gap)
}

// checkAgainst compares x* with a stored reference file (FORMATS.md's
// reference JSON: its "x"), recording the relative difference.
func (in *Instance) checkAgainst(refPath string) error {
	b, err := os.ReadFile(refPath)
	if err != nil {
		return err
	}
	var ref struct {
		X []float64 `json:"x"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		return fmt.Errorf("%s: %v", refPath, err)
	}
	if len(ref.X) != in.n {
		return fmt.Errorf("%s: x has length %d, want %d", refPath, len(ref.X), in.n)
	}
	in.RefCheck = relDiff(in.XStar, ref.X)
	return nil
}

func norm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

func relDiff(x, ref []float64) float64 {
	var d float64
	for i := range x {
		d += (x[i] - ref[i]) * (x[i] - ref[i])
	}
	return math.Sqrt(d) / norm(ref)
}

// RelErr is ||x - x*|| / ||x*||.
func (in *Instance) RelErr(x []float64) float64 {
	var d float64
	for i := range x {
		d += (x[i] - in.XStar[i]) * (x[i] - in.XStar[i])
	}
	return math.Sqrt(d) / in.normXStar
}

// gapWork is the scratch of one goroutine's gap evaluations.
type gapWork struct {
	r, lam, rl, v, u []float64
}

func (in *Instance) newGapWork() *gapWork {
	return &gapWork{r: make([]float64, len(in.B)), lam: make([]float64, len(in.B)),
		rl: make([]float64, in.l), v: make([]float64, in.n), u: make([]float64, in.n)}
}

// Objective is F(x).
func (in *Instance) Objective(x []float64, w *gapWork) float64 {
	var f float64
	if in.l > 0 {
		in.Phi.MulVecSub(w.rl, x, in.Y)
		for _, t := range w.rl {
			f += t * t
		}
		f /= 2 * float64(in.l)
	}
	return f + in.Ridge/2*dot(x, x)
}

func dot(x, y []float64) float64 {
	var s float64
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// Gap is the paper's duality gap at x (section 6.1): F_{xi,0}(x) - G(lambda)
// with F_{xi,0}(x) = F(x) + xi sum_j (a_j^T x - b_j)_+ (unit-norm rows) and
// lambda_j = xi sigmoid((a_j^T x - b_j)/delta) the dual map (4.3), which is
// always dual feasible. G(lambda) = min_x F(x) + lambda^T (A x - b) is exact
// for our quadratic F: with v = c + A^T lambda,
// G = c0 - lambda^T b - 1/2 v^T H^-1 v.
func (in *Instance) Gap(x []float64, xi, delta float64, w *gapWork) float64 {
	in.A.MulVecSub(w.r, x, in.B)
	fx := in.Objective(x, w)
	var pen float64
	for _, t := range w.r {
		if t > 0 {
			pen += t
		}
	}
	softplus.DualMap(w.lam, w.r, xi, delta)
	copy(w.v, in.c)
	in.A.MulTransVecAdd(w.v, w.lam)
	in.chol.Solve(w.u, w.v)
	g := in.c0 - dot(w.lam, in.B) - 0.5*dot(w.v, w.u)
	return fx + xi*pen - g
}

// GenerateQP draws an instance of the paper's QP (section 6.1) with our own
// generator: phi, y, A i.i.d. N(0,1), rows of A normalised, b = |N(0,1)|,
// ridge w, squared loss. (The testdata instances were drawn with numpy and
// cannot be regenerated here; they are used when present.)
func GenerateQP(seed uint64, l, m, n int, w float64) *softpen.Problem {
	rg := rand.New(rand.NewPCG(seed, 0x5eed_9e37_79b9_7f4a))
	mk := func(r, c int) [][]float64 {
		out := make([][]float64, r)
		for i := range out {
			out[i] = make([]float64, c)
			for j := range out[i] {
				out[i][j] = rg.NormFloat64()
			}
		}
		return out
	}
	phi := mk(l, n)
	y := make([]float64, l)
	for i := range y {
		y[i] = rg.NormFloat64()
	}
	a := mk(m, n)
	for _, r := range a {
		s := norm(r)
		for k := range r {
			r[k] /= s
		}
	}
	b := make([]float64, m)
	for j := range b {
		b[j] = math.Abs(rg.NormFloat64())
	}
	return &softpen.Problem{Name: fmt.Sprintf("generated-qp-%d-%d-%d-s%d", l, m, n, seed), N: n, Loss: "squared",
		Phi: phi, Y: y, Ridge: w, A: a, B: b}
}
