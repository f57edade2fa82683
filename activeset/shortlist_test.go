package activeset

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShortlistKeepsMostViolated: after any sequence of offers the list
// holds the shortlistSize most violated rows offered (ties aside), each
// with its violation.
func TestShortlistKeepsMostViolated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		var l shortlist
		count := rng.IntN(3 * shortlistSize)
		offered := make([]float64, count)
		for j := range offered {
			offered[j] = rng.Float64() + 1e-9
			l.add(int32(j), offered[j])
		}
		want := slices.Clone(offered)
		slices.Sort(want)
		slices.Reverse(want)
		want = want[:min(len(want), shortlistSize)]
		got := slices.Clone(l.viol[:l.n])
		slices.Sort(got)
		slices.Reverse(got)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: kept %v, want %v", trial, got, want)
		}
		for i, j := range l.rows[:l.n] {
			if offered[j] != l.viol[i] {
				t.Fatalf("trial %d: row %d kept with %g, offered %g", trial, j, l.viol[i], offered[j])
			}
		}
	}
}

// TestShortlistGoesStale: the engine's search admits from the shortlist
// only while its best row is violated by at least shortlistRatio of the
// last scan's largest violation, and otherwise empties it (and scans).
func TestShortlistGoesStale(t *testing.T) {
	p := separable(400, 5, 3)
	s := mustNew(t, p)
	clear(s.x)
	s.measureDrift(0)
	s.short.n = 0
	for j := int32(0); j < 4; j++ {
		s.short.add(j, 1)
	}
	// At x = 0 every row of the SVM is violated by 1/||a_j||.
	v0 := s.b[0] * -1
	s.short.max = v0 / shortlistRatio * 0.99
	if _, v, ok := s.fromShortlist(0); !ok || v < v0 {
		t.Fatalf("fresh list: ok %v, violation %g (row 0's %g)", ok, v, v0)
	}
	s.short.max = 1e9
	if _, _, ok := s.fromShortlist(0); ok || s.short.n != 0 {
		t.Fatalf("stale list admitted (ok %v) or kept (%d rows)", ok, s.short.n)
	}
}

// TestShortlistOrderFree: the rows a list keeps, and their order once
// sorted, do not depend on the order of the offers (a scan split among
// goroutines offers its rows in another), ties included.
func TestShortlistOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		count := rng.IntN(3 * shortlistSize)
		viol := make([]float64, count)
		for j := range viol {
			viol[j] = float64(1 + rng.IntN(4)) // many ties
		}
		var want shortlist
		for j, v := range viol {
			want.add(int32(j), v)
		}
		want.sort()
		var l shortlist
		for _, j := range rng.Perm(count) {
			l.add(int32(j), viol[j])
		}
		l.sort()
		if l.n != want.n || l.rows != want.rows || l.viol != want.viol {
			t.Fatalf("trial %d: kept %v %v in offer order, %v %v shuffled", trial, want.rows[:want.n], want.viol[:want.n], l.rows[:l.n], l.viol[:l.n])
		}
	}
}
