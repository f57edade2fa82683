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

// TestMushroomsSVM: the hard-margin SVM on mushrooms (section 6.2) through
// the public API: the default solves it to the reference's rounding and
// satisfies every row. (The screening rules on it: internal/solver's
// TestMushroomsScreening.)
func TestMushroomsSVM(t *testing.T) {
	p, ref := loadMushrooms(t)
	res, err := Solve(context.Background(), p, &Options{Tol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if re := relErrTo(res.X, ref.X); res.Status != StatusSolved || re > 1e-13 || res.MaxViolation > 1e-12 {
		t.Errorf("status %v, relative error %.3g, max violation %.3g", res.Status, re, res.MaxViolation)
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
