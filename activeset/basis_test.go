package activeset

import (
	"fmt"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/vec"
)

// TestNearCopyPairsKeepFactor: several pairs of equalities 2^-27 apart
// (qpgen's eq-near-copy at seeds 1 and 5), each fixing a coordinate
// through 1/gap. Behind the first pair's pivot (1e-17) the Gram factor
// formed every later row with an error amplified by 1e8: pivots above 1
// (805, 6e18, for unit normals whose squared distance from any span is at
// most 1), null directions that were not null, and the set-up called the
// problems infeasible. With the QR factor kept behind a nearly dependent
// member (basis.go) every pivot is a squared distance, and the answer is
// x* to rounding.
func TestNearCopyPairsKeepFactor(t *testing.T) {
	for _, n := range []int{12, 40} {
		for _, seed := range []uint64{1, 5} {
			q := qpgen.Generate("eq-near-copy", n, seed)
			name := fmt.Sprintf("n%d/s%d", n, seed)
			s := mustNew(t, fromGen(q))
			r := s.Solve(ctx)
			if r.Status != StatusSolved {
				t.Errorf("%s: status %v", name, r.Status)
				continue
			}
			if e := maxAbsDiff(r.X, q.XStar); e > 1e-12*max(1, vec.MaxAbs(q.XStar)) {
				t.Errorf("%s: max |x - x*| = %.3g", name, e)
			}
			for i, d := range s.fac.d[:len(s.ws)] {
				if !(d >= 0 && d <= 1+1e-12) {
					t.Errorf("%s: member %d has pivot %g, not a squared distance of a unit normal", name, i, d)
				}
			}
		}
	}
}
