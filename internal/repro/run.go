package repro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/internal/repro/baseline"
	"github.com/softpen/softpen/internal/svgplot"
)

// Kind is the family of a method.
type Kind int

const (
	KindNested Kind = iota // Algorithm 1 (or 2 with screening) through softpen.Solve
	KindStatic             // one fixed delta (Cor. 3.5)
	KindSASC               // baseline.SASC
	KindNT                 // baseline.NT
)

// StaticWhich says which delta of the Nested-SGDM schedule a static run uses.
type StaticWhich int

const (
	StaticFirst StaticWhich = iota // delta_0
	StaticGeo                      // sqrt(delta_0 delta_last)
	StaticLast                     // the last delta Nested-SGDM reached
)

// Method is one method of an experiment with its settings.
type Method struct {
	Name      string
	Kind      Kind
	Inner     softpen.Method
	Eta       float64
	Delta0    float64
	Xi        float64
	FixedXi   bool
	Screen    softpen.ScreenRule
	Theory    bool    // stage targets: the practical mu*delta/4, or the theory's sqrt(2 mu eps_t)
	StepsFrac float64 // fraction of the step budget (SVRG: 5/6, the paper's SVM setting); 0 means 1
	StageMult float64 // softpen.PenaltyOptions.StageMult: the paper's multiplier of its inner iteration count; 0 means the solver's
	Momentum  float64 // softpen.PenaltyOptions.Momentum (SGDM's beta); 0 means the solver's 0.9
	StepScale float64 // softpen.PenaltyOptions.StepScale: the step in units of 1/(L + mu + m xi/(4 delta)); 0 means the solver's (for SGDM: 1, the paper's step)
	SVRGEpoch float64 // softpen.PenaltyOptions.SVRGEpoch: stochastic steps between SVRG's full gradients, in units of N; 0 means 2
	Which     StaticWhich
	SASC      baseline.SASC
	NT        baseline.NT
	Note      string // the settings, for the summary
	Color     string // the method's colour in every figure
}

// colored gives each method a fixed colour of the plot cycle, so that a
// method looks the same in every figure of an experiment.
func colored(ms []Method) []Method {
	for i := range ms {
		ms[i].Color = svgplot.Color(i)
	}
	return ms
}

// Stage is one stage of a nested run as the Progress callback reported it.
type Stage struct {
	Index        int
	Delta, Xi    float64
	Steps        int64
	Kept         int
	StageGapCert float64
}

// Run is the record of one method on one instance.
type Run struct {
	Method   string
	Sim      int
	Instance string
	Steps    []int64   // observation points
	RelErr   []float64 // ||x - x*|| / ||x*|| at each
	Gap      []float64 // the paper's duality gap (NaN for the baselines)
	Final    float64   // relative error at the last observation
	Time     time.Duration
	Stages   []Stage
	Dropped  []int // rows screened out (screening runs)
	Delta0   float64
	DeltaEnd float64 // last delta of a nested run
	Err      error
}

// MinGap returns the running minimum of the gap, the quantity of the
// paper's gap figures.
func (r *Run) MinGap() []float64 {
	out := make([]float64, len(r.Gap))
	m := math.Inf(1)
	for i, g := range r.Gap {
		if !math.IsNaN(g) {
			m = min(m, g)
		}
		out[i] = m
		if math.IsInf(m, 1) {
			out[i] = math.NaN()
		}
	}
	return out
}

// StepsTo returns the first observed step count at which the relative
// error is <= tol, or -1.
func (r *Run) StepsTo(tol float64) int64 {
	for i, e := range r.RelErr {
		if e <= tol {
			return r.Steps[i]
		}
	}
	return -1
}

// observeEvery is the paper's recording period (appendix: "calculated every
// 1000 steps").
const observeEvery = 1000

// RunMethod runs method m on instance in for budget steps with the given
// seed. For a static method, d0 and dLast are the first and last delta of
// the Nested-SGDM schedule on the same instance, from which its delta is
// taken; other methods ignore them.
func RunMethod(in *Instance, m Method, sim int, budget int64, seed uint64, d0, dLast float64) *Run {
	r := &Run{Method: m.Name, Sim: sim, Instance: in.Name}
	if m.StepsFrac > 0 {
		budget = int64(float64(budget) * m.StepsFrac)
	}
	switch m.Kind {
	case KindNested, KindStatic:
		if r.Err = runNested(r, in, m, budget, seed, d0, dLast); r.Err != nil {
			return r
		}
	case KindSASC, KindNT:
		r.Err = runBaseline(r, in, m, budget, seed)
	}
	if n := len(r.RelErr); n > 0 {
		r.Final = r.RelErr[n-1]
	} else {
		r.Final = math.NaN()
	}
	return r
}

// observer returns the Observe callback that records x's relative error and
// gap(x) into r at step k, and the time it took (to leave out of r.Time).
func (r *Run) observer(in *Instance, gap func(x []float64) float64, spent *time.Duration) func(k int64, x []float64) {
	return func(k int64, x []float64) {
		t0 := time.Now()
		r.Steps = append(r.Steps, k)
		r.RelErr = append(r.RelErr, in.RelErr(x))
		r.Gap = append(r.Gap, gap(x))
		*spent += time.Since(t0)
	}
}

// staticDelta is the delta of a static method: the first, the last or the
// geometric mean of the first and last delta of Nested-SGDM's schedule.
func staticDelta(which StaticWhich, d0, dLast float64) float64 {
	switch which {
	case StaticFirst:
		return d0
	case StaticLast:
		return dLast
	}
	return math.Sqrt(d0 * dLast)
}

// runNested runs a nested or static method through softpen.Solve, recording
// its stages and observations into r.
func runNested(r *Run, in *Instance, m Method, budget int64, seed uint64, d0, dLast float64) error {
	w := in.newGapWork()
	var obsTime time.Duration
	delta0 := m.Delta0
	static := m.Kind == KindStatic
	if static {
		delta0 = staticDelta(m.Which, d0, dLast)
	}
	xi := m.Xi
	if xi == 0 {
		xi = 1
	}
	eta := m.Eta
	// The gap needs the (xi, delta) of the stage in progress; Progress
	// reports a stage when it ends, and the next one runs at delta/eta
	// (or the same delta when static, or when xi was raised — then the
	// reported xi tells us, one stage late).
	cur := struct{ xi, delta float64 }{xi, delta0}
	// The paper's SGDM takes the full step 1/(L + mu + m xi/(4 delta));
	// the solver's default for SGDM is (1 - beta) times it.
	stepScale := m.StepScale
	if stepScale == 0 && m.Inner == softpen.MethodSGDM {
		stepScale = 1
	}
	opt := &softpen.Options{
		Method: m.Inner, Tol: 1e-300, MaxSteps: budget, Seed: seed,
		Penalty: &softpen.PenaltyOptions{Xi: xi, FixedXi: m.FixedXi, Eta: eta, Delta0: delta0, Static: static,
			Screen: m.Screen, TheorySchedule: m.Theory, NoPolish: true, StageMult: m.StageMult,
			Momentum: m.Momentum, StepScale: stepScale, SVRGEpoch: m.SVRGEpoch,
			LastIterate: true, // the paper's methods answer with their last iterate
			// The paper's algorithms start from every row; our working set
			// would make the screening variants identical to the plain run
			// and count never-admitted rows as screened out.
			AllRows: true},
		ObserveEvery: observeEvery,
		Progress: func(st softpen.Progress) {
			r.Stages = append(r.Stages, Stage{Index: st.Index, Delta: st.Delta, Xi: st.Xi, Steps: st.Steps, Kept: st.Kept, StageGapCert: st.Gap})
			cur.xi = st.Xi
			if !static {
				cur.delta = st.Delta / eta
			}
		},
		Observe: r.observer(in, func(x []float64) float64 { return in.Gap(x, cur.xi, cur.delta, w) }, &obsTime),
	}
	t0 := time.Now()
	res, err := softpen.Solve(context.Background(), in.P, opt)
	r.Time = time.Since(t0) - obsTime
	if err != nil {
		return err
	}
	// The run's screening rule dropped both kinds: proven at the answer
	// and set aside during the stages.
	if res.Penalty != nil {
		r.Dropped = append(append([]int(nil), res.Penalty.Screened...), res.Penalty.Outside...)
	}
	slices.Sort(r.Dropped)
	r.Delta0 = delta0
	if n := len(r.Stages); n > 0 {
		r.DeltaEnd = r.Stages[n-1].Delta
	}
	return nil
}

// runBaseline runs SASC-SGD or NT (package baseline), recording its
// observations into r (the gap is NaN: the baselines have no multipliers).
func runBaseline(r *Run, in *Instance, m Method, budget int64, seed uint64) error {
	var obsTime time.Duration
	bp := &baseline.Problem{Phi: in.Phi, Y: in.Y, Ridge: in.Ridge, A: in.A, B: in.B}
	noGap := func([]float64) float64 { return math.NaN() }
	run := baseline.Run{Steps: budget, Seed: seed, ObserveEvery: observeEvery, Observe: r.observer(in, noGap, &obsTime)}
	t0 := time.Now()
	var err error
	if m.Kind == KindSASC {
		_, err = m.SASC.Solve(bp, run)
	} else {
		_, err = m.NT.Solve(bp, run)
	}
	r.Time = time.Since(t0) - obsTime
	return err
}

// Select filters methods by a comma-separated list of names ("all" or ""
// keeps every one). Unknown names are an error that lists the known ones.
func Select(all []Method, list string) ([]Method, error) {
	if list == "" || list == "all" {
		return all, nil
	}
	var out []Method
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, m := range all {
			if strings.EqualFold(m.Name, name) {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			names := make([]string, len(all))
			for i, m := range all {
				names[i] = m.Name
			}
			return nil, fmt.Errorf("unknown method %q (known: %s)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// parallel calls f(0), ..., f(n-1), at most workers (at least 1) at a time,
// and returns when all have returned.
func parallel(n, workers int, f func(i int)) {
	sem := make(chan struct{}, max(workers, 1))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}
