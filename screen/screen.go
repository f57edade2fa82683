// Package screen holds the rules that decide when a constraint a_j^T x <= b_j
// (unit-norm a_j) is inactive at the solution x* and can be dropped from the
// problem. A threshold is returned, and row j may be dropped when its
// residual a_j^T x - b_j at the point the rule was computed for is below it.
// A threshold of -Inf drops nothing; no rule ever returns NaN.
package screen

import "math"

// PaperThreshold is the rule of Algorithm 2 (step 3) of the paper: after
// stage t, with m_t constraints kept, drop j when
//
//	a_j^T x~_t - b_j < -2 sqrt(m_t) delta_t log(m_t xi / (mu delta_t)).
//
// It is safe when xi >= xi_bar and the stage was solved to the accuracy
// eps_t of Lemma 5.1. When the log's argument is at most 1 the bound of the
// lemma is vacuous and the rule drops nothing (-Inf); so do m <= 0, a NaN
// or infinite argument, and mu <= 0. Algorithm 2 prints delta inside the log;
// we read it as delta_t, as in eps_t of Lemma 5.1.
func PaperThreshold(m int, xi, mu, delta float64) float64 {
	arg := float64(m) * xi / (mu * delta)
	if !(arg > 1) || math.IsInf(arg, 0) || m <= 0 {
		return math.Inf(-1)
	}
	return -2 * math.Sqrt(float64(m)) * delta * math.Log(arg)
}

// PaperExperimentThreshold is the rule the paper's SVM experiment ran
// (its appendix, "Details for section 6.2": "for simplicity, constraint
// dropping criterion is set as a_i^T x~_t - b_i < -2 sqrt(m_t) delta_t"):
// Algorithm 2's threshold without the log factor. It is not safe: nothing
// bounds the distance of x~_t to x* by it. It exists to reproduce that
// experiment; m <= 0 or a delta that is not positive and finite drops
// nothing (-Inf).
func PaperExperimentThreshold(m int, delta float64) float64 {
	if m <= 0 || !(delta > 0) || math.IsInf(delta, 0) {
		return math.Inf(-1)
	}
	return -2 * math.Sqrt(float64(m)) * delta
}

// GapSafeThreshold is the gap-safe rule: drop j when
// a_j^T x - b_j < -sqrt(2 gap / mu), gap a certified duality gap at x.
// Proof: F_{xi,0} is mu-strongly convex and minimised at x* when
// xi >= xi_bar, so ||x - x*|| <= sqrt(2 gap/mu) =: rho; with ||a_j|| = 1,
// a_j^T x* - b_j <= a_j^T x - b_j + rho < 0, so j is inactive at x*.
// A gap that is +Inf, NaN or negative drops nothing.
func GapSafeThreshold(gap, mu float64) float64 {
	if !(gap >= 0) || math.IsInf(gap, 1) || !(mu > 0) {
		return math.Inf(-1)
	}
	return -math.Sqrt(2 * gap / mu)
}
