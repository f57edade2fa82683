package repro

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/softpen/softpen"
)

func testInstance(t *testing.T) *Instance {
	t.Helper()
	ins, err := QPInstances(1, filepath.Join("..", "..", "testdata", "qp"))
	if err != nil {
		t.Fatal(err)
	}
	in := ins[0]
	if !(in.RefCheck < 1e-9) {
		t.Fatalf("reference differs from cvxopt's by %.3g", in.RefCheck)
	}
	return in
}

// TestGap: the paper's gap is non-negative when xi >= ||lambda*||_inf (weak
// duality, at any x and delta), at the solution of the penalised problem it
// is O(m xi delta) (Prop. 4.x: F_{xi,0}(x_delta) - G(lambda_delta) <= m xi
// delta log 2 up to the inner accuracy), and it bounds the relative error
// to x* (it used to compare x* with itself).
func TestGap(t *testing.T) {
	in := testInstance(t)
	w := in.newGapWork()
	x := make([]float64, in.n)
	for k := 0; k < 20; k++ {
		for i := range x {
			x[i] = math.Sin(float64(7*k+i)) * 0.3
		}
		for _, d := range []float64{1, 1e-2, 1e-6} {
			if g := in.Gap(x, 1, d, w); g < -1e-12 {
				t.Fatalf("gap %.3g < 0 at a test point (delta %g)", g, d)
			}
		}
	}
	if g := in.Gap(in.XStar, 1, 1e-3, w); g < -1e-12 {
		t.Fatalf("gap at x* = %.3g < 0", g)
	}
	const delta = 1e-4
	res, err := softpen.Solve(context.Background(), in.P, &softpen.Options{Method: softpen.MethodAPG, Tol: 1e-300, MaxSteps: 2e6,
		Penalty: &softpen.PenaltyOptions{Static: true, Delta0: delta, FixedXi: true, NoPolish: true, Screen: softpen.ScreenNone}})
	if err != nil {
		t.Fatal(err)
	}
	g := in.Gap(res.X, 1, delta, w)
	if bound := float64(len(in.B)) * delta * math.Ln2 * 1.5; g > bound {
		t.Errorf("gap at x*_delta = %.3g > %.3g", g, bound)
	}
	// The gap bounds the distance to x*: with xi = 1 >= ||lambda*||_inf the
	// exact penalty F_{xi,0} is ridge-strongly convex with minimiser x*, and
	// F* >= G(lambda), so gap >= ridge/2 ||x - x*||^2 at every x. This ties
	// Gap, RelErr and x* together: a wrong one of them breaks it.
	if !(in.LambdaInf <= 1) {
		t.Fatalf("||lambda*||_inf = %g > xi = 1", in.LambdaInf)
	}
	check := func(what string, x []float64, delta float64) {
		g := in.Gap(x, 1, delta, w)
		if e, bound := in.RelErr(x), math.Sqrt(2*g/in.Ridge)/norm(in.XStar); !(e <= bound*(1+1e-9)+1e-15) {
			t.Errorf("%s: relative error %.3g above the gap's bound %.3g (gap %.3g)", what, e, bound, g)
		}
	}
	for k := 0; k < 20; k++ {
		for i := range x {
			x[i] = in.XStar[i] + math.Sin(float64(3*k+i))*math.Pow(10, -float64(k%6))
		}
		check("near x*", x, 1e-6)
	}
	check("x*_delta", res.X, delta)
	if e, bound := in.RelErr(res.X), math.Sqrt(2*g/in.Ridge)/norm(in.XStar); !(e > 0 && e < bound) {
		t.Errorf("x*_delta: relative error %.3g, want in (0, %.3g)", e, bound)
	}
	// RelErr itself: one coordinate moved by h gives h / ||x*||.
	copy(x, in.XStar)
	x[3] += 1e-3
	if e, want := in.RelErr(x), 1e-3/norm(in.XStar); math.Abs(e-want) > 1e-9*want {
		t.Errorf("RelErr of x* + 1e-3 e_3 = %.15g, want %.15g", e, want)
	}
}

// TestRunMethodsAndSummary: every QP method runs, records one point per
// 1000 steps, and the summary names them all.
func TestRunMethodsAndSummary(t *testing.T) {
	in := testInstance(t)
	methods := QPMethods()
	var runs []*Run
	var d0, dl float64
	for _, m := range methods {
		if m.Kind == KindStatic {
			continue
		}
		r := RunMethod(in, m, 1, 40000, 1, 0, 0)
		if m.Name == "Nested-SGDM" {
			d0, dl = r.Delta0, r.DeltaEnd
		}
		runs = append(runs, r)
	}
	for _, m := range methods {
		if m.Kind == KindStatic {
			runs = append(runs, RunMethod(in, m, 1, 40000, 1, d0, dl))
		}
	}
	for _, r := range runs {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Method, r.Err)
		}
		if len(r.Steps) < 38 || len(r.Steps) > 40 || len(r.Gap) != len(r.Steps) || math.IsNaN(r.Final) {
			t.Errorf("%s: %d observations, final %v", r.Method, len(r.Steps), r.Final)
		}
	}
	if d0 != 0.05 || !(dl < d0) {
		t.Errorf("Nested-SGDM schedule %g .. %g", d0, dl)
	}
	var buf bytes.Buffer
	Summary(&buf, methods, byMethod(methods, runs))
	for _, m := range methods {
		if !strings.Contains(buf.String(), m.Name) {
			t.Errorf("summary lacks %s", m.Name)
		}
	}
	if _, err := Select(methods, "Nested-SGD, nt"); err != nil {
		t.Error(err)
	}
	if _, err := Select(methods, "Nested-Nope"); err == nil {
		t.Error("Select accepted an unknown name")
	}
}

func TestGenerateQP(t *testing.T) {
	p := GenerateQP(3, 10, 20, 5, 0.1)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(p.Phi) != 10 || len(p.A) != 20 || p.N != 5 {
		t.Fatalf("shape %d x %d, %d rows", len(p.Phi), p.N, len(p.A))
	}
	for j, r := range p.A {
		if math.Abs(norm(r)-1) > 1e-12 || p.B[j] < 0 {
			t.Fatalf("row %d: norm %v, b %v", j, norm(r), p.B[j])
		}
	}
	q := GenerateQP(3, 10, 20, 5, 0.1)
	if q.B[7] != p.B[7] {
		t.Error("not reproducible from the seed")
	}
}

// TestReferencesChecked: the generated instances' references (those without
// a cvxopt file) come from the exact method and pass the big.Float KKT
// check; the check rejects x* moved by 1e-7 and multipliers of the wrong
// sign, so it is not a formality.
func TestReferencesChecked(t *testing.T) {
	ins, err := QPInstances(2, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range ins {
		if !(in.RefKKT <= refTol && in.RefGap <= refTol) || !math.IsNaN(in.RefCheck) {
			t.Errorf("%s: KKT %.3g gap %.3g ref %v", in.Name, in.RefKKT, in.RefGap, in.RefCheck)
		}
		res, err := softpen.Solve(context.Background(), in.P, &softpen.Options{Method: softpen.MethodActiveSet, Tol: refTol})
		if err != nil {
			t.Fatal(err)
		}
		x := append([]float64(nil), res.X...)
		x[0] += 1e-7
		if err := in.checkKKT(x, res.Lambda); err == nil {
			t.Errorf("%s: x* + 1e-7 e_0 passes the check", in.Name)
		}
		lam := append([]float64(nil), res.Lambda...)
		for j := range lam {
			if lam[j] == 0 {
				lam[j] = -1e-6
				break
			}
		}
		if err := in.checkKKT(res.X, lam); err == nil {
			t.Errorf("%s: a negative multiplier passes the check", in.Name)
		}
		if err := in.checkKKT(res.X, res.Lambda); err != nil {
			t.Errorf("%s: %v", in.Name, err)
		}
	}
}
