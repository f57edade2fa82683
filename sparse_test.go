package softpen

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/softpen/softpen/internal/dualcd"
	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
	"github.com/softpen/softpen/libsvm"
	"github.com/softpen/softpen/mat"
)

// mushroomsSparse reads the mushroom data both ways.
func mushroomsSparse(t testing.TB) (*libsvm.Data, *libsvm.SparseData) {
	t.Helper()
	raw, err := os.ReadFile("testdata/svm/mushrooms.libsvm")
	if err != nil {
		t.Fatal(err)
	}
	d, err := libsvm.Read(strings.NewReader(string(raw)), 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := libsvm.ReadSparse(strings.NewReader(string(raw)), 0)
	if err != nil {
		t.Fatal(err)
	}
	return d, s
}

// filled returns n copies of v.
func filled(n int, v float64) []float64 {
	out := make([]float64, n)
	for j := range out {
		out[j] = v
	}
	return out
}

// TestSparseMatchesDense: the fitting model on mushrooms, each loss, with
// bounds and l1 or without, solved from dense rows (Newton steps on the
// dense Hessian, or the exact engine, certified their own way) and from
// sparse rows (Newton-CG) ends Solved with the same objective to 1e-12
// relative (to max(1, |F|), as the tolerance), within the two certified
// gaps, and the points agree to their certified distance bounds.
func TestSparseMatchesDense(t *testing.T) {
	d, s := mushroomsSparse(t)
	n := d.NFeatures
	fill := func(v float64) []float64 { return filled(n, v) }
	for _, loss := range []string{"logistic", "squared"} {
		for _, c := range []struct {
			name   string
			l1     float64
			lo, hi []float64
		}{{"ridge", 0, nil, nil}, {"box", 0, fill(-0.3), fill(0.3)}, {"l1", 1e-3, nil, nil}, {"l1+box", 1e-3, fill(-0.2), fill(1)}} {
			base := Problem{N: n, Loss: loss, Y: d.Labels, Ridge: 1e-3, L1: c.l1, Lower: c.lo, Upper: c.hi}
			pd, ps := base, base
			pd.Phi = d.Rows
			ps.PhiSparse = s.X
			opt := &Options{Tol: 1e-13}
			rd, err := Solve(context.Background(), &pd, opt)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := Solve(context.Background(), &ps, opt)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: dense %v %v F %.16g gap %.2g; sparse %v %v F %.16g gap %.2g iters %d", loss, c.name,
				rd.Method, rd.Status, rd.Objective, rd.Gap, rs.Method, rs.Status, rs.Objective, rs.Gap, rs.Iterations)
			if rs.Method != MethodNewtonCG || rs.Status != StatusSolved || rd.Status != StatusSolved {
				t.Fatalf("%s %s: sparse %v %v, dense %v", loss, c.name, rs.Method, rs.Status, rd.Status)
			}
			// Relative as the solver's tolerance is: to max(1, |F|).
			if diff := math.Abs(rs.Objective - rd.Objective); diff > 1e-12*math.Max(1, math.Abs(rd.Objective)) || diff > rs.Gap+rd.Gap+1e-15 {
				t.Errorf("%s %s: objectives differ by %.2g, gaps %.2g and %.2g", loss, c.name, diff, rs.Gap, rd.Gap)
			}
			var dist float64
			for j := range rs.X {
				dist += (rs.X[j] - rd.X[j]) * (rs.X[j] - rd.X[j])
			}
			if math.Sqrt(dist) > rs.DistBound+rd.DistBound+1e-12 {
				t.Errorf("%s %s: points %.3g apart, beyond the distance bounds %.3g + %.3g", loss, c.name, math.Sqrt(dist), rs.DistBound, rd.DistBound)
			}
		}
	}
}

// TestSparseDenseRowsNewtonCG: MethodNewtonCG on dense rows compresses
// them and gives the sparse form's answer; with rows of A it gives the
// dense paths' answer, with Aeq it is an error, and a small sparse problem
// with rows of A is made dense under MethodAuto.
func TestSparseDenseRowsNewtonCG(t *testing.T) {
	rows := [][]float64{{1, 0, 2}, {0, -1, 0.5}, {3, 0, 0}, {0, 0, -1}}
	y := []float64{1, -1, 1, -1}
	pd := &Problem{N: 3, Loss: "logistic", Phi: rows, Y: y, Ridge: 0.1}
	ps := &Problem{N: 3, Loss: "logistic", PhiSparse: mat.SparseFromRows(rows, 3), Y: y, Ridge: 0.1}
	rd, err := Solve(context.Background(), pd, &Options{Method: MethodNewtonCG, Tol: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Solve(context.Background(), ps, &Options{Tol: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	if rd.Method != MethodNewtonCG || rs.Method != MethodNewtonCG || rd.Objective != rs.Objective {
		t.Fatalf("dense rows %v F %v, sparse %v F %v", rd.Method, rd.Objective, rs.Method, rs.Objective)
	}
	pd.A, pd.B = [][]float64{{1, 1, 1}}, []float64{0.1}
	rn, err := Solve(context.Background(), pd, &Options{Method: MethodNewtonCG, Tol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Solve(context.Background(), pd, &Options{Tol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if rn.Method != MethodNewtonCG || rn.Status != StatusSolved || math.Abs(rn.Objective-rb.Objective) > 1e-12 || !(rn.Lambda[0] > 0) {
		t.Fatalf("newton-cg with rows of A: %v %v F %v lambda %v, dense %v F %v", rn.Method, rn.Status, rn.Objective, rn.Lambda, rb.Method, rb.Objective)
	}
	pe := *pd
	pe.A, pe.B, pe.Aeq, pe.Beq = nil, nil, pd.A, pd.B
	if _, err := Solve(context.Background(), &pe, &Options{Method: MethodNewtonCG}); err == nil || !strings.Contains(err.Error(), "newton-cg") {
		t.Fatalf("newton-cg with Aeq: err %v", err)
	}
	ps.A, ps.B = pd.A, pd.B
	ra, err := Solve(context.Background(), ps, &Options{Tol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if ra.Status != StatusSolved || ra.Method == MethodNewtonCG || math.Abs(ra.Objective-rb.Objective) > 1e-12 {
		t.Fatalf("sparse with A: %v %v F %v, dense F %v", ra.Status, ra.Method, ra.Objective, rb.Objective)
	}
}

// TestSparseRowsMatchDense: the fitting model on mushrooms with twenty
// sparse rows A x <= b (about half of them cutting off the unconstrained
// answer), each loss, with and without bounds and l1, solved on sparse
// rows (Newton-CG with the augmented Lagrangian) and on dense rows (the
// dense paths) ends Solved with the same objective to 1e-12 relative and
// within the two certified gaps; the sparse answer satisfies the rows to
// 1e-9 and has some active.
func TestSparseRowsMatchDense(t *testing.T) {
	d, s := mushroomsSparse(t)
	n := d.NFeatures
	fill := func(v float64) []float64 { return filled(n, v) }
	for _, loss := range []string{"logistic", "squared"} {
		for _, c := range []struct {
			name   string
			l1     float64
			lo, hi []float64
		}{{"ridge", 0, nil, nil}, {"l1+box", 1e-3, fill(-0.2), fill(1)}} {
			base := Problem{N: n, Loss: loss, Y: d.Labels, Ridge: 1e-3, L1: c.l1, Lower: c.lo, Upper: c.hi, PhiSparse: s.X}
			free, err := Solve(context.Background(), &base, &Options{Tol: 1e-12})
			if err != nil {
				t.Fatal(err)
			}
			xu := free.X
			g := uint64(5)
			next := func() float64 {
				g = g*6364136223846793005 + 1442695040888963407
				return float64(g>>11) / (1 << 53)
			}
			var a [][]float64
			var b []float64
			for i := 0; i < 20; i++ {
				row := make([]float64, n)
				var ax, spread float64
				for j := range row {
					if next() < 0.2 {
						row[j] = next() - 0.5
						ax += row[j] * xu[j]
						spread += math.Abs(row[j] * xu[j])
					}
				}
				a = append(a, row)
				b = append(b, ax+(next()-0.5)*spread/4)
			}
			ps, pd := base, base
			ps.ASparse, ps.B = mat.SparseFromRows(a, n), b
			pd.PhiSparse, pd.Phi, pd.A, pd.B = nil, d.Rows, a, b
			rs, err := Solve(context.Background(), &ps, &Options{Tol: 1e-13, Method: MethodNewtonCG})
			if err != nil {
				t.Fatal(err)
			}
			rd, err := Solve(context.Background(), &pd, &Options{Tol: 1e-13})
			if err != nil {
				t.Fatal(err)
			}
			active := 0
			for _, l := range rs.Lambda {
				if l > 0 {
					active++
				}
			}
			t.Logf("%s %s: dense %v %v F %.16g gap %.2g; sparse %v %v F %.16g gap %.2g viol %.2g active %d iters %d",
				loss, c.name, rd.Method, rd.Status, rd.Objective, rd.Gap, rs.Method, rs.Status, rs.Objective, rs.Gap, rs.MaxViolation, active, rs.Iterations)
			if rs.Method != MethodNewtonCG || rs.Status != StatusSolved || rd.Status != StatusSolved {
				t.Fatalf("%s %s: sparse %v %v, dense %v", loss, c.name, rs.Method, rs.Status, rd.Status)
			}
			if active == 0 || rs.MaxViolation > 1e-9 {
				t.Errorf("%s %s: %d rows active, violation %g", loss, c.name, active, rs.MaxViolation)
			}
			if diff := math.Abs(rs.Objective - rd.Objective); diff > 1e-12*math.Max(1, math.Abs(rd.Objective)) || diff > rs.Gap+rd.Gap+1e-15 {
				t.Errorf("%s %s: objectives differ by %.2g, gaps %.2g and %.2g", loss, c.name, diff, rs.Gap, rd.Gap)
			}
		}
	}
}

// TestSparseRowsInfeasible: the fitting model on sparse rows with rows
// of A that no x satisfies (x_0 + x_1 <= -1 and -x_0 - x_1 <= -1) ends
// infeasible on the Newton-CG path, with a Farkas vector on the caller's
// rows that proves it.
func TestSparseRowsInfeasible(t *testing.T) {
	d, s := mushroomsSparse(t)
	n := d.NFeatures
	a := &mat.Sparse{Rows: 2, Cols: n, Ptr: []int{0, 2, 4}, Idx: []int32{0, 1, 0, 1}, Val: []float64{1, 1, -1, -1}}
	p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: d.Labels, Ridge: 1e-3, ASparse: a, B: []float64{-1, -1}}
	r, err := Solve(context.Background(), p, &Options{Method: MethodNewtonCG})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInfeasible || len(r.FarkasA) != 2 || !(r.FarkasA[0] > 0) || r.FarkasA[0] != r.FarkasA[1] {
		t.Fatalf("status %v, Farkas %v", r.Status, r.FarkasA)
	}
	// y proves it: A'y = 0 (equal entries on opposite rows) and b'y < 0.
	if by := r.FarkasA[0]*p.B[0] + r.FarkasA[1]*p.B[1]; !(by < 0) {
		t.Fatalf("b'y = %g, want < 0", by)
	}
}

// TestSparseRowsWarm: with rows of A on the Newton-CG path, a re-solve
// after SetB (b moved a little) keeps the multipliers and the penalty, ends
// solved in fewer Newton iterations than the cold solve, agrees with a
// cold solve of the new problem within the two gaps, and allocates
// nothing.
func TestSparseRowsWarm(t *testing.T) {
	_, s := mushroomsSparse(t)
	n := s.X.Cols
	a := &mat.Sparse{Rows: 3, Cols: n, Ptr: []int{0, 3, 5, 6}, Idx: []int32{0, 1, 2, 4, 9, 20}, Val: []float64{1, 1, 1, -1, 2, 1}}
	b := []float64{-0.3, -0.1, 0.05}
	p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-3, ASparse: a, B: b}
	opt := &Options{Tol: 1e-10, Method: MethodNewtonCG}
	sv, err := NewSolver(p, opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sv.Solve(context.Background())
	if err != nil || r.Status != StatusSolved {
		t.Fatalf("cold: %v %v", r, err)
	}
	cold := r.Iterations
	if !(r.Lambda[0] > 0) || !(r.Lambda[1] > 0) {
		t.Fatalf("multipliers %v: the test wants the first two rows active", r.Lambda)
	}
	nb := []float64{-0.31, -0.1, 0.05}
	if err := sv.SetB(nb); err != nil {
		t.Fatal(err)
	}
	if r, err = sv.Solve(context.Background()); err != nil || r.Status != StatusSolved {
		t.Fatalf("warm: %v %v", r, err)
	}
	if r.Iterations >= cold {
		t.Errorf("warm re-solve took %d Newton iterations, the cold one %d", r.Iterations, cold)
	}
	warmF, warmGap := r.Objective, r.Gap
	q := *p
	q.B = nb
	rc, err := Solve(context.Background(), &q, opt)
	if err != nil || rc.Status != StatusSolved {
		t.Fatalf("cold on the new b: %v %v", rc, err)
	}
	if d := math.Abs(warmF - rc.Objective); d > warmGap+rc.Gap+1e-15 {
		t.Errorf("warm F %.17g, cold %.17g: %.3g apart, gaps %.3g and %.3g", warmF, rc.Objective, d, warmGap, rc.Gap)
	}
	k := 0
	allocs := testing.AllocsPerRun(5, func() {
		k++
		nb[0] = -0.31 - 1e-3*float64(k%3)
		if err := sv.SetB(nb); err != nil {
			t.Fatal(err)
		}
		if r, err = sv.Solve(context.Background()); err != nil || r.Status != StatusSolved {
			t.Fatalf("warm: %v %v", r, err)
		}
	})
	if allocs != 0 {
		t.Errorf("warm SetB + Solve with rows: %v allocations, want 0", allocs)
	}
}

func TestSparseValidate(t *testing.T) {
	good := func() *Problem {
		return &Problem{N: 4, Loss: "logistic", Y: []float64{1, -1}, Ridge: 1,
			PhiSparse: &mat.Sparse{Rows: 2, Cols: 4, Ptr: []int{0, 2, 3}, Idx: []int32{0, 3, 1}, Val: []float64{1, 2, 3}}}
	}
	if err := good().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		want string
		edit func(*Problem)
	}{
		{"phi_sparse[1][0]: value NaN", func(p *Problem) { p.PhiSparse.Val[2] = math.NaN() }},
		{"phi_sparse[0][1]: column 1 after 3", func(p *Problem) { p.PhiSparse.Idx[0], p.PhiSparse.Idx[1] = 3, 1 }},
		{"phi_sparse: 4 columns, want n = 5", func(p *Problem) { p.N = 5 }},
		{"y: length 1", func(p *Problem) { p.Y = p.Y[:1] }},
		{"y[1]", func(p *Problem) { p.Y[1] = 0 }},
		{"phi: given beside phi_sparse", func(p *Problem) { p.Phi = [][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}} }},
		{"phi: given, but loss", func(p *Problem) { p.Loss = "none" }},
		{"phi_sparse: ptr has length", func(p *Problem) { p.PhiSparse.Ptr = p.PhiSparse.Ptr[:2] }},
	} {
		p := good()
		c.edit(p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
		if _, err := Solve(context.Background(), p, nil); err == nil {
			t.Errorf("%s: Solve took it", c.want)
		}
	}
}

// TestSparseWarmNoAlloc: a Solver on sparse rows (newton-cg, and svrg
// with its lazy updates) re-solves after SetQ and SetBounds without
// allocating, and warm from the last answer: in fewer iterations (Newton
// steps, epochs) than cold.
func TestSparseWarmNoAlloc(t *testing.T) {
	_, s := mushroomsSparse(t)
	n := s.X.Cols
	for _, c := range []struct {
		m           Method
		tol, qScale float64
	}{{MethodNewtonCG, 1e-10, 1e-4}, {MethodSVRG, 1e-9, 1e-5}, {MethodAPG, 1e-9, 1e-5}} {
		m := c.m
		p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-3, L1: 1e-4}
		sv, err := NewSolver(p, &Options{Method: m, Tol: c.tol})
		if err != nil {
			t.Fatal(err)
		}
		r, err := sv.Solve(context.Background())
		if err != nil || r.Status != StatusSolved {
			t.Fatalf("%v cold: %v %v", m, r, err)
		}
		cold := r.Iterations
		q, lo, hi := make([]float64, n), make([]float64, n), make([]float64, n)
		for j := range q {
			q[j], lo[j], hi[j] = c.qScale*float64(j%7-3), -2, 2
		}
		if err := sv.SetBounds(lo, hi); err != nil {
			t.Fatal(err)
		}
		k := 0
		allocs := testing.AllocsPerRun(3, func() {
			q[k%n] += c.qScale / 10
			k++
			if err := sv.SetQ(q); err != nil {
				t.Fatal(err)
			}
			r, err = sv.Solve(context.Background())
			if err != nil || r.Status != StatusSolved {
				t.Fatalf("%v warm: %v %v", m, r, err)
			}
		})
		if allocs != 0 {
			t.Errorf("%v warm re-solve: %v allocations, want 0", m, allocs)
		}
		if r.Iterations >= cold {
			t.Errorf("%v warm re-solve took %d iterations, the cold one %d", m, r.Iterations, cold)
		}
	}
}

// TestSparseHugeIndex: one feature index of 2^24 makes n = 2^24 with a
// handful of nonzeros; the sparse path solves it with memory in proportion
// to n vectors, not l x n, and the variables in no row come out 0.
func TestSparseHugeIndex(t *testing.T) {
	s, err := libsvm.ReadSparse(strings.NewReader("+1 1:1 16777216:1\n-1 2:1\n+1 1:0.5 3:2\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{N: s.X.Cols, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 0.1}
	if est := p.MemoryEstimate(); est > 8*30<<24 {
		t.Fatalf("estimate %s", FormatBytes(est))
	}
	r, err := Solve(context.Background(), p, nil)
	if err != nil || r.Status != StatusSolved {
		t.Fatalf("%v %v", r, err)
	}
	if r.X[4] != 0 || r.X[1<<23] != 0 || r.X[0] <= 0 || r.X[1<<24-1] <= 0 {
		t.Fatalf("x: %v %v %v %v", r.X[0], r.X[4], r.X[1<<23], r.X[1<<24-1])
	}
}

// TestSparseSVM: the hard-margin SVM on mushrooms from sparse rows by
// dual coordinate descent (certified at a scaled feasible point) ends
// Solved to 1e-9, feasible to rounding, with the objective of the exact
// engine on the dense rows to within the certified gaps; with and without
// normalised features. MethodAuto gives such a small problem to the
// exact engine.
func TestSparseSVM(t *testing.T) {
	d, s := mushroomsSparse(t)
	for _, norm := range []bool{false, true} {
		ps := SVMProblemSparse(s.Labels, s.X, norm)
		pd := SVMProblem(d.Labels, d.Rows, norm)
		ra, err := Solve(context.Background(), ps, nil)
		if err != nil || ra.Method != MethodActiveSet || ra.Status != StatusSolved {
			t.Fatalf("auto: %v %v", ra, err)
		}
		rs, err := Solve(context.Background(), ps, &Options{Method: MethodDualCD, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		rd, err := Solve(context.Background(), pd, &Options{Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("normalised %v: sparse %v %v F %.16g gap %.2g viol %.2g epochs %d in %v; dense %v F %.16g gap %.2g in %v", norm,
			rs.Method, rs.Status, rs.Objective, rs.Gap, rs.MaxViolation, rs.Iterations, rs.Time, rd.Method, rd.Objective, rd.Gap, rd.Time)
		if rs.Method != MethodDualCD || rs.Status != StatusSolved || rd.Status != StatusSolved {
			t.Fatalf("sparse %v %v, dense %v", rs.Method, rs.Status, rd.Status)
		}
		// Feasibility in the data, computed here.
		worst := math.Inf(-1)
		for i, r := range pd.A {
			var v float64
			for j, a := range r {
				v += a * rs.X[j]
			}
			worst = math.Max(worst, v-pd.B[i])
		}
		if worst > 1e-12 {
			t.Errorf("normalised %v: a row violated by %.3g", norm, worst)
		}
		if diff := math.Abs(rs.Objective - rd.Objective); diff > rs.Gap+rd.Gap+1e-14*math.Max(1, rd.Objective) {
			t.Errorf("normalised %v: objectives %.16g and %.16g differ beyond the gaps", norm, rs.Objective, rd.Objective)
		}
	}
}

// TestSparseSVMInfeasible: data no hyperplane through the origin
// separates end Infeasible with a Farkas vector that holds, and a zero
// row (0 <= -1) at once; on the dense engine (MethodAuto on small data)
// and by dual coordinate descent, where mushrooms with one example
// repeated under the other label is proven infeasible.
func TestSparseSVMInfeasible(t *testing.T) {
	_, s := mushroomsSparse(t)
	x := *s.X
	x.Rows++
	x.Ptr = append(append([]int(nil), s.X.Ptr...), s.X.Ptr[s.X.Rows]+s.X.Ptr[101]-s.X.Ptr[100])
	x.Idx = append(append([]int32(nil), s.X.Idx...), s.X.Idx[s.X.Ptr[100]:s.X.Ptr[101]]...)
	x.Val = append(append([]float64(nil), s.X.Val...), s.X.Val[s.X.Ptr[100]:s.X.Ptr[101]]...)
	labels := append(append([]float64(nil), s.Labels...), -s.Labels[100])
	pc := SVMProblemSparse(labels, &x, false)
	rc, err := Solve(context.Background(), pc, &Options{Method: MethodDualCD, TimeLimit: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rc.Status != StatusInfeasible {
		t.Fatalf("repeated example: %v %s", rc.Status, rc.Message)
	}
	// The certificate in the data: y >= 0, A'y = 0, b'y < 0.
	aty := make([]float64, x.Cols)
	var by float64
	for i, y := range rc.FarkasA {
		if y < 0 {
			t.Fatalf("farkas[%d] = %v", i, y)
		}
		idx, val := pc.ASparse.Row(i)
		for k, j := range idx {
			aty[j] += y * val[k]
		}
		by += y * pc.B[i]
	}
	for j, v := range aty {
		if math.Abs(v) > 1e-9 {
			t.Fatalf("(A'y)[%d] = %v", j, v)
		}
	}
	if !(by < 0) {
		t.Fatalf("b'y = %v", by)
	}

	rows := [][]float64{{1, 0}, {-1, 0}, {0, 1}}
	xs := mat.SparseFromRows(rows, 2)
	p := SVMProblemSparse([]float64{1, 1, 1}, xs, false) // x0 >= 1 and -x0 >= 1
	r, err := Solve(context.Background(), p, &Options{MaxSteps: 1e7})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInfeasible || r.FarkasA[0] <= 0 || math.Abs(r.FarkasA[0]-r.FarkasA[1]) > 1e-9 || r.FarkasA[2] > 1e-9 {
		t.Fatalf("%v %v farkas %v", r.Status, r.Message, r.FarkasA)
	}
	z := &mat.Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 1, 1}, Idx: []int32{0}, Val: []float64{1}}
	r, err = Solve(context.Background(), SVMProblemSparse([]float64{1, -1}, z, false), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInfeasible || r.FarkasA[1] != 1 || r.FarkasA[0] != 0 {
		t.Fatalf("zero row: %v farkas %v", r.Status, r.FarkasA)
	}
}

// TestSparseSVMInfeasibleUnequalWeights: mushrooms plus one example
// that is x_a + 2 x_b + 3 x_c of three examples of one label, given the
// other: the certificate weighs its rows 1, 2, 3, 1, which no rounding of
// lambda to equal weights finds; dual-cd proves it through the exact
// engine on the rows its multipliers lead (supportFarkas), and the
// certificate holds in exact arithmetic on the whole problem.
func TestSparseSVMInfeasibleUnequalWeights(t *testing.T) {
	_, s := mushroomsSparse(t)
	pick := []int{}
	for i := 0; len(pick) < 3; i++ {
		if s.Labels[i] == s.Labels[0] {
			pick = append(pick, i)
		}
	}
	v := make([]float64, s.X.Cols)
	for w, i := range pick {
		idx, val := s.X.Row(i)
		for k, j := range idx {
			v[j] += float64(w+1) * val[k]
		}
	}
	x := *s.X
	x.Ptr = append([]int(nil), s.X.Ptr...)
	x.Idx = append([]int32(nil), s.X.Idx...)
	x.Val = append([]float64(nil), s.X.Val...)
	for j, vj := range v {
		if vj != 0 {
			x.Idx, x.Val = append(x.Idx, int32(j)), append(x.Val, vj)
		}
	}
	x.Rows++
	x.Ptr = append(x.Ptr, len(x.Idx))
	labels := append(append([]float64(nil), s.Labels...), -s.Labels[0])
	p := SVMProblemSparse(labels, &x, false)
	r, err := Solve(context.Background(), p, &Options{Method: MethodDualCD, TimeLimit: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInfeasible {
		t.Fatalf("status %v (%s)", r.Status, r.Message)
	}
	ad := p.ASparse.ToDense()
	rows := make([][]float64, ad.Rows)
	for i := range rows {
		rows[i] = ad.Row(i)
	}
	q := &qpgen.QP{N: x.Cols, A: rows, B: p.B}
	if ok, why := qpgen.CheckFarkas(q, r.FarkasA, nil); !ok {
		t.Fatalf("certificate: %s", why)
	}
	// The added example is in the certificate, and its weights are not
	// all equal (mushrooms repeats examples: the weight of a planted row
	// may be shared among its copies).
	if !(r.FarkasA[x.Rows-1] > 0) {
		t.Fatalf("farkas of the added example %v", r.FarkasA[x.Rows-1])
	}
	weights := map[float64]bool{}
	for _, y := range r.FarkasA {
		if y != 0 {
			weights[math.Round(y*1e6)] = true
		}
	}
	if len(weights) < 2 {
		t.Fatalf("one weight: %v", weights)
	}
}

// TestSparseSVMInfeasibleManyConflicts: 3000 text-like rows under random
// labels (separable, by a small margin) and 150 conflicts hidden among
// them, each a new example that sums eight others with weights 1 to 3,
// given the other label. Lambda grows along all of them at once, so the
// rows it leads on are over a thousand, spanning thousands of columns:
// too large a problem for the exact engine, which ran to the time limit
// on it. supportFarkas names the rows of a few of the conflicts with a
// box QP on the support's Gram matrix (reduceSupport) and the engine
// proves those infeasible; the certificate holds on the whole problem.
func TestSparseSVMInfeasibleManyConflicts(t *testing.T) {
	a, b := zipfRows(3000, 20000, 40, 7)
	x := &mat.Sparse{Rows: a.Rows, Cols: a.Cols, Ptr: slices.Clone(a.Ptr), Idx: slices.Clone(a.Idx), Val: slices.Clone(a.Val)}
	b = slices.Clone(b)
	v := make([]float64, a.Cols)
	for g := 0; g < 150; g++ {
		clear(v)
		for i := 8 * g; i < 8*g+8; i++ {
			idx, val := a.Row(i)
			for k, j := range idx {
				v[j] -= float64(i%3+1) * val[k]
			}
		}
		for j, vj := range v {
			if vj != 0 {
				x.Idx, x.Val = append(x.Idx, int32(j)), append(x.Val, vj)
			}
		}
		x.Rows++
		x.Ptr = append(x.Ptr, len(x.Idx))
		b = append(b, -1)
	}
	// A budget of epochs, not of wall time: the solve needs 192 and is
	// run under emulation (arm64 under qemu-user) too, some fifty times
	// slower.
	r, err := Solve(context.Background(), &Problem{N: x.Cols, ASparse: x, B: b, Ridge: 1},
		&Options{Method: MethodDualCD, MaxSteps: 4000 * int64(x.Rows)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInfeasible {
		t.Fatalf("status %v after %d epochs (%s)", r.Status, r.Iterations, r.Message)
	}
	// The certificate on every row: y >= 0, b'y < 0, and each column of
	// A'y zero to the rounding of its own sum.
	aty, size := make([]float64, x.Cols), make([]float64, x.Cols)
	var by float64
	rows := 0
	for i, y := range r.FarkasA {
		if !(y >= 0) {
			t.Fatalf("farkas[%d] = %v", i, y)
		}
		if y == 0 {
			continue
		}
		rows++
		idx, val := x.Row(i)
		for k, j := range idx {
			aty[j] += y * val[k]
			size[j] += math.Abs(y * val[k])
		}
		by += y * b[i]
	}
	for j := range aty {
		if math.Abs(aty[j]) > 1e-12*size[j] {
			t.Fatalf("(A'y)[%d] = %v, of terms summing to %v in size", j, aty[j], size[j])
		}
	}
	if !(by < 0) {
		t.Fatalf("b'y = %v", by)
	}
	t.Logf("infeasible after %d epochs; the certificate has %d rows", r.Iterations, rows)
}

// TestSparseHugeIndexSVM: the hard-margin SVM on two examples, one with
// feature index 2^24, is solved by the exact engine on the two columns in
// use: the rows are never made 2^24 wide.
func TestSparseHugeIndexSVM(t *testing.T) {
	s, err := libsvm.ReadSparse(strings.NewReader("+1 16777216:1\n-1 1:2 3:0.5\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	p := SVMProblemSparse(s.Labels, s.X, false)
	free := separableVars(p, nil)
	if len(free) != 1<<24-3 {
		t.Fatalf("%d separable variables, want 2^24 - 3", len(free))
	}
	r := newSeparable(p, free).reduced(p, false)
	if r.N != 3 || len(r.A) != 2 || len(r.A[0]) != 3 || r.ASparse != nil {
		t.Fatalf("reduced: n %d, %d rows", r.N, len(r.A))
	}
	res, err := Solve(context.Background(), p, nil)
	if err != nil || res.Status != StatusSolved {
		t.Fatalf("%v %v", res, err)
	}
	// x* = (-2/(4+0.25), 0, -0.5/4.25, 0, ..., 1): both margins 1.
	want := map[int]float64{0: -2 / 4.25, 2: -0.5 / 4.25, 1<<24 - 1: 1}
	for j, w := range want {
		if math.Abs(res.X[j]-w) > 1e-14 {
			t.Errorf("x[%d] = %v, want %v", j, res.X[j], w)
		}
	}
}

// TestSparseSVMPathOnWholeProblem: the path is chosen on the whole
// problem. 600 SVM rows over the first 1e5 of 230000 columns have m n
// above 2^27, so MethodAuto takes dual-cd; without its unused columns the
// problem is under the limit, and deciding again on it sent the SVM to
// newton-cg with no loss rows (NaN).
func TestSparseSVMPathOnWholeProblem(t *testing.T) {
	const m, n, used = 600, 230000, 100000
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	g := uint64(3)
	for i := 0; i < m; i++ {
		j := int32(-1)
		for k := 0; k < 5; k++ {
			g = g*6364136223846793005 + 1442695040888963407
			j += 1 + int32(g>>40)%(used/6)
			g = g*6364136223846793005 + 1442695040888963407
			a.Idx, a.Val = append(a.Idx, j), append(a.Val, float64(g>>11)/(1<<53)-0.5)
		}
		a.Ptr[i+1] = len(a.Idx)
	}
	b := make([]float64, m)
	for i := range b {
		b[i] = -1
	}
	p := &Problem{N: n, Loss: "none", Ridge: 1, ASparse: a, B: b}
	if float64(m)*float64(n) <= sparseRowsDenseMax {
		t.Fatalf("m n = %d is not above the dense limit", m*n)
	}
	r, err := Solve(context.Background(), p, &Options{Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != MethodDualCD || r.Status != StatusSolved || math.IsNaN(r.Objective) {
		t.Fatalf("method %v status %v objective %v", r.Method, r.Status, r.Objective)
	}
}

// zipfRows returns m rows over n features, each the normalised counts of k
// draws from a Zipf law (exponent 1.1) on the features, as word counts
// are, under random labels, as the rows -y_i a_i of a hard-margin SVM (b =
// -1). With n well above m the rows are independent, so every labelling is
// separable, but the frequent features make them nearly dependent and the
// margin small: text's hard case for coordinate descent.
func zipfRows(m, n, k int, seed uint64) (*mat.Sparse, []float64) {
	s := seed
	next := func() float64 {
		s = s*6364136223846793005 + 1442695040888963407
		return float64(s>>11) / (1 << 53)
	}
	cum := make([]float64, n)
	for j := range cum {
		cum[j] = 1 / math.Pow(float64(j+1), 1.1)
		if j > 0 {
			cum[j] += cum[j-1]
		}
	}
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	b := make([]float64, m)
	count := make([]float64, n)
	for i := 0; i < m; i++ {
		y := 1.0
		if next() < 0.5 {
			y = -1
		}
		var idx []int32
		for q := 0; q < k; q++ {
			j := sort.SearchFloat64s(cum, next()*cum[n-1])
			if count[j] == 0 {
				idx = append(idx, int32(j))
			}
			count[j]++
		}
		slices.Sort(idx)
		var nrm float64
		for _, j := range idx {
			nrm += count[j] * count[j]
		}
		for _, j := range idx {
			a.Idx, a.Val = append(a.Idx, j), append(a.Val, -y*count[j]/math.Sqrt(nrm))
			count[j] = 0
		}
		a.Ptr[i+1] = len(a.Idx)
		b[i] = -1
	}
	return a, b
}

// TestSparseSVMSmallMargin: on separable rows with a small margin
// (zipfRows) dual-cd's finisher (the exact dual on the support) certifies
// the answer at its first call, 512 epochs, where coordinate descent
// alone takes more than twice as many; both answers are certified and
// agree within their gaps.
func TestSparseSVMSmallMargin(t *testing.T) {
	a, b := zipfRows(1000, 5000, 40, 3)
	alone := dualcd.New(dualcd.Problem{A: a, B: b, Ridge: 1}, dualcd.Options{Tol: 1e-9, Seed: 1}).Solve()
	r, err := Solve(context.Background(), &Problem{N: a.Cols, ASparse: a, B: b, Ridge: 1}, &Options{Method: MethodDualCD, Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("alone: %v after %d epochs, F %.16g gap %.3g; softpen: %v after %d epochs, F %.16g gap %.3g",
		alone.Status, alone.Epochs, alone.Objective, alone.Gap, r.Status, r.Iterations, r.Objective, r.Gap)
	if alone.Status != dualcd.Solved || alone.Epochs < 1024 {
		t.Fatalf("coordinate descent alone: %v after %d epochs, not the slow case meant", alone.Status, alone.Epochs)
	}
	if r.Status != StatusSolved || r.Iterations > 520 {
		t.Fatalf("status %v after %d epochs, want solved by the finisher at 512", r.Status, r.Iterations)
	}
	if d := math.Abs(r.Objective - alone.Objective); d > r.Gap+alone.Gap {
		t.Fatalf("objectives %.16g and %.16g differ by %.3g, more than the gaps %.3g + %.3g", r.Objective, alone.Objective, d, r.Gap, alone.Gap)
	}
}

// TestSparseSVMTightTolerance: on the small-margin rows of
// TestSparseSVMSmallMargin the certificate resolves a relative gap of a
// few 1e-12 (x summed with compensation): tol 1e-11 is solved at the
// finisher's first call, where summing x plainly left a rounding charge
// of 4e-11 and the solve ran to its time limit; and a tol below what it
// resolves (1e-15) ends at once with StatusPrecisionLimit, a message
// naming the certificate's rounding, and the same answer, not at the
// time limit.
func TestSparseSVMTightTolerance(t *testing.T) {
	a, b := zipfRows(1000, 5000, 40, 3)
	solve := func(tol float64) *Result {
		r, err := Solve(context.Background(), &Problem{N: a.Cols, ASparse: a, B: b, Ridge: 1},
			&Options{Method: MethodDualCD, Tol: tol, TimeLimit: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("tol %g: %v after %d epochs, relative gap %.3g", tol, r.Status, r.Iterations, r.Gap/r.Objective)
		return r
	}
	r := solve(1e-11)
	if r.Status != StatusSolved || r.Iterations > 1024 {
		t.Fatalf("tol 1e-11: %v after %d epochs", r.Status, r.Iterations)
	}
	p := solve(1e-15)
	if p.Status != StatusPrecisionLimit || p.Iterations > 1024 || !strings.Contains(p.Message, "rounding") {
		t.Fatalf("tol 1e-15: %v after %d epochs (%q)", p.Status, p.Iterations, p.Message)
	}
	if d := math.Abs(p.Objective - r.Objective); d > p.Gap+r.Gap {
		t.Fatalf("objectives %.16g and %.16g differ by more than the gaps", p.Objective, r.Objective)
	}
}

// TestSparseSeparatesWhenItPays: on the sparse path the variables in no
// row are taken out only when that takes less memory. Taking them out
// copies the rows' column numbers (4 bytes an entry), which a single
// empty column of many rows does not repay: NewSolver then allocates less
// than that copy would. With most columns empty the copy pays, and
// NewSolver allocates far less than the solver's vectors over every
// column would take. Both answers agree with the problem without the
// empty columns.
func TestSparseSeparatesWhenItPays(t *testing.T) {
	const l, n = 4000, 200
	phi, _ := zipfRows(l, n, 60, 7)
	y := make([]float64, l)
	for i := range y {
		y[i] = 1
		if i%3 == 0 {
			y[i] = -1
		}
	}
	entries := len(phi.Idx)
	solve := func(cols int) (*Result, float64) {
		x := *phi
		x.Cols = cols
		p := &Problem{N: cols, Loss: "logistic", PhiSparse: &x, Y: y, Ridge: 1e-3}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := NewSolver(p, &Options{Tol: 1e-10})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Solve(context.Background())
		if err != nil || r.Status != StatusSolved {
			t.Fatalf("n = %d: %v %v", cols, r, err)
		}
		return r, float64(after.TotalAlloc - before.TotalAlloc)
	}
	ref, _ := solve(n)
	one, alloc := solve(n + 1)
	if alloc >= 4*float64(entries) {
		t.Errorf("one empty column: NewSolver allocated %.0f bytes, the column numbers' copy alone is %d", alloc, 4*entries)
	}
	many, allocMany := solve(1 << 20)
	if allocMany >= 8*22*(1<<20)/3 {
		t.Errorf("2^20 - %d empty columns: NewSolver allocated %.0f bytes, as if solving every column", n, allocMany)
	}
	for _, r := range []*Result{one, many} {
		if d := math.Abs(r.Objective - ref.Objective); d > ref.Gap+r.Gap {
			t.Errorf("n = %d: objective %.17g, without empty columns %.17g (gaps %.1e, %.1e)", len(r.X), r.Objective, ref.Objective, r.Gap, ref.Gap)
		}
		for j := n; j < len(r.X); j++ {
			if r.X[j] != 0 {
				t.Fatalf("n = %d: x[%d] = %g in no row", len(r.X), j, r.X[j])
			}
		}
	}
	t.Logf("entries %d; NewSolver allocated %.0f (one empty column), %.0f (2^20 - %d)", entries, alloc, allocMany, n)
}

// sparseLazyMethods are the penalty method's inner methods on sparse rows
// (the solver's lazySVRG) and the tolerance each certifies in the tests:
// SGD's and SGDM's constant steps leave their averages at a noise floor
// (on mushrooms with ridge 1e-3 a certified gap of about 1e-2), which the
// dense SGD does not reach either. SGDM has its lazy form without l1 and
// bounds; with them it takes the rows densely.
var sparseLazyMethods = []struct {
	m   Method
	tol float64
}{{MethodSVRG, 1e-9}, {MethodCatalyst, 1e-9}, {MethodAPG, 1e-9}, {MethodSGD, 5e-2}, {MethodSGDM, 5e-2}}

// TestSparseSVRG: the lazy methods on sparse rows (proximal SVRG with lazy
// updates, catalyst, APG on O(nnz) full gradients, averaged SGD and SGDM)
// certify their tolerance (sparseLazyMethods) on mushrooms for each loss,
// with bounds and l1 or without, and their answers agree with Newton-CG's
// at 1e-13 within the certified gaps and distance bounds, and APG's and
// SGDM's with the dense penalty method's on the dense rows within the two
// gaps; the same seed gives the same bits.
func TestSparseSVRG(t *testing.T) {
	d, s := mushroomsSparse(t)
	n := s.X.Cols
	losses := []string{"logistic", "squared"}
	if testing.Short() {
		losses = losses[:1] // the squared loss takes 20-40 epochs a case
	}
	for _, loss := range losses {
		for _, c := range []struct {
			name   string
			l1     float64
			lo, hi []float64
		}{{"ridge", 0, nil, nil}, {"box", 0, filled(n, -0.3), filled(n, 0.3)}, {"l1", 1e-3, nil, nil}, {"l1+box", 1e-3, filled(n, -0.2), filled(n, 1)}} {
			p := &Problem{N: n, Loss: loss, PhiSparse: s.X, Y: s.Labels, Ridge: 1e-3, L1: c.l1, Lower: c.lo, Upper: c.hi}
			ref, err := Solve(context.Background(), p, &Options{Method: MethodNewtonCG, Tol: 1e-13})
			if err != nil || ref.Status != StatusSolved {
				t.Fatalf("%s %s: newton-cg %v %v", loss, c.name, ref, err)
			}
			for _, mt := range sparseLazyMethods {
				m := mt.m
				if !p.lazyMethod(m) {
					continue // sgdm with l1 or bounds: the dense penalty method's, tested there
				}
				opt := &Options{Method: m, Tol: mt.tol, Seed: 3}
				r, err := Solve(context.Background(), p, opt)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s %s: %v %v F %.16g gap %.2g, %d epochs; newton-cg F %.16g gap %.2g", loss, c.name, m, r.Status, r.Objective, r.Gap, r.Iterations, ref.Objective, ref.Gap)
				if r.Method != m || r.Status != StatusSolved || r.Gap > mt.tol*math.Max(1, math.Abs(r.Objective)) {
					t.Fatalf("%s %s: %v %v, gap %.3g", loss, c.name, r.Method, r.Status, r.Gap)
				}
				if diff := r.Objective - ref.Objective; diff < -(ref.Gap+1e-15) || diff > r.Gap+1e-15 {
					t.Errorf("%s %s %v: F - F_ref = %.3g, outside [-%.2g, %.2g]", loss, c.name, m, diff, ref.Gap, r.Gap)
				}
				if m == MethodAPG || m == MethodSGDM { // the dense form, by the dense penalty method's
					pd := *p
					pd.PhiSparse, pd.Phi = nil, d.Rows
					rd, err := Solve(context.Background(), &pd, opt)
					if err != nil || rd.Status != StatusSolved || rd.Method != m {
						t.Fatalf("%s %s: dense %v: %v %v", loss, c.name, m, rd, err)
					}
					if diff := r.Objective - rd.Objective; math.Abs(diff) > r.Gap+rd.Gap+1e-15 {
						t.Errorf("%s %s %v: F - F_dense = %.3g, beyond the gaps %.2g + %.2g", loss, c.name, m, diff, r.Gap, rd.Gap)
					}
				}
				var dist float64
				for j := range r.X {
					dist += (r.X[j] - ref.X[j]) * (r.X[j] - ref.X[j])
				}
				if math.Sqrt(dist) > r.DistBound+ref.DistBound {
					t.Errorf("%s %s %v: points %.3g apart, beyond the distance bounds %.3g + %.3g", loss, c.name, m, math.Sqrt(dist), r.DistBound, ref.DistBound)
				}
				again, err := Solve(context.Background(), p, opt)
				if err != nil {
					t.Fatal(err)
				}
				for j := range r.X {
					if math.Float64bits(r.X[j]) != math.Float64bits(again.X[j]) {
						t.Fatalf("%s %s %v: x[%d] = %g, then %g with the same seed", loss, c.name, m, j, r.X[j], again.X[j])
					}
				}
			}
		}
	}
	// sgdm runs on the sparse rows without l1 and bounds; with either its
	// momentum has no closed form through the prox, and it takes the rows
	// densely.
	for _, c := range []struct {
		l1   float64
		lo   []float64
		lazy bool
	}{{0, nil, true}, {0, filled(n, math.Inf(-1)), true}, {1e-3, nil, false}, {0, filled(n, -1), false}} {
		p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-3, L1: c.l1, Lower: c.lo}
		if p.sparsePath(MethodSGDM) != c.lazy {
			t.Errorf("sgdm, l1 %g, bounds %v: on the sparse rows %v, want %v", c.l1, c.lo != nil, !c.lazy, c.lazy)
		}
	}
	// With rows of A, svrg is the dense penalty method on the rows made
	// dense (they fit here).
	rows, _ := zipfRows(4, s.X.Cols, 3, 1)
	p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-3, ASparse: rows, B: []float64{1, 1, 1, 1}}
	if r, err := Solve(context.Background(), p, &Options{Method: MethodSVRG, Tol: 1e-6}); err != nil || r.Status != StatusSolved || r.Method != MethodSVRG {
		t.Errorf("svrg with sparse rows of A: %v, %v", r, err)
	}
}

// TestSparseCatalystAccelerates: on an ill-conditioned sparse logistic
// problem (mushrooms, ridge 0.1/l: Lbar/(ridge l) = 55) catalyst-SVRG
// certifies 1e-9 in fewer epochs, and fewer rows evaluated, than SVRG.
func TestSparseCatalystAccelerates(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of epochs")
	}
	_, s := mushroomsSparse(t)
	p := &Problem{N: s.X.Cols, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 0.1 / float64(s.X.Rows)}
	var steps [2]int64
	for k, m := range []Method{MethodSVRG, MethodCatalyst} {
		r, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-9})
		if err != nil || r.Status != StatusSolved {
			t.Fatalf("%v: %v %v", m, r, err)
		}
		t.Logf("%v: %d epochs, %d rows evaluated, gap %.2g", m, r.Iterations, r.Steps, r.Gap)
		steps[k] = r.Steps
	}
	if steps[1] >= steps[0] {
		t.Errorf("catalyst evaluated %d rows, SVRG %d", steps[1], steps[0])
	}
}

// TestSparseSVRGPrecisionLimit: a tolerance below the certificate's
// rounding ends svrg and catalyst-svrg with precision_limit soon after the
// gap reaches its floor, with the least gap found; catalyst with kappa > 0
// ends too, near its floor.
func TestSparseSVRGPrecisionLimit(t *testing.T) {
	_, s := mushroomsSparse(t)
	p := &Problem{N: s.X.Cols, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-3, L1: 1e-4}
	for _, m := range []Method{MethodSVRG, MethodCatalyst} {
		r, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-17, MaxSteps: 1e9})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %v after %d epochs, gap %.3g: %s", m, r.Status, r.Iterations, r.Gap, r.Message)
		if r.Status != StatusPrecisionLimit || r.Gap > 1e-15 || r.Iterations > 200 {
			t.Errorf("%v: %v after %d epochs, gap %.3g", m, r.Status, r.Iterations, r.Gap)
		}
	}
	if testing.Short() {
		return
	}
	// Catalyst proper (kappa > 0 at ridge 0.1/l): its centre used to stop
	// once (C2) fell below the rounding allowance of h's gap, and F's gap
	// stayed on a plateau above its floor (1.3e-13) with no end.
	p.Ridge, p.L1 = 0.1/float64(s.X.Rows), 0
	l := int64(s.X.Rows)
	r, err := Solve(context.Background(), p, &Options{Method: MethodCatalyst, Tol: 1e-17, MaxSteps: 3000 * 4 * l})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("catalyst, ridge 0.1/l: %v after %d epochs, gap %.3g: %s", r.Status, r.Iterations, r.Gap, r.Message)
	if (r.Status != StatusPrecisionLimit && r.Status != StatusSolved) || r.Gap > 1e-15 {
		t.Errorf("catalyst, ridge 0.1/l: %v after %d epochs, gap %.3g", r.Status, r.Iterations, r.Gap)
	}
}

// TestSparseOverflowingData: on rows whose products pass float64's range
// (mushrooms times 1e150, one row 1e6 larger still) no sparse method
// claims an answer: each ends unsolved with a gap of +Inf, never NaN, and
// an objective that is F at the point it returns.
func TestSparseOverflowingData(t *testing.T) {
	_, s := mushroomsSparse(t)
	x := &mat.Sparse{Rows: s.X.Rows, Cols: s.X.Cols, Ptr: s.X.Ptr, Idx: s.X.Idx, Val: make([]float64, len(s.X.Val))}
	for q, v := range s.X.Val {
		x.Val[q] = v * 1e150
	}
	for q := x.Ptr[5]; q < x.Ptr[6]; q++ {
		x.Val[q] *= 1e6
	}
	for _, m := range []Method{MethodNewtonCG, MethodSVRG, MethodCatalyst} {
		p := &Problem{N: x.Cols, Loss: "logistic", PhiSparse: x, Y: s.Labels, Ridge: 1e-3, L1: 1e-4}
		r, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-9, MaxSteps: 1e8})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %v, F %.6g, gap %.3g: %s", m, r.Status, r.Objective, r.Gap, r.Message)
		if r.Status == StatusSolved || !math.IsInf(r.Gap, 1) || !math.IsInf(r.DistBound, 1) {
			t.Errorf("%v: %v, gap %.3g, distance bound %.3g", m, r.Status, r.Gap, r.DistBound)
		}
		// F at the returned point, each term summed stably.
		var f float64
		for i := 0; i < x.Rows; i++ {
			idx, val := x.Row(i)
			var ti float64
			for q, j := range idx {
				ti += val[q] * r.X[j]
			}
			if mi := -s.Labels[i] * ti; mi > 30 {
				f += mi
			} else {
				f += math.Log1p(math.Exp(mi))
			}
		}
		f /= float64(x.Rows)
		for _, v := range r.X {
			f += 0.5e-3*v*v + 1e-4*math.Abs(v)
		}
		if math.IsNaN(r.Objective) || math.Abs(r.Objective-f) > 1e-12*math.Max(1, math.Abs(f)) {
			t.Errorf("%v: objective %.17g, F at its x %.17g", m, r.Objective, f)
		}
	}
}

// TestSparseCatalystFewRows: catalyst where kappa = Lbar/l - ridge dwarfs
// the ridge (two rows, one of them empty; ridge 1e-3: its momentum is
// 0.88) swings past x* for hundreds of epochs before it certifies; it must
// not be ended as stalled on the way, and its answer is newton-cg's.
func TestSparseCatalystFewRows(t *testing.T) {
	x := &mat.Sparse{Rows: 2, Cols: 3, Ptr: []int{0, 0, 1}, Idx: []int32{1}, Val: []float64{2}}
	var want []float64
	var wantDist float64
	for _, m := range []Method{MethodNewtonCG, MethodCatalyst} {
		p := &Problem{N: 3, Loss: "logistic", PhiSparse: x, Y: []float64{1, -1}, Ridge: 1e-3, Q: []float64{1, -1, 0}}
		r, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %v after %d, x %v, gap %.3g", m, r.Status, r.Iterations, r.X, r.Gap)
		if r.Status != StatusSolved {
			t.Fatalf("%v: %v (%s)", m, r.Status, r.Message)
		}
		if want == nil {
			want, wantDist = r.X, r.DistBound
			continue
		}
		var d float64
		for j := range want {
			d += (r.X[j] - want[j]) * (r.X[j] - want[j])
		}
		if math.Sqrt(d) > r.DistBound+wantDist {
			t.Errorf("%v: x %v, newton-cg's %v: %.3g apart, beyond the distance bounds %.3g + %.3g", m, r.X, want, math.Sqrt(d), r.DistBound, wantDist)
		}
	}
}

// TestSparseSVMAutoBeyondDenseModel: MethodAuto gives a hard-margin SVM on
// sparse rows that use too many features for the engine's dense model
// (more than 3000), though its rows would fit densely, to dual coordinate
// descent, not to a penalty method on the dense rows (which cannot
// certify such a problem to a tight tolerance), and it is solved, with the
// answer of dual-cd asked for by name.
func TestSparseSVMAutoBeyondDenseModel(t *testing.T) {
	const m, n = 500, 6000
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	labels := make([]float64, m)
	g := uint64(11)
	for i := range m {
		for k := range 12 { // a column in each twelfth of the features
			g = g*6364136223846793005 + 1442695040888963407
			j := int32(k*(n/12)) + int32(g>>40)%(n/12)
			g = g*6364136223846793005 + 1442695040888963407
			a.Idx, a.Val = append(a.Idx, j), append(a.Val, float64(g>>11)/(1<<53)+0.1)
		}
		a.Ptr[i+1] = len(a.Idx)
		labels[i] = float64(1 - 2*int(g>>63))
	}
	p := SVMProblemSparse(labels, a, false)
	if float64(m)*float64(n) > sparseRowsDenseMax || p.denseEngineFits() {
		t.Fatal("the problem no longer has the shape under test")
	}
	ra, err := Solve(context.Background(), p, &Options{Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := Solve(context.Background(), p, &Options{Method: MethodDualCD, Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if ra.Method != MethodDualCD || ra.Status != StatusSolved {
		t.Fatalf("auto: method %v, status %v, gap %.3g", ra.Method, ra.Status, ra.Gap)
	}
	if !slices.Equal(ra.X, rd.X) {
		t.Error("auto and dual-cd by name answer differently")
	}
}

// TestSparseSVMAutoCountsStoredColumns: the columns MethodAuto counts are
// those the rows store, explicit zeros included, as the dense path keeps
// them (separableVars): 10 rows storing 400 columns each, one of them
// nonzero, name 4000 columns and go to dual-cd, not to the penalty method
// on 4000 dense columns.
func TestSparseSVMAutoCountsStoredColumns(t *testing.T) {
	const m, n, per = 10, 4000, 400
	a := &mat.Sparse{Rows: m, Cols: n, Ptr: make([]int, m+1)}
	labels := make([]float64, m)
	for i := range m {
		for q := range per {
			v := 0.0
			if q == i {
				v = 1
			}
			a.Idx, a.Val = append(a.Idx, int32(i*per+q)), append(a.Val, v)
		}
		a.Ptr[i+1] = len(a.Idx)
		labels[i] = float64(1 - 2*(i%2))
	}
	p := SVMProblemSparse(labels, a, false)
	res, err := Solve(context.Background(), p, &Options{Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != MethodDualCD || res.Status != StatusSolved {
		t.Fatalf("method %v, status %v", res.Method, res.Status)
	}
}

// TestMemoryEstimateBadSparseRows: MemoryEstimate and CheckMemory read
// sparse rows of A that are not valid without a panic (their p need not
// be valid), and Solve names what is wrong.
func TestMemoryEstimateBadSparseRows(t *testing.T) {
	idx := make([]int32, 5000)
	for k := range idx {
		idx[k] = int32(k)
	}
	idx[4000] = 9000 // beyond N
	for _, c := range []struct {
		name string
		p    Problem
	}{
		{"short Ptr", Problem{N: 5, Ridge: 1, ASparse: &mat.Sparse{Rows: 2, Cols: 5, Ptr: []int{0}}, B: []float64{-1, -1}}},
		{"negative N", Problem{N: -1, Ridge: 1, ASparse: &mat.Sparse{Rows: 1, Cols: 5, Ptr: []int{0, 0}}, B: []float64{-1}}},
		{"index beyond N", Problem{N: 5000, Ridge: 1, ASparse: &mat.Sparse{Rows: 1, Cols: 5000, Ptr: []int{0, 5000}, Idx: idx, Val: make([]float64, 5000)}, B: []float64{-1}}},
	} {
		_ = c.p.MemoryEstimate()
		_ = c.p.CheckMemory(nil)
		if _, err := Solve(context.Background(), &c.p, nil); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// TestSparseRowsSVRG: svrg and catalyst-svrg on sparse rows with rows of
// A (the softplus penalty on the rows, lazysvrg.go) end solved, and agree
// with newton-cg's answer (solved to 1e-12) as their certificate says they
// must: |F(x) - F*| <= 2 gap; each row holds to the tolerance. After SetB
// a warm solve is solved again, against newton-cg's answer of the new
// problem, and allocates nothing. Rows no x satisfies end infeasible, with
// a Farkas vector.
func TestSparseRowsSVRG(t *testing.T) {
	_, s := mushroomsSparse(t)
	n := s.X.Cols
	a := &mat.Sparse{Rows: 3, Cols: n, Ptr: []int{0, 3, 5, 6}, Idx: []int32{0, 1, 2, 4, 9, 20}, Val: []float64{1, 1, 1, -1, 2, 1}}
	const tol = 1e-6
	for _, b := range [][]float64{{-0.3, -0.1, 0.05}, {-0.31, -0.1, 0.05}} {
		p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-2, ASparse: a, B: b}
		ref, err := Solve(context.Background(), p, &Options{Tol: 1e-12, Method: MethodNewtonCG})
		if err != nil || ref.Status != StatusSolved {
			t.Fatalf("newton-cg: %v %v", ref, err)
		}
		for _, m := range []Method{MethodSVRG, MethodCatalyst, MethodAPG} {
			sv, err := NewSolver(&Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-2, ASparse: a, B: []float64{-0.3, -0.1, 0.05}}, &Options{Tol: tol, Method: m})
			if err != nil {
				t.Fatal(err)
			}
			r, err := sv.Solve(context.Background())
			if err == nil && b[0] != -0.3 { // the second b: warm, after SetB
				if err = sv.SetB(b); err == nil {
					if allocs := testing.AllocsPerRun(1, func() { r, err = sv.Solve(context.Background()) }); allocs != 0 {
						t.Errorf("%v: a warm solve after SetB allocates %v times", m, allocs)
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("b %v %v: %v after %d epochs, F %.12g (newton-cg %.12g), gap %.3g, violation %.3g, lambda %.4g (newton-cg %.4g)",
				b, m, r.Status, r.Iterations, r.Objective, ref.Objective, r.Gap, r.MaxViolation, r.Lambda, ref.Lambda)
			if r.Status != StatusSolved || r.Method != m || !(r.Gap <= tol*max(1, math.Abs(r.Objective))) {
				t.Fatalf("%v: %v by %v, gap %.3g (%s)", m, r.Status, r.Method, r.Gap, r.Message)
			}
			if d := math.Abs(r.Objective - ref.Objective); d > 2*r.Gap+ref.Gap {
				t.Errorf("%v: F(x) %.15g, F* %.15g: %.3g apart, beyond twice the gap %.3g", m, r.Objective, ref.Objective, d, r.Gap)
			}
			ax := make([]float64, a.Rows)
			a.MulVec(ax, r.X)
			for i, v := range ax {
				if v-b[i] > tol*max(1, math.Abs(b[i])) {
					t.Errorf("%v: row %d violated by %.3g", m, i, v-b[i])
				}
			}
			if r.Penalty == nil || r.Penalty.Stages == 0 || r.Penalty.Kept+len(r.Penalty.Screened)+len(r.Penalty.Outside) != a.Rows {
				t.Errorf("%v: penalty report %+v", m, r.Penalty)
			} else {
				for _, k := range r.Penalty.Screened {
					if ref.Lambda[k] != 0 {
						t.Errorf("%v: row %d screened, newton-cg's multiplier %g", m, k, ref.Lambda[k])
					}
				}
			}
		}
	}
	inf := &mat.Sparse{Rows: 2, Cols: n, Ptr: []int{0, 2, 4}, Idx: []int32{0, 1, 0, 1}, Val: []float64{1, 1, -1, -1}}
	p := &Problem{N: n, Loss: "logistic", PhiSparse: s.X, Y: s.Labels, Ridge: 1e-2, ASparse: inf, B: []float64{-1, -1}}
	for _, m := range []Method{MethodSVRG, MethodAPG, MethodSGD} {
		r, err := Solve(context.Background(), p, &Options{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusInfeasible || len(r.FarkasA) != 2 || !(r.FarkasA[0] > 0) || r.FarkasA[0] != r.FarkasA[1] {
			t.Fatalf("%v, infeasible rows: status %v, Farkas %v (%s)", m, r.Status, r.FarkasA, r.Message)
		}
	}
}

// TestSparseRowsSVRGEmptyRow: an empty row of A with b = 0 (0 <= 0 at
// every x) beside a binding row x_1 <= -1: svrg and catalyst-svrg solve
// it, give the empty row multiplier 0 and the binding row newton-cg's (2),
// and report the empty row outside the rows they kept (but where
// newton-cg finished a point whose rows held to the tolerance, not to
// rounding: then its answer has no stages to report; svrg and apg must
// report theirs).
func TestSparseRowsSVRGEmptyRow(t *testing.T) {
	a := &mat.Sparse{Rows: 2, Cols: 3, Ptr: []int{0, 0, 1}, Idx: []int32{1}, Val: []float64{1}}
	x := &mat.Sparse{Rows: 1, Cols: 3, Ptr: []int{0, 1}, Idx: []int32{0}, Val: []float64{1}}
	for _, m := range []Method{MethodNewtonCG, MethodSVRG, MethodCatalyst, MethodAPG} {
		p := &Problem{N: 3, Loss: "logistic", PhiSparse: x, Y: []float64{1}, Ridge: 1, ASparse: a, B: []float64{0, -1}, Q: []float64{1, -1, 0}}
		r, err := Solve(context.Background(), p, &Options{Method: m, Tol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %v, lambda %v, x %v, gap %.3g", m, r.Status, r.Lambda, r.X, r.Gap)
		if r.Status != StatusSolved || r.Lambda[0] != 0 || math.Abs(r.Lambda[1]-2) > 1e-3 {
			t.Errorf("%v: %v, lambda %v, want [0 2]", m, r.Status, r.Lambda)
		}
		// Solved: the binding row holds to rounding (x_1 - (-1) is exact),
		// and x* = (x_0*, -1, 0) is within the distance bound.
		if r.X[1] > -1 || math.IsInf(r.DistBound, 1) {
			t.Errorf("%v: x_1 = %.17g, distance bound %g; want x_1 <= -1 and a bound", m, r.X[1], r.DistBound)
		}
		finished := m == MethodCatalyst && r.Method == MethodNewtonCG
		if m != MethodNewtonCG && !finished && (r.Penalty == nil || r.Penalty.Kept != 1 || len(r.Penalty.Outside) != 1 || r.Penalty.Outside[0] != 0) {
			t.Errorf("%v: penalty report %+v, want the empty row outside", m, r.Penalty)
		}
	}
}

// TestSparseRowsSVRGFeasibleFar: feasible rows 1 <= x_0 - x_1 <= 1.25
// with q = (-Q, 0) pull the unconstrained minimiser (Q, 0) far out of
// them. The penalty's saturated multipliers bring such an iterate in by
// O(delta) a step, so before Newton-CG finished these solves svrg ran
// into its time limit from Q = 1e3 on (12M steps) and catalyst-svrg and
// sgd ended on their plateau. Each method must now answer solved within
// 1e6 rows evaluated, at the closed-form optimum x* = (Q - lambda,
// lambda/2), lambda = (Q - 1.25)/1.5, to 1e-3 of Q.
func TestSparseRowsSVRGFeasibleFar(t *testing.T) {
	for _, scale := range []float64{1e3, 1e5, 1e7} {
		for _, m := range []Method{MethodSVRG, MethodCatalyst, MethodAPG, MethodSGD} {
			p := &Problem{N: 2, Loss: "squared", PhiSparse: mat.SparseFromRows([][]float64{{0, 1}}, 2), Y: []float64{0},
				Ridge: 1, Q: []float64{-scale, 0}, ASparse: mat.SparseFromRows([][]float64{{1, -1}, {-1, 1}}, 2), B: []float64{1.25, -1}}
			r, err := Solve(context.Background(), p, &Options{Method: m, MaxSteps: 1e6, TimeLimit: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			label := fmt.Sprintf("q scale %g, %v", scale, m)
			if r.Status != StatusSolved {
				t.Errorf("%s: %v (%s) after %d steps, x %v", label, r.Status, r.Message, r.Steps, r.X)
				continue
			}
			lam := (scale - 1.25) / 1.5
			want := []float64{scale - lam, lam / 2}
			for j, v := range r.X {
				if math.Abs(v-want[j]) > 1e-3*scale {
					t.Errorf("%s: x_%d = %.17g, want %.17g", label, j, v, want[j])
				}
			}
		}
	}
}

// farRowsProblem is TestSparseRowsSVRGFeasibleFar's problem at q scale Q.
func farRowsProblem(q float64) *Problem {
	return &Problem{N: 2, Loss: "squared", PhiSparse: mat.SparseFromRows([][]float64{{0, 1}}, 2), Y: []float64{0},
		Ridge: 1, Q: []float64{-q, 0}, ASparse: mat.SparseFromRows([][]float64{{1, -1}, {-1, 1}}, 2), B: []float64{1.25, -1}}
}

// TestSparseHandoverWarmAndBudget: after Newton-CG has finished a sparse
// penalty solve (TestSparseRowsSVRGFeasibleFar's problem at q = 1e3), a
// warm re-solve goes on with Newton-CG from its answer (it re-ran the
// stochastic method's whole schedule, 200-300 rows evaluated, and handed
// over again), and Result.Method says newton-cg. A step budget that runs
// out around the handover (MaxSteps 700 ends in phase one, 790 and 800
// in Newton-CG's first passes) answers with a certified gap no worse than
// the stochastic method's best at 700 steps (it answered Newton-CG's
// first point, gaps 1.7e5 to 9.9e5 against 1765).
func TestSparseHandoverWarmAndBudget(t *testing.T) {
	for _, m := range []Method{MethodSVRG, MethodAPG} {
		s, err := NewSolver(farRowsProblem(1e3), &Options{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		cold, err := s.Solve(context.Background())
		if err != nil || cold.Status != StatusSolved || cold.Method != MethodNewtonCG {
			t.Fatalf("%v cold: %v by %v, %v", m, cold.Status, cold.Method, err)
		}
		coldSteps := cold.Steps
		warm, err := s.Solve(context.Background())
		if err != nil || warm.Status != StatusSolved || warm.Method != MethodNewtonCG {
			t.Fatalf("%v warm: %v by %v, %v", m, warm.Status, warm.Method, err)
		}
		t.Logf("%v: %d rows evaluated cold, %d warm", m, coldSteps, warm.Steps)
		if warm.Steps > 50 {
			t.Errorf("%v: the warm re-solve evaluated %d rows (cold %d)", m, warm.Steps, coldSteps)
		}
	}
	ref, err := Solve(context.Background(), farRowsProblem(1e3),
		&Options{Method: MethodSVRG, MaxSteps: 700, Penalty: &PenaltyOptions{NoPolish: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{700, 790, 800} {
		r, err := Solve(context.Background(), farRowsProblem(1e3), &Options{Method: MethodSVRG, MaxSteps: budget})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("MaxSteps %d: %v after %d steps by %v, gap %.6g (stochastic alone at 700: %.6g)", budget, r.Status, r.Steps, r.Method, r.Gap, ref.Gap)
		if r.Status != StatusSolved && !(r.Gap <= ref.Gap) {
			t.Errorf("MaxSteps %d: %v with gap %.6g, above the stochastic method's %.6g", budget, r.Status, r.Gap, ref.Gap)
		}
	}
}

// TestSparseRowsSVRGInfeasibleFar: rows that contradict each other, with a
// q that puts the unconstrained minimiser far outside them (q up to 1e6).
// Every sparse method (newton-cg too) ends infeasible, with no limit
// reached, and a Farkas certificate that holds in exact arithmetic: y >=
// 0, A'y = 0, b'y < 0. (svrg and catalyst-svrg raised xi until its
// saturated stages stopped ending, and ran on: a saturated penalty moves
// the iterate by O(delta) a step, so it never reached the point where the
// rows' multipliers show the contradiction. newton-cg ended on its
// iteration limit on "unequal weights": its multipliers approach y = (1,
// 1/2) but only to rounding, which the column test refuses.)
func TestSparseRowsSVRGInfeasibleFar(t *testing.T) {
	cases := []struct {
		name string
		a    [][]float64
		b    []float64
		q    []float64 // times each scale
	}{
		// x1 - x0 <= -1 and x0 - x1 <= 0.5 sum to 0 <= -0.5
		{"two rows", [][]float64{{-1, 1}, {1, -1}}, []float64{-1, 0.5}, []float64{1, -1}},
		// 2 x0 - x1 <= -1, x1 - x2 <= 0, x2 - 2 x0 <= 0 sum to 0 <= -1
		{"three rows", [][]float64{{2, -1, 0}, {0, 1, -1}, {-2, 0, 1}}, []float64{-1, 0, 0}, []float64{-1, 1, 1}},
		// x0 - x1 <= -1 and 2 x1 - 2 x0 <= 0: y = (2, 1), not an indicator
		{"unequal weights", [][]float64{{1, -1}, {-2, 2}}, []float64{-1, 0}, []float64{-1, 1}},
	}
	for _, c := range cases {
		n := len(c.a[0])
		for _, scale := range []float64{1, 1e3, 1e6} {
			for _, m := range []Method{MethodSVRG, MethodCatalyst, MethodAPG, MethodSGD, MethodNewtonCG} {
				q := make([]float64, n)
				for j, v := range c.q {
					q[j] = v * scale
				}
				phi := make([]float64, n)
				phi[0] = 1
				p := &Problem{N: n, Loss: "squared", PhiSparse: mat.SparseFromRows([][]float64{phi}, n), Y: []float64{0},
					Ridge: 1, Q: q, ASparse: mat.SparseFromRows(c.a, n), B: c.b}
				const guard = time.Minute // not meant to be reached
				r, err := Solve(context.Background(), p, &Options{Method: m, TimeLimit: guard})
				if err != nil {
					t.Fatal(err)
				}
				label := fmt.Sprintf("%s, q scale %g, %v", c.name, scale, m)
				t.Logf("%s: %v in %v, %d steps, Farkas %v", label, r.Status, r.Time, r.Steps, r.FarkasA)
				if r.Status != StatusInfeasible || len(r.FarkasA) != len(c.a) {
					t.Errorf("%s: %v (%s), Farkas %v; want infeasible", label, r.Status, r.Message, r.FarkasA)
					continue
				}
				by := new(big.Rat)
				aty := make([]*big.Rat, n)
				for j := range aty {
					aty[j] = new(big.Rat)
				}
				for k, yk := range r.FarkasA {
					if !(yk >= 0) || math.IsInf(yk, 0) {
						t.Fatalf("%s: y[%d] = %g", label, k, yk)
					}
					y := new(big.Rat).SetFloat64(yk)
					by.Add(by, new(big.Rat).Mul(y, new(big.Rat).SetFloat64(c.b[k])))
					for j, akj := range c.a[k] {
						aty[j].Add(aty[j], new(big.Rat).Mul(y, new(big.Rat).SetFloat64(akj)))
					}
				}
				for j, v := range aty {
					if v.Sign() != 0 {
						t.Errorf("%s: (A'y)_%d = %s, want 0", label, j, v.FloatString(20))
					}
				}
				if by.Sign() >= 0 {
					t.Errorf("%s: b'y = %s, want < 0", label, by.FloatString(20))
				}
			}
		}
	}
}

// TestNewtonCGRowsBeyondRounding: x0 - x1 >= 1 and x0 - x1 <= c with q =
// (-1e7, 0), by newton-cg with the rows given densely and sparsely. The
// answer lies at |x| = 3.3e6, where each row's relative test (Tol of its
// terms) passes a violation of 1.41. With c = 0.75 the rows contradict
// each other (their sum is 0 <= -0.25): newton-cg once answered solved
// there; it must answer infeasible with a certificate that holds in exact
// arithmetic. With c = 1.25 (a slab) and c = 1 (the line x0 - x1 = 1) the
// rows are feasible: solved, near x1* = (1e7 - c)/3, x0* = x1* + c, as
// the active-set engine finds.
func TestNewtonCGRowsBeyondRounding(t *testing.T) {
	for _, c := range []float64{0.75, 1.25, 1} {
		p := &Problem{N: 2, Loss: "squared", Phi: [][]float64{{0, 1}}, Y: []float64{0}, Ridge: 1,
			Q: []float64{-1e7, 0}, A: [][]float64{{-1, 1}, {1, -1}}, B: []float64{-1, c}}
		sp := *p
		sp.A, sp.ASparse = nil, mat.SparseFromRows(p.A, p.N)
		sp.Phi, sp.PhiSparse = nil, mat.SparseFromRows(p.Phi, p.N)
		for _, q := range []*Problem{p, &sp} {
			label := fmt.Sprintf("c = %g, sparse rows %v", c, q.ASparse != nil)
			r, err := Solve(context.Background(), q, &Options{Method: MethodNewtonCG, TimeLimit: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v x %v Farkas %v", label, r, r.X, r.FarkasA)
			if c < 1 {
				if r.Status != StatusInfeasible {
					t.Fatalf("%s: %v (%s); want infeasible", label, r.Status, r.Message)
				}
				if err := ratFarkasBox(p, r.FarkasA); err != nil {
					t.Fatalf("%s: certificate %v: %v", label, r.FarkasA, err)
				}
				continue
			}
			x1 := (1e7 - c) / 3
			x0 := x1 + c
			dist := math.Hypot(r.X[0]-x0, r.X[1]-x1)
			if r.Status != StatusSolved || dist > math.Sqrt(2*r.Gap/p.Ridge) || r.MaxViolation > 1e-6*(2*x0+c) {
				t.Errorf("%s: %v (%s), x %v at %.3g from x* = (%v, %v), violation %.3g; want solved",
					label, r.Status, r.Message, r.X, dist, x0, x1, r.MaxViolation)
			}
			if ref, err := Solve(context.Background(), p, nil); err != nil || ref.Status != StatusSolved ||
				math.Hypot(ref.X[0]-x0, ref.X[1]-x1) > 1e-6*x0 {
				t.Errorf("%s: the engine's answer %v (%v), x* = (%v, %v)", label, ref, err, x0, x1)
			}
		}
	}
}

// TestDualCDRowsOfExtremeNorms: sparse rows with b < 0 and norms from
// 1e-18 to 1e62 (found by a scaled hunt): dual coordinate descent's Farkas
// reduction formed a K whose diagonal overflowed, and its damped Newton
// loop (internal/boxqp) spun for good, past any time limit. The solve
// ends, and an answer it does not call solved says why.
func TestDualCDRowsOfExtremeNorms(t *testing.T) {
	p := &Problem{N: 4, Loss: "none", Ridge: 1e-05,
		Q: []float64{-7.179745727028637e-51, -1.8066618602250732e-50, -4.0910093028212997e-51, 4.370345296095203e-51},
		ASparse: &mat.Sparse{Rows: 7, Cols: 4, Ptr: []int{0, 2, 4, 6, 7, 9, 12, 13}, Idx: []int32{0, 2, 1, 3, 2, 3, 0, 2, 3, 1, 2, 3, 0},
			Val: []float64{4.384635636705042e+40, 2.8563643640373742e+41, 4.397922535604862e-19, 9.340703499275404e-19,
				5.683831175118837e+43, 3.80913183144358e+42, -5.957721483436335e-11, -1.8570900029058901e+12,
				-2.4034778506758643e+11, -6.79535029350664e+17, 1.7352157390015818e+18, -8.307022421629843e+17, -8.963492643868792e+61}},
		B: []float64{-4.13444437468453e+98, -5.743796981766959e+74, -1.3214498775436812e+72, -2.8590722132890153e-35,
			-1.6633574745975064e-64, -1.6407395480309266e+47, -3.7969061500156594e-45}}
	done := make(chan *Result, 1)
	go func() {
		res, err := Solve(context.Background(), p, &Options{Method: MethodDualCD, TimeLimit: time.Second})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res != nil && res.Status != StatusSolved && res.Message == "" {
			t.Errorf("%v without a message", res.Status)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the solve did not end in 60 s (its time limit is 1 s)")
	}
}

// TestSparseRowsSolvedMeetRows: on sparse rows with rows of A, the
// iterations of newton-cg and of the penalty methods hold the rows to Tol
// of their terms; a solved answer must meet every row to the rounding of
// its residual (checked in exact arithmetic), as the other paths' do, and
// lie within its distance bound of x* (a Tol 1e-13 newton-cg solve's,
// within its own). The answers that once broke this, solved with rows
// violated by about Tol, are newtoncg's TestSolvedMeetsRows and
// catalyst-svrg's in TestSparseRowsSVRGEmptyRow.
func TestSparseRowsSolvedMeetRows(t *testing.T) {
	g := uint64(17)
	next := func() float64 {
		g = g*6364136223846793005 + 1442695040888963407
		return float64(g>>11) / (1 << 53)
	}
	sparse := func(l, n int, dens float64) *mat.Sparse {
		rows := make([][]float64, l)
		for i := range rows {
			rows[i] = make([]float64, n)
			rows[i][i%n] = next() - 0.5
			for j := range rows[i] {
				if next() < dens {
					rows[i][j] = next() - 0.5
				}
			}
		}
		return mat.SparseFromRows(rows, n)
	}
	for k := 0; k < 4; k++ {
		n, l, m := 12, 60, 10
		p := &Problem{N: n, Loss: []string{"squared", "logistic"}[k%2], PhiSparse: sparse(l, n, 0.3), Y: make([]float64, l),
			Ridge: 0.05, ASparse: sparse(m, n, 0.4), B: make([]float64, m)}
		for i := range p.Y {
			p.Y[i] = float64(2*(i%2) - 1)
		}
		// b from the answer without rows: half of them cut it off (active
		// at x*), the others hold with room.
		free := *p
		free.ASparse, free.B = nil, nil
		fr, err := Solve(context.Background(), &free, &Options{Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.B {
			idx, val := p.ASparse.Row(i)
			var ax float64
			for q, j := range idx {
				ax += val[q] * fr.X[j]
			}
			p.B[i] = ax + 0.05*(next()-0.5)*testqp.Norm(val)
		}
		ref, err := Solve(context.Background(), p, &Options{Method: MethodNewtonCG, Tol: 1e-13})
		if err != nil || ref.Status != StatusSolved || math.IsInf(ref.DistBound, 1) {
			t.Fatalf("problem %d: reference %v (%v)", k, ref, err)
		}
		xs := append([]float64(nil), ref.X...)
		dRef := ref.DistBound
		for _, meth := range []Method{MethodNewtonCG, MethodSVRG, MethodCatalyst, MethodAPG} {
			r, err := Solve(context.Background(), p, &Options{Method: meth, Tol: 1e-6, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("problem %d, %v by %v: %v, gap %.3g, violation %.3g, distance bound %.3g", k, meth, r.Method, r.Status, r.Gap, r.MaxViolation, r.DistBound)
			if r.Status != StatusSolved {
				t.Fatalf("problem %d, %v: %v (%s)", k, meth, r.Status, r.Message)
			}
			for i := 0; i < p.ASparse.Rows; i++ {
				idx, val := p.ASparse.Row(i)
				if v, allow := testqp.RowExcess(idx, val, p.B[i], r.X); v > allow {
					t.Errorf("problem %d, %v by %v: row %d violated by %.3g, rounding allows %.3g", k, meth, r.Method, i, v, allow)
				}
			}
			if d := testqp.Dist(r.X, xs); !(d <= r.DistBound+dRef) {
				t.Errorf("problem %d, %v by %v: %.3g from x*, distance bounds %.3g + %.3g", k, meth, r.Method, d, r.DistBound, dRef)
			}
		}
	}
}
