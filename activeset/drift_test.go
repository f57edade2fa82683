package activeset

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/softpen/softpen/mat"
	"github.com/softpen/softpen/vec"
)

// TestDriftBoundsHold: along a zigzag walk of x with full scans (anchor
// moves), partial scans and path restarts, a row's stored violation plus
// the smaller drift bound is never below its violation at x; and the
// anchors' bound is the tighter one most of the time on a zigzag (what it
// is for).
func TestDriftBoundsHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	const n, m = 8, 200
	rows := make([][]float64, m)
	for j := range rows {
		rows[j] = make([]float64, n)
		for i := range rows[j] {
			rows[j][i] = rng.NormFloat64()
		}
		vec.Scale(1/mat.Norm(rows[j]), rows[j])
	}
	d := drift{seen: make([]float64, n), anchor: make([]float64, n)}
	x := make([]float64, n)
	d.restart(x)
	viol, pathAt, anchorAt := make([]float64, m), make([]float64, m), make([]float64, m)
	for j := range viol {
		viol[j] = math.Inf(1)
	}
	tighter, checked := 0, 0
	for step := 0; step < 2000; step++ {
		// Zigzag: a big step out and most of it back.
		for i := range x {
			x[i] += 0.05 * rng.NormFloat64()
			if step%2 == 1 {
				x[i] *= 0.9
			}
		}
		path, anchors := d.measure(x, vec.MaxAbs(x))
		switch {
		case anchors:
			d.restart(x)
			for j := range viol {
				viol[j] = math.Inf(1)
			}
		case path:
			d.restartPath()
			for j := range pathAt {
				pathAt[j] = math.Inf(-1)
			}
		}
		full := step%25 == 0
		if full {
			d.reanchor()
		}
		po, ao := d.offsets()
		ps, as := d.stamps()
		for j, r := range rows {
			v := vec.Dot(r, x)
			if !math.IsInf(viol[j], 1) {
				bp, ba := po-pathAt[j], ao-anchorAt[j]
				if viol[j]+min(bp, ba) < v-1e-12 {
					t.Fatalf("step %d row %d: bound %v + min(%v, %v) below the violation %v", step, j, viol[j], bp, ba, v)
				}
				checked++
				if ba < bp {
					tighter++
				}
			}
			if full || rng.IntN(10) == 0 {
				viol[j], pathAt[j], anchorAt[j] = v, ps, as
			}
		}
	}
	if tighter < checked/2 {
		t.Errorf("the anchors' bound was the tighter in %d of %d checks", tighter, checked)
	}
}
