package main

import (
	"context"
	"fmt"
	"io"
)

// Exit codes shared by every command.
const (
	exitOK        = 0 // the command did what was asked and everything held
	exitViolation = 1 // it ran, and something did not hold (a failing check, a broken dossier)
	exitUsage     = 2 // the command line was wrong
	exitTrouble   = 3 // the environment failed (no Docker engine, image build error)
)

// command is one subcommand: it gets its own arguments and the process's streams.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"serve":    {"start the HTTP API and the browser workspace", serve},
		"worker":   {"execute the runs queued in a shared PostgreSQL database (no HTTP)", worker},
		"images":   {"build the runner image if it is missing", images},
		"check":    {"run a directory as a learner's repo against a dossier's suite", check},
		"validate": {"prove dossiers: buggy fails, reference passes N times, every decoy fails", validate},
		"new":      {"scaffold a new dossier and its hidden suite", newDossier},
		"import":   {"take a dossier's repository from git (URL or local path)", importRepo},
		"lint":     {"check dossiers on disk without running them", lint},
		"schema":   {"print the JSON Schema of dossier.yaml", schema},
	}
}

// run is the whole program: it parses the command line and returns the exit code.
func run(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return exitOK
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "racecase: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return cmd.run(ctx, args[1:], env, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: racecase <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, name := range []string{"serve", "worker", "images", "check", "validate", "new", "import", "lint", "schema"} {
		fmt.Fprintf(w, "  %-9s %s\n", name, commands()[name].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'racecase <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 a check or dossier did not hold, 2 usage error, 3 environment failure.")
}
