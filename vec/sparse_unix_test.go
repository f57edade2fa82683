//go:build linux

package vec

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestSparseGuardPages places the dense vector flush against unmapped
// pages, at the end of a page and at the start of one, so that a load or
// store one element outside it faults: indices at both ends in every lane
// must work on every path, and indices just outside must panic, not fault.
func TestSparseGuardPages(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[2*page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	all := vsFloats(mem[page : 2*page])
	for _, p := range Paths() {
		for _, n := range []int{1, 2, 5, 64} {
			for _, x := range [][]float64{all[:n:n], all[len(all)-n:]} {
				for _, nnz := range []int{1, 3, 4, 7, 9, 15, 16, 17, 20, 24, 39, 131} {
					for i := range x {
						x[i] = 1 // the panicking AxpySparse below updated it
					}
					idx := make([]int32, nnz)
					val := make([]float64, nnz)
					for k := range idx {
						idx[k] = int32((k % 2) * (n - 1)) // 0, n-1, 0, ...
						val[k] = 1
					}
					if got := p.DotSparse(idx, val, x); got != float64(nnz) {
						t.Fatalf("%s DotSparse n=%d nnz=%d at the ends: %v, want %d", p.Name, n, nnz, got, nnz)
					}
					p.AxpySparse(0, idx, val, x)
					for _, bad := range []int32{-1, int32(n)} {
						idx[nnz-1] = bad
						if vsPanic(func() { sink += p.DotSparse(idx, val, x) }) == nil {
							t.Fatalf("%s DotSparse n=%d nnz=%d index %d: no panic", p.Name, n, nnz, bad)
						}
						if vsPanic(func() { p.AxpySparse(1, idx, val, x) }) == nil {
							t.Fatalf("%s AxpySparse n=%d nnz=%d index %d: no panic", p.Name, n, nnz, bad)
						}
						idx[nnz-1] = 0
					}
				}
			}
		}
	}
}

// vsFloats views b (8-byte aligned, as mmap returns it) as float64s.
func vsFloats(b []byte) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), len(b)/8)
}
