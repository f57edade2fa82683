//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// Advanced SIMD (NEON) is part of every arm64 CPU Go supports; x/sys/cpu
// still reports it, so GODEBUG=cpu.asimd=off selects the generic path.
var useAsm = cpu.ARM64.HasASIMD

const asmName = "neon"

// asmPaths lists the assembly path this CPU runs, for Paths: neon.
func asmPaths() []Path {
	if !useAsm {
		return nil
	}
	return []Path{{
		Name: asmName, Dot: dotAsm, Dot4: dot4Asm, SumSqDot: sumSqDotAsm, MaxAbs: maxAbsAsm, Axpy: axpyAsm, Scale: scaleAsm,
		AxpbyTo: axpbyToAsm, Step: stepAsm, Softplus: softplusAsm,
		Sigmoid: sigmoidAsm, SigmoidScaled: sigmoidScaledAsm,
		SoftplusSum: softplusSumAsm,
		DotSparse:   dotSparseAsm, AxpySparse: axpySparseGeneric,
	}}
}
