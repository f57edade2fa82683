package softpen

import (
	"context"
	"math"
	"math/big"
	"math/rand"
	"testing"
	"time"
)

// A reference for the logistic loss in high precision: math/big has no exp
// or log, so they are summed here as series in big.Float at bigPrec bits,
// far beyond what float64 answers are checked to, and x* is found by
// Newton's method in that precision (quadratic convergence from the
// solver's own answer).

// bigPrec is the working precision of the logistic reference.
const bigPrec = 320

func bigF(v float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(v) }

func bigZero() *big.Float { return new(big.Float).SetPrec(bigPrec) }

// bigExpNeg is exp(-a) for a >= 0: the Taylor series at a / 2^s < 1/2,
// squared s times; 0 beyond a = 1000, where it is below any term it is
// added to by far more than bigPrec bits.
func bigExpNeg(a *big.Float) *big.Float {
	if a.Cmp(bigF(1000)) > 0 {
		return bigZero()
	}
	s := 0
	r := new(big.Float).SetPrec(bigPrec).Set(a)
	half := bigF(0.5)
	for r.Cmp(half) > 0 {
		r.Quo(r, bigF(2))
		s++
	}
	r.Neg(r)
	sum, term := bigF(1), bigF(1)
	for k := 1; k < 200; k++ {
		term.Mul(term, r)
		term.Quo(term, bigF(float64(k)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -bigPrec-8 {
			break
		}
	}
	for ; s > 0; s-- {
		sum.Mul(sum, sum)
	}
	return sum
}

// bigLog1p is log(1 + u) for u >= 0: 2 atanh(t), t = u / (2 + u) <= 1/3
// for u <= 1, as its odd series.
func bigLog1p(u *big.Float) *big.Float {
	if u.Sign() == 0 {
		return bigZero()
	}
	t := new(big.Float).SetPrec(bigPrec).Add(bigF(2), u)
	t.Quo(u, t)
	t2 := new(big.Float).SetPrec(bigPrec).Mul(t, t)
	sum, pow := bigZero(), new(big.Float).SetPrec(bigPrec).Set(t)
	for k := 0; k < 400; k++ {
		term := new(big.Float).SetPrec(bigPrec).Quo(pow, bigF(float64(2*k+1)))
		sum.Add(sum, term)
		if term.MantExp(nil)-sum.MantExp(nil) < -bigPrec-8 {
			break
		}
		pow.Mul(pow, t2)
	}
	return sum.Mul(sum, bigF(2))
}

// bigSoftplus is log(1 + exp(z)) = max(z, 0) + log1p(exp(-|z|)), and
// bigSigmoid 1 / (1 + exp(-z)).
func bigSoftplus(z *big.Float) *big.Float {
	a := new(big.Float).SetPrec(bigPrec).Abs(z)
	r := bigLog1p(bigExpNeg(a))
	if z.Sign() > 0 {
		r.Add(r, z)
	}
	return r
}

func bigSigmoid(z *big.Float) *big.Float {
	a := new(big.Float).SetPrec(bigPrec).Abs(z)
	e := bigExpNeg(a) // exp(-|z|)
	den := new(big.Float).SetPrec(bigPrec).Add(bigF(1), e)
	if z.Sign() >= 0 {
		return den.Quo(bigF(1), den)
	}
	return den.Quo(e, den)
}

// logisticModel is a smooth logistic problem: the mean of log(1 +
// exp(-y_i phi_i'x)) plus 1/2 x'(P + ridge I)x + q'x.
type logisticModel struct {
	phi   [][]float64
	y     []float64
	p     [][]float64 // n x n, or nil
	q     []float64   // or nil
	ridge float64
}

func logisticOf(p *Problem) *logisticModel {
	return &logisticModel{phi: p.Phi, y: p.Y, p: p.P, q: p.Q, ridge: p.Ridge}
}

// value, gradient and Hessian at x, in bigPrec.
func (m *logisticModel) eval(x []*big.Float) (f *big.Float, g []*big.Float, h [][]*big.Float) {
	n, l := len(x), len(m.phi)
	f = bigZero()
	g = make([]*big.Float, n)
	h = make([][]*big.Float, n)
	for i := range g {
		g[i] = bigZero()
		h[i] = make([]*big.Float, n)
		for j := range h[i] {
			h[i][j] = bigZero()
		}
	}
	inv := new(big.Float).SetPrec(bigPrec).Quo(bigF(1), bigF(float64(l)))
	t := bigZero()
	for k, row := range m.phi {
		// z = -y phi'x; f_k = softplus(z), df/dx = -y sigma(z) phi,
		// d2f = sigma(z)(1 - sigma(z)) phi phi'.
		z := bigZero()
		for j, v := range row {
			z.Add(z, t.Mul(bigF(v), x[j]))
		}
		z.Mul(z, bigF(-m.y[k]))
		f.Add(f, new(big.Float).SetPrec(bigPrec).Mul(bigSoftplus(z), inv))
		s := bigSigmoid(z)
		gs := new(big.Float).SetPrec(bigPrec).Mul(s, bigF(-m.y[k]))
		gs.Mul(gs, inv)
		w := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), s)
		w.Mul(w, s)
		w.Mul(w, inv)
		for i, vi := range row {
			g[i].Add(g[i], t.Mul(gs, bigF(vi)))
			for j, vj := range row {
				u := new(big.Float).SetPrec(bigPrec).Mul(w, bigF(vi))
				h[i][j].Add(h[i][j], u.Mul(u, bigF(vj)))
			}
		}
	}
	half := bigF(0.5)
	for i := 0; i < n; i++ {
		// The quadratic part: 1/2 x'(P + ridge I)x + q'x.
		hx := new(big.Float).SetPrec(bigPrec).Mul(bigF(m.ridge), x[i])
		h[i][i].Add(h[i][i], bigF(m.ridge))
		if m.p != nil {
			for j := 0; j < n; j++ {
				hx.Add(hx, t.Mul(bigF(m.p[i][j]), x[j]))
				h[i][j].Add(h[i][j], bigF(m.p[i][j]))
			}
		}
		g[i].Add(g[i], hx)
		u := new(big.Float).SetPrec(bigPrec).Mul(hx, x[i])
		f.Add(f, u.Mul(u, half))
		if m.q != nil {
			g[i].Add(g[i], bigF(m.q[i]))
			f.Add(f, t.Mul(bigF(m.q[i]), x[i]))
		}
	}
	return f, g, h
}

// value is F(x) in bigPrec for a float64 x.
func (m *logisticModel) value(x []float64) *big.Float {
	xb := make([]*big.Float, len(x))
	for i, v := range x {
		xb[i] = bigF(v)
	}
	f, _, _ := m.eval(xb)
	return f
}

// minimize runs Newton's method in bigPrec from x0 (full steps, then
// halved while F does not fall; full steps once they are below 2^-60 of
// ||x||) and returns x* and F*, or ok = false if
// the step has not fallen below 2^-250 of ||x|| + 1 in 200 iterations.
func (m *logisticModel) minimize(x0 []float64) (xs []*big.Float, fs *big.Float, ok bool) {
	n := len(x0)
	x := make([]*big.Float, n)
	for i, v := range x0 {
		x[i] = bigF(v)
	}
	for it := 0; it < 200; it++ {
		f, g, h := m.eval(x)
		d := bigSolve(h, g) // H d = g; the step is -d
		size, norm := 0.0, 1.0
		for i := range d {
			v, _ := d[i].Float64()
			size = math.Max(size, math.Abs(v))
			w, _ := x[i].Float64()
			norm = math.Max(norm, math.Abs(w))
		}
		if size <= math.Ldexp(norm, -250) {
			return x, f, true
		}
		if size <= math.Ldexp(norm, -60) {
			// Deep in Newton's quadratic region, where F's own rounding
			// hides the decrease a step makes: the full step.
			for i := range x {
				x[i] = new(big.Float).SetPrec(bigPrec).Sub(x[i], d[i])
			}
			continue
		}
		step := bigF(1)
		for k := 0; k < 80; k++ {
			xt := make([]*big.Float, n)
			for i := range xt {
				u := new(big.Float).SetPrec(bigPrec).Mul(step, d[i])
				xt[i] = u.Sub(x[i], u)
			}
			ft, _, _ := m.eval(xt)
			if ft.Cmp(f) <= 0 {
				x = xt
				break
			}
			step.Quo(step, bigF(2))
		}
	}
	return nil, nil, false
}

// bigSolve solves h d = g by Gaussian elimination with partial pivoting
// (h is positive definite here), in bigPrec; h and g are not changed.
func bigSolve(h [][]*big.Float, g []*big.Float) []*big.Float {
	n := len(g)
	a := make([][]*big.Float, n)
	for i := range a {
		a[i] = make([]*big.Float, n+1)
		for j := 0; j < n; j++ {
			a[i][j] = new(big.Float).SetPrec(bigPrec).Set(h[i][j])
		}
		a[i][n] = new(big.Float).SetPrec(bigPrec).Set(g[i])
	}
	t := bigZero()
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if new(big.Float).Abs(a[r][c]).Cmp(new(big.Float).Abs(a[p][c])) > 0 {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < n; r++ {
			f := new(big.Float).SetPrec(bigPrec).Quo(a[r][c], a[c][c])
			for j := c; j <= n; j++ {
				a[r][j].Sub(a[r][j], t.Mul(f, a[c][j]))
			}
		}
	}
	d := make([]*big.Float, n)
	for c := n - 1; c >= 0; c-- {
		v := new(big.Float).SetPrec(bigPrec).Set(a[c][n])
		for j := c + 1; j < n; j++ {
			v.Sub(v, t.Mul(a[c][j], d[j]))
		}
		d[c] = v.Quo(v, a[c][c])
	}
	return d
}

// illConditionedLogistic draws a logistic problem of 2 to 4 variables and
// 2 to 6 rows with the quadratic part of illConditionedQP (P with
// eigenvalues 1e-6 .. 1e4, q up to 100 in size), and a ridge of 1e-8 ..
// 1e-2 in half of the draws: x* is large where P is nearly singular, and
// F far below the size of its terms.
func illConditionedLogistic(rng *rand.Rand) *Problem {
	p := illConditionedQP(rng)
	p.A, p.B, p.Aeq, p.Beq, p.Lower, p.Upper = nil, nil, nil, nil, nil, nil
	p.Loss = "logistic"
	l := 2 + rng.Intn(5)
	for k := 0; k < l; k++ {
		row := make([]float64, p.N)
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		p.Phi = append(p.Phi, row)
		p.Y = append(p.Y, float64(2*rng.Intn(2)-1))
	}
	if rng.Intn(2) == 0 {
		p.Ridge = math.Pow(10, -8+6*rng.Float64())
	}
	return p
}

// TestCertificateLogisticIllConditioned: logistic problems whose P is
// nearly singular (illConditionedLogistic), against x* and F* found in
// 320-bit arithmetic. Every answer's gap must bound F(x) - F* and its
// distance bound ||x - x*||, whatever its status. With F - G taken as the
// difference of two sums of terms of the size of x'Px, with an allowance
// relative to F, APG reported gaps up to 77 times below F(x) - F*
// (||x|| ~ 3e4 .. 5e6, F ~ -5e4 .. -7e7) and distance bounds a quarter
// of the true distance.
func TestCertificateLogisticIllConditioned(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	count := 60
	if testing.Short() {
		count = 20
	}
	answers, solved := 0, 0
	for it := 0; it < count; it++ {
		p := illConditionedLogistic(rng)
		m := logisticOf(p)
		for _, method := range []Method{MethodAuto, MethodAPG} {
			res, err := Solve(context.Background(), p, &Options{Tol: 1e-9, Method: method, TimeLimit: 200 * time.Millisecond})
			if err != nil {
				t.Fatalf("problem %d, %v: %v", it, method, err)
			}
			xs, fs, ok := m.minimize(res.X)
			if !ok {
				t.Fatalf("problem %d: the reference did not converge", it)
			}
			answers++
			if res.Status == StatusSolved {
				solved++
			}
			excess, _ := new(big.Float).Sub(m.value(res.X), fs).Float64()
			var d2 float64
			for i, v := range res.X {
				w, _ := xs[i].Float64()
				d2 += (v - w) * (v - w)
			}
			if excess > res.Gap {
				t.Errorf("problem %d, %v: %v with F(x) - F* = %.3g above the certified gap %.3g", it, method, res.Status, excess, res.Gap)
			}
			if d := math.Sqrt(d2); d > res.DistBound {
				t.Errorf("problem %d, %v: %v with ||x - x*|| = %.3g above the certified %.3g", it, method, res.Status, d, res.DistBound)
			}
		}
	}
	t.Logf("%d of %d answers solved", solved, answers)
	if solved < answers/2 {
		t.Errorf("only %d of %d answers solved", solved, answers)
	}
}
