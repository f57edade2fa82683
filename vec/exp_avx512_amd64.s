//go:build !purego

#include "textflag.h"

// AVX-512 kernels behind Softplus, Sigmoid, SigmoidScaled and SoftplusSum on
// the avx512 path (declarations and guarantees in exp_avx512_amd64.go).
//
// Method: exactly that of exp_amd64.s (and so of exp_arm64.s, whose header
// derives it), on eight lanes instead of four: the same IEEE operations,
// with the same constants, the same fused multiply-adds in the same form and
// the same operand order (which decides which NaN an operation returns), so
// the avx512, avx2 and neon paths return the same bits for every input, NaN
// payloads included (TestAsmMatchesModel, TestModelMatchesGolden).
//
// Where this file differs from exp_amd64.s, and why the results do not:
//   - 2^n1 and 2^n2 from the integer bits of n + MAGIC and the two products
//     (Q*2^n1)*2^n2 are one VSCALEFPD n, Q: Q*2^floor(n), where n =
//     rint(v/ln2), an integer in [-1076, 0], is the float N - MAGIC that
//     exp_amd64.s computes for the reduction too. The avx2 product is exact
//     in its first step and rounds once in the second, so it is the
//     correctly rounded Q*2^n; VSCALEFPD rounds the exact Q*2^n once too (to
//     a subnormal or zero where it must: Go runs with MXCSR.FTZ and DAZ
//     clear). For a NaN u both return the NaN of Q (the avx2 VMULPD and
//     VSCALEFPD both return their first source's NaN).
//   - VCMPPD writes an opmask instead of a lane mask, and what avx2 does
//     with the lane mask is done under the opmask. The sigmoid's numerator
//     (avx2 VBLENDVPD ONE, t) is ONE merge-masked into t. m - (mask AND
//     EXP1) is a VPSUBQ of EXP1 merge-masked into m (m itself where k = 0).
//     k itself (avx2 VANDPD ONE, 1.0 or +0) is not formed: lo/m + k*ln2lo
//     (an FMA) is an addition of ln2lo in the lanes where k = 1, where the
//     FMA is that addition (k*ln2lo = ln2lo exactly), and elsewhere keeps
//     lo/m, which the FMA returns unchanged: lo/m + (+0) = lo/m because lo/m
//     is never -0 and a NaN lo/m is quiet already (a division's result).
//     (lo = t - (m-1) is -0 only for t = -0, and t, a VSCALEFPD of a
//     positive polynomial, is never -0; lo < 0 only where 1+t rounded up,
//     t > 2^-54, so |lo| >= ulp(t) and lo/m, m in [1, 2], cannot underflow.) Likewise c - k*ln2hi is a
//     subtraction of ln2hi where k = 1, and elsewhere c: -(+0) + c = c for
//     every c, both zeros included, and c is quiet if NaN.
//   - u = scale*x is not kept through the softplus: it is computed again
//     at the end, from x loaded again (before anything is stored, so dst
//     may be x), the same product.
//   - Constants are registers or 64-byte memory operands (the same bits in
//     the same operand position, so the same Intel source); p1 = p0 = 1.0,
//     so those two FMAs read ONE. max(+0, u) reads a register kept zero.
//
// Registers:
//	DI dst, SI x, CX elements left, R11 scratch.
//	Z31 ONE (1.0), Z30 +0, Z29 scale; Z28 mul (sigmoid) or, as Y28, the
//	four partial sums (sum). In the tail pass (vector A only): Z11 the
//	elements of x (TAILLOAD), Z10 scratch; in the sum, K5 the tail's mask.
//	Sigmoid: a vector of eight elements has the roles X (x, u, then the
//	result), R, Q and the opmask KM; vectors A..D are Z0..Z2 and K1,
//	Z3..Z5 and K2, Z6..Z8 and K3, Z9..Z11 and K4 (X first); Z12..Z27 hold
//	all the other constants.
//	Softplus and the sum: roles X, R, N, Q, M and KM; vectors A..D are
//	Z0..Z4 and K1, Z5..Z9 and K2, Z10..Z14 and K3, Z15..Z19 and K4;
//	Z20..Z27 hold eight constants, the rest are memory operands.
//
// Loops: 32 elements per iteration (four vectors A..D, every instruction
// done for A, B, C, then D, so that four independent chains run through the
// Horner recurrences and the divisions, which bound the speed: two vectors
// an iteration leave the units idle) while 32 are left; then one pass of two
// vectors on 16 elements and one of one vector on 8, if that many are
// left; then the tail of 1..7 in one pass of vector A, loaded and stored
// four, two and one elements at a time (TAILLOAD, TAILSTORE; MAPLOOPS says
// why not under a mask). Nothing is read or written outside the slices.
// Every function ends with VZEROUPPER.
//
// Operand order is Go's, the reverse of Intel's: VSUBPD b, a, d is d = a - b
// (a is Intel's first source and the NaN returned when both are NaN);
// VFMADD231PD c, b, a is a = b*c + a; VFMADD213PD c, b, a is a = b*a + c;
// VFNMADD231PD c, b, a is a = a - b*c; VSCALEFPD e, a, d is d = a*2^e;
// VMAXPD b, a, d is d = max(a, b) (b if either is NaN). With an opmask,
// op ..., K, d writes only the lanes of d whose bit of K is set (.Z zeroes
// the others, else they are kept).

// Constants (offsets in expconst512<>, 64 bytes each: the value of the
// expconst<> table of exp_amd64.s eight times). M_name is the memory
// operand; the macros without M_ name the operand the code uses, a register
// or M_name, as each kernel's section below defines them.
//      0  ONE     1.0 (also p1 and p0)
//     64  CLAMP   -746
//    128  INVLN2  1/ln 2
//    192  LN2HI   ln 2 rounded to 32 bits
//    256  LN2LO   ln 2 - ln2hi
//    320  MAGIC   0x1.8p52 + 2046
//    384  SQRT2   sqrt 2
//    448  HALF    0.5
//    512  SIGN    sign bit
//    576  EXP1    exponent field 1: m - EXP1 (as integers) = m/2
//    640  P11 ... 1216 P2: minimax e^r (exp_model_test.go)
//   1280  LG7 ... 1664 LG1: fdlibm e_log.c

#define M_ONE     expconst512<>+0(SB)
#define M_CLAMP   expconst512<>+64(SB)
#define M_INVLN2  expconst512<>+128(SB)
#define M_LN2HI   expconst512<>+192(SB)
#define M_LN2LO   expconst512<>+256(SB)
#define M_MAGIC   expconst512<>+320(SB)
#define M_SQRT2   expconst512<>+384(SB)
#define M_HALF    expconst512<>+448(SB)
#define M_SIGN    expconst512<>+512(SB)
#define M_EXP1    expconst512<>+576(SB)
#define M_P11     expconst512<>+640(SB)
#define M_P10     expconst512<>+704(SB)
#define M_P9      expconst512<>+768(SB)
#define M_P8      expconst512<>+832(SB)
#define M_P7      expconst512<>+896(SB)
#define M_P6      expconst512<>+960(SB)
#define M_P5      expconst512<>+1024(SB)
#define M_P4      expconst512<>+1088(SB)
#define M_P3      expconst512<>+1152(SB)
#define M_P2      expconst512<>+1216(SB)
#define M_LG7     expconst512<>+1280(SB)
#define M_LG6     expconst512<>+1344(SB)
#define M_LG5     expconst512<>+1408(SB)
#define M_LG4     expconst512<>+1472(SB)
#define M_LG3     expconst512<>+1536(SB)
#define M_LG2     expconst512<>+1600(SB)
#define M_LG1     expconst512<>+1664(SB)

// The body is written once, in the macros below, and run on one, two or
// four vectors, one instruction at a time: each instruction is done for
// every vector before the next one. As in exp_amd64.s, a register operand
// of those macros is a role and stands for the parenthesized list of that
// role's register in each vector, such as (Z0, Z3) for X of two vectors,
// and the operand macros, passed in as arguments, write the instruction
// once per vector. Their names say which operands are lists (V) and which
// are the same for every vector (C: a constant, an immediate):
//	CV(op, c, a)            op c, a
//	CVV(op, c, a, b)        op c, a, b      (a may be a list of opmasks)
//	VVV(op, a, b, d)        op a, b, d
//	VCV(op, a, c, b)        op a, c, b
//	CCVV(op, c, e, a, k)    op c, e, a, k   (VCMPPD into the opmasks k)
//	CVVV(op, c, a, k, d)    op c, a, k, d   (under the opmasks k)
// suffixed 1, 2 or 4 for the number of vectors. The bodies take them as
// arguments (written CV, CVV, VVV, VCV, CCVV, CVVV inside), and LD, which
// loads x into a role: LD4, LD2 and LD1 32, 16 and 8 elements, LDT the
// CX = 1..7 elements left, from Z11 (TAILLOAD).
// A macro's arguments must be on one line.
#define S1(a)                a
#define VA(a, b)             a
#define VB(a, b)             b
#define VA4(a, b, c, d)      a
#define VB4(a, b, c, d)      b
#define VC4(a, b, c, d)      c
#define VD4(a, b, c, d)      d

#define CV1(op, c, a)           op c, S1 a
#define CVV1(op, c, a, b)       op c, S1 a, S1 b
#define VVV1(op, a, b, d)       op S1 a, S1 b, S1 d
#define VCV1(op, a, c, b)       op S1 a, c, S1 b
#define CCVV1(op, c, e, a, k)   op c, e, S1 a, S1 k
#define CVVV1(op, c, a, k, d)   op c, S1 a, S1 k, S1 d
#define LD1(a)                  VMOVUPD (SI), S1 a
#define LDT(a)                  VMOVAPD Z11, S1 a

#define CV2(op, c, a)           op c, VA a; op c, VB a
#define CVV2(op, c, a, b)       op c, VA a, VA b; op c, VB a, VB b
#define VVV2(op, a, b, d)       op VA a, VA b, VA d; op VB a, VB b, VB d
#define VCV2(op, a, c, b)       op VA a, c, VA b; op VB a, c, VB b
#define CCVV2(op, c, e, a, k)   op c, e, VA a, VA k; op c, e, VB a, VB k
#define CVVV2(op, c, a, k, d)   op c, VA a, VA k, VA d; op c, VB a, VB k, VB d
#define LD2(a)                  VMOVUPD (SI), VA a; VMOVUPD 64(SI), VB a

#define CV4(op, c, a) \
	op c, VA4 a; op c, VB4 a; op c, VC4 a; op c, VD4 a
#define CVV4(op, c, a, b) \
	op c, VA4 a, VA4 b; op c, VB4 a, VB4 b; \
	op c, VC4 a, VC4 b; op c, VD4 a, VD4 b
#define VVV4(op, a, b, d) \
	op VA4 a, VA4 b, VA4 d; op VB4 a, VB4 b, VB4 d; \
	op VC4 a, VC4 b, VC4 d; op VD4 a, VD4 b, VD4 d
#define VCV4(op, a, c, b) \
	op VA4 a, c, VA4 b; op VB4 a, c, VB4 b; \
	op VC4 a, c, VC4 b; op VD4 a, c, VD4 b
#define CCVV4(op, c, e, a, k) \
	op c, e, VA4 a, VA4 k; op c, e, VB4 a, VB4 k; \
	op c, e, VC4 a, VC4 k; op c, e, VD4 a, VD4 k
#define CVVV4(op, c, a, k, d) \
	op c, VA4 a, VA4 k, VA4 d; op c, VB4 a, VB4 k, VB4 d; \
	op c, VC4 a, VC4 k, VC4 d; op c, VD4 a, VD4 k, VD4 d
#define LD4(a) \
	VMOVUPD (SI), VA4 a; VMOVUPD 64(SI), VB4 a; \
	VMOVUPD 128(SI), VC4 a; VMOVUPD 192(SI), VD4 a

// EXPNEG: R = -|u| on entry; on exit Q = t = e^v, v = max(-|u|, -746); R
// and N are clobbered.
//	R = v = max(-746, -|u|) (a NaN u stays NaN)
//	N = v/ln2 + MAGIC, one rounding; Q = n = N - MAGIC, exact
//	R = r = (v - n*ln2hi) - n*ln2lo, the first step exact
//	N = e^r = p0 + r*(p1 + r*(... + r*p11)), Horner, one FMA a step
//	Q = N*2^n, rounded once (VSCALEFPD; see the header)
#define EXPNEG(CV, CVV, VVV, VCV, R, N, Q) \
	VCV(VMAXPD,       R, CLAMP, R); \
	CV(VMOVUPD,       MAGIC, N); \
	CVV(VFMADD231PD,  INVLN2, R, N); \
	CVV(VSUBPD,       MAGIC, N, Q); \
	CVV(VFNMADD231PD, LN2HI, Q, R); \
	CVV(VFNMADD231PD, LN2LO, Q, R); \
	CV(VMOVUPD,       P11, N); \
	CVV(VFMADD213PD,  P10, R, N); \
	CVV(VFMADD213PD,  P9, R, N); \
	CVV(VFMADD213PD,  P8, R, N); \
	CVV(VFMADD213PD,  P7, R, N); \
	CVV(VFMADD213PD,  P6, R, N); \
	CVV(VFMADD213PD,  P5, R, N); \
	CVV(VFMADD213PD,  P4, R, N); \
	CVV(VFMADD213PD,  P3, R, N); \
	CVV(VFMADD213PD,  P2, R, N); \
	CVV(VFMADD213PD,  ONE, R, N); \
	CVV(VFMADD213PD,  ONE, R, N); \
	VVV(VSCALEFPD,    Q, N, Q)

// SOFTPLUS: on exit X = softplus(u), u = scale*x, x loaded by LD; R, N, Q,
// M and the opmasks KM are clobbered. X is also the role P of
// exp_amd64.s's LOG1P, and R its K (m-1) and then its M (2+f, then s),
// while M is its R (1+f, then f).
//	X = u = x*scale; R = -|u|; EXPNEG: Q = t
//	M = m = 1+t rounded; R = m-1; Q = lo = t - (m-1), exact (1+t = m + lo)
//	KM = k, k = [m >= sqrt2]; Q = lo/m; M = 1+f = m/2^k (exact: the
//	exponent lowered by k in the lanes of KM)
//	R = 2+f (rounded once); M = f (exact); R = s = f/(2+f); Q += k*ln2lo
//	N = z = s*s; X = R(z) = z*(Lg1 + z*(Lg2 + ... + z*Lg7)), Horner
//	N = hfsq = (f*0.5)*f; X = hfsq + R(z); Q = s*X + Q
//	N = ((hfsq - Q) - f) - k*ln2hi = -L, L = log1p(t)
//	R = u (x loaded again); R = max(+0, u) (a NaN u stays); X = R - N
#define SOFTPLUS(CV, CVV, VVV, VCV, CCVV, CVVV, LD, X, R, N, Q, M, KM) \
	LD(X); \
	CVV(VMULPD,       SCALE, X, X); \
	CVV(VORPD,        SIGN, X, R); \
	EXPNEG(CV, CVV, VVV, VCV, R, N, Q); \
	CVV(VADDPD,       ONE, Q, M); \
	CVV(VSUBPD,       ONE, M, R); \
	VVV(VSUBPD,       R, Q, Q); \
	CCVV(VCMPPD,      $0x1d, SQRT2, M, KM); \
	VVV(VDIVPD,       M, Q, Q); \
	CVVV(VPSUBQ,      EXP1, M, KM, M); \
	CVV(VADDPD,       ONE, M, R); \
	CVV(VSUBPD,       ONE, M, M); \
	VVV(VDIVPD,       R, M, R); \
	CVVV(VADDPD,      LN2LO, Q, KM, Q); \
	VVV(VMULPD,       R, R, N); \
	CV(VMOVUPD,       LG7, X); \
	CVV(VFMADD213PD,  LG6, N, X); \
	CVV(VFMADD213PD,  LG5, N, X); \
	CVV(VFMADD213PD,  LG4, N, X); \
	CVV(VFMADD213PD,  LG3, N, X); \
	CVV(VFMADD213PD,  LG2, N, X); \
	CVV(VFMADD213PD,  LG1, N, X); \
	VVV(VMULPD,       N, X, X); \
	CVV(VMULPD,       HALF, M, N); \
	VVV(VMULPD,       M, N, N); \
	VVV(VADDPD,       X, N, X); \
	VVV(VFMADD231PD,  R, X, Q); \
	VVV(VSUBPD,       Q, N, N); \
	VVV(VSUBPD,       M, N, N); \
	CVVV(VSUBPD,      LN2HI, N, KM, N); \
	LD(R); \
	CVV(VMULPD,       SCALE, R, R); \
	VCV(VMAXPD,       R, ZERO, R); \
	VVV(VSUBPD,       N, R, X)

// SIGMOID: on exit X = mul*sigmoid(u), u = scale*x, x loaded by LD; R, Q
// and the opmasks KM are clobbered. sigmoid(u) = n/(1+t) with n = 1 if
// u >= 0 (also -0) else t:
//	X = u = x*scale; R = -|u|; KM = u >= 0 (false for NaN)
//	EXPNEG (X as its N): Q = t; R = d = 1+t rounded
//	Q = KM ? 1 : t; Q = Q/d (one division); X = Q*mul
#define SIGMOID(CV, CVV, VVV, VCV, CCVV, CVVV, LD, X, R, Q, KM) \
	LD(X); \
	CVV(VMULPD,       SCALE, X, X); \
	CVV(VORPD,        SIGN, X, R); \
	CCVV(VCMPPD,      $0x1d, ZERO, X, KM); \
	EXPNEG(CV, CVV, VVV, VCV, R, X, Q); \
	CVV(VADDPD,       ONE, Q, R); \
	CVV(VMOVUPD,      ONE, KM, Q); \
	VVV(VDIVPD,       R, Q, Q); \
	CVV(VMULPD,       MUL, Q, X)

// TAILLOAD: Z11 = the CX = 1..7 elements left (x from SI), the other lanes
// +0, by plain loads of exactly those elements: the last one if CX is odd,
// then two and then four before it as CX has them, each step moving what
// Z11 holds up two or four lanes (VALIGNQ with the zeros of Z30) and
// putting the new elements into the lanes it freed. Clobbers Z10 and R11.
#define TAILLOAD \
	VPXORQ        Z11, Z11, Z11; \
	TESTQ         $1, CX; \
	JE            load2; \
	VMOVSD        -8(SI)(CX*8), X11; \
load2: \
	TESTQ         $2, CX; \
	JE            load4; \
	MOVQ          CX, R11; \
	ANDQ          $4, R11; \
	VMOVUPD       (SI)(R11*8), X10; \
	VALIGNQ       $6, Z30, Z11, Z11; \
	VINSERTF64X2  $0, X10, Z11, Z11; \
load4: \
	TESTQ         $4, CX; \
	JE            loaded; \
	VMOVUPD       (SI), Y10; \
	VALIGNQ       $4, Z30, Z11, Z11; \
	VINSERTF64X4  $0, Y10, Z11, Z11; \
loaded:

// TAILSTORE(Z, Y, X): dst[i] = Z[i], i < CX = 1..7 (Y and X are the low
// halves of Z): four, two and one elements as CX has them, each by a plain
// store of exactly those elements, then the rest moved down. Clobbers Z and
// DI.
#define TAILSTORE(Z, Y, X) \
	TESTQ         $4, CX; \
	JE            tail2; \
	VMOVUPD       Y, (DI); \
	VEXTRACTF64X4 $1, Z, Y; \
	ADDQ          $32, DI; \
tail2: \
	TESTQ         $2, CX; \
	JE            tail1; \
	VMOVUPD       X, (DI); \
	VEXTRACTF64X2 $1, Y, X; \
	ADDQ          $16, DI; \
tail1: \
	TESTQ         $1, CX; \
	JE            done; \
	VMOVSD        X, (DI)

// MAPLOOPS(B4, B2, B1, BG, XA, XB, XC, XD): the loops of
// softplusScaledAVX512 and sigmoidScaledAVX512, dst[i] = f(scale*x[i]). B4,
// B2 and B1 are the body on 32, 16 and 8 elements (four, two and one
// vectors), BG on the 1..7 elements of the tail (one vector, loaded by LDT);
// XA..XD the registers of the role X of vectors A..D, which hold the
// results. On entry DI = dst, SI = x, CX = len(dst) and the constant
// registers are set.
//
// The tail is loaded and stored in pieces of exactly its elements, not
// under a mask: a masked load or store does not access its masked-off
// lanes, but the CPU still orders it against other accesses to the bytes
// under them. A masked store to dst and then a masked load of an x next to
// dst in memory (the next call, on neighbouring slices, as two allocations
// of one size often are) makes the load wait for the store to retire,
// which serializes whole calls: short slices took several times longer
// (as avx2's VMASKMOVPD tails do). A gather avoids it too, but costs more
// than the pieces. dst may be x: every load of a pass comes before its
// stores.
#define MAPLOOPS(B4, B2, B1, BG, XA, XB, XC, XD) \
loop32: \
	CMPQ    CX, $32; \
	JB      rest16; \
	B4; \
	VMOVUPD XA, (DI); \
	VMOVUPD XB, 64(DI); \
	VMOVUPD XC, 128(DI); \
	VMOVUPD XD, 192(DI); \
	ADDQ    $256, SI; \
	ADDQ    $256, DI; \
	SUBQ    $32, CX; \
	JMP     loop32; \
 \
rest16: \
	/* 0..31 left: 16 of them if there are, then 8, then the tail. */ \
	CMPQ    CX, $16; \
	JB      rest8; \
	B2; \
	VMOVUPD XA, (DI); \
	VMOVUPD XB, 64(DI); \
	ADDQ    $128, SI; \
	ADDQ    $128, DI; \
	SUBQ    $16, CX; \
 \
rest8: \
	CMPQ    CX, $8; \
	JB      tail; \
	B1; \
	VMOVUPD XA, (DI); \
	ADDQ    $64, SI; \
	ADDQ    $64, DI; \
	SUBQ    $8, CX; \
 \
tail: \
	TESTQ   CX, CX; \
	JE      done; \
	TAILLOAD; \
	BG; \
	TAILSTORE(Z0, Y0, X0); \
 \
done: \
	VZEROUPPER; \
	RET

// Sigmoid: all constants in registers.
#define ONE    Z31
#define ZERO   Z30
#define SCALE  Z29
#define MUL    Z28
#define SIGN   Z27
#define CLAMP  Z26
#define MAGIC  Z25
#define INVLN2 Z24
#define LN2HI  Z23
#define LN2LO  Z22
#define P11    Z21
#define P10    Z20
#define P9     Z19
#define P8     Z18
#define P7     Z17
#define P6     Z16
#define P5     Z15
#define P4     Z14
#define P3     Z13
#define P2     Z12

#define SG4 SIGMOID(CV4, CVV4, VVV4, VCV4, CCVV4, CVVV4, LD4, (Z0, Z3, Z6, Z9), (Z1, Z4, Z7, Z10), (Z2, Z5, Z8, Z11), (K1, K2, K3, K4))
#define SG2 SIGMOID(CV2, CVV2, VVV2, VCV2, CCVV2, CVVV2, LD2, (Z0, Z3), (Z1, Z4), (Z2, Z5), (K1, K2))
#define SG1 SIGMOID(CV1, CVV1, VVV1, VCV1, CCVV1, CVVV1, LD1, (Z0), (Z1), (Z2), (K1))
#define SGT SIGMOID(CV1, CVV1, VVV1, VCV1, CCVV1, CVVV1, LDT, (Z0), (Z1), (Z2), (K1))

// func sigmoidScaledAVX512(dst, x []float64, scale, mul float64)
//
// dst[i] = mul*sigmoid(scale*x[i]) for i < len(dst); x has at least
// len(dst) elements; dst may be x.
TEXT ·sigmoidScaledAVX512(SB), NOSPLIT, $0-64
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	VMOVUPD      M_ONE, ONE
	VPXORQ       ZERO, ZERO, ZERO
	VBROADCASTSD scale+48(FP), SCALE
	VBROADCASTSD mul+56(FP), MUL
	VMOVUPD      M_SIGN, SIGN
	VMOVUPD      M_CLAMP, CLAMP
	VMOVUPD      M_MAGIC, MAGIC
	VMOVUPD      M_INVLN2, INVLN2
	VMOVUPD      M_LN2HI, LN2HI
	VMOVUPD      M_LN2LO, LN2LO
	VMOVUPD      M_P11, P11
	VMOVUPD      M_P10, P10
	VMOVUPD      M_P9, P9
	VMOVUPD      M_P8, P8
	VMOVUPD      M_P7, P7
	VMOVUPD      M_P6, P6
	VMOVUPD      M_P5, P5
	VMOVUPD      M_P4, P4
	VMOVUPD      M_P3, P3
	VMOVUPD      M_P2, P2
	MAPLOOPS(SG4, SG2, SG1, SGT, Z0, Z3, Z6, Z9)

// Softplus and the sum: eight constants in registers, the rest in memory.
#undef SIGN
#undef CLAMP
#undef MAGIC
#undef INVLN2
#undef LN2HI
#undef LN2LO
#undef P11
#undef P10
#undef P9
#undef P8
#undef P7
#undef P6
#undef P5
#undef P4
#undef P3
#undef P2
#define CLAMP  Z27
#define MAGIC  Z26
#define INVLN2 Z25
#define LN2HI  Z24
#define LN2LO  Z23
#define SQRT2  Z22
#define EXP1   Z21
#define HALF   Z20
#define SIGN   M_SIGN
#define P11    M_P11
#define P10    M_P10
#define P9     M_P9
#define P8     M_P8
#define P7     M_P7
#define P6     M_P6
#define P5     M_P5
#define P4     M_P4
#define P3     M_P3
#define P2     M_P2
#define LG7    M_LG7
#define LG6    M_LG6
#define LG5    M_LG5
#define LG4    M_LG4
#define LG3    M_LG3
#define LG2    M_LG2
#define LG1    M_LG1

#define SP4 SOFTPLUS(CV4, CVV4, VVV4, VCV4, CCVV4, CVVV4, LD4, (Z0, Z5, Z10, Z15), (Z1, Z6, Z11, Z16), (Z2, Z7, Z12, Z17), (Z3, Z8, Z13, Z18), (Z4, Z9, Z14, Z19), (K1, K2, K3, K4))
#define SP2 SOFTPLUS(CV2, CVV2, VVV2, VCV2, CCVV2, CVVV2, LD2, (Z0, Z5), (Z1, Z6), (Z2, Z7), (Z3, Z8), (Z4, Z9), (K1, K2))
#define SP1 SOFTPLUS(CV1, CVV1, VVV1, VCV1, CCVV1, CVVV1, LD1, (Z0), (Z1), (Z2), (Z3), (Z4), (K1))
#define SPT SOFTPLUS(CV1, CVV1, VVV1, VCV1, CCVV1, CVVV1, LDT, (Z0), (Z1), (Z2), (Z3), (Z4), (K1))

// SPSETUP: the constant registers of the softplus and the sum, but scale.
#define SPSETUP \
	VMOVUPD M_ONE, ONE; \
	VPXORQ  ZERO, ZERO, ZERO; \
	VMOVUPD M_CLAMP, CLAMP; \
	VMOVUPD M_MAGIC, MAGIC; \
	VMOVUPD M_INVLN2, INVLN2; \
	VMOVUPD M_LN2HI, LN2HI; \
	VMOVUPD M_LN2LO, LN2LO; \
	VMOVUPD M_SQRT2, SQRT2; \
	VMOVUPD M_EXP1, EXP1; \
	VMOVUPD M_HALF, HALF

// func softplusScaledAVX512(dst, x []float64, scale float64)
//
// dst[i] = softplus(scale*x[i]) for i < len(dst); x has at least len(dst)
// elements; dst may be x.
TEXT ·softplusScaledAVX512(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	VBROADCASTSD scale+48(FP), SCALE
	SPSETUP
	MAPLOOPS(SP4, SP2, SP1, SPT, Z0, Z5, Z10, Z15)

// ACCUM(Y, X, T): add the eight results in X to the partial sums Y28 in
// index order, its low four lanes (Y) then its high four (into T): element
// i goes to lane i%4, after every element before it. The partial sum is
// the first source, as on the other paths (its NaN wins).
#define ACCUM(Y, X, T) \
	VADDPD        Y, Y28, Y28; \
	VEXTRACTF64X4 $1, X, T; \
	VADDPD        T, Y28, Y28

// func softplusSumAVX512(x []float64, scale float64) float64
//
// Returns the sum of softplus(scale*x[i]). Element i is added to lane i%4 of
// Y28 (the partial sum s_(i%4)) in index order, and the lanes are combined
// as (s0+s2) + (s1+s3): the order of softplusSumAsm and the neon path, so
// the sums agree bit for bit with theirs, and the result depends only on
// the values in x. In the tail pass the lanes past the end are zeroed before
// they are added (softplus(0) is not 0); adding +0 leaves a partial
// sum unchanged (they are never -0).
TEXT ·softplusSumAVX512(SB), NOSPLIT, $0-40
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	VBROADCASTSD scale+24(FP), SCALE
	SPSETUP
	VXORPD       Y28, Y28, Y28

ss_loop32:
	CMPQ CX, $32
	JB   ss_rest16
	SP4
	ACCUM(Y0, Z0, Y1)
	ACCUM(Y5, Z5, Y6)
	ACCUM(Y10, Z10, Y11)
	ACCUM(Y15, Z15, Y16)
	ADDQ $256, SI
	SUBQ $32, CX
	JMP  ss_loop32

ss_rest16:
	// 0..31 left: 16 of them if there are, then 8, then the tail.
	CMPQ      CX, $16
	JB        ss_rest8
	SP2
	ACCUM(Y0, Z0, Y1)
	ACCUM(Y5, Z5, Y6)
	ADDQ      $128, SI
	SUBQ      $16, CX

ss_rest8:
	CMPQ      CX, $8
	JB        ss_tail
	SP1
	ACCUM(Y0, Z0, Y1)
	ADDQ      $64, SI
	SUBQ      $8, CX

ss_tail:
	// 1..7 left (TAILLOAD); the lanes past the end, under the mask K5,
	// are zeroed before they are added.
	TESTQ     CX, CX
	JE        ss_reduce
	TAILLOAD
	SPT
	MOVL      $1, R11
	SHLL      CX, R11
	DECL      R11
	KMOVW     R11, K5
	VMOVAPD.Z Z0, K5, Z0
	ACCUM(Y0, Z0, Y1)

ss_reduce:
	// X0 = (s0+s2, s1+s3), then X0[0] = (s0+s2) + (s1+s3).
	VEXTRACTF64X2 $1, Y28, X1
	VADDPD        X1, X28, X0
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0
	VZEROUPPER
	VMOVSD        X0, ret+32(FP)
	RET

// Constants, bit for bit those of expconst<> in exp_amd64.s, each eight
// times (one 64-byte vector); offsets in the table at the top.
DATA	expconst512<>+0(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+8(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+16(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+24(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+32(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+40(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+48(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+56(SB)/8, $0x3ff0000000000000
DATA	expconst512<>+64(SB)/8, $0xc087500000000000
DATA	expconst512<>+72(SB)/8, $0xc087500000000000
DATA	expconst512<>+80(SB)/8, $0xc087500000000000
DATA	expconst512<>+88(SB)/8, $0xc087500000000000
DATA	expconst512<>+96(SB)/8, $0xc087500000000000
DATA	expconst512<>+104(SB)/8, $0xc087500000000000
DATA	expconst512<>+112(SB)/8, $0xc087500000000000
DATA	expconst512<>+120(SB)/8, $0xc087500000000000
DATA	expconst512<>+128(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+136(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+144(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+152(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+160(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+168(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+176(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+184(SB)/8, $0x3ff71547652b82fe
DATA	expconst512<>+192(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+200(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+208(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+216(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+224(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+232(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+240(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+248(SB)/8, $0x3fe62e42fee00000
DATA	expconst512<>+256(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+264(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+272(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+280(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+288(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+296(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+304(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+312(SB)/8, $0x3dea39ef35793c76
DATA	expconst512<>+320(SB)/8, $0x43380000000007fe
DATA	expconst512<>+328(SB)/8, $0x43380000000007fe
DATA	expconst512<>+336(SB)/8, $0x43380000000007fe
DATA	expconst512<>+344(SB)/8, $0x43380000000007fe
DATA	expconst512<>+352(SB)/8, $0x43380000000007fe
DATA	expconst512<>+360(SB)/8, $0x43380000000007fe
DATA	expconst512<>+368(SB)/8, $0x43380000000007fe
DATA	expconst512<>+376(SB)/8, $0x43380000000007fe
DATA	expconst512<>+384(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+392(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+400(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+408(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+416(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+424(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+432(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+440(SB)/8, $0x3ff6a09e667f3bcd
DATA	expconst512<>+448(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+456(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+464(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+472(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+480(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+488(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+496(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+504(SB)/8, $0x3fe0000000000000
DATA	expconst512<>+512(SB)/8, $0x8000000000000000
DATA	expconst512<>+520(SB)/8, $0x8000000000000000
DATA	expconst512<>+528(SB)/8, $0x8000000000000000
DATA	expconst512<>+536(SB)/8, $0x8000000000000000
DATA	expconst512<>+544(SB)/8, $0x8000000000000000
DATA	expconst512<>+552(SB)/8, $0x8000000000000000
DATA	expconst512<>+560(SB)/8, $0x8000000000000000
DATA	expconst512<>+568(SB)/8, $0x8000000000000000
DATA	expconst512<>+576(SB)/8, $0x0010000000000000
DATA	expconst512<>+584(SB)/8, $0x0010000000000000
DATA	expconst512<>+592(SB)/8, $0x0010000000000000
DATA	expconst512<>+600(SB)/8, $0x0010000000000000
DATA	expconst512<>+608(SB)/8, $0x0010000000000000
DATA	expconst512<>+616(SB)/8, $0x0010000000000000
DATA	expconst512<>+624(SB)/8, $0x0010000000000000
DATA	expconst512<>+632(SB)/8, $0x0010000000000000
DATA	expconst512<>+640(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+648(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+656(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+664(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+672(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+680(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+688(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+696(SB)/8, $0x3e5ad661d8a99f75
DATA	expconst512<>+704(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+712(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+720(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+728(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+736(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+744(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+752(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+760(SB)/8, $0x3e928b311c4abb3b
DATA	expconst512<>+768(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+776(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+784(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+792(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+800(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+808(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+816(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+824(SB)/8, $0x3ec71df4520100a1
DATA	expconst512<>+832(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+840(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+848(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+856(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+864(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+872(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+880(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+888(SB)/8, $0x3efa01992d102296
DATA	expconst512<>+896(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+904(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+912(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+920(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+928(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+936(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+944(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+952(SB)/8, $0x3f2a01a0110576fc
DATA	expconst512<>+960(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+968(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+976(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+984(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+992(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+1000(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+1008(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+1016(SB)/8, $0x3f56c16c18781105
DATA	expconst512<>+1024(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1032(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1040(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1048(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1056(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1064(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1072(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1080(SB)/8, $0x3f81111111130dd5
DATA	expconst512<>+1088(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1096(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1104(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1112(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1120(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1128(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1136(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1144(SB)/8, $0x3fa555555554f370
DATA	expconst512<>+1152(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1160(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1168(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1176(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1184(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1192(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1200(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1208(SB)/8, $0x3fc55555555554a2
DATA	expconst512<>+1216(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1224(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1232(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1240(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1248(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1256(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1264(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1272(SB)/8, $0x3fe0000000000010
DATA	expconst512<>+1280(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1288(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1296(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1304(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1312(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1320(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1328(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1336(SB)/8, $0x3fc2f112df3e5244
DATA	expconst512<>+1344(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1352(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1360(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1368(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1376(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1384(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1392(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1400(SB)/8, $0x3fc39a09d078c69f
DATA	expconst512<>+1408(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1416(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1424(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1432(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1440(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1448(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1456(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1464(SB)/8, $0x3fc7466496cb03de
DATA	expconst512<>+1472(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1480(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1488(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1496(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1504(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1512(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1520(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1528(SB)/8, $0x3fcc71c51d8e78af
DATA	expconst512<>+1536(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1544(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1552(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1560(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1568(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1576(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1584(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1592(SB)/8, $0x3fd2492494229359
DATA	expconst512<>+1600(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1608(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1616(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1624(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1632(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1640(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1648(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1656(SB)/8, $0x3fd999999997fa04
DATA	expconst512<>+1664(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1672(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1680(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1688(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1696(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1704(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1712(SB)/8, $0x3fe5555555555593
DATA	expconst512<>+1720(SB)/8, $0x3fe5555555555593
GLOBL	expconst512<>(SB), RODATA|NOPTR, $1728
