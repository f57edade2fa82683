package vec

// Path is one complete set of kernels, called directly rather than through
// the dispatch in vec.go. It exists so that tests and benchmarks can run every
// path the CPU supports side by side (the assembly against the generic code,
// avx2 against generic on one machine); library code calls the package-level
// functions instead, which dispatch without an indirect call and so let
// escape analysis keep callers' slices on the stack.
//
// The functions of a Path do not check slice lengths: callers must pass
// slices of equal length, as the package-level functions require. DotSparse
// and AxpySparse do check their indices against x and y, as the
// package-level functions do.
type Path struct {
	Name          string
	Dot           func(x, y []float64) float64
	Dot4          func(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64)
	SumSqDot      func(x, y []float64) (ss, dot float64)
	MaxAbs        func(x []float64) float64
	Axpy          func(alpha float64, x, y []float64)
	Scale         func(alpha float64, x []float64)
	AxpbyTo       func(dst []float64, a float64, x []float64, b float64, y []float64)
	Step          func(s, a float64, u []float64, b float64, v []float64, x []float64)
	Softplus      func(dst, x []float64)
	Sigmoid       func(dst, x []float64)
	SigmoidScaled func(dst, x []float64, scale, mul float64)
	SoftplusSum   func(x []float64, scale float64) float64
	DotSparse     func(idx []int32, val, x []float64) float64
	AxpySparse    func(alpha float64, idx []int32, val, y []float64)
}

// Paths returns the kernel paths this CPU can run: the generic path first,
// then each assembly path it supports (avx2, then avx512 on amd64; neon on
// arm64), less those disabled by the purego tag or GODEBUG. The result is a
// new slice each call.
func Paths() []Path {
	out := []Path{{
		Name: "generic", Dot: dotGeneric, Dot4: dot4Generic, SumSqDot: sumSqDotGeneric, MaxAbs: maxAbsGeneric, Axpy: axpyGeneric, Scale: scaleGeneric,
		AxpbyTo: axpbyToGeneric, Step: stepGeneric, Softplus: softplusGeneric,
		Sigmoid: sigmoidGeneric, SigmoidScaled: sigmoidScaledGeneric,
		SoftplusSum: softplusSumGeneric,
		DotSparse:   dotSparseGeneric, AxpySparse: axpySparseGeneric,
	}}
	return append(out, asmPaths()...)
}
