package vec

// The packed-panel micro-kernel of blocked matrix products (package mat's
// Gram and Cholesky). The panels' widths are fixed on every path, so
// callers pack once for all; TileMulAddQuad takes two panels of each kind
// at once, in one kernel where TileShape says so (avx512).

const (
	// TileA is the width of an a panel of TileMulAdd: a panel holds TileA
	// columns of a matrix, row p at a[p*TileA : (p+1)*TileA].
	TileA = 12
	// TileB is the width of a b panel of TileMulAdd, row p at
	// b[p*TileB : (p+1)*TileB].
	TileB = 4
)

// TileMulAdd adds the product of two packed panels to a TileB x TileA block
// of c:
//
//	c[j*ldc+i] += sum_{p<kc} a[p*TileA+i] * b[p*TileB+j],  i < TileA, j < TileB,
//
// with kc = len(a)/TileA, the depth of the panels: the TileA x TileB block
// of A'B for the kc x TileA panel a and the kc x TileB panel b, stored
// transposed (row j of the block is column j of b against all of a). This
// is the inner kernel of package mat's Gram, which packs the columns of a
// row-major matrix into such panels; see mat/gram.go for the blocking.
//
// It panics, with a message naming TileMulAdd, unless len(a) is a multiple
// of TileA, len(b) == TileB*kc, ldc >= TileA and len(c) >=
// (TileB-1)*ldc + TileA. It reads nothing of c outside the block and
// writes nothing else.
//
// Each sum over p is formed in kc (possibly fused) multiply-adds in order
// of p and then added to c[j*ldc+i], so the new entry is within
// DotErrorBound(kc+1) * (|c| + sum_p |a b|) of the exact c + sum; a NaN, or
// Inf times 0, in a term makes the entry NaN. The same inputs on the same
// path give the same bits; on amd64 with AVX2 and FMA (or AVX-512, which
// gives the same bits as AVX2) and on arm64 with NEON the kernel is
// assembly (fused multiply-adds), elsewhere Go (with fused multiply-adds
// wherever the compiler makes them). TileMulAdd does not allocate.
func TileMulAdd(c []float64, ldc int, a, b []float64) {
	kc := len(a) / TileA
	switch {
	case len(a) != kc*TileA:
		panic("vec: TileMulAdd: len(a) = " + itoa(len(a)) + " is not a multiple of 12")
	case len(b) != kc*TileB:
		panic("vec: TileMulAdd: len(b) = " + itoa(len(b)) + ", want len(a)/3 = " + itoa(kc*TileB))
	case ldc < TileA:
		panic("vec: TileMulAdd: ldc = " + itoa(ldc) + " < 12")
	case len(c) < (TileB-1)*ldc+TileA:
		panic("vec: TileMulAdd: len(c) = " + itoa(len(c)) + " < 3*ldc+12 = " + itoa((TileB-1)*ldc+TileA))
	}
	switch {
	case useAVX512:
		tileMulAddAVX512(c, ldc, a, b)
	case useTileAsm:
		tileMulAddAsm(c, ldc, a, b)
	default:
		tileMulAddGeneric(c, ldc, a, b)
	}
}

// TileShape is the block, a columns by b rows of c, that the fastest
// kernel of this path takes at once: 24 x 8 (TileMulAddQuad, two panels
// of each kind) on the avx512 path, where four 4 x 12 tiles at once keep
// both FMA pipes busy; TileA x TileB elsewhere, where TileMulAddQuad is
// only four calls of TileMulAdd. Callers pack panels of TileA and TileB
// columns either way and take blocks of TileShape where they fit. The
// shape is fixed when the program starts.
func TileShape() (a, b int) {
	if useAVX512 {
		return 2 * TileA, 2 * TileB
	}
	return TileA, TileB
}

// TileMulAddQuad is TileMulAdd on two a panels and two b panels at once:
// it adds to the 2*TileB x 2*TileA block of c the four products
//
//	TileMulAdd(c, ldc, a0, b0)            TileMulAdd(c[TileA:], ldc, a1, b0)
//	TileMulAdd(c[TileB*ldc:], ldc, a0, b1) TileMulAdd(c[TileB*ldc+TileA:], ldc, a1, b1)
//
// with the same bits as those four calls on the same path, and therefore
// the same accuracy. It panics, with a message naming TileMulAddQuad,
// unless len(a0) is a multiple of TileA, len(a1) == len(a0), len(b0) ==
// len(b1) == TileB*kc, ldc >= 2*TileA and len(c) >= (2*TileB-1)*ldc +
// 2*TileA. It reads nothing of c outside the block and writes nothing
// else. It does not allocate.
func TileMulAddQuad(c []float64, ldc int, a0, a1, b0, b1 []float64) {
	kc := len(a0) / TileA
	switch {
	case len(a0) != kc*TileA || len(a1) != len(a0):
		panic("vec: TileMulAddQuad: len(a0), len(a1) = " + itoa(len(a0)) + ", " + itoa(len(a1)) + ": not one multiple of 12")
	case len(b0) != kc*TileB || len(b1) != len(b0):
		panic("vec: TileMulAddQuad: len(b0), len(b1) = " + itoa(len(b0)) + ", " + itoa(len(b1)) + ", want len(a0)/3 = " + itoa(kc*TileB))
	case ldc < 2*TileA:
		panic("vec: TileMulAddQuad: ldc = " + itoa(ldc) + " < 24")
	case len(c) < (2*TileB-1)*ldc+2*TileA:
		panic("vec: TileMulAddQuad: len(c) = " + itoa(len(c)) + " < 7*ldc+24 = " + itoa((2*TileB-1)*ldc+2*TileA))
	}
	switch {
	case useAVX512:
		tileQuadAVX512(c, ldc, a0, a1, b0, b1)
	case useTileAsm:
		tileQuadAsm(c, ldc, a0, a1, b0, b1)
	default:
		tileQuadGeneric(c, ldc, a0, a1, b0, b1)
	}
}

// tileQuadAsm and tileQuadGeneric are TileMulAddQuad as four calls of
// the 4 x 12 kernel of their path (direct calls: a function value would
// make every slice escape).
func tileQuadAsm(c []float64, ldc int, a0, a1, b0, b1 []float64) {
	tileMulAddAsm(c, ldc, a0, b0)
	tileMulAddAsm(c[TileA:], ldc, a1, b0)
	tileMulAddAsm(c[TileB*ldc:], ldc, a0, b1)
	tileMulAddAsm(c[TileB*ldc+TileA:], ldc, a1, b1)
}

func tileQuadGeneric(c []float64, ldc int, a0, a1, b0, b1 []float64) {
	tileMulAddGeneric(c, ldc, a0, b0)
	tileMulAddGeneric(c[TileA:], ldc, a1, b0)
	tileMulAddGeneric(c[TileB*ldc:], ldc, a0, b1)
	tileMulAddGeneric(c[TileB*ldc+TileA:], ldc, a1, b1)
}

// tileMulAddGeneric takes the 12 x 4 block as three 4 x 4 blocks, each in
// sixteen scalar accumulators over all kc rows of the panels: few enough to
// stay in registers on arm64 (32) and to spill little on amd64 (16), and
// each a and b element loaded once per 4 x 4 block.
func tileMulAddGeneric(c []float64, ldc int, a, b []float64) {
	kc := len(b) / TileB
	a = a[:kc*TileA]
	b = b[:kc*TileB]
	for v := 0; v < TileA; v += 4 {
		var c00, c01, c02, c03, c10, c11, c12, c13 float64
		var c20, c21, c22, c23, c30, c31, c32, c33 float64
		for p := 0; p < kc; p++ {
			ap := a[p*TileA+v : p*TileA+v+4 : p*TileA+v+4]
			bp := b[p*TileB : p*TileB+4 : p*TileB+4]
			a0, a1, a2, a3 := ap[0], ap[1], ap[2], ap[3]
			b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
			c00 += a0 * b0
			c01 += a1 * b0
			c02 += a2 * b0
			c03 += a3 * b0
			c10 += a0 * b1
			c11 += a1 * b1
			c12 += a2 * b1
			c13 += a3 * b1
			c20 += a0 * b2
			c21 += a1 * b2
			c22 += a2 * b2
			c23 += a3 * b2
			c30 += a0 * b3
			c31 += a1 * b3
			c32 += a2 * b3
			c33 += a3 * b3
		}
		r := c[v : v+4 : v+4]
		r[0], r[1], r[2], r[3] = r[0]+c00, r[1]+c01, r[2]+c02, r[3]+c03
		r = c[ldc+v : ldc+v+4 : ldc+v+4]
		r[0], r[1], r[2], r[3] = r[0]+c10, r[1]+c11, r[2]+c12, r[3]+c13
		r = c[2*ldc+v : 2*ldc+v+4 : 2*ldc+v+4]
		r[0], r[1], r[2], r[3] = r[0]+c20, r[1]+c21, r[2]+c22, r[3]+c23
		r = c[3*ldc+v : 3*ldc+v+4 : 3*ldc+v+4]
		r[0], r[1], r[2], r[3] = r[0]+c30, r[1]+c31, r[2]+c32, r[3]+c33
	}
}
