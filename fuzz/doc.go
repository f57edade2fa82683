// Package fuzz holds the project's fuzz targets; it has no non-test code.
//
//   - FuzzVecLinearPaths, FuzzVecExpPaths (vec_fuzz_test.go): every kernel
//     path vec.Paths() reports against the generic one, on fuzzer-chosen
//     values, lengths, offsets and aliasing, within error bounds derived in
//     that file; guard elements catch writes outside a slice.
//   - FuzzVecExpProperties: Softplus and Sigmoid on arbitrary 64-bit
//     patterns (range, NaN and Inf rules, symmetry, monotonicity).
//   - The problem and LIBSVM readers against arbitrary bytes, and the solver
//     on tiny random problems against an exact enumeration of active sets.
//
// CI (.ci/run) runs every Fuzz target of every package for a few seconds;
// `go test ./fuzz` replays the seed corpora and anything saved under
// testdata/fuzz, so an input the fuzzer once found stays a regression test.
package fuzz
