package main

import (
	"fmt"
	"io"
)

func runSVM(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "softpen svm: not implemented yet")
	return exitUsage
}
