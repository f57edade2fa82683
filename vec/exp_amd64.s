//go:build !purego

#include "textflag.h"

// AVX2 + FMA kernels behind Softplus, Sigmoid, SigmoidScaled and SoftplusSum
// (declarations and guarantees in exp_amd64.go).
//
// Method: exactly that of exp_arm64.s, whose header comment derives it; the
// two files perform the same IEEE operations, with the same constants, the
// same fused multiply-adds and the same operand order (which decides which
// NaN an operation returns), so the avx2 and neon paths return the same bits
// for every input. In short, for u = scale*x (rounded once) and
// t = e^v, v = -|u|:
//
//	softplus(u) = max(u, 0) + log1p(t)
//	sigmoid(u)  = 1/(1+t) if u >= 0 (also -0), t/(1+t) if u < 0
//
// e^v: v clamped to -746, n = rint(v/ln2) in [-1076, 0] as
// (v/ln2 + MAGIC) - MAGIC (one FMA, one exact subtraction),
// r = (v - n*ln2hi) - n*ln2lo (two FMAs), e^r by a minimax polynomial of
// degree 11 (Horner, FMA), times 2^(n>>1) and then 2^(n-(n>>1)), both
// normal. log1p(t) as fdlibm's log1p (Lg1..Lg7 and the lo correction); the
// sigmoid as one division N/(1+t).
//
// Where x86 differs from NEON, and why the results do not:
//   - FABS then FNEG is one VORPD with the sign bit.
//   - FMAX(v, -746) and FMAX(u, 0) return a NaN operand; VMAXPD returns its
//     second source if either source is NaN (and also if both are zeros), so
//     the NaN candidate is the second source and the constant the first:
//     max(-746, v), max(+0, u). For u = -0 this gives -0 where FMAX gives
//     +0; -0 - c and +0 - c are the same since c = -log1p(1) != 0 there.
//   - FCVTZS, SSHR, SUB and ADD of the bias build 2^n1 and 2^n2 from the
//     integer n; AVX2 has no 64-bit conversion or arithmetic right shift, so
//     the integer is taken from the bits of n + MAGIC = 0x1.8p52 + 2046 (the
//     FMA's result), k = 0x4338000000000000 + n + 2046 as an integer: then
//     k>>1 (logical) = 0x219C000000000000 + (n>>1) + 1023 and
//     k - (k>>1) = 0x219C000000000000 + (n - (n>>1)) + 1023, and shifting
//     each left by 52 keeps only its low 12 bits, the biased exponents
//     n1+1023 and n2+1023 in [485, 1023]. Same factors, same products.
//   - m*2^-k (FMUL by 1 or 0.5) is exact, so it is done on the bits: m minus
//     (mask AND 1<<52) lowers the exponent by k. Same value.
//   - FMLA Vd += Vn*Vm is VFMADD231PD or, with the coefficient from memory,
//     VFMADD213PD (acc = acc*r + c); FMLS is VFNMADD231PD. One rounding of
//     the exact a*b + c either way, so the same bits.
//   - The constants are the same bits (table below), each stored four times
//     so that it can be the 256-bit memory operand of an instruction.
//
// Registers (the same in all three functions):
//	DI dst, SI x, CX elements left.
//	R10 0 in the main loop; in the one pass over the tail, the address of
//	    the tail masks (the body then branches to the tail code).
//	Vector A, elements 0..3 of the iteration: Y0 = X (x, then u, then the
//	result), Y1..Y6 = R, N, Q, M, K, P temporaries (roles in the macros);
//	vector B, elements 4..7: Y7 = X, Y8..Y13 = R, N, Q, M, K, P.
//	Y14 scale; Y15 mul (sigmoid) or the four partial sums (sum).
//
// Loops: sixteen elements per iteration while sixteen are left (four
// vectors, see EXPNEG4 below), then eight (vectors A and B), every step
// done for A and then for B, so that two independent dependency chains
// are in flight (3-8% faster here than all of A's body before B's). The constants
// are memory operands (loads fused into the arithmetic), which leaves the
// sixteen YMM registers to the two vectors, scale and mul or the sums.
// Every function ends with VZEROUPPER; after the first YMM instruction only
// VEX-encoded instructions are used (no SSE transition penalty).
// Tail: 1..7 elements are loaded with VMASKMOVPD (lanes past the end read as
// zero and are never accessed, so they cannot fault), run through the same
// body once more, and stored with VMASKMOVPD under the same masks: nothing
// is read or written past the slices. The masks are the 4-lane windows at
// tailmask<> + 8*(8-len) (vector A) and 32 bytes further on (vector B).
//
// Operand order is Go's, the reverse of Intel's: VSUBPD b, a, d is d = a - b
// (a, the second-to-last operand, is Intel's first source and is the NaN
// returned when both are NaN); VFMADD231PD c, b, a is a = b*c + a;
// VFMADD213PD c, b, a is a = b*a + c; VFNMADD231PD c, b, a is a = a - b*c;
// VBLENDVPD m, c, b, d is d = m ? c : b (by the sign bit of each lane of m).

// Constants (offsets in expconst<>, 32 bytes each):
//     0  ONE     1.0
//    32  CLAMP   -746: e^-746 < 2^-1075, so it rounds to +0
//    64  INVLN2  1/ln 2
//    96  LN2HI   ln 2 rounded to 32 bits: n*ln2hi is exact for |n| < 2^21
//   128  LN2LO   ln 2 - ln2hi
//   160  MAGIC   0x1.8p52 + 2046: n + MAGIC has the bits 0x4338...0 + n + 2046
//   192  SQRT2   sqrt 2
//   224  HALF    0.5
//   256  SIGN    sign bit
//   288  EXP1    exponent field 1: m - EXP1 (as integers) = m/2
//   320  ZERO    +0
//   352  P11     p11, minimax e^r (exp_model_test.go)
//   384  P10     p10, minimax e^r (exp_model_test.go)
//   416  P9      p9, minimax e^r (exp_model_test.go)
//   448  P8      p8, minimax e^r (exp_model_test.go)
//   480  P7      p7, minimax e^r (exp_model_test.go)
//   512  P6      p6, minimax e^r (exp_model_test.go)
//   544  P5      p5, minimax e^r (exp_model_test.go)
//   576  P4      p4, minimax e^r (exp_model_test.go)
//   608  P3      p3, minimax e^r (exp_model_test.go)
//   640  P2      p2, minimax e^r (exp_model_test.go)
//   672  P1      p1, minimax e^r (exp_model_test.go)
//   704  P0      p0, minimax e^r (exp_model_test.go)
//   736  LG7     Lg7, fdlibm e_log.c
//   768  LG6     Lg6, fdlibm e_log.c
//   800  LG5     Lg5, fdlibm e_log.c
//   832  LG4     Lg4, fdlibm e_log.c
//   864  LG3     Lg3, fdlibm e_log.c
//   896  LG2     Lg2, fdlibm e_log.c
//   928  LG1     Lg1, fdlibm e_log.c

#define ONE     expconst<>+0(SB)
#define CLAMP   expconst<>+32(SB)
#define INVLN2  expconst<>+64(SB)
#define LN2HI   expconst<>+96(SB)
#define LN2LO   expconst<>+128(SB)
#define MAGIC   expconst<>+160(SB)
#define SQRT2   expconst<>+192(SB)
#define HALF    expconst<>+224(SB)
#define SIGN    expconst<>+256(SB)
#define EXP1    expconst<>+288(SB)
#define ZERO    expconst<>+320(SB)
#define P11     expconst<>+352(SB)
#define P10     expconst<>+384(SB)
#define P9      expconst<>+416(SB)
#define P8      expconst<>+448(SB)
#define P7      expconst<>+480(SB)
#define P6      expconst<>+512(SB)
#define P5      expconst<>+544(SB)
#define P4      expconst<>+576(SB)
#define P3      expconst<>+608(SB)
#define P2      expconst<>+640(SB)
#define P1      expconst<>+672(SB)
#define P0      expconst<>+704(SB)
#define LG7     expconst<>+736(SB)
#define LG6     expconst<>+768(SB)
#define LG5     expconst<>+800(SB)
#define LG4     expconst<>+832(SB)
#define LG3     expconst<>+864(SB)
#define LG2     expconst<>+896(SB)
#define LG1     expconst<>+928(SB)

// The body is written once, for one vector, in the macros EXPNEG, LOG1P,
// SOFTPLUS and SIGMOID below, and run on two vectors (A and B) or, for e^v
// in the sixteen-element loop, on four (A..D), one instruction at a time:
// each instruction is done for A, then for B (then C, D) before the next
// one. In those macros a register operand is a role (X, R, N, ...) and
// stands for the parenthesized list of that role's register in each vector,
// such as (Y0, Y7) for X; VA and VB (VA4..VD4 for four vectors) pick one
// vector's register out of such a list. The macro around each instruction
// says which operands are lists (V) and which are the same for every vector
// (C: a constant, an immediate, Y14 scale or Y15 mul), and writes the
// instruction once for each vector:
//	CV(op, c, a)            op c, a
//	CVV(op, c, a, b)        op c, a, b
//	VVV(op, a, b, d)        op a, b, d
//	VV(op, a, b)            op a, b (a may be an address such as (OA, OB)(SI))
//	CCVV(op, c, k, a, b)    op c, k, a, b
//	VCVV(op, a, c, b, d)    op a, c, b, d
// for two vectors, and CV4, CVV4, VVV4 and VV4 the same for four.
#define VA(a, b)             a
#define VB(a, b)             b
#define VA4(a, b, c, d)      a
#define VB4(a, b, c, d)      b
#define VC4(a, b, c, d)      c
#define VD4(a, b, c, d)      d
#define CV(op, c, a)         op c, VA a; op c, VB a
#define CVV(op, c, a, b)     op c, VA a, VA b; op c, VB a, VB b
#define VVV(op, a, b, d)     op VA a, VA b, VA d; op VB a, VB b, VB d
#define VV(op, a, b)         op VA a, VA b; op VB a, VB b
#define CCVV(op, c, k, a, b) op c, k, VA a, VA b; op c, k, VB a, VB b
#define VCVV(op, a, c, b, d) op VA a, c, VA b, VA d; op VB a, c, VB b, VB d
#define CV4(op, c, a) \
	op c, VA4 a; op c, VB4 a; op c, VC4 a; op c, VD4 a
#define CVV4(op, c, a, b) \
	op c, VA4 a, VA4 b; op c, VB4 a, VB4 b; \
	op c, VC4 a, VC4 b; op c, VD4 a, VD4 b
#define VVV4(op, a, b, d) \
	op VA4 a, VA4 b, VA4 d; op VB4 a, VB4 b, VB4 d; \
	op VC4 a, VC4 b, VC4 d; op VD4 a, VD4 b, VD4 d
#define VV4(op, a, b) \
	op VA4 a, VA4 b; op VB4 a, VB4 b; op VC4 a, VC4 b; op VD4 a, VD4 b

// EXPNEG: X = x on entry; on exit X = u = x*scale and Q = t = e^v,
// v = max(-|u|, -746). R and N are clobbered. It takes the operand macros
// as arguments: CV, CVV and VVV for two vectors (EXPNEG2), CV4, CVV4 and
// VVV4 for four (EXPNEG4).
//	X = u = x*scale
//	R = v = -|u|; N = -746; R = max(-746, v) (a NaN u stays NaN)
//	N = v/ln2 + MAGIC, one rounding: the bits of n + MAGIC, n = rint(v/ln2)
//	in [-1076, 0] (the exponents, see above); Q = n = N - MAGIC, exact
//	R = r = (v - n*ln2hi) - n*ln2lo, the first step exact
//	Q = e^r = p0 + r*(p1 + r*(... + r*p11)), Horner, one FMA a step
//	R = 2^n1, N = 2^n2 (n1 = n>>1, n2 = n - n1); Q = (Q*2^n1)*2^n2: the
//	first product is exact, only the second rounds (once, also when t is
//	subnormal).
#define EXPNEG(CV, CVV, VVV, X, R, N, Q) \
	CVV(VMULPD,       Y14, X, X); \
	CVV(VORPD,        SIGN, X, R); \
	CV(VMOVUPD,       CLAMP, N); \
	VVV(VMAXPD,       R, N, R); \
	CV(VMOVUPD,       MAGIC, N); \
	CVV(VFMADD231PD,  INVLN2, R, N); \
	CVV(VSUBPD,       MAGIC, N, Q); \
	CVV(VFNMADD231PD, LN2HI, Q, R); \
	CVV(VFNMADD231PD, LN2LO, Q, R); \
	CV(VMOVUPD,       P11, Q); \
	CVV(VFMADD213PD,  P10, R, Q); \
	CVV(VFMADD213PD,  P9, R, Q); \
	CVV(VFMADD213PD,  P8, R, Q); \
	CVV(VFMADD213PD,  P7, R, Q); \
	CVV(VFMADD213PD,  P6, R, Q); \
	CVV(VFMADD213PD,  P5, R, Q); \
	CVV(VFMADD213PD,  P4, R, Q); \
	CVV(VFMADD213PD,  P3, R, Q); \
	CVV(VFMADD213PD,  P2, R, Q); \
	CVV(VFMADD213PD,  P1, R, Q); \
	CVV(VFMADD213PD,  P0, R, Q); \
	CVV(VPSRLQ,       $1, N, R); \
	VVV(VPSUBQ,       R, N, N); \
	CVV(VPSLLQ,       $52, R, R); \
	CVV(VPSLLQ,       $52, N, N); \
	VVV(VMULPD,       R, Q, Q); \
	VVV(VMULPD,       N, Q, Q)

// LOG1P: Q = t on entry (after EXPNEG); on exit N = -L, L = log1p(t) as in
// fdlibm's log1p; Q, R, M, K and P are clobbered.
//	M = m = 1+t rounded; K = m-1; Q = lo = t - (m-1), exact (Fast2Sum,
//	t <= 1): 1+t = m + lo
//	R = mask k, k = [m >= sqrt2]; K = k as 0.0 or 1.0; R = 1+f = m/2^k
//	(exact: the exponent lowered by k); Q = lo/m
//	M = 2+f (rounded once); R = f (exact); M = s = f/(2+f); Q += k*ln2lo
//	N = z = s*s; P = R(z) = z*(Lg1 + z*(Lg2 + ... + z*Lg7)), Horner
//	N = hfsq = (f*0.5)*f; P = hfsq + R(z); Q = s*P + Q
//	N = ((hfsq - Q) - f) - k*ln2hi = -L
#define LOG1P(R, N, Q, M, K, P) \
	CVV(VADDPD,       ONE, Q, M); \
	CVV(VSUBPD,       ONE, M, K); \
	VVV(VSUBPD,       K, Q, Q); \
	CCVV(VCMPPD,      $0x1d, SQRT2, M, R); \
	CVV(VANDPD,       ONE, R, K); \
	CVV(VANDPD,       EXP1, R, R); \
	VVV(VPSUBQ,       R, M, R); \
	VVV(VDIVPD,       M, Q, Q); \
	CVV(VADDPD,       ONE, R, M); \
	CVV(VSUBPD,       ONE, R, R); \
	VVV(VDIVPD,       M, R, M); \
	CVV(VFMADD231PD,  LN2LO, K, Q); \
	VVV(VMULPD,       M, M, N); \
	CV(VMOVUPD,       LG7, P); \
	CVV(VFMADD213PD,  LG6, N, P); \
	CVV(VFMADD213PD,  LG5, N, P); \
	CVV(VFMADD213PD,  LG4, N, P); \
	CVV(VFMADD213PD,  LG3, N, P); \
	CVV(VFMADD213PD,  LG2, N, P); \
	CVV(VFMADD213PD,  LG1, N, P); \
	VVV(VMULPD,       N, P, P); \
	CVV(VMULPD,       HALF, R, N); \
	VVV(VMULPD,       R, N, N); \
	VVV(VADDPD,       P, N, P); \
	VVV(VFMADD231PD,  M, P, Q); \
	VVV(VSUBPD,       Q, N, N); \
	VVV(VSUBPD,       R, N, N); \
	CVV(VFNMADD231PD, LN2HI, K, N)

// SOFTPLUS: X = u and N = -L (after LOG1P); on exit
// X = softplus(u) = max(u, 0) + L; R is clobbered.
//	R = +0; X = max(+0, u) (a NaN u stays, see above); X = X - N
#define SOFTPLUS(X, R, N) \
	VVV(VXORPD,       R, R, R); \
	VVV(VMAXPD,       X, R, X); \
	VVV(VSUBPD,       N, X, X)

// SIGMOID: U = u, Q = t and M = d = 1+t rounded on entry; on exit
// OUT = mul*sigmoid(u), mul in Y15; R and N are clobbered.
// sigmoid(u) = N/(1+t) with N = 1 if u >= 0 (also -0) else t:
//	R = mask u >= 0 (false for NaN)
//	R = N = mask ? 1 : t; N = N/d (one division); OUT = N*mul
// (An exact-residual correction of N*(1/d) gave 1.34 ulp instead of 2.02
// but cost 27% of the sigmoid's time: 1.71 -> 1.25 ns/element here.)
#define SIGMOID(U, R, N, Q, M, OUT) \
	CCVV(VCMPPD,      $0x1d, ZERO, U, R); \
	VCVV(VBLENDVPD,   R, ONE, Q, R); \
	VVV(VDIVPD,       M, R, N); \
	CVV(VMULPD,       Y15, N, OUT)

// The eight-element loop runs the body on vectors A and B:
//
// EXPNEG2: X = x on entry; on exit X = u and Q = t (EXPNEG).
// SOFTPLUS2: X = u and Q = t on entry (after EXPNEG2); on exit
// X = softplus(u); all other registers are clobbered.
// SIGMOID2: X = u and Q = t on entry (after EXPNEG2); on exit
// X = mul*sigmoid(u); M = d = 1+t, then SIGMOID; R, N, M are clobbered (K
// and P unused).
#define EXPNEG2(XA, RA, NA, QA, XB, RB, NB, QB) \
	EXPNEG(CV, CVV, VVV, (XA, XB), (RA, RB), (NA, NB), (QA, QB))

#define SOFTPLUS2(XA, RA, NA, QA, MA, KA, PA, XB, RB, NB, QB, MB, KB, PB) \
	LOG1P((RA, RB), (NA, NB), (QA, QB), (MA, MB), (KA, KB), (PA, PB)); \
	SOFTPLUS((XA, XB), (RA, RB), (NA, NB))

#define SIGMOID2(XA, RA, NA, QA, MA, KA, PA, XB, RB, NB, QB, MB, KB, PB) \
	CVV(VADDPD,       ONE, (QA, QB), (MA, MB)); \
	SIGMOID((XA, XB), (RA, RB), (NA, NB), (QA, QB), (MA, MB), (XA, XB))

// The sixteen-element main loop runs the same operations as the body above
// on four vectors A..D (elements 0..3, ..., 12..15 of the iteration): e^v
// for all four at once, then the sigmoid or the softplus for A and B and
// then for C and D. Four independent Horner chains keep the FMA units busier
// than two (sigmoid 1.91 -> 1.71 ns/element here); the results are the same
// bits, since every vector sees the same operations in the same order. To
// fit sixteen registers, u = x*scale is not kept: EXPNEG4 reads x from
// memory, and SIGMOIDM2/SOFTPLUSM2 read it again and multiply by scale once
// more (the same product, LOADU), before anything is stored, so dst may be
// x. The operand O is the byte offset of the vector in x (from SI).
//
// EXPNEG4: EXPNEG for four vectors, with x loaded from O(SI) into R (R is
// also X); on exit Q = t = e^v, R and N are clobbered.
// LOADU: U = u = x*scale, x loaded from O(SI).
// SIGMOIDM2: as SIGMOID2 for two vectors, Q = t on entry; u recomputed into
// R; on exit Q = mul*sigmoid(u); M, R, N clobbered.
// SOFTPLUSM2: as SOFTPLUS2 for two vectors, Q = t on entry; u recomputed
// into Q at the end; on exit Q = softplus(u); M, K, P, R, N clobbered.
#define EXPNEG4(OA, RA, NA, QA, OB, RB, NB, QB, OC, RC, NC, QC, OD, RD, ND, QD) \
	VV4(VMOVUPD,      (OA, OB, OC, OD)(SI), (RA, RB, RC, RD)); \
	EXPNEG(CV4, CVV4, VVV4, (RA, RB, RC, RD), (RA, RB, RC, RD), (NA, NB, NC, ND), (QA, QB, QC, QD))

#define LOADU(O, U) \
	VV(VMOVUPD,       O(SI), U); \
	CVV(VMULPD,       Y14, U, U)

#define SIGMOIDM2(OA, QA, MA, KA, PA, RA, NA, OB, QB, MB, KB, PB, RB, NB) \
	CVV(VADDPD,       ONE, (QA, QB), (MA, MB)); \
	LOADU((OA, OB), (RA, RB)); \
	SIGMOID((RA, RB), (RA, RB), (NA, NB), (QA, QB), (MA, MB), (QA, QB))

#define SOFTPLUSM2(OA, QA, MA, KA, PA, RA, NA, OB, QB, MB, KB, PB, RB, NB) \
	LOG1P((RA, RB), (NA, NB), (QA, QB), (MA, MB), (KA, KB), (PA, PB)); \
	LOADU((OA, OB), (QA, QB)); \
	SOFTPLUS((QA, QB), (RA, RB), (NA, NB))

// TAILMASK: R10 = tailmask<> + 8*(8-CX), the address of the masks for a
// tail of CX = 1..7 elements; clobbers R11.
#define TAILMASK \
	LEAQ tailmask<>+64(SB), R10; \
	MOVQ CX, R11; \
	SHLQ $3, R11; \
	SUBQ R11, R10

// TAILLOAD(done, body): 0..7 elements left. None: go to done. Else load
// them under the masks into vectors A (Y0) and B (Y7) and run the body once
// more; R10 != 0 then sends it to the tail code.
#define TAILLOAD(done, body) \
	TESTQ      CX, CX; \
	JE         done; \
	TAILMASK; \
	VMOVUPD    (R10), Y1; \
	VMOVUPD    32(R10), Y8; \
	VMASKMOVPD (SI), Y1, Y0; \
	VMASKMOVPD 32(SI), Y8, Y7; \
	JMP        body

// MAPLOOPS(BODY4, BODY2): the loops of softplusScaledAsm and
// sigmoidScaledAsm, dst[i] = f(scale*x[i]) with f the softplus (BODY4 =
// SOFTPLUSM2, BODY2 = SOFTPLUS2) or mul times the sigmoid (SIGMOIDM2,
// SIGMOID2). On entry DI = dst, SI = x, CX = len(dst), Y14 = scale (Y15 =
// mul) and R10 = 0.
#define MAPLOOPS(BODY4, BODY2) \
loop16: \
	/* Sixteen elements per iteration while at least sixteen are left. */ \
	/* Registers: A: R Y0, N Y1, Q Y2; B: Y3, Y4, Y5; C: Y6, Y7, Y8; */ \
	/* D: Y9, Y10, Y11 in EXPNEG4. Then only the Q (t) are live, and */ \
	/* each pair uses Y0, Y1, Y12, Y13, Y3 (A or C) and Y4, Y6, Y7, Y9, */ \
	/* Y10 (B or D) as M, K, P, R, N. */ \
	CMPQ    CX, $16; \
	JB      loop8; \
	EXPNEG4(0, Y0, Y1, Y2, 32, Y3, Y4, Y5, 64, Y6, Y7, Y8, 96, Y9, Y10, Y11); \
	BODY4(0, Y2, Y0, Y1, Y12, Y13, Y3, 32, Y5, Y4, Y6, Y7, Y9, Y10); \
	VMOVUPD Y2, (DI); \
	VMOVUPD Y5, 32(DI); \
	BODY4(64, Y8, Y0, Y1, Y12, Y13, Y3, 96, Y11, Y4, Y6, Y7, Y9, Y10); \
	VMOVUPD Y8, 64(DI); \
	VMOVUPD Y11, 96(DI); \
	ADDQ    $128, SI; \
	ADDQ    $128, DI; \
	SUBQ    $16, CX; \
	JMP     loop16; \
 \
loop8: \
	CMPQ    CX, $8; \
	JB      tail; \
	VMOVUPD (SI), Y0; \
	VMOVUPD 32(SI), Y7; \
 \
body: \
	EXPNEG2(Y0, Y1, Y2, Y3, Y7, Y8, Y9, Y10); \
	BODY2(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13); \
	TESTQ   R10, R10; \
	JNE     tailstore; \
	VMOVUPD Y0, (DI); \
	VMOVUPD Y7, 32(DI); \
	ADDQ    $64, SI; \
	ADDQ    $64, DI; \
	SUBQ    $8, CX; \
	JMP     loop8; \
 \
tail: \
	/* R10 != 0 after TAILLOAD sends the body to tailstore. */ \
	TAILLOAD(done, body); \
 \
tailstore: \
	/* Store exactly the CX elements. */ \
	VMOVUPD    (R10), Y1; \
	VMOVUPD    32(R10), Y8; \
	VMASKMOVPD Y0, Y1, (DI); \
	VMASKMOVPD Y7, Y8, 32(DI); \
 \
done: \
	VZEROUPPER; \
	RET

// func softplusScaledAsm(dst, x []float64, scale float64)
//
// dst[i] = softplus(scale*x[i]) for i < len(dst); x has at least len(dst)
// elements; dst may be x.
TEXT ·softplusScaledAsm(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	VBROADCASTSD scale+48(FP), Y14
	XORQ         R10, R10
	MAPLOOPS(SOFTPLUSM2, SOFTPLUS2)

// func sigmoidScaledAsm(dst, x []float64, scale, mul float64)
//
// dst[i] = mul*sigmoid(scale*x[i]) for i < len(dst); x has at least
// len(dst) elements; dst may be x.
TEXT ·sigmoidScaledAsm(SB), NOSPLIT, $0-64
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	VBROADCASTSD scale+48(FP), Y14
	VBROADCASTSD mul+56(FP), Y15
	XORQ         R10, R10
	MAPLOOPS(SIGMOIDM2, SIGMOID2)

// func softplusSumAsm(x []float64, scale float64) float64
//
// Returns the sum of softplus(scale*x[i]). Element i is added to lane i%4 of
// Y15 (the partial sum s_(i%4)) in index order: vector A of an iteration,
// then vector B. The lanes are combined as (s0+s2) + (s1+s3). This is the
// order of the neon path, so the sums agree bit for bit too, and the result
// depends only on the values in x, never on their address.
TEXT ·softplusSumAsm(SB), NOSPLIT, $0-40
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	VBROADCASTSD scale+24(FP), Y14
	VXORPD       Y15, Y15, Y15
	XORQ         R10, R10

ss_loop16:
	// Sixteen elements per iteration while at least sixteen are left.
	// Registers: A: R Y0, N Y1, Q Y2; B: Y3, Y4, Y5; C: Y6, Y7, Y8;
	// D: Y9, Y10, Y11 in EXPNEG4. Then only the Q (t) are live, and each
	// pair uses Y0, Y1, Y12, Y13, Y3 (A or C) and Y4, Y6, Y7, Y9, Y10 (B or D)
	// as M, K, P, R, N.
	CMPQ    CX, $16
	JB      ss_loop
	EXPNEG4(0, Y0, Y1, Y2, 32, Y3, Y4, Y5, 64, Y6, Y7, Y8, 96, Y9, Y10, Y11)
	SOFTPLUSM2(0, Y2, Y0, Y1, Y12, Y13, Y3, 32, Y5, Y4, Y6, Y7, Y9, Y10)
	VADDPD  Y2, Y15, Y15
	VADDPD  Y5, Y15, Y15
	SOFTPLUSM2(64, Y8, Y0, Y1, Y12, Y13, Y3, 96, Y11, Y4, Y6, Y7, Y9, Y10)
	VADDPD  Y8, Y15, Y15
	VADDPD  Y11, Y15, Y15
	ADDQ    $128, SI
	SUBQ    $16, CX
	JMP     ss_loop16

ss_loop:
	CMPQ    CX, $8
	JB      ss_tail
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y7

ss_body:
	EXPNEG2(Y0, Y1, Y2, Y3, Y7, Y8, Y9, Y10)
	SOFTPLUS2(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	TESTQ  R10, R10
	JNE    ss_tailmask

ss_accum:
	// s += A, then s += B (the partial sum first: its NaN wins, as on
	// neon).
	VADDPD Y0, Y15, Y15
	VADDPD Y7, Y15, Y15
	TESTQ  R10, R10
	JNE    ss_reduce
	ADDQ   $64, SI
	SUBQ   $8, CX
	JMP    ss_loop

ss_tail:
	// 0..7 elements left: TAILLOAD runs the body once more on them, and
	// R10 != 0 sends it to ss_tailmask, then ss_reduce.
	TAILLOAD(ss_reduce, ss_body)

ss_tailmask:
	// Zero the lanes that hold no element (softplus(0) is not 0); adding
	// +0 leaves a partial sum unchanged (they are never -0).
	VANDPD (R10), Y0, Y0
	VANDPD 32(R10), Y7, Y7
	JMP    ss_accum

ss_reduce:
	// X0 = (s0+s2, s1+s3), then X0[0] = (s0+s2) + (s1+s3).
	VEXTRACTF128 $1, Y15, X1
	VADDPD       X1, X15, X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0
	VZEROUPPER
	VMOVSD       X0, ret+32(FP)
	RET
// Tail masks: eight lanes of all ones, then eight of zeros. The window of
// eight lanes at 8*(8-len) has ones in exactly its first len lanes.
DATA	tailmask<>+0(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+8(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+16(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+24(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+32(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+40(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+48(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+56(SB)/8, $0xffffffffffffffff
DATA	tailmask<>+64(SB)/8, $0
DATA	tailmask<>+72(SB)/8, $0
DATA	tailmask<>+80(SB)/8, $0
DATA	tailmask<>+88(SB)/8, $0
DATA	tailmask<>+96(SB)/8, $0
DATA	tailmask<>+104(SB)/8, $0
DATA	tailmask<>+112(SB)/8, $0
DATA	tailmask<>+120(SB)/8, $0
GLOBL	tailmask<>(SB), RODATA|NOPTR, $128

// Constants, each stored four times (one 32-byte vector), bit for bit those
// of exp_arm64.s plus the x86-only SIGN, EXP1 and ZERO; offsets in
// the table at the top.
DATA	expconst<>+0(SB)/8, $0x3ff0000000000000
DATA	expconst<>+8(SB)/8, $0x3ff0000000000000
DATA	expconst<>+16(SB)/8, $0x3ff0000000000000
DATA	expconst<>+24(SB)/8, $0x3ff0000000000000
DATA	expconst<>+32(SB)/8, $0xc087500000000000
DATA	expconst<>+40(SB)/8, $0xc087500000000000
DATA	expconst<>+48(SB)/8, $0xc087500000000000
DATA	expconst<>+56(SB)/8, $0xc087500000000000
DATA	expconst<>+64(SB)/8, $0x3ff71547652b82fe
DATA	expconst<>+72(SB)/8, $0x3ff71547652b82fe
DATA	expconst<>+80(SB)/8, $0x3ff71547652b82fe
DATA	expconst<>+88(SB)/8, $0x3ff71547652b82fe
DATA	expconst<>+96(SB)/8, $0x3fe62e42fee00000
DATA	expconst<>+104(SB)/8, $0x3fe62e42fee00000
DATA	expconst<>+112(SB)/8, $0x3fe62e42fee00000
DATA	expconst<>+120(SB)/8, $0x3fe62e42fee00000
DATA	expconst<>+128(SB)/8, $0x3dea39ef35793c76
DATA	expconst<>+136(SB)/8, $0x3dea39ef35793c76
DATA	expconst<>+144(SB)/8, $0x3dea39ef35793c76
DATA	expconst<>+152(SB)/8, $0x3dea39ef35793c76
DATA	expconst<>+160(SB)/8, $0x43380000000007fe
DATA	expconst<>+168(SB)/8, $0x43380000000007fe
DATA	expconst<>+176(SB)/8, $0x43380000000007fe
DATA	expconst<>+184(SB)/8, $0x43380000000007fe
DATA	expconst<>+192(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst<>+200(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst<>+208(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst<>+216(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst<>+224(SB)/8, $0x3fe0000000000000
DATA	expconst<>+232(SB)/8, $0x3fe0000000000000
DATA	expconst<>+240(SB)/8, $0x3fe0000000000000
DATA	expconst<>+248(SB)/8, $0x3fe0000000000000
DATA	expconst<>+256(SB)/8, $0x8000000000000000
DATA	expconst<>+264(SB)/8, $0x8000000000000000
DATA	expconst<>+272(SB)/8, $0x8000000000000000
DATA	expconst<>+280(SB)/8, $0x8000000000000000
DATA	expconst<>+288(SB)/8, $0x0010000000000000
DATA	expconst<>+296(SB)/8, $0x0010000000000000
DATA	expconst<>+304(SB)/8, $0x0010000000000000
DATA	expconst<>+312(SB)/8, $0x0010000000000000
DATA	expconst<>+320(SB)/8, $0x0000000000000000
DATA	expconst<>+328(SB)/8, $0x0000000000000000
DATA	expconst<>+336(SB)/8, $0x0000000000000000
DATA	expconst<>+344(SB)/8, $0x0000000000000000
DATA	expconst<>+352(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst<>+360(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst<>+368(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst<>+376(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst<>+384(SB)/8, $0x3e928b311c4abb3b
DATA	expconst<>+392(SB)/8, $0x3e928b311c4abb3b
DATA	expconst<>+400(SB)/8, $0x3e928b311c4abb3b
DATA	expconst<>+408(SB)/8, $0x3e928b311c4abb3b
DATA	expconst<>+416(SB)/8, $0x3ec71df4520100a1
DATA	expconst<>+424(SB)/8, $0x3ec71df4520100a1
DATA	expconst<>+432(SB)/8, $0x3ec71df4520100a1
DATA	expconst<>+440(SB)/8, $0x3ec71df4520100a1
DATA	expconst<>+448(SB)/8, $0x3efa01992d102296
DATA	expconst<>+456(SB)/8, $0x3efa01992d102296
DATA	expconst<>+464(SB)/8, $0x3efa01992d102296
DATA	expconst<>+472(SB)/8, $0x3efa01992d102296
DATA	expconst<>+480(SB)/8, $0x3f2a01a0110576fc
DATA	expconst<>+488(SB)/8, $0x3f2a01a0110576fc
DATA	expconst<>+496(SB)/8, $0x3f2a01a0110576fc
DATA	expconst<>+504(SB)/8, $0x3f2a01a0110576fc
DATA	expconst<>+512(SB)/8, $0x3f56c16c18781105
DATA	expconst<>+520(SB)/8, $0x3f56c16c18781105
DATA	expconst<>+528(SB)/8, $0x3f56c16c18781105
DATA	expconst<>+536(SB)/8, $0x3f56c16c18781105
DATA	expconst<>+544(SB)/8, $0x3f81111111130dd5
DATA	expconst<>+552(SB)/8, $0x3f81111111130dd5
DATA	expconst<>+560(SB)/8, $0x3f81111111130dd5
DATA	expconst<>+568(SB)/8, $0x3f81111111130dd5
DATA	expconst<>+576(SB)/8, $0x3fa555555554f370
DATA	expconst<>+584(SB)/8, $0x3fa555555554f370
DATA	expconst<>+592(SB)/8, $0x3fa555555554f370
DATA	expconst<>+600(SB)/8, $0x3fa555555554f370
DATA	expconst<>+608(SB)/8, $0x3fc55555555554a2
DATA	expconst<>+616(SB)/8, $0x3fc55555555554a2
DATA	expconst<>+624(SB)/8, $0x3fc55555555554a2
DATA	expconst<>+632(SB)/8, $0x3fc55555555554a2
DATA	expconst<>+640(SB)/8, $0x3fe0000000000010
DATA	expconst<>+648(SB)/8, $0x3fe0000000000010
DATA	expconst<>+656(SB)/8, $0x3fe0000000000010
DATA	expconst<>+664(SB)/8, $0x3fe0000000000010
DATA	expconst<>+672(SB)/8, $0x3ff0000000000000
DATA	expconst<>+680(SB)/8, $0x3ff0000000000000
DATA	expconst<>+688(SB)/8, $0x3ff0000000000000
DATA	expconst<>+696(SB)/8, $0x3ff0000000000000
DATA	expconst<>+704(SB)/8, $0x3ff0000000000000
DATA	expconst<>+712(SB)/8, $0x3ff0000000000000
DATA	expconst<>+720(SB)/8, $0x3ff0000000000000
DATA	expconst<>+728(SB)/8, $0x3ff0000000000000
DATA	expconst<>+736(SB)/8, $0x3fc2f112df3e5244
DATA	expconst<>+744(SB)/8, $0x3fc2f112df3e5244
DATA	expconst<>+752(SB)/8, $0x3fc2f112df3e5244
DATA	expconst<>+760(SB)/8, $0x3fc2f112df3e5244
DATA	expconst<>+768(SB)/8, $0x3fc39a09d078c69f
DATA	expconst<>+776(SB)/8, $0x3fc39a09d078c69f
DATA	expconst<>+784(SB)/8, $0x3fc39a09d078c69f
DATA	expconst<>+792(SB)/8, $0x3fc39a09d078c69f
DATA	expconst<>+800(SB)/8, $0x3fc7466496cb03de
DATA	expconst<>+808(SB)/8, $0x3fc7466496cb03de
DATA	expconst<>+816(SB)/8, $0x3fc7466496cb03de
DATA	expconst<>+824(SB)/8, $0x3fc7466496cb03de
DATA	expconst<>+832(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst<>+840(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst<>+848(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst<>+856(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst<>+864(SB)/8, $0x3fd2492494229359
DATA	expconst<>+872(SB)/8, $0x3fd2492494229359
DATA	expconst<>+880(SB)/8, $0x3fd2492494229359
DATA	expconst<>+888(SB)/8, $0x3fd2492494229359
DATA	expconst<>+896(SB)/8, $0x3fd999999997fa04
DATA	expconst<>+904(SB)/8, $0x3fd999999997fa04
DATA	expconst<>+912(SB)/8, $0x3fd999999997fa04
DATA	expconst<>+920(SB)/8, $0x3fd999999997fa04
DATA	expconst<>+928(SB)/8, $0x3fe5555555555593
DATA	expconst<>+936(SB)/8, $0x3fe5555555555593
DATA	expconst<>+944(SB)/8, $0x3fe5555555555593
DATA	expconst<>+952(SB)/8, $0x3fe5555555555593
GLOBL	expconst<>(SB), RODATA|NOPTR, $960
