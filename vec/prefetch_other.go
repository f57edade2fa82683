//go:build purego || !(amd64 || arm64)

package vec

import "unsafe"

// prefetch does nothing without assembly: Go has no prefetch of its own.
func prefetch(p unsafe.Pointer) {}
