package activeset

import (
	"math"
	"math/big"
)

// vertexCuts is nearlyImpliedRows where the members span every direction
// (k = n, none a held l1 kink): it counts the rows of the lists (rows
// outside the working set within rounding of active at the answer) that
// lie, to rounding, in the span of all the members but one — the edge
// that member's removal leaves — and that do not hold exactly at the
// members' exact vertex (impliedAtVertex). Such a row cuts the edge at a
// distance float64 cannot resolve: a row 1e-15 from the opposite of a
// member, which x violates within rounding, left x* 2.1 from an answer
// whose distance bound was 1.7e-7 (TestVertexCutNearlyOpposite). A row
// far from every such span moves x* only by its rounding, and is not
// counted. Vertices of more than exactFarkasMaxSupport members are not
// checked, as impliedExactly takes their supports as implied. It
// allocates only for a row the float test finds in such a span.
func (s *Solver) vertexCuts() int {
	k, n := len(s.ws), s.n
	if k != n || n > exactFarkasMaxSupport || s.exact.n+s.near.n == 0 {
		return 0
	}
	var g, inv [exactFarkasMaxSupport * exactFarkasMaxSupport]float64
	for a, c := range s.ws {
		if !s.callerNormal(c, g[a*n:(a+1)*n]) { // column a of G, stored as row a
			return 0
		}
	}
	if !invertSmall(g[:n*n], inv[:n*n], n) {
		return 0
	}
	count := 0
	for _, l := range [2]*rowList{&s.exact, &s.near} {
		for _, j := range l.row[:l.n] {
			var y [exactFarkasMaxSupport]float64
			if s.edgeSpan(int(j), inv[:n*n], g[:n*n], y[:n]) && !s.impliedAtVertex(int(j), y[:n]) {
				count++
			}
		}
	}
	return count
}

// callerNormal writes the normal of member c in the caller's data (a row
// of A or Aeq as given, +-e_i for a bound) to dst; false for a held l1
// kink, which is no constraint.
func (s *Solver) callerNormal(c constraint, dst []float64) bool {
	clear(dst)
	switch c.kind {
	case kindRow:
		copy(dst, s.a[c.i])
	case kindEq:
		copy(dst, s.aeq[c.i])
	case kindFixed, kindUpper:
		dst[c.i] = 1
	case kindLower:
		dst[c.i] = -1
	default:
		return false
	}
	return true
}

// edgeSpan solves G y = a_j (G's columns the members' caller normals,
// stored as the rows of g; inv its inverse, row-major) and reports
// whether a_j lies within rounding (indepRatio, relative to the 1-norm of
// its combination as rowSpan measures it) of the span of all members but
// one: its distance from that span is |y_i| / ||row i of G^-1|| (G^-1 =
// inv', as g = G').
func (s *Solver) edgeSpan(j int, inv, g, y []float64) bool {
	n := s.n
	a := s.a[j]
	an := 0.0
	for _, v := range a {
		an += v * v
	}
	an = math.Sqrt(an)
	if an == 0 {
		return false
	}
	p1 := 1.0
	for i := 0; i < n; i++ {
		t, gn := 0.0, 0.0
		for c := 0; c < n; c++ {
			t += inv[c*n+i] * a[c]
			gn += g[i*n+c] * g[i*n+c]
		}
		y[i] = t
		p1 += math.Abs(t) * math.Sqrt(gn) / an
	}
	for i := 0; i < n; i++ {
		rn := 0.0
		for c := 0; c < n; c++ {
			rn += inv[c*n+i] * inv[c*n+i]
		}
		if math.Abs(y[i]) <= indepRatio*p1*an*math.Sqrt(rn) {
			return true
		}
	}
	return false
}

// impliedAtVertex reports whether row j holds at the members' exact
// vertex, in rational arithmetic on the caller's data: with y solving
// sum_a y_a g_a = a_j exactly (y's float values the start, as
// solveExactNull takes them), a_j'v - b_j = sum_a y_a b_a - b_j <= 0.
func (s *Solver) impliedAtVertex(j int, y []float64) bool {
	n := s.n
	S := make([]exactMember, 0, n+1)
	for a, c := range s.ws {
		row := make([]float64, n+1)
		s.callerNormal(c, row[:n])
		row[n] = s.memberRHS(c)
		S = append(S, exactMember{row: row, b: row[n], y: -y[a]})
	}
	row := append(append(make([]float64, 0, n+1), s.a[j]...), s.bOrig[j])
	S = append(S, exactMember{row: row, b: s.bOrig[j], y: 1})
	inU := make([]bool, n+1)
	for c := range n {
		inU[c] = true
	}
	z, ok := solveExactNull(S, inU)
	if !ok || z[n].Sign() == 0 {
		return false
	}
	rhs, tmp := new(big.Rat), new(big.Rat)
	for a, m := range S {
		rhs.Add(rhs, tmp.Mul(z[a], ratOf(m.b)))
	}
	return rhs.Sign()*z[n].Sign() >= 0
}

// memberRHS is member c's right-hand side in the caller's data.
func (s *Solver) memberRHS(c constraint) float64 {
	switch c.kind {
	case kindRow:
		return s.bOrig[c.i]
	case kindEq:
		return s.beqOrig[c.i]
	case kindLower:
		return -s.lo[c.i]
	}
	return s.up[c.i]
}

// invertSmall sets inv to the inverse of the n x n row-major matrix a
// (Gauss-Jordan with partial pivoting, a copy of a overwritten); false
// when a pivot vanishes.
func invertSmall(a, inv []float64, n int) bool {
	var w [exactFarkasMaxSupport * exactFarkasMaxSupport]float64
	m := w[:n*n]
	copy(m, a)
	clear(inv)
	for i := 0; i < n; i++ {
		inv[i*n+i] = 1
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r*n+c]) > math.Abs(m[p*n+c]) {
				p = r
			}
		}
		if m[p*n+c] == 0 {
			return false
		}
		for t := 0; t < n; t++ {
			m[c*n+t], m[p*n+t] = m[p*n+t], m[c*n+t]
			inv[c*n+t], inv[p*n+t] = inv[p*n+t], inv[c*n+t]
		}
		d := m[c*n+c]
		for t := 0; t < n; t++ {
			m[c*n+t] /= d
			inv[c*n+t] /= d
		}
		for r := 0; r < n; r++ {
			if f := m[r*n+c]; r != c && f != 0 {
				for t := 0; t < n; t++ {
					m[r*n+t] -= f * m[c*n+t]
					inv[r*n+t] -= f * inv[c*n+t]
				}
			}
		}
	}
	return true
}
