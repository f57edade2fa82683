#include <immintrin.h>
#include <sleef.h>
#include <cblas.h>
#include "peers.h"

double ob_dot(long n, const double *x, const double *y, long reps) {
	double s = 0;
	for (long r = 0; r < reps; r++) s += cblas_ddot(n, x, 1, y, 1);
	return s;
}
void ob_axpy(long n, const double *x, double *y, long reps) {
	for (long r = 0; r < reps; r++) cblas_daxpy(n, 1e-9, x, 1, y, 1);
}
static void sl_softplus1(long n, double *dst, const double *x) {
	const __m256d zero = _mm256_setzero_pd();
	const __m256d sign = _mm256_set1_pd(-0.0);
	long i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256d u = _mm256_loadu_pd(x + i);
		__m256d v = _mm256_or_pd(u, sign);
		__m256d l = Sleef_log1pd4_u10avx2(Sleef_expd4_u10avx2(v));
		_mm256_storeu_pd(dst + i, _mm256_add_pd(_mm256_max_pd(u, zero), l));
	}
	for (; i < n; i++) {
		double u = x[i];
		double v = u < 0 ? u : -u;
		dst[i] = (u > 0 ? u : 0) + Sleef_log1p_u10(Sleef_exp_u10(v));
	}
}
void sl_softplus(long n, double *dst, const double *x, long reps) {
	for (long r = 0; r < reps; r++) sl_softplus1(n, dst, x);
}
static void sl_sigmoid1(long n, double *dst, const double *x) {
	const __m256d one = _mm256_set1_pd(1.0);
	const __m256d sign = _mm256_set1_pd(-0.0);
	long i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256d u = _mm256_loadu_pd(x + i);
		__m256d e = Sleef_expd4_u10avx2(_mm256_xor_pd(u, sign));
		_mm256_storeu_pd(dst + i, _mm256_div_pd(one, _mm256_add_pd(one, e)));
	}
	for (; i < n; i++) dst[i] = 1.0 / (1.0 + Sleef_exp_u10(-x[i]));
}
void sl_sigmoid(long n, double *dst, const double *x, long reps) {
	for (long r = 0; r < reps; r++) sl_sigmoid1(n, dst, x);
}
void ob_init(void) { openblas_set_num_threads(1); }
/* c (n x n, row-major) = A'A for the row-major l x n a: the lower
   triangle by dsyrk, or all of it by dgemm. */
void ob_syrk(long l, long n, const double *a, double *c, long reps) {
	for (long r = 0; r < reps; r++)
		cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, n, l, 1.0, a, n, 0.0, c, n);
}
void ob_gemm_tn(long l, long n, const double *a, double *c, long reps) {
	for (long r = 0; r < reps; r++)
		cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, n, l, 1.0, a, n, a, n, 0.0, c, n);
}
/* LAPACK's Cholesky factorisation, in OpenBLAS (Fortran interface). */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
/* The Cholesky factor of the n x n row-major a (its lower triangle, which
   is the upper triangle of the same memory read column-major), into work,
   reps times: a copied to work, then dpotrf. Returns dpotrf's info of the
   last rep (0: factored). */
int ob_potrf(long n, const double *a, double *work, long reps) {
	int nn = (int)n, info = 0;
	for (long r = 0; r < reps; r++) {
		for (long i = 0; i < n * n; i++) work[i] = a[i];
		dpotrf_("U", &nn, work, &nn, &info);
	}
	return info;
}
