package activeset

import (
	"fmt"
	"math"

	"github.com/softpen/softpen/mat"
)

// Problem is a strongly convex QP with an optional l1 term
//
//	minimize 1/2 x'Hx + c'x + L1 ||x||_1  subject to  A x <= B, Aeq x = Beq, Lower <= x <= Upper.
//
// H must be symmetric positive definite (only its lower triangle is read).
// A and Aeq may be nil; Lower and Upper may be nil or have length N, with
// -Inf / +Inf for a missing bound. New copies what it keeps except the rows
// of A (or ARows) and Aeq, which every Solve reads in place (a copy would
// cost as much as a solve when the rows are many), and, when Factor is set,
// H and Factor (H's Cholesky factor, which the caller already has): those
// must not change while the Solver is in use.
type Problem struct {
	N            int
	H            *mat.Dense
	C            []float64
	A            *mat.Dense
	ARows        [][]float64 // instead of A: its rows, each of length N
	B            []float64
	Aeq          *mat.Dense
	Beq          []float64
	Lower, Upper []float64
	L1           float64       // >= 0
	Factor       *mat.Cholesky // H = L L', or nil (New factors H)
}

// InputError names the field and index of a bad entry of a Problem.
type InputError struct {
	Field string
	Index int // -1 when the field as a whole is wrong
	Msg   string
}

func (e *InputError) Error() string {
	if e.Index < 0 {
		return "activeset: " + e.Field + ": " + e.Msg
	}
	return fmt.Sprintf("activeset: %s[%d]: %s", e.Field, e.Index, e.Msg)
}

func checkVec(field string, v []float64, n int, allowInf bool) error {
	if v == nil {
		return nil
	}
	if len(v) != n {
		return &InputError{field, -1, fmt.Sprintf("length %d, want %d", len(v), n)}
	}
	for i, x := range v {
		// x - x is NaN for a NaN or an infinity, 0 otherwise: one test
		// for a finite vector.
		if x-x != 0 && (math.IsNaN(x) || !allowInf) {
			return &InputError{field, i, fmt.Sprintf("%v is not a finite number", x)}
		}
	}
	return nil
}

func checkDense(field string, m *mat.Dense, cols int) error {
	if m == nil {
		return nil
	}
	if m.Cols != cols {
		return &InputError{field, -1, fmt.Sprintf("%d columns, want %d", m.Cols, cols)}
	}
	for i := 0; i < m.Rows; i++ {
		for j, x := range m.Row(i) {
			if x-x != 0 { // NaN or +-Inf
				return &InputError{field, i*cols + j, fmt.Sprintf("row %d column %d is %v", i, j, x)}
			}
		}
	}
	return nil
}

// check validates p and reports whether H is diagonal (isDiagonal), which
// it finds on the way: a diagonal H needs only its diagonal checked.
func (p *Problem) check() (diagH bool, err error) {
	n := p.N
	if n < 1 {
		return false, &InputError{"N", -1, fmt.Sprintf("%d variables, want at least 1", n)}
	}
	if p.H == nil || p.H.Rows != n {
		return false, &InputError{"H", -1, fmt.Sprintf("want an %d x %d matrix", n, n)}
	}
	diagH = p.H.Cols == n && isDiagonal(p.H)
	if diagH {
		for i := 0; i < n; i++ {
			if x := p.H.Row(i)[i]; x-x != 0 { // NaN or +-Inf
				return false, &InputError{"H", i*n + i, fmt.Sprintf("row %d column %d is %v", i, i, x)}
			}
		}
	} else if err := checkDense("H", p.H, n); err != nil {
		return false, err
	}
	if p.C == nil {
		return false, &InputError{"C", -1, "missing"}
	}
	if err := checkVec("C", p.C, n, false); err != nil {
		return false, err
	}
	if p.A != nil && p.A.Cols != n {
		return false, &InputError{"A", -1, fmt.Sprintf("%d columns, want %d", p.A.Cols, n)}
	}
	for i, r := range p.ARows {
		if p.A != nil {
			return false, &InputError{"ARows", -1, "set with A"}
		}
		if len(r) != n {
			return false, &InputError{"ARows", i, fmt.Sprintf("length %d, want %d", len(r), n)}
		}
	}
	if p.Aeq != nil && p.Aeq.Cols != n {
		return false, &InputError{"Aeq", -1, fmt.Sprintf("%d columns, want %d", p.Aeq.Cols, n)}
	}
	if err := checkVec("B", p.B, p.rowsA(), false); err != nil {
		return false, err
	}
	if p.B == nil && p.rowsA() > 0 {
		return false, &InputError{"B", -1, "missing"}
	}
	if err := checkVec("Beq", p.Beq, rows(p.Aeq), false); err != nil {
		return false, err
	}
	if p.Beq == nil && rows(p.Aeq) > 0 {
		return false, &InputError{"Beq", -1, "missing"}
	}
	if math.IsNaN(p.L1) || math.IsInf(p.L1, 0) || p.L1 < 0 {
		return false, &InputError{"L1", -1, fmt.Sprintf("%v, want a finite number >= 0", p.L1)}
	}
	return diagH, checkBounds(p.Lower, p.Upper, n)
}

// checkBounds checks Lower and Upper (each nil or of length n, no NaN,
// lower <= upper, neither +Inf below nor -Inf above).
func checkBounds(lower, upper []float64, n int) error {
	if err := checkVec("Lower", lower, n, true); err != nil {
		return err
	}
	if err := checkVec("Upper", upper, n, true); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		lo, up := bound(lower, i, math.Inf(-1)), bound(upper, i, math.Inf(1))
		if lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1) {
			return &InputError{"Lower", i, fmt.Sprintf("lower %v above upper %v", lo, up)}
		}
	}
	return nil
}

// rowsA is the number of rows of A (or ARows).
func (p *Problem) rowsA() int {
	if p.A == nil {
		return len(p.ARows)
	}
	return p.A.Rows
}

func rows(m *mat.Dense) int {
	if m == nil {
		return 0
	}
	return m.Rows
}

func bound(v []float64, i int, def float64) float64 {
	if v == nil {
		return def
	}
	return v[i]
}
