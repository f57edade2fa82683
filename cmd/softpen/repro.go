package main

import (
	"fmt"
	"io"
)

func runRepro(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "softpen repro: not implemented yet")
	return exitUsage
}
