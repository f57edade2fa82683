//go:build !purego

#include "textflag.h"

// func tileMulAddAsm(c []float64, ldc int, a, b []float64)
//
// c[j*ldc+i] += sum_p a[p*12+i] * b[p*4+j] for i < 12, j < 4 (TileMulAdd,
// which checks every length first; kc = len(b)/4 may be 0).
//
// Registers:
//   SI  a, advancing 96 bytes (one panel row of 12) per p
//   BX  b, advancing 32 bytes (one panel row of 4) per p
//   CX  rows of the panels left (kc, then counted down)
//   DI  c, then row j of the block; DX = ldc in bytes
//   Y12, Y13, Y14  a[p*12 : p*12+12], the block's column of 12 as 3 vectors
//   Y15            b[p*4+j] broadcast to 4 lanes
//   Y0..Y11        accumulators: Y(3j+v) holds sum_p a[p*12+4v : +4] * b[p*4+j],
//                  i.e. c[j*ldc+4v : +4], for j < 4, v < 3
//
// Per row p: 3 loads of a, 4 broadcasts of b and 12 FMAs, each on its own
// accumulator. Twelve independent chains cover the FMA latency (4 cycles,
// 2 FMAs per cycle on Haswell and Zen 3: at least 8 chains in flight), and
// 7 loads per 12 FMAs stay under the 2 loads per cycle the core can issue.
// The sixteen YMM registers are all in use. The loop takes two rows per
// iteration (one loop branch per 24 FMAs); an odd last row is done alone.
// Each accumulator sums its terms in order of p from zero; the block of c
// is read and written once, at the end (VADDPD then VMOVUPD), so nothing
// outside the 4 x 12 block is touched. Loads and stores are unaligned.
TEXT ·tileMulAddAsm(SB), NOSPLIT, $0-80
	MOVQ c_base+0(FP), DI
	MOVQ ldc+24(FP), DX
	SHLQ $3, DX
	MOVQ a_base+32(FP), SI
	MOVQ b_base+56(FP), BX
	MOVQ b_len+64(FP), CX
	SHRQ $2, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

tile2:
	CMPQ CX, $2
	JL   tile1
	// row p
	VMOVUPD      (SI), Y12
	VMOVUPD      32(SI), Y13
	VMOVUPD      64(SI), Y14
	VBROADCASTSD (BX), Y15
	VFMADD231PD  Y12, Y15, Y0  // Y0 += a[0:4] * b[0]
	VFMADD231PD  Y13, Y15, Y1
	VFMADD231PD  Y14, Y15, Y2
	VBROADCASTSD 8(BX), Y15
	VFMADD231PD  Y12, Y15, Y3
	VFMADD231PD  Y13, Y15, Y4
	VFMADD231PD  Y14, Y15, Y5
	VBROADCASTSD 16(BX), Y15
	VFMADD231PD  Y12, Y15, Y6
	VFMADD231PD  Y13, Y15, Y7
	VFMADD231PD  Y14, Y15, Y8
	VBROADCASTSD 24(BX), Y15
	VFMADD231PD  Y12, Y15, Y9
	VFMADD231PD  Y13, Y15, Y10
	VFMADD231PD  Y14, Y15, Y11
	// row p+1
	VMOVUPD      96(SI), Y12
	VMOVUPD      128(SI), Y13
	VMOVUPD      160(SI), Y14
	VBROADCASTSD 32(BX), Y15
	VFMADD231PD  Y12, Y15, Y0
	VFMADD231PD  Y13, Y15, Y1
	VFMADD231PD  Y14, Y15, Y2
	VBROADCASTSD 40(BX), Y15
	VFMADD231PD  Y12, Y15, Y3
	VFMADD231PD  Y13, Y15, Y4
	VFMADD231PD  Y14, Y15, Y5
	VBROADCASTSD 48(BX), Y15
	VFMADD231PD  Y12, Y15, Y6
	VFMADD231PD  Y13, Y15, Y7
	VFMADD231PD  Y14, Y15, Y8
	VBROADCASTSD 56(BX), Y15
	VFMADD231PD  Y12, Y15, Y9
	VFMADD231PD  Y13, Y15, Y10
	VFMADD231PD  Y14, Y15, Y11
	ADDQ $192, SI
	ADDQ $64, BX
	SUBQ $2, CX
	JMP  tile2

tile1:
	TESTQ CX, CX
	JE    tilestore
	VMOVUPD      (SI), Y12
	VMOVUPD      32(SI), Y13
	VMOVUPD      64(SI), Y14
	VBROADCASTSD (BX), Y15
	VFMADD231PD  Y12, Y15, Y0
	VFMADD231PD  Y13, Y15, Y1
	VFMADD231PD  Y14, Y15, Y2
	VBROADCASTSD 8(BX), Y15
	VFMADD231PD  Y12, Y15, Y3
	VFMADD231PD  Y13, Y15, Y4
	VFMADD231PD  Y14, Y15, Y5
	VBROADCASTSD 16(BX), Y15
	VFMADD231PD  Y12, Y15, Y6
	VFMADD231PD  Y13, Y15, Y7
	VFMADD231PD  Y14, Y15, Y8
	VBROADCASTSD 24(BX), Y15
	VFMADD231PD  Y12, Y15, Y9
	VFMADD231PD  Y13, Y15, Y10
	VFMADD231PD  Y14, Y15, Y11

tilestore:
	// c row j (DI) += Y(3j), Y(3j+1), Y(3j+2)
	VADDPD  (DI), Y0, Y0
	VADDPD  32(DI), Y1, Y1
	VADDPD  64(DI), Y2, Y2
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Y3, Y3
	VADDPD  32(DI), Y4, Y4
	VADDPD  64(DI), Y5, Y5
	VMOVUPD Y3, (DI)
	VMOVUPD Y4, 32(DI)
	VMOVUPD Y5, 64(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Y6, Y6
	VADDPD  32(DI), Y7, Y7
	VADDPD  64(DI), Y8, Y8
	VMOVUPD Y6, (DI)
	VMOVUPD Y7, 32(DI)
	VMOVUPD Y8, 64(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Y9, Y9
	VADDPD  32(DI), Y10, Y10
	VADDPD  64(DI), Y11, Y11
	VMOVUPD Y9, (DI)
	VMOVUPD Y10, 32(DI)
	VMOVUPD Y11, 64(DI)
	VZEROUPPER
	RET
