package testqp

import (
	"fmt"
	"math"
)

// Receding-horizon (MPC) test problems: the condensed (dense) QPs of linear
// MPC on three models from the public literature, and closed-loop sequences
// of them.
//
// A model is x_{k+1} = A x_k + B u_k, y_k = C x_k, with nx states, nu
// inputs and ny outputs. At horizon N the QP's variables are the stacked
// inputs U = (u_0, ..., u_{N-1}) (n = N nu), the predicted outputs are
// Y = (y_1, ..., y_N) = Phi x0 + Gamma U with Phi's block i = C A^i and
// Gamma's block (i, j) = C A^{i-1-j} B for j < i (zero otherwise), and
//
//	minimize   sum_{i=1..N} (y_i - r)'Qy (y_i - r) + sum_{i=0..N-1} u_i'R u_i
//	subject to umin <= u_i <= umax,  ymin <= y_i <= ymax  (i = 1..N)
//
// (the terminal weight is Qy, as at every other step), which is, halved,
//
//	minimize   1/2 U'H U + q'U,  H = Gamma'Qbar Gamma + Rbar,
//	           q = Gamma'Qbar (Phi x0 - rbar)
//	subject to Lower <= U <= Upper,  A U <= b,
//
// with Qbar, Rbar block diagonal and rbar = (r, ..., r). The rows A U <= b
// are the finite output bounds at each step: +Gamma_(i,o) U <= ymax_o -
// Phi_(i,o) x0 and -Gamma_(i,o) U <= Phi_(i,o) x0 - ymin_o. H, A and the
// bounds are fixed; q changes with x0 and r, b with x0.
//
// The models (MPCSystems):
//
//   - "double-integrator": position and velocity, d^2 p/dt^2 = u, sampled
//     by a zero-order hold with Ts = 0.1 (Ad = [[1, 0.1], [0, 1]], Bd =
//     [0.005, 0.1]); |u| <= 1, |p| <= 5, |v| <= 2; y = x, Qy = diag(1,
//     0.1), R = 0.1. The textbook example of constrained MPC (e.g. Borrelli,
//     Bemporad and Morari, "Predictive Control for Linear and Hybrid
//     Systems", 2017), with the limits of our issue 29.
//   - "afti16": the linearised AFTI-16 aircraft of Kapasouris, Athans and
//     Stein ("Design of feedback control systems for unstable plants with
//     saturating actuators", IFAC NOLCOS 1990), as Bemporad, Casavola and
//     Mosca use it (IEEE TAC 42(3), 1997) and the MATLAB MPC Toolbox's
//     example "Aircraft with Unstable Poles" (afti16): continuous-time A =
//     [[-0.0151, -60.5651, 0, -32.174], [-0.0001, -1.3411, 0.9929, 0],
//     [0.00018, 43.2541, -0.86939, 0], [0, 0, 1, 0]], B = [[-2.516,
//     -13.136], [-0.1689, -0.2514], [-17.251, -1.5766], [0, 0]], outputs
//     y = (x2, x4) (attack and pitch angle), sampled by a zero-order hold
//     (ZOH, our own matrix exponential) with Ts = 0.05; |u_i| <= 25 and
//     |y1| <= 0.5 as there (the toolbox bounds y1 at the first predicted
//     step only; we bound it at every step). Qy = diag(10, 10), R =
//     diag(0.1, 0.1): our choice. The model is open-loop unstable (poles
//     -7.66, +5.45, -0.0075 +- 0.056i), so Gamma grows geometrically with
//     N: see MPCHorizons.
//   - "quadcopter": the 12-state, 4-input discrete-time quadcopter of the
//     OSQP documentation's MPC example (docs/examples/mpc.rst of
//     github.com/osqp/osqp; Stellato, Banjac et al.), its inputs deviations
//     from u0 = 10.5916 (hover): u in [9.6, 13] - u0,
//     |x1|, |x2| <= pi/6 (roll, pitch), x6 >= -1 (altitude), Q =
//     diag(0, 0, 10, 10, 10, 10, 0, 0, 0, 5, 5, 5), R = 0.1 I, as there;
//     y = x.
//
// The numbers are those of float64 arithmetic in the order written here;
// on an architecture where Go fuses multiply-adds (arm64) they may differ
// in the last bits.

// MPCSystems are the names NewMPCModel knows, in the benchmarks' order.
var MPCSystems = []string{"double-integrator", "afti16", "quadcopter"}

// MPCModel is a discrete-time linear model with its MPC weights, limits and
// closed-loop scenario.
type MPCModel struct {
	Name    string
	A, B, C [][]float64 // nx x nx, nx x nu, ny x nx
	Qy, R   []float64   // diagonal output (ny) and input (nu) weights
	// Input bounds (nu, finite) and output bounds (ny; -Inf / +Inf where
	// there is none).
	UMin, UMax []float64
	YMin, YMax []float64
	// The scenario of Simulate: the reference of output o is redrawn every
	// RefPeriod steps, uniformly in [RefLo_o, RefHi_o]; every step adds a
	// disturbance N(0, Noise_j^2) to state j.
	RefLo, RefHi []float64
	RefPeriod    int
	Noise        []float64
}

// NewMPCModel returns the model of that name (one of MPCSystems).
func NewMPCModel(system string) (*MPCModel, error) {
	inf := math.Inf(1)
	switch system {
	case "double-integrator":
		ad, bd := ZOH([][]float64{{0, 1}, {0, 0}}, [][]float64{{0}, {1}}, 0.1)
		return &MPCModel{
			Name: system, A: ad, B: bd, C: identity(2),
			Qy: []float64{1, 0.1}, R: []float64{0.1},
			UMin: []float64{-1}, UMax: []float64{1},
			YMin: []float64{-5, -2}, YMax: []float64{5, 2},
			// Position targets within 4 of the origin, changed every 3 s:
			// long enough to arrive, with the input saturated on the way.
			RefLo: []float64{-4, 0}, RefHi: []float64{4, 0}, RefPeriod: 30,
			Noise: []float64{0.001, 0.002},
		}, nil
	case "afti16":
		ad, bd := ZOH(afti16())
		return &MPCModel{
			Name: system, A: ad, B: bd, C: [][]float64{{0, 1, 0, 0}, {0, 0, 0, 1}},
			Qy: []float64{10, 10}, R: []float64{0.1, 0.1},
			UMin: []float64{-25, -25}, UMax: []float64{25, 25},
			YMin: []float64{-0.5, -inf}, YMax: []float64{0.5, inf},
			RefLo: []float64{0, -10}, RefHi: []float64{0, 10}, RefPeriod: 40,
			Noise: []float64{0.01, 0.001, 0.001, 0.001},
		}, nil
	case "quadcopter":
		const hover = 10.5916
		return &MPCModel{
			Name: system, A: quadA(), B: quadB(), C: identity(12),
			Qy:   []float64{0, 0, 10, 10, 10, 10, 0, 0, 0, 5, 5, 5},
			R:    []float64{0.1, 0.1, 0.1, 0.1},
			UMin: []float64{9.6 - hover, 9.6 - hover, 9.6 - hover, 9.6 - hover},
			UMax: []float64{13 - hover, 13 - hover, 13 - hover, 13 - hover},
			YMin: []float64{-math.Pi / 6, -math.Pi / 6, -inf, -inf, -inf, -1, -inf, -inf, -inf, -inf, -inf, -inf},
			YMax: []float64{math.Pi / 6, math.Pi / 6, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf},
			// Targets for the weighted states 3-6 (yaw ... altitude; the
			// OSQP example's is 1 in the third), zero for the rest.
			RefLo:     []float64{0, 0, -1, -3, -3, -0.5, 0, 0, 0, 0, 0, 0},
			RefHi:     []float64{0, 0, 1, 3, 3, 3, 0, 0, 0, 0, 0, 0},
			RefPeriod: 10,
			Noise:     []float64{0.001, 0.001, 0.001, 0.005, 0.005, 0.005, 0.002, 0.002, 0.002, 0.005, 0.005, 0.005},
		}, nil
	}
	return nil, fmt.Errorf("testqp: unknown MPC system %q (want one of %q)", system, MPCSystems)
}

// afti16 is the AFTI-16's continuous-time A and B and its sampling time
// (see MPCSystems).
func afti16() (a, b [][]float64, ts float64) {
	a = [][]float64{
		{-0.0151, -60.5651, 0, -32.174},
		{-0.0001, -1.3411, 0.9929, 0},
		{0.00018, 43.2541, -0.86939, 0},
		{0, 0, 1, 0},
	}
	b = [][]float64{{-2.516, -13.136}, {-0.1689, -0.2514}, {-17.251, -1.5766}, {0, 0}}
	return a, b, 0.05
}

// quadA and quadB are the OSQP MPC example's Ad and Bd (see MPCSystems).
func quadA() [][]float64 {
	return [][]float64{
		{1, 0, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0},
		{0, 1, 0, 0, 0, 0, 0, 0.1, 0, 0, 0, 0},
		{0, 0, 1, 0, 0, 0, 0, 0, 0.1, 0, 0, 0},
		{0.0488, 0, 0, 1, 0, 0, 0.0016, 0, 0, 0.0992, 0, 0},
		{0, -0.0488, 0, 0, 1, 0, 0, -0.0016, 0, 0, 0.0992, 0},
		{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0.0992},
		{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},
		{0.9734, 0, 0, 0, 0, 0, 0.0488, 0, 0, 0.9846, 0, 0},
		{0, -0.9734, 0, 0, 0, 0, 0, -0.0488, 0, 0, 0.9846, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.9846},
	}
}

func quadB() [][]float64 {
	return [][]float64{
		{0, -0.0726, 0, 0.0726},
		{-0.0726, 0, 0.0726, 0},
		{-0.0152, 0.0152, -0.0152, 0.0152},
		{0, -0.0006, 0, 0.0006},
		{0.0006, 0, -0.0006, 0},
		{0.0106, 0.0106, 0.0106, 0.0106},
		{0, -1.4512, 0, 1.4512},
		{-1.4512, 0, 1.4512, 0},
		{-0.3049, 0.3049, -0.3049, 0.3049},
		{0, -0.0236, 0, 0.0236},
		{0.0236, 0, -0.0236, 0},
		{0.2107, 0.2107, 0.2107, 0.2107},
	}
}

// ZOH is the zero-order-hold discretisation of dx/dt = A x + B u with
// sampling time ts: Ad = exp(A ts) and Bd = int_0^ts exp(A s) ds B, read
// off the exponential of the augmented matrix, exp([[A, B], [0, 0]] ts) =
// [[Ad, Bd], [0, I]] (Van Loan, 1978).
func ZOH(a, b [][]float64, ts float64) (ad, bd [][]float64) {
	nx, nu := len(a), len(b[0])
	m := zeros(nx+nu, nx+nu)
	for i := range nx {
		for j := range nx {
			m[i][j] = a[i][j] * ts
		}
		for j := range nu {
			m[i][nx+j] = b[i][j] * ts
		}
	}
	e := Expm(m)
	ad, bd = zeros(nx, nx), zeros(nx, nu)
	for i := range nx {
		copy(ad[i], e[i][:nx])
		copy(bd[i], e[i][nx:])
	}
	return ad, bd
}

// expmDegree is the degree of Expm's Taylor polynomial: with ||M/2^s|| <=
// 1/2 its remainder is below 2 (1/2)^17 / 17! < 5e-20, under float64's
// rounding of the result (whose norm is at least e^-1/2).
const expmDegree = 16

// Expm is the matrix exponential of the square m by scaling and squaring:
// s halvings bring the infinity norm of M/2^s to at most 1/2, a Taylor
// polynomial of degree expmDegree (Horner's rule) gives exp(M/2^s), and s
// squarings give exp(M). For the small, moderately scaled matrices of
// ZOH; not Higham's Pade method, whose error control large norms need.
func Expm(m [][]float64) [][]float64 {
	n := len(m)
	norm := 0.0
	for _, r := range m {
		s := 0.0
		for _, v := range r {
			s += math.Abs(v)
		}
		norm = max(norm, s)
	}
	sq := 0
	for norm > 0.5 {
		norm /= 2
		sq++
	}
	a := zeros(n, n)
	for i := range m {
		for j := range m[i] {
			a[i][j] = math.Ldexp(m[i][j], -sq)
		}
	}
	// exp(a) ~ I + a (I + a/2 (I + a/3 (... (I + a/K)))).
	t := identity(n)
	for k := expmDegree; k >= 1; k-- {
		t = matMul(a, t)
		for i := range t {
			for j := range t[i] {
				t[i][j] /= float64(k)
			}
			t[i][i]++
		}
	}
	for range sq {
		t = matMul(t, t)
	}
	return t
}

// MPCQP is a model's condensed QP at one horizon: the fixed H, bounds and
// rows, and what q and b need of x0 and the reference.
type MPCQP struct {
	Model   *MPCModel
	Horizon int
	N       int         // variables, Horizon * nu
	H       [][]float64 // N x N, symmetric positive definite
	// Lower and Upper bound every variable (the input bounds, repeated).
	Lower, Upper []float64
	// A holds the rows of the finite output bounds, step by step (i = 1..
	// Horizon), output by output, the upper bound's row before the
	// lower's.
	A [][]float64

	qx, qr [][]float64 // q = qx x0 - qr r: Gamma'Qbar Phi and Gamma'Qbar (I; ...; I)
	b0     []float64   // b = b0 + bx x0
	bx     [][]float64
	kx, kr [][]float64 // the unconstrained minimiser's first input, kx x0 + kr r
}

// NewMPCQP condenses model m at that horizon (see the file's comment), or
// returns an error if H is not numerically positive definite.
func NewMPCQP(m *MPCModel, horizon int) (*MPCQP, error) {
	nx, nu, ny := len(m.A), len(m.B[0]), len(m.C)
	n, nyN := horizon*nu, horizon*ny
	// Phi (nyN x nx) and Gamma (nyN x n) from the powers A^i and A^k B.
	phi, gamma := zeros(nyN, nx), zeros(nyN, n)
	ai, akb := identity(nx), [][][]float64{m.B}
	for k := 1; k < horizon; k++ {
		akb = append(akb, matMul(m.A, akb[k-1]))
	}
	for i := 1; i <= horizon; i++ {
		ai = matMul(m.A, ai)
		cai := matMul(m.C, ai)
		for o := range ny {
			copy(phi[(i-1)*ny+o], cai[o])
		}
		for j := 0; j < i; j++ {
			cb := matMul(m.C, akb[i-1-j])
			for o := range ny {
				copy(gamma[(i-1)*ny+o][j*nu:(j+1)*nu], cb[o])
			}
		}
	}
	// W = Qbar Gamma; H = Gamma'W + Rbar, its upper triangle mirrored.
	w := zeros(nyN, n)
	for r := range nyN {
		for c := range n {
			w[r][c] = m.Qy[r%ny] * gamma[r][c]
		}
	}
	p := &MPCQP{Model: m, Horizon: horizon, N: n, H: zeros(n, n),
		Lower: make([]float64, n), Upper: make([]float64, n)}
	for i := range n {
		for j := i; j < n; j++ {
			s := 0.0
			for r := range nyN {
				s += gamma[r][i] * w[r][j]
			}
			p.H[i][j] = s
		}
		p.H[i][i] += m.R[i%nu]
		for j := 0; j < i; j++ {
			p.H[i][j] = p.H[j][i]
		}
		p.Lower[i], p.Upper[i] = m.UMin[i%nu], m.UMax[i%nu]
	}
	p.qx, p.qr = zeros(n, nx), zeros(n, ny)
	for i := range n {
		for r := range nyN {
			for j := range nx {
				p.qx[i][j] += w[r][i] * phi[r][j]
			}
			p.qr[i][r%ny] += w[r][i]
		}
	}
	for r := range nyN {
		o := r % ny
		if hi := m.YMax[o]; !math.IsInf(hi, 1) {
			p.A = append(p.A, append([]float64(nil), gamma[r]...))
			p.b0 = append(p.b0, hi)
			p.bx = append(p.bx, scaled(-1, phi[r]))
		}
		if lo := m.YMin[o]; !math.IsInf(lo, -1) {
			p.A = append(p.A, scaled(-1, gamma[r]))
			p.b0 = append(p.b0, -lo)
			p.bx = append(p.bx, append([]float64(nil), phi[r]...))
		}
	}
	// The unconstrained minimiser is -H^-1 q = -H^-1 qx x0 + H^-1 qr r;
	// its first input's gains are the first nu rows of H^-1 qx and H^-1 qr.
	l, err := cholesky(p.H)
	if err != nil {
		return nil, fmt.Errorf("testqp: %s at horizon %d: %w", m.Name, horizon, err)
	}
	p.kx, p.kr = zeros(nu, nx), zeros(nu, ny)
	col := make([]float64, n)
	for j := range nx + ny {
		for i := range n {
			if j < nx {
				col[i] = p.qx[i][j]
			} else {
				col[i] = p.qr[i][j-nx]
			}
		}
		cholSolve(l, col)
		for i := range nu {
			if j < nx {
				p.kx[i][j] = -col[i]
			} else {
				p.kr[i][j-nx] = col[i]
			}
		}
	}
	return p, nil
}

// Q is the linear term q = Gamma'Qbar (Phi x0 - rbar) at state x0 and
// output reference ref.
func (p *MPCQP) Q(x0, ref []float64) []float64 {
	q := make([]float64, p.N)
	for i := range q {
		q[i] = dot(p.qx[i], x0) - dot(p.qr[i], ref)
	}
	return q
}

// B is the right-hand side of the rows at state x0.
func (p *MPCQP) B(x0 []float64) []float64 {
	b := make([]float64, len(p.b0))
	for j := range b {
		b[j] = p.b0[j] + dot(p.bx[j], x0)
	}
	return b
}

// Clipped is the first input of the unconstrained minimiser -H^-1 q of
// the QP at (x0, ref), clipped to the input bounds: the LQ-like policy of
// the closed loop, a function of the data alone.
func (p *MPCQP) Clipped(x0, ref []float64) []float64 {
	u := make([]float64, len(p.Model.UMin))
	p.clip(u, x0, ref)
	return u
}

// clip writes Clipped(x0, ref) to u.
func (p *MPCQP) clip(u, x0, ref []float64) {
	m := p.Model
	for i := range u {
		u[i] = min(max(dot(p.kx[i], x0)+dot(p.kr[i], ref), m.UMin[i]), m.UMax[i])
	}
}

// feasiblePoint returns a feasible point of the QP at x0 if it can show
// one: the inputs U of the clipped policy (Clipped, with reference ref)
// applied over the horizon to the model from x0, which satisfy the bounds
// by construction, and A U <= b checked in float64. false means that this
// candidate fails, not that the QP is infeasible.
func (p *MPCQP) feasiblePoint(x0, ref []float64) ([]float64, bool) {
	u := make([]float64, 0, p.N)
	p.rollout(x0, ref, p.Horizon, func(ui, _ []float64) bool {
		u = append(u, ui...)
		return true
	})
	b := p.B(x0)
	for j, a := range p.A {
		if dot(a, u) > b[j] {
			return nil, false
		}
	}
	return u, true
}

// rollout applies the clipped policy with reference ref to the model from
// x0 for up to steps steps, calling visit with each input and the state it
// leads to (buffers that visit must not keep); it stops early, returning
// false, when visit does.
func (p *MPCQP) rollout(x0, ref []float64, steps int, visit func(u, x []float64) bool) bool {
	m := p.Model
	x, next := append([]float64(nil), x0...), make([]float64, len(x0))
	u := make([]float64, len(m.UMin))
	for range steps {
		p.clip(u, x, ref)
		for i := range next {
			next[i] = dot(m.A[i], x) + dot(m.B[i], u)
		}
		x, next = next, x
		if !visit(u, x) {
			return false
		}
	}
	return true
}

// MPCStep is one step of a closed-loop run: the state, the QP's output
// reference (the scenario's target), the QP's q and b there, a feasible
// point of the QP (the certificate of its feasibility), and the input
// applied.
type MPCStep struct {
	X0, Ref []float64
	Q, B    []float64
	Point   []float64
	U       []float64
}

// MPCRun is a closed-loop sequence of one condensed QP: the fixed parts in
// MPCQP, the per-step data in Steps.
type MPCRun struct {
	*MPCQP
	Steps []MPCStep
}

// MPCHorizons are the horizons of the benchmarks: 10, 20 and 50, but 10
// and 20 for afti16, whose unstable pole (e^(5.45 * 2.5) ~ 8e5 over 50
// steps of 0.05) makes the condensed H at N = 50 so ill-conditioned (about
// 4e12) that float64 answers are unreliable: on seed 1's sequence softpen
// ends the first QP at its precision limit and DAQP 0.9.1 every QP at its
// iteration limit. Such a horizon needs a pre-stabilised or sparse
// (non-condensed) formulation.
func MPCHorizons(system string) []int {
	if system == "afti16" {
		return []int{10, 20}
	}
	return []int{10, 20, 50}
}

// MPCSequence is the closed-loop run of steps QPs of system (one of
// MPCSystems) at that horizon from x = 0 with the model's seeded scenario
// (Simulate). The sequence depends on the arguments alone, never on a QP
// solver.
func MPCSequence(system string, horizon, steps int, seed uint64) (*MPCRun, error) {
	m, err := NewMPCModel(system)
	if err != nil {
		return nil, err
	}
	p, err := NewMPCQP(m, horizon)
	if err != nil {
		return nil, err
	}
	return p.Simulate(make([]float64, len(m.A)), steps, seed)
}

// Simulate runs the closed loop from state x0 for steps steps, all draws
// from LCG(seed). At step k the target reference is redrawn if k is a
// multiple of the model's RefPeriod (uniform in [RefLo, RefHi], one draw
// per output), and the step's QP is the one at (x, target). The input
// applied is the clipped policy's (Clipped) at a governed reference
// (govern): with the target itself that policy, which ignores the output
// bounds, would drive the state where the next QPs have no feasible point;
// the QPs keep the target, so that their answers press on the bounds as
// an MPC's do. The model then moves to A x + B u + w with w ~ N(0,
// diag(Noise)^2). Every step's QP has a feasible point shown (Point:
// feasibility does not depend on the reference, so the governed
// reference's rollout serves); Simulate returns an error, naming the
// step, where none is shown, so every QP of a run it returns is feasible.
func (p *MPCQP) Simulate(x0 []float64, steps int, seed uint64) (*MPCRun, error) {
	m := p.Model
	g := LCG(seed)
	run := &MPCRun{MPCQP: p, Steps: make([]MPCStep, steps)}
	x := append([]float64(nil), x0...)
	gov, target := make([]float64, len(m.C)), make([]float64, len(m.C))
	for k := range run.Steps {
		if k%m.RefPeriod == 0 {
			target = make([]float64, len(m.C))
			for o := range target {
				target[o] = m.RefLo[o] + (m.RefHi[o]-m.RefLo[o])*g.Uniform()
			}
		}
		var point []float64
		if gov, point = p.govern(x, gov, target); point == nil {
			return nil, fmt.Errorf("testqp: %s at horizon %d, step %d: no feasible point shown at x = %v", m.Name, p.Horizon, k, x)
		}
		st := &run.Steps[k]
		st.X0, st.Ref, st.Q, st.B, st.Point = x, target, p.Q(x, target), p.B(x), point
		st.U = p.Clipped(x, gov)
		x = step(m, x, st.U)
		for j := range x {
			x[j] += m.Noise[j] * g.Normal()
		}
	}
	return run, nil
}

// The reference governor's test: a reference is admissible at x when the
// clipped policy's rollout from x keeps every output within its bounds
// tightened by governorShrink of their magnitude (room for the
// disturbances) for governorSteps steps, long after the closed loop has
// settled (the finite test of Gilbert and Tan's maximal output admissible
// set), and the QP at x has a feasible point from it.
const (
	governorSteps  = 400
	governorShrink = 0.1
)

// govern is the reference governor (after Gilbert and Kolmanovsky): it
// returns the reference last + t (target - last) with the largest t in
// [0, 1] that is admissible at x (t = 1, or found by bisection to 2^-10)
// and the QP's feasible point it gives. When no t > 0 is admissible, it
// returns last if its rollout meets the bounds themselves (not tightened:
// the disturbance may have used some of the room) and gives a feasible
// point; else a nil point.
func (p *MPCQP) govern(x, last, target []float64) (ref, point []float64) {
	m := p.Model
	admissible := func(r []float64, shrink float64) []float64 {
		inside := p.rollout(x, r, governorSteps, func(_, x []float64) bool {
			for o, c := range m.C {
				hi, lo := m.YMax[o], m.YMin[o]
				if math.IsInf(hi, 1) && math.IsInf(lo, -1) {
					continue
				}
				if y := dot(c, x); y > hi-shrink*math.Abs(hi) || y < lo+shrink*math.Abs(lo) {
					return false
				}
			}
			return true
		})
		if !inside {
			return nil
		}
		pt, _ := p.feasiblePoint(x, r)
		return pt
	}
	if pt := admissible(target, governorShrink); pt != nil {
		return target, pt
	}
	ref, point = last, admissible(last, 0)
	if point == nil {
		return nil, nil
	}
	lo, hi := 0.0, 1.0
	for range 10 {
		mid := (lo + hi) / 2
		r := make([]float64, len(last))
		for o := range r {
			r[o] = last[o] + mid*(target[o]-last[o])
		}
		if pt := admissible(r, governorShrink); pt != nil {
			lo, ref, point = mid, r, pt
		} else {
			hi = mid
		}
	}
	return ref, point
}

// step is the model's x+ = A x + B u (a new slice).
func step(m *MPCModel, x, u []float64) []float64 {
	y := make([]float64, len(x))
	for i := range y {
		y[i] = dot(m.A[i], x) + dot(m.B[i], u)
	}
	return y
}

// cholesky returns the lower-triangular L with a = L L' (summed in order,
// independent of vec's kernels), or an error at a non-positive pivot.
func cholesky(a [][]float64) ([][]float64, error) {
	n := len(a)
	l := zeros(n, n)
	for j := range n {
		d := a[j][j] - dot(l[j][:j], l[j][:j])
		if !(d > 0) {
			return nil, fmt.Errorf("H is not positive definite: pivot %d is %g", j, d)
		}
		d = math.Sqrt(d)
		l[j][j] = d
		for i := j + 1; i < n; i++ {
			l[i][j] = (a[i][j] - dot(l[i][:j], l[j][:j])) / d
		}
	}
	return l, nil
}

// cholSolve overwrites b with (L L')^-1 b.
func cholSolve(l [][]float64, b []float64) {
	n := len(l)
	for i := range n {
		b[i] = (b[i] - dot(l[i][:i], b[:i])) / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * b[k]
		}
		b[i] = s / l[i][i]
	}
}

func dot(x, y []float64) float64 {
	var s float64
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// matMul is the product a b of dense row slices.
func matMul(a, b [][]float64) [][]float64 {
	c := zeros(len(a), len(b[0]))
	for i := range a {
		for k, v := range a[i] {
			if v == 0 {
				continue
			}
			for j := range b[k] {
				c[i][j] += v * b[k][j]
			}
		}
	}
	return c
}

// zeros is an r x c zero matrix in one backing array.
func zeros(r, c int) [][]float64 {
	flat := make([]float64, r*c)
	m := make([][]float64, r)
	for i := range m {
		m[i] = flat[i*c : (i+1)*c : (i+1)*c]
	}
	return m
}

func identity(n int) [][]float64 {
	m := zeros(n, n)
	for i := range m {
		m[i][i] = 1
	}
	return m
}

func scaled(s float64, v []float64) []float64 {
	w := make([]float64, len(v))
	for i := range v {
		w[i] = s * v[i]
	}
	return w
}
