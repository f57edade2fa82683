package activeset

import "math"

// rowBound is a row's violation v, as last computed at a point y, less
// each of y's stamps: at the current point, whose offsets are path and
// anchor, v + min(path - pathStamp, anchor - anchorStamp) bounds the row's
// violation, and that is min(p + path, a + anchor). Stored as one pair a
// row, a scan reads 16 bytes a row from one array, and the scans'
// bookkeeping of m = 125000 rows fits a 2 MB L2. There is no bound per
// block of rows: keeping one up costs more where the rows fit in cache
// (BenchmarkMushroomsSVM) than passing over blocks saves on many rows
// (BenchmarkLargeQP).
//
// Rounding: p + path is v + (path - pathStamp) to about 2 ulp(|v| + path),
// and the offsets stay below 1 + ||x||_inf (they restart there): far
// below the rounding of v itself, which the certificate allows for.
type rowBound struct{ p, a float64 }

// at is the bound at the offsets path and anchor.
func (r rowBound) at(path, anchor float64) float64 { return min(r.p+path, r.a+anchor) }

// computedBound is the bound of a violation v computed where the stamps
// are path and anchor.
func computedBound(v, path, anchor float64) rowBound { return rowBound{v - path, v - anchor} }

var (
	unknownBound = rowBound{math.Inf(1), math.Inf(1)}   // not computed since the stamps restarted
	zeroRowBound = rowBound{math.Inf(-1), math.Inf(-1)} // a zero row: never violated (b >= 0 checked at setup)
)

// drift bounds how far the rows' violations can have moved since each was
// last computed, so that scans skip rows that provably stay satisfied.
//
// Rows are unit vectors: a row's violation at x differs from its value at
// the point y where it was computed by at most ||x - y||. No y is stored
// per row; two bounds on ||x - y|| are kept, and the smaller is used:
//
//   - the path: the sum of the lengths of the steps x made between the
//     points visited (every scan). A row computed at y is stamped with the
//     path at y (pathStamp); at x, path - stamp >= ||x - y||. Tight while
//     x moves straight.
//   - the anchors: an anchor point xa, moved to x at every full scan, and
//     the length chain of the anchors' path. A row computed at y is
//     stamped chain - ||y - xa|| (anchorStamp); at x,
//     chain + ||x - xa|| - stamp >= ||x - y|| by the triangle inequality
//     through the anchors between y and x. Tight while x zigzags about
//     the anchor, as the dual method's x does: on a separable SVM the
//     path grows to many times the direct distance late in a solve
//     (BenchmarkSeparableSVM).
//
// Rounding: each offset minus its stamp is exact to ulp(offset). Once an
// offset exceeds 1 + ||x||_inf its bound restarts at x, so that the
// rounding stays far below PrimalTol (1 + ||x||_inf): the path's alone,
// the rows' path stamps set to -Inf (their anchor bounds hold); the
// anchors' (never before the path's: their offset is the shorter), with
// every stored violation dropped.
type drift struct {
	seen   []float64 // the point of the last measure
	path   float64   // length of the path of the points visited, to seen
	anchor []float64 // xa
	chain  float64   // length of the anchors' path, to xa
	dist   float64   // ||seen - xa||
}

// measure moves to x (||x||_inf = xn) and reports which bounds must be
// restarted: the path's (path > 1 + xn), the anchors' too
// (chain + dist > 1 + xn).
func (d *drift) measure(x []float64, xn float64) (path, anchors bool) {
	step, from := 0.0, 0.0
	seen, a := d.seen[:len(x)], d.anchor[:len(x)]
	for i, v := range x {
		e, f := v-seen[i], v-a[i]
		step += e * e
		from += f * f
		seen[i] = v
	}
	d.path += math.Sqrt(step)
	d.dist = math.Sqrt(from)
	return d.path > 1+xn, d.chain+d.dist > 1+xn
}

// offsets are the current point's: a row's violation is at most its
// stored value plus the smaller of offset minus stamp, path and anchors.
func (d *drift) offsets() (path, anchor float64) { return d.path, d.chain + d.dist }

// stamps are those of a row computed at the current point.
func (d *drift) stamps() (path, anchor float64) { return d.path, d.chain - d.dist }

// reanchor moves the anchor to the current point: the stamps made so far
// stay valid (the chain grows by the distance moved).
func (d *drift) reanchor() {
	d.chain += d.dist
	d.dist = 0
	copy(d.anchor, d.seen)
}

// restartPath makes the current point the start of the path (the rows'
// path stamps must be set to -Inf with it).
func (d *drift) restartPath() { d.path = 0 }

// restart makes x the start of both bounds: every stored violation must
// be forgotten with it (their stamps no longer mean anything).
func (d *drift) restart(x []float64) {
	d.path, d.chain, d.dist = 0, 0, 0
	copy(d.seen, x)
	copy(d.anchor, x)
}
