package softplus

import "math"

// Reference formulas of the paper that the package does not export (the
// solver never evaluates them): the penalty p_delta (2.1) and the entropy
// term pi_xi of the dual (section 4). The tests check the exported
// functions against them.

// penalty is p_delta(t) = delta s(t/delta), evaluated as
// max(t, 0) + delta log1p(exp(-|t|/delta)), which cannot overflow even when
// t/delta does; penalty(0, t) = max(t, 0).
func penalty(delta, t float64) float64 {
	if delta == 0 {
		return math.Max(t, 0)
	}
	return math.Max(t, 0) + delta*math.Log1p(math.Exp(-math.Abs(t)/delta))
}

// entropy is pi_xi(lambda) for one coordinate,
// lambda log lambda + (xi - lambda) log(xi - lambda) - xi log xi, with
// 0 log 0 = 0; on [0, xi] it lies in [-xi log 2, 0].
func entropy(lambda, xi float64) float64 {
	xlogx := func(v float64) float64 {
		if v <= 0 {
			return 0
		}
		return v * math.Log(v)
	}
	return xlogx(lambda) + xlogx(xi-lambda) - xlogx(xi)
}

// conjugate is (xi p_delta)^*(lambda) = delta entropy(lambda, xi), finite
// exactly on [0, xi].
func conjugate(lambda, xi, delta float64) float64 {
	if lambda < 0 || lambda > xi {
		return math.Inf(1)
	}
	return delta * entropy(lambda, xi)
}
