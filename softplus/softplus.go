// Package softplus holds the softplus function of the paper's penalty and
// the pieces of it the solver evaluates, each formula in one function:
// s(u) = log(1 + e^u) (the logistic loss), the penalty's derivative
// p'_delta (2.1), and the dual map (4.3). The penalty itself and the
// entropy term of the dual never need evaluating: the solver's certificate
// is F_{xi,0}(x) - G(lambda), where the penalty is (t)_+. Scalar versions
// are accurate to a few ulp and never overflow; the slice version runs on
// vec's kernels and allocates nothing.
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

// D1 returns p'_delta(t) = sigmoid(t/delta), in [0, 1], the derivative of
// the penalty p_delta(t) = delta s(t/delta) of (2.1); p'_delta is
// 1/(4 delta)-Lipschitz (Prop. 2.1, item 4).
func D1(delta, t float64) float64 { return Sigmoid(t / delta) }

// DualMap sets lambda_j = xi * sigmoid(r_j/delta), the maximiser of the
// smoothed Lagrangian over [0, xi]^m (4.3). dst may be r.
func DualMap(dst, r []float64, xi, delta float64) { vec.SigmoidScaled(dst, r, 1/delta, xi) }
