//go:build !purego

#include "textflag.h"

// Linear kernels on AVX-512 F (+ DQ for KMOVB). Shape of the kernels:
//   Reductions (Dot, SumSqDot, Dot4): a main loop of 64, 32 or 16 elements
//   per iteration in ZMM registers; then a fixed cascade of whole 8-element
//   vector steps; then the last 1..7 elements in one masked operation: K1
//   has one bit per element left (TAILMASK), and masked-off lanes of a load
//   are not read (no fault, not even past the end of a page). Dot and Dot4
//   below 8 elements go straight to the masked step and the final sum.
//   Elementwise kernels (Axpy, Scale, AxpbyTo, Step): a main loop of 32
//   elements, a loop of 8, then at most one step each of 4 (YMM), 2 (XMM)
//   and 1 element, all unmasked, on the low parts (Y, X) of the same
//   registers. A masked tail was slower here: a masked
//   store whose 64 bytes cross a cache line, even in masked-off lanes,
//   costs several cycles, and a masked load of elements the previous call
//   stored (Axpy into the same y, again and again) is not forwarded from the
//   store buffer; both made n = 9 or 12 nearly twice as slow as avx2, while
//   stores and loads of the same widths forward.
//   MaxAbs, a reduction, reads in the blocks of the elementwise kernels
//   (8-element vectors from the start, then 4, 2 and 1), so that its loads
//   of a vector they have just written are forwarded too.
// Loads and stores are unaligned (VMOVUPD): callers pass arbitrary slices.
// Nothing is read or written past len. VZEROUPPER before RET (it clears the
// upper halves of Z0..Z15; only those are used).
//
// The reductions add each element into an accumulator chosen by its index
// and the length only, and combine the accumulators in a fixed order, so
// the result depends on the data and the length, never on alignment. The
// elementwise kernels round exactly as the avx2 ones do (the same FMAs and
// multiplies per element), so both paths give the same bits.

// TAILMASK sets K1 to the low CX bits (CX = 0..7 elements left); clobbers AX.
// A shift rather than BZHI: the path requires AVX-512 F, DQ and VL, not BMI2.
#define TAILMASK \
	MOVL  $1, AX; \
	SHLL  CX, AX; \
	DECL  AX;     \
	KMOVB AX, K1

// HSUMZ0 leaves the sum of the eight lanes of Z0 in X0[0], in the fixed order
// ((0+4)+(2+6)) + ((1+5)+(3+7)); clobbers Y1.
#define HSUMZ0 \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VADDPD        Y1, Y0, Y0; \
	VEXTRACTF128  $1, Y0, X1; \
	VADDPD        X1, X0, X0; \
	VPERMILPD     $1, X0, X1; \
	VADDSD        X1, X0, X0

// HALVES loads the eight doubles at off(ptr) into z as two 32-byte halves
// (low into y, the low half of z, then high inserted): dot4halves' loads.
#define HALVES(off, ptr, y, z) \
	VMOVUPD      off(ptr), y; \
	VINSERTF64X4 $1, off+32(ptr), z, z

// DOT4NEXT16 moves x and y0..y3 (SI, R8..R11) past the 16 elements a
// Dot4 main loop iteration took and counts them off CX: the tail of
// dot4loop16 and dot4loop16h.
#define DOT4NEXT16 \
	ADDQ $128, SI;  \
	ADDQ $128, R8;  \
	ADDQ $128, R9;  \
	ADDQ $128, R10; \
	ADDQ $128, R11; \
	SUBQ $16, CX

// DOT4ROWHALVES adds y[i:i+16] of the y at ptr, loaded by halves into za and
// zb (ya and yb their low halves), times x[i:i+16] (Z8, Z9) into that
// y's accumulators a0 and a1: one row of dot4loop16h.
#define DOT4ROWHALVES(ptr, ya, za, yb, zb, a0, a1) \
	HALVES(0, ptr, ya, za);  \
	HALVES(64, ptr, yb, zb); \
	VFMADD231PD za, Z8, a0;  \
	VFMADD231PD zb, Z9, a1

// DOTBLOCK64 adds the 64-element block at SI and DI into Z0..Z7 (x in
// Z8..Z15; Zk += x[i+8k:i+8k+8] * y[i+8k:i+8k+8]) and moves SI and DI past
// it: the body of dotloop64 and dotpfloop.
#define DOTBLOCK64 \
	VMOVUPD     (SI), Z8;        \
	VMOVUPD     64(SI), Z9;      \
	VMOVUPD     128(SI), Z10;    \
	VMOVUPD     192(SI), Z11;    \
	VMOVUPD     256(SI), Z12;    \
	VMOVUPD     320(SI), Z13;    \
	VMOVUPD     384(SI), Z14;    \
	VMOVUPD     448(SI), Z15;    \
	VFMADD231PD (DI), Z8, Z0;    \
	VFMADD231PD 64(DI), Z9, Z1;  \
	VFMADD231PD 128(DI), Z10, Z2; \
	VFMADD231PD 192(DI), Z11, Z3; \
	VFMADD231PD 256(DI), Z12, Z4; \
	VFMADD231PD 320(DI), Z13, Z5; \
	VFMADD231PD 384(DI), Z14, Z6; \
	VFMADD231PD 448(DI), Z15, Z7; \
	ADDQ        $512, SI;        \
	ADDQ        $512, DI

// func dotAVX512(x, y []float64) float64
// SI = x, DI = y, CX = elements left (biased by -64 in the main loop).
// Z0..Z7: eight independent accumulators, one per 8-element vector of a
// 64-element block. An FMA has a latency of four cycles and two issue per
// cycle, so eight chains keep both FMA units busy; the loads (two per FMA)
// are then the limit. Z8..Z15 hold x.
//
// Vectors of DOTPFMIN elements or more do not fit in L1 and come from L2,
// L3 or memory. They first run dotpfloop: the same 64-element blocks into
// the same accumulators, each iteration also asking with PREFETCHT0 for the
// cache lines of x and y DOTPFDIST bytes (four blocks) ahead, which keeps
// more lines in flight than the hardware prefetchers alone. It stops while
// four whole blocks are left, so no prefetch reaches past len, and
// dotloop64 does the rest. Shorter vectors skip it: in L1 the loads are the
// limit, and each prefetch would take a load's slot.
//
// Tail of 0..63 elements: optional steps of 32 (into Z0..Z3), 16 (Z4, Z5)
// and 8 (Z6) elements, then 1..7 elements masked into Z7: each element's
// accumulator depends only on its index and the length. The accumulators
// are combined as ((Z0+Z4) + (Z1+Z5)) + ((Z2+Z6) + (Z3+Z7)), then the
// eight lanes by HSUMZ0.
#define DOTPFMIN 4096
#define DOTPFDIST 2048
TEXT ·dotAVX512(SB), NOSPLIT, $0-56
	MOVQ   x_base+0(FP), SI
	MOVQ   x_len+8(FP), CX
	MOVQ   y_base+24(FP), DI
	VXORPD Y0, Y0, Y0 // a VEX write zeroes the upper half of Z0 too
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	CMPQ   CX, $8
	JL     dotshort
	CMPQ   CX, $DOTPFMIN
	JGE    dotlong
	SUBQ   $64, CX
	JL     dottail

dotloop64:
	DOTBLOCK64
	SUBQ        $64, CX
	JGE         dotloop64

dottail:
	ADDQ $64, CX // 0..63 elements left
	CMPQ CX, $32
	JL   dot16
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VMOVUPD     128(SI), Z10
	VMOVUPD     192(SI), Z11
	VFMADD231PD (DI), Z8, Z0
	VFMADD231PD 64(DI), Z9, Z1
	VFMADD231PD 128(DI), Z10, Z2
	VFMADD231PD 192(DI), Z11, Z3
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $32, CX

dot16:
	CMPQ        CX, $16
	JL          dot8
	VMOVUPD     (SI), Z12
	VMOVUPD     64(SI), Z13
	VFMADD231PD (DI), Z12, Z4
	VFMADD231PD 64(DI), Z13, Z5
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX

dot8:
	CMPQ        CX, $8
	JL          dotmask
	VMOVUPD     (SI), Z14
	VFMADD231PD (DI), Z14, Z6
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX

dotmask:
	TESTQ       CX, CX
	JE          dotreduce
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z15      // x[i:n], zero above
	VFMADD231PD (DI), Z15, K1, Z7  // only lanes < n-i read y and change Z7

dotreduce:
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	HSUMZ0
	VZEROUPPER
	VMOVSD X0, ret+48(FP)
	RET

dotlong:
	// CX biased by -64-DOTPFDIST/8: an iteration starts only while its
	// block and the four after it, whose lines it prefetches, are in x and y.
	SUBQ $(64+DOTPFDIST/8), CX

dotpfloop:
	PREFETCHT0  DOTPFDIST+0(SI)
	PREFETCHT0  DOTPFDIST+0(DI)
	PREFETCHT0  DOTPFDIST+64(SI)
	PREFETCHT0  DOTPFDIST+64(DI)
	PREFETCHT0  DOTPFDIST+128(SI)
	PREFETCHT0  DOTPFDIST+128(DI)
	PREFETCHT0  DOTPFDIST+192(SI)
	PREFETCHT0  DOTPFDIST+192(DI)
	PREFETCHT0  DOTPFDIST+256(SI)
	PREFETCHT0  DOTPFDIST+256(DI)
	PREFETCHT0  DOTPFDIST+320(SI)
	PREFETCHT0  DOTPFDIST+320(DI)
	PREFETCHT0  DOTPFDIST+384(SI)
	PREFETCHT0  DOTPFDIST+384(DI)
	PREFETCHT0  DOTPFDIST+448(SI)
	PREFETCHT0  DOTPFDIST+448(DI)
	DOTBLOCK64
	SUBQ        $64, CX
	JGE         dotpfloop
	ADDQ        $(DOTPFDIST/8), CX // biased by -64 again, and >= 0: 256..319 elements left
	JMP         dotloop64

dotshort:
	// 0..7 elements: masked into Z0, then straight to the lanes' sum. The
	// other accumulators would be +0 and an accumulator started at +0 is
	// never -0, so this gives the bits the general path would.
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z15
	VFMADD231PD (DI), Z15, K1, Z0
	HSUMZ0
	VZEROUPPER
	VMOVSD X0, ret+48(FP)
	RET

// func sumSqDotAVX512(x, y []float64) (ss, dot float64)
// SI = x, DI = y, CX = elements left (biased by -32 in the main loop).
// Z0..Z3: four accumulators of x[i]^2, Z4..Z7 four of x[i]*y[i]; each
// vector of x is loaded once (Z8..Z11) for both: eight chains, as in Dot.
// Tail of 0..31 elements: optional steps of 16 (into Z0, Z1 and Z4, Z5)
// and 8 (Z2 and Z6) elements, then 1..7 masked into Z3 and Z7. Both sums
// are combined in the fixed order (0+1) + (2+3), then across lanes by
// HSUMZ0. ss never depends on y.
TEXT ·sumSqDotAVX512(SB), NOSPLIT, $0-64
	MOVQ   x_base+0(FP), SI
	MOVQ   x_len+8(FP), CX
	MOVQ   y_base+24(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	SUBQ   $32, CX
	JL     ssdtail

ssdloop32:
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VMOVUPD     128(SI), Z10
	VMOVUPD     192(SI), Z11
	VFMADD231PD Z8, Z8, Z0       // Z0 += x[i:i+8]^2
	VFMADD231PD Z9, Z9, Z1
	VFMADD231PD Z10, Z10, Z2
	VFMADD231PD Z11, Z11, Z3
	VFMADD231PD (DI), Z8, Z4     // Z4 += x[i:i+8] * y[i:i+8]
	VFMADD231PD 64(DI), Z9, Z5
	VFMADD231PD 128(DI), Z10, Z6
	VFMADD231PD 192(DI), Z11, Z7
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $32, CX
	JGE         ssdloop32

ssdtail:
	ADDQ        $32, CX // 0..31 elements left
	CMPQ        CX, $16
	JL          ssd8
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VFMADD231PD Z8, Z8, Z0
	VFMADD231PD Z9, Z9, Z1
	VFMADD231PD (DI), Z8, Z4
	VFMADD231PD 64(DI), Z9, Z5
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX

ssd8:
	CMPQ        CX, $8
	JL          ssdmask
	VMOVUPD     (SI), Z10
	VFMADD231PD Z10, Z10, Z2
	VFMADD231PD (DI), Z10, Z6
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX

ssdmask:
	TESTQ       CX, CX
	JE          ssdreduce
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z11
	VFMADD231PD Z11, Z11, K1, Z3
	VFMADD231PD (DI), Z11, K1, Z7

ssdreduce:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VADDPD Z5, Z4, Z4
	VADDPD Z7, Z6, Z6
	VADDPD Z6, Z4, Z4
	HSUMZ0             // X0[0] = ss
	VEXTRACTF64X4 $1, Z4, Y5
	VADDPD        Y5, Y4, Y4
	VEXTRACTF128  $1, Y4, X5
	VADDPD        X5, X4, X4
	VPERMILPD     $1, X4, X5
	VADDSD        X5, X4, X4 // X4[0] = dot, same order as HSUMZ0
	VZEROUPPER
	VMOVSD X0, ss+48(FP)
	VMOVSD X4, dot+56(FP)
	RET

// func maxAbsAVX512(x []float64) float64
// The avx2 kernel (maxAbsAsm, linear_amd64.s) on ZMM registers; its
// comment explains why VMAXPD acc, data, acc never lets a NaN into an
// accumulator. SI = x, CX = elements left (biased by -32 in the main loop).
// Z15 = 0x7fff_ffff_ffff_ffff in every lane (VANDPD with it is |x|); Z0..Z3:
// four accumulators, started at +0; Z4..Z7 hold |x| of a block.
//
// Shape: the blocks of the elementwise kernels above, so that a vector one
// of them has just written is read by loads that each lie within one of its
// stores and are forwarded from the store buffer: 32 elements (four
// vectors) per iteration, one optional step of 16 (into Z0, Z1) and one of
// 8 (Z2), then at most one step each of 4 (YMM, into Z3), 2 (XMM, Z0) and 1
// element (VMOVSD, Z1), all unmasked. A VEX-encoded load or VANDPD zeroes
// the register above its width, and +0 cannot exceed an accumulator. Then
// the accumulators are combined into X0[0]: four into one, then halves down
// to one lane. Nothing is read past len.
TEXT ·maxAbsAVX512(SB), NOSPLIT, $0-32
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	MOVQ         $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z15
	VXORPD       Y0, Y0, Y0 // a VEX write zeroes the upper half of Z0 too
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3
	SUBQ         $32, CX
	JL           maxabstail

maxabsloop32:
	VANDPD (SI), Z15, Z4     // |x[i:i+8]|
	VANDPD 64(SI), Z15, Z5
	VANDPD 128(SI), Z15, Z6
	VANDPD 192(SI), Z15, Z7
	VMAXPD Z0, Z4, Z0        // Z0 = Z4 > Z0 ? Z4 : Z0, lane by lane
	VMAXPD Z1, Z5, Z1
	VMAXPD Z2, Z6, Z2
	VMAXPD Z3, Z7, Z3
	ADDQ   $256, SI
	SUBQ   $32, CX
	JGE    maxabsloop32

maxabstail:
	ADDQ   $32, CX // 0..31 elements left
	CMPQ   CX, $16
	JL     maxabs8
	VANDPD (SI), Z15, Z4
	VANDPD 64(SI), Z15, Z5
	VMAXPD Z0, Z4, Z0
	VMAXPD Z1, Z5, Z1
	ADDQ   $128, SI
	SUBQ   $16, CX

maxabs8:
	CMPQ   CX, $8
	JL     maxabs4
	VANDPD (SI), Z15, Z6
	VMAXPD Z2, Z6, Z2
	ADDQ   $64, SI
	SUBQ   $8, CX

maxabs4:
	CMPQ   CX, $4
	JL     maxabs2
	VANDPD (SI), Y15, Y7     // Z7 = [|x[i:i+4]|, 0, 0, 0, 0]
	VMAXPD Z3, Z7, Z3
	ADDQ   $32, SI
	SUBQ   $4, CX

maxabs2:
	CMPQ   CX, $2
	JL     maxabs1
	VANDPD (SI), X15, X4
	VMAXPD Z0, Z4, Z0
	ADDQ   $16, SI
	SUBQ   $2, CX

maxabs1:
	TESTQ  CX, CX
	JE     maxabsreduce
	VMOVSD (SI), X5
	VANDPD X15, X5, X5
	VMAXPD Z1, Z5, Z1

maxabsreduce:
	VMAXPD        Z1, Z0, Z0
	VMAXPD        Z3, Z2, Z2
	VMAXPD        Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VMAXPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VMAXSD        X1, X0, X0
	VZEROUPPER
	VMOVSD        X0, ret+24(FP)
	RET

// func dot4AVX512(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64)
// SI = x, R8..R11 = y0..y3, CX = elements left (biased by -16 in the main
// loop). Accumulators: Z0, Z1 for d0, Z2, Z3 for d1, Z4, Z5 for d2, Z6, Z7
// for d3; Z8, Z9 hold x[i:i+16]. Each vector of x is loaded once and used
// by four FMAs whose y operand comes straight from memory (5 loads per 4
// FMAs); eight chains hide the FMA latency.
//
// The loop is bound by its loads, and a 64-byte load that is not 64-byte
// aligned spans two cache lines and costs about two: on rows of a matrix
// whose stride is not a multiple of 8 (every other row of n = 100 starts
// 32 bytes into a line) the loop ran up to a quarter slower than avx2's,
// whose 32-byte loads split less often. So unless all five vectors start on
// a 64-byte boundary, dot4halves runs instead: each 8-element vector is
// loaded as two 32-byte halves (VMOVUPD, then VINSERTF64X4 from memory),
// which split only where avx2's loads do. The lanes hold the same elements
// and the FMAs are the same, so the result is the same bit for bit; only
// the speed depends on the alignment.
//
// Tail: one optional 8-element step into Z0, Z2, Z4, Z6, then 1..7
// elements masked into Z1, Z3, Z5, Z7. The four results are then reduced
// together in a fixed order: a = Z0+Z1, ..., d = Z6+Z7, each folded from
// eight lanes to four (high half plus low half), then as on avx2 two
// horizontal adds, a lane swap, a blend and an add give Y0 = [d0, d1, d2,
// d3].
TEXT ·dot4AVX512(SB), NOSPLIT, $0-152
	MOVQ   x_base+0(FP), SI
	MOVQ   x_len+8(FP), CX
	MOVQ   y0_base+24(FP), R8
	MOVQ   y1_base+48(FP), R9
	MOVQ   y2_base+72(FP), R10
	MOVQ   y3_base+96(FP), R11
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	CMPQ   CX, $8
	JL     dot4short
	MOVQ   SI, AX
	ORQ    R8, AX
	ORQ    R9, AX
	ORQ    R10, AX
	ORQ    R11, AX
	SUBQ   $16, CX
	TESTQ  $63, AX
	JNE    dot4halves
	CMPQ   CX, $0
	JL     dot4step8

dot4loop16:
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VFMADD231PD (R8), Z8, Z0    // Z0 += x[i:i+8] * y0[i:i+8]
	VFMADD231PD 64(R8), Z9, Z1  // Z1 += x[i+8:i+16] * y0[i+8:i+16]
	VFMADD231PD (R9), Z8, Z2
	VFMADD231PD 64(R9), Z9, Z3
	VFMADD231PD (R10), Z8, Z4
	VFMADD231PD 64(R10), Z9, Z5
	VFMADD231PD (R11), Z8, Z6
	VFMADD231PD 64(R11), Z9, Z7
	DOT4NEXT16
	JGE         dot4loop16

dot4step8:
	ADDQ        $8, CX          // CX = elements left - 8
	JL          dot4mask
	VMOVUPD     (SI), Z8
	VFMADD231PD (R8), Z8, Z0
	VFMADD231PD (R9), Z8, Z2
	VFMADD231PD (R10), Z8, Z4
	VFMADD231PD (R11), Z8, Z6
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $64, R9
	ADDQ        $64, R10
	ADDQ        $64, R11
	SUBQ        $8, CX

dot4mask:
	ADDQ        $8, CX          // 0..7 elements left
	JE          dot4reduce
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z8
	VFMADD231PD (R8), Z8, K1, Z1
	VFMADD231PD (R9), Z8, K1, Z3
	VFMADD231PD (R10), Z8, K1, Z5
	VFMADD231PD (R11), Z8, K1, Z7

dot4reduce:
	VADDPD        Z1, Z0, Z0     // a
	VADDPD        Z3, Z2, Z2     // b
	VADDPD        Z5, Z4, Z4     // c
	VADDPD        Z7, Z6, Z6     // d

dot4fold:
	VEXTRACTF64X4 $1, Z0, Y1
	VEXTRACTF64X4 $1, Z2, Y3
	VEXTRACTF64X4 $1, Z4, Y5
	VEXTRACTF64X4 $1, Z6, Y7
	VADDPD        Y1, Y0, Y0     // a folded to lanes 0..3
	VADDPD        Y3, Y2, Y2
	VADDPD        Y5, Y4, Y4
	VADDPD        Y7, Y6, Y6
	VHADDPD       Y2, Y0, Y0        // [a0+a1, b0+b1, a2+a3, b2+b3]
	VHADDPD       Y6, Y4, Y4        // [c0+c1, d0+d1, c2+c3, d2+d3]
	VPERM2F128    $0x21, Y4, Y0, Y1 // [a2+a3, b2+b3, c0+c1, d0+d1]
	VBLENDPD      $0xC, Y4, Y0, Y0  // [a0+a1, b0+b1, c2+c3, d2+d3]
	VADDPD        Y1, Y0, Y0        // [d0, d1, d2, d3]
	VEXTRACTF128  $1, Y0, X2        // X2[0] = d2
	VPERMILPD     $1, X0, X1        // X1[0] = d1
	VPERMILPD     $1, X2, X3        // X3[0] = d3
	VZEROUPPER
	VMOVSD        X0, d0+120(FP)
	VMOVSD        X1, d1+128(FP)
	VMOVSD        X2, d2+136(FP)
	VMOVSD        X3, d3+144(FP)
	RET

dot4halves:
	// dot4loop16 with every vector loaded as two halves (see above); CX is
	// already biased by -16. Z10..Z15 take the halves of y.
	CMPQ         CX, $0
	JL           dot4step8

dot4loop16h:
	HALVES(0, SI, Y8, Z8)
	HALVES(64, SI, Y9, Z9)
	DOT4ROWHALVES(R8, Y10, Z10, Y11, Z11, Z0, Z1)
	DOT4ROWHALVES(R9, Y12, Z12, Y13, Z13, Z2, Z3)
	DOT4ROWHALVES(R10, Y14, Z14, Y15, Z15, Z4, Z5)
	DOT4ROWHALVES(R11, Y10, Z10, Y11, Z11, Z6, Z7)
	DOT4NEXT16
	JGE          dot4loop16h
	JMP          dot4step8 // at most 15 elements left: as on the aligned path

dot4short:
	// 0..7 elements: masked straight into a, b, c, d (Z0, Z2, Z4, Z6),
	// skipping the adds of accumulators that would be +0; the same bits as
	// the general path (an accumulator started at +0 is never -0).
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z8
	VFMADD231PD (R8), Z8, K1, Z0
	VFMADD231PD (R9), Z8, K1, Z2
	VFMADD231PD (R10), Z8, K1, Z4
	VFMADD231PD (R11), Z8, K1, Z6
	JMP         dot4fold

// func axpyAVX512(alpha float64, x, y []float64)
// Z0 = alpha broadcast, SI = x, DI = y, CX = elements left (biased by -32
// in the main loop). y[i] = alpha*x[i] + y[i] with one rounding (FMA).
// Each vector of y is read before it is written, so x may be y.
//
// In the main loop each of the four vectors is loaded, combined and stored
// before the next is loaded, so the stores leave one at a time between the
// loads rather than four together at the end of the iteration. A core with
// one 512-bit store a cycle (Zen 5) then gets closer to a store every
// cycle than with all loads first; the loads of x[i+8:] come after the
// store of y[i:i+8], which is still safe when x is y.
TEXT ·axpyAVX512(SB), NOSPLIT, $0-56
	VBROADCASTSD alpha+0(FP), Z0
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	MOVQ         y_base+32(FP), DI
	SUBQ         $32, CX
	JL           axpytail

axpyloop32:
	VMOVUPD     (SI), Z1
	VFMADD213PD (DI), Z0, Z1     // Z1 = alpha*x + y
	VMOVUPD     Z1, (DI)
	VMOVUPD     64(SI), Z2
	VFMADD213PD 64(DI), Z0, Z2
	VMOVUPD     Z2, 64(DI)
	VMOVUPD     128(SI), Z3
	VFMADD213PD 128(DI), Z0, Z3
	VMOVUPD     Z3, 128(DI)
	VMOVUPD     192(SI), Z4
	VFMADD213PD 192(DI), Z0, Z4
	VMOVUPD     Z4, 192(DI)
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $32, CX
	JGE         axpyloop32

axpytail:
	ADDQ $32, CX // 0..31 elements left

axpy8:
	CMPQ        CX, $8
	JL          axpy4
	VMOVUPD     (SI), Z1
	VFMADD213PD (DI), Z0, Z1
	VMOVUPD     Z1, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         axpy8

axpy4:
	TESTQ       $4, CX
	JZ          axpy2
	VMOVUPD     (SI), Y1
	VFMADD213PD (DI), Y0, Y1
	VMOVUPD     Y1, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI

axpy2:
	TESTQ       $2, CX
	JZ          axpy1
	VMOVUPD     (SI), X1
	VFMADD213PD (DI), X0, X1
	VMOVUPD     X1, (DI)
	ADDQ        $16, SI
	ADDQ        $16, DI

axpy1:
	TESTQ       $1, CX
	JZ          axpydone
	VMOVSD      (SI), X1
	VFMADD213SD (DI), X0, X1
	VMOVSD      X1, (DI)

axpydone:
	VZEROUPPER
	RET

// func scaleAVX512(alpha float64, x []float64)
// Z0 = alpha broadcast, SI = x, CX = elements left (biased by -32 in the
// main loop).
TEXT ·scaleAVX512(SB), NOSPLIT, $0-32
	VBROADCASTSD alpha+0(FP), Z0
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	SUBQ         $32, CX
	JL           scaletail

scaleloop32:
	VMULPD  (SI), Z0, Z1
	VMULPD  64(SI), Z0, Z2
	VMULPD  128(SI), Z0, Z3
	VMULPD  192(SI), Z0, Z4
	VMOVUPD Z1, (SI)
	VMOVUPD Z2, 64(SI)
	VMOVUPD Z3, 128(SI)
	VMOVUPD Z4, 192(SI)
	ADDQ    $256, SI
	SUBQ    $32, CX
	JGE     scaleloop32

scaletail:
	ADDQ $32, CX // 0..31 elements left

scale8:
	CMPQ    CX, $8
	JL      scale4
	VMULPD  (SI), Z0, Z1
	VMOVUPD Z1, (SI)
	ADDQ    $64, SI
	SUBQ    $8, CX
	JMP     scale8

scale4:
	TESTQ   $4, CX
	JZ      scale2
	VMULPD  (SI), Y0, Y1
	VMOVUPD Y1, (SI)
	ADDQ    $32, SI

scale2:
	TESTQ   $2, CX
	JZ      scale1
	VMULPD  (SI), X0, X1
	VMOVUPD X1, (SI)
	ADDQ    $16, SI

scale1:
	TESTQ   $1, CX
	JZ      scaledone
	VMULSD  (SI), X0, X1
	VMOVSD  X1, (SI)

scaledone:
	VZEROUPPER
	RET

// func axpbyToAVX512(dst []float64, a float64, x []float64, b float64, y []float64)
// Z0 = a, Z1 = b, DX = dst, SI = x, DI = y, CX = elements left (biased by
// -32 in the main loop). dst[i] = a*x[i] + b*y[i]: b*y rounded, then one
// FMA, as on avx2. Each vector is read before it is written, so dst may be
// x or y.
TEXT ·axpbyToAVX512(SB), NOSPLIT, $0-88
	MOVQ         dst_base+0(FP), DX
	MOVQ         dst_len+8(FP), CX
	VBROADCASTSD a+24(FP), Z0
	MOVQ         x_base+32(FP), SI
	VBROADCASTSD b+56(FP), Z1
	MOVQ         y_base+64(FP), DI
	SUBQ         $32, CX
	JL           axpbytail

axpbyloop32:
	VMULPD      (DI), Z1, Z2       // Z2 = b*y
	VMULPD      64(DI), Z1, Z3
	VMULPD      128(DI), Z1, Z4
	VMULPD      192(DI), Z1, Z5
	VFMADD231PD (SI), Z0, Z2       // Z2 += a*x
	VFMADD231PD 64(SI), Z0, Z3
	VFMADD231PD 128(SI), Z0, Z4
	VFMADD231PD 192(SI), Z0, Z5
	VMOVUPD     Z2, (DX)
	VMOVUPD     Z3, 64(DX)
	VMOVUPD     Z4, 128(DX)
	VMOVUPD     Z5, 192(DX)
	ADDQ        $256, SI
	ADDQ        $256, DI
	ADDQ        $256, DX
	SUBQ        $32, CX
	JGE         axpbyloop32

axpbytail:
	ADDQ $32, CX // 0..31 elements left

axpby8:
	CMPQ        CX, $8
	JL          axpby4
	VMULPD      (DI), Z1, Z2
	VFMADD231PD (SI), Z0, Z2
	VMOVUPD     Z2, (DX)
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, DX
	SUBQ        $8, CX
	JMP         axpby8

axpby4:
	TESTQ       $4, CX
	JZ          axpby2
	VMULPD      (DI), Y1, Y2
	VFMADD231PD (SI), Y0, Y2
	VMOVUPD     Y2, (DX)
	ADDQ        $32, SI
	ADDQ        $32, DI
	ADDQ        $32, DX

axpby2:
	TESTQ       $2, CX
	JZ          axpby1
	VMULPD      (DI), X1, X2
	VFMADD231PD (SI), X0, X2
	VMOVUPD     X2, (DX)
	ADDQ        $16, SI
	ADDQ        $16, DI
	ADDQ        $16, DX

axpby1:
	TESTQ       $1, CX
	JZ          axpbydone
	VMULSD      (DI), X1, X2
	VFMADD231SD (SI), X0, X2
	VMOVSD      X2, (DX)

axpbydone:
	VZEROUPPER
	RET

// func stepAVX512(s, a float64, u []float64, b float64, v []float64, x []float64)
// Z0 = s, Z1 = a, Z2 = b, SI = u, DI = v, DX = x, CX = elements left
// (biased by -32 in the main loop).
// x[i] = s*((x[i] + a*u[i]) + b*v[i]): two FMAs and a multiply, as on avx2.
TEXT ·stepAVX512(SB), NOSPLIT, $0-96
	VBROADCASTSD s+0(FP), Z0
	VBROADCASTSD a+8(FP), Z1
	MOVQ         u_base+16(FP), SI
	VBROADCASTSD b+40(FP), Z2
	MOVQ         v_base+48(FP), DI
	MOVQ         x_base+72(FP), DX
	MOVQ         x_len+80(FP), CX
	SUBQ         $32, CX
	JL           steptail

steploop32:
	VMOVUPD     (DX), Z3
	VMOVUPD     64(DX), Z4
	VMOVUPD     128(DX), Z5
	VMOVUPD     192(DX), Z6
	VFMADD231PD (SI), Z1, Z3       // x + a*u
	VFMADD231PD 64(SI), Z1, Z4
	VFMADD231PD 128(SI), Z1, Z5
	VFMADD231PD 192(SI), Z1, Z6
	VFMADD231PD (DI), Z2, Z3       // + b*v
	VFMADD231PD 64(DI), Z2, Z4
	VFMADD231PD 128(DI), Z2, Z5
	VFMADD231PD 192(DI), Z2, Z6
	VMULPD      Z0, Z3, Z3         // * s
	VMULPD      Z0, Z4, Z4
	VMULPD      Z0, Z5, Z5
	VMULPD      Z0, Z6, Z6
	VMOVUPD     Z3, (DX)
	VMOVUPD     Z4, 64(DX)
	VMOVUPD     Z5, 128(DX)
	VMOVUPD     Z6, 192(DX)
	ADDQ        $256, SI
	ADDQ        $256, DI
	ADDQ        $256, DX
	SUBQ        $32, CX
	JGE         steploop32

steptail:
	ADDQ $32, CX // 0..31 elements left

step8:
	CMPQ        CX, $8
	JL          step4
	VMOVUPD     (DX), Z3
	VFMADD231PD (SI), Z1, Z3
	VFMADD231PD (DI), Z2, Z3
	VMULPD      Z0, Z3, Z3
	VMOVUPD     Z3, (DX)
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, DX
	SUBQ        $8, CX
	JMP         step8

step4:
	TESTQ       $4, CX
	JZ          step2
	VMOVUPD     (DX), Y3
	VFMADD231PD (SI), Y1, Y3
	VFMADD231PD (DI), Y2, Y3
	VMULPD      Y0, Y3, Y3
	VMOVUPD     Y3, (DX)
	ADDQ        $32, SI
	ADDQ        $32, DI
	ADDQ        $32, DX

step2:
	TESTQ       $2, CX
	JZ          step1
	VMOVUPD     (DX), X3
	VFMADD231PD (SI), X1, X3
	VFMADD231PD (DI), X2, X3
	VMULPD      X0, X3, X3
	VMOVUPD     X3, (DX)
	ADDQ        $16, SI
	ADDQ        $16, DI
	ADDQ        $16, DX

step1:
	TESTQ       $1, CX
	JZ          stepdone
	VMOVSD      (DX), X3
	VFMADD231SD (SI), X1, X3
	VFMADD231SD (DI), X2, X3
	VMULSD      X0, X3, X3
	VMOVSD      X3, (DX)

stepdone:
	VZEROUPPER
	RET
