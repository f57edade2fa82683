//go:build !purego

#include "textflag.h"

// func dotSparseAVX2(idx []int32, val, x []float64, last uint32) (dot float64, ok bool)
//
// The sum of val[k]*x[idx[k]] with VGATHERDPD, which loads four doubles
// through four 32-bit indices, and FMA.
//
// Registers: SI = idx, R8 = val, DI = x (the gather base), CX = elements
// left, BX = last, Y15 = last in every 32-bit lane. Y0..Y3 are four
// independent accumulators; the gathers, not the 4-cycle FMA latency, bound
// the loop, so four chains suffice. Y9 is the gather mask: VGATHERDPD
// clears it, so it is set to all ones before each gather.
//
// Range check: before any gather, the block's indices are reduced with
// VPMAXUD (unsigned maximum) and compared with last; if one is above it
// (a negative int32 is, as an unsigned number) the kernel returns ok =
// false without loading through the block. The scalar tail compares each
// index on its own. So nothing outside x[0:last+1] is read.
//
// Loop structure: 16 elements per iteration (two 8-index loads, four
// gathers, four FMAs with val from memory), then 4 at a time into Y0, then
// the accumulators are combined in the fixed order (Y0+Y1) + (Y2+Y3) and
// across lanes, and the last 0..3 elements are fused in one by one
// (VMOVSD, VFMADD231SD): the result depends only on the data and the
// length. VZEROUPPER before each RET.
TEXT ·dotSparseAVX2(SB), NOSPLIT, $0-89
	MOVQ         idx_base+0(FP), SI
	MOVQ         idx_len+8(FP), CX
	MOVQ         val_base+24(FP), R8
	MOVQ         x_base+48(FP), DI
	MOVL         last+72(FP), BX
	VMOVD        BX, X15
	VPBROADCASTD X15, Y15
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3

sparse16:
	CMPQ         CX, $16
	JL           sparse4
	VMOVDQU      (SI), Y4                 // idx[k:k+8]
	VMOVDQU      32(SI), Y5               // idx[k+8:k+16]
	VPMAXUD      Y5, Y4, Y6
	VPMAXUD      Y15, Y6, Y6              // a lane above last holds an index above it
	VPCMPEQD     Y15, Y6, Y6              // all ones iff every index <= last
	VMOVMSKPS    Y6, AX
	CMPL         AX, $0xff
	JNE          bad
	VEXTRACTI128 $1, Y4, X7               // idx[k+4:k+8]
	VEXTRACTI128 $1, Y5, X8               // idx[k+12:k+16]
	VPCMPEQD     Y9, Y9, Y9
	VGATHERDPD   Y9, (DI)(X4*8), Y10      // x[idx[k:k+4]]
	VPCMPEQD     Y9, Y9, Y9
	VGATHERDPD   Y9, (DI)(X7*8), Y11      // x[idx[k+4:k+8]]
	VPCMPEQD     Y9, Y9, Y9
	VGATHERDPD   Y9, (DI)(X5*8), Y12      // x[idx[k+8:k+12]]
	VPCMPEQD     Y9, Y9, Y9
	VGATHERDPD   Y9, (DI)(X8*8), Y13      // x[idx[k+12:k+16]]
	VFMADD231PD  (R8), Y10, Y0            // Y0 += val[k:k+4] * x[idx[k:k+4]]
	VFMADD231PD  32(R8), Y11, Y1
	VFMADD231PD  64(R8), Y12, Y2
	VFMADD231PD  96(R8), Y13, Y3
	ADDQ         $64, SI
	ADDQ         $128, R8
	SUBQ         $16, CX
	JMP          sparse16

sparse4:
	CMPQ        CX, $4
	JL          sparsereduce
	VMOVDQU     (SI), X4                  // idx[k:k+4]
	VPMAXUD     X15, X4, X6
	VPCMPEQD    X15, X6, X6
	VMOVMSKPS   X6, AX
	CMPL        AX, $0xf
	JNE         bad
	VPCMPEQD    Y9, Y9, Y9
	VGATHERDPD  Y9, (DI)(X4*8), Y10
	VFMADD231PD (R8), Y10, Y0
	ADDQ        $16, SI
	ADDQ        $32, R8
	SUBQ        $4, CX
	JMP         sparse4

sparsereduce:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0               // two partial sums in X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0               // X0[0] = sum

sparse1:
	TESTQ       CX, CX
	JE          done
	MOVL        (SI), AX                  // zero-extended: a negative index is above last
	CMPQ        AX, BX
	JHI         bad
	VMOVSD      (DI)(AX*8), X4
	VFMADD231SD (R8), X4, X0
	ADDQ        $4, SI
	ADDQ        $8, R8
	DECQ        CX
	JMP         sparse1

done:
	VZEROUPPER
	VMOVSD X0, dot+80(FP)
	MOVB   $1, ok+88(FP)
	RET

bad:
	VZEROUPPER
	MOVQ $0, dot+80(FP)
	MOVB $0, ok+88(FP)
	RET
