//go:build !purego

package vec

// The NEON micro-kernel (tile_arm64.s), on the same CPU test as the other
// kernels (vec_arm64.go), so GODEBUG=cpu.asimd=off selects the Go kernel.
// TileMulAdd checks the lengths, so the assembly trusts them.
var useTileAsm = useAsm

//go:noescape
func tileMulAddAsm(c []float64, ldc int, a, b []float64)
