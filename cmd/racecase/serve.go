package main

import (
	"context"
	"fmt"
	"io"
)

func serve(_ context.Context, _ []string, _ func(string) string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "racecase serve: API not built yet (it arrives with the Learner API issue).")
	fmt.Fprintln(stderr, "Meanwhile: 'racecase check <slug> <dir>' runs a fix, 'racecase validate' proves the dossiers.")
	return exitUsage
}
