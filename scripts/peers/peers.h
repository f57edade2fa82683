double ob_dot(long n, const double *x, const double *y, long reps);
void ob_axpy(long n, const double *x, double *y, long reps);
void sl_softplus(long n, double *dst, const double *x, long reps);
void sl_sigmoid(long n, double *dst, const double *x, long reps);
void ob_init(void);
