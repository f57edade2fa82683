package testqp

import (
	"math"
	"testing"
)

// maxRelDiff is max |a_ij - b_ij| / max(1, max |b_ij|).
func maxRelDiff(a, b [][]float64) float64 {
	var d, s float64
	for i := range b {
		for j := range b[i] {
			d = max(d, math.Abs(a[i][j]-b[i][j]))
			s = max(s, math.Abs(b[i][j]))
		}
	}
	return d / max(1, s)
}

// det is the determinant by Gaussian elimination with partial pivoting.
func det(m [][]float64) float64 {
	n := len(m)
	a := zeros(n, n)
	for i := range m {
		copy(a[i], m[i])
	}
	d := 1.0
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i][k]) > math.Abs(a[p][k]) {
				p = i
			}
		}
		if p != k {
			a[p], a[k] = a[k], a[p]
			d = -d
		}
		d *= a[k][k]
		for i := k + 1; i < n; i++ {
			f := a[i][k] / a[k][k]
			for j := k; j < n; j++ {
				a[i][j] -= f * a[k][j]
			}
		}
	}
	return d
}

// aftiAugmented is ZOH's augmented matrix of the AFTI-16 at Ts = 0.05: a
// matrix of norm about 5 with an unstable and a stiff eigenvalue.
func aftiAugmented() [][]float64 {
	ac, bc, ts := afti16()
	a := zeros(6, 6)
	for i := range 4 {
		for j := range 4 {
			a[i][j] = ts * ac[i][j]
		}
		a[i][4], a[i][5] = ts*bc[i][0], ts*bc[i][1]
	}
	return a
}

// TestExpm: Expm against what is known of exp exactly: the identity at
// 0, the finite series of a nilpotent matrix, the scalar exponentials of a
// diagonal one (squarings included), and on the AFTI-16's augmented
// matrix the semigroup law exp(M)^2 = exp(2M), exp(M) exp(-M) = I and
// det exp(M) = e^trace(M).
func TestExpm(t *testing.T) {
	if d := maxRelDiff(Expm(zeros(3, 3)), identity(3)); d != 0 {
		t.Errorf("exp(0): off I by %g", d)
	}
	// N nilpotent: exp(N) = I + N + N^2/2, N^2 = 3 e_1 e_3'.
	nil3 := [][]float64{{0, 1, 2}, {0, 0, 3}, {0, 0, 0}}
	if d := maxRelDiff(Expm(nil3), [][]float64{{1, 1, 3.5}, {0, 1, 3}, {0, 0, 1}}); d > 1e-15 {
		t.Errorf("nilpotent: off by %g", d)
	}
	diag := []float64{-3, 0.5, 2, 7}
	e := Expm([][]float64{{-3, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 7}})
	for i, v := range diag {
		for j := range diag {
			want := 0.0
			if i == j {
				want = math.Exp(v)
			}
			if math.Abs(e[i][j]-want) > 1e-14*math.Abs(want) {
				t.Errorf("diagonal: exp[%d][%d] = %v, want %v", i, j, e[i][j], want)
			}
		}
	}
	m := aftiAugmented()
	em := Expm(m)
	if d := maxRelDiff(matMul(em, em), Expm(scaledMat(2, m))); d > 1e-13 {
		t.Errorf("exp(M)^2 off exp(2M) by %g", d)
	}
	if d := maxRelDiff(matMul(em, Expm(scaledMat(-1, m))), identity(6)); d > 1e-13 {
		t.Errorf("exp(M) exp(-M) off I by %g", d)
	}
	var tr float64
	for i := range m {
		tr += m[i][i]
	}
	if got, want := det(em), math.Exp(tr); math.Abs(got-want) > 1e-13*want {
		t.Errorf("det exp(M) = %v, want e^tr = %v", got, want)
	}
}

func scaledMat(s float64, m [][]float64) [][]float64 {
	r := make([][]float64, len(m))
	for i := range m {
		r[i] = scaled(s, m[i])
	}
	return r
}

// TestZOH: the double integrator's exact discretisation (Ad = [[1, T],
// [0, 1]], Bd = [T^2/2, T]), a first-order lag's (e^(aT), b (e^(aT) -
// 1)/a), and the semigroup law of a hold: two steps of T are one of 2T
// (Ad(2T) = Ad^2, Bd(2T) = Ad Bd + Bd) on the AFTI-16.
func TestZOH(t *testing.T) {
	ad, bd := ZOH([][]float64{{0, 1}, {0, 0}}, [][]float64{{0}, {1}}, 0.1)
	if d := maxRelDiff(ad, [][]float64{{1, 0.1}, {0, 1}}) + maxRelDiff(bd, [][]float64{{0.005}, {0.1}}); d > 1e-16 {
		t.Errorf("double integrator: Ad %v Bd %v", ad, bd)
	}
	ad, bd = ZOH([][]float64{{-2}}, [][]float64{{3}}, 0.3)
	if e := math.Exp(-0.6); math.Abs(ad[0][0]-e) > 1e-15 || math.Abs(bd[0][0]-3*(e-1)/-2) > 1e-15 {
		t.Errorf("first order: Ad %v Bd %v, off by %g, %g", ad, bd, ad[0][0]-e, bd[0][0]-3*(e-1)/-2)
	}
	m, _ := NewMPCModel("afti16")
	ac, bc, ts := afti16()
	ad2, bd2 := ZOH(ac, bc, 2*ts)
	ab := matMul(m.A, m.B)
	for i := range ab {
		for j := range ab[i] {
			ab[i][j] += m.B[i][j]
		}
	}
	if d := maxRelDiff(matMul(m.A, m.A), ad2); d > 1e-13 {
		t.Errorf("AFTI-16: Ad(T)^2 off Ad(2T) by %g", d)
	}
	if d := maxRelDiff(ab, bd2); d > 1e-13 {
		t.Errorf("AFTI-16: Ad Bd + Bd off Bd(2T) by %g", d)
	}
}

// mpcOutputs simulates the model from x0 under the inputs u (stacked) and
// returns the outputs y_1 ... y_N.
func mpcOutputs(m *MPCModel, x0, u []float64) [][]float64 {
	nu := len(m.UMin)
	x := x0
	var ys [][]float64
	for i := 0; i < len(u)/nu; i++ {
		x = step(m, x, u[i*nu:(i+1)*nu])
		y := make([]float64, len(m.C))
		for o, c := range m.C {
			y[o] = dot(c, x)
		}
		ys = append(ys, y)
	}
	return ys
}

// mpcCost is the MPC's cost of the inputs u from x0 with reference ref,
// summed along a simulation (not from the condensed matrices).
func mpcCost(m *MPCModel, x0, ref, u []float64) float64 {
	var c float64
	for _, y := range mpcOutputs(m, x0, u) {
		for o := range y {
			c += m.Qy[o] * (y[o] - ref[o]) * (y[o] - ref[o])
		}
	}
	for i, v := range u {
		c += m.R[i%len(m.R)] * v * v
	}
	return c
}

// TestMPCQP: the condensed QP is the MPC's, checked along simulations of
// the model at random states, references and inputs: J(U) - J(0) = U'HU +
// 2 q'U (J the summed cost), each row's A_j U - b_j is the simulated
// output's distance past its bound, H is symmetric, the bounds repeat the
// inputs', and Clipped is the first input of -H^-1 q clipped.
func TestMPCQP(t *testing.T) {
	g := LCG(5)
	for _, sys := range MPCSystems {
		for _, h := range []int{3, 10} {
			m, err := NewMPCModel(sys)
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewMPCQP(m, h)
			if err != nil {
				t.Fatal(err)
			}
			nx, nu, ny := len(m.A), len(m.UMin), len(m.C)
			if p.N != h*nu || len(p.H) != p.N || len(p.Lower) != p.N || len(p.Upper) != p.N {
				t.Fatalf("%s N=%d: sizes n %d H %d bounds %d %d", sys, h, p.N, len(p.H), len(p.Lower), len(p.Upper))
			}
			for i := range p.H {
				if p.Lower[i] != m.UMin[i%nu] || p.Upper[i] != m.UMax[i%nu] {
					t.Errorf("%s N=%d: bound %d is [%v, %v]", sys, h, i, p.Lower[i], p.Upper[i])
				}
				for j := range p.H {
					if p.H[i][j] != p.H[j][i] {
						t.Fatalf("%s N=%d: H[%d][%d] != H[%d][%d]", sys, h, i, j, j, i)
					}
				}
			}
			for range 3 {
				x0, ref, u := scaled(0.3, g.Normals(nx)), g.Normals(ny), g.Normals(p.N)
				q, b := p.Q(x0, ref), p.B(x0)
				quad := 2 * dot(q, u)
				for i := range u {
					quad += u[i] * dot(p.H[i], u)
				}
				diff := mpcCost(m, x0, ref, u) - mpcCost(m, x0, ref, make([]float64, p.N))
				if math.Abs(diff-quad) > 1e-10*max(1, math.Abs(diff)) {
					t.Errorf("%s N=%d: J(U) - J(0) = %v, U'HU + 2q'U = %v", sys, h, diff, quad)
				}
				// Rows in the documented order: step, output, upper before lower.
				j := 0
				for _, y := range mpcOutputs(m, x0, u) {
					for o, v := range y {
						for _, want := range []float64{v - m.YMax[o], m.YMin[o] - v} {
							if math.IsInf(want, -1) {
								continue
							}
							if got := dot(p.A[j], u) - b[j]; math.Abs(got-want) > 1e-10*max(1, math.Abs(v)) {
								t.Errorf("%s N=%d: row %d: A U - b = %v, simulated %v", sys, h, j, got, want)
							}
							j++
						}
					}
				}
				if j != len(p.A) || len(b) != j {
					t.Errorf("%s N=%d: %d rows, %d right-hand sides, %d bounds simulated", sys, h, len(p.A), len(b), j)
				}
				l, err := cholesky(p.H)
				if err != nil {
					t.Fatal(err)
				}
				unc := scaled(-1, q)
				cholSolve(l, unc)
				for i, v := range p.Clipped(x0, ref) {
					want := min(max(unc[i], m.UMin[i]), m.UMax[i])
					if math.Abs(v-want) > 1e-9*max(1, math.Abs(want)) {
						t.Errorf("%s N=%d: Clipped[%d] = %v, want %v", sys, h, i, v, want)
					}
				}
			}
		}
	}
}

// TestMPCSequence: on every benchmark case (each system at its
// MPCHorizons, 200 steps, seeds 1 and 2) every step's QP is feasible (its
// Point within the bounds and satisfying every row), q and b are the QP's
// at the step's state and reference, the applied input keeps the bounds,
// and the run is a function of its arguments.
func TestMPCSequence(t *testing.T) {
	for _, sys := range MPCSystems {
		for _, h := range MPCHorizons(sys) {
			for _, seed := range []uint64{1, 2} {
				run, err := MPCSequence(sys, h, 200, seed)
				if err != nil {
					t.Fatal(err)
				}
				for k, st := range run.Steps {
					for i, v := range st.Point {
						if v < run.Lower[i] || v > run.Upper[i] {
							t.Fatalf("%s N=%d seed %d step %d: point[%d] = %v outside [%v, %v]", sys, h, seed, k, i, v, run.Lower[i], run.Upper[i])
						}
					}
					for j, a := range run.A {
						if s := dot(a, st.Point) - st.B[j]; s > 0 {
							t.Fatalf("%s N=%d seed %d step %d: point violates row %d by %g", sys, h, seed, k, j, s)
						}
					}
					if d := maxRelDiff([][]float64{st.Q, st.B}, [][]float64{run.Q(st.X0, st.Ref), run.B(st.X0)}); d != 0 {
						t.Fatalf("%s N=%d seed %d step %d: q, b off the QP's by %g", sys, h, seed, k, d)
					}
					for i, v := range st.U {
						if v < run.Model.UMin[i] || v > run.Model.UMax[i] {
							t.Fatalf("%s N=%d seed %d step %d: input %d = %v outside its bounds", sys, h, seed, k, i, v)
						}
					}
				}
			}
		}
	}
	a, _ := MPCSequence("double-integrator", 10, 50, 3)
	b, _ := MPCSequence("double-integrator", 10, 50, 3)
	for k := range a.Steps {
		if maxRelDiff([][]float64{a.Steps[k].Q, a.Steps[k].B}, [][]float64{b.Steps[k].Q, b.Steps[k].B}) != 0 {
			t.Fatalf("step %d differs between two runs of one seed", k)
		}
	}
	if _, err := MPCSequence("pendulum", 10, 1, 1); err == nil {
		t.Error("an unknown system gave no error")
	}
}
