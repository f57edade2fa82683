package solver

import "math"

// Accelerated proximal gradient on sparse rows, in lazySVRG's solve: the
// same certificates, penalty schedule for rows of A, screening and
// statuses, with each epoch one full proximal gradient step. The gradient
// is the certificate's: CertifyPenalty (Certify without rows of A) at the
// extrapolated point y makes the passes over the rows of Phi and of A
// that the gradient needs (threaded as newtoncg's), so every step is
// certified at no extra pass and the answer is the y of least certified
// gap. With c = the smooth part's gradient at y less ridge y (snapshot),
//
//	x+ = prox(y - eta c),  y+ = clip(x+ + beta (x+ - x)),
//
// prox the regulariser's (ridge, l1, bounds; lazySVRG.prox), eta = 1/L for
// L = f''max ||Phi||_2^2/l + xi/(4 delta) ||A||_2^2 the smooth part's
// smoothness, beta = (1 - sqrt(q))/(1 + sqrt(q)), q = ridge/(L + ridge),
// with O'Donoghue and Candès' gradient restart (as runAPG: the momentum is
// dropped when the step opposes it) and a restart at each change of
// stage. y is clipped to the bounds so that the certificate holds at it (a
// point outside them has F = +Inf); the restart, not the theory of the
// constant-momentum method, covers that projection. ||Phi||_2 and ||A||_2
// are power estimates (as the dense path's sMax: from below, so taken
// lazyNormMargin larger, capped by the Frobenius norms, which bound them).

// lazyAPGState is APG's state beyond lazySVRG's.
type lazyAPGState struct {
	xOld    []float64 // the last proximal step x
	beta    float64   // the momentum
	aNorm2  float64   // ||A||_2^2, estimated
	restart bool      // the next step takes no momentum
}

// lazyNormIters and lazyNormMargin are the power iterations of APG's
// norm estimates and the factor they are enlarged by (as sMax's).
const (
	lazyNormIters  = 30
	lazyNormMargin = 1.05
)

// newAPG estimates the smoothness of the loss rows (frob: its Frobenius
// bound, f”max ||Phi||_F^2/l) and of the rows of A (a2s holds ||A||_F^2)
// and allocates APG's state. It uses w and best as scratch.
func (z *lazySVRG) newAPG(frob float64) {
	z.apg.xOld = make([]float64, len(z.w))
	r := make([]float64, max(z.l, z.m))
	e := lazyNormMargin * z.x.NormEstimate(lazyNormIters, z.w, z.best, r[:z.l])
	z.lossL = min(frob, z.loss.MaxCurvature()*e*e/float64(z.l))
	if z.m > 0 {
		e := lazyNormMargin * z.ar.NormEstimate(lazyNormIters, z.w, z.best, r[:z.m])
		z.apg.aNorm2 = min(z.a2s, e*e)
	}
	clear(z.w)
	clear(z.best)
}

// setStageAPG is setStage for APG: the step of the stage's smoothness,
// and no momentum into the new stage.
func (z *lazySVRG) setStageAPG() {
	z.setStep(z.lossL + z.xi/(4*z.delta)*z.apg.aNorm2)
	z.apg.restart = true
}

// setStepAPG sets the step, the prox's shrink and the momentum for the
// smooth part's smoothness sumL.
func (z *lazySVRG) setStepAPG(sumL float64) {
	z.ridge, z.kappa = z.ridge0, 0
	z.eta = 1 / z.ridge0 // no row has a slope: the steps only shrink
	if sumL > 0 {
		z.eta = 1 / sumL
	}
	sq := math.Sqrt(z.ridge0 / (sumL + z.ridge0))
	z.apg.beta = (1 - sq) / (1 + sq)
	z.a = 1 / (1 + z.eta*z.ridge)
	z.pow[0] = 1
}

// apgStep takes one step from y = w, whose gradient less ridge y the
// snapshot left in st[j].c, and leaves y+ in w. O(n); it allocates
// nothing.
func (z *lazySVRG) apgStep() {
	a := &z.apg
	var dir float64 // (y - x+)'(x+ - x): > 0 when the step opposes the momentum
	for j := range z.w {
		st := &z.st[j]
		xn := z.prox(st.w-z.eta*st.c, j)
		dir += (st.w - xn) * (xn - a.xOld[j])
		z.w[j] = xn
	}
	if a.restart || dir > 0 {
		copy(a.xOld, z.w)
		a.restart = false
		return
	}
	for j, xn := range z.w {
		z.w[j] = z.clip(xn+a.beta*(xn-a.xOld[j]), j)
		a.xOld[j] = xn
	}
}
