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

// func tileQuadAVX512(c []float64, ldc int, a0, a1, b0, b1 []float64)
//
// The 8 x 24 block of TileMulAddQuad: c[j*ldc+i] += sum_p a[p*12+i%12] *
// b[p*4+j%4] for i < 24, j < 8, with a = a0 for i < 12, a1 from 12 on,
// b = b0 for j < 4, b1 from 4 on (TileMulAddQuad checks every length
// first; kc = len(b0)/4 may be 0). It is the four 4 x 12 blocks of
// tileMulAddAVX512 at once, in 24 accumulators instead of 6, enough for
// both FMA pipes whatever the FMA latency.
//
// Registers:
//   SI, R8   a0, a1, advancing 96 bytes (one panel row of 12) per p
//   BX, R9   b0, b1, advancing 32 bytes (one panel row of 4) per p
//   CX       rows of the panels left (kc, counted down)
//   DI       c, then row j of the block; DX = ldc in bytes
//   Z24      a0[p*12 : p*12+8]
//   Z25      a1[p*12 : p*12+8]
//   Z26      a0[p*12+8 : p*12+12] (low half) | a1[p*12+8 : p*12+12] (high)
//   Z27..Z30 b[j] broadcast to 8 lanes, four j at a time (renamed by the
//            core, so the next row's broadcasts need not wait)
//   Z0..Z7   accumulators of Z24 times b[j], j < 8: c[j*ldc : +8]
//   Z8..Z15  accumulators of Z25 times b[j]: c[j*ldc+12 : +8]
//   Z16..Z23 accumulators of Z26 times b[j]: c[j*ldc+8 : +4] (low half)
//            and c[j*ldc+20 : +4] (high half)
//
// Per row p: 3 loads of a (one a VINSERTF64X4 from memory), 8 broadcasts
// of b and 24 FMAs on 8 lanes, each on its own accumulator: 24 chains,
// more than the two FMA pipes need to hide the FMA latency. Each lane sums
// its terms in order of p from zero and is then added to c, exactly as in
// tileMulAddAVX512 (and the avx2 kernel), so the block has the same bits
// as the four 4 x 12 tiles. The block of c is read and written once, at
// the end, 8 + 4 + 8 + 4 entries per row, so nothing outside the 8 x 24
// block is touched. Every load reads inside its row of a panel; loads and
// stores are unaligned.
TEXT ·tileQuadAVX512(SB), NOSPLIT, $0-128
	MOVQ c_base+0(FP), DI
	MOVQ ldc+24(FP), DX
	SHLQ $3, DX
	MOVQ a0_base+32(FP), SI
	MOVQ a1_base+56(FP), R8
	MOVQ b0_base+80(FP), BX
	MOVQ b0_len+88(FP), CX
	MOVQ b1_base+104(FP), R9
	SHRQ $2, CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23

quadloop:
	TESTQ CX, CX
	JE    quadstore
	VMOVUPD      (SI), Z24
	VMOVUPD      (R8), Z25
	VMOVUPD      64(SI), Y26
	VINSERTF64X4 $1, 64(R8), Z26, Z26
	VBROADCASTSD (BX), Z27
	VBROADCASTSD 8(BX), Z28
	VBROADCASTSD 16(BX), Z29
	VBROADCASTSD 24(BX), Z30
	VFMADD231PD  Z24, Z27, Z0 // j = 0
	VFMADD231PD  Z25, Z27, Z8
	VFMADD231PD  Z26, Z27, Z16
	VFMADD231PD  Z24, Z28, Z1 // j = 1
	VFMADD231PD  Z25, Z28, Z9
	VFMADD231PD  Z26, Z28, Z17
	VFMADD231PD  Z24, Z29, Z2 // j = 2
	VFMADD231PD  Z25, Z29, Z10
	VFMADD231PD  Z26, Z29, Z18
	VFMADD231PD  Z24, Z30, Z3 // j = 3
	VFMADD231PD  Z25, Z30, Z11
	VFMADD231PD  Z26, Z30, Z19
	VBROADCASTSD (R9), Z27
	VBROADCASTSD 8(R9), Z28
	VBROADCASTSD 16(R9), Z29
	VBROADCASTSD 24(R9), Z30
	VFMADD231PD  Z24, Z27, Z4 // j = 4
	VFMADD231PD  Z25, Z27, Z12
	VFMADD231PD  Z26, Z27, Z20
	VFMADD231PD  Z24, Z28, Z5 // j = 5
	VFMADD231PD  Z25, Z28, Z13
	VFMADD231PD  Z26, Z28, Z21
	VFMADD231PD  Z24, Z29, Z6 // j = 6
	VFMADD231PD  Z25, Z29, Z14
	VFMADD231PD  Z26, Z29, Z22
	VFMADD231PD  Z24, Z30, Z7 // j = 7
	VFMADD231PD  Z25, Z30, Z15
	VFMADD231PD  Z26, Z30, Z23
	ADDQ $96, SI
	ADDQ $96, R8
	ADDQ $32, BX
	ADDQ $32, R9
	DECQ CX
	JMP  quadloop

quadstore:
	// Row j of c (DI): entries 0..7 += Z(j), 8..11 += the low half of
	// Z(16+j), 12..19 += Z(8+j), 20..23 += the high half of Z(16+j).
#define QUADROW(lo, hi, tail, ytail) \
	VADDPD        (DI), lo, lo; \
	VMOVUPD       lo, (DI); \
	VADDPD        64(DI), ytail, Y24; \
	VMOVUPD       Y24, 64(DI); \
	VADDPD        96(DI), hi, hi; \
	VMOVUPD       hi, 96(DI); \
	VEXTRACTF64X4 $1, tail, Y25; \
	VADDPD        160(DI), Y25, Y25; \
	VMOVUPD       Y25, 160(DI); \
	ADDQ          DX, DI

	QUADROW(Z0, Z8, Z16, Y16)
	QUADROW(Z1, Z9, Z17, Y17)
	QUADROW(Z2, Z10, Z18, Y18)
	QUADROW(Z3, Z11, Z19, Y19)
	QUADROW(Z4, Z12, Z20, Y20)
	QUADROW(Z5, Z13, Z21, Y21)
	QUADROW(Z6, Z14, Z22, Y22)
	QUADROW(Z7, Z15, Z23, Y23)
#undef QUADROW
	VZEROUPPER
	RET
