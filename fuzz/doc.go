// Package fuzz holds the project's fuzz targets: the kernels against the
// generic code, the problem and LIBSVM readers against arbitrary bytes, and
// the solver on tiny random problems against an exact enumeration of active
// sets. CI runs each target briefly (.ci/run); `go test ./fuzz` replays the
// seed corpora and anything found under testdata/fuzz.
package fuzz
