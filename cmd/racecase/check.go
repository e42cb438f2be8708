package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
)

func check(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	suite := flags.String("suite", "hidden", "which suite to run: visible or hidden")
	format := flags.String("format", "text", "output format: text or json")
	where := addContentFlags(flags, "")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase check [--suite visible|hidden] [--format text|json] [--challenges DIR [--hidden-tests DIR]] <slug> <dir>")
		fmt.Fprintln(stderr, "Runs <dir> as the learner's repository against the dossier's suite in the Docker runner.")
		fmt.Fprintln(stderr, "Exit codes: 0 every test passed, 1 a test did not pass, 2 usage, 3 no engine.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(reorderFlags(args)); err != nil {
		return exitUsage
	}
	if flags.NArg() != 2 || (*suite != "visible" && *suite != "hidden") || (*format != "text" && *format != "json") {
		flags.Usage()
		return exitUsage
	}
	slug, dir := flags.Arg(0), flags.Arg(1)
	src, err := where.open()
	if err != nil {
		fmt.Fprintf(stderr, "racecase check: %v\n", err)
		return exitUsage
	}

	d, err := challenges.Load(src.fsys, slug)
	if err != nil {
		fmt.Fprintf(stderr, "racecase check: %v\n", err)
		return exitUsage
	}
	files, err := challenges.ReadWorkspace(dir)
	if err != nil {
		fmt.Fprintf(stderr, "racecase check: %v\n", err)
		return exitUsage
	}
	engine, tag, err := engineWithImage(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "racecase check: %v\n", err)
		return exitTrouble
	}
	defer engine.Close()
	hidden, err := src.suite(d.Slug)
	if err != nil {
		fmt.Fprintf(stderr, "racecase check: %v\n", err)
		return exitViolation
	}
	res, err := engine.Run(ctx, d.NewJob(tag, runner.Suite(*suite), files, hidden))
	if err != nil {
		fmt.Fprintf(stderr, "racecase check: %v\n", err)
		return exitTrouble
	}
	if res.Diagnostics != "" {
		fmt.Fprintf(stderr, "racecase check: the harness's own error output (for operators):\n  %s\n", strings.ReplaceAll(res.Diagnostics, "\n", "\n  "))
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		runner.WriteText(stdout, res)
	}
	if res.Verdict != runner.VerdictPass {
		return exitViolation
	}
	return exitOK
}

// reorderFlags moves flags after the positional arguments to the front, so
// "check slug dir --suite visible" works as well as the flags-first form.
func reorderFlags(args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && a != "-h" && a != "--help" {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(flags, rest...)
}
