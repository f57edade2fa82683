package softpen

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/softpen/softpen/libsvm"
)

type svmRef struct {
	X      []float64 `json:"x"`
	Active []int     `json:"active"`
}

func loadMushrooms(t testing.TB) (*Problem, *svmRef) {
	f, err := os.Open("testdata/svm/mushrooms.libsvm")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := libsvm.Read(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/svm/mushrooms.ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref svmRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return SVMProblem(d.Labels, d.Rows, false), &ref
}

// TestMushroomsSVM: the hard-margin SVM on mushrooms (section 6.2) solves to
// relative error 1e-6 against the reference with every screening rule on
// every row (AllRows: the rules alone decide what leaves the problem), no
// rule drops a row active at the reference (or one with a positive
// multiplier), and xi is raised past xi_bar = 1.83 by itself. These runs
// set NoProbe, so that stages (where rules act and xi matters) run before
// the polish; otherwise the polish after the loose first stage solves the
// problem at xi = 1 with nothing screened. The default
// (working set and gap-safe screening) solves it just as accurately and
// satisfies every row. It logs the slack counts next to the reference's
// (1,881 below 1e-7, 6,243 above 1e-3).
func TestMushroomsSVM(t *testing.T) {
	if testing.Short() {
		t.Skip("solves an 8124 x 126 SVM three times; runs in the full (native) test run")
	}
	p, ref := loadMushrooms(t)
	active := map[int]bool{}
	for _, j := range ref.Active {
		active[j] = true
	}
	for _, rule := range []ScreenRule{ScreenNone, ScreenGapSafe, ScreenPaper, -1} {
		opt := &Options{Tol: 1e-9, Screen: rule, AllRows: true, NoProbe: true}
		if rule == -1 {
			opt = &Options{Tol: 1e-9}
		}
		res, err := Solve(context.Background(), p, opt)
		if err != nil {
			t.Fatal(err)
		}
		re := relErrTo(res.X, ref.X)
		var tight, loose int
		for j, row := range p.A {
			var nrm, ax float64
			for i, v := range row {
				nrm += v * v
				ax += v * res.X[i]
			}
			slack := (p.B[j] - ax) / math.Sqrt(nrm)
			if slack < 1e-7 {
				tight++
			}
			if slack > 1e-3 {
				loose++
			}
		}
		t.Logf("screen %v: %v rel err %.2e gap %.2e steps %d stages %d xi %g kept %d screened %d outside %d; slack < 1e-7: %d, > 1e-3: %d (reference 1881, 6243; paper 2358, 5536 of 8198)",
			rule, res.Status, re, res.Gap, res.Steps, res.Stages, res.Xi, res.Kept, len(res.Screened), len(res.Outside), tight, loose)
		if res.Status != StatusSolved || re > 6e-9 { // README: 5e-10 to 6e-10 (penalty), 3e-15 (exact)
			t.Errorf("screen %v: status %v relative error %.3e", rule, res.Status, re)
		}
		if rule == -1 {
			// Polishing on the working set solves it before xi matters.
			if res.MaxViolation > 1e-9 {
				t.Errorf("working set: max violation %.3e", res.MaxViolation)
			}
			continue
		}
		if res.Xi < 1.83 {
			t.Errorf("xi = %g below xi_bar = 1.83", res.Xi)
		}
		for _, j := range res.Screened {
			if active[j] || res.Lambda[j] != 0 {
				t.Errorf("screen %v proved row %d inactive, active at the reference", rule, j)
			}
		}
		for _, j := range res.Outside {
			if res.Lambda[j] != 0 {
				t.Errorf("screen %v: row %d outside the working set has multiplier %g", rule, j, res.Lambda[j])
			}
		}
	}
}

// relErrTo is ||x - ref|| / ||ref||.
func relErrTo(x, ref []float64) float64 {
	var d, r float64
	for i := range ref {
		d += (x[i] - ref[i]) * (x[i] - ref[i])
		r += ref[i] * ref[i]
	}
	return math.Sqrt(d / r)
}
