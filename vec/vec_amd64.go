//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// The assembly needs AVX2 and FMA. x/sys/cpu reports AVX2 only when the OS
// saves the YMM state and honours GODEBUG=cpu.avx2=off; FMA is not OS-gated
// on its own but needs the same YMM state, which AVX2 already implies.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

const asmName = "avx2"
