package solver

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// Dual coordinate ascent polishing, for active sets the KKT polish cannot
// take (more active rows than variables, as in the hard-margin SVM, where x*
// is unique but the multipliers are not).
//
// For the quadratic model F(x) = 1/2 x'Hx + c'x + c0 with H = R'R, the dual
// of min F s.t. a_j'x <= b_j (j in the kept set) is
//
//	max_{lam >= 0} G(lam) = c0 - b'lam - 1/2 ||c~ + A~'lam||^2,
//
// with a~_j = R^{-T} a_j, c~ = R^{-T} c, and the primal point
// z = R x = -(c~ + A~'lam). Exact maximisation over one coordinate is
//
//	lam_j <- max(0, lam_j + (a~_j'z - b_j)/||a~_j||^2),  z <- z - (change) a~_j,
//
// O(n) per update (Hildreth's method; LIBLINEAR's dual coordinate descent
// for the SVM, where H = I). Started from the penalty method's multipliers on
// the rows it kept, a few sweeps reach machine precision; the certificate is
// the exact dual value, so the result needs no trust in the active-set guess.

// dcdWork is the storage of the dual coordinate polish, sized in New for
// the quadratic model without l1 or box.
type dcdWork struct {
	at    []float64 // kept x n: rows a~_j = R^{-T} a_j (row-major)
	diag  []float64 // ||a~_j||^2
	lam   []float64 // multipliers of the kept rows
	z     []float64 // R x
	ct    []float64 // c~
	order []int     // sweep order (fixed permutation, deterministic)
	act   []int     // rows not shrunk, in sweep order
}

func (d *dcdWork) alloc(s *Solver) {
	if !s.quad || s.hasProx() || s.mw == 0 {
		return
	}
	d.z = make([]float64, s.n)
	d.ct = make([]float64, s.n)
	d.reserve(min(s.mw, dcdMaxRowsPerVar*s.n), s.n)
}

// reserve makes room for rows kept rows. It allocates only when a polish
// needs more rows than any before it (doubling), so warm re-solves of the
// same problem allocate nothing.
func (d *dcdWork) reserve(rows, n int) {
	if rows <= len(d.diag) {
		return
	}
	rows = max(rows, min(2*len(d.diag), dcdMaxRows(n)))
	d.at = make([]float64, rows*n)
	d.diag = make([]float64, rows)
	d.lam = make([]float64, rows)
	d.order = make([]int, rows)
	d.act = make([]int, rows)
}

// dcdMaxRows is the most kept rows a dual coordinate polish takes: its
// sweeps cost kept*n each (less with shrinking), still far below a stage
// at small delta, whose condition number grows like 1/delta. On a
// separable set with m = 1e5, n = 50, the last stage kept 3558 rows, over
// the old limit of 70 n = 3500, and ran 2e9 steps without finishing.
func dcdMaxRows(n int) int { return max(dcdMaxRowsPerVar*n, dcdMinRows) }

// dcdCheck is the number of sweeps between certificates.
const dcdCheck = 10

// dcdPolish runs dual coordinate ascent on the kept rows from the best
// multipliers until the KKT residual of the working set stops improving or
// the sweep budget is spent, then certifies the point. It reports whether
// the best point improved.
func (s *Solver) dcdPolish(rn *run, sweeps int) bool {
	d := &s.state.dcd
	if d.z == nil {
		return false
	}
	n, k := s.n, s.kept
	d.reserve(k, n)
	at := d.at[:k*n]
	for j := 0; j < k; j++ {
		row := at[j*n : (j+1)*n]
		s.chol.SolveL(row, s.a.Row(j)) // R^T a~ = a
		d.diag[j] = vec.Dot(row, row)
	}
	s.chol.SolveL(d.ct, s.c)
	lam := d.lam[:k]
	copy(lam, s.state.lamBest[:k])
	// z = -(c~ + A~' lam)
	for i := range d.z {
		d.z[i] = -d.ct[i]
	}
	for j, l := range lam {
		if l != 0 {
			vec.Axpy(-l, at[j*n:(j+1)*n], d.z)
		}
	}
	for j := range d.order[:k] {
		d.order[j] = j
	}
	// A fixed pseudo-random sweep order from the solver's generator.
	ord := d.order[:k]
	for j := k - 1; j > 0; j-- {
		i := s.rng.intn(j + 1)
		ord[j], ord[i] = ord[i], ord[j]
	}
	scale := 1 + math.Sqrt(vec.Dot(d.z, d.z))
	x := s.state.pol.x
	improved := false
	// Shrinking (as LIBLINEAR does): a row at lam_j = 0 whose dual gradient
	// is below -thr, thr the largest projected gradient of the previous
	// sweep, is left out of the following sweeps (act holds the rows still
	// swept, in sweep order). Every row comes back for the sweep before each
	// certificate and when the shrunk set has converged, and only a
	// converged full sweep (or the certificate) ends the polish. Measured:
	// mushrooms (tol 1e-6) 3.10e6 steps without shrinking, 1.51e6 with; the
	// large QP (m = 1e5) 392660 and 177703. Shrinking until convergence
	// alone (no full sweep before certificates) broke the large QP's polish:
	// rows shrunk early became violated, and it took 3.2e6 steps.
	act := d.act[:k]
	copy(act, ord)
	thr := math.Inf(1)
	for sweep := 0; sweep < sweeps; sweep++ {
		if sweep%dcdCheck == dcdCheck-1 || sweep == sweeps-1 {
			// The sweep before a certificate takes every row: a shrunk
			// row that the moving z has made violated would otherwise
			// stay violated and spoil the certificate.
			act = d.act[:k]
			copy(act, ord)
			thr = math.Inf(1)
		}
		var maxStep, pgMax float64
		for i := 0; i < len(act); i++ {
			j := act[i]
			if d.diag[j] == 0 {
				continue
			}
			row := at[j*n : (j+1)*n]
			gj := vec.Dot(row, d.z) - s.b[j]
			if lam[j] == 0 {
				if gj < -thr {
					act[i] = act[len(act)-1]
					act = act[:len(act)-1]
					i--
					continue
				}
				pgMax = max(pgMax, gj)
			} else {
				pgMax = max(pgMax, math.Abs(gj))
			}
			nl := max(0, lam[j]+gj/d.diag[j])
			if dl := nl - lam[j]; dl != 0 {
				vec.Axpy(-dl, row, d.z)
				lam[j] = nl
				maxStep = max(maxStep, math.Abs(dl)*math.Sqrt(d.diag[j]))
			}
		}
		s.steps += int64(len(act))
		thr = pgMax
		converged := maxStep <= 1e-15*scale
		if converged && len(act) < k {
			// Converged on the shrunk rows: sweep them all again.
			act = d.act[:k]
			copy(act, ord)
			thr = math.Inf(1)
			converged = false
		}
		// Every dcdCheck sweeps (and at the end) certify the point: the
		// certificate, not the step size, decides when to stop.
		if converged || sweep%dcdCheck == dcdCheck-1 || sweep == sweeps-1 {
			s.chol.SolveLT(x, d.z)
			if before := rn.bestGap; s.certifyPoint(rn, x, lam, true) < before {
				improved = true
			}
			if converged || rn.solved() || s.over(rn) {
				break
			}
		}
	}
	return improved
}
