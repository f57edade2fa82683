//go:build !purego

#include "textflag.h"

// Linear kernels on arm64 Advanced SIMD (NEON), two float64 lanes per V
// register.
//
// Shape of every kernel: a main loop over 64-byte blocks (8 elements per
// operand; 16 for Dot), each operand moved by one VLD1/VST1 of four
// consecutive registers with post-increment, then a tail selected by testing
// the bits of the length (TBZ): 8 (Dot only), 4 and 2 elements in vector
// registers, and a last odd element in scalar FP registers. There is no
// data-dependent branch, loads and stores need no alignment (callers pass
// arbitrary subslices), and nothing is read or written past len.
//
// Why this shape is fast on Neoverse-class cores (N1, V1, N2): one
// four-register LD1 keeps both load pipes busy with few instructions; every
// multiply-add in an iteration is independent of the others, so the 4-cycle
// FMLA latency is hidden (Dot keeps 8 accumulators, enough for two 128-bit
// FMA pipes at 4 cycles, and half the need of the four pipes of V1); the loop
// control is one SUBS+BNE per 64 bytes.
//
// Multiply-adds are fused (FMLA, FMADDD) and the operations come in the
// order of the amd64 kernels, so in Axpy, Scale, AxpbyTo and Step every
// element gets the same roundings on both architectures and whether it goes
// through the main loop, the vector tail or the scalar tail. Dot and Dot4
// differ from amd64 and from the generic code only in the order of
// summation.
//
// The Go assembler has no vector FADD, FMUL or FADDP (golang/go#41092); those
// are WORD-encoded with the instruction in Arm syntax in the comment, which
// encoding_test.go checks against an independent encoder and, when present,
// against GNU as. FMLA is the assembler's VFMLA, whose operand order is
// VFMLA Vm, Vn, Vd for Vd += Vn*Vm.
//
// Registers: all are caller-saved in ABI0 (Go's assembly calling
// convention); the kernels use R0-R6, V0-V7 and V16-V31 and no stack
// (NOSPLIT|NOFRAME leaf functions).

// func dotAsm(x, y []float64) float64
// R0 = x, R1 = y, R2 = len, R3 = 16-element blocks left.
// V0-V7: eight independent accumulators; lane j of Vk sums x[i]*y[i] for
// i = 2k+j (mod 16) in the main loop. V16-V23 hold x, V24-V31 hold y.
// The 8-, 4- and 2-element tails add into V0-V3, V0-V1 and V0. The
// accumulators are then combined in a fixed tree,
// ((V0+V1)+(V2+V3)) + ((V4+V5)+(V6+V7)), its two lanes added (FADDP), and
// the odd last element fused in with FMADDD: the result depends only on the
// data and the length, never on alignment or timing.
TEXT ·dotAsm(SB), NOSPLIT|NOFRAME, $0-56
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	MOVD y_base+24(FP), R1
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	LSR  $4, R2, R3
	CBZ  R3, dot8

dot16:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R0), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R1), [V24.D2, V25.D2, V26.D2, V27.D2]
	VLD1.P 64(R1), [V28.D2, V29.D2, V30.D2, V31.D2]
	VFMLA  V24.D2, V16.D2, V0.D2 // V0 += x[0:2] * y[0:2]
	VFMLA  V25.D2, V17.D2, V1.D2
	VFMLA  V26.D2, V18.D2, V2.D2
	VFMLA  V27.D2, V19.D2, V3.D2
	VFMLA  V28.D2, V20.D2, V4.D2
	VFMLA  V29.D2, V21.D2, V5.D2
	VFMLA  V30.D2, V22.D2, V6.D2
	VFMLA  V31.D2, V23.D2, V7.D2
	SUBS   $1, R3, R3
	BNE    dot16

dot8:
	TBZ    $3, R2, dot4
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R1), [V24.D2, V25.D2, V26.D2, V27.D2]
	VFMLA  V24.D2, V16.D2, V0.D2
	VFMLA  V25.D2, V17.D2, V1.D2
	VFMLA  V26.D2, V18.D2, V2.D2
	VFMLA  V27.D2, V19.D2, V3.D2

dot4:
	TBZ    $2, R2, dot2
	VLD1.P 32(R0), [V16.D2, V17.D2]
	VLD1.P 32(R1), [V24.D2, V25.D2]
	VFMLA  V24.D2, V16.D2, V0.D2
	VFMLA  V25.D2, V17.D2, V1.D2

dot2:
	TBZ    $1, R2, dotreduce
	VLD1.P 16(R0), [V16.D2]
	VLD1.P 16(R1), [V24.D2]
	VFMLA  V24.D2, V16.D2, V0.D2

dotreduce:
	WORD   $0x4E61D400 // FADD V0.2D, V0.2D, V1.2D
	WORD   $0x4E63D442 // FADD V2.2D, V2.2D, V3.2D
	WORD   $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD   $0x4E67D4C6 // FADD V6.2D, V6.2D, V7.2D
	WORD   $0x4E62D400 // FADD V0.2D, V0.2D, V2.2D
	WORD   $0x4E66D484 // FADD V4.2D, V4.2D, V6.2D
	WORD   $0x4E64D400 // FADD V0.2D, V0.2D, V4.2D
	WORD   $0x7E70D800 // FADDP D0, V0.2D

	// F0 (= D0) now holds the vector sum; fuse in an odd last element.
	TBZ    $0, R2, dotdone
	FMOVD  (R0), F16
	FMOVD  (R1), F24
	FMADDD F24, F0, F16, F0 // F0 += x[n-1] * y[n-1]

dotdone:
	FMOVD F0, ret+48(FP)
	RET

// func sumSqDotAsm(x, y []float64) (ss, dot float64)
// R0 = x, R1 = y, R2 = len, R3 = 16-element blocks left.
// V0-V3: four accumulators of x[i]^2, V4-V7 four of x[i]*y[i]; each block
// of x (V16-V23) is loaded once for both, y in V24-V31. The 8-, 4- and
// 2-element tails add into V0-V3/V4-V7, V0-V1/V4-V5 and V0/V4. Each sum is
// combined in the fixed tree (V0+V1) + (V2+V3), its two lanes added
// (FADDP), and the odd last element fused in with FMADDD.
TEXT ·sumSqDotAsm(SB), NOSPLIT|NOFRAME, $0-64
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	MOVD y_base+24(FP), R1
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	LSR  $4, R2, R3
	CBZ  R3, ssd8

ssd16:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R0), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R1), [V24.D2, V25.D2, V26.D2, V27.D2]
	VLD1.P 64(R1), [V28.D2, V29.D2, V30.D2, V31.D2]
	VFMLA  V16.D2, V16.D2, V0.D2 // V0 += x[0:2]^2
	VFMLA  V17.D2, V17.D2, V1.D2
	VFMLA  V18.D2, V18.D2, V2.D2
	VFMLA  V19.D2, V19.D2, V3.D2
	VFMLA  V24.D2, V16.D2, V4.D2 // V4 += x[0:2] * y[0:2]
	VFMLA  V25.D2, V17.D2, V5.D2
	VFMLA  V26.D2, V18.D2, V6.D2
	VFMLA  V27.D2, V19.D2, V7.D2
	VFMLA  V20.D2, V20.D2, V0.D2 // V0 += x[8:10]^2
	VFMLA  V21.D2, V21.D2, V1.D2
	VFMLA  V22.D2, V22.D2, V2.D2
	VFMLA  V23.D2, V23.D2, V3.D2
	VFMLA  V28.D2, V20.D2, V4.D2 // V4 += x[8:10] * y[8:10]
	VFMLA  V29.D2, V21.D2, V5.D2
	VFMLA  V30.D2, V22.D2, V6.D2
	VFMLA  V31.D2, V23.D2, V7.D2
	SUBS   $1, R3, R3
	BNE    ssd16

ssd8:
	TBZ    $3, R2, ssd4
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R1), [V24.D2, V25.D2, V26.D2, V27.D2]
	VFMLA  V16.D2, V16.D2, V0.D2
	VFMLA  V17.D2, V17.D2, V1.D2
	VFMLA  V18.D2, V18.D2, V2.D2
	VFMLA  V19.D2, V19.D2, V3.D2
	VFMLA  V24.D2, V16.D2, V4.D2
	VFMLA  V25.D2, V17.D2, V5.D2
	VFMLA  V26.D2, V18.D2, V6.D2
	VFMLA  V27.D2, V19.D2, V7.D2

ssd4:
	TBZ    $2, R2, ssd2
	VLD1.P 32(R0), [V16.D2, V17.D2]
	VLD1.P 32(R1), [V24.D2, V25.D2]
	VFMLA  V16.D2, V16.D2, V0.D2
	VFMLA  V17.D2, V17.D2, V1.D2
	VFMLA  V24.D2, V16.D2, V4.D2
	VFMLA  V25.D2, V17.D2, V5.D2

ssd2:
	TBZ    $1, R2, ssdreduce
	VLD1.P 16(R0), [V16.D2]
	VLD1.P 16(R1), [V24.D2]
	VFMLA  V16.D2, V16.D2, V0.D2
	VFMLA  V24.D2, V16.D2, V4.D2

ssdreduce:
	WORD   $0x4E61D400 // FADD V0.2D, V0.2D, V1.2D
	WORD   $0x4E63D442 // FADD V2.2D, V2.2D, V3.2D
	WORD   $0x4E62D400 // FADD V0.2D, V0.2D, V2.2D
	WORD   $0x7E70D800 // FADDP D0, V0.2D
	WORD   $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD   $0x4E67D4C6 // FADD V6.2D, V6.2D, V7.2D
	WORD   $0x4E66D484 // FADD V4.2D, V4.2D, V6.2D
	WORD   $0x7E70D884 // FADDP D4, V4.2D

	// F0 holds the sum of squares, F4 the dot; fuse in an odd last element.
	TBZ    $0, R2, ssddone
	FMOVD  (R0), F16
	FMOVD  (R1), F24
	FMADDD F16, F0, F16, F0 // F0 += x[n-1]^2
	FMADDD F24, F4, F16, F4 // F4 += x[n-1] * y[n-1]

ssddone:
	FMOVD F0, ss+48(FP)
	FMOVD F4, dot+56(FP)
	RET

// func maxAbsAsm(x []float64) float64
// R0 = x, R2 = len, R3 = 8-element blocks left.
// V0-V3: four accumulators, started at +0; lane j of Vk holds the largest
// |x[i]| so far for i = 2k+j (mod 8) in the main loop. V16-V19 hold x, then
// |x| (FABS clears the sign bit of every input, NaNs included); V20-V23 the
// masks of the comparisons.
//
// NaN: each vector of |x| is compared with its accumulator by FCMGT
// (mask = |x| > acc lane by lane, all ones or all zeros), which is false
// when |x| is a NaN, quiet or signalling, as a > m is in the Go loop; BIT
// then copies |x| into acc where the mask is set. So a NaN never enters an
// accumulator, and none is quieted, signalled or changed on the way. FMAX
// could not stand in for the pair: it returns a NaN operand (FMAXNM returns
// the number against a quiet NaN, but the default NaN against a signalling
// one). Equal values (+0 against +0) keep acc.
//
// Shape: the main loop takes 8 elements (four registers, one VLD1) per
// iteration; then, by the bits of the length, 4 elements into V0-V1, 2 into
// V2 and an odd last one into V3 (FMOVD loads it into lane 0 and zeroes
// lane 1, and +0 cannot exceed an accumulator). Nothing is read past len.
// The four accumulators hold only +0 and |x[i]| of non-NaN x[i], so they are
// combined with FMAX and their two lanes with FMAXP: with no NaN operand
// these return the larger value, in any order.
TEXT ·maxAbsAsm(SB), NOSPLIT|NOFRAME, $0-32
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	LSR  $3, R2, R3
	CBZ  R3, maxabs4

maxabs8:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	WORD   $0x4EE0FA10 // FABS V16.2D, V16.2D
	WORD   $0x4EE0FA31 // FABS V17.2D, V17.2D
	WORD   $0x4EE0FA52 // FABS V18.2D, V18.2D
	WORD   $0x4EE0FA73 // FABS V19.2D, V19.2D
	WORD   $0x6EE0E614 // FCMGT V20.2D, V16.2D, V0.2D
	WORD   $0x6EE1E635 // FCMGT V21.2D, V17.2D, V1.2D
	WORD   $0x6EE2E656 // FCMGT V22.2D, V18.2D, V2.2D
	WORD   $0x6EE3E677 // FCMGT V23.2D, V19.2D, V3.2D
	VBIT   V20.B16, V16.B16, V0.B16 // V0 = V20 ? V16 : V0, bit by bit
	VBIT   V21.B16, V17.B16, V1.B16
	VBIT   V22.B16, V18.B16, V2.B16
	VBIT   V23.B16, V19.B16, V3.B16
	SUBS   $1, R3, R3
	BNE    maxabs8

maxabs4:
	TBZ    $2, R2, maxabs2
	VLD1.P 32(R0), [V16.D2, V17.D2]
	WORD   $0x4EE0FA10 // FABS V16.2D, V16.2D
	WORD   $0x4EE0FA31 // FABS V17.2D, V17.2D
	WORD   $0x6EE0E614 // FCMGT V20.2D, V16.2D, V0.2D
	WORD   $0x6EE1E635 // FCMGT V21.2D, V17.2D, V1.2D
	VBIT   V20.B16, V16.B16, V0.B16
	VBIT   V21.B16, V17.B16, V1.B16

maxabs2:
	TBZ    $1, R2, maxabs1
	VLD1.P 16(R0), [V18.D2]
	WORD   $0x4EE0FA52 // FABS V18.2D, V18.2D
	WORD   $0x6EE2E656 // FCMGT V22.2D, V18.2D, V2.2D
	VBIT   V22.B16, V18.B16, V2.B16

maxabs1:
	TBZ    $0, R2, maxabsreduce
	FMOVD  (R0), F19           // V19 = [x[n-1], +0]
	WORD   $0x4EE0FA73 // FABS V19.2D, V19.2D
	WORD   $0x6EE3E677 // FCMGT V23.2D, V19.2D, V3.2D
	VBIT   V23.B16, V19.B16, V3.B16

maxabsreduce:
	WORD   $0x4E61F400 // FMAX V0.2D, V0.2D, V1.2D
	WORD   $0x4E63F442 // FMAX V2.2D, V2.2D, V3.2D
	WORD   $0x4E62F400 // FMAX V0.2D, V0.2D, V2.2D
	WORD   $0x7E70F800 // FMAXP D0, V0.2D
	FMOVD  F0, ret+24(FP)
	RET

// func dot4Asm(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64)
// R0 = x, R1-R4 = y0-y3, R5 = len, R6 = 8-element blocks left.
// V0, V1 accumulate d0; V2, V3 d1; V4, V5 d2; V6, V7 d3. V16-V19 hold
// x[i:i+8]; y0, y1, y2 go to V20-V23, V24-V27, V28-V31, and y3 to V20-V23
// again once y0's multiply-adds are issued (register renaming removes the
// false dependence). Each x block is loaded once for four outputs: 5
// four-register loads per 16 FMLAs, against 8 for four Dot calls, and the
// eight accumulators are the chains dotAsm keeps for two 128-bit FMA pipes.
// The 4- and 2-element tails add into the same accumulators (2 into the
// even ones); then a+=b for each pair, two vector FADDPs give V0 = [d0, d1]
// and V4 = [d2, d3] (lanes added in a fixed order), d1 and d3 are moved to
// lane 0 of V1 and V5, and an odd last element is fused into each output
// with FMADDD. The result depends only on the data and the length.
TEXT ·dot4Asm(SB), NOSPLIT|NOFRAME, $0-152
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R5
	MOVD y0_base+24(FP), R1
	MOVD y1_base+48(FP), R2
	MOVD y2_base+72(FP), R3
	MOVD y3_base+96(FP), R4
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	LSR  $3, R5, R6
	CBZ  R6, dot4tail4

dot4loop8:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R1), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R2), [V24.D2, V25.D2, V26.D2, V27.D2]
	VLD1.P 64(R3), [V28.D2, V29.D2, V30.D2, V31.D2]
	VFMLA  V20.D2, V16.D2, V0.D2 // V0 += x[i:i+2] * y0[i:i+2]
	VFMLA  V21.D2, V17.D2, V1.D2 // V1 += x[i+2:i+4] * y0[i+2:i+4]
	VFMLA  V22.D2, V18.D2, V0.D2
	VFMLA  V23.D2, V19.D2, V1.D2
	VLD1.P 64(R4), [V20.D2, V21.D2, V22.D2, V23.D2]
	VFMLA  V24.D2, V16.D2, V2.D2
	VFMLA  V25.D2, V17.D2, V3.D2
	VFMLA  V26.D2, V18.D2, V2.D2
	VFMLA  V27.D2, V19.D2, V3.D2
	VFMLA  V28.D2, V16.D2, V4.D2
	VFMLA  V29.D2, V17.D2, V5.D2
	VFMLA  V30.D2, V18.D2, V4.D2
	VFMLA  V31.D2, V19.D2, V5.D2
	VFMLA  V20.D2, V16.D2, V6.D2
	VFMLA  V21.D2, V17.D2, V7.D2
	VFMLA  V22.D2, V18.D2, V6.D2
	VFMLA  V23.D2, V19.D2, V7.D2
	SUBS   $1, R6, R6
	BNE    dot4loop8

dot4tail4:
	TBZ    $2, R5, dot4tail2
	VLD1.P 32(R0), [V16.D2, V17.D2]
	VLD1.P 32(R1), [V20.D2, V21.D2]
	VLD1.P 32(R2), [V24.D2, V25.D2]
	VLD1.P 32(R3), [V28.D2, V29.D2]
	VLD1.P 32(R4), [V22.D2, V23.D2]
	VFMLA  V20.D2, V16.D2, V0.D2
	VFMLA  V21.D2, V17.D2, V1.D2
	VFMLA  V24.D2, V16.D2, V2.D2
	VFMLA  V25.D2, V17.D2, V3.D2
	VFMLA  V28.D2, V16.D2, V4.D2
	VFMLA  V29.D2, V17.D2, V5.D2
	VFMLA  V22.D2, V16.D2, V6.D2
	VFMLA  V23.D2, V17.D2, V7.D2

dot4tail2:
	TBZ    $1, R5, dot4reduce
	VLD1.P 16(R0), [V16.D2]
	VLD1.P 16(R1), [V20.D2]
	VLD1.P 16(R2), [V24.D2]
	VLD1.P 16(R3), [V28.D2]
	VLD1.P 16(R4), [V22.D2]
	VFMLA  V20.D2, V16.D2, V0.D2
	VFMLA  V24.D2, V16.D2, V2.D2
	VFMLA  V28.D2, V16.D2, V4.D2
	VFMLA  V22.D2, V16.D2, V6.D2

dot4reduce:
	WORD $0x4E61D400 // FADD V0.2D, V0.2D, V1.2D
	WORD $0x4E63D442 // FADD V2.2D, V2.2D, V3.2D
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x4E67D4C6 // FADD V6.2D, V6.2D, V7.2D
	WORD $0x6E62D400 // FADDP V0.2D, V0.2D, V2.2D
	WORD $0x6E66D484 // FADDP V4.2D, V4.2D, V6.2D
	VDUP V0.D[1], V1.D2 // F1 = d1
	VDUP V4.D[1], V5.D2 // F5 = d3

	// F0, F1, F4, F5 (= D0, D1, D4, D5) hold d0-d3; fuse in an odd last
	// element.
	TBZ    $0, R5, dot4done
	FMOVD  (R0), F16
	FMOVD  (R1), F20
	FMOVD  (R2), F24
	FMOVD  (R3), F28
	FMOVD  (R4), F22
	FMADDD F20, F0, F16, F0 // F0 += x[n-1] * y0[n-1]
	FMADDD F24, F1, F16, F1
	FMADDD F28, F4, F16, F4
	FMADDD F22, F5, F16, F5

dot4done:
	FMOVD F0, d0+120(FP)
	FMOVD F1, d1+128(FP)
	FMOVD F4, d2+136(FP)
	FMOVD F5, d3+144(FP)
	RET

// func axpyAsm(alpha float64, x, y []float64)
// V0 = alpha in both lanes, R0 = x, R1 = y, R2 = len, R3 = 8-element blocks
// left. y[i] = alpha*x[i] + y[i] with one rounding. A block of y is loaded
// without moving R1 and stored back with post-increment; x is read before y
// is written, so x may be y.
TEXT ·axpyAsm(SB), NOSPLIT|NOFRAME, $0-56
	FMOVD alpha+0(FP), F0
	MOVD  x_base+8(FP), R0
	MOVD  x_len+16(FP), R2
	MOVD  y_base+32(FP), R1
	VDUP  V0.D[0], V0.D2
	LSR   $3, R2, R3
	CBZ   R3, axpy4

axpy8:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1   (R1), [V20.D2, V21.D2, V22.D2, V23.D2]
	VFMLA  V0.D2, V16.D2, V20.D2 // y[0:2] += alpha * x[0:2]
	VFMLA  V0.D2, V17.D2, V21.D2
	VFMLA  V0.D2, V18.D2, V22.D2
	VFMLA  V0.D2, V19.D2, V23.D2
	VST1.P [V20.D2, V21.D2, V22.D2, V23.D2], 64(R1)
	SUBS   $1, R3, R3
	BNE    axpy8

axpy4:
	TBZ    $2, R2, axpy2
	VLD1.P 32(R0), [V16.D2, V17.D2]
	VLD1   (R1), [V20.D2, V21.D2]
	VFMLA  V0.D2, V16.D2, V20.D2
	VFMLA  V0.D2, V17.D2, V21.D2
	VST1.P [V20.D2, V21.D2], 32(R1)

axpy2:
	TBZ    $1, R2, axpy1
	VLD1.P 16(R0), [V16.D2]
	VLD1   (R1), [V20.D2]
	VFMLA  V0.D2, V16.D2, V20.D2
	VST1.P [V20.D2], 16(R1)

axpy1:
	TBZ    $0, R2, axpydone
	FMOVD  (R0), F16
	FMOVD  (R1), F20
	FMADDD F0, F20, F16, F20 // F20 = x*alpha + y
	FMOVD  F20, (R1)

axpydone:
	RET

// func scaleAsm(alpha float64, x []float64)
// V0 = alpha in both lanes, R0 = x, R2 = len, R3 = 8-element blocks left.
// x[i] = alpha*x[i], loaded in place and stored back with post-increment.
TEXT ·scaleAsm(SB), NOSPLIT|NOFRAME, $0-32
	FMOVD alpha+0(FP), F0
	MOVD  x_base+8(FP), R0
	MOVD  x_len+16(FP), R2
	VDUP  V0.D[0], V0.D2
	LSR   $3, R2, R3
	CBZ   R3, scale4

scale8:
	VLD1   (R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	WORD   $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	WORD   $0x6E60DE31 // FMUL V17.2D, V17.2D, V0.2D
	WORD   $0x6E60DE52 // FMUL V18.2D, V18.2D, V0.2D
	WORD   $0x6E60DE73 // FMUL V19.2D, V19.2D, V0.2D
	VST1.P [V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	SUBS   $1, R3, R3
	BNE    scale8

scale4:
	TBZ    $2, R2, scale2
	VLD1   (R0), [V16.D2, V17.D2]
	WORD   $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	WORD   $0x6E60DE31 // FMUL V17.2D, V17.2D, V0.2D
	VST1.P [V16.D2, V17.D2], 32(R0)

scale2:
	TBZ    $1, R2, scale1
	VLD1   (R0), [V16.D2]
	WORD   $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	VST1.P [V16.D2], 16(R0)

scale1:
	TBZ   $0, R2, scaledone
	FMOVD (R0), F16
	FMULD F0, F16, F16
	FMOVD F16, (R0)

scaledone:
	RET

// func axpbyToAsm(dst []float64, a float64, x []float64, b float64, y []float64)
// V0 = a, V1 = b (both lanes), R0 = dst, R1 = x, R2 = y, R4 = len,
// R3 = 8-element blocks left. V16-V19 hold x, V20-V23 hold y, V24-V27 the
// result. dst[i] = a*x[i] + b*y[i]: b*y rounded, then one fused multiply-add
// (the order of the amd64 kernel). A block of x and of y is read before the
// block of dst is written, so dst may be x or y.
TEXT ·axpbyToAsm(SB), NOSPLIT|NOFRAME, $0-88
	MOVD  dst_base+0(FP), R0
	MOVD  dst_len+8(FP), R4
	FMOVD a+24(FP), F0
	MOVD  x_base+32(FP), R1
	FMOVD b+56(FP), F1
	MOVD  y_base+64(FP), R2
	VDUP  V0.D[0], V0.D2
	VDUP  V1.D[0], V1.D2
	LSR   $3, R4, R3
	CBZ   R3, axpby4

axpby8:
	VLD1.P 64(R1), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R2), [V20.D2, V21.D2, V22.D2, V23.D2]
	WORD   $0x6E61DE98 // FMUL V24.2D, V20.2D, V1.2D
	WORD   $0x6E61DEB9 // FMUL V25.2D, V21.2D, V1.2D
	WORD   $0x6E61DEDA // FMUL V26.2D, V22.2D, V1.2D
	WORD   $0x6E61DEFB // FMUL V27.2D, V23.2D, V1.2D
	VFMLA  V0.D2, V16.D2, V24.D2                    // + a*x
	VFMLA  V0.D2, V17.D2, V25.D2
	VFMLA  V0.D2, V18.D2, V26.D2
	VFMLA  V0.D2, V19.D2, V27.D2
	VST1.P [V24.D2, V25.D2, V26.D2, V27.D2], 64(R0)
	SUBS   $1, R3, R3
	BNE    axpby8

axpby4:
	TBZ    $2, R4, axpby2
	VLD1.P 32(R1), [V16.D2, V17.D2]
	VLD1.P 32(R2), [V20.D2, V21.D2]
	WORD   $0x6E61DE98 // FMUL V24.2D, V20.2D, V1.2D
	WORD   $0x6E61DEB9 // FMUL V25.2D, V21.2D, V1.2D
	VFMLA  V0.D2, V16.D2, V24.D2
	VFMLA  V0.D2, V17.D2, V25.D2
	VST1.P [V24.D2, V25.D2], 32(R0)

axpby2:
	TBZ    $1, R4, axpby1
	VLD1.P 16(R1), [V16.D2]
	VLD1.P 16(R2), [V20.D2]
	WORD   $0x6E61DE98 // FMUL V24.2D, V20.2D, V1.2D
	VFMLA  V0.D2, V16.D2, V24.D2
	VST1.P [V24.D2], 16(R0)

axpby1:
	TBZ    $0, R4, axpbydone
	FMOVD  (R1), F16
	FMOVD  (R2), F20
	FMULD  F1, F20, F24      // b*y
	FMADDD F0, F24, F16, F24 // + x*a
	FMOVD  F24, (R0)

axpbydone:
	RET

// func stepAsm(s, a float64, u []float64, b float64, v []float64, x []float64)
// V0 = s, V1 = a, V2 = b (both lanes), R0 = u, R1 = v, R2 = x, R4 = len,
// R3 = 8-element blocks left. V16-V19 hold x, V20-V23 u, V24-V27 v.
// x[i] = s*((x[i] + a*u[i]) + b*v[i]): two fused multiply-adds and a
// multiply, the order of the amd64 kernel. A block of x is loaded without
// moving R2 and stored back with post-increment.
TEXT ·stepAsm(SB), NOSPLIT|NOFRAME, $0-96
	FMOVD s+0(FP), F0
	FMOVD a+8(FP), F1
	MOVD  u_base+16(FP), R0
	FMOVD b+40(FP), F2
	MOVD  v_base+48(FP), R1
	MOVD  x_base+72(FP), R2
	MOVD  x_len+80(FP), R4
	VDUP  V0.D[0], V0.D2
	VDUP  V1.D[0], V1.D2
	VDUP  V2.D[0], V2.D2
	LSR   $3, R4, R3
	CBZ   R3, step4

step8:
	VLD1   (R2), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R0), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R1), [V24.D2, V25.D2, V26.D2, V27.D2]
	VFMLA  V1.D2, V20.D2, V16.D2                    // x + a*u
	VFMLA  V1.D2, V21.D2, V17.D2
	VFMLA  V1.D2, V22.D2, V18.D2
	VFMLA  V1.D2, V23.D2, V19.D2
	VFMLA  V2.D2, V24.D2, V16.D2                    // + b*v
	VFMLA  V2.D2, V25.D2, V17.D2
	VFMLA  V2.D2, V26.D2, V18.D2
	VFMLA  V2.D2, V27.D2, V19.D2
	WORD   $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	WORD   $0x6E60DE31 // FMUL V17.2D, V17.2D, V0.2D
	WORD   $0x6E60DE52 // FMUL V18.2D, V18.2D, V0.2D
	WORD   $0x6E60DE73 // FMUL V19.2D, V19.2D, V0.2D
	VST1.P [V16.D2, V17.D2, V18.D2, V19.D2], 64(R2)
	SUBS   $1, R3, R3
	BNE    step8

step4:
	TBZ    $2, R4, step2
	VLD1   (R2), [V16.D2, V17.D2]
	VLD1.P 32(R0), [V20.D2, V21.D2]
	VLD1.P 32(R1), [V24.D2, V25.D2]
	VFMLA  V1.D2, V20.D2, V16.D2
	VFMLA  V1.D2, V21.D2, V17.D2
	VFMLA  V2.D2, V24.D2, V16.D2
	VFMLA  V2.D2, V25.D2, V17.D2
	WORD   $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	WORD   $0x6E60DE31 // FMUL V17.2D, V17.2D, V0.2D
	VST1.P [V16.D2, V17.D2], 32(R2)

step2:
	TBZ    $1, R4, step1
	VLD1   (R2), [V16.D2]
	VLD1.P 16(R0), [V20.D2]
	VLD1.P 16(R1), [V24.D2]
	VFMLA  V1.D2, V20.D2, V16.D2
	VFMLA  V2.D2, V24.D2, V16.D2
	WORD   $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	VST1.P [V16.D2], 16(R2)

step1:
	TBZ    $0, R4, stepdone
	FMOVD  (R2), F16
	FMOVD  (R0), F20
	FMOVD  (R1), F24
	FMADDD F1, F16, F20, F16 // x + u*a
	FMADDD F2, F16, F24, F16 // + v*b
	FMULD  F0, F16, F16      // * s
	FMOVD  F16, (R2)

stepdone:
	RET
