/* The SLEEF peers on 512-bit vectors (Sleef_expd8_u10avx512f,
   Sleef_log1pd8_u10avx512f), built as sl_softplus and sl_sigmoid in
   peers.c are on 256-bit ones. This file alone is compiled for AVX-512:
   the Go side calls it only on a CPU with AVX-512 F and DQ. */
#pragma GCC target("avx512f,avx512dq")
#include <immintrin.h>
#include <sleef.h>
#include "peers.h"

static void sl_softplus8(long n, double *dst, const double *x) {
	const __m512d zero = _mm512_setzero_pd();
	const __m512d sign = _mm512_set1_pd(-0.0);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m512d u = _mm512_loadu_pd(x + i);
		__m512d v = _mm512_or_pd(u, sign);
		__m512d l = Sleef_log1pd8_u10avx512f(Sleef_expd8_u10avx512f(v));
		_mm512_storeu_pd(dst + i, _mm512_add_pd(_mm512_max_pd(u, zero), l));
	}
	for (; i < n; i++) {
		double u = x[i];
		double v = u < 0 ? u : -u;
		dst[i] = (u > 0 ? u : 0) + Sleef_log1p_u10(Sleef_exp_u10(v));
	}
}
void sl_softplus512(long n, double *dst, const double *x, long reps) {
	for (long r = 0; r < reps; r++) sl_softplus8(n, dst, x);
}
static void sl_sigmoid8(long n, double *dst, const double *x) {
	const __m512d one = _mm512_set1_pd(1.0);
	const __m512d sign = _mm512_set1_pd(-0.0);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m512d u = _mm512_loadu_pd(x + i);
		__m512d e = Sleef_expd8_u10avx512f(_mm512_xor_pd(u, sign));
		_mm512_storeu_pd(dst + i, _mm512_div_pd(one, _mm512_add_pd(one, e)));
	}
	for (; i < n; i++) dst[i] = 1.0 / (1.0 + Sleef_exp_u10(-x[i]));
}
void sl_sigmoid512(long n, double *dst, const double *x, long reps) {
	for (long r = 0; r < reps; r++) sl_sigmoid8(n, dst, x);
}
