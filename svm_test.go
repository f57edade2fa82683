package softpen

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/libsvm"
	"github.com/softpen/softpen/vec"
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
// the public API: the default solves it to the reference's rounding
// (relative error 1e-13; it is 2.5e-15 on amd64), satisfies every row to
// rounding, and the answer's rows split as the reference's do: as many
// with slack below 1e-7 (the active ones, 1,881) and above 1e-3 (6,243).
// (The screening rules at work: internal/solver's TestScreeningRules.)
func TestMushroomsSVM(t *testing.T) {
	p, ref := loadMushrooms(t)
	res, err := Solve(context.Background(), p, &Options{Tol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if re := testqp.RelErr(res.X, ref.X); res.Status != StatusSolved || re > 1e-13 || res.MaxViolation > 1e-12 {
		t.Errorf("status %v, relative error %.3g, max violation %.3g", res.Status, re, res.MaxViolation)
	}
	slacks := func(x []float64) (tight, loose int) {
		for j, row := range p.A {
			var nrm, ax float64
			for i, v := range row {
				nrm += v * v
				ax += v * x[i]
			}
			switch s := (p.B[j] - ax) / math.Sqrt(nrm); {
			case s < 1e-7:
				tight++
			case s > 1e-3:
				loose++
			}
		}
		return tight, loose
	}
	tight, loose := slacks(res.X)
	rt, rl := slacks(ref.X)
	if tight != rt || loose != rl || rt != 1881 || rl != 6243 {
		t.Errorf("slack below 1e-7: %d rows (reference %d), above 1e-3: %d (reference %d); the data's are 1881 and 6243", tight, rt, loose, rl)
	}
}

// TestUnscaledSVM: hard-margin SVMs on raw, badly scaled features (held-out
// sets of this kind timed out at relative error 1.0 with xi raised to
// 2.6e5). What it asserts is that no answer is wrong (checkUnscaled), and
// beyond that that every instance reaches the target: every
// separable instance solved to 1e-9, every non-separable one proven
// infeasible (30 of 30; 28 until the engine looked for opposite rows,
// activeset/opposite.go: in 400x30 flipped seed 2 and 1797x64 flipped
// seed 3 the multipliers grew past 1e13 before the loop admitted the
// repeated point's other copy, whose violation was below the noise of x by
// then, and the solve cycled to the iteration limit). These instances sit
// at the edge of what the engine settles in float64, and the kernels'
// rounding decided some: on the generic path (purego) 400x30 seed 2 ended
// at a vertex (30 rows for 30 variables) whose point was feasible but
// whose multipliers did not match it (relative stationarity 2e-4, gap
// 1.5e13: the loop held a member at multiplier 0 whose multiplier through
// QR is -5e6), precision_limit, until the QR refinement let such a member
// leave (refineOrtho, wrongSign). Every instance reaches the target on
// every path (avx2, generic, neon under qemu with the short set); the
// test fails on any precision_limit and on any wrong answer.
func TestUnscaledSVM(t *testing.T) {
	shapes := []unscaledShape{{130, 13, 1e-2}, {178, 13, 1e-3}, {400, 30, 1e-4}, {569, 30, 1e-3}, {1797, 64, 1e-3}}
	if testing.Short() {
		shapes = shapes[:3]
	}
	reached, total, missed := checkUnscaled(t, shapes, 1, 3)
	t.Logf("%d of %d instances solved to 1e-9 or proven infeasible (%s path)", reached, total, vec.Impl())
	for _, m := range missed {
		t.Errorf("NOT REACHED: %s", m)
	}
}

// TestUnscaledSVMWide: the same checks on twelve more seeds and three more
// shapes (192 instances). No answer may be wrong, and every instance
// reaches the target. Eight separable ones (1797x64 seeds 4, 6, 10, 11,
// 400x30 seed 6, 2000x10 seed 14, 1000x50 seeds 11 and 13) ended
// precision_limit, with multipliers of 7e8 to 1e10 on unit rows, until
// the engine refined such answers through a QR factorisation of the
// working set's normals (activeset/orthorefine.go): its working set was
// the optimal one in all eight, but Newton steps through the Gram factor,
// which squares the normals' condition, left x violating rows by up to
// 1e-3 (taken for rounding by the loop), or by 1e-9, which the exact
// penalty's xi (2 max lambda) made a certified gap of 2e-9..7e-8 relative.
// Flipped 400x30 seed 6 and 1000x50 seed 13 were precision_limit until an
// "optimal" point that violates rows beyond rounding made the engine look
// for opposite rows. The test fails if fewer than all reach the target.
func TestUnscaledSVMWide(t *testing.T) {
	if testing.Short() {
		t.Skip("192 instances")
	}
	shapes := []unscaledShape{{130, 13, 1e-2}, {178, 13, 1e-3}, {400, 30, 1e-4}, {569, 30, 1e-3}, {1797, 64, 1e-3},
		{300, 20, 1e-5}, {1000, 50, 1e-4}, {2000, 10, 1e-3}}
	reached, total, missed := checkUnscaled(t, shapes, 4, 15)
	t.Logf("%d of %d instances solved to 1e-9 or proven infeasible; not reached:", reached, total)
	for _, m := range missed {
		t.Log("  ", m)
	}
	if reached < 192 {
		t.Errorf("%d of %d reached the target; 192 did when this test was last raised", reached, total)
	}
}

type unscaledShape struct {
	m, n   int
	margin float64
}

// checkUnscaled solves the unscaled SVMs of every shape, both variants and
// seeds first..last to tol 1e-9 and fails the test on any wrong answer: a
// non-separable instance is never "solved", and "infeasible" comes with a
// Farkas certificate that the big.Float check accepts; a separable
// instance is never "infeasible", and "solved" has KKT conditions checked
// independently in big.Float to 1e-9. It returns how many reached the
// target, how many there were, and a line for each precision_limit.
func checkUnscaled(t *testing.T, shapes []unscaledShape, first, last uint64) (reached, total int, missed []string) {
	t.Helper()
	for _, sh := range shapes {
		for _, flip := range []bool{false, true} {
			for seed := first; seed <= last; seed++ {
				labels, rows := qpgen.UnscaledSVM(sh.m, sh.n, sh.margin, flip, seed)
				p := SVMProblem(labels, rows, false)
				res, err := Solve(context.Background(), p, &Options{Tol: 1e-9})
				if err != nil {
					t.Fatal(err)
				}
				total++
				q := &qpgen.QP{N: p.N, H: identity(p.N), C: make([]float64, p.N), A: p.A, B: p.B}
				name := fmtG(float64(sh.m)) + "x" + fmtG(float64(sh.n)) + " margin " + fmtG(sh.margin) + map[bool]string{true: " flipped", false: ""}[flip] + " seed " + fmtG(float64(seed))
				switch {
				case res.Status == StatusInfeasible && !flip:
					t.Errorf("%s: reported infeasible, but the set is separable by construction", name)
				case res.Status == StatusInfeasible:
					if ok, why := qpgen.CheckFarkas(q, res.FarkasA, nil); !ok {
						t.Errorf("%s: Farkas certificate rejected: %s", name, why)
					} else {
						reached++
					}
				case res.Status == StatusSolved && flip:
					t.Errorf("%s: reported solved, but no x satisfies the repeated row with both labels (violation %.3g)", name, res.MaxViolation)
				case res.Status == StatusSolved:
					k, err := qpgen.KKT(q, res.X, res.Lambda, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					if worst := max(k.RelStationarity, k.RelPrimal, k.RelDual, k.RelComplementarity, math.Abs(k.RelGap)); !(worst <= 1e-9) {
						t.Errorf("%s: relative KKT residual or gap %.3g > 1e-9", name, worst)
					} else {
						reached++
					}
				case res.Status == StatusPrecisionLimit:
					missed = append(missed, name+": precision_limit, gap "+fmtG(res.Gap)+" ("+res.Message+")")
				default:
					t.Errorf("%s: status %v (%s)", name, res.Status, res.Message)
				}
			}
		}
	}
	return reached, total, missed
}

func identity(n int) [][]float64 {
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
		h[i][i] = 1
	}
	return h
}

// TestSVMProblem: the hard-margin SVM of section 6.2 on both copies of
// mushrooms: one row -y_i a_i per example, b = -1, ridge 1, no loss; with
// normalizeFeatures every non-zero column has unit norm. It validates.
func TestSVMProblem(t *testing.T) {
	for _, c := range []struct {
		file   string
		n, nnz int
	}{{"mushrooms.libsvm", 126, 22}, {"mushrooms112.libsvm", 112, 21}} {
		f, err := os.Open("testdata/svm/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := libsvm.Read(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, norm := range []bool{false, true} {
			p := SVMProblem(d.Labels, d.Rows, norm)
			if err := p.Validate(); err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			if p.N != c.n || len(p.A) != 8124 || p.Ridge != 1 || p.Loss != "none" || len(p.Phi) != 0 {
				t.Fatalf("%s: n %d m %d ridge %g loss %q", c.file, p.N, len(p.A), p.Ridge, p.Loss)
			}
			colNorm := make([]float64, p.N)
			for i, a := range p.A {
				nnz := 0
				for j, v := range a {
					colNorm[j] += v * v
					if v != 0 {
						nnz++
						if !norm && v != -d.Labels[i]*d.Rows[i][j] {
							t.Fatalf("%s: A[%d][%d] = %v, want -y a = %v", c.file, i, j, v, -d.Labels[i]*d.Rows[i][j])
						}
					}
				}
				if nnz != c.nnz || p.B[i] != -1 {
					t.Fatalf("%s row %d: %d non-zeros, b = %v", c.file, i, nnz, p.B[i])
				}
			}
			for j, s := range colNorm {
				if norm && s != 0 && math.Abs(s-1) > 1e-12 {
					t.Errorf("%s: column %d has squared norm %v after normalising", c.file, j, s)
				}
			}
		}
	}
	// Bad data in the SVM's rows stops at Validate, naming the row of A.
	bad := SVMProblem([]float64{1, -1}, [][]float64{{1, 0}, {0, math.NaN()}}, false)
	var ie *InputError
	if _, err := Solve(context.Background(), bad, nil); !errors.As(err, &ie) || err.Error() != "A[1][1]: NaN" {
		t.Errorf("SVM with a NaN feature: %v", err)
	}
	// Ragged rows are padded; the input is not modified.
	rows := [][]float64{{1}, {0, 2}}
	p := SVMProblem([]float64{1, -1}, rows, true)
	if p.N != 2 || !reflect.DeepEqual(p.A, [][]float64{{-1, 0}, {0, 1}}) || rows[1][1] != 2 {
		t.Errorf("ragged: %+v", p)
	}
}

// TestSVMProblemInPlace: the same Problem as SVMProblem, bit for bit, on
// mushrooms with and without normalised features; full-length rows become
// p.A's rows themselves (overwritten), a short row is copied and padded and
// left as it was.
func TestSVMProblemInPlace(t *testing.T) {
	for _, norm := range []bool{false, true} {
		p0, _ := loadMushrooms(t)
		labels := make([]float64, len(p0.A))
		for i := range labels {
			labels[i] = float64(i%2*2 - 1)
		}
		rows := make([][]float64, len(p0.A))
		for i, r := range p0.A {
			rows[i] = slices.Clone(r)
		}
		want := SVMProblem(labels, rows, norm)
		got := SVMProblemInPlace(labels, rows, norm)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("norm %v: in place differs from SVMProblem", norm)
		}
		for i := range rows {
			if &got.A[i][0] != &rows[i][0] {
				t.Fatalf("norm %v: row %d was copied", norm, i)
			}
		}
	}
	rows := [][]float64{{1}, {0, 2}}
	p := SVMProblemInPlace([]float64{1, -1}, rows, true)
	if p.N != 2 || !reflect.DeepEqual(p.A, [][]float64{{-1, 0}, {0, 1}}) || rows[0][0] != 1 || &p.A[1][0] != &rows[1][0] {
		t.Errorf("ragged: %+v, rows now %v", p, rows)
	}
}
