package qpgen

import (
	"math"
	"math/big"
	"testing"
)

// TestNearCopyGap: the constraints active at x* of the near-copy families
// (equalities, fixed variables, rows held at equality) are no nearer to
// dependent than their gap says: in the metric of H^-1, the metric of the
// solver's normals, no member's squared distance from the span of those
// before it, relative to its own norm, is below gap^2/64 unless it is
// exactly zero (a member that depends on the others exactly, and
// consistently, with the construction's exact data). Structures sharing
// columns made pairs gap^2 from dependent (2e-33 at gap 2^-27), beyond
// float64 and beyond what MayBeUndecided says (nearColumns).
func TestNearCopyGap(t *testing.T) {
	for _, f := range []string{"eq-near-copy", "row-near-copy"} {
		for _, n := range []int{2, 3, 5, 8, 12, 16} {
			for _, s := range seedsFor(f) {
				q := Generate(f, n, s)
				rows := append([][]float64(nil), q.Aeq...)
				for i := range q.Lower {
					if q.Lower[i] == q.Upper[i] {
						e := make([]float64, n)
						e[i] = 1
						rows = append(rows, e)
					}
				}
				for j, a := range q.A {
					if exactSlack(a, q.B[j], q.XStar).Sign() == 0 {
						rows = append(rows, a)
					}
				}
				if d := smallestPivot(q.H, rows); d < q.NearGap*q.NearGap/64 {
					t.Errorf("%s: a constraint active at x* is %.3g (squared) from the span of the others, gap %g", q.Name, d, q.NearGap)
				}
			}
		}
	}
}

// smallestPivot returns the smallest nonzero pivot of the Gram matrix of
// rows in the metric of H^-1, each relative to its row's squared norm in
// it, taking the rows in order and skipping those with pivot zero (exact,
// in big.Rat).
func smallestPivot(h [][]float64, rows [][]float64) float64 {
	hm := make([][]*big.Rat, len(h))
	for i := range hm {
		hm[i] = ratVec(h[i])
	}
	kinv, _ := invRat(hm)
	var kept, keptK [][]*big.Rat // the rows kept, and H^-1 times each
	best := math.Inf(1)
	for _, r := range rows {
		a := ratVec(r)
		ka := matVecRat(kinv, a)
		k := len(kept)
		d := dotRat(a, ka)
		norm := new(big.Rat).Set(d)
		if k > 0 {
			g := make([][]*big.Rat, k)
			gk := make([]*big.Rat, k)
			for i := range g {
				g[i] = make([]*big.Rat, k)
				for j := range g[i] {
					g[i][j] = dotRat(kept[i], keptK[j])
				}
				gk[i] = dotRat(kept[i], ka)
			}
			inv, _ := invRat(g)
			d.Sub(d, dotRat(gk, matVecRat(inv, gk)))
		}
		if d.Sign() == 0 {
			continue
		}
		v, _ := d.Quo(d, norm).Float64()
		best = math.Min(best, v)
		kept, keptK = append(kept, a), append(keptK, ka)
	}
	return best
}

// TestPrimalBackward: issue 27's answer x = (1/2, 1/2) to x_1 + x_2 = 1,
// x_1 + (1+d) x_2 = 1+d violates the second equality by d/2, far beyond
// rounding for every gap of the near-copy families; x* = (0, 1) violates
// nothing, and an x* rounded to float64 at most half a unit (here
// x_1 + 3 x_2 = 1 at x = (0, 1/3)).
func TestPrimalBackward(t *testing.T) {
	for _, d := range nearCopyGaps {
		e := 1 + d
		q := &QP{N: 2, H: [][]float64{{1, 0}, {0, 1}}, C: []float64{0, 0},
			Aeq: [][]float64{{1, 1}, {1, e}}, Beq: []float64{1, e}}
		if b := PrimalBackward(q, []float64{0, 1}); b != 0 {
			t.Errorf("gap %g: x* violates by %g units", d, b)
		}
		if b := PrimalBackward(q, []float64{0.5, 0.5}); b < 1000 {
			t.Errorf("gap %g: x = (1/2, 1/2) violates by only %g units", d, b)
		}
	}
	// x_1 + 3 x_2 = 1 at x = (0, 1/3) rounded to float64.
	q := &QP{N: 2, H: [][]float64{{1, 0}, {0, 1}}, C: []float64{0, 0}, Aeq: [][]float64{{1, 3}}, Beq: []float64{1}}
	if b := PrimalBackward(q, []float64{0, 1.0 / 3}); b > 0.5 {
		t.Errorf("x* rounded violates by %g units", b)
	}
}
