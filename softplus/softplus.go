// Package softplus holds the softplus penalty of the paper and its dual
// pieces, each formula in one function: the penalty p_delta (2.1), its
// derivative, the dual map (4.3) and the entropy term pi_xi of the dual
// (section 4). Scalar versions are accurate to a few ulp and never overflow;
// the slice versions run on vec's kernels and allocate nothing.
package softplus

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// Softplus returns s(u) = log(1 + e^u) = max(u, 0) + log1p(e^-|u|).
func Softplus(u float64) float64 {
	if u > 0 {
		return u + math.Log1p(math.Exp(-u))
	}
	return math.Log1p(math.Exp(u))
}

// Sigmoid returns 1/(1 + e^-u), evaluated so that no exponential overflows.
func Sigmoid(u float64) float64 {
	if u >= 0 {
		return 1 / (1 + math.Exp(-u))
	}
	e := math.Exp(u)
	return e / (1 + e)
}

// P returns the penalty p_delta(t) = delta * s(t/delta) of (2.1); P(0, t)
// is max(t, 0).
//
// It is evaluated as max(t, 0) + delta*log1p(exp(-|t|/delta)), which cannot
// overflow even when t/delta does.
func P(delta, t float64) float64 {
	if delta == 0 {
		return math.Max(t, 0)
	}
	return math.Max(t, 0) + delta*math.Log1p(math.Exp(-math.Abs(t)/delta))
}

// D1 returns p'_delta(t) = sigmoid(t/delta), in [0, 1]; p'_delta is
// 1/(4 delta)-Lipschitz (Prop. 2.1, item 4).
func D1(delta, t float64) float64 { return Sigmoid(t / delta) }

// DualMap sets lambda_j = xi * sigmoid(r_j/delta), the maximiser of the
// smoothed Lagrangian over [0, xi]^m (4.3). dst may be r.
func DualMap(dst, r []float64, xi, delta float64) { vec.SigmoidScaled(dst, r, 1/delta, xi) }

// PenaltySum returns xi * sum_j p_delta(r_j), the penalty term of (2.3).
func PenaltySum(r []float64, xi, delta float64) float64 {
	return xi * delta * vec.SoftplusSum(r, 1/delta)
}

// Entropy returns pi_xi(lambda) of section 4 for one coordinate,
// lambda log lambda + (xi - lambda) log(xi - lambda) - xi log xi, with
// 0 log 0 = 0; for lambda in [0, xi] it lies in [-xi log 2, 0]. The smoothed
// Lagrangian is L(x, lambda) - delta * sum_j Entropy(lambda_j, xi).
func Entropy(lambda, xi float64) float64 {
	xlogx := func(v float64) float64 {
		if v <= 0 {
			return 0
		}
		return v * math.Log(v)
	}
	return xlogx(lambda) + xlogx(xi-lambda) - xlogx(xi)
}

// EntropySum returns sum_j Entropy(lambda_j, xi). It allocates nothing.
func EntropySum(lambda []float64, xi float64) float64 {
	var s float64
	for _, l := range lambda {
		s += Entropy(l, xi)
	}
	return s
}

// Conjugate returns (xi p_delta)^*(lambda) = delta * Entropy(lambda, xi), the
// conjugate of the scaled penalty, finite exactly on [0, xi] (+Inf outside).
// Fenchel–Young holds with equality at lambda = xi*sigmoid(t/delta):
// xi*P(delta, t) + Conjugate(lambda, xi, delta) = lambda*t.
func Conjugate(lambda, xi, delta float64) float64 {
	if lambda < 0 || lambda > xi {
		return math.Inf(1)
	}
	return delta * Entropy(lambda, xi)
}
