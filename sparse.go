package softpen

import (
	"github.com/softpen/softpen/internal/solver"
	"github.com/softpen/softpen/mat"
)

// The fitting model on sparse rows: Problem.PhiSparse, or dense rows with
// MethodNewtonCG, go to the solver's Newton-CG path with the rows read in
// place (compressed once when given densely); a PhiSparse problem of
// another kind is made dense for the other methods.

// newSparseSolver is newSolver for p.sparsePath: p is valid and its
// memory checked.
func newSparseSolver(p *Problem, so *solver.Options) (*Solver, error) {
	ip, err := p.internal()
	if err != nil {
		return nil, err
	}
	ip.PhiRows = nil
	ip.PhiSparse = p.PhiSparse
	if ip.PhiSparse == nil {
		ip.PhiSparse = mat.SparseFromRows(p.Phi, p.N)
	}
	s, err := solver.New(ip, so)
	if err != nil {
		return nil, err
	}
	return &Solver{s: s, n: p.N, box: p.Lower != nil || p.Upper != nil}, nil
}

// withDenseRows returns a shallow copy of p with PhiSparse made dense in
// Phi (CheckMemory has counted the l n words).
func (p *Problem) withDenseRows() *Problem {
	q := *p
	d := p.PhiSparse.ToDense()
	q.Phi = make([][]float64, d.Rows)
	for i := range q.Phi {
		q.Phi[i] = d.Row(i)
	}
	q.PhiSparse = nil
	return &q
}
