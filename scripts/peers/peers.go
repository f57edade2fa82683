// Package peers measures softpen's kernels against their peers in one run:
// OpenBLAS (cblas_ddot, cblas_daxpy, one thread), SLEEF's AVX2 and AVX-512
// exp and log1p (Sleef_expd4_u10avx2, Sleef_log1pd4_u10avx2 and their
// d8 avx512f versions) made into a softplus and a sigmoid the way a user of
// SLEEF would, and gonum's assembly
// (floats.Dot, floats.AddScaled); and, under the build tag daqp, softpen's
// QP solves against DAQP's (daqp.go). It is a separate module so that the
// library keeps its one dependency and no cgo; see README.md.
//
// Each C peer repeats its kernel reps times inside one cgo call, so the
// cgo call cost (tens of ns) is not charged to a 100 ns kernel.
package peers

/*
#cgo CFLAGS: -O2 -march=haswell
#cgo LDFLAGS: -lsleef -lopenblas -lm
#include "peers.h"
*/
import "C"
import "unsafe"

func init() { C.ob_init() }

func p(x []float64) *C.double { return (*C.double)(unsafe.Pointer(&x[0])) }

func OBDot(x, y []float64, reps int) float64 {
	return float64(C.ob_dot(C.long(len(x)), p(x), p(y), C.long(reps)))
}
func OBAxpy(x, y []float64, reps int) { C.ob_axpy(C.long(len(x)), p(x), p(y), C.long(reps)) }
func SLSoftplus(dst, x []float64, reps int) {
	C.sl_softplus(C.long(len(x)), p(dst), p(x), C.long(reps))
}
func SLSigmoid(dst, x []float64, reps int) {
	C.sl_sigmoid(C.long(len(x)), p(dst), p(x), C.long(reps))
}

// SLSoftplus512 and SLSigmoid512 are SLSoftplus and SLSigmoid on SLEEF's
// 512-bit functions. They need AVX-512 F and DQ: call them only where vec
// has an avx512 path.
func SLSoftplus512(dst, x []float64, reps int) {
	C.sl_softplus512(C.long(len(x)), p(dst), p(x), C.long(reps))
}
func SLSigmoid512(dst, x []float64, reps int) {
	C.sl_sigmoid512(C.long(len(x)), p(dst), p(x), C.long(reps))
}

// OBSyrk sets c (n x n, row-major) to the lower triangle of a'a for the
// row-major l x n a with cblas_dsyrk, reps times; OBGemmTN sets all of c
// with cblas_dgemm.
func OBSyrk(l, n int, a, c []float64, reps int) {
	C.ob_syrk(C.long(l), C.long(n), p(a), p(c), C.long(reps))
}
func OBGemmTN(l, n int, a, c []float64, reps int) {
	C.ob_gemm_tn(C.long(l), C.long(n), p(a), p(c), C.long(reps))
}

// OBPotrf copies the row-major n x n a into work and factors it with
// LAPACK's dpotrf (OpenBLAS, one thread), reps times; it returns dpotrf's
// info (0: positive definite, factored).
func OBPotrf(n int, a, work []float64, reps int) int {
	return int(C.ob_potrf(C.long(n), p(a), p(work), C.long(reps)))
}
