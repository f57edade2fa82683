//go:build !race

package libsvm

// raceEnabled: the race detector instruments allocations, so allocation
// counts are not the program's own under it.
const raceEnabled = false
