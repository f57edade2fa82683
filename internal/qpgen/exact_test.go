package qpgen

import (
	"math"
	"math/big"
	"testing"
)

func exactFits(q *QP) bool {
	if q.N > ExactMaxN {
		return false
	}
	k := len(q.A) + len(q.Aeq)
	for i := 0; i < q.N; i++ {
		if !math.IsInf(lowerOf(q, i), 0) {
			k++
		}
		if !math.IsInf(upperOf(q, i), 0) {
			k++
		}
	}
	return k <= ExactMaxCons
}

// TestExactMatchesConstruction: on tiny instances the exact enumeration
// finds the constructed optimum — bit for bit (and with F* equal as a
// rational) when the construction is exact, to the construction's rounding
// otherwise — and its multipliers pass the KKT checker.
func TestExactMatchesConstruction(t *testing.T) {
	for _, f := range Families() {
		tested := 0
		for _, n := range []int{1, 2, 3, 4} {
			for _, s := range seedsFor(f) {
				q := Generate(f, n, s)
				if !exactFits(q) {
					continue
				}
				tested++
				ex, err := Exact(q)
				if err != nil {
					t.Fatalf("%s: %v", q.Name, err)
				}
				if q.Infeasible {
					if !ex.Infeasible {
						t.Errorf("%s: Exact found x = %v for an infeasible problem", q.Name, ex.X)
					}
					continue
				}
				if ex.Infeasible {
					t.Errorf("%s: Exact says infeasible", q.Name)
					continue
				}
				if q.Exact {
					for i := range q.XStar {
						if ex.XRat[i].Cmp(ratOf(q.XStar[i])) != 0 {
							t.Errorf("%s: x[%d] = %s, constructed %g", q.Name, i, ex.XRat[i].FloatString(20), q.XStar[i])
						}
					}
					if ex.F.Cmp(ObjectiveRat(q, q.XStar)) != 0 {
						t.Errorf("%s: F* differs from F(XStar)", q.Name)
					}
				} else {
					// XStar is the exact optimum for c + r, r its stationarity
					// residual (the rounding of c), and the optimum moves by at
					// most ||H^-1||_2 ||dc||_2 when c moves by dc; a factor 10
					// covers the rounding of b.
					rs, err := KKT(q, q.XStar, q.LambdaStar, q.NuStar, q.ZStar)
					if err != nil {
						t.Fatal(err)
					}
					scale := 1.0
					for _, v := range q.XStar {
						scale = math.Max(scale, math.Abs(v))
					}
					tol := 10*invNorm(q.H)*math.Sqrt(float64(n))*rs.Stationarity + 1e-15*scale
					for i := range q.XStar {
						if d := math.Abs(ex.X[i] - q.XStar[i]); d > tol {
							t.Errorf("%s: x[%d] = %g, constructed %g (tolerance %g)", q.Name, i, ex.X[i], q.XStar[i], tol)
						}
					}
				}
				r, err := KKT(q, ex.X, ex.Lambda, ex.Nu, ex.Z)
				if err != nil {
					t.Fatal(err)
				}
				if r.RelStationarity > 1e-15 || r.RelPrimal > 1e-15 || r.DualViolation != 0 || r.RelComplementarity > 1e-15 || math.Abs(r.RelGap) > 1e-14 {
					t.Errorf("%s: exact answer's residuals stat %.2g prim %.2g dual %.2g comp %.2g gap %.2g", q.Name,
						r.RelStationarity, r.RelPrimal, r.DualViolation, r.RelComplementarity, r.RelGap)
				}
			}
		}
		t.Logf("%s: %d tiny instances solved exactly", f, tested)
		if tested < 4 {
			t.Errorf("%s: only %d tiny instances fit Exact", f, tested)
		}
	}
}

// TestExactHandmade: min 1/2 |x|^2 - x1 - x2 subject to x1 + x2 <= 1 (twice,
// and once doubled), a zero row with b = 0, x1 >= 0: x* = (1/2, 1/2),
// F* = -3/4, with four dependent rows active.
func TestExactHandmade(t *testing.T) {
	q := &QP{
		N: 2, H: [][]float64{{1, 0}, {0, 1}}, C: []float64{-1, -1},
		A:     [][]float64{{1, 1}, {1, 1}, {2, 2}, {0, 0}},
		B:     []float64{1, 1, 2, 0},
		Lower: []float64{0, math.Inf(-1)}, Upper: []float64{math.Inf(1), math.Inf(1)},
	}
	ex, err := Exact(q)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Infeasible || ex.X[0] != 0.5 || ex.X[1] != 0.5 || ex.F.Cmp(big.NewRat(-3, 4)) != 0 {
		t.Fatalf("got x = %v, F = %v, infeasible %v", ex.X, ex.F, ex.Infeasible)
	}
	// the same with an equality x1 - x2 = 0 stated twice: still (1/2, 1/2)
	q.Aeq, q.Beq = [][]float64{{1, -1}, {-2, 2}}, []float64{0, 0}
	if ex, err = Exact(q); err != nil || ex.X[0] != 0.5 || ex.X[1] != 0.5 {
		t.Fatalf("with equalities: x = %v, err %v", ex.X, err)
	}
	// inconsistent dependent equality: infeasible
	q.Beq[1] = 1e-300
	if ex, err = Exact(q); err != nil || !ex.Infeasible {
		t.Fatalf("inconsistent equalities: infeasible = %v, err %v", ex.Infeasible, err)
	}
	// too large
	big := Generate("many-rows", 2, 1)
	if _, err := Exact(big); err == nil {
		t.Error("Exact accepted 20 rows")
	}
}

// TestExactLargest runs Exact at its size limit (n = 6, 12 constraints).
func TestExactLargest(t *testing.T) {
	q := Generate("cond-dense", 6, 8)
	q.A, q.B = q.A[:10], q.B[:10]
	q.LambdaStar = q.LambdaStar[:10]
	ex, err := Exact(q)
	if err != nil || ex.Infeasible {
		t.Fatalf("err %v, infeasible %v", err, ex != nil && ex.Infeasible)
	}
	r, err := KKT(q, ex.X, ex.Lambda, ex.Nu, ex.Z)
	if err != nil || r.RelStationarity > 1e-15 || r.RelPrimal > 1e-15 || r.DualViolation != 0 || r.RelComplementarity > 1e-15 {
		t.Errorf("residuals %+v, err %v", r, err)
	}
}
