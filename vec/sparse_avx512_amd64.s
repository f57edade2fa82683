//go:build !purego

#include "textflag.h"

// Sparse-row kernels on AVX-512 (F, DQ, VL; axpySparseAVX512 also CD). Both
// move the dense vector's entries with scalar loads and stores into and out
// of ZMM lanes (LOAD4R, STORE4R) rather than with gathers and scatters; see
// dotSparseAVX512 for why. Every block of indices is compared with last,
// unsigned (VPCMPUD predicate 6, "greater than"), into a K register before
// anything is loaded or stored through it: a negative int32 is above last
// as an unsigned number, so nothing outside the dense vector's [0, last] is
// touched. The tails are checked under a mask K2 of their lanes; masked
// loads and gathers touch only the lanes their mask selects, so they neither
// read past the slices nor fault there. A gather clears its K mask as its
// lanes complete, so it gets a copy. VZEROUPPER before each RET.

// LOAD4R sets ya (the YMM register of xa) to x[idx[k+o/4 : k+o/4+4]], the
// four doubles at the indices at byte offset o of idx, with two 8-byte loads
// of index pairs split into r0..r3 (zero-extended, checked against last
// beforehand) and four scalar loads. xb is scratch.
#define LOAD4R(o, xa, xb, ya, r0, r1, r2, r3) \
	MOVQ        o(SI), r1; \
	MOVQ        o+8(SI), r3; \
	MOVL        r1, r0; \
	SHRQ        $32, r1; \
	MOVL        r3, r2; \
	SHRQ        $32, r3; \
	VMOVSD      (DI)(r0*8), xa; \
	VMOVHPD     (DI)(r1*8), xa, xa; \
	VMOVSD      (DI)(r2*8), xb; \
	VMOVHPD     (DI)(r3*8), xb, xb; \
	VINSERTF128 $1, xb, ya, ya

// LOAD4 is LOAD4R with the indices in R9, AX, R10, DX.
#define LOAD4(o, xa, xb, ya) LOAD4R(o, xa, xb, ya, R9, AX, R10, DX)

// LOAD8 sets za to the eight doubles at the indices at byte offset o of idx,
// through LOAD4 into its YMM half ya and into the scratch yb (xa, xb their
// XMM halves).
#define LOAD8(o, xa, xb, ya, yb, za) \
	LOAD4(o, xa, xb, ya); \
	LOAD4(o+16, xb, X7, yb); \
	VINSERTF64X4 $1, yb, za, za

// STORE4R stores the four doubles of ya (xa its XMM half) to y at the
// indices r0..r3 that LOAD4R left. xb is scratch.
#define STORE4R(xa, xb, ya, r0, r1, r2, r3) \
	VMOVSD       xa, (DI)(r0*8); \
	VMOVHPD      xa, (DI)(r1*8); \
	VEXTRACTF128 $1, ya, xb; \
	VMOVSD       xb, (DI)(r2*8); \
	VMOVHPD      xb, (DI)(r3*8)

// func dotSparseAVX512(idx []int32, val, x []float64, last uint32) (dot float64, ok bool)
//
// The sum of val[k]*x[idx[k]], or ok = false as soon as a block of indices
// holds one above last.
//
// The loops load x[idx[k]] with scalar loads (LOAD8) rather than with
// VGATHERDPD: a gather loads its lanes one at a time too, and on the CPU
// measured (AMD Zen 5) a ZMM gather of eight ran about as fast as the avx2
// kernel's YMM gathers, while the scalar loads, several issued per cycle,
// ran the loop clearly faster (BenchmarkDotSparse).
//
// Registers: SI = idx, R8 = val, DI = x, CX = elements left, R11 =
// len(idx), BX = last, Z15 = last in every 32-bit lane; AX, DX, R9, R10
// hold indices. Z0..Z3 are four accumulators, one per block of eight of
// the main loop; Z8, Z10, Z12, Z14 receive the blocks (Z9, Z11, Z13, X7
// scratch).
//
// Loop structure: 32 elements per iteration (two 16-index loads, one range
// check of their unsigned maximum, four blocks of eight, four FMAs with val
// from memory), then 8 at a time into Z0. The last 1..7 elements of a row
// of eight or more: the row's last eight are loaded again (the lanes below
// the tail re-read entries the row names, already checked and summed) and
// fused into Z0 under the mask K2 of the tail's lanes. A row of 1..7
// elements: its indices are loaded zero-masked under the mask K2 of its
// lanes, checked in those lanes, gathered through them into a zeroed
// register, and fused into Z0 under K2. Masked-off lanes of Z0 keep their
// values. The accumulators are combined in the fixed order (Z0+Z1) +
// (Z2+Z3) and then across lanes, halving the width each step: the result
// depends only on the data and the length.
TEXT ·dotSparseAVX512(SB), NOSPLIT, $0-89
	MOVQ         idx_base+0(FP), SI
	MOVQ         idx_len+8(FP), CX
	MOVQ         CX, R11
	MOVQ         val_base+24(FP), R8
	MOVQ         x_base+48(FP), DI
	MOVL         last+72(FP), BX
	VPBROADCASTD BX, Z15
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1
	VPXORQ       Z2, Z2, Z2
	VPXORQ       Z3, Z3, Z3

dsp32:
	CMPQ        CX, $32
	JL          dsp8
	VMOVDQU32   (SI), Z4                     // idx[k:k+16]
	VMOVDQU32   64(SI), Z5                   // idx[k+16:k+32]
	VPMAXUD     Z5, Z4, Z6
	VPCMPUD     $6, Z15, Z6, K1              // lanes of the maximum above last
	KORTESTW    K1, K1
	JNZ         dspbad
	LOAD8(0, X8, X9, Y8, Y9, Z8)             // x[idx[k:k+8]]
	VFMADD231PD (R8), Z8, Z0                 // Z0 += val[k:k+8] * x[idx[k:k+8]]
	LOAD8(32, X10, X11, Y10, Y11, Z10)
	VFMADD231PD 64(R8), Z10, Z1
	LOAD8(64, X12, X13, Y12, Y13, Z12)
	VFMADD231PD 128(R8), Z12, Z2
	LOAD8(96, X14, X9, Y14, Y9, Z14)
	VFMADD231PD 192(R8), Z14, Z3
	ADDQ        $128, SI
	ADDQ        $256, R8
	SUBQ        $32, CX
	JMP         dsp32

dsp8:
	CMPQ        CX, $8
	JL          dsptail
	VMOVDQU32   (SI), Y4                     // idx[k:k+8]
	VPCMPUD     $6, Y15, Y4, K1
	KORTESTB    K1, K1
	JNZ         dspbad
	LOAD8(0, X8, X9, Y8, Y9, Z8)
	VFMADD231PD (R8), Z8, Z0
	ADDQ        $32, SI
	ADDQ        $64, R8
	SUBQ        $8, CX
	JMP         dsp8

dsptail:
	TESTQ       CX, CX
	JE          dspreduce
	CMPQ        R11, $8
	JL          dspshort
	// 1..7 elements left of a row of eight or more: load the row's last
	// eight, back over 8-CX elements already summed, and fuse only the
	// high CX lanes (K2). The other lanes re-read entries of x the row
	// names; their products are discarded.
	LEAQ        -32(SI)(CX*4), SI            // &idx[len-8]
	LEAQ        -64(R8)(CX*8), R8            // &val[len-8]
	MOVL        $0xff00, AX
	SHRL        CX, AX
	KMOVB       AX, K2                       // the high CX lanes
	VMOVDQU32   (SI), Y4
	VPCMPUD     $6, Y15, Y4, K1
	KORTESTB    K1, K1
	JNZ         dspbad
	LOAD8(0, X8, X9, Y8, Y9, Z8)
	VFMADD231PD (R8), Z8, K2, Z0             // in K2's lanes only
	JMP         dspreduce

dspshort:
	// A row of 1..7 elements: one gather under the mask K2 of its lanes.
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVB       AX, K2                       // the low CX lanes
	VMOVDQU32.Z (SI), K2, Y4                 // idx[0:CX], zeros above
	VPCMPUD     $6, Y15, Y4, K2, K1          // in K2's lanes only
	KORTESTB    K1, K1
	JNZ         dspbad
	VMOVUPD.Z   (R8), K2, Z9                 // val[0:CX]
	VPXORQ      Z8, Z8, Z8
	KMOVB       K2, K1
	VGATHERDPD  (DI)(Y4*8), K1, Z8           // x[idx[0:CX]]
	VFMADD231PD Z9, Z8, K2, Z0               // in K2's lanes only

dspreduce:
	VADDPD        Z1, Z0, Z0
	VADDPD        Z3, Z2, Z2
	VADDPD        Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0                 // four partial sums in Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0                 // two in X0
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0                 // X0[0] = sum
	VZEROUPPER
	VMOVSD        X0, dot+80(FP)
	MOVB          $1, ok+88(FP)
	RET

dspbad:
	VZEROUPPER
	MOVQ $0, dot+80(FP)
	MOVB $0, ok+88(FP)
	RET

// func axpySparseAVX512(alpha float64, idx []int32, val, y []float64, last uint32) (done int)
//
// y[idx[k]] += alpha*val[k] for k in order, rounded as the Go loop
// axpySparseGeneric rounds it (VMULPD, then VADDPD: two roundings, no FMA,
// with the operands in the Go loop's order, so that of two NaNs the same one
// survives). It stops at the first block of indices holding one above last,
// having updated y for the elements before that block only, and returns how
// many elements it has done; the caller finishes the row in Go.
//
// As in dotSparseAVX512, the entries of y are loaded with scalar loads
// (LOAD4R) and stored back with scalar stores (STORE4R) rather than with
// VGATHERDPD and VSCATTERDPD: on the CPU measured (AMD Zen 5) a
// gather-scatter version of this loop was slower than the Go loop, the
// scalar loads and stores faster (BenchmarkAxpySparse).
//
// Registers: SI = idx, R8 = val, DI = y, CX = elements left, Z14 = alpha in
// every lane, Z15 = last in every 32-bit lane; AX, DX, R9..R13, BX hold the
// block's eight indices from the loads to the stores.
//
// Loop structure: 8 elements per iteration. The block's indices are checked
// against last, then VPCONFLICTD sets in each lane the bits of the earlier
// lanes holding the same index: a block without repeats is loaded (Z8),
// computed (Z9) and stored back; a block with one runs the scalar loop,
// element by element, so that each update reads the one before. The last
// 1..7 elements are checked under the mask K2 of their lanes (loaded
// zero-masked, so nothing past idx is read) and run the scalar loop, which
// measured faster than a masked gather and scatter of so few.
TEXT ·axpySparseAVX512(SB), NOSPLIT, $0-96
	VBROADCASTSD alpha+0(FP), Z14
	MOVQ         idx_base+8(FP), SI
	MOVQ         idx_len+16(FP), CX
	MOVQ         val_base+32(FP), R8
	MOVQ         y_base+56(FP), DI
	MOVL         last+80(FP), BX
	VPBROADCASTD BX, Z15

asp8:
	CMPQ        CX, $8
	JL          asptail
	VMOVDQU32   (SI), Y4                     // idx[k:k+8]
	VPCMPUD     $6, Y15, Y4, K1
	KORTESTB    K1, K1
	JNZ         aspstop
	VPCONFLICTD Y4, Y5
	VPTEST      Y5, Y5
	JNZ         aspscalar8                   // a repeated index in the block
	LOAD4R(0, X8, X9, Y8, R9, AX, R10, DX)   // y[idx[k:k+4]]
	LOAD4R(16, X9, X7, Y9, R11, BX, R12, R13)
	VINSERTF64X4 $1, Y9, Z8, Z8              // y[idx[k:k+8]]
	VMOVUPD     (R8), Z9
	VMULPD      Z14, Z9, Z9                  // val*alpha
	VADDPD      Z8, Z9, Z9                   // + y
	STORE4R(X9, X10, Y9, R9, AX, R10, DX)
	VEXTRACTF64X4 $1, Z9, Y11
	STORE4R(X11, X10, Y11, R11, BX, R12, R13)
	ADDQ        $32, SI
	ADDQ        $64, R8
	SUBQ        $8, CX
	JMP         asp8

aspscalar8:
	MOVQ $8, DX
	JMP  aspscalar

asptail:
	TESTQ       CX, CX
	JE          aspdone
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVB       AX, K2                       // the low CX lanes (1..7)
	VMOVDQU32.Z (SI), K2, Y4                 // idx[k:k+CX], zeros above
	VPCMPUD     $6, Y15, Y4, K2, K1          // in K2's lanes only
	KORTESTB    K1, K1
	JNZ         aspstop
aspscalartail:
	MOVQ CX, DX

aspscalar:
	// DX >= 1 elements one at a time, in order, their indices checked;
	// then back to the loop, which finds CX = 0 after the tail.
	SUBQ DX, CX

aspscalar1:
	MOVL   (SI), AX                          // zero-extended
	VMOVSD (R8), X9
	VMULSD X14, X9, X9                       // val*alpha
	VADDSD (DI)(AX*8), X9, X9                // + y
	VMOVSD X9, (DI)(AX*8)
	ADDQ   $4, SI
	ADDQ   $8, R8
	DECQ   DX
	JNZ    aspscalar1
	JMP    asp8

aspdone:
	VZEROUPPER
	MOVQ idx_len+16(FP), AX
	MOVQ AX, done+88(FP)
	RET

aspstop:
	// The block at SI holds an index above last: report the elements
	// before it.
	VZEROUPPER
	MOVQ idx_base+8(FP), AX
	SUBQ AX, SI
	SHRQ $2, SI
	MOVQ SI, done+88(FP)
	RET
