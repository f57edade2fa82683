package vec

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

type tilePath struct {
	name string
	f    func(c []float64, ldc int, a, b []float64)
}

// tilePaths are the TileMulAdd implementations this CPU runs: generic,
// then the assembly ones (avx2 and avx512, or neon), each called directly.
func tilePaths() []tilePath {
	ps := []tilePath{{"generic", tileMulAddGeneric}}
	if useTileAsm {
		ps = append(ps, tilePath{asmName, tileMulAddAsm})
	}
	if useAVX512 {
		ps = append(ps, tilePath{"avx512", tileMulAddAVX512})
	}
	return ps
}

// tileSelected is the name of the path TileMulAdd takes on this CPU.
func tileSelected() string {
	switch {
	case useAVX512:
		return "avx512"
	case useTileAsm:
		return asmName
	}
	return "generic"
}

// TestTileMulAddExactAndGuarded: at every depth 0..80 and a few larger,
// with ldc from 12 up, c at every offset 0..3: integer data give the exact
// c + A'B, every entry of c outside the block (between its rows and around
// it) keeps its guard, and a and b are unchanged.
func TestTileMulAddExactAndGuarded(t *testing.T) {
	depths := []int{}
	for k := 0; k <= 80; k++ {
		depths = append(depths, k)
	}
	depths = append(depths, 255, 256, 257, 1001)
	for _, p := range tilePaths() {
		for _, kc := range depths {
			for _, ldc := range []int{12, 13, 16, 29} {
				off := (kc + ldc) % 4
				a, chkA := vtGuarded(kc*TileA, off, func(i int) float64 { return vtVal(1, i) })
				b, chkB := vtGuarded(kc*TileB, 3-off, func(i int) float64 { return vtVal(2, i) })
				n := (TileB-1)*ldc + TileA
				c, chkC := vtGuarded(n, off, func(i int) float64 { return vtGuard })
				for j := 0; j < TileB; j++ {
					for i := 0; i < TileA; i++ {
						c[j*ldc+i] = float64(i - j)
					}
				}
				p.f(c, ldc, a, b)
				for j := 0; j < TileB; j++ {
					for i := 0; i < ldc && j*ldc+i < n; i++ {
						got := c[j*ldc+i]
						if i >= TileA {
							if math.Float64bits(got) != math.Float64bits(vtGuard) {
								t.Fatalf("%s kc=%d ldc=%d: c[%d*ldc+%d] outside the block written: %v", p.name, kc, ldc, j, i, got)
							}
							continue
						}
						want := float64(i - j)
						for q := 0; q < kc; q++ {
							want += vtVal(1, q*TileA+i) * vtVal(2, q*TileB+j)
						}
						if got != want {
							t.Fatalf("%s kc=%d ldc=%d: c[%d][%d] = %v, want %v", p.name, kc, ldc, j, i, got, want)
						}
					}
				}
				for i := range a {
					if a[i] != vtVal(1, i) {
						t.Fatalf("%s kc=%d: a changed at %d", p.name, kc, i)
					}
				}
				for i := range b {
					if b[i] != vtVal(2, i) {
						t.Fatalf("%s kc=%d: b changed at %d", p.name, kc, i)
					}
				}
				chkA(t, p.name+" TileMulAdd a")
				chkB(t, p.name+" TileMulAdd b")
				chkC(t, p.name+" TileMulAdd c")
			}
		}
	}
}

// TestTileMulAddRoundingBound: on inexact data of mixed magnitude each
// entry is within DotErrorBound(kc+1) * (|c| + sum |a b|) of the exact
// value (math/big), on every path.
func TestTileMulAddRoundingBound(t *testing.T) {
	for _, p := range tilePaths() {
		for _, kc := range []int{1, 2, 3, 7, 64, 255, 1000} {
			a := make([]float64, kc*TileA)
			b := make([]float64, kc*TileB)
			for i := range a {
				a[i] = vtWide(3, i)
			}
			for i := range b {
				b[i] = vtWide(4, i)
			}
			c := make([]float64, 3*TileA+TileA)
			for i := range c {
				c[i] = vtWide(5, i)
			}
			c0 := append([]float64(nil), c...)
			p.f(c, TileA, a, b)
			for j := 0; j < TileB; j++ {
				for i := 0; i < TileA; i++ {
					x := []float64{1}
					y := []float64{c0[j*TileA+i]}
					for q := 0; q < kc; q++ {
						x = append(x, a[q*TileA+i])
						y = append(y, b[q*TileB+j])
					}
					exact, abs := vtExactDot(x, y)
					if err := math.Abs(c[j*TileA+i] - exact); err > DotErrorBound(kc+1)*abs {
						t.Fatalf("%s kc=%d c[%d][%d]: error %g > bound %g", p.name, kc, j, i, err, DotErrorBound(kc+1)*abs)
					}
				}
			}
		}
	}
}

// TestTileMulAddSpecials: a NaN in a[p][i] makes column i of the block NaN,
// an Inf in b[p][j] makes row j ±Inf where a is nonzero and NaN where a is
// zero, and nothing else changes.
func TestTileMulAddSpecials(t *testing.T) {
	const kc = 5
	for _, p := range tilePaths() {
		for q := 0; q < kc; q++ {
			for i := 0; i < TileA; i++ {
				a := make([]float64, kc*TileA)
				b := make([]float64, kc*TileB)
				for k := range a {
					a[k] = 1
				}
				for k := range b {
					b[k] = 1
				}
				j := i % TileB
				a[q*TileA+i] = math.NaN()
				b[q*TileB+j] = math.Inf(1)
				a[q*TileA+(i+1)%TileA] = 0
				c := make([]float64, TileB*TileA)
				p.f(c, TileA, a, b)
				for jj := 0; jj < TileB; jj++ {
					for ii := 0; ii < TileA; ii++ {
						got := c[jj*TileA+ii]
						switch {
						case ii == i || (jj == j && ii == (i+1)%TileA):
							if !math.IsNaN(got) {
								t.Fatalf("%s p=%d i=%d: c[%d][%d] = %v, want NaN", p.name, q, i, jj, ii, got)
							}
						case jj == j:
							if !math.IsInf(got, 1) {
								t.Fatalf("%s p=%d i=%d: c[%d][%d] = %v, want +Inf", p.name, q, i, jj, ii, got)
							}
						default:
							want := float64(kc)
							if ii == (i+1)%TileA {
								want--
							}
							if got != want {
								t.Fatalf("%s p=%d i=%d: c[%d][%d] = %v, want %v", p.name, q, i, jj, ii, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestTileMulAddDeterministic: on inexact data, each path gives the same
// bits on a second call from the same c, TileMulAdd gives the bits of the
// path it selects (avx512, else the assembly one whenever useTileAsm,
// else generic), the avx2 and avx512 paths give the same bits (the same
// fused multiply-adds in the same order), and every path agrees with the
// generic one within twice the bound of TestTileMulAddRoundingBound.
func TestTileMulAddDeterministic(t *testing.T) {
	for _, kc := range []int{0, 1, 2, 5, 64, 257} {
		for _, ldc := range []int{12, 17} {
			a := make([]float64, kc*TileA)
			b := make([]float64, kc*TileB)
			for i := range a {
				a[i] = vtWide(6, i)
			}
			for i := range b {
				b[i] = vtWide(7, i)
			}
			c0 := make([]float64, (TileB-1)*ldc+TileA)
			for i := range c0 {
				c0[i] = vtWide(8, i)
			}
			run := func(f func(c []float64, ldc int, a, b []float64)) []float64 {
				c := append([]float64(nil), c0...)
				f(c, ldc, a, b)
				return c
			}
			var generic, selected []float64
			byName := map[string][]float64{}
			for _, p := range tilePaths() {
				got, again := run(p.f), run(p.f)
				byName[p.name] = got
				if p.name == "generic" {
					generic = got
				}
				if p.name == tileSelected() {
					selected = got
				}
				for k := range got {
					if math.Float64bits(got[k]) != math.Float64bits(again[k]) {
						t.Fatalf("%s kc=%d ldc=%d: c[%d] is %v, then %v", p.name, kc, ldc, k, got[k], again[k])
					}
				}
				for j := 0; j < TileB; j++ {
					for i := 0; i < TileA; i++ {
						k := j*ldc + i
						abs := math.Abs(c0[k])
						for q := 0; q < kc; q++ {
							abs += math.Abs(a[q*TileA+i] * b[q*TileB+j])
						}
						if d := math.Abs(got[k] - generic[k]); !(d <= 2*DotErrorBound(kc+1)*abs*1.01) {
							t.Fatalf("%s kc=%d ldc=%d: c[%d][%d] differs from generic by %g", p.name, kc, ldc, j, i, d)
						}
					}
				}
			}
			if x, y := byName["avx2"], byName["avx512"]; x != nil && y != nil {
				for k := range x {
					if math.Float64bits(x[k]) != math.Float64bits(y[k]) {
						t.Fatalf("kc=%d ldc=%d: c[%d] is %v on avx2, %v on avx512", kc, ldc, k, x[k], y[k])
					}
				}
			}
			if selected == nil {
				t.Fatalf("TileMulAdd's path %s is not among tilePaths", tileSelected())
			}
			pub := run(TileMulAdd)
			for k := range pub {
				if math.Float64bits(pub[k]) != math.Float64bits(selected[k]) {
					t.Fatalf("TileMulAdd kc=%d ldc=%d: c[%d] = %v, but its path (%s) gives %v", kc, ldc, k, pub[k], tileSelected(), selected[k])
				}
			}
		}
	}
}

func TestTileMulAddPanics(t *testing.T) {
	a, b, c := make([]float64, 24), make([]float64, 8), make([]float64, 48)
	for _, tc := range []struct {
		name string
		call func()
	}{
		{"a not a multiple of 12", func() { TileMulAdd(c, 12, a[:23], b) }},
		{"b short", func() { TileMulAdd(c, 12, a, b[:7]) }},
		{"ldc < 12", func() { TileMulAdd(c, 11, a, b) }},
		{"c short", func() { TileMulAdd(c[:47], 12, a, b) }},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, "TileMulAdd") {
					t.Errorf("%s: panic %v, want one naming TileMulAdd", tc.name, r)
				}
			}()
			tc.call()
		}()
	}
	TileMulAdd(c, 12, a, b)     // exact sizes do not panic
	TileMulAdd(c, 12, nil, nil) // nor does depth 0
	if n := testing.AllocsPerRun(10, func() { TileMulAdd(c, 12, a, b) }); n != 0 {
		t.Errorf("TileMulAdd allocates %v times", n)
	}
}

// BenchmarkTileMulAdd: the micro-kernel alone on panels in L1 (kc = 64) and
// L2 (kc = 256, 1024), in GFLOP/s (2 * 48 * kc flops per call).
func BenchmarkTileMulAdd(b *testing.B) {
	for _, p := range tilePaths() {
		for _, kc := range []int{64, 256, 1024} {
			b.Run(fmt.Sprintf("impl=%s/kc=%d", p.name, kc), func(b *testing.B) {
				x, y, c := make([]float64, kc*TileA), make([]float64, kc*TileB), make([]float64, TileA*TileB)
				for i := range x {
					x[i] = vtWide(1, i)
				}
				for i := range y {
					y[i] = vtWide(2, i)
				}
				for b.Loop() {
					p.f(c, TileA, x, y)
				}
				b.ReportMetric(float64(2*TileA*TileB*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

type tileQuadPath struct {
	name   string
	single func(c []float64, ldc int, a, b []float64) // its 4 x 12 kernel
	quad   func(c []float64, ldc int, a0, a1, b0, b1 []float64)
}

// tileQuadPaths are the TileMulAddQuad implementations this CPU runs,
// each with the TileMulAdd kernel of its path, called directly.
func tileQuadPaths() []tileQuadPath {
	ps := []tileQuadPath{{"generic", tileMulAddGeneric, tileQuadGeneric}}
	if useTileAsm {
		ps = append(ps, tileQuadPath{asmName, tileMulAddAsm, tileQuadAsm})
	}
	if useAVX512 {
		ps = append(ps, tileQuadPath{"avx512", tileMulAddAVX512, tileQuadAVX512})
	}
	return ps
}

// TestTileMulAddQuadGuarded: at every depth 0..40 and a few larger, with
// ldc from 24 up and the slices at several offsets, on inexact data with
// a NaN and an Inf at some depths, each path's TileMulAddQuad gives the
// bits of the four TileMulAdd calls of its path (so the bounds of
// TileMulAdd's tests hold), writes nothing of c outside the 8 x 24 block
// (between its rows or around it), leaves the panels unchanged, and
// TileMulAddQuad gives the bits of the path it selects.
func TestTileMulAddQuadGuarded(t *testing.T) {
	depths := []int{}
	for k := 0; k <= 40; k++ {
		depths = append(depths, k)
	}
	depths = append(depths, 255, 256, 257, 1001)
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	for _, p := range tileQuadPaths() {
		for _, kc := range depths {
			for _, ldc := range []int{24, 25, 31, 40} {
				off := (kc + ldc) % 4
				fa := func(s int) func(int) float64 {
					return func(i int) float64 {
						switch {
						case kc%7 == 3 && s == 11 && i == kc*TileA/2:
							return math.NaN()
						case kc%5 == 4 && s == 13 && i == kc*TileB-1:
							return math.Inf(-1)
						}
						return vtWide(s, i)
					}
				}
				a0, chkA0 := vtGuarded(kc*TileA, off, fa(10))
				a1, chkA1 := vtGuarded(kc*TileA, 3-off, fa(11))
				b0, chkB0 := vtGuarded(kc*TileB, 1, fa(12))
				b1, chkB1 := vtGuarded(kc*TileB, off, fa(13))
				n := (2*TileB-1)*ldc + 2*TileA
				c, chkC := vtGuarded(n, off, func(i int) float64 { return vtGuard })
				for j := 0; j < 2*TileB; j++ {
					for i := 0; i < 2*TileA; i++ {
						c[j*ldc+i] = vtWide(14, j*2*TileA+i)
					}
				}
				want := append([]float64(nil), c...)
				p.single(want, ldc, a0, b0)
				p.single(want[TileA:], ldc, a1, b0)
				p.single(want[TileB*ldc:], ldc, a0, b1)
				p.single(want[TileB*ldc+TileA:], ldc, a1, b1)
				pub := append([]float64(nil), c...)
				p.quad(c, ldc, a0, a1, b0, b1)
				for k := range c {
					if !same(c[k], want[k]) {
						t.Fatalf("%s kc=%d ldc=%d: c[%d*ldc+%d] = %v, four tiles give %v", p.name, kc, ldc, k/ldc, k%ldc, c[k], want[k])
					}
				}
				for i, v := range a0 {
					if !same(v, fa(10)(i)) {
						t.Fatalf("%s kc=%d: a0 changed at %d", p.name, kc, i)
					}
				}
				for i, v := range b1 {
					if !same(v, fa(13)(i)) {
						t.Fatalf("%s kc=%d: b1 changed at %d", p.name, kc, i)
					}
				}
				chkA0(t, p.name+" TileMulAddQuad a0")
				chkA1(t, p.name+" TileMulAddQuad a1")
				chkB0(t, p.name+" TileMulAddQuad b0")
				chkB1(t, p.name+" TileMulAddQuad b1")
				chkC(t, p.name+" TileMulAddQuad c")
				if p.name == tileSelected() {
					TileMulAddQuad(pub, ldc, a0, a1, b0, b1)
					for k := range pub {
						if !same(pub[k], c[k]) {
							t.Fatalf("TileMulAddQuad kc=%d ldc=%d: c[%d] = %v, but its path (%s) gives %v", kc, ldc, k, pub[k], p.name, c[k])
						}
					}
				}
			}
		}
	}
}

// TestTileShape: 24 x 8 exactly on the avx512 path, TileA x TileB
// elsewhere.
func TestTileShape(t *testing.T) {
	a, b := TileShape()
	if wa, wb := TileA, TileB; useAVX512 && (a != 2*wa || b != 2*wb) || !useAVX512 && (a != wa || b != wb) {
		t.Errorf("TileShape() = %d, %d on path %s", a, b, tileSelected())
	}
}

func TestTileMulAddQuadPanics(t *testing.T) {
	a, b, c := make([]float64, 2*TileA), make([]float64, 2*TileB), make([]float64, 7*24+24)
	for _, tc := range []struct {
		name           string
		c              []float64
		ldc            int
		a0, a1, b0, b1 []float64
	}{
		{"a0 not whole rows", c, 24, a[:23], a[:23], b, b},
		{"a1 length", c, 24, a, a[:12], b, b},
		{"b0 length", c, 24, a, a, b[:4], b},
		{"b1 length", c, 24, a, a, b, b[:7]},
		{"ldc", c, 23, a, a, b, b},
		{"c short", c[:7*24+23], 24, a, a, b, b},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, "TileMulAddQuad") {
					t.Errorf("%s: recovered %v, want a TileMulAddQuad panic", tc.name, r)
				}
			}()
			TileMulAddQuad(tc.c, tc.ldc, tc.a0, tc.a1, tc.b0, tc.b1)
		}()
	}
	if n := testing.AllocsPerRun(10, func() { TileMulAddQuad(c, 24, a, a, b, b) }); n != 0 {
		t.Errorf("TileMulAddQuad allocates %v times", n)
	}
}

// BenchmarkTileMulAddQuad: the 8 x 24 block alone, panels in L1 (kc = 64)
// and L2 (kc = 256), in GFLOP/s (2 * 192 * kc flops per call).
func BenchmarkTileMulAddQuad(b *testing.B) {
	for _, p := range tileQuadPaths() {
		for _, kc := range []int{64, 256} {
			b.Run(fmt.Sprintf("impl=%s/kc=%d", p.name, kc), func(b *testing.B) {
				x0, x1 := make([]float64, kc*TileA), make([]float64, kc*TileA)
				y0, y1 := make([]float64, kc*TileB), make([]float64, kc*TileB)
				for i := range x0 {
					x0[i], x1[i] = vtWide(1, i), vtWide(3, i)
				}
				for i := range y0 {
					y0[i], y1[i] = vtWide(2, i), vtWide(4, i)
				}
				c := make([]float64, 8*24)
				for b.Loop() {
					p.quad(c, 24, x0, x1, y0, y1)
				}
				b.ReportMetric(float64(2*4*TileA*TileB*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
