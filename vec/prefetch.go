package vec

import "unsafe"

// Prefetch hints that s[i] will be read soon. On amd64 (PREFETCHT0) and
// arm64 (PRFM PLDL1KEEP) it asks the processor to start bringing the cache
// line that holds s[i] into its first-level data cache, and returns without
// waiting for it; elsewhere, and with the purego build tag, it does
// nothing. It is only a hint: it reads no value, writes nothing, never
// faults and changes no result. An i outside [0, len(s)) does nothing. It
// does not allocate.
//
// It pays where a loop knows the address of a later read some steps before
// it makes it and the read misses the caches: a load made that early would
// hold the processor until its line came back (loads retire in order), a
// prefetch does not. internal/solver's lazy SVRG draws its rows steps
// ahead and prefetches them.
func Prefetch[T any](s []T, i int) {
	if uint(i) < uint(len(s)) {
		prefetch(unsafe.Pointer(&s[i]))
	}
}
