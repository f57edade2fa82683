//go:build !purego

#include "textflag.h"

// func tileMulAddAVX512(c []float64, ldc int, a, b []float64)
//
// c[j*ldc+i] += sum_p a[p*12+i] * b[p*4+j] for i < 12, j < 4 (TileMulAdd,
// which checks every length first; kc = len(b)/4 may be 0).
//
// Registers:
//   SI  a, advancing 96 bytes (one panel row of 12) per p
//   BX  b, advancing 32 bytes (one panel row of 4) per p
//   CX  rows of the panels left (kc, then counted down)
//   DI  c, then row j of the block; DX = ldc in bytes
//   Z8          a[p*12 : p*12+8] (row p)
//   Z9          a[p*12+8 : p*12+12] in both 4-lane halves
//   Z10..Z13    b[p*4+j] broadcast to 8 lanes, j < 4
//   Z14         b[p*4+0] in the low half, b[p*4+1] in the high half
//   Z15         b[p*4+2] in the low half, b[p*4+3] in the high half
//   Z16..Z23    the same as Z8..Z15 for row p+1
//   Z0..Z3      accumulators: Z(j) holds sum_p a[p*12 : +8] * b[p*4+j],
//               i.e. c[j*ldc : +8], for j < 4
//   Z4          accumulator of c[0*ldc+8 : +4] (low half) and
//               c[1*ldc+8 : +4] (high half): Z9 times Z14
//   Z5          the same for rows 2 (low) and 3 (high): Z9 times Z15
//   Y6, Y7      the high halves of Z4 and Z5, at the end
//
// Per row p: 2 loads of a, 4 broadcasts of b, 2 VINSERTF64X4 that pair
// the broadcasts into Z14, Z15, and 6 FMAs on 8 lanes, each on its own
// accumulator. Each of the 48 entries is one chain in order of p, so the
// kernel is bound by the FMA latency (4 cycles per row p, whatever the
// layout); 6 full-width FMAs per row leave the two FMA pipes a quarter
// idle and ready to catch up, where 4 full and 4 half-width ones (8
// chains) would need both pipes every cycle. The loop takes two rows per
// iteration (one loop branch per 12 FMAs), with registers of their own so
// that the loads of row p+1 need not wait for the FMAs of row p; an odd
// last row is done alone. Each accumulator lane sums its terms in order
// of p from zero, exactly as the avx2 kernel (tile_amd64.s) does, so both
// give the same bits. The block of c is read and written once, at the end
// (VADDPD then VMOVUPD, 8 and 4 entries per row), so nothing outside the
// 4 x 12 block is touched. Every load reads inside its row of a panel;
// loads and stores are unaligned.
TEXT ·tileMulAddAVX512(SB), NOSPLIT, $0-80
	MOVQ c_base+0(FP), DI
	MOVQ ldc+24(FP), DX
	SHLQ $3, DX
	MOVQ a_base+32(FP), SI
	MOVQ b_base+56(FP), BX
	MOVQ b_len+64(FP), CX
	SHRQ $2, CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5

tile2:
	CMPQ CX, $2
	JL   tile1
	// row p
	VMOVUPD         (SI), Z8
	VBROADCASTF64X4 64(SI), Z9
	VBROADCASTSD    (BX), Z10
	VBROADCASTSD    8(BX), Z11
	VBROADCASTSD    16(BX), Z12
	VBROADCASTSD    24(BX), Z13
	VINSERTF64X4    $1, Y11, Z10, Z14 // Z14 = b[0] x 4 | b[1] x 4
	VINSERTF64X4    $1, Y13, Z12, Z15
	VFMADD231PD     Z8, Z10, Z0 // Z0 += a[0:8] * b[0]
	VFMADD231PD     Z8, Z11, Z1
	VFMADD231PD     Z8, Z12, Z2
	VFMADD231PD     Z8, Z13, Z3
	VFMADD231PD     Z9, Z14, Z4 // Z4 += a[8:12] * b[0] | a[8:12] * b[1]
	VFMADD231PD     Z9, Z15, Z5
	// row p+1
	VMOVUPD         96(SI), Z16
	VBROADCASTF64X4 160(SI), Z17
	VBROADCASTSD    32(BX), Z18
	VBROADCASTSD    40(BX), Z19
	VBROADCASTSD    48(BX), Z20
	VBROADCASTSD    56(BX), Z21
	VINSERTF64X4    $1, Y19, Z18, Z22
	VINSERTF64X4    $1, Y21, Z20, Z23
	VFMADD231PD     Z16, Z18, Z0
	VFMADD231PD     Z16, Z19, Z1
	VFMADD231PD     Z16, Z20, Z2
	VFMADD231PD     Z16, Z21, Z3
	VFMADD231PD     Z17, Z22, Z4
	VFMADD231PD     Z17, Z23, Z5
	ADDQ $192, SI
	ADDQ $64, BX
	SUBQ $2, CX
	JMP  tile2

tile1:
	TESTQ CX, CX
	JE    tilestore
	VMOVUPD         (SI), Z8
	VBROADCASTF64X4 64(SI), Z9
	VBROADCASTSD    (BX), Z10
	VBROADCASTSD    8(BX), Z11
	VBROADCASTSD    16(BX), Z12
	VBROADCASTSD    24(BX), Z13
	VINSERTF64X4    $1, Y11, Z10, Z14
	VINSERTF64X4    $1, Y13, Z12, Z15
	VFMADD231PD     Z8, Z10, Z0
	VFMADD231PD     Z8, Z11, Z1
	VFMADD231PD     Z8, Z12, Z2
	VFMADD231PD     Z8, Z13, Z3
	VFMADD231PD     Z9, Z14, Z4
	VFMADD231PD     Z9, Z15, Z5

tilestore:
	// c row j (DI) += Z(j) in entries 0..7 and, in entries 8..11, Y4
	// (low half of Z4) for j = 0, Y6 (its high half) for j = 1, Y5 for
	// j = 2, Y7 for j = 3
	VEXTRACTF64X4 $1, Z4, Y6
	VEXTRACTF64X4 $1, Z5, Y7
	VADDPD        (DI), Z0, Z0
	VADDPD        64(DI), Y4, Y4
	VMOVUPD       Z0, (DI)
	VMOVUPD       Y4, 64(DI)
	ADDQ          DX, DI
	VADDPD        (DI), Z1, Z1
	VADDPD        64(DI), Y6, Y6
	VMOVUPD       Z1, (DI)
	VMOVUPD       Y6, 64(DI)
	ADDQ          DX, DI
	VADDPD        (DI), Z2, Z2
	VADDPD        64(DI), Y5, Y5
	VMOVUPD       Z2, (DI)
	VMOVUPD       Y5, 64(DI)
	ADDQ          DX, DI
	VADDPD        (DI), Z3, Z3
	VADDPD        64(DI), Y7, Y7
	VMOVUPD       Z3, (DI)
	VMOVUPD       Y7, 64(DI)
	VZEROUPPER
	RET
