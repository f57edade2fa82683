//go:build !race

package solver

// raceEnabled: the race detector instruments allocations, so allocation
// counts are not the program's own under it.
const raceEnabled = false
