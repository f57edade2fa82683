package repro

import (
	"fmt"
	"io"

	"github.com/softpen/softpen"
	"github.com/softpen/softpen/internal/repro/baseline"
)

// GridFamily is one method's parameter grid from the paper's appendix
// ("Details for section 6.1"): every setting is run on every instance and
// shown as one box per setting, the paper's chosen one marked.
type GridFamily struct {
	Name    string   // file-name part and title
	Caption string   // the paper's figure
	Methods []Method // one per setting
}

// QPGrid is the appendix's grid on the QP: (omega, multiplier) for
// SASC-SGD and (eta, multiplier) for Nested-SGD, each from {2, 4, 8} x
// {1, 0.6, 0.36}, and (eta, multiplier, momentum) for Nested-SGDM with the
// momentum from {0.5, 0.8, 0.9}, one figure per momentum. The paper chose
// (2, 0.36), (4, 0.6) and (2, 1, 0.9); those settings carry a "*".
func QPGrid() []GridFamily {
	etas := []float64{2, 4, 8}
	mults := []float64{1, 0.6, 0.36}
	mark := func(chosen bool) string {
		if chosen {
			return "*"
		}
		return ""
	}
	var sasc, sgd GridFamily
	sasc = GridFamily{Name: "sasc", Caption: "SASC-SGD over (omega, multiplier) (paper: relative errors of SASC-SGD, appendix)"}
	sgd = GridFamily{Name: "sgd", Caption: "Nested-SGD over (eta, multiplier) (paper: relative errors of Nested-SGD, appendix)"}
	for _, e := range etas {
		for _, m := range mults {
			sasc.Methods = append(sasc.Methods, Method{Name: fmt.Sprintf("SASC(%g,%g)%s", e, m, mark(e == 2 && m == 0.36)), Kind: KindSASC,
				SASC: baseline.SASC{Omega: e, Mult: m}, Note: "omega, multiplier; gamma0 1/(10L)"})
			sgd.Methods = append(sgd.Methods, Method{Name: fmt.Sprintf("SGD(%g,%g)%s", e, m, mark(e == 4 && m == 0.6)), Kind: KindNested,
				Inner: softpen.MethodSGD, Eta: e, Delta0: 0.05, Xi: 1, FixedXi: true, Screen: softpen.ScreenNone, StageMult: m, Note: "eta, multiplier"})
		}
	}
	fams := []GridFamily{sasc, sgd}
	for _, a := range []float64{0.5, 0.8, 0.9} {
		f := GridFamily{Name: fmt.Sprintf("sgdm_%g", a), Caption: fmt.Sprintf("Nested-SGDM over (eta, multiplier), momentum %g (paper: relative errors of Nested-SGDM, appendix)", a)}
		for _, e := range etas {
			for _, m := range mults {
				f.Methods = append(f.Methods, Method{Name: fmt.Sprintf("SGDM(%g,%g,%g)%s", e, m, a, mark(e == 2 && m == 1 && a == 0.9)), Kind: KindNested,
					Inner: softpen.MethodSGDM, Eta: e, Delta0: 0.05, Xi: 1, FixedXi: true, Screen: softpen.ScreenNone, StageMult: m, Momentum: a,
					Note: "eta, multiplier, momentum"})
			}
		}
		fams = append(fams, f)
	}
	for i := range fams {
		fams[i].Methods = colored(fams[i].Methods)
	}
	return fams
}

// runGrid runs every setting of every family on every instance (workers at
// a time), writes the summary table per family to sum, the runs to
// dir/qp_grid_*.csv and a box plot per family to dir, and returns the
// figures for the index.
func runGrid(ins []*Instance, fams []GridFamily, steps int64, workers int, dir string, sum io.Writer, logf func(string, ...any)) ([][2]string, error) {
	var figs [][2]string
	var all []*Run
	for _, f := range fams {
		runs := make([]*Run, len(ins)*len(f.Methods))
		parallel(len(runs), workers, func(k int) {
			sim := k/len(f.Methods) + 1
			runs[k] = RunMethod(ins[sim-1], f.Methods[k%len(f.Methods)], sim, steps, uint64(sim), 0, 0)
		})
		for _, r := range runs {
			if r.Err != nil {
				return nil, fmt.Errorf("grid %s: %s on %s: %v", f.Name, r.Method, r.Instance, r.Err)
			}
		}
		logf("repro qp: grid %s done\n", f.Name)
		all = append(all, runs...)
		groups := byMethod(f.Methods, runs)
		fmt.Fprintf(sum, "\ngrid: %s (* = the paper's choice)\n", f.Caption)
		Summary(sum, f.Methods, groups)
		name := "qp_grid_" + f.Name + ".svg"
		title := fmt.Sprintf("QP grid: %s, %.3g steps", f.Name, float64(steps))
		if err := writeSVG(dir, name, boxPlot(title, f.Methods, groups)); err != nil {
			return nil, err
		}
		figs = append(figs, [2]string{name, f.Caption})
	}
	return figs, writeRuns(dir, "qp_grid", all)
}
