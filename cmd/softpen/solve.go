package main

import (
	"fmt"
	"io"
)

func runSolve(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "softpen solve: not implemented yet")
	return exitUsage
}
