package activeset

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/mat"
)

// fromGen converts a generated QP to the engine's Problem.
func fromGen(q *qpgen.QP) *Problem {
	p := &Problem{N: q.N, H: dense(q.H), C: q.C, B: q.B, Beq: q.Beq, Lower: q.Lower, Upper: q.Upper}
	if len(q.A) > 0 {
		p.A = dense(q.A)
	}
	if len(q.Aeq) > 0 {
		p.Aeq = dense(q.Aeq)
	}
	return p
}

// TestFamilies solves every generator family at several sizes and seeds and
// judges each answer with the generator's independent checks: big.Float KKT
// residuals (relative stationarity, violation, dual signs, complementarity
// and gap all <= 1e-9), or a Farkas certificate checked in big.Float.
func TestFamilies(t *testing.T) {
	sizes := []int{1, 2, 5, 12, 40, 100}
	if !testing.Short() {
		sizes = append(sizes, 300)
	}
	for _, fam := range qpgen.Families() {
		worst, iters := 0.0, 0
		for _, n := range sizes {
			for seed := uint64(1); seed <= 4; seed++ {
				q := qpgen.Generate(fam, n, seed)
				name := fmt.Sprintf("%s/n%d/s%d", fam, n, seed)
				s, err := New(fromGen(q), nil)
				if err != nil {
					if _, ok := err.(*mat.NotPDError); ok {
						t.Errorf("%s: %v", name, err)
						continue
					}
					t.Fatalf("%s: %v", name, err)
				}
				r := s.Solve()
				iters = max(iters, r.Iter)
				if q.Infeasible {
					if r.Status != StatusInfeasible {
						t.Errorf("%s: status %v on an infeasible problem (viol %g)", name, r.Status, r.MaxViolation)
						continue
					}
					if ok, why := qpgen.CheckFarkas(q, r.FarkasA, r.FarkasEq); !ok {
						t.Errorf("%s: Farkas certificate refused: %s", name, why)
					}
					continue
				}
				if r.Status != StatusOptimal {
					t.Errorf("%s: status %v after %d iterations", name, r.Status, r.Iter)
					continue
				}
				res, err := qpgen.KKT(q, r.X, r.Lambda, r.Nu, r.Z)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				worst = math.Max(worst, res.Worst())
				if res.Worst() > 1e-9 {
					t.Errorf("%s: KKT %.3g (stat %.2g primal %.2g dual %.2g comp %.2g gap %.2g), iter %d",
						name, res.Worst(), res.RelStationarity, res.RelPrimal, res.RelDual, res.RelComplementarity, res.RelGap, r.Iter)
				}
			}
		}
		t.Logf("%-18s worst KKT %.2g, most iterations %d", fam, worst, iters)
	}
}
