package vec

// The pure-Go sparse-row kernels, compiled on every platform like those of
// vec_generic.go. The index expressions x[idx[k]] and y[idx[k]] keep Go's
// bounds checks: they are the range check DotSparse and AxpySparse promise.

// dotSparseGeneric keeps four accumulators, as dotGeneric does: element k
// goes into accumulator k mod 4 (the odd last ones into the first), and the
// four are combined as (s0 + s1) + (s2 + s3). BenchmarkDotSparse compares it
// with the assembly.
func dotSparseGeneric(idx []int32, val, x []float64) float64 {
	var s0, s1, s2, s3 float64
	val = val[:len(idx)]
	k := 0
	for ; k+4 <= len(idx); k += 4 {
		s0 += val[k] * x[idx[k]]
		s1 += val[k+1] * x[idx[k+1]]
		s2 += val[k+2] * x[idx[k+2]]
		s3 += val[k+3] * x[idx[k+3]]
	}
	for ; k < len(idx); k++ {
		s0 += val[k] * x[idx[k]]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpySparseGeneric is the scatter, in the rounding of axpyGeneric, and
// AxpySparse on every path: AVX2 has no scatter instruction and NEON
// neither gather nor scatter, so assembly would make the same scalar loads
// and stores. Unrolling by 4 gained nothing measurable (BenchmarkAxpySparse):
// no dependency runs from one iteration to the next unless indices repeat.
func axpySparseGeneric(alpha float64, idx []int32, val, y []float64) {
	val = val[:len(idx)]
	for k, j := range idx {
		y[j] += alpha * val[k]
	}
}
