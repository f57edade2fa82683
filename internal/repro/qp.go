package repro

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/internal/repro/baseline"
)

// QPMethods are the methods of section 6.1 at the settings the paper chose
// in its appendix ("Details for section 6.1"): xi = 1, delta_0 = 0.05,
// step 1/(L + mu + m xi/(4 delta)); Nested-SGD (eta, multiplier) = (4, 0.6)
// of the SGD stage count log(2 eta - 1)(L/mu + m xi/(4 mu delta));
// Nested-SGDM (2, 1, momentum 0.9) of the accelerated count
// (2 log(2 eta - 1) + log K) sqrt(m K), K = L/mu + m xi/(4 mu delta);
// SASC-SGD (omega, multiplier) = (2, 0.36) with initial step 1/(10 L);
// Static-SGDM at the first, the geometric mean and the last delta of the
// Nested-SGDM schedule, with Nested-SGDM's step, momentum and stage count.
func QPMethods() []Method {
	sgdm := func(name string, kind Kind, which StaticWhich, note string) Method {
		return Method{Name: name, Kind: kind, Inner: softpen.MethodSGDM, Which: which, Eta: 2, Delta0: 0.05, Xi: 1, FixedXi: true,
			Screen: softpen.ScreenNone, StageMult: 1, Momentum: 0.9, Note: note}
	}
	return colored([]Method{
		{Name: "SASC-SGD", Kind: KindSASC, SASC: baseline.SASC{Omega: 2, Mult: 0.36}, Note: "omega 2, mult 0.36, gamma0 1/(10L)"},
		{Name: "Nested-SGD", Kind: KindNested, Inner: softpen.MethodSGD, Eta: 4, Delta0: 0.05, Xi: 1, FixedXi: true, Screen: softpen.ScreenNone, StageMult: 0.6, Note: "eta 4, mult 0.6, xi 1, delta0 0.05"},
		sgdm("Nested-SGDM", KindNested, 0, "eta 2, mult 1 (accelerated count), momentum 0.9, xi 1, delta0 0.05"),
		sgdm("Static-SGDM-first", KindStatic, StaticFirst, "delta = first delta of Nested-SGDM"),
		sgdm("Static-SGDM-geo", KindStatic, StaticGeo, "delta = geometric mean of first and last"),
		sgdm("Static-SGDM-last", KindStatic, StaticLast, "delta = last delta of Nested-SGDM"),
		{Name: "NT", Kind: KindNT, NT: baseline.NT{Gamma0: 1, Delta0: 0.05}, Note: "Nedich-Tatarenko, gamma0 1, delta0 0.05 (our schedules)"},
	})
}

// QPConfig configures `softpen repro qp`.
type QPConfig struct {
	Sims     int
	Steps    int64
	Out      string
	Testdata string // directory with paper-qp-100-s*.json (and .ref.json); "" or missing: generate all
	Methods  string // comma-separated names, "" for all
	Workers  int
	Grid     bool      // also run the appendix's parameter grids (QPGrid)
	Log      io.Writer // progress lines; nil for none
}

// QPInstances returns the sims instances: seed i uses
// Testdata/paper-qp-100-s<i>.json when it exists (the shared, numpy-drawn
// instances with cvxopt references) and our own generator otherwise; every
// reference is our polished solve, checked against the .ref.json file.
func QPInstances(sims int, testdata string) ([]*Instance, error) {
	ins := make([]*Instance, sims)
	errs := make([]error, sims)
	var wg sync.WaitGroup
	for i := range ins {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			seed := i + 1
			var p *softpen.Problem
			var ref string
			if testdata != "" {
				path := filepath.Join(testdata, fmt.Sprintf("paper-qp-100-s%d.json", seed))
				if f, err := os.Open(path); err == nil {
					p, err = softpen.ReadProblem(f)
					f.Close()
					if err != nil {
						errs[i] = fmt.Errorf("%s: %v", path, err)
						return
					}
					if p.Name == "" {
						p.Name = filepath.Base(path)
					}
					ref = filepath.Join(testdata, fmt.Sprintf("paper-qp-100-s%d.ref.json", seed))
				}
			}
			if p == nil {
				p = GenerateQP(uint64(seed), 100, 100, 100, 0.1)
			}
			in, err := newInstance(p.Name, p)
			if err == nil {
				err = in.solveReference()
			}
			if err == nil && ref != "" {
				if _, e := os.Stat(ref); e == nil {
					err = in.checkAgainst(ref)
				}
			}
			ins[i], errs[i] = in, err
		}(i)
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	return ins, nil
}

// RunQP runs the QP experiment and writes its files into cfg.Out; the
// summary is written to stdout and to cfg.Out/summary.txt.
func RunQP(cfg QPConfig, stdout io.Writer) error {
	methods, err := Select(QPMethods(), cfg.Methods)
	if err != nil {
		return err
	}
	if cfg.Sims < 1 || cfg.Steps < observeEvery {
		return fmt.Errorf("want sims >= 1 and steps >= %d", observeEvery)
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return err
	}
	logf := logger(cfg.Log)
	t0 := time.Now()
	ins, err := QPInstances(cfg.Sims, cfg.Testdata)
	if err != nil {
		return err
	}
	logf("repro qp: %d instances and references in %v\n", len(ins), time.Since(t0).Round(time.Millisecond))
	workers := max(cfg.Workers, 1)
	all, err := runQPMethods(ins, methods, cfg.Steps, workers, logf)
	if err != nil {
		return err
	}
	groups := byMethod(methods, all)
	var sum bytes.Buffer
	qpSummary(&sum, cfg, ins, workers, methods, groups)
	fmt.Fprint(stdout, sum.String())

	if err := writeRuns(cfg.Out, "qp", all); err != nil {
		return err
	}
	figs := &figures{dir: cfg.Out}
	if err := qpFigures(figs, cfg, methods, groups); err != nil {
		return err
	}
	if cfg.Grid {
		var gs bytes.Buffer
		gfigs, err := runGrid(ins, QPGrid(), cfg.Steps, workers, cfg.Out, &gs, logf)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, gs.String())
		sum.Write(gs.Bytes())
		figs.list = append(figs.list, gfigs...)
	}
	if err := os.WriteFile(filepath.Join(cfg.Out, "summary.txt"), sum.Bytes(), 0o644); err != nil {
		return err
	}
	return writeIndex(cfg.Out, "softpen repro qp", sum.String(), figs.list)
}

// qpScheduleMethod is Nested-SGDM, whose delta schedule on an instance
// sets the deltas of the static runs on it.
func qpScheduleMethod() Method {
	var sgdm Method
	for _, m := range QPMethods() {
		if m.Name == "Nested-SGDM" {
			sgdm = m
		}
	}
	return sgdm
}

// runQPMethods runs every method on every instance (workers instances at a
// time, simulation i+1 seeded with i+1) and returns the runs, instance by
// instance, or the first run's error.
func runQPMethods(ins []*Instance, methods []Method, steps int64, workers int, logf func(string, ...any)) ([]*Run, error) {
	needSched := false
	for _, m := range methods {
		needSched = needSched || m.Kind == KindStatic
	}
	sgdm := qpScheduleMethod()
	runs := make([][]*Run, len(ins))
	var mu sync.Mutex
	parallel(len(ins), workers, func(i int) {
		sim := i + 1
		out := runQPSim(ins[i], sim, methods, sgdm, needSched, steps)
		mu.Lock()
		runs[i] = out
		logf("repro qp: sim %d done\n", sim)
		mu.Unlock()
	})
	var all []*Run
	for _, rs := range runs {
		for _, r := range rs {
			if r.Err != nil {
				return nil, fmt.Errorf("%s on %s: %v", r.Method, r.Instance, r.Err)
			}
			all = append(all, r)
		}
	}
	return all, nil
}

// runQPSim runs the methods on one instance, simulation sim. Nested-SGDM
// (sgdm) runs first: the static runs take their deltas from its schedule
// on the same instance (it is run, and reported only if selected, when a
// static method needs it).
func runQPSim(in *Instance, sim int, methods []Method, sgdm Method, needSched bool, steps int64) []*Run {
	seed := uint64(sim)
	var sched *Run
	var out []*Run
	if selected(methods, sgdm.Name) || needSched {
		sched = RunMethod(in, sgdm, sim, steps, seed, 0, 0)
		if selected(methods, sgdm.Name) {
			out = append(out, sched)
		}
	}
	for _, m := range methods {
		if m.Name == sgdm.Name {
			continue
		}
		var d0, dl float64
		if sched != nil {
			d0, dl = sched.Delta0, sched.DeltaEnd
		}
		out = append(out, RunMethod(in, m, sim, steps, seed, d0, dl))
	}
	return out
}

// qpSummary writes the summary: the instances and their references, the
// range of ||lambda*||_inf against the paper's xi, and the table of methods.
func qpSummary(sum io.Writer, cfg QPConfig, ins []*Instance, workers int, methods []Method, groups [][]*Run) {
	fmt.Fprintf(sum, "softpen repro qp: the paper's QP (section 6.1), l = m = n = 100, ridge 0.1; %d simulations, %d steps each, from x = 0\n", cfg.Sims, cfg.Steps)
	nref, worstRef, kkt, gap := 0, 0.0, 0.0, 0.0
	lmin, lmax := math.Inf(1), 0.0
	for _, in := range ins {
		if !math.IsNaN(in.RefCheck) {
			nref++
			worstRef = max(worstRef, in.RefCheck)
		}
		kkt, gap = max(kkt, in.RefKKT), max(gap, in.RefGap)
		lmin, lmax = min(lmin, in.LambdaInf), max(lmax, in.LambdaInf)
	}
	fmt.Fprintf(sum, "instances: %d from %s (cvxopt references), %d generated; %s", nref, cfg.Testdata, len(ins)-nref, refSource(kkt, gap))
	if nref > 0 {
		fmt.Fprintf(sum, "; worst ||x* - x_cvxopt|| / ||x_cvxopt|| = %.2e", worstRef)
	}
	fmt.Fprintf(sum, "\n||lambda*||_inf (unit rows) from %.3g to %.3g; the nested runs use xi = 1 (paper: xi = 1 with ||lambda*||_inf = 0.027)\n", lmin, lmax)
	fmt.Fprintf(sum, "time/run is solver time without the error and gap evaluations; %d runs in parallel\n\n", workers)
	Summary(sum, methods, groups)
}

// qpFigures draws the paper's four figures of section 6.1: final errors of
// the nested methods and the baselines, final errors of Static-SGDM against
// Nested-SGDM, and the median error and gap curves.
func qpFigures(figs *figures, cfg QPConfig, methods []Method, groups [][]*Run) error {
	mNest, gNest := byKind(methods, groups, KindSASC, KindNested, KindNT)
	mStat, gStat := byKind(methods, groups, KindStatic)
	sgdm := qpScheduleMethod()
	for i, m := range methods {
		if m.Name == sgdm.Name {
			mStat, gStat = append([]Method{m}, mStat...), append([][]*Run{groups[i]}, gStat...)
		}
	}
	mGap, gGap := byKind(methods, groups, KindNested, KindStatic)
	steps := fmt.Sprintf("%.3g", float64(cfg.Steps))
	for _, f := range []struct {
		name, caption string
		p             interface{ WriteSVG(io.Writer) error }
	}{
		{"qp_box_methods.svg", "Relative errors after " + steps + " steps in " + fmt.Sprint(cfg.Sims) + " simulations (paper: Fig. Fig_qp_bp_nested)", boxPlot("QP: final relative error, "+steps+" steps", mNest, gNest)},
		{"qp_box_static.svg", "Relative errors of Static-SGDM (first, geometric mean, last delta of Nested-SGDM) after " + steps + " steps (paper: Fig_qp_bp_static)", boxPlot("QP: Static-SGDM vs Nested-SGDM, "+steps+" steps", mStat, gStat)},
		{"qp_relerr.svg", "Convergence of the relative error, median over simulations (paper: Fig_qp_os)", curvePlot("QP: relative error (median over simulations)", "||x - x*|| / ||x*||", methods, groups, func(r *Run) []float64 { return r.RelErr })},
		{"qp_gap.svg", "Minimal duality gap min_s F_{xi,0}(x_s) - G(lambda_s), median over simulations (paper: Fig_qp_dg)", curvePlot("QP: minimal duality gap (median over simulations)", "min gap so far", mGap, gGap, func(r *Run) []float64 { return r.MinGap() })},
	} {
		if err := figs.add(f.name, f.caption, f.p); err != nil {
			return err
		}
	}
	return nil
}

// byKind returns the methods of the given kinds, in their order, with
// their groups of runs.
func byKind(methods []Method, groups [][]*Run, kinds ...Kind) ([]Method, [][]*Run) {
	return pick(methods, groups, func(m Method) bool { return slices.Contains(kinds, m.Kind) })
}

func selected(ms []Method, name string) bool {
	for _, m := range ms {
		if m.Name == name {
			return true
		}
	}
	return false
}
