package mat

import (
	"fmt"
	"math"
	"testing"

	"github.com/softpen/softpen/vec"
)

// teamSparse returns rows x cols with about k nonzeros a row, some rows
// empty and some long, values of mixed sign and scale (seeded).
func teamSparse(rows, cols, k int, seed uint64) *Sparse {
	s := seed*0x9e3779b97f4a7c15 + 1
	next := func() uint64 {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		return s
	}
	m := &Sparse{Rows: rows, Cols: cols, Ptr: make([]int, rows+1)}
	for i := 0; i < rows; i++ {
		nz := int(next() % uint64(2*k+1))
		if i%97 == 5 {
			nz = 0
		}
		if i%211 == 7 {
			nz = 20 * k
		}
		j := int32(-1)
		for q := 0; q < nz; q++ {
			j += 1 + int32(next()%uint64(max(1, 2*cols/(nz+1))))
			if int(j) >= cols {
				break
			}
			v := (float64(next()%2001)/1000 - 1) * math.Ldexp(1, int(next()%9)-4)
			m.Idx, m.Val = append(m.Idx, j), append(m.Val, v)
		}
		m.Ptr[i+1] = len(m.Idx)
	}
	return m
}

// TestRowTeam: on matrices of one chunk and of several, MulVec gives the
// bits of Sparse.MulVec; MulTransVecAdd gives them too with one chunk,
// and with several is within the rounding of the sum of |terms|, the same
// bits on every call; NormalAdd gives the bits of its two passes; the chunks cover the rows in order with nonzeros
// about even; outputs are written within their length only; and the
// passes allocate nothing.
func TestRowTeam(t *testing.T) {
	for _, c := range []struct{ rows, cols, k, threads, chunks int }{
		{0, 5, 3, 4, 1},
		{50, 40, 5, 4, 1},         // too few nonzeros to split
		{3000, 500, 40, 1, 1},     // one thread asked
		{3000, 500, 40, 2, 1},     // about 130k nonzeros: not two chunks of 2^16
		{12000, 4000, 40, 3, 3},   // about 480k nonzeros: 3 chunks
		{12000, 4000, 40, 64, 7},  // capped by the nonzeros
		{20000, 100000, 30, 2, 2}, // wide
	} {
		m := teamSparse(c.rows, c.cols, c.k, uint64(c.rows+c.threads))
		if err := m.Check(); err != nil {
			t.Fatal(err)
		}
		team := NewRowTeam(m, c.threads)
		want := max(1, min(c.threads, m.NNZ()/minChunkNNZ))
		if team.Chunks() != want {
			t.Fatalf("%+v: %d chunks, want %d (nnz %d)", c, team.Chunks(), want, m.NNZ())
		}
		for k := 0; k < team.Chunks(); k++ {
			lo, hi := team.bounds[k], team.bounds[k+1]
			if lo > hi || (k == 0 && lo != 0) {
				t.Fatalf("%+v: chunk %d rows %d:%d", c, k, lo, hi)
			}
			if nz := m.Ptr[hi] - m.Ptr[lo]; team.Chunks() > 1 && nz > 2*m.NNZ()/team.Chunks()+20*c.k {
				t.Errorf("%+v: chunk %d has %d of %d nonzeros", c, k, nz, m.NNZ())
			}
		}
		if team.bounds[team.Chunks()] != m.Rows {
			t.Fatalf("%+v: chunks end at row %d of %d", c, team.bounds[team.Chunks()], m.Rows)
		}

		const guard = 7.5
		x := make([]float64, m.Cols)
		for j := range x {
			x[j] = math.Sin(float64(j)) * 3
		}
		got := make([]float64, m.Rows+2)
		got[0], got[m.Rows+1] = guard, guard
		ref := make([]float64, m.Rows)
		team.MulVec(got[1:m.Rows+1], x)
		m.MulVec(ref, x)
		for i := range ref {
			if math.Float64bits(got[1+i]) != math.Float64bits(ref[i]) {
				t.Fatalf("%+v: MulVec row %d: %v, want %v", c, i, got[1+i], ref[i])
			}
		}
		if got[0] != guard || got[m.Rows+1] != guard {
			t.Fatalf("%+v: MulVec wrote outside dst", c)
		}

		y := make([]float64, m.Rows)
		for i := range y {
			if i%5 != 0 { // some rows skipped
				y[i] = math.Cos(float64(i)) * 2
			}
		}
		start := make([]float64, m.Cols)
		for j := range start {
			start[j] = float64(j%7) - 3
		}
		tr := make([]float64, m.Cols+2)
		tr[0], tr[m.Cols+1] = guard, guard
		dst := tr[1 : m.Cols+1]
		copy(dst, start)
		team.MulTransVecAdd(dst, y)
		plain := append([]float64(nil), start...)
		m.MulTransVecAdd(plain, y)
		size := make([]float64, m.Cols)
		for i, yi := range y {
			idx, val := m.Row(i)
			for k, j := range idx {
				size[j] += math.Abs(yi * val[k])
			}
		}
		for j := range dst {
			if team.Chunks() == 1 {
				if math.Float64bits(dst[j]) != math.Float64bits(plain[j]) {
					t.Fatalf("%+v: MulTransVecAdd column %d: %v, want the bits of %v", c, j, dst[j], plain[j])
				}
				continue
			}
			bound := 2 * vec.DotErrorBound(m.Rows+1) * (size[j] + math.Abs(start[j]))
			if d := math.Abs(dst[j] - plain[j]); d > bound {
				t.Fatalf("%+v: MulTransVecAdd column %d: %v vs %v, beyond %v", c, j, dst[j], plain[j], bound)
			}
		}
		if tr[0] != guard || tr[m.Cols+1] != guard {
			t.Fatalf("%+v: MulTransVecAdd wrote outside dst", c)
		}
		again := append([]float64(nil), start...)
		team.MulTransVecAdd(again, y)
		for j := range again {
			if math.Float64bits(again[j]) != math.Float64bits(dst[j]) {
				t.Fatalf("%+v: MulTransVecAdd column %d differs between calls", c, j)
			}
		}

		// NormalAdd: the bits of MulVec, the scaling, and MulTransVecAdd
		// on the same team, with zero weights (rows skipped) among them;
		// nothing written outside dst and u.
		wts := make([]float64, m.Rows)
		for i := range wts {
			if i%3 != 0 {
				wts[i] = 0.5 + math.Sin(float64(i))*0.25
			}
		}
		u := make([]float64, m.Rows)
		team.MulVec(u, x)
		for i := range u {
			u[i] *= wts[i]
		}
		sep := append([]float64(nil), start...)
		team.MulTransVecAdd(sep, u)
		ub := make([]float64, m.Rows+2)
		ub[0], ub[m.Rows+1] = guard, guard
		copy(dst, start)
		team.NormalAdd(dst, x, wts, ub[1:m.Rows+1])
		for j := range dst {
			if math.Float64bits(dst[j]) != math.Float64bits(sep[j]) {
				t.Fatalf("%+v: NormalAdd column %d: %v, want the bits of %v", c, j, dst[j], sep[j])
			}
		}
		for i := range u {
			if math.Float64bits(ub[1+i]) != math.Float64bits(u[i]) {
				t.Fatalf("%+v: NormalAdd u[%d]: %v, want %v", c, i, ub[1+i], u[i])
			}
		}
		if tr[0] != guard || tr[m.Cols+1] != guard || ub[0] != guard || ub[m.Rows+1] != guard {
			t.Fatalf("%+v: NormalAdd wrote outside dst or u", c)
		}

		if a := testing.AllocsPerRun(5, func() {
			team.MulVec(ref, x)
			team.MulTransVecAdd(again, y)
			team.NormalAdd(again, x, wts, u)
		}); a != 0 {
			t.Errorf("%+v: %v allocations a pass", c, a)
		}
	}
}

// TestRowTeamDo: every row is visited once, by the chunk that owns it.
func TestRowTeamDo(t *testing.T) {
	m := teamSparse(20000, 3000, 40, 9)
	team := NewRowTeam(m, 4)
	if team.Chunks() < 2 {
		t.Fatalf("%d chunks", team.Chunks())
	}
	owner := make([]int, m.Rows)
	for i := range owner {
		owner[i] = -1
	}
	job := func(k, lo, hi int) {
		for i := lo; i < hi; i++ {
			if owner[i] != -1 {
				panic("row visited twice")
			}
			owner[i] = k
		}
	}
	team.Do(job)
	for i, k := range owner {
		if k < 0 || i < team.bounds[k] || i >= team.bounds[k+1] {
			t.Fatalf("row %d: chunk %d", i, k)
		}
	}
}

// BenchmarkRowTeam: the two products of a pass over 8e6 nonzeros (200000
// rows of 40 over 100000 columns) on 1 and 2 goroutines.
func BenchmarkRowTeam(b *testing.B) {
	m := teamSparse(200000, 100000, 40, 5)
	x, y := make([]float64, m.Cols), make([]float64, m.Rows)
	for j := range x {
		x[j] = float64(j%13) - 6
	}
	for i := range y {
		y[i] = float64(i%7) - 3
	}
	for _, threads := range []int{1, 2} {
		team := NewRowTeam(m, threads)
		b.Run(fmt.Sprintf("MulVec/threads=%d", threads), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				team.MulVec(y, x)
			}
		})
		b.Run(fmt.Sprintf("MulTransVecAdd/threads=%d", threads), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				team.MulTransVecAdd(x, y)
			}
		})
	}
}
