package baseline

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// paperQP reads seed s of the paper's QP (testqp.Paper) and its reference
// solution.
func paperQP(t testing.TB, s int) (*Problem, []float64) {
	t.Helper()
	q, ref, err := testqp.Paper(filepath.Join("..", "..", "..", "testdata", "qp"), s)
	if err != nil {
		t.Fatal(err)
	}
	// The paper's rows are unit norm already; normalise anyway.
	a := testqp.Dense(q.A)
	b := append([]float64(nil), q.B...)
	for j := range b {
		r := a.Row(j)
		var s float64
		for _, v := range r {
			s += v * v
		}
		s = math.Sqrt(s)
		for k := range r {
			r[k] /= s
		}
		b[j] /= s
	}
	return &Problem{Phi: testqp.Dense(q.Phi), Y: q.Y, Ridge: q.Ridge, A: a, B: b}, ref.X
}

type method interface {
	Solve(*Problem, Run) ([]float64, error)
}

// TestConverges: each baseline, at the paper's chosen settings, gets close
// to the reference solution of the paper's QP (a loose bound: they are the
// slow methods of the comparison), its error falls as it runs, and the
// observer sees every window.
func TestConverges(t *testing.T) {
	steps := int64(4e6)
	if testing.Short() {
		steps = 1e6
	}
	for _, tc := range []struct {
		name  string
		m     method
		bound float64
	}{
		{"SASC-SGD", SASC{}, 0.1},
		{"NT", NT{}, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ref := paperQP(t, 1)
			var first, last float64 = -1, 0
			var calls int64
			x, err := tc.m.Solve(p, Run{Steps: steps, Seed: 1, ObserveEvery: 10000, Observe: func(k int64, x []float64) {
				calls++
				e := testqp.RelErr(x, ref)
				if first < 0 {
					first = e
				}
				last = e
			}})
			if err != nil {
				t.Fatal(err)
			}
			e := testqp.RelErr(x, ref)
			t.Logf("%s: relative error %.3g after %d steps (first observed %.3g)", tc.name, e, steps, first)
			if calls != steps/10000 {
				t.Errorf("%d observations, want %d", calls, steps/10000)
			}
			if math.IsNaN(e) || e > tc.bound {
				t.Errorf("relative error %.3g > %g", e, tc.bound)
			}
			if last >= first {
				t.Errorf("error did not fall: first %.3g, last %.3g", first, last)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	p, _ := paperQP(t, 1)
	q := *p
	q.Ridge = 0
	if _, err := (SASC{}).Solve(&q, Run{Steps: 10}); err == nil {
		t.Error("SASC accepted ridge 0")
	}
	q = *p
	q.B = q.B[:3]
	if _, err := (NT{}).Solve(&q, Run{Steps: 10}); err == nil {
		t.Error("NT accepted a short B")
	}
}
