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
//   Z8, Y9      a[p*12 : p*12+8] and a[p*12+8 : p*12+12] (row p)
//   Z14, Y15    the same for row p+1
//   Z10..Z13    b[p*4+j] broadcast to 8 lanes, j < 4 (row p); their low
//               halves Y10..Y13 serve the 4-lane products
//   Z16..Z19    the same for row p+1
//   Z0..Z3      accumulators: Z(j) holds sum_p a[p*12 : +8] * b[p*4+j],
//               i.e. c[j*ldc : +8], for j < 4
//   Y4..Y7      accumulators: Y(4+j) holds sum_p a[p*12+8 : +4] * b[p*4+j],
//               i.e. c[j*ldc+8 : +4]
//
// Per row p: 2 loads of a, 4 broadcasts of b, 4 FMAs on 8 lanes and 4 on
// 4 lanes, each on its own accumulator. Eight independent chains cover the
// FMA latency at two FMAs per cycle (4 cycles: 8 in flight); fewer, wider
// chains would not help, as each of the 48 entries is one chain in order of
// p. The loop takes two rows per iteration (one loop branch per 16 FMAs),
// with registers of their own so that the loads of row p+1 need not wait
// for the FMAs of row p; an odd last row is done alone. Each accumulator
// sums its terms in order of p from zero, exactly as the avx2 kernel
// (tile_amd64.s) does, so both give the same bits. The block of c is read
// and written once, at the end (VADDPD then VMOVUPD), so nothing outside
// the 4 x 12 block is touched. Loads and stores are unaligned.
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
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

tile2:
	CMPQ CX, $2
	JL   tile1
	// row p
	VMOVUPD      (SI), Z8
	VMOVUPD      64(SI), Y9
	VBROADCASTSD (BX), Z10
	VBROADCASTSD 8(BX), Z11
	VBROADCASTSD 16(BX), Z12
	VBROADCASTSD 24(BX), Z13
	VFMADD231PD  Z8, Z10, Z0 // Z0 += a[0:8] * b[0]
	VFMADD231PD  Y9, Y10, Y4 // Y4 += a[8:12] * b[0]
	VFMADD231PD  Z8, Z11, Z1
	VFMADD231PD  Y9, Y11, Y5
	VFMADD231PD  Z8, Z12, Z2
	VFMADD231PD  Y9, Y12, Y6
	VFMADD231PD  Z8, Z13, Z3
	VFMADD231PD  Y9, Y13, Y7
	// row p+1
	VMOVUPD      96(SI), Z14
	VMOVUPD      160(SI), Y15
	VBROADCASTSD 32(BX), Z16
	VBROADCASTSD 40(BX), Z17
	VBROADCASTSD 48(BX), Z18
	VBROADCASTSD 56(BX), Z19
	VFMADD231PD  Z14, Z16, Z0
	VFMADD231PD  Y15, Y16, Y4
	VFMADD231PD  Z14, Z17, Z1
	VFMADD231PD  Y15, Y17, Y5
	VFMADD231PD  Z14, Z18, Z2
	VFMADD231PD  Y15, Y18, Y6
	VFMADD231PD  Z14, Z19, Z3
	VFMADD231PD  Y15, Y19, Y7
	ADDQ $192, SI
	ADDQ $64, BX
	SUBQ $2, CX
	JMP  tile2

tile1:
	TESTQ CX, CX
	JE    tilestore
	VMOVUPD      (SI), Z8
	VMOVUPD      64(SI), Y9
	VBROADCASTSD (BX), Z10
	VBROADCASTSD 8(BX), Z11
	VBROADCASTSD 16(BX), Z12
	VBROADCASTSD 24(BX), Z13
	VFMADD231PD  Z8, Z10, Z0
	VFMADD231PD  Y9, Y10, Y4
	VFMADD231PD  Z8, Z11, Z1
	VFMADD231PD  Y9, Y11, Y5
	VFMADD231PD  Z8, Z12, Z2
	VFMADD231PD  Y9, Y12, Y6
	VFMADD231PD  Z8, Z13, Z3
	VFMADD231PD  Y9, Y13, Y7

tilestore:
	// c row j (DI) += Z(j), Y(4+j)
	VADDPD  (DI), Z0, Z0
	VADDPD  64(DI), Y4, Y4
	VMOVUPD Z0, (DI)
	VMOVUPD Y4, 64(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Z1, Z1
	VADDPD  64(DI), Y5, Y5
	VMOVUPD Z1, (DI)
	VMOVUPD Y5, 64(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Z2, Z2
	VADDPD  64(DI), Y6, Y6
	VMOVUPD Z2, (DI)
	VMOVUPD Y6, 64(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Z3, Z3
	VADDPD  64(DI), Y7, Y7
	VMOVUPD Z3, (DI)
	VMOVUPD Y7, 64(DI)
	VZEROUPPER
	RET
