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
	at    []float64 // kept x dcdStride(n): rows a~_j = R^{-T} a_j, zero-padded
	diag  []float64 // ||a~_j||^2
	lam   []float64 // multipliers of the kept rows
	z     []float64 // R x, zero-padded to dcdStride(n)
	ct    []float64 // c~
	order []int     // sweep order (fixed permutation, deterministic)
	act   []int     // rows not shrunk, in sweep order
}

func (d *dcdWork) alloc(s *Solver) {
	if !s.quad || s.hasProx() || s.mw == 0 {
		return
	}
	d.z = make([]float64, dcdStride(s.n))
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
	d.at = make([]float64, rows*dcdStride(n))
	d.diag = make([]float64, rows)
	d.lam = make([]float64, rows)
	d.order = make([]int, rows)
	d.act = make([]int, rows)
}

// grow makes room for rows kept rows during a polish, keeping the first
// keep rows of at, diag, lam and order (act is rebuilt by the caller).
func (d *dcdWork) grow(keep, rows, n int) {
	if rows <= len(d.diag) {
		return
	}
	at, diag, lam, order := d.at, d.diag, d.lam, d.order
	d.reserve(rows, n)
	copy(d.at, at[:keep*dcdStride(n)])
	copy(d.diag, diag[:keep])
	copy(d.lam, lam[:keep])
	copy(d.order, order[:keep])
}

// dcdLoadRow sets row j of the polish from working row j: a~_j = R^{-T} a_j
// and its squared norm.
func (s *Solver) dcdLoadRow(j int) {
	d := &s.state.dcd
	n, st := s.n, dcdStride(s.n)
	row := d.at[j*st : (j+1)*st]
	s.chol.SolveL(row[:n], s.a.Row(j)) // R^T a~ = a
	clear(row[n:])
	d.diag[j] = vec.Dot(row, row)
}

// dcdAdmit loads the rows old..k-1 that joined the kept block during a
// polish (multiplier 0, swept after the others) and returns the rows of the
// polish.
func (s *Solver) dcdAdmit(old, k int) []float64 {
	d := &s.state.dcd
	d.grow(old, k, s.n)
	for j := old; j < k; j++ {
		s.dcdLoadRow(j)
		d.lam[j] = 0
		d.order[j] = j
	}
	return d.at[:k*dcdStride(s.n)]
}

// dcdDegenerate reports whether more than n multipliers are positive: an
// active set the KKT polish cannot take (as in the hard-margin SVM), so
// that the dual coordinate polish is what will finish the solve.
func dcdDegenerate(lam []float64, n int) bool {
	pos := 0
	for _, l := range lam {
		if l > 0 {
			if pos++; pos > n {
				return true
			}
		}
	}
	return false
}

// dcdStride is the length of a row of the polish: n rounded up to a
// multiple of 16, the tail zero (as is z's), so that Dot and Axpy on a row
// run their vector loops only. The polish is a chain of dependent Dot and
// Axpy calls, and the tails of a 126-element Dot (a 16-, 4- and 1-element
// loop) added latency to every step of the mushrooms SVM.
func dcdStride(n int) int { return (n + 15) &^ 15 }

// dcdMaxRows is the most kept rows a dual coordinate polish takes (see
// dcdMaxRowsPerVar).
func dcdMaxRows(n int) int { return max(dcdMaxRowsPerVar*n, dcdMinRows) }

// dcdPolish runs dual coordinate ascent on the kept rows from the best
// multipliers until the KKT residual of the working set stops improving or
// the sweep budget is spent, then certifies the point. It reports whether
// the best point improved.
//
// Shrinking (as LIBLINEAR does): a row at lam_j = 0 whose dual gradient is
// below -thr, thr the largest projected gradient of the previous sweep, is
// left out of the following sweeps (act holds the rows still swept, in
// sweep order). Every row comes back for the sweep before each certificate
// and when the shrunk set has converged, and only a converged full sweep
// (or the certificate) ends the polish. Measured: mushrooms (tol 1e-6)
// 3.10e6 steps without shrinking, 1.51e6 with; the large QP (m = 1e5)
// 392660 and 177703. Shrinking until convergence alone (no full sweep
// before certificates) broke the large QP's polish: rows shrunk early
// became violated, and it took 3.2e6 steps.
func (s *Solver) dcdPolish(rn *run, sweeps int) bool {
	d := &s.state.dcd
	if d.z == nil {
		return false
	}
	n, k := s.n, s.kept
	at, lam, ord := s.dcdStart(k)
	scale := 1 + math.Sqrt(vec.Dot(d.z, d.z))
	x := s.state.pol.x
	improved := false
	act := d.act[:k]
	copy(act, ord)
	thr := math.Inf(1)
	scan := newDCDScan()
	for sweep := 0; sweep < sweeps; sweep++ {
		if sweep%dcdCheck == dcdCheck-1 || sweep == sweeps-1 {
			// The sweep before a certificate takes every row: a shrunk
			// row that the moving z has made violated would otherwise
			// stay violated and spoil the certificate.
			act = d.act[:k]
			copy(act, ord)
			thr = math.Inf(1)
		}
		var maxStep float64
		act, maxStep, thr = s.dcdSweep(at, lam, act, thr)
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
		if !(converged || sweep%dcdCheck == dcdCheck-1 || sweep == sweeps-1) {
			continue
		}
		s.chol.SolveLT(x, d.z[:n])
		before := rn.best.gap
		gap := s.certifyPoint(rn, x, lam, true)
		if rn.best.gap < before {
			improved = true
		}
		if old := s.kept; s.dcdScanOutside(rn, &scan, gap, sweep, x, lam) {
			if s.kept > dcdMaxRows(n) {
				// Every row came back (admitViolated after
				// wsMaxRounds), too many for this polish: the
				// stages go on.
				return improved
			}
			k = s.kept
			at = s.dcdAdmit(old, k)
			lam, ord = d.lam[:k], d.order[:k]
			// The new rows join the rows being swept; shrunk rows
			// stay out until the next full sweep.
			act = append(d.act[:copy(d.act, act)], ord[old:]...)
			// The problem changed: a fresh sweep budget (admissions
			// end after wsMaxRounds).
			sweep = -1
			continue
		}
		if converged || s.solved(rn) || s.over(rn) {
			break
		}
	}
	return improved
}

// dcdStart loads the k kept rows into the polish, its multipliers from the
// best ones and z = -(c~ + A~' lam), and draws a fixed pseudo-random sweep
// order from the solver's generator. It returns the rows, the multipliers
// and the order.
func (s *Solver) dcdStart(k int) (at, lam []float64, ord []int) {
	d := &s.state.dcd
	n, st := s.n, dcdStride(s.n)
	d.reserve(k, n)
	for j := 0; j < k; j++ {
		s.dcdLoadRow(j)
	}
	at = d.at[:k*st]
	s.chol.SolveL(d.ct, s.c)
	lam = d.lam[:k]
	copy(lam, s.state.lamBest[:k])
	for i := range d.ct {
		d.z[i] = -d.ct[i]
	}
	clear(d.z[n:])
	for j, l := range lam {
		if l != 0 {
			vec.Axpy(-l, at[j*st:(j+1)*st], d.z)
		}
	}
	for j := range d.order[:k] {
		d.order[j] = j
	}
	ord = d.order[:k]
	for j := k - 1; j > 0; j-- {
		i := s.rng.intn(j + 1)
		ord[j], ord[i] = ord[i], ord[j]
	}
	return at, lam, ord
}

// dcdSweep maximises the dual exactly over each row of act in turn,
// lam_j <- max(0, lam_j + (a~_j'z - b_j)/||a~_j||^2), and leaves out of
// act the rows at lam_j = 0 whose dual gradient is below -thr. It returns
// the rows still swept, the largest step |dlam_j| ||a~_j|| and the largest
// projected gradient (the next sweep's thr).
func (s *Solver) dcdSweep(at, lam []float64, act []int, thr float64) (rest []int, maxStep, pgMax float64) {
	d := &s.state.dcd
	st := dcdStride(s.n)
	for i := 0; i < len(act); i++ {
		j := act[i]
		if d.diag[j] == 0 {
			continue
		}
		row := at[j*st : (j+1)*st]
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
	return act, maxStep, pgMax
}

// dcdScan paces the admission of rows during a polish (dcdScanOutside).
type dcdScan struct {
	scanGap  int     // sweeps between scans of the outside rows
	nextScan int     // the first sweep of the next scan
	refGap   float64 // the gap when the polish started or last admitted rows
}

func newDCDScan() dcdScan {
	return dcdScan{scanGap: dcdCheck, nextScan: dcdCheck - 1, refGap: math.Inf(1)}
}

// dcdScanOutside is called at each certificate of a polish, with its gap
// and the polish's point x and multipliers lam. When the multipliers are
// degenerate (more than n positive: the KKT polish cannot finish, this
// polish will), rows outside the kept block that x violates join it as
// soon as the certified gap has fallen by dcdAdmitDrop since the polish
// started or last admitted rows, instead of after it has converged on a
// set that lacks them. It reports whether rows joined.
//
// Measured on mushrooms (tol 1e-6): with admission only after the polish
// converged, the working set grew 504 -> 2898 rows in ten polishes of
// 200-450 sweeps, 1.5e6 steps, each converging on a set that was not the
// answer's; with this rule 0.94e6 steps, 0.10 -> 0.067 s, and 1.5-1.9x
// fewer steps on six seeds. Admitting at every certificate or after a
// hundredfold drop was worse there (up to 3e6 steps: a polish that ends on
// its sweep budget just short of the tolerance hands over to a whole
// stage), and admitting without the degeneracy test cost the large QP
// (m = 1e5) 0.11 -> 0.40 s by keeping its KKT polish from the readmitted
// set. A scan reads every outside row (a few sweeps' worth), so after a
// scan that admits nothing the next waits twice as long.
func (s *Solver) dcdScanOutside(rn *run, sc *dcdScan, gap float64, sweep int, x, lam []float64) bool {
	if s.kept >= s.mw || !dcdDegenerate(lam, s.n) || s.over(rn) {
		return false
	}
	if math.IsInf(sc.refGap, 1) {
		sc.refGap = gap
	}
	if !(gap <= dcdAdmitDrop*sc.refGap && sweep >= sc.nextScan && s.kept+s.wsBatch() <= dcdMaxRows(s.n)) {
		return false
	}
	if s.admitViolated(rn, x) == 0 {
		sc.scanGap *= 2
		sc.nextScan = sweep + sc.scanGap
		return false
	}
	*sc = newDCDScan()
	return true
}
