double ob_dot(long n, const double *x, const double *y, long reps);
void ob_axpy(long n, const double *x, double *y, long reps);
void sl_softplus(long n, double *dst, const double *x, long reps);
void sl_sigmoid(long n, double *dst, const double *x, long reps);
void ob_init(void);
void ob_syrk(long l, long n, const double *a, double *c, long reps);
void ob_gemm_tn(long l, long n, const double *a, double *c, long reps);
int ob_potrf(long n, const double *a, double *work, long reps);
