package testqp

import "math"

// LCG is the one seeded generator of the tests' random data: a 64-bit
// linear congruential generator (Knuth's MMIX multiplier and increment)
// with Box-Muller normals. Its draws depend on the seed alone, not on a Go
// release (math/rand's streams may change), so every test and benchmark
// sees the same numbers on every machine. The state is the value itself:
// LCG(seed) starts a stream, and a copy of g goes on from where g is,
// independently of it.
type LCG uint64

// Uniform advances g and returns a draw in (0, 1): the state's top 53 bits,
// offset by half a unit so that 0 is never drawn (Normal takes its log).
func (g *LCG) Uniform() float64 {
	*g = *g*6364136223846793005 + 1442695040888963407
	return (float64(uint64(*g)>>11) + 0.5) * 0x1p-53
}

// Normal returns an N(0, 1) draw: Box-Muller on two uniforms, the cosine
// branch only (each call draws two uniforms).
func (g *LCG) Normal() float64 {
	return math.Sqrt(-2*math.Log(g.Uniform())) * math.Cos(2*math.Pi*g.Uniform())
}

// Normals returns n draws of Normal.
func (g *LCG) Normals(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = g.Normal()
	}
	return v
}

// NormalRows returns r rows of c draws of Normal, drawn row by row into one
// backing array (row i is its elements i*c to (i+1)*c, capacity capped).
func (g *LCG) NormalRows(r, c int) [][]float64 {
	flat := g.Normals(r * c)
	rows := make([][]float64, r)
	for i := range rows {
		rows[i] = flat[i*c : (i+1)*c : (i+1)*c]
	}
	return rows
}
