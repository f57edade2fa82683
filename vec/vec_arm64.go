//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// Advanced SIMD (NEON) is part of every arm64 CPU Go supports; x/sys/cpu
// still reports it, so GODEBUG=cpu.asimd=off selects the generic path.
var useAsm = cpu.ARM64.HasASIMD

const asmName = "neon"
