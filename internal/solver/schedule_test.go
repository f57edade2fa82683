package solver

import (
	"math"
	"strings"
	"testing"
)

// TestStageMult: Options.StageMult caps an SVRG stage at the paper's
// iteration count times the multiplier, so a tiny multiplier runs more
// (shorter) stages within the same budget than the default, whose SVRG
// stages end only on their targets; a negative or NaN one is refused.
func TestStageMult(t *testing.T) {
	p, _, _ := planted(11, 20, 60, 5, 1)
	base := &Options{Method: MethodSVRG, NoPolish: true, MaxSteps: 400000, Tol: 1e-300}
	capped := *base
	capped.StageMult = 1e-3
	r0, r1 := solveOK(t, p, base), solveOK(t, p, &capped)
	if r1.Stages <= r0.Stages {
		t.Errorf("StageMult 1e-3: %d stages, default %d: want more", r1.Stages, r0.Stages)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := New(p, &Options{Method: MethodAPG, StageMult: bad}); err == nil || !strings.Contains(err.Error(), "stage multiplier") {
			t.Errorf("StageMult %v: error %v, want one naming the stage multiplier", bad, err)
		}
	}
}

// TestSGDMAcceleratedStageCount: with StageMult set, an SGDM stage ends
// after the paper's accelerated count (2 log(2 eta - 1) + log K) sqrt(m K),
// K ~ 1/delta, so successive stages grow by about sqrt(eta) (a bit more for
// the log factor), while SGD's count log(2 eta - 1) K grows by eta.
func TestSGDMAcceleratedStageCount(t *testing.T) {
	p, _, _ := planted(11, 20, 60, 5, 1)
	const eta = 4
	growth := func(m Method) float64 {
		var steps []int64
		opt := &Options{Method: m, NoPolish: true, NoProbe: true, AllRows: true, Screen: ScreenNone, MaxSteps: 3e6,
			Tol: 1e-300, Eta: eta, Delta0: 0.05, StageMult: 1, Progress: func(st Stage) { steps = append(steps, st.Steps) }}
		solveOK(t, p, opt)
		if len(steps) < 5 {
			t.Fatalf("%v: %d stages in 3e6 steps", m, len(steps))
		}
		// The last full stage against the one before it.
		k := len(steps) - 2
		g := float64(steps[k]-steps[k-1]) / float64(steps[k-1]-steps[k-2])
		t.Logf("%v: stage ends %v, growth %.2f", m, steps, g)
		return g
	}
	if g := growth(MethodSGDM); g < 1.8 || g > 2.6 {
		t.Errorf("SGDM stage growth %.2f, want about sqrt(eta) = 2", g)
	}
	if g := growth(MethodSGD); g < 3.5 || g > 4.5 {
		t.Errorf("SGD stage growth %.2f, want about eta = 4", g)
	}
}
