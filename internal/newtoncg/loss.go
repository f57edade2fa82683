package newtoncg

import "github.com/softpen/softpen/softplus"

// Loss is the per-example loss f_i(t) of t = phi_i'x.
type Loss int

const (
	Squared  Loss = iota + 1 // f_i(t) = 1/2 (t - y_i)^2
	Logistic                 // f_i(t) = log(1 + exp(-y_i t)), y_i = ±1
)

// value returns f(t) for label (or target) y.
func (l Loss) value(t, y float64) float64 {
	if l == Squared {
		d := t - y
		return 0.5 * d * d
	}
	return softplus.Softplus(-y * t)
}

// slope returns f'(t): t - y, or -y sigmoid(-y t).
func (l Loss) slope(t, y float64) float64 {
	if l == Squared {
		return t - y
	}
	return -y * softplus.Sigmoid(-y*t)
}

// curvature returns f”(t): 1, or sigmoid(t) sigmoid(-t) (y^2 = 1), each
// factor computed without cancellation so that tiny curvatures keep their
// relative accuracy.
func (l Loss) curvature(t float64) float64 {
	if l == Squared {
		return 1
	}
	return softplus.Sigmoid(t) * softplus.Sigmoid(-t)
}

// Slope is f'(t) for label (or target) y, as the certificate computes it.
func (l Loss) Slope(t, y float64) float64 { return l.slope(t, y) }

// MaxCurvature is sup_t f”(t): 1 squared, 1/4 logistic.
func (l Loss) MaxCurvature() float64 { return l.maxCurvature() }

// maxCurvature is sup_t f”(t), the constant of the certificate's
// allowance for the rounding of phi_i'x (gap.go).
func (l Loss) maxCurvature() float64 {
	if l == Squared {
		return 1
	}
	return 0.25
}
