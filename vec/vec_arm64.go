//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// ASIMD (NEON) is architecturally required on arm64, but we still ask.
var useAsm = cpu.ARM64.HasASIMD

const asmName = "neon"
