//go:build !purego

#include "textflag.h"

// NEON kernels behind Softplus, Sigmoid, SigmoidScaled and SoftplusSum
// (declarations and guarantees in exp_arm64.go).
//
// Method. For u = scale*x (rounded once) only t = e^v, v = -|u|, is needed;
// t is in [0, 1], so nothing overflows:
//
//	softplus(u) = max(u, 0) + log1p(t)
//	sigmoid(u)  = 1/(1+t) if u >= 0 (also -0), t/(1+t) if u < 0
//
// e^v: v is clamped to -746 (below it e^v rounds to +0) before any
// conversion to integer (golang/go#18912, #23164); v = n*ln2 + r with
// n = rint(v/ln2) in [-1076, 0], computed as (v/ln2 + magic) - magic (one
// fused rounding, then an exact subtraction), and
// r = (v - n*ln2hi) - n*ln2lo, fdlibm's two-part ln 2, so the first step is
// exact and |r| <= 0.3466; e^r is a minimax polynomial of degree 11
// (relative error 3.1e-18, coefficients in exp_model_test.go); 2^n is
// applied as 2^(n>>1) * 2^(n-(n>>1)), both factors normal, so a subnormal
// e^v is rounded once.
// log1p(t) follows fdlibm's log1p: m = 1+t rounded, lo = t-(m-1) exactly,
// k = [m >= sqrt2], 1+f = m/2^k, s = f/(2+f), and
// log1p(t) = k*ln2hi - ((f*f/2 - (s*(f*f/2 + R(s*s)) + k*ln2lo + lo/m)) - f)
// with fdlibm's minimax R (Lg1..Lg7). For t below 2^-53, m = 1, f = 0 and the
// result is lo/m = t exactly: softplus(u) = e^u to full relative accuracy,
// down to subnormals.
// The sigmoid divides once, N/d for d = 1+t rounded and N = 1 or t.
//
// Measured by TestAccuracySweep under qemu against a 160-bit reference on
// 1e6 points (uniform on [-50, 50], log-spaced tails to -745 and 710):
// softplus <= 1.54 ulp, sigmoid <= 2.21 ulp (1.52 and 2.13 on amd64, whose
// sweep points differ in their last bits: the arm64 compiler fuses the
// point arithmetic; on the same input both paths return the same bits).
//
// Registers (the same in all three functions):
//	R0 dst, R1 x, R2 elements left, R4 the constant table.
//	R3 0 in the main loop; in the one pass over the tail, 1..3, the
//	   number of elements (the body then branches to the tail code).
//	V0, V1  x, then u, then the result, of vectors A and B.
//	A: r=V2 n=V3 p=V4 q=V5 a=V6 b=V7 c=V8 temporaries (names used below);
//	B: r=V9 n=V10 p=V11 q=V12 a=V13 b=V14 c=V15, the same roles.
//	V16..V24 constants 1, -746, 1/ln2, ln2hi, ln2lo, 1023, sqrt2, 0.5, 0.
//	V25 scale; V26 mul (sigmoid); V27, V28 partial sums (sum); V29 magic.
//
// Loop: four elements (vectors A and B) per iteration, every step written
// for A and then for B, so that two independent dependency chains are in
// flight; polynomial coefficients are loaded from the table straight into
// the accumulator of the next FMLA, which keeps them out of registers and
// off the vector pipes. Written for throughput; there is no arm64 hardware
// here, so it has not been timed.
// Tail: 1..3 elements are loaded into V0 (two lanes, 16 bytes) and/or lane 0
// of V0 or V1 (FMOVD, 8 bytes, which zeroes the other lane), run through the
// same body once more, and exactly those elements are stored: nothing is
// read or written past the slices.
//
// Operand order: Go's VFMLA Vm, Vn, Vd is Vd += Vn*Vm (VFMLS: -=); VSUB Vm,
// Vn, Vd is Vd = Vn - Vm; VBSL Vm, Vn, Vd is Vd = (Vd & Vn) | (^Vd & Vm).
// The floating-point instructions the Go assembler lacks (golang/go#41092)
// are WORDs with the instruction in Arm syntax in the comment;
// encoding_test.go checks each word against its comment.
//
// Macros. The body is written once, as the macros EXPNEG (u and t = e^v),
// SOFTPLUS and SIGMOID (the result from u and t), and the loop and tail
// code of softplusScaledAsm and sigmoidScaledAsm once, as MAPLOOP. A WORD
// cannot stand inside a multi-line macro (the comment that encoding_test.go
// requires on its line would end the definition), so each WORD of the body
// is a macro of its own, named after its instruction in Arm syntax
// (FMUL_V0_V0_V25 is FMUL V0.2D, V0.2D, V25.2D) and defined in the table
// below, where each encoding is written and checked once.

// The WORD-encoded instructions of the body, in their order of first use.
#define FMUL_V0_V0_V25 \
	WORD	$0x6e79dc00 // FMUL V0.2D, V0.2D, V25.2D
#define FMUL_V1_V1_V25 \
	WORD	$0x6e79dc21 // FMUL V1.2D, V1.2D, V25.2D
#define FABS_V2_V0 \
	WORD	$0x4ee0f802 // FABS V2.2D, V0.2D
#define FABS_V9_V1 \
	WORD	$0x4ee0f829 // FABS V9.2D, V1.2D
#define FNEG_V2_V2 \
	WORD	$0x6ee0f842 // FNEG V2.2D, V2.2D
#define FNEG_V9_V9 \
	WORD	$0x6ee0f929 // FNEG V9.2D, V9.2D
#define FMAX_V2_V2_V17 \
	WORD	$0x4e71f442 // FMAX V2.2D, V2.2D, V17.2D
#define FMAX_V9_V9_V17 \
	WORD	$0x4e71f529 // FMAX V9.2D, V9.2D, V17.2D
#define FSUB_V3_V3_V29 \
	WORD	$0x4efdd463 // FSUB V3.2D, V3.2D, V29.2D
#define FSUB_V10_V10_V29 \
	WORD	$0x4efdd54a // FSUB V10.2D, V10.2D, V29.2D
#define FCVTZS_V3_V3 \
	WORD	$0x4ee1b863 // FCVTZS V3.2D, V3.2D
#define FCVTZS_V10_V10 \
	WORD	$0x4ee1b94a // FCVTZS V10.2D, V10.2D
#define SSHR_V6_V3_1 \
	WORD	$0x4f7f0466 // SSHR V6.2D, V3.2D, #1
#define SSHR_V13_V10_1 \
	WORD	$0x4f7f054d // SSHR V13.2D, V10.2D, #1
#define FMUL_V5_V5_V6 \
	WORD	$0x6e66dca5 // FMUL V5.2D, V5.2D, V6.2D
#define FMUL_V12_V12_V13 \
	WORD	$0x6e6ddd8c // FMUL V12.2D, V12.2D, V13.2D
#define FMUL_V5_V5_V3 \
	WORD	$0x6e63dca5 // FMUL V5.2D, V5.2D, V3.2D
#define FMUL_V12_V12_V10 \
	WORD	$0x6e6add8c // FMUL V12.2D, V12.2D, V10.2D
#define FADD_V6_V5_V16 \
	WORD	$0x4e70d4a6 // FADD V6.2D, V5.2D, V16.2D
#define FADD_V13_V12_V16 \
	WORD	$0x4e70d58d // FADD V13.2D, V12.2D, V16.2D
#define FSUB_V7_V6_V16 \
	WORD	$0x4ef0d4c7 // FSUB V7.2D, V6.2D, V16.2D
#define FSUB_V14_V13_V16 \
	WORD	$0x4ef0d5ae // FSUB V14.2D, V13.2D, V16.2D
#define FSUB_V5_V5_V7 \
	WORD	$0x4ee7d4a5 // FSUB V5.2D, V5.2D, V7.2D
#define FSUB_V12_V12_V14 \
	WORD	$0x4eeed58c // FSUB V12.2D, V12.2D, V14.2D
#define FCMGE_V3_V6_V22 \
	WORD	$0x6e76e4c3 // FCMGE V3.2D, V6.2D, V22.2D
#define FCMGE_V10_V13_V22 \
	WORD	$0x6e76e5aa // FCMGE V10.2D, V13.2D, V22.2D
#define FMUL_V3_V6_V3 \
	WORD	$0x6e63dcc3 // FMUL V3.2D, V6.2D, V3.2D
#define FMUL_V10_V13_V10 \
	WORD	$0x6e6addaa // FMUL V10.2D, V13.2D, V10.2D
#define FDIV_V5_V5_V6 \
	WORD	$0x6e66fca5 // FDIV V5.2D, V5.2D, V6.2D
#define FDIV_V12_V12_V13 \
	WORD	$0x6e6dfd8c // FDIV V12.2D, V12.2D, V13.2D
#define FADD_V6_V3_V16 \
	WORD	$0x4e70d466 // FADD V6.2D, V3.2D, V16.2D
#define FADD_V13_V10_V16 \
	WORD	$0x4e70d54d // FADD V13.2D, V10.2D, V16.2D
#define FSUB_V3_V3_V16 \
	WORD	$0x4ef0d463 // FSUB V3.2D, V3.2D, V16.2D
#define FSUB_V10_V10_V16 \
	WORD	$0x4ef0d54a // FSUB V10.2D, V10.2D, V16.2D
#define FDIV_V6_V3_V6 \
	WORD	$0x6e66fc66 // FDIV V6.2D, V3.2D, V6.2D
#define FDIV_V13_V10_V13 \
	WORD	$0x6e6dfd4d // FDIV V13.2D, V10.2D, V13.2D
#define FMUL_V2_V6_V6 \
	WORD	$0x6e66dcc2 // FMUL V2.2D, V6.2D, V6.2D
#define FMUL_V9_V13_V13 \
	WORD	$0x6e6ddda9 // FMUL V9.2D, V13.2D, V13.2D
#define FMUL_V4_V4_V2 \
	WORD	$0x6e62dc84 // FMUL V4.2D, V4.2D, V2.2D
#define FMUL_V11_V11_V9 \
	WORD	$0x6e69dd6b // FMUL V11.2D, V11.2D, V9.2D
#define FMUL_V8_V3_V23 \
	WORD	$0x6e77dc68 // FMUL V8.2D, V3.2D, V23.2D
#define FMUL_V15_V10_V23 \
	WORD	$0x6e77dd4f // FMUL V15.2D, V10.2D, V23.2D
#define FMUL_V8_V8_V3 \
	WORD	$0x6e63dd08 // FMUL V8.2D, V8.2D, V3.2D
#define FMUL_V15_V15_V10 \
	WORD	$0x6e6addef // FMUL V15.2D, V15.2D, V10.2D
#define FADD_V4_V8_V4 \
	WORD	$0x4e64d504 // FADD V4.2D, V8.2D, V4.2D
#define FADD_V11_V15_V11 \
	WORD	$0x4e6bd5eb // FADD V11.2D, V15.2D, V11.2D
#define FSUB_V8_V8_V5 \
	WORD	$0x4ee5d508 // FSUB V8.2D, V8.2D, V5.2D
#define FSUB_V15_V15_V12 \
	WORD	$0x4eecd5ef // FSUB V15.2D, V15.2D, V12.2D
#define FSUB_V8_V8_V3 \
	WORD	$0x4ee3d508 // FSUB V8.2D, V8.2D, V3.2D
#define FSUB_V15_V15_V10 \
	WORD	$0x4eead5ef // FSUB V15.2D, V15.2D, V10.2D
#define FMAX_V0_V0_V24 \
	WORD	$0x4e78f400 // FMAX V0.2D, V0.2D, V24.2D
#define FMAX_V1_V1_V24 \
	WORD	$0x4e78f421 // FMAX V1.2D, V1.2D, V24.2D
#define FSUB_V0_V0_V8 \
	WORD	$0x4ee8d400 // FSUB V0.2D, V0.2D, V8.2D
#define FSUB_V1_V1_V15 \
	WORD	$0x4eefd421 // FSUB V1.2D, V1.2D, V15.2D
#define FCMGE_V3_V0_V24 \
	WORD	$0x6e78e403 // FCMGE V3.2D, V0.2D, V24.2D
#define FCMGE_V10_V1_V24 \
	WORD	$0x6e78e42a // FCMGE V10.2D, V1.2D, V24.2D
#define FDIV_V4_V3_V6 \
	WORD	$0x6e66fc64 // FDIV V4.2D, V3.2D, V6.2D
#define FDIV_V11_V10_V13 \
	WORD	$0x6e6dfd4b // FDIV V11.2D, V10.2D, V13.2D
#define FMUL_V0_V4_V26 \
	WORD	$0x6e7adc80 // FMUL V0.2D, V4.2D, V26.2D
#define FMUL_V1_V11_V26 \
	WORD	$0x6e7add61 // FMUL V1.2D, V11.2D, V26.2D

// LOADCONST: the constants, V16..V23 from the table, V24 = 0, V29 = magic;
// R4 stays on the table for the polynomial coefficients (R5 is clobbered).
#define LOADCONST \
	MOVD	$expconst<>(SB), R4; \
	VLD1	(R4), [V16.D2, V17.D2, V18.D2, V19.D2]; \
	ADD	$64, R4, R5; \
	VLD1	(R5), [V20.D2, V21.D2, V22.D2, V23.D2]; \
	FMOVQ	128(R4), F29; \
	VEOR	V24.B16, V24.B16, V24.B16

// EXPNEG: V0, V1 = x on entry (vectors A and B); on exit V0, V1 = u =
// scale*x and q (V5, V12) = t = e^v, v = max(-|u|, -746); r, n, p and a are
// clobbered.
#define EXPNEG \
	/* u = scale*x, rounded once */ \
	FMUL_V0_V0_V25; \
	FMUL_V1_V1_V25; \
	/* t = e^v, v = max(-|u|, -746), in q. Range reduction: */ \
	/* v = n*ln2 + r, n = rint(v/ln2) in [-1076, 0], |r| <= 0.3466. */ \
	FABS_V2_V0; \
	FABS_V9_V1; \
	FNEG_V2_V2; \
	FNEG_V9_V9; \
	/* FMAX, not FMAXNM: a NaN u stays NaN. Clamping before the */ \
	/* conversion keeps n far from the int64 range (golang/go#18912). */ \
	FMAX_V2_V2_V17; \
	FMAX_V9_V9_V17; \
	/* n = (v/ln2 + MAGIC) - MAGIC: one fused rounding puts rint(v/ln2) */ \
	/* in the low bits (MAGIC = 0x1.8p52 + 2046, the constant the x86 */ \
	/* code takes the exponent bits from); the subtraction is exact. */ \
	VORR	V29.B16, V29.B16, V3.B16; \
	VORR	V29.B16, V29.B16, V10.B16; \
	VFMLA	V18.D2, V2.D2, V3.D2; \
	VFMLA	V18.D2, V9.D2, V10.D2; \
	FSUB_V3_V3_V29; \
	FSUB_V10_V10_V29; \
	/* r = (v - n*ln2hi) - n*ln2lo; the first step is exact. */ \
	VFMLS	V19.D2, V3.D2, V2.D2; \
	VFMLS	V19.D2, V10.D2, V9.D2; \
	VFMLS	V20.D2, V3.D2, V2.D2; \
	VFMLS	V20.D2, V10.D2, V9.D2; \
	FCVTZS_V3_V3; \
	FCVTZS_V10_V10; \
	/* e^r by the minimax polynomial of degree 11 (relative error */ \
	/* 3.1e-18), Horner with FMLA. Each coefficient is loaded straight */ \
	/* into the accumulator of the next step, alternating p and q. */ \
	FMOVQ	160(R4), F4; \
	FMOVQ	160(R4), F11; \
	FMOVQ	176(R4), F5; \
	FMOVQ	176(R4), F12; \
	VFMLA	V2.D2, V4.D2, V5.D2; \
	VFMLA	V9.D2, V11.D2, V12.D2; \
	FMOVQ	192(R4), F4; \
	FMOVQ	192(R4), F11; \
	VFMLA	V2.D2, V5.D2, V4.D2; \
	VFMLA	V9.D2, V12.D2, V11.D2; \
	FMOVQ	208(R4), F5; \
	FMOVQ	208(R4), F12; \
	VFMLA	V2.D2, V4.D2, V5.D2; \
	VFMLA	V9.D2, V11.D2, V12.D2; \
	FMOVQ	224(R4), F4; \
	FMOVQ	224(R4), F11; \
	VFMLA	V2.D2, V5.D2, V4.D2; \
	VFMLA	V9.D2, V12.D2, V11.D2; \
	FMOVQ	240(R4), F5; \
	FMOVQ	240(R4), F12; \
	VFMLA	V2.D2, V4.D2, V5.D2; \
	VFMLA	V9.D2, V11.D2, V12.D2; \
	FMOVQ	256(R4), F4; \
	FMOVQ	256(R4), F11; \
	VFMLA	V2.D2, V5.D2, V4.D2; \
	VFMLA	V9.D2, V12.D2, V11.D2; \
	FMOVQ	272(R4), F5; \
	FMOVQ	272(R4), F12; \
	VFMLA	V2.D2, V4.D2, V5.D2; \
	VFMLA	V9.D2, V11.D2, V12.D2; \
	FMOVQ	288(R4), F4; \
	FMOVQ	288(R4), F11; \
	VFMLA	V2.D2, V5.D2, V4.D2; \
	VFMLA	V9.D2, V12.D2, V11.D2; \
	FMOVQ	304(R4), F5; \
	FMOVQ	304(R4), F12; \
	VFMLA	V2.D2, V4.D2, V5.D2; \
	VFMLA	V9.D2, V11.D2, V12.D2; \
	FMOVQ	320(R4), F4; \
	FMOVQ	320(R4), F11; \
	VFMLA	V2.D2, V5.D2, V4.D2; \
	VFMLA	V9.D2, V12.D2, V11.D2; \
	FMOVQ	336(R4), F5; \
	FMOVQ	336(R4), F12; \
	VFMLA	V2.D2, V4.D2, V5.D2; \
	VFMLA	V9.D2, V11.D2, V12.D2; \
	/* Scale by 2^n in two steps, 2^n1 * 2^n2 with n1 = n>>1 and */ \
	/* n2 = n - n1, both >= -538 and so normal: the first product is */ \
	/* exact and only the second rounds, also when e^v is subnormal. */ \
	SSHR_V6_V3_1; \
	SSHR_V13_V10_1; \
	VSUB	V6.D2, V3.D2, V3.D2; \
	VSUB	V13.D2, V10.D2, V10.D2; \
	VADD	V21.D2, V6.D2, V6.D2; \
	VADD	V21.D2, V13.D2, V13.D2; \
	VADD	V21.D2, V3.D2, V3.D2; \
	VADD	V21.D2, V10.D2, V10.D2; \
	VSHL	$52, V6.D2, V6.D2; \
	VSHL	$52, V13.D2, V13.D2; \
	VSHL	$52, V3.D2, V3.D2; \
	VSHL	$52, V10.D2, V10.D2; \
	FMUL_V5_V5_V6; \
	FMUL_V12_V12_V13; \
	FMUL_V5_V5_V3; \
	FMUL_V12_V12_V10

// SOFTPLUS: u in V0, V1 and t in q (V5, V12) on entry (after EXPNEG); on exit
// V0, V1 = softplus(u) = max(u, 0) + log1p(t). All temporaries are clobbered.
#define SOFTPLUS \
	/* L = log1p(t), t in [0, 1], as in fdlibm log1p: m = 1+t rounded, */ \
	/* lo = t - (m-1) exactly (Fast2Sum, t <= 1), so 1+t = m + lo and */ \
	/* log1p(t) = k*ln2 + log(1+f) + lo/m, with k = 1 if m >= sqrt2 */ \
	/* else 0 and 1+f = m/2^k, f in [-0.293, 0.415) exact. */ \
	FADD_V6_V5_V16; \
	FADD_V13_V12_V16; \
	FSUB_V7_V6_V16; \
	FSUB_V14_V13_V16; \
	FSUB_V5_V5_V7; \
	FSUB_V12_V12_V14; \
	FCMGE_V3_V6_V22; \
	FCMGE_V10_V13_V22; \
	/* b = k as 0.0 or 1.0; n = 2^-k; n = m*2^-k = 1+f; q = lo/m. */ \
	VAND	V16.B16, V3.B16, V7.B16; \
	VAND	V16.B16, V10.B16, V14.B16; \
	VBSL	V16.B16, V23.B16, V3.B16; \
	VBSL	V16.B16, V23.B16, V10.B16; \
	FMUL_V3_V6_V3; \
	FMUL_V10_V13_V10; \
	FDIV_V5_V5_V6; \
	FDIV_V12_V12_V13; \
	/* a = 2+f (= (1+f)+1, rounded once); n = f; a = s = f/(2+f). */ \
	FADD_V6_V3_V16; \
	FADD_V13_V10_V16; \
	FSUB_V3_V3_V16; \
	FSUB_V10_V10_V16; \
	FDIV_V6_V3_V6; \
	FDIV_V13_V10_V13; \
	/* q = lo/m + k*ln2lo; r = z = s*s. */ \
	VFMLA	V20.D2, V7.D2, V5.D2; \
	VFMLA	V20.D2, V14.D2, V12.D2; \
	FMUL_V2_V6_V6; \
	FMUL_V9_V13_V13; \
	/* p = R(z) = z*(Lg1 + z*(Lg2 + ... + z*Lg7)), Horner. */ \
	FMOVQ	352(R4), F4; \
	FMOVQ	352(R4), F11; \
	FMOVQ	368(R4), F8; \
	FMOVQ	368(R4), F15; \
	VFMLA	V2.D2, V4.D2, V8.D2; \
	VFMLA	V9.D2, V11.D2, V15.D2; \
	FMOVQ	384(R4), F4; \
	FMOVQ	384(R4), F11; \
	VFMLA	V2.D2, V8.D2, V4.D2; \
	VFMLA	V9.D2, V15.D2, V11.D2; \
	FMOVQ	400(R4), F8; \
	FMOVQ	400(R4), F15; \
	VFMLA	V2.D2, V4.D2, V8.D2; \
	VFMLA	V9.D2, V11.D2, V15.D2; \
	FMOVQ	416(R4), F4; \
	FMOVQ	416(R4), F11; \
	VFMLA	V2.D2, V8.D2, V4.D2; \
	VFMLA	V9.D2, V15.D2, V11.D2; \
	FMOVQ	432(R4), F8; \
	FMOVQ	432(R4), F15; \
	VFMLA	V2.D2, V4.D2, V8.D2; \
	VFMLA	V9.D2, V11.D2, V15.D2; \
	FMOVQ	448(R4), F4; \
	FMOVQ	448(R4), F11; \
	VFMLA	V2.D2, V8.D2, V4.D2; \
	VFMLA	V9.D2, V15.D2, V11.D2; \
	FMUL_V4_V4_V2; \
	FMUL_V11_V11_V9; \
	/* c = hfsq = f*f/2; q = s*(hfsq+R) + (lo/m + k*ln2lo); */ \
	/* c = (hfsq - q) - f - k*ln2hi = -L. */ \
	FMUL_V8_V3_V23; \
	FMUL_V15_V10_V23; \
	FMUL_V8_V8_V3; \
	FMUL_V15_V15_V10; \
	FADD_V4_V8_V4; \
	FADD_V11_V15_V11; \
	VFMLA	V4.D2, V6.D2, V5.D2; \
	VFMLA	V11.D2, V13.D2, V12.D2; \
	FSUB_V8_V8_V5; \
	FSUB_V15_V15_V12; \
	FSUB_V8_V8_V3; \
	FSUB_V15_V15_V10; \
	VFMLS	V19.D2, V7.D2, V8.D2; \
	VFMLS	V19.D2, V14.D2, V15.D2; \
	/* softplus(u) = max(u, 0) + L; FMAX keeps a NaN u, +Inf stays +Inf. */ \
	FMAX_V0_V0_V24; \
	FMAX_V1_V1_V24; \
	FSUB_V0_V0_V8; \
	FSUB_V1_V1_V15

// SIGMOID: u in V0, V1 and t in q (V5, V12) on entry (after EXPNEG); on exit
// V0, V1 = mul*sigmoid(u), mul in V26. n, p and a are clobbered.
#define SIGMOID \
	/* sigmoid(u) = N/(1+t) with N = 1 if u >= 0 (also -0) else t: */ \
	/* d = 1+t rounded, one division N/d. */ \
	FADD_V6_V5_V16; \
	FADD_V13_V12_V16; \
	FCMGE_V3_V0_V24; \
	FCMGE_V10_V1_V24; \
	VBSL	V5.B16, V16.B16, V3.B16; \
	VBSL	V12.B16, V16.B16, V10.B16; \
	FDIV_V4_V3_V6; \
	FDIV_V11_V10_V13; \
	/* times mul */ \
	FMUL_V0_V4_V26; \
	FMUL_V1_V11_V26

// TAILLOAD(done, load1, body): 0..3 elements left; none: go to done.
// R3 = R2 makes the body branch to the tail code afterwards. FMOVD loads
// one element and zeroes the other lane; nothing past the slice is read.
// load1 is a label of its own.
#define TAILLOAD(done, load1, body) \
	CBZ	R2, done; \
	MOVD	R2, R3; \
	TBZ	$1, R2, load1; \
	VLD1.P	16(R1), [V0.D2]; \
	TBZ	$0, R2, body; \
	FMOVD	(R1), F1; \
	B	body; \
 \
load1: \
	FMOVD	(R1), F0; \
	B	body

// MAPLOOP(F): the loop and the tail of softplusScaledAsm and
// sigmoidScaledAsm, dst[i] = f(scale*x[i]) with the body EXPNEG, then F
// (SOFTPLUS or SIGMOID). On entry R0 = dst, R1 = x, R2 = len(dst), R3 = 0,
// V25 = scale (V26 = mul) and the constants loaded (LOADCONST).
#define MAPLOOP(F) \
loop: \
	CMP	$4, R2; \
	BLT	tail; \
	VLD1.P	32(R1), [V0.D2, V1.D2]; \
 \
body: \
	EXPNEG; \
	F; \
 \
	CBNZ	R3, tailstore; \
	VST1.P	[V0.D2, V1.D2], 32(R0); \
	SUB	$4, R2; \
	B	loop; \
 \
tail: \
	TAILLOAD(done, load1, body); \
 \
tailstore: \
	/* Store exactly R3 elements: both lanes of V0 if R3 >= 2, then */ \
	/* lane 0 of V1 (R3 = 3) or of V0 (R3 = 1). */ \
	TBZ	$1, R3, store1; \
	VST1.P	[V0.D2], 16(R0); \
	TBZ	$0, R3, done; \
	FMOVD	F1, (R0); \
	RET; \
 \
store1: \
	FMOVD	F0, (R0); \
 \
done: \
	RET

// func softplusScaledAsm(dst, x []float64, scale float64)
//
// dst[i] = softplus(scale*x[i]) for i < len(dst); x has at least len(dst)
// elements; dst may be x.
TEXT ·softplusScaledAsm(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	dst_len+8(FP), R2
	MOVD	x_base+24(FP), R1
	FMOVD	scale+48(FP), F25
	VDUP	V25.D[0], V25.D2
	LOADCONST
	MOVD	ZR, R3
	MAPLOOP(SOFTPLUS)

// func sigmoidScaledAsm(dst, x []float64, scale, mul float64)
//
// dst[i] = mul*sigmoid(scale*x[i]) for i < len(dst); x has at least
// len(dst) elements; dst may be x.
TEXT ·sigmoidScaledAsm(SB), NOSPLIT, $0-64
	MOVD	dst_base+0(FP), R0
	MOVD	dst_len+8(FP), R2
	MOVD	x_base+24(FP), R1
	FMOVD	scale+48(FP), F25
	VDUP	V25.D[0], V25.D2
	FMOVD	mul+56(FP), F26
	VDUP	V26.D[0], V26.D2
	LOADCONST
	MOVD	ZR, R3
	MAPLOOP(SIGMOID)

// func softplusSumAsm(x []float64, scale float64) float64
//
// Returns the sum of softplus(scale*x[i]). Element i is added to lane i%4 of
// the accumulators (V27 holds lanes 0 and 1, V28 lanes 2 and 3) in index
// order, and the four lanes are combined as (s0+s2) + (s1+s3): the result
// depends only on the values in x, never on their address.
TEXT ·softplusSumAsm(SB), NOSPLIT, $0-40
	MOVD	x_base+0(FP), R1
	MOVD	x_len+8(FP), R2
	FMOVD	scale+24(FP), F25
	VDUP	V25.D[0], V25.D2
	LOADCONST
	VEOR	V27.B16, V27.B16, V27.B16
	VEOR	V28.B16, V28.B16, V28.B16
	MOVD	ZR, R3

ss_loop:
	CMP	$4, R2
	BLT	ss_tail
	VLD1.P	32(R1), [V0.D2, V1.D2]

ss_body:
	EXPNEG
	SOFTPLUS

	CBNZ	R3, ss_tailmask

ss_accum:
	// Add the four results to the partial sums.
	WORD	$0x4e60d77b // FADD V27.2D, V27.2D, V0.2D
	WORD	$0x4e61d79c // FADD V28.2D, V28.2D, V1.2D
	CBNZ	R3, ss_reduce
	SUB	$4, R2
	B	ss_loop

ss_tail:
	// 0..3 elements left: TAILLOAD runs the body once more on them, and
	// R3 != 0 then sends it to ss_tailmask.
	TAILLOAD(ss_reduce, ss_load1, ss_body)

ss_tailmask:
	// Zero the lanes that hold no element (softplus(0) is not 0):
	// R3 = 1: V0 lane 1 and V1; R3 = 2: V1; R3 = 3: V1 lane 1.
	TBNZ	$1, R3, ss_mask23
	VMOV	ZR, V0.D[1]
	VEOR	V1.B16, V1.B16, V1.B16
	B	ss_accum

ss_mask23:
	TBNZ	$0, R3, ss_mask3
	VEOR	V1.B16, V1.B16, V1.B16
	B	ss_accum

ss_mask3:
	VMOV	ZR, V1.D[1]
	B	ss_accum

ss_reduce:
	// (s0+s2, s1+s3), then their sum in lane 0.
	WORD	$0x4e7cd760 // FADD V0.2D, V27.2D, V28.2D
	WORD	$0x6e60d400 // FADDP V0.2D, V0.2D, V0.2D
	FMOVD	F0, ret+32(FP)
	RET

// Constants, each stored twice (one 16-byte vector). Offsets:
//     0  one    1.0
//    16  clamp  -746: e^-746 < 2^-1075, so it rounds to +0
//    32  invln2 1/ln 2
//    48  ln2hi  ln 2 rounded to 32 bits: n*ln2hi is exact for |n| < 2^21
//    64  ln2lo  ln 2 - ln2hi
//    80  bias   1023 (int64): the exponent bias
//    96  sqrt2  sqrt 2
//   112  half   0.5
//   128  magic  0x1.8p52 + 2046: v/ln2 + magic, rounded, holds rint(v/ln2)
//   144  -      unused (0)
//   160  p11    p11, minimax e^r (exp_model_test.go)
//   176  p10    p10, minimax e^r (exp_model_test.go)
//   192  p9     p9, minimax e^r (exp_model_test.go)
//   208  p8     p8, minimax e^r (exp_model_test.go)
//   224  p7     p7, minimax e^r (exp_model_test.go)
//   240  p6     p6, minimax e^r (exp_model_test.go)
//   256  p5     p5, minimax e^r (exp_model_test.go)
//   272  p4     p4, minimax e^r (exp_model_test.go)
//   288  p3     p3, minimax e^r (exp_model_test.go)
//   304  p2     p2, minimax e^r (exp_model_test.go)
//   320  p1     p1, minimax e^r (exp_model_test.go)
//   336  p0     p0, minimax e^r (exp_model_test.go)
//   352  lg7    Lg7, fdlibm e_log.c
//   368  lg6    Lg6, fdlibm e_log.c
//   384  lg5    Lg5, fdlibm e_log.c
//   400  lg4    Lg4, fdlibm e_log.c
//   416  lg3    Lg3, fdlibm e_log.c
//   432  lg2    Lg2, fdlibm e_log.c
//   448  lg1    Lg1, fdlibm e_log.c
DATA	expconst<>+0(SB)/8, $0x3ff0000000000000
DATA	expconst<>+8(SB)/8, $0x3ff0000000000000
DATA	expconst<>+16(SB)/8, $0xc087500000000000
DATA	expconst<>+24(SB)/8, $0xc087500000000000
DATA	expconst<>+32(SB)/8, $0x3ff71547652b82fe
DATA	expconst<>+40(SB)/8, $0x3ff71547652b82fe
DATA	expconst<>+48(SB)/8, $0x3fe62e42fee00000
DATA	expconst<>+56(SB)/8, $0x3fe62e42fee00000
DATA	expconst<>+64(SB)/8, $0x3dea39ef35793c76
DATA	expconst<>+72(SB)/8, $0x3dea39ef35793c76
DATA	expconst<>+80(SB)/8, $0x00000000000003ff
DATA	expconst<>+88(SB)/8, $0x00000000000003ff
DATA	expconst<>+96(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst<>+104(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst<>+112(SB)/8, $0x3fe0000000000000
DATA	expconst<>+120(SB)/8, $0x3fe0000000000000
DATA	expconst<>+128(SB)/8, $0x43380000000007fe
DATA	expconst<>+136(SB)/8, $0x43380000000007fe
DATA	expconst<>+144(SB)/8, $0x0000000000000000
DATA	expconst<>+152(SB)/8, $0x0000000000000000
DATA	expconst<>+160(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst<>+168(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst<>+176(SB)/8, $0x3e928b311c4abb3b
DATA	expconst<>+184(SB)/8, $0x3e928b311c4abb3b
DATA	expconst<>+192(SB)/8, $0x3ec71df4520100a1
DATA	expconst<>+200(SB)/8, $0x3ec71df4520100a1
DATA	expconst<>+208(SB)/8, $0x3efa01992d102296
DATA	expconst<>+216(SB)/8, $0x3efa01992d102296
DATA	expconst<>+224(SB)/8, $0x3f2a01a0110576fc
DATA	expconst<>+232(SB)/8, $0x3f2a01a0110576fc
DATA	expconst<>+240(SB)/8, $0x3f56c16c18781105
DATA	expconst<>+248(SB)/8, $0x3f56c16c18781105
DATA	expconst<>+256(SB)/8, $0x3f81111111130dd5
DATA	expconst<>+264(SB)/8, $0x3f81111111130dd5
DATA	expconst<>+272(SB)/8, $0x3fa555555554f370
DATA	expconst<>+280(SB)/8, $0x3fa555555554f370
DATA	expconst<>+288(SB)/8, $0x3fc55555555554a2
DATA	expconst<>+296(SB)/8, $0x3fc55555555554a2
DATA	expconst<>+304(SB)/8, $0x3fe0000000000010
DATA	expconst<>+312(SB)/8, $0x3fe0000000000010
DATA	expconst<>+320(SB)/8, $0x3ff0000000000000
DATA	expconst<>+328(SB)/8, $0x3ff0000000000000
DATA	expconst<>+336(SB)/8, $0x3ff0000000000000
DATA	expconst<>+344(SB)/8, $0x3ff0000000000000
DATA	expconst<>+352(SB)/8, $0x3fc2f112df3e5244
DATA	expconst<>+360(SB)/8, $0x3fc2f112df3e5244
DATA	expconst<>+368(SB)/8, $0x3fc39a09d078c69f
DATA	expconst<>+376(SB)/8, $0x3fc39a09d078c69f
DATA	expconst<>+384(SB)/8, $0x3fc7466496cb03de
DATA	expconst<>+392(SB)/8, $0x3fc7466496cb03de
DATA	expconst<>+400(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst<>+408(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst<>+416(SB)/8, $0x3fd2492494229359
DATA	expconst<>+424(SB)/8, $0x3fd2492494229359
DATA	expconst<>+432(SB)/8, $0x3fd999999997fa04
DATA	expconst<>+440(SB)/8, $0x3fd999999997fa04
DATA	expconst<>+448(SB)/8, $0x3fe5555555555593
DATA	expconst<>+456(SB)/8, $0x3fe5555555555593
GLOBL	expconst<>(SB), RODATA|NOPTR, $464
