//go:build !purego

#include "textflag.h"

// func prefetch(p unsafe.Pointer)
//
// PREFETCHT0 asks for the line at p in every cache level (L1 and up). It
// never faults, whatever p is, and the caller passes the address of an
// element of a slice anyway.
TEXT ·prefetch(SB), NOSPLIT, $0-8
	MOVQ       p+0(FP), AX
	PREFETCHT0 (AX)
	RET
