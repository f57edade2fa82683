package softpen

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/softpen/softpen/internal/qpgen"
)

// advState is one problem of an update sequence and its exact answer.
type advState struct {
	name string
	p    *Problem
	ex   *qpgen.ExactResult
}

// advVariant is a copy of p (sharing its rows) with B, Lower, Upper and Q
// copied, for a state of a sequence to change.
func advVariant(p *Problem) *Problem {
	q := *p
	q.B, q.Lower, q.Upper, q.Q = slices.Clone(p.B), slices.Clone(p.Lower), slices.Clone(p.Upper), slices.Clone(p.Q)
	return &q
}

// advMove takes s from the data of from to that of to by the setters the
// difference needs (SetB, SetBounds, SetQ), in an order drawn from rng.
func advMove(rng *rand.Rand, s *Solver, from, to *Problem) error {
	calls := []func() error{}
	if !slices.Equal(from.B, to.B) {
		calls = append(calls, func() error { return s.SetB(to.B) })
	}
	if !slices.Equal(from.Lower, to.Lower) || !slices.Equal(from.Upper, to.Upper) {
		calls = append(calls, func() error { return s.SetBounds(to.Lower, to.Upper) })
	}
	if !slices.Equal(from.Q, to.Q) {
		calls = append(calls, func() error { return s.SetQ(to.Q) })
	}
	rng.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })
	for _, c := range calls {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// advBadCall makes one call that the setters' contract refuses (a NaN in
// b, b or q of the wrong length, lower > upper, an upper bound of -Inf)
// and returns its error; nil means the call was taken.
func advBadCall(rng *rand.Rand, s *Solver, p *Problem) error {
	n, m := p.N, len(p.B)
	switch rng.Intn(5) {
	case 0:
		b := slices.Clone(p.B)
		b[rng.Intn(m)] = math.NaN()
		return s.SetB(b)
	case 1:
		return s.SetB(make([]float64, m+1))
	case 2:
		q := make([]float64, n)
		q[rng.Intn(n)] = math.Inf(1)
		return s.SetQ(q)
	case 3:
		lo, hi := make([]float64, n), make([]float64, n)
		lo[rng.Intn(n)] = 1
		return s.SetBounds(lo, hi)
	default:
		hi := make([]float64, n)
		hi[rng.Intn(n)] = math.Inf(-1)
		return s.SetBounds(nil, hi)
	}
}

// advSameBits reports whether two answers are the same bit for bit:
// status, x, gap, distance bound and certificate.
func advSameBits(a, b *Result) bool {
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	return a.Status == b.Status && slices.Equal(bits(a.X), bits(b.X)) &&
		math.Float64bits(a.Gap) == math.Float64bits(b.Gap) &&
		math.Float64bits(a.DistBound) == math.Float64bits(b.DistBound) &&
		slices.Equal(bits(a.FarkasA), bits(b.FarkasA)) && slices.Equal(bits(a.FarkasEq), bits(b.FarkasEq))
}

// advClone copies the parts of r that advSameBits compares (a Solver's
// Result is overwritten by its next Solve).
func advClone(r *Result) *Result {
	c := *r
	c.X, c.FarkasA, c.FarkasEq = slices.Clone(r.X), slices.Clone(r.FarkasA), slices.Clone(r.FarkasEq)
	return &c
}

// advSlabSequence: rows a'x <= b and -a'x <= -b (an equality held by two
// rows, a and x0 normal, b = a'x0 rounded, the unconstrained optimum
// beyond the row) and a random row in half the draws; the states move
// the second right-hand side by one ulp, down (empty by one ulp) or up
// (a slab one ulp wide), and back, and q to another drawn vector and
// back.
func advSlabSequence(rng *rand.Rand) []*Problem {
	n := 2 + rng.Intn(3)
	p := advBase(rng, n)
	a, x0 := advNormal(rng, n), advNormal(rng, n)
	b := advDot(a, x0)
	advTarget(p, advAway(rng, x0, a))
	neg := make([]float64, n)
	for i := range neg {
		neg[i] = -a[i]
	}
	advRow(p, a, b)
	advRow(p, neg, -b)
	if rng.Intn(2) == 0 {
		advRow(p, advNormal(rng, n), math.Abs(rng.NormFloat64()))
	}
	at := func(w float64, q []float64) *Problem {
		v := advVariant(p)
		v.B[1] = w
		if q != nil {
			v.Q = q
		}
		return v
	}
	empty, sliver := math.Nextafter(-b, math.Inf(-1)), math.Nextafter(-b, math.Inf(1))
	q2 := advNormal(rng, n)
	for i := range q2 {
		q2[i] = p.Q[i] + 3*q2[i]
	}
	return []*Problem{p, at(empty, nil), p, at(sliver, nil), at(empty, q2), at(sliver, q2), at(-b, q2), at(empty, nil), p}
}

// advCornerSequence: a row of small integers a'x <= b through the corner
// v of a dyadic box where a'x is least (b = a'v exactly: the feasible set
// is that corner's face of the row), the unconstrained optimum elsewhere,
// and a second row in half the draws; the states move one of v's bounds
// by one ulp inwards (empty by that ulp times |a_i|) or outwards, and b
// by one ulp up or down, alone or with the bounds, and back.
func advCornerSequence(rng *rand.Rand) []*Problem {
	n := 2 + rng.Intn(2)
	p := advBase(rng, n)
	p.Lower, p.Upper = make([]float64, n), make([]float64, n)
	for i := range n {
		p.Lower[i] = -float64(1+rng.Intn(16)) / 8
		p.Upper[i] = p.Lower[i] + float64(1+rng.Intn(16))/8
	}
	a := advIntRow(rng, n, 3)
	v := make([]float64, n)
	k := -1 // a coordinate that decides the corner
	for i := range n {
		v[i] = p.Lower[i]
		if a[i] < 0 {
			v[i] = p.Upper[i]
		}
		if a[i] != 0 && (k < 0 || rng.Intn(2) == 0) {
			k = i
		}
	}
	advRow(p, a, advDot(a, v))
	if rng.Intn(2) == 0 {
		advRow(p, advNormal(rng, n), math.Abs(rng.NormFloat64()))
	}
	advTarget(p, advAway(rng, v, advNormal(rng, n)))
	bound := func(inwards bool) *Problem {
		w := advVariant(p)
		toward := math.Inf(1) // inwards from the lower bound is up
		if a[k] > 0 != inwards {
			toward = math.Inf(-1)
		}
		if a[k] > 0 {
			w.Lower[k] = math.Nextafter(w.Lower[k], toward)
		} else {
			w.Upper[k] = math.Nextafter(w.Upper[k], toward)
		}
		return w
	}
	in, out := bound(true), bound(false)
	bUp := advVariant(p)
	bUp.B[0] = math.Nextafter(p.B[0], math.Inf(1))
	bDown := advVariant(p)
	bDown.B[0] = math.Nextafter(p.B[0], math.Inf(-1))
	inUp := advVariant(in) // the bound's ulp against b's: empty or not as they fall
	inUp.B[0] = bUp.B[0]
	return []*Problem{p, in, p, out, bDown, p, in, inUp, bUp, out, p}
}

// TestAdversarialSequences takes one Solver through update sequences that
// move a problem between feasible and empty by one ulp and back (SetB on
// two opposite rows, SetBounds on a box corner a row passes through, SetQ
// on either) and judges every answer against its own exact reference
// (advJudge). Between the moves it makes calls the setters refuse (bad b,
// q or bounds): each must return an error and, as the setters promise,
// leave the Solver unchanged: a twin Solver taken through the same moves
// without them answers the same bit for bit. A fresh Solver with the same
// seed answers the first problem the same bit for bit too (Options.Seed).
// Whether a warm re-solve after returning to the first data, or one after
// Reset, repeats the fresh answer bit for bit is not promised, and only
// counted.
func TestAdversarialSequences(t *testing.T) {
	count := 30
	if testing.Short() {
		count = 8
	}
	if *advDraws > 0 {
		count = *advDraws
	}
	rng := rand.New(rand.NewSource(41 + *advSeed))
	tally := advTally{notes: map[string]int{}}
	warmSame, resetSame, returns := 0, 0, 0
	opt := &Options{Tol: 1e-9, Seed: 1}
	for it := range count {
		kind, seq := "slab", advSlabSequence(rng)
		if it%2 == 1 {
			kind, seq = "corner", advCornerSequence(rng)
		}
		states := make([]advState, len(seq))
		cache := map[*Problem]*qpgen.ExactResult{}
		for i, p := range seq {
			ex, ok := cache[p]
			if !ok {
				var err error
				if ex, err = advExact(p); err != nil {
					t.Fatalf("%s %d: reference: %v", kind, it, err)
				}
				cache[p] = ex
			}
			states[i] = advState{fmt.Sprintf("%s %d, state %d", kind, it, i), p, ex}
		}
		s, err := NewSolver(seq[0], opt)
		if err != nil {
			t.Fatalf("%s %d: NewSolver: %v", kind, it, err)
		}
		twin, _ := NewSolver(seq[0], opt)
		var first *Result
		for i, st := range states {
			if i > 0 {
				order := rng.Int63() // the twin's setters in the same order
				if err := advMove(rand.New(rand.NewSource(order)), s, seq[i-1], st.p); err != nil {
					t.Fatalf("%s: a setter refused good data: %v", st.name, err)
				}
				if err := advMove(rand.New(rand.NewSource(order)), twin, seq[i-1], st.p); err != nil {
					t.Fatalf("%s: twin: %v", st.name, err)
				}
			}
			if rng.Intn(2) == 0 {
				if err := advBadCall(rng, s, st.p); err == nil {
					t.Fatalf("%s: a setter took bad data", st.name)
				}
			}
			res, err := s.Solve(context.Background())
			advCount(t, st.name, st.p, st.ex, res, err, &tally)
			if err != nil {
				continue
			}
			got := advClone(res)
			if tw, err := twin.Solve(context.Background()); err != nil || !advSameBits(got, tw) {
				t.Errorf("%s: the Solver after refused calls answers %v (x %v), its twin without them %v (x %v, %v)",
					st.name, got.Status, got.X, tw.Status, tw.X, err)
			}
			switch {
			case i == 0:
				first = got
				fresh, _ := NewSolver(st.p, opt)
				if fr, err := fresh.Solve(context.Background()); err != nil || !advSameBits(first, fr) {
					t.Errorf("%s: two fresh Solvers with one seed answer differently", st.name)
				}
			case st.p == seq[0]:
				returns++
				if advSameBits(first, got) {
					warmSame++
				}
				s.Reset()
				twin.Reset()
				res, err := s.Solve(context.Background())
				advCount(t, st.name+", after Reset", st.p, st.ex, res, err, &tally)
				if err == nil && advSameBits(first, res) {
					resetSame++
				}
				if _, err := twin.Solve(context.Background()); err != nil {
					t.Fatalf("%s: twin: %v", st.name, err)
				}
			}
		}
	}
	t.Logf("%+v", tally)
	t.Logf("back at the first data: %d of %d warm re-solves and %d after Reset repeat the fresh answer bit for bit", warmSame, returns, resetSame)
}
