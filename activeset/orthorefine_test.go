package activeset

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
)

// rawSVM is qpgen.UnscaledSVM (the generator of the root package's
// TestUnscaledSVM) without the flipped variant, as the engine's problem
// min 1/2 ||x||^2 s.t. -y_i a_i'x <= -1: raw features of column scales
// 1e-3..1e4, duplicated rows, a margin so thin that the unit rows'
// multipliers reach 1e9.
func rawSVM(m, n int, margin float64, seed uint64) (*Problem, *qpgen.QP) {
	labels, rows := qpgen.UnscaledSVM(m, n, margin, false, seed)
	p := &Problem{N: n, H: mat.NewDense(n, n), C: make([]float64, n), A: mat.NewDense(m, n), B: make([]float64, m)}
	q := &qpgen.QP{N: n, H: make([][]float64, n), C: make([]float64, n), A: make([][]float64, m), B: p.B}
	for i := 0; i < n; i++ {
		p.H.Row(i)[i] = 1
		q.H[i] = p.H.Row(i)
	}
	for i, a := range rows {
		row := p.A.Row(i)
		for k, v := range a {
			row[k] = -labels[i] * v
		}
		q.A[i] = row
		p.B[i] = -1
	}
	return p, q
}

// TestRefineOrtho: on a separable raw-feature SVM (400x30, margin 1e-4,
// seed 6: 29 active rows, unit-row multipliers of 5e9) Newton steps
// through the Gram factor stall with the members off by 1e-5 relative
// (rows violated by 1e-4, which the solver reported as a precision limit);
// the steps through the normals' QR bring the answer to rounding, as an
// independent check in big.Float confirms. (The loop now keeps this
// working set's factor from a QR factor of its normals, basis.go, and ends
// at multipliers accurate to rounding: the refinements start from the
// multipliers off by 1e-6 relative, where the loop through the Gram
// factor left them, and from the factor built from the Gram matrix.)
func TestRefineOrtho(t *testing.T) {
	p, q := rawSVM(400, 30, 1e-4, 6)
	s := mustNew(t, p)
	s.res.Steps = 0
	s.farkasBuilt, s.rayTrial = false, rayStart
	s.clearSkips()
	if st := s.iterate(); st != StatusSolved {
		t.Fatalf("loop ended %v", st)
	}
	s.basis.on = false
	s.refactorGram()
	for i := range s.ws {
		s.lam[i] *= 1 + 1e-6*float64(i%3-1)
	}
	s.vFresh = false
	s.primal()
	gram := s.refine(false)
	if s.ownScaleApplies() {
		gram = s.refine(true)
	}
	if !(gram > orthoTrigger) {
		t.Fatalf("the Gram factor's refinement reached %.3g: the instance no longer exercises refineOrtho", gram)
	}
	if !s.refineOrtho(s.ownScaleApplies()) {
		t.Fatal("refineOrtho took no step")
	}
	ortho := s.kktResidual(s.x, s.lam, s.ownScaleApplies())
	t.Logf("scaled KKT residual: %.3g through the Gram factor, %.3g through QR", gram, ortho)
	if !(ortho <= orthoTrigger) {
		t.Errorf("refineOrtho left the scaled KKT residual at %.3g > %.3g", ortho, orthoTrigger)
	}

	// The whole solve: optimal, feasible to rounding, and the KKT
	// conditions hold in big.Float.
	r := mustNew(t, p).Solve(ctx)
	if r.Status != StatusSolved || !r.Feasible {
		t.Fatalf("status %v, feasible %v, max violation %.3g", r.Status, r.Feasible, r.MaxViolation)
	}
	k, err := qpgen.KKT(q, r.X, r.Lambda, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if worst := max(k.RelStationarity, k.RelPrimal, k.RelDual, k.RelComplementarity, math.Abs(k.RelGap)); !(worst <= 1e-12) {
		t.Errorf("relative KKT residual or gap %.3g > 1e-12 (primal %.3g, gap %.3g)", worst, k.RelPrimal, k.RelGap)
	}
	// What the exact penalty charges: the violations times twice the
	// largest multiplier stay far below the objective.
	xr := 0.0
	for _, l := range r.Lambda {
		xr = max(xr, 2*l)
	}
	if pen := xr * r.SumViolation; !(pen <= 1e-12*r.Objective) {
		t.Errorf("penalty of the violations %.3g, relative %.3g", pen, pen/r.Objective)
	}
}

// TestOrthoQR: the QR factorisation reproduces N's solves: R^{-T} N'y
// recovers Q1'y and R^{-1}(Q1'N z) recovers z.
func TestOrthoQR(t *testing.T) {
	const n, k = 7, 4
	r := rand.New(rand.NewPCG(1, 2))
	nm := make([][]float64, k)
	q := &orthoQR{n: n, k: k, cols: make([]float64, n*k), diag: make([]float64, k), tau: make([]float64, k)}
	for j := range nm {
		nm[j] = make([]float64, n)
		for i := range nm[j] {
			nm[j][i] = r.NormFloat64()
		}
		copy(q.col(j), nm[j])
	}
	if !q.factor(orthoTiny) {
		t.Fatal("factor failed")
	}
	z := []float64{1, -2, 3, 0.5}
	nz := make([]float64, n) // N z
	for j, c := range nm {
		for i, v := range c {
			nz[i] += z[j] * v
		}
	}
	w := append([]float64(nil), nz...)
	q.applyQT(w)
	for i := k; i < n; i++ {
		if math.Abs(w[i]) > 1e-13 {
			t.Errorf("(Q'Nz)[%d] = %.3g, want 0", i, w[i])
		}
	}
	q.solveR(w[:k])
	for j := range z {
		if math.Abs(w[j]-z[j]) > 1e-13 {
			t.Errorf("R^{-1} Q1'N z [%d] = %v, want %v", j, w[j], z[j])
		}
	}
	// N'y = R'Q1'y: R^{-T} N'y = Q1'y.
	y := []float64{0.3, -1, 2, 0, 1, -0.5, 0.25}
	nty := make([]float64, k)
	for j, c := range nm {
		for i, v := range c {
			nty[j] += v * y[i]
		}
	}
	q.solveRT(nty)
	qy := append([]float64(nil), y...)
	q.applyQT(qy)
	for j := 0; j < k; j++ {
		if math.Abs(nty[j]-qy[j]) > 1e-13 {
			t.Errorf("R^{-T} N'y [%d] = %v, want %v", j, nty[j], qy[j])
		}
	}
	q.applyQ(qy)
	for i := range y {
		if math.Abs(qy[i]-y[i]) > 1e-14 {
			t.Errorf("Q Q'y [%d] = %v, want %v", i, qy[i], y[i])
		}
	}
}

// TestRefineOrthoDropsWrongSign: min 1/2 ||x||^2 - x_1 - x_2 with
// x_1 <= 0.5 (active at the optimum (0.5, 1), multiplier 0.5) and
// x_2 <= 2 (inactive) held together at multipliers (0.5, 0.001), as the
// loop can leave a vertex when the Gram factor gets a multiplier's sign
// wrong: at the vertex (0.5, 2) the second multiplier would be -1.
// refineOrtho lets that member leave and settles the first alone (a step
// that clamped it at 0 left a stationarity error of 1, and was rejected).
func TestRefineOrthoDropsWrongSign(t *testing.T) {
	h := mat.NewDense(2, 2)
	h.AddDiag(1)
	a := mat.NewDense(2, 2)
	a.Row(0)[0], a.Row(1)[1] = 1, 1
	s := mustNew(t, &Problem{N: 2, H: h, C: []float64{-1, -1}, A: a, B: []float64{0.5, 2}})
	s.HotStart([]int{0, 1}, nil, nil)
	if len(s.ws) != 2 {
		t.Fatalf("hot start holds %d members", len(s.ws))
	}
	s.lam[0], s.lam[1] = 0.5*s.sigma[0], 0.001*s.sigma[1] // unit-normal scale
	s.primal()
	if !s.refineOrtho(true) {
		t.Fatal("refineOrtho took no step")
	}
	if len(s.ws) != 1 || s.ws[0] != (constraint{kindRow, 0}) {
		t.Fatalf("working set %v, want the first row alone", s.ws)
	}
	if math.Abs(s.x[0]-0.5) > 1e-15 || math.Abs(s.x[1]-1) > 1e-15 {
		t.Errorf("x = %v, want (0.5, 1)", s.x)
	}
	if r := s.kktResidual(s.x, s.lam, true); r > refineFloor {
		t.Errorf("scaled KKT residual %.3g", r)
	}
}
