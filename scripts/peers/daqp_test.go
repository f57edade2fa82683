//go:build daqp

package peers

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/activeset"
	"github.com/softpen/softpen/internal/qpgen"
	"github.com/softpen/softpen/internal/testqp"
)

// qpCase is one QP in softpen's form and in DAQP's, with each solver's
// answer from a first, untimed solve (checked to agree).
type qpCase struct {
	sp     *softpen.Problem
	dq     *DAQP
	xs, xd []float64 // softpen's and DAQP's answers
}

// family is a set of QPs that one benchmark op solves, each once.
type family struct {
	name string
	qps  []*qpCase
	mpc  *testqp.MPCRun // the sequence, for the MPC families
	tol  float64        // the agreement asked of the answers (agree)
}

// agreeTol is the agreement asked of the two solvers' answers, ||x -
// x_other|| <= tol max(1, ||x_other||), on every family but those of
// looseAgreement.
const agreeTol = 1e-6

// looseAgreement are the families on which the answers are asked to agree
// to less, and to what. On the quadcopter at N = 50 (cond(H) about 8e8)
// DAQP's answers are up to 3.7e-6 off softpen's (seed 1, 100 steps);
// against the solution of the KKT system of softpen's active set in 300-bit
// arithmetic (steps 1 and 2), softpen's are off by 1.4e-8 and 1.3e-8
// relative, DAQP's by 1.7e-6 and 4.6e-7, and DAQP's primal_tol (1e-6 to
// 1e-12) does not change them.
var looseAgreement = map[string]float64{"mpc-quadcopter-N50": 1e-5}

func (f *family) agree(x, ref []float64) error {
	if d, r := testqp.Dist(x, ref), testqp.Norm(ref); d > f.tol*max(1, r) {
		return fmt.Errorf("answers differ by %.3g (norm %.3g), more than %g relative", d, r, f.tol)
	}
	return nil
}

// mpcSteps is the length of the MPC sequences (seed 1); 20 under -short.
func mpcSteps() int {
	if testing.Short() {
		return 20
	}
	return 100
}

var (
	familiesOnce sync.Once
	families     []*family
	familiesErr  error
)

// allFamilies builds the QP families once: the paper's QPs (testdata/qp,
// seeds 1-5), two small separable SVMs (testqp.SeparableSVM, seed 7, hard
// margin: H = I, rows -y_i a_i'x <= -1) and the MPC sequences
// (testqp.MPCSequence at testqp.MPCHorizons), each QP solved once by both
// solvers and their answers compared.
func allFamilies() ([]*family, error) {
	familiesOnce.Do(func() { families, familiesErr = buildFamilies() })
	return families, familiesErr
}

func buildFamilies() ([]*family, error) {
	var fams []*family
	paper := &family{name: "paper-qp"}
	for seed := 1; seed <= 5; seed++ {
		p, _, err := testqp.Paper("../../testdata/qp", seed)
		if err != nil {
			return nil, err
		}
		paper.qps = append(paper.qps, paperCase(p))
	}
	fams = append(fams, paper)
	for _, sz := range [][2]int{{100, 4}, {360, 64}} {
		labels, points := testqp.SeparableSVM(sz[0], sz[1], 7)
		sp := softpen.SVMProblem(labels, points, false)
		id := make([][]float64, sp.N)
		for i := range id {
			id[i] = make([]float64, sp.N)
			id[i][i] = 1
		}
		dq := NewDAQP(id, make([]float64, sp.N), nil, nil, sp.A, sp.B)
		fams = append(fams, &family{name: fmt.Sprintf("svm-m%d-n%d", sz[0], sz[1]), qps: []*qpCase{{sp: sp, dq: dq}}})
	}
	for _, sys := range testqp.MPCSystems {
		for _, h := range testqp.MPCHorizons(sys) {
			run, err := testqp.MPCSequence(sys, h, mpcSteps(), 1)
			if err != nil {
				return nil, err
			}
			f := &family{name: fmt.Sprintf("mpc-%s-N%d", sys, h), mpc: run}
			for _, st := range run.Steps {
				sp := &softpen.Problem{N: run.N, P: run.H, Q: st.Q, Lower: run.Lower, Upper: run.Upper, A: run.A, B: st.B}
				f.qps = append(f.qps, &qpCase{sp: sp, dq: NewDAQP(run.H, st.Q, run.Lower, run.Upper, run.A, st.B)})
			}
			fams = append(fams, f)
		}
	}
	for _, f := range fams {
		f.tol = agreeTol
		if t, ok := looseAgreement[f.name]; ok {
			f.tol = t
		}
		for k, c := range f.qps {
			res, err := softpen.Solve(context.Background(), c.sp, nil)
			if err != nil {
				return nil, fmt.Errorf("%s QP %d: softpen: %v", f.name, k, err)
			}
			if res.Status != softpen.StatusSolved {
				return nil, fmt.Errorf("%s QP %d: softpen: status %v", f.name, k, res.Status)
			}
			c.xs = slices.Clone(res.X)
			if err := c.dq.Cold(); err != nil {
				return nil, fmt.Errorf("%s QP %d: %v", f.name, k, err)
			}
			c.xd = slices.Clone(c.dq.X())
			if err := f.agree(c.xs, c.xd); err != nil {
				return nil, fmt.Errorf("%s QP %d: %v", f.name, k, err)
			}
		}
	}
	return fams, nil
}

// paperCase is a paper QP: for softpen as it is (squared loss on Phi, y,
// ridge, rows), for DAQP the same objective written out in float64,
// H = Phi'Phi/l + ridge I and f = -Phi'y/l.
func paperCase(p *testqp.Problem) *qpCase {
	n, l := p.N, float64(len(p.Phi))
	h := make([][]float64, n)
	f := make([]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	for k, phi := range p.Phi {
		for i := range n {
			for j := range n {
				h[i][j] += phi[i] * phi[j] / l
			}
			f[i] -= phi[i] * p.Y[k] / l
		}
	}
	for i := range h {
		h[i][i] += p.Ridge
	}
	sp := &softpen.Problem{Name: p.Name, N: n, Loss: p.Loss, Phi: p.Phi, Y: p.Y, Ridge: p.Ridge, A: p.A, B: p.B}
	return &qpCase{sp: sp, dq: NewDAQP(h, f, nil, nil, p.A, p.B)}
}

// solveStats collects the time of each solve and the solvers' iterations
// (softpen: working-set changes; DAQP: its iteration count).
type solveStats struct {
	times []time.Duration
	iters int
}

func (st *solveStats) add(dt time.Duration, iters int) {
	st.times = append(st.times, dt)
	st.iters += iters
}

// median is the median of the solve times (it sorts them).
func (st *solveStats) median() time.Duration {
	slices.Sort(st.times)
	return st.times[len(st.times)/2]
}

// report gives the median and p99 of the solve times and the mean
// iterations.
func (st *solveStats) report(b *testing.B) {
	n := len(st.times)
	b.ReportMetric(float64(st.median().Nanoseconds()), "median-ns")
	b.ReportMetric(float64(st.times[min(n-1, int(math.Ceil(0.99*float64(n)))-1)].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(st.iters)/float64(n), "iterations")
}

// softpenCold is one cold softpen solve of c, a QP of f (NewSolver +
// Solve, MethodAuto; with s not nil, s.Load + Solve in s's storage),
// checked: solved, and x agreeing with DAQP's answer.
func softpenCold(b *testing.B, st *solveStats, f *family, c *qpCase, s *softpen.Solver) {
	t0 := time.Now()
	var err error
	if s == nil {
		s, err = softpen.NewSolver(c.sp, nil)
	} else {
		err = s.Load(c.sp)
	}
	if err != nil {
		b.Fatal(err)
	}
	res, err := s.Solve(context.Background())
	dt := time.Since(t0)
	if err != nil {
		b.Fatal(err)
	}
	if res.Status != softpen.StatusSolved {
		b.Fatalf("softpen: status %v", res.Status)
	}
	if err := f.agree(res.X, c.xd); err != nil {
		b.Fatalf("softpen against DAQP: %v", err)
	}
	st.add(dt, res.Iterations)
}

// BenchmarkDAQPCold: each QP of a family solved from scratch by softpen
// (NewSolver + Solve, MethodAuto; impl=softpen-load: Load + Solve in one
// Solver's storage) and by DAQP (daqp_quadprog: set-up,
// solve, free), interleaved in one run (qp=FAMILY/impl=...). ns/op solves
// the whole family once; median-ns and p99-ns are of single solves. Every
// answer is checked against the other solver's (family.agree) and softpen's
// status must be solved.
func BenchmarkDAQPCold(b *testing.B) {
	fams, err := allFamilies()
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range fams {
		b.Run("qp="+f.name+"/impl=softpen", func(b *testing.B) {
			var st solveStats
			for b.Loop() {
				for _, c := range f.qps {
					softpenCold(b, &st, f, c, nil)
				}
			}
			st.report(b)
		})
		b.Run("qp="+f.name+"/impl=softpen-load", func(b *testing.B) {
			s, err := softpen.NewSolver(f.qps[0].sp, nil)
			if err != nil {
				b.Fatal(err)
			}
			var st solveStats
			for b.Loop() {
				for _, c := range f.qps {
					softpenCold(b, &st, f, c, s)
				}
			}
			st.report(b)
		})
		b.Run("qp="+f.name+"/impl=daqp", func(b *testing.B) {
			var st solveStats
			for b.Loop() {
				for _, c := range f.qps {
					t0 := time.Now()
					err := c.dq.Cold()
					dt := time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
					if err := f.agree(c.dq.X(), c.xs); err != nil {
						b.Fatalf("DAQP against softpen: %v", err)
					}
					st.add(dt, c.dq.Iterations())
				}
			}
			st.report(b)
		})
	}
}

// BenchmarkDAQPMPCLoop: the MPC sequences step by step, as a controller
// runs them. DAQP sets its workspace up once (untimed) and per step takes
// in the new f and b (daqp_update_ldp) and solves from the last working
// set; softpen cold solves each step from scratch (NewSolver + Solve), and
// softpen warm keeps one Solver and per step takes the new q and b (SetQ,
// SetB) and solves from its last working set, as DAQP does. ns/op runs the
// whole sequence once; median-ns and p99-ns are of single steps. Every
// answer is checked as in BenchmarkDAQPCold.
func BenchmarkDAQPMPCLoop(b *testing.B) {
	fams, err := allFamilies()
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range fams {
		if f.mpc == nil {
			continue
		}
		b.Run("qp="+f.name+"/impl=softpen", func(b *testing.B) {
			var st solveStats
			for b.Loop() {
				for _, c := range f.qps {
					softpenCold(b, &st, f, c, nil)
				}
			}
			st.report(b)
		})
		b.Run("qp="+f.name+"/impl=softpen-warm", func(b *testing.B) {
			run := f.mpc
			s, err := softpen.NewSolver(f.qps[0].sp, nil)
			if err != nil {
				b.Fatal(err)
			}
			var st solveStats
			for b.Loop() {
				for k, step := range run.Steps {
					t0 := time.Now()
					if err := s.SetQ(step.Q); err != nil {
						b.Fatal(err)
					}
					if err := s.SetB(step.B); err != nil {
						b.Fatal(err)
					}
					res, err := s.Solve(context.Background())
					dt := time.Since(t0)
					if err != nil || res.Status != softpen.StatusSolved {
						b.Fatalf("step %d: %v %v", k, err, res.Status)
					}
					if err := f.agree(res.X, f.qps[k].xd); err != nil {
						b.Fatalf("step %d: softpen against DAQP: %v", k, err)
					}
					st.add(dt, res.Iterations)
				}
			}
			st.report(b)
		})
		b.Run("qp="+f.name+"/impl=daqp", func(b *testing.B) {
			run := f.mpc
			d := NewDAQP(run.H, run.Steps[0].Q, run.Lower, run.Upper, run.A, run.Steps[0].B)
			defer d.Free()
			if err := d.Setup(); err != nil {
				b.Fatal(err)
			}
			var st solveStats
			for b.Loop() {
				for k, s := range run.Steps {
					t0 := time.Now()
					err := d.Resolve(s.Q, s.B)
					dt := time.Since(t0)
					if err != nil {
						b.Fatalf("step %d: %v", k, err)
					}
					if err := f.agree(d.X(), f.qps[k].xs); err != nil {
						b.Fatalf("step %d: DAQP against softpen: %v", k, err)
					}
					st.add(dt, d.Iterations())
				}
			}
			st.report(b)
		})
	}
}

// genCase is one QP of the generator's families (internal/qpgen) for the
// active-set engine alone (H given) and for DAQP, with the engine's answer
// from a first, untimed solve.
type genCase struct {
	ap *activeset.Problem
	dq *DAQP
	x  []float64
}

// genFamilyN is the order of the generated QPs set beside DAQP: the n of
// the solve-call target of the small-problem issue.
const genFamilyN = 100

// genCases returns the feasible QPs of family fam at order n, seeds 1-3
// (a QP the generator builds infeasible, or so near degenerate that it may
// be undecided in float64, has no answer to compare), each solved once by
// the engine, which must solve it.
func genCases(b *testing.B, fam string, n int) []*genCase {
	var cs []*genCase
	for seed := uint64(1); seed <= 3; seed++ {
		q := qpgen.Generate(fam, n, seed)
		if q.Infeasible || q.MayBeUndecided {
			continue
		}
		ap := &activeset.Problem{N: q.N, H: testqp.Dense(q.H), C: q.C, ARows: q.A, B: q.B,
			Aeq: testqp.Dense(q.Aeq), Beq: q.Beq, Lower: q.Lower, Upper: q.Upper}
		lower, upper := q.Lower, q.Upper
		if (lower == nil) != (upper == nil) {
			lower, upper = infIfNil(lower, q.N, -1), infIfNil(upper, q.N, 1)
		}
		s, err := activeset.New(ap, nil)
		if err != nil {
			b.Fatalf("%s seed %d: %v", fam, seed, err)
		}
		r := s.Solve(context.Background())
		if r.Status != activeset.StatusSolved {
			b.Fatalf("%s seed %d: engine status %v", fam, seed, r.Status)
		}
		c := &genCase{ap: ap, dq: NewDAQPEq(q.H, q.C, lower, upper, q.A, q.B, q.Aeq, q.Beq), x: slices.Clone(r.X)}
		// What DAQP's answer is, beside the engine's, judged as the
		// engine's tests judge answers (qpgen.PrimalBackward: the
		// constraints' backward error in units of eps; the near-copy
		// families' judge).
		err = c.dq.Cold()
		b.Logf("%s seed %d: DAQP exit %v, ||x_daqp - x_engine|| = %.3g (||x|| %.3g), backward error engine %.3g, DAQP %.3g",
			fam, seed, err, testqp.Dist(c.dq.X(), c.x), testqp.Norm(c.x), qpgen.PrimalBackward(q, c.x), qpgen.PrimalBackward(q, c.dq.X()))
		cs = append(cs, c)
	}
	return cs
}

// infIfNil is v, or n entries of sign Inf when v is nil.
func infIfNil(v []float64, n, sign int) []float64 {
	if v != nil {
		return v
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = math.Inf(sign)
	}
	return w
}

// BenchmarkDAQPFamilies: the generator's hard QPs (internal/qpgen, every
// family, n = 100, the feasible ones of seeds 1-3) solved cold by the
// active-set engine alone (package activeset, H given: New + Solve) and by
// DAQP (daqp_quadprog), interleaved in one run (family=F/impl=...).
// median-ns and p99-ns are of whole cold solves; solve-ns is the median of
// the solve call alone, from an empty working set: the engine's Solve
// after New (which factors H and takes the rows' norms), DAQP's daqp_solve
// after setup_daqp (which factors H and transforms every row by it).
// Equalities go to DAQP as rows of sense active and immutable. The engine
// must solve every QP. Of DAQP's solves, of either kind, flagged is the
// share that end without an optimal exit flag, disagree the share that
// end with one but an x farther than agreeTol (relative) from the
// engine's; the benchmark's log judges each QP's first DAQP answer.
func BenchmarkDAQPFamilies(b *testing.B) {
	for _, fam := range qpgen.Families() {
		cs := genCases(b, fam, genFamilyN)
		if len(cs) == 0 {
			continue
		}
		f := &family{name: fam, tol: agreeTol}
		b.Run(fmt.Sprintf("family=%s/n=%d/impl=engine", fam, genFamilyN), func(b *testing.B) {
			var cold, call solveStats
			for b.Loop() {
				for _, c := range cs {
					t0 := time.Now()
					s, err := activeset.New(c.ap, nil)
					if err != nil {
						b.Fatal(err)
					}
					t1 := time.Now()
					r := s.Solve(context.Background())
					t2 := time.Now()
					if r.Status != activeset.StatusSolved {
						b.Fatalf("engine status %v", r.Status)
					}
					cold.add(t2.Sub(t0), r.Steps)
					call.add(t2.Sub(t1), 0)
				}
			}
			cold.report(b)
			b.ReportMetric(float64(call.median().Nanoseconds()), "solve-ns")
		})
		b.Run(fmt.Sprintf("family=%s/n=%d/impl=daqp", fam, genFamilyN), func(b *testing.B) {
			var cold, call solveStats
			flagged, disagree := 0, 0
			check := func(c *genCase, err error) {
				switch {
				case err != nil:
					flagged++
				case f.agree(c.dq.X(), c.x) != nil:
					disagree++
				}
			}
			for b.Loop() {
				for _, c := range cs {
					t0 := time.Now()
					err := c.dq.Cold()
					cold.add(time.Since(t0), c.dq.Iterations())
					check(c, err)
					if err := c.dq.Setup(); err != nil {
						b.Fatal(err)
					}
					t0 = time.Now()
					err = c.dq.Solve()
					call.add(time.Since(t0), 0)
					check(c, err)
				}
			}
			cold.report(b)
			b.ReportMetric(float64(call.median().Nanoseconds()), "solve-ns")
			b.ReportMetric(float64(flagged)/float64(2*b.N*len(cs)), "flagged")
			b.ReportMetric(float64(disagree)/float64(2*b.N*len(cs)), "disagree")
		})
	}
}
