//go:build !purego && (amd64 || arm64)

package vec

import "unsafe"

// prefetch issues the processor's prefetch instruction for the cache line
// at p (prefetch_amd64.s, prefetch_arm64.s).
//
//go:noescape
func prefetch(p unsafe.Pointer)
