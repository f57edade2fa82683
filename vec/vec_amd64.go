//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// The assembly needs AVX2 and FMA. x/sys/cpu reports AVX2 only when the OS
// saves the YMM state and honours GODEBUG=cpu.avx2=off; FMA is not OS-gated
// on its own but needs the same YMM state, which AVX2 already implies.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The avx512 path needs AVX-512 F (512-bit FMAs, opmask registers), DQ
// (64-bit integer conversions, used by the exponential) and VL (the same
// instructions on YMM registers, for tails). x/sys/cpu reports them only
// when the OS saves the ZMM and opmask state, and honours
// GODEBUG=cpu.avx512f=off, which selects the avx2 path. The path also
// requires the avx2 path, so GODEBUG=cpu.avx2=off selects the generic path
// on every CPU.
var useAVX512 = useAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL

const asmName = "avx2"

// avx512ReduceMin is the shortest vector Dot, Dot4 and SumSqDot hand to
// their avx512 kernels; shorter ones run the avx2 kernels. The avx512
// kernels end in one masked load of the last 1..7 elements, and a masked
// load of memory stored just before is not forwarded from the store
// buffer: a triangular solve, which reads the entries it has just written,
// stalls on every call. On the active-set method's short vectors that made
// the avx512 path slower than avx2 (the portfolio re-solve of
// BenchmarkPortfolioWarm, n = 50, by 8%, with twice avx2's time in Dot);
// from this length on the kernels' loops outweigh the stall.
const avx512ReduceMin = 64

// maxAbsAVX512Min is the shortest vector MaxAbs hands to its avx512 kernel;
// shorter ones run the avx2 kernel. Neither has a masked load, so the stall
// behind avx512ReduceMin does not arise, but below 32 elements the avx2
// kernel is the faster (5.3 ns against 5.6 to 7.3 at n = 8 and 16), at 32
// and 64 the two are within the noise of each other, and from 100 on the
// avx512 kernel is the faster (10.9 ns against 14.7 at n = 100, 12.9
// against 19.3 at 200): BenchmarkMaxAbs, on a Xeon with AVX-512; the same
// holds for a vector just written by Scale (BenchmarkMaxAbsAfterStore).
const maxAbsAVX512Min = 64

// asmPaths lists the assembly paths this CPU runs, for Paths: avx2, then
// avx512.
func asmPaths() []Path {
	var out []Path
	if useAsm {
		out = append(out, Path{
			Name: "avx2", Dot: dotAsm, Dot4: dot4Asm, SumSqDot: sumSqDotAsm, MaxAbs: maxAbsAsm, Axpy: axpyAsm, Scale: scaleAsm,
			AxpbyTo: axpbyToAsm, Step: stepAsm, Softplus: softplusAsm,
			Sigmoid: sigmoidAsm, SigmoidScaled: sigmoidScaledAsm,
			SoftplusSum: softplusSumAsm,
			DotSparse:   dotSparseAsm, AxpySparse: axpySparseGeneric,
		})
	}
	if useAVX512 {
		out = append(out, Path{
			Name: "avx512", Dot: dotAVX512, Dot4: dot4AVX512, SumSqDot: sumSqDotAVX512, MaxAbs: maxAbsAVX512, Axpy: axpyAVX512, Scale: scaleAVX512,
			AxpbyTo: axpbyToAVX512, Step: stepAVX512, Softplus: softplusAVX512,
			Sigmoid: sigmoidAVX512, SigmoidScaled: sigmoidScaledAVX512,
			SoftplusSum: softplusSumAVX512,
			DotSparse:   dotSparseAVX512Path, AxpySparse: axpySparseAVX512Path,
		})
	}
	return out
}
