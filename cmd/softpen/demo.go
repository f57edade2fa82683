package main

import (
	"fmt"
	"io"
)

func runDemo(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "softpen demo: not implemented yet")
	return exitUsage
}
