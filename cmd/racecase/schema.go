package main

import (
	"context"
	"fmt"
	"io"

	"github.com/racecase/racecase/challenges"
)

func schema(_ context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: racecase schema > challenges/schema/dossier.schema.json")
		fmt.Fprintln(stderr, "Prints the JSON Schema of dossier.yaml, for editors (see the yaml-language-server comment atop a dossier).")
		return exitUsage
	}
	_, err := stdout.Write(challenges.SchemaJSON())
	if err != nil {
		return exitTrouble
	}
	return exitOK
}
