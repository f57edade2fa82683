package activeset

import (
	"math"

	"github.com/softpen/softpen/vec"
)

// orthoBasis is an orthonormal basis of the working set's normals,
// N = Q R with Q's columns orthonormal and R upper triangular, kept while
// the working set holds a nearly dependent member: one whose unit normal is
// less than sqrt(basisPivot) from the span of the members before it.
//
// The Gram factor forms a member's row from the others' pivots: a row
// behind a pivot d carries the error of its inner products, eps, amplified
// by 1/sqrt(d). Two equalities 2^-27 apart (pivot 1e-17) leave every
// member after them with a row, and so a pivot, off by O(1) or more (a
// pivot of 805 for a unit normal, whose pivot is at most 1): the factor is
// that of another matrix, its null directions are not null, and the loop
// answers "undecided" where float64 can decide, or a wrong x. The QR
// factor does not form the Gram matrix: each member is orthogonalised
// against Q twice (modified Gram-Schmidt, "twice is enough"), and R's
// diagonal entry is its distance from the others' span to a few eps
// whatever the conditioning before it. The Gram factor is then set from R
// (G = R'R: pivots R_ii^2, L_ij = R_ji / R_jj), so that every solve, null
// direction and downdate of the loop works on the factor of the normals
// themselves.
//
// It costs O(k n) per member admitted (against O(k^2) for the Gram
// factor's update, after the O(k n) of its inner products), and
// O((k - p) k n) when member p leaves (the members after it are
// orthogonalised again). It is allocated when first needed ((n+1) (n+1)
// + (n+1) n floats) and dropped at Reset, whose working set is empty.
type orthoBasis struct {
	on  bool
	k   int // members 0..k-1 are orthogonalised
	n   int
	cap int
	q   []float64 // column i at q[i n:(i+1) n]
	r   []float64 // column i of R at r[i cap:], entries 0..i
}

// basisPivot is the pivot (squared distance of a member's unit normal from
// the span of those before it) of a member held as independent below
// which the working set switches to the QR factor: behind it, the Gram
// factor's rows carry 1e-16 / 1e-5 = 1e-11 of error, two orders below
// what refinement removes.
const basisPivot = 1e-10

func (b *orthoBasis) col(i int) []float64  { return b.q[i*b.n : (i+1)*b.n] }
func (b *orthoBasis) rcol(i int) []float64 { return b.r[i*b.cap : i*b.cap+i+1] }

// startBasis switches the working set to the QR factor (allocating it on
// first use) and sets the Gram factor from it.
func (s *Solver) startBasis() {
	b := &s.basis
	if b.q == nil {
		capacity := s.n + 1
		b.n, b.cap = s.n, capacity
		b.q = make([]float64, capacity*s.n)
		b.r = make([]float64, capacity*capacity)
	}
	b.on, b.k = true, 0
	s.extendBasis()
}

// extendBasis orthogonalises the members from b.k on and sets their rows
// of the Gram factor from R.
func (s *Solver) extendBasis() {
	b := &s.basis
	for i := b.k; i < len(s.ws); i++ {
		q, r := b.col(i), b.rcol(i)
		copy(q, s.normals.full(i))
		clear(r)
		for pass := 0; pass < 2; pass++ {
			for j := 0; j < i; j++ {
				c := vec.Dot(b.col(j), q)
				r[j] += c
				vec.Axpy(-c, b.col(j), q)
			}
		}
		rho := math.Sqrt(vec.Dot(q, q))
		r[i] = rho
		if rho > 0 {
			vec.Scale(1/rho, q)
		}
		s.setRowFromR(i)
	}
	b.k = len(s.ws)
}

// setRowFromR sets member i's row and pivot of the Gram factor from
// column i of R (G = R'R = L D L' with L_ij = R_ji / R_jj, d_i = R_ii^2).
func (s *Solver) setRowFromR(i int) {
	b, f := &s.basis, &s.fac
	r, row := b.rcol(i), f.row(i)
	first := i
	for j := 0; j < i; j++ {
		row[j] = 0
		if rjj := b.rcol(j)[j]; r[j] != 0 && rjj != 0 {
			row[j] = r[j] / rjj
			first = min(first, j)
		}
	}
	f.first[i] = int32(first)
	f.d[i] = r[i] * r[i]
	f.k = i + 1
}

// basisDistance is R's last diagonal entry: the distance of the last
// member's unit normal from the span of the others.
func (s *Solver) basisDistance() float64 {
	k := len(s.ws)
	return s.basis.rcol(k - 1)[k-1]
}

// nearness says how row j's unit normal lies to the span of the members'
// normals (nearlyDependentRow).
type nearness int

const (
	farFromSpan nearness = iota // farther than sqrt(nearPivot)
	nearSpan                    // nearer, but not to rounding
	inSpan                      // in it to rounding: dependent
)

// nearlyDependentRow says whether row j's unit normal is far from the span
// of the members' normals (distance at least sqrt(nearPivot)), near it, or
// in it to rounding (distance at most indepRatio ||p||_1, as dependent
// decides, p = (-y, 1) with N y the normal's projection on the span), and
// returns ||p||_1 and the violation the members' residuals combine into
// on the row (sum_i |y_i| sigma_j/sigma_i |res_i|, res_i member i's
// residual on the unit-row scale, summed in twice the precision). A row in
// the span to rounding (a repeated row, a combination) adds nothing when
// admitted: its violation is that combination. The distance is computed directly, from the
// residual n - N y, with y from the Gram factor, or from Q and R when the
// QR factor is kept (basis.go), where the Gram factor's solve carries the
// error of the members' small pivots. It changes nothing: the normal goes
// into the storage of member k and back. O(n^2 + k n + k^2).
func (s *Solver) nearlyDependentRow(j int) (near nearness, p1, comb float64) {
	near, p1, _ = s.rowSpan(j)
	if near != inSpan {
		return near, p1, 0
	}
	k := len(s.ws)
	y := s.lamTry[:k]
	for i, c := range s.ws {
		if y[i] != 0 {
			comb += math.Abs(y[i]) * s.sigma[k] / s.sigma[i] * math.Abs(s.exactMemberResidual(c))
		}
	}
	return inSpan, p1, comb
}

// rowSpan is nearlyDependentRow without the members' combined violation:
// how row j's unit normal lies to the members' span, ||p||_1, and the
// normal's distance from the span. It leaves y (N y the normal's
// projection on the span) in s.lamTry[:k] and the row's norm factor in
// s.sigma[k], beyond the members. With no members (the distance is 1) and
// with k >= n (where it is not computed) it reports farFromSpan at
// distance 1 and sets neither.
func (s *Solver) rowSpan(j int) (near nearness, p1, dist float64) {
	return s.constraintSpan(constraint{kindRow, int32(j)})
}

// constraintSpan is rowSpan for a row or a bound c.
func (s *Solver) constraintSpan(c constraint) (near nearness, p1, dist float64) {
	k := len(s.ws)
	if k == 0 || k >= s.n {
		return farFromSpan, 1, 1
	}
	s.sigma[k] = s.normal(c, k)
	u, y := s.t, s.lamTry[:k]
	copy(u, s.normals.full(k))
	if s.basis.on {
		clear(y)
		for pass := 0; pass < 2; pass++ {
			for i := 0; i < k; i++ {
				c := vec.Dot(s.basis.col(i), u)
				y[i] += c
				vec.Axpy(-c, s.basis.col(i), u)
			}
		}
		// y holds Q'n; N y' = Q Q'n for y' = R^{-1} y.
		for i := k - 1; i >= 0; i-- {
			t := y[i]
			for l := i + 1; l < k; l++ {
				t -= s.basis.rcol(l)[i] * y[l]
			}
			if d := s.basis.rcol(i)[i]; d != 0 {
				y[i] = t / d
			} else {
				y[i] = 0 // a member that depends on the others exactly
			}
		}
	} else {
		s.normals.gramAll(k, y)
		s.fac.solve(y, k)
		for i, yi := range y {
			s.normals.axpy(-yi, i, u)
		}
	}
	dist = math.Sqrt(vec.Dot(u, u))
	p1 = 1 + normOne(y)
	s.normals.remove(k, k+1)
	switch {
	case dist*dist >= nearPivot:
		return farFromSpan, p1, dist
	case dist > indepRatio*p1:
		return nearSpan, p1, dist
	}
	return inSpan, p1, dist
}
