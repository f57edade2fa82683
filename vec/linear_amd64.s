//go:build !purego

#include "textflag.h"

// Linear kernels on AVX2 + FMA. Shape of every kernel:
//   main loop: 32 (Dot), 16 (Dot4, Axpy, MaxAbs) or 8 elements per
//   iteration in YMM registers, a 4-element loop (step), then a scalar loop
//   (unrolled in Dot4 and MaxAbs) in VEX-encoded SSE (no legacy SSE after
//   YMM use, so no transition penalty), VZEROUPPER before RET.
// Loads and stores are unaligned (VMOVUPD): callers pass arbitrary slices.
// Nothing is read or written past len.

// func dotAsm(x, y []float64) float64
// SI = x, DI = y, CX = elements left.
// Y0..Y3, Y8..Y11: eight independent accumulators. An FMA has a latency of
// four cycles and two issue per cycle, so eight chains are needed to keep
// both FMA units busy (with four, Dot ran at one FMA per cycle: 78.6 ns at
// n=1000 on a 3.07 GHz Xeon, 69.8 ns with eight). They are combined in
// the fixed order ((Y0+Y8)+(Y1+Y9)) + ((Y2+Y10)+(Y3+Y11)) so results are
// reproducible.
TEXT ·dotAsm(SB), NOSPLIT, $0-56
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	MOVQ y_base+24(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

dot32:
	CMPQ CX, $32
	JL   dot16
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VMOVUPD     128(SI), Y12
	VMOVUPD     160(SI), Y13
	VMOVUPD     192(SI), Y14
	VMOVUPD     224(SI), Y15
	VFMADD231PD (DI), Y4, Y0   // Y0 += x[0:4] * y[0:4]
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	VFMADD231PD 128(DI), Y12, Y8
	VFMADD231PD 160(DI), Y13, Y9
	VFMADD231PD 192(DI), Y14, Y10
	VFMADD231PD 224(DI), Y15, Y11
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $32, CX
	JMP  dot32

dot16:
	// 16..31 elements left: one pass on Y0..Y3.
	CMPQ CX, $16
	JL   dot4
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (DI), Y4, Y0
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $16, CX

dot4:
	CMPQ CX, $4
	JL   dotreduce
	VMOVUPD     (SI), Y4
	VFMADD231PD (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  dot4

dotreduce:
	VADDPD       Y8, Y0, Y0
	VADDPD       Y9, Y1, Y1
	VADDPD       Y10, Y2, Y2
	VADDPD       Y11, Y3, Y3
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0    // two partial sums in X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0    // X0[0] = sum

dot1:
	TESTQ CX, CX
	JE    dotdone
	VMOVSD      (SI), X4
	VFMADD231SD (DI), X4, X0
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JMP  dot1

dotdone:
	VZEROUPPER
	VMOVSD X0, ret+48(FP)
	RET

// func sumSqDotAsm(x, y []float64) (ss, dot float64)
// SI = x, DI = y, CX = elements left.
// Y0..Y3: four accumulators of x[i]^2, Y8..Y11 four of x[i]*y[i]; each
// 4-element group of x is loaded once (Y4..Y7) for both. Eight chains in
// all, as in Dot: the main loop takes 16 elements, the 4-element loop adds
// into Y0 and Y8. Both sums are combined in the fixed order
// (Y0+Y1) + (Y2+Y3), then the scalar tail is fused in: the result depends
// only on the data and the length.
TEXT ·sumSqDotAsm(SB), NOSPLIT, $0-64
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	MOVQ y_base+24(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

ssd16:
	CMPQ CX, $16
	JL   ssd4
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD Y4, Y4, Y0     // Y0 += x[0:4]^2
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	VFMADD231PD (DI), Y4, Y8   // Y8 += x[0:4] * y[0:4]
	VFMADD231PD 32(DI), Y5, Y9
	VFMADD231PD 64(DI), Y6, Y10
	VFMADD231PD 96(DI), Y7, Y11
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JMP  ssd16

ssd4:
	CMPQ CX, $4
	JL   ssdreduce
	VMOVUPD     (SI), Y4
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD (DI), Y4, Y8
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  ssd4

ssdreduce:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0    // two partial sums of squares in X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0    // X0[0] = sum of squares
	VADDPD       Y9, Y8, Y8
	VADDPD       Y11, Y10, Y10
	VADDPD       Y10, Y8, Y8
	VEXTRACTF128 $1, Y8, X9
	VADDPD       X9, X8, X8
	VPERMILPD    $1, X8, X9
	VADDSD       X9, X8, X8    // X8[0] = dot

ssd1:
	TESTQ CX, CX
	JE    ssddone
	VMOVSD      (SI), X4
	VFMADD231SD X4, X4, X0
	VFMADD231SD (DI), X4, X8
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JMP  ssd1

ssddone:
	VZEROUPPER
	VMOVSD X0, ss+48(FP)
	VMOVSD X8, dot+56(FP)
	RET

// func maxAbsAsm(x []float64) float64
// SI = x, CX = elements left (biased by -16 in the main loop).
// Y15 = 0x7fff_ffff_ffff_ffff in every lane: VANDPD with it clears the sign
// bit, |x|, for every input (NaNs stay NaN, -0 becomes +0).
// Y0..Y3: four accumulators, started at +0; Y4..Y7 hold |x| of a block.
//
// NaN: every comparison is VMAXPD acc, data, acc, which in Intel's order is
// also VMAXPD acc, data, acc: data the first source, acc the second. It
// returns data if data > acc and otherwise the second source, acc, in
// particular whenever data is a NaN, quiet or signalling (Intel SDM, MAXPD:
// "If only one value is a NaN (SNaN or QNaN) for this instruction, the
// second source operand ... is written to the result"; an SNaN sets the
// invalid flag, masked in Go, and is neither quieted nor kept). So a NaN
// never enters an accumulator, as a > m is false for a NaN a in the Go
// loop, and equal values (+0 against +0) keep acc. The accumulators hold
// only +0 and |x[i]| of non-NaN x[i], so they are combined with VMAXPD in
// any order.
//
// Shape: 16 elements (four vectors, one per accumulator) per iteration,
// then one optional step of 8 (into Y0, Y1) and one of 4 (Y2), then the
// last 0..3 elements one at a time, each into an accumulator of its own
// (Y3, Y0, Y1): VMOVSD loads it into lane 0 and zeroes the other lanes, and
// +0 cannot exceed an accumulator. The blocks are those of the elementwise
// kernels of both paths (4-element vectors from the start of the slice,
// then single elements), so a vector one of them has just written is read
// by loads that each lie within one of its stores and are forwarded from
// the store buffer. A load that spans two stores is not forwarded and waits
// for them to reach the cache: a variant that ended in one vector of the
// last elements, overlapping the block before (the maximum allows
// comparing an element twice), took 13 to 20 ns more per call than this
// shape at n = 10, 13 and 50 right after Scale had written x. Then the four
// accumulators are combined into X0[0]: four into one, the two 128-bit
// halves, the two lanes. Nothing is read past len.
TEXT ·maxAbsAsm(SB), NOSPLIT, $0-32
	MOVQ     x_base+0(FP), SI
	MOVQ     x_len+8(FP), CX
	VXORPD   Y0, Y0, Y0
	VXORPD   Y1, Y1, Y1
	VXORPD   Y2, Y2, Y2
	VXORPD   Y3, Y3, Y3
	VPCMPEQQ Y15, Y15, Y15 // all ones
	VPSRLQ   $1, Y15, Y15  // 0x7fff_ffff_ffff_ffff: the sign bit cleared
	SUBQ     $16, CX
	JL       maxabs8

maxabsloop16:
	VANDPD (SI), Y15, Y4     // |x[i:i+4]|
	VANDPD 32(SI), Y15, Y5
	VANDPD 64(SI), Y15, Y6
	VANDPD 96(SI), Y15, Y7
	VMAXPD Y0, Y4, Y0        // Y0 = Y4 > Y0 ? Y4 : Y0, lane by lane
	VMAXPD Y1, Y5, Y1
	VMAXPD Y2, Y6, Y2
	VMAXPD Y3, Y7, Y3
	ADDQ   $128, SI
	SUBQ   $16, CX
	JGE    maxabsloop16

maxabs8:
	ADDQ   $16, CX // 0..15 elements left
	CMPQ   CX, $8
	JL     maxabs4
	VANDPD (SI), Y15, Y4
	VANDPD 32(SI), Y15, Y5
	VMAXPD Y0, Y4, Y0
	VMAXPD Y1, Y5, Y1
	ADDQ   $64, SI
	SUBQ   $8, CX

maxabs4:
	CMPQ   CX, $4
	JL     maxabs1
	VANDPD (SI), Y15, Y6
	VMAXPD Y2, Y6, Y2
	ADDQ   $32, SI
	SUBQ   $4, CX

maxabs1:
	// 0..3 elements left, at fixed offsets from SI.
	TESTQ  CX, CX
	JE     maxabsreduce
	VMOVSD (SI), X4        // Y4 = [x[i], 0, 0, 0]
	VANDPD Y15, Y4, Y4
	VMAXPD Y3, Y4, Y3
	CMPQ   CX, $2
	JL     maxabsreduce
	VMOVSD 8(SI), X5
	VANDPD Y15, Y5, Y5
	VMAXPD Y0, Y5, Y0
	CMPQ   CX, $3
	JL     maxabsreduce
	VMOVSD 16(SI), X6
	VANDPD Y15, Y6, Y6
	VMAXPD Y1, Y6, Y1

maxabsreduce:
	VMAXPD       Y1, Y0, Y0
	VMAXPD       Y3, Y2, Y2
	VMAXPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VMAXSD       X1, X0, X0
	VZEROUPPER
	VMOVSD       X0, ret+24(FP)
	RET

// func dot4Asm(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64)
// SI = x, R8..R11 = y0..y3, CX = elements left (biased by -16 in the main
// loop). Accumulators: Y0, Y1 for d0, Y2, Y3 for d1, Y4, Y5 for d2, Y6, Y7
// for d3; Y8..Y11 hold x[i:i+16].
//
// Each block of x is loaded once and used by four FMAs whose y operand
// comes straight from memory: 5 loads per 4 FMAs, against 8 for four Dot
// calls. Eight independent chains hide the 4-cycle FMA latency at two FMAs
// per cycle, which is then the limit (4 cycles per 8 elements).
//
// Measured with BenchmarkDot4 and throw-away variants (Xeon with AVX-512,
// two shared vCPUs, -benchtime 200ms -count 5), ns per call at n = 16 /
// 100 / 256: this kernel 9.5 / 24 / 50, four Dot calls 17.6 / 36 / 73.
// Against 16 elements per iteration, side by side: 8 per iteration was about
// 4% slower at n = 100 and 256 (25.6 against 24.6, 58 against 55); one
// index register addressing all five slices (fewer pointer updates, but
// indexed FMA memory operands) was slower again at n = 16 and 100 (10.8,
// 25.7); loading a 1..3-element tail with VMASKMOVPD into the accumulators
// instead of the scalar tail gained nothing (26.5 against 26.6 at n = 103).
//
// After the 16-element loop: one optional 8-element step into all eight
// accumulators and one optional 4-element step into Y0, Y2, Y4, Y6; then the
// four results are reduced together, in a fixed order, to Y0 = [d0, d1, d2,
// d3] with two horizontal adds, a lane swap, a blend and an add; then 0..3
// scalar elements are fused in with VFMADD231SD, each output in the low
// lane of its own register. The result depends only on the data and the
// length, not on alignment.
TEXT ·dot4Asm(SB), NOSPLIT, $0-152
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
	SUBQ   $16, CX
	JL     dot4step8

dot4loop16:
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VMOVUPD     64(SI), Y10
	VMOVUPD     96(SI), Y11
	VFMADD231PD (R8), Y8, Y0    // Y0 += x[i:i+4] * y0[i:i+4]
	VFMADD231PD 32(R8), Y9, Y1  // Y1 += x[i+4:i+8] * y0[i+4:i+8]
	VFMADD231PD (R9), Y8, Y2
	VFMADD231PD 32(R9), Y9, Y3
	VFMADD231PD (R10), Y8, Y4
	VFMADD231PD 32(R10), Y9, Y5
	VFMADD231PD (R11), Y8, Y6
	VFMADD231PD 32(R11), Y9, Y7
	VFMADD231PD 64(R8), Y10, Y0 // Y0 += x[i+8:i+12] * y0[i+8:i+12]
	VFMADD231PD 96(R8), Y11, Y1
	VFMADD231PD 64(R9), Y10, Y2
	VFMADD231PD 96(R9), Y11, Y3
	VFMADD231PD 64(R10), Y10, Y4
	VFMADD231PD 96(R10), Y11, Y5
	VFMADD231PD 64(R11), Y10, Y6
	VFMADD231PD 96(R11), Y11, Y7
	ADDQ        $128, SI
	ADDQ        $128, R8
	ADDQ        $128, R9
	ADDQ        $128, R10
	ADDQ        $128, R11
	SUBQ        $16, CX
	JGE         dot4loop16

dot4step8:
	ADDQ        $8, CX          // CX = elements left - 8
	JL          dot4step4
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VFMADD231PD (R8), Y8, Y0
	VFMADD231PD 32(R8), Y9, Y1
	VFMADD231PD (R9), Y8, Y2
	VFMADD231PD 32(R9), Y9, Y3
	VFMADD231PD (R10), Y8, Y4
	VFMADD231PD 32(R10), Y9, Y5
	VFMADD231PD (R11), Y8, Y6
	VFMADD231PD 32(R11), Y9, Y7
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $64, R9
	ADDQ        $64, R10
	ADDQ        $64, R11
	SUBQ        $8, CX

dot4step4:
	ADDQ        $8, CX          // 0..7 elements left
	CMPQ        CX, $4
	JL          dot4reduce
	VMOVUPD     (SI), Y8
	VFMADD231PD (R8), Y8, Y0
	VFMADD231PD (R9), Y8, Y2
	VFMADD231PD (R10), Y8, Y4
	VFMADD231PD (R11), Y8, Y6
	ADDQ        $32, SI
	ADDQ        $32, R8
	ADDQ        $32, R9
	ADDQ        $32, R10
	ADDQ        $32, R11
	SUBQ        $4, CX

dot4reduce:
	// With a = Y0+Y1, b = Y2+Y3, c = Y4+Y5, d = Y6+Y7 (lanes 0..3), each
	// output is (k0 + k1) + (k2 + k3) for k = a, b, c, d.
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y5, Y4, Y4
	VADDPD       Y7, Y6, Y6
	VHADDPD      Y2, Y0, Y0        // [a0+a1, b0+b1, a2+a3, b2+b3]
	VHADDPD      Y6, Y4, Y4        // [c0+c1, d0+d1, c2+c3, d2+d3]
	VPERM2F128   $0x21, Y4, Y0, Y1 // [a2+a3, b2+b3, c0+c1, d0+d1]
	VBLENDPD     $0xC, Y4, Y0, Y0  // [a0+a1, b0+b1, c2+c3, d2+d3]
	VADDPD       Y1, Y0, Y0        // [d0, d1, d2, d3]
	VEXTRACTF128 $1, Y0, X2        // X2[0] = d2
	VPERMILPD    $1, X0, X1        // X1[0] = d1
	VPERMILPD    $1, X2, X3        // X3[0] = d3

	// 0..3 elements left, at fixed offsets from the pointers; each is
	// fused into the four results (the upper lanes are not used any more).
	TESTQ       CX, CX
	JE          dot4done
	VMOVSD      (SI), X8
	VFMADD231SD (R8), X8, X0
	VFMADD231SD (R9), X8, X1
	VFMADD231SD (R10), X8, X2
	VFMADD231SD (R11), X8, X3
	CMPQ        CX, $2
	JL          dot4done
	VMOVSD      8(SI), X8
	VFMADD231SD 8(R8), X8, X0
	VFMADD231SD 8(R9), X8, X1
	VFMADD231SD 8(R10), X8, X2
	VFMADD231SD 8(R11), X8, X3
	CMPQ        CX, $3
	JL          dot4done
	VMOVSD      16(SI), X8
	VFMADD231SD 16(R8), X8, X0
	VFMADD231SD 16(R9), X8, X1
	VFMADD231SD 16(R10), X8, X2
	VFMADD231SD 16(R11), X8, X3

dot4done:
	VZEROUPPER
	VMOVSD X0, d0+120(FP)
	VMOVSD X1, d1+128(FP)
	VMOVSD X2, d2+136(FP)
	VMOVSD X3, d3+144(FP)
	RET

// func axpyAsm(alpha float64, x, y []float64)
// Y0 = alpha broadcast, SI = x, DI = y, CX = elements left.
// y[i] = alpha*x[i] + y[i] with one rounding (FMA).
TEXT ·axpyAsm(SB), NOSPLIT, $0-56
	VBROADCASTSD alpha+0(FP), Y0
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), CX
	MOVQ y_base+32(FP), DI

axpy16:
	CMPQ CX, $16
	JL   axpy8
	VMOVUPD     (SI), Y1
	VMOVUPD     32(SI), Y2
	VMOVUPD     64(SI), Y3
	VMOVUPD     96(SI), Y4
	VFMADD213PD (DI), Y0, Y1   // Y1 = alpha*x + y
	VFMADD213PD 32(DI), Y0, Y2
	VFMADD213PD 64(DI), Y0, Y3
	VFMADD213PD 96(DI), Y0, Y4
	VMOVUPD     Y1, (DI)
	VMOVUPD     Y2, 32(DI)
	VMOVUPD     Y3, 64(DI)
	VMOVUPD     Y4, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JMP  axpy16

axpy8:
	CMPQ CX, $8
	JL   axpy4
	VMOVUPD     (SI), Y1
	VMOVUPD     32(SI), Y2
	VFMADD213PD (DI), Y0, Y1   // Y1 = alpha*x + y
	VFMADD213PD 32(DI), Y0, Y2
	VMOVUPD     Y1, (DI)
	VMOVUPD     Y2, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JMP  axpy8

axpy4:
	CMPQ CX, $4
	JL   axpy1
	VMOVUPD     (SI), Y1
	VFMADD213PD (DI), Y0, Y1
	VMOVUPD     Y1, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX

axpy1:
	TESTQ CX, CX
	JE    axpydone
	VMOVSD      (SI), X1
	VFMADD213SD (DI), X0, X1
	VMOVSD      X1, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JMP  axpy1

axpydone:
	VZEROUPPER
	RET

// func scaleAsm(alpha float64, x []float64)
// Y0 = alpha broadcast, SI = x, CX = elements left.
TEXT ·scaleAsm(SB), NOSPLIT, $0-32
	VBROADCASTSD alpha+0(FP), Y0
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), CX

scale8:
	CMPQ CX, $8
	JL   scale4
	VMULPD  (SI), Y0, Y1
	VMULPD  32(SI), Y0, Y2
	VMOVUPD Y1, (SI)
	VMOVUPD Y2, 32(SI)
	ADDQ $64, SI
	SUBQ $8, CX
	JMP  scale8

scale4:
	CMPQ CX, $4
	JL   scale1
	VMULPD  (SI), Y0, Y1
	VMOVUPD Y1, (SI)
	ADDQ $32, SI
	SUBQ $4, CX

scale1:
	TESTQ CX, CX
	JE    scaledone
	VMULSD (SI), X0, X1
	VMOVSD X1, (SI)
	ADDQ $8, SI
	DECQ CX
	JMP  scale1

scaledone:
	VZEROUPPER
	RET

// func axpbyToAsm(dst []float64, a float64, x []float64, b float64, y []float64)
// Y0 = a, Y1 = b, DX = dst, SI = x, DI = y, CX = elements left.
// dst[i] = a*x[i] + b*y[i]: b*y rounded, then one FMA. Each element is read
// before it is written, so dst may be x or y.
TEXT ·axpbyToAsm(SB), NOSPLIT, $0-88
	MOVQ         dst_base+0(FP), DX
	MOVQ         dst_len+8(FP), CX
	VBROADCASTSD a+24(FP), Y0
	MOVQ         x_base+32(FP), SI
	VBROADCASTSD b+56(FP), Y1
	MOVQ         y_base+64(FP), DI

axpby8:
	CMPQ CX, $8
	JL   axpby4
	VMULPD      (DI), Y1, Y2       // Y2 = b*y
	VMULPD      32(DI), Y1, Y3
	VFMADD231PD (SI), Y0, Y2       // Y2 += a*x
	VFMADD231PD 32(SI), Y0, Y3
	VMOVUPD     Y2, (DX)
	VMOVUPD     Y3, 32(DX)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, DX
	SUBQ $8, CX
	JMP  axpby8

axpby4:
	CMPQ CX, $4
	JL   axpby1
	VMULPD      (DI), Y1, Y2
	VFMADD231PD (SI), Y0, Y2
	VMOVUPD     Y2, (DX)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	SUBQ $4, CX

axpby1:
	TESTQ CX, CX
	JE    axpbydone
	VMULSD      (DI), X1, X2
	VFMADD231SD (SI), X0, X2
	VMOVSD      X2, (DX)
	ADDQ $8, SI
	ADDQ $8, DI
	ADDQ $8, DX
	DECQ CX
	JMP  axpby1

axpbydone:
	VZEROUPPER
	RET

// func stepAsm(s, a float64, u []float64, b float64, v []float64, x []float64)
// Y0 = s, Y1 = a, Y2 = b, SI = u, DI = v, DX = x, CX = elements left.
// x[i] = s*((x[i] + a*u[i]) + b*v[i]): two FMAs and a multiply.
TEXT ·stepAsm(SB), NOSPLIT, $0-96
	VBROADCASTSD s+0(FP), Y0
	VBROADCASTSD a+8(FP), Y1
	MOVQ         u_base+16(FP), SI
	VBROADCASTSD b+40(FP), Y2
	MOVQ         v_base+48(FP), DI
	MOVQ         x_base+72(FP), DX
	MOVQ         x_len+80(FP), CX

step8:
	CMPQ CX, $8
	JL   step4
	VMOVUPD     (DX), Y3
	VMOVUPD     32(DX), Y4
	VFMADD231PD (SI), Y1, Y3       // x + a*u
	VFMADD231PD 32(SI), Y1, Y4
	VFMADD231PD (DI), Y2, Y3       // + b*v
	VFMADD231PD 32(DI), Y2, Y4
	VMULPD      Y0, Y3, Y3         // * s
	VMULPD      Y0, Y4, Y4
	VMOVUPD     Y3, (DX)
	VMOVUPD     Y4, 32(DX)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, DX
	SUBQ $8, CX
	JMP  step8

step4:
	CMPQ CX, $4
	JL   step1
	VMOVUPD     (DX), Y3
	VFMADD231PD (SI), Y1, Y3
	VFMADD231PD (DI), Y2, Y3
	VMULPD      Y0, Y3, Y3
	VMOVUPD     Y3, (DX)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	SUBQ $4, CX

step1:
	TESTQ CX, CX
	JE    stepdone
	VMOVSD      (DX), X3
	VFMADD231SD (SI), X1, X3
	VFMADD231SD (DI), X2, X3
	VMULSD      X0, X3, X3
	VMOVSD      X3, (DX)
	ADDQ $8, SI
	ADDQ $8, DI
	ADDQ $8, DX
	DECQ CX
	JMP  step1

stepdone:
	VZEROUPPER
	RET
