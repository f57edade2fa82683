//go:build !purego

#include "textflag.h"

// func prefetch(p unsafe.Pointer)
//
// PRFM PLDL1KEEP: prefetch for a load into L1, to be kept (temporal). A
// prefetch never faults, whatever p is, and the caller passes the address
// of an element of a slice anyway.
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVD p+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET
