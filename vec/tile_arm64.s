//go:build !purego

#include "textflag.h"

// func tileMulAddAsm(c []float64, ldc int, a, b []float64)
//
// c[j*ldc+i] += sum_p a[p*12+i] * b[p*4+j] for i < 12, j < 4 (TileMulAdd,
// which checks every length first; kc = len(b)/4 may be 0).
//
// Registers (Advanced SIMD, two float64 lanes per V register):
//   R0  c, the start of the block; R7 row j of the block; R6 a pointer in it
//   R1  ldc in bytes
//   R2  a, advancing 96 bytes (one panel row of 12) per p
//   R3  b, advancing 32 bytes (one panel row of 4) per p
//   R4  kc; R5 pairs of panel rows left (kc/2, counted down)
//   V24..V29  a[p*12 : p*12+12], the block's column of 12 as 6 vectors
//   V30, V31  b[p*4+j] broadcast to both lanes: b[p*4], b[p*4+1], then
//             b[p*4+2], b[p*4+3] (one VLD2R each)
//   V0..V23   accumulators: V(6j+v) holds sum_p a[p*12+2v : +2] * b[p*4+j],
//             i.e. c[j*ldc+2v : +2], for j < 4, v < 6
//
// The Go assembler has no by-element FMLA (FMLA Vd.2D, Vn.2D, Vm.D[i]) and
// no vector FADD (linear_arm64.s encodes it too). So b is broadcast by
// VLD2R, which loads two consecutive float64 and replicates each into both
// lanes of its own register, and the vector-vector VFMLA (Go operand order
// VFMLA Vm, Vn, Vd for Vd += Vn*Vm, fused) does the multiply-adds. The 24
// FADDs of the final update are WORD-encoded with the instruction in Arm
// syntax in the comment, which encoding_test.go checks.
//
// Per row p (TILEROW): two loads of a (four and two registers), two VLD2R
// of b and 24 FMLAs, each on its own accumulator. Twenty-four independent
// chains cover the FMLA latency (4 cycles, 2 to 4 FMLA pipes on
// Neoverse-class cores: at most 16 chains needed), and 4 load instructions
// per 24 FMLAs leave the load pipes mostly idle. All 32 V registers are in
// use; the loads of the next row only reuse V24..V31 after renaming. The
// loop takes two rows per iteration (one SUBS+BNE per 48 FMLAs); an odd
// last row is done alone (TBZ on bit 0 of kc). Each accumulator sums its
// terms in order of p from zero, every step a fused multiply-add; the block
// of c is read and written once, at the end (VLD1, FADD c + sum, VST1, row
// by row through V24..V29), so nothing outside the 4 x 12 block is touched.
// With kc = 0 the accumulators stay +0 and c + 0 leaves c unchanged (a -0
// entry becomes +0, as on amd64 and in Go). Loads and stores need no
// alignment. NOSPLIT|NOFRAME leaf; every register used is caller-saved in
// ABI0.

// TILEROW: the accumulators += a[p*12 : +12] (x) b[p*4 : +4], advancing a
// and b to the next row.
#define TILEROW \
	VLD1.P  64(R2), [V24.D2, V25.D2, V26.D2, V27.D2]; \
	VLD1.P  32(R2), [V28.D2, V29.D2]; \
	VLD2R.P 16(R3), [V30.D2, V31.D2]; \
	VFMLA   V30.D2, V24.D2, V0.D2; \
	VFMLA   V30.D2, V25.D2, V1.D2; \
	VFMLA   V30.D2, V26.D2, V2.D2; \
	VFMLA   V30.D2, V27.D2, V3.D2; \
	VFMLA   V30.D2, V28.D2, V4.D2; \
	VFMLA   V30.D2, V29.D2, V5.D2; \
	VFMLA   V31.D2, V24.D2, V6.D2; \
	VFMLA   V31.D2, V25.D2, V7.D2; \
	VFMLA   V31.D2, V26.D2, V8.D2; \
	VFMLA   V31.D2, V27.D2, V9.D2; \
	VFMLA   V31.D2, V28.D2, V10.D2; \
	VFMLA   V31.D2, V29.D2, V11.D2; \
	VLD2R.P 16(R3), [V30.D2, V31.D2]; \
	VFMLA   V30.D2, V24.D2, V12.D2; \
	VFMLA   V30.D2, V25.D2, V13.D2; \
	VFMLA   V30.D2, V26.D2, V14.D2; \
	VFMLA   V30.D2, V27.D2, V15.D2; \
	VFMLA   V30.D2, V28.D2, V16.D2; \
	VFMLA   V30.D2, V29.D2, V17.D2; \
	VFMLA   V31.D2, V24.D2, V18.D2; \
	VFMLA   V31.D2, V25.D2, V19.D2; \
	VFMLA   V31.D2, V26.D2, V20.D2; \
	VFMLA   V31.D2, V27.D2, V21.D2; \
	VFMLA   V31.D2, V28.D2, V22.D2; \
	VFMLA   V31.D2, V29.D2, V23.D2

// TILELOAD: V24..V29 = row j of the block of c (R7); R6 is clobbered.
#define TILELOAD \
	MOVD R7, R6; \
	VLD1.P 64(R6), [V24.D2, V25.D2, V26.D2, V27.D2]; \
	VLD1   (R6), [V28.D2, V29.D2]

// TILESTORE: row j of the block of c (R7) = V24..V29; R7 moves to row j+1.
#define TILESTORE \
	MOVD   R7, R6; \
	VST1.P [V24.D2, V25.D2, V26.D2, V27.D2], 64(R6); \
	VST1   [V28.D2, V29.D2], (R6); \
	ADD    R1, R7, R7

TEXT ·tileMulAddAsm(SB), NOSPLIT|NOFRAME, $0-80
	MOVD c_base+0(FP), R0
	MOVD ldc+24(FP), R1
	LSL  $3, R1, R1
	MOVD a_base+32(FP), R2
	MOVD b_base+56(FP), R3
	MOVD b_len+64(FP), R4
	LSR  $2, R4, R4
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	LSR  $1, R4, R5
	CBZ  R5, tile1

tile2:
	TILEROW // row p
	TILEROW // row p+1
	SUBS $1, R5, R5
	BNE  tile2

tile1:
	TBZ $0, R4, tilestore
	TILEROW

tilestore:
	MOVD R0, R7

	// row 0: c[0*ldc : +12] += V0..V5
	TILELOAD
	WORD $0x4E60D718 // FADD V24.2D, V24.2D, V0.2D
	WORD $0x4E61D739 // FADD V25.2D, V25.2D, V1.2D
	WORD $0x4E62D75A // FADD V26.2D, V26.2D, V2.2D
	WORD $0x4E63D77B // FADD V27.2D, V27.2D, V3.2D
	WORD $0x4E64D79C // FADD V28.2D, V28.2D, V4.2D
	WORD $0x4E65D7BD // FADD V29.2D, V29.2D, V5.2D
	TILESTORE

	// row 1: c[1*ldc : +12] += V6..V11
	TILELOAD
	WORD $0x4E66D718 // FADD V24.2D, V24.2D, V6.2D
	WORD $0x4E67D739 // FADD V25.2D, V25.2D, V7.2D
	WORD $0x4E68D75A // FADD V26.2D, V26.2D, V8.2D
	WORD $0x4E69D77B // FADD V27.2D, V27.2D, V9.2D
	WORD $0x4E6AD79C // FADD V28.2D, V28.2D, V10.2D
	WORD $0x4E6BD7BD // FADD V29.2D, V29.2D, V11.2D
	TILESTORE

	// row 2: c[2*ldc : +12] += V12..V17
	TILELOAD
	WORD $0x4E6CD718 // FADD V24.2D, V24.2D, V12.2D
	WORD $0x4E6DD739 // FADD V25.2D, V25.2D, V13.2D
	WORD $0x4E6ED75A // FADD V26.2D, V26.2D, V14.2D
	WORD $0x4E6FD77B // FADD V27.2D, V27.2D, V15.2D
	WORD $0x4E70D79C // FADD V28.2D, V28.2D, V16.2D
	WORD $0x4E71D7BD // FADD V29.2D, V29.2D, V17.2D
	TILESTORE

	// row 3: c[3*ldc : +12] += V18..V23
	TILELOAD
	WORD $0x4E72D718 // FADD V24.2D, V24.2D, V18.2D
	WORD $0x4E73D739 // FADD V25.2D, V25.2D, V19.2D
	WORD $0x4E74D75A // FADD V26.2D, V26.2D, V20.2D
	WORD $0x4E75D77B // FADD V27.2D, V27.2D, V21.2D
	WORD $0x4E76D79C // FADD V28.2D, V28.2D, V22.2D
	WORD $0x4E77D7BD // FADD V29.2D, V29.2D, V23.2D
	TILESTORE
	RET
