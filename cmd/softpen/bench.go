package main

import (
	"fmt"
	"io"
)

func runBench(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "softpen bench: not implemented yet")
	return exitUsage
}
