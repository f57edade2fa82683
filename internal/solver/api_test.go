package solver

import (
	"math"
	"strings"
	"testing"
)

// TestStepOptions: Momentum, StepScale, StageMult, LastIterate and
// SVRGEpoch at their documented defaults give the default run bit for bit
// (SGDM's step scale is 1 - Momentum), other values change the run,
// and invalid values are refused by name.
func TestStepOptions(t *testing.T) {
	p, _, _ := planted(11, 20, 60, 5, 1)
	run := func(o Options) []float64 {
		o.NoPolish, o.MaxSteps, o.Tol, o.Seed = true, 200000, 1e-300, 3
		return append([]float64(nil), solveOK(t, p, &o).X...)
	}
	same := func(a, b []float64) bool {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	cases := []struct {
		name       string
		base, dflt Options
		other      Options
	}{
		{"momentum", Options{Method: MethodSGDM}, Options{Method: MethodSGDM, Momentum: 0.9}, Options{Method: MethodSGDM, Momentum: 0.5}},
		{"step scale (SGD)", Options{Method: MethodSGD}, Options{Method: MethodSGD, StepScale: 1}, Options{Method: MethodSGD, StepScale: 2}},
		{"step scale (SGDM)", Options{Method: MethodSGDM, Momentum: 0.75}, Options{Method: MethodSGDM, Momentum: 0.75, StepScale: 0.25}, Options{Method: MethodSGDM, Momentum: 0.75, StepScale: 1}},
		{"stage multiplier (SGD)", Options{Method: MethodSGD}, Options{Method: MethodSGD}, Options{Method: MethodSGD, StageMult: 0.6}},
		{"last iterate (SGD)", Options{Method: MethodSGD}, Options{Method: MethodSGD}, Options{Method: MethodSGD, LastIterate: true}},
		{"last iterate (SGDM)", Options{Method: MethodSGDM}, Options{Method: MethodSGDM}, Options{Method: MethodSGDM, LastIterate: true}},
		{"step scale (SVRG)", Options{Method: MethodSVRG}, Options{Method: MethodSVRG}, Options{Method: MethodSVRG, StepScale: 1}},
		{"SVRG epoch", Options{Method: MethodSVRG}, Options{Method: MethodSVRG, SVRGEpoch: 2}, Options{Method: MethodSVRG, SVRGEpoch: 5}},
	}
	for _, c := range cases {
		x0, x1, x2 := run(c.base), run(c.dflt), run(c.other)
		if !same(x0, x1) {
			t.Errorf("%s: the documented default differs from the zero value", c.name)
		}
		if same(x0, x2) {
			t.Errorf("%s: another value gives the same run", c.name)
		}
	}
	bad := []struct {
		name string
		opt  Options
	}{
		{"momentum", Options{Method: MethodAPG, Momentum: 1}}, {"momentum", Options{Method: MethodAPG, Momentum: -0.1}}, {"momentum", Options{Method: MethodAPG, Momentum: math.NaN()}},
		{"step scale", Options{Method: MethodAPG, StepScale: -1}}, {"step scale", Options{Method: MethodAPG, StepScale: math.Inf(1)}}, {"step scale", Options{Method: MethodAPG, StepScale: math.NaN()}},
		{"SVRG epoch", Options{Method: MethodAPG, SVRGEpoch: -2}}, {"SVRG epoch", Options{Method: MethodAPG, SVRGEpoch: math.Inf(1)}}, {"SVRG epoch", Options{Method: MethodAPG, SVRGEpoch: math.NaN()}},
	}
	for _, b := range bad {
		if _, err := New(p, &b.opt); err == nil || !strings.Contains(err.Error(), b.name) {
			t.Errorf("%+v: error %v, want one naming the %s", b.opt, err, b.name)
		}
	}
}

// TestUnknownScreenRule: a rule outside the defined ones is refused by
// name; the last defined one is accepted.
func TestUnknownScreenRule(t *testing.T) {
	p, _, _ := planted(3, 5, 10, 2, 1)
	for _, r := range []ScreenRule{-1, ScreenPaperExperiment + 1} {
		if _, err := New(p, &Options{Method: MethodAPG, Screen: r}); err == nil || !strings.Contains(err.Error(), "screening rule") {
			t.Errorf("rule %d: error %v, want one naming the screening rule", r, err)
		}
	}
	if _, err := New(p, &Options{Method: MethodAPG, Screen: ScreenPaperExperiment}); err != nil {
		t.Errorf("ScreenPaperExperiment refused: %v", err)
	}
}
