package softpen

import (
	"github.com/softpen/softpen/internal/solver"
	"github.com/softpen/softpen/mat"
)

// The fitting model on sparse rows: Problem.PhiSparse, or dense rows with
// MethodNewtonCG, go to the solver's Newton-CG path with the rows read in
// place (compressed once when given densely), rows of A too; a PhiSparse
// problem of another kind is made dense for the other methods.

// newSparseSolver is newSolver for p.sparsePath or, with dualCD,
// p.dualCDPath, decided on the whole problem (p may be it without its
// separable variables, whose fewer columns can bring m n under the dense
// limit): p is valid and its memory checked.
func newSparseSolver(p *Problem, so *solver.Options, dualCD bool) (*Solver, error) {
	ip, err := p.internal()
	if err != nil {
		return nil, err
	}
	if dualCD {
		ip.ARows, ip.ASparse = nil, p.ASparse
	} else {
		ip.PhiRows = nil
		ip.PhiSparse = p.PhiSparse
		if ip.PhiSparse == nil {
			ip.PhiSparse = mat.SparseFromRows(p.Phi, p.N)
		}
		if ip.ARows = nil; p.ASparse != nil {
			ip.ASparse = p.ASparse
		} else if len(p.A) > 0 {
			ip.ASparse = mat.SparseFromRows(p.A, p.N)
		}
	}
	s, err := solver.New(ip, so)
	if err != nil {
		return nil, err
	}
	return &Solver{s: s, n: p.N, m: p.rowsOfA(), box: p.Lower != nil || p.Upper != nil}, nil
}

// withDenseRows returns a shallow copy of p with PhiSparse and ASparse
// made dense in Phi and A (CheckMemory has counted their words).
func (p *Problem) withDenseRows() *Problem {
	q := *p
	rows := func(x *mat.Sparse) [][]float64 {
		d := x.ToDense()
		out := make([][]float64, d.Rows)
		for i := range out {
			out[i] = d.Row(i)
		}
		return out
	}
	if p.PhiSparse != nil {
		q.Phi, q.PhiSparse = rows(p.PhiSparse), nil
	}
	if p.ASparse != nil {
		q.A, q.ASparse = rows(p.ASparse), nil
	}
	return &q
}
