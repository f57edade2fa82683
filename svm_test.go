package softpen

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/softpen/softpen/internal/testqp"
)

// loadMushrooms is testqp.Mushrooms as a hard-margin SVM (SVMProblem).
func loadMushrooms(t testing.TB) (*Problem, *testqp.SVMRef) {
	t.Helper()
	labels, rows, ref, err := testqp.Mushrooms(filepath.Join("testdata", "svm"))
	if err != nil {
		t.Fatal(err)
	}
	return SVMProblem(labels, rows, false), ref
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
	if re := testqp.RelErr(res.X, ref.X); res.Status != StatusSolved || re > 1e-13 || res.MaxViolation > 1e-12 {
		t.Errorf("status %v, relative error %.3g, max violation %.3g", res.Status, re, res.MaxViolation)
	}
}
