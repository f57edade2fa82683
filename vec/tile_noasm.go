//go:build purego || !(amd64 || arm64)

package vec

// Only amd64 and arm64 have an assembly TileMulAdd; elsewhere and under the
// purego tag the Go kernel runs. The compiler removes the dead branch.
const useTileAsm = false

func tileMulAddAsm(c []float64, ldc int, a, b []float64) { tileMulAddGeneric(c, ldc, a, b) }
