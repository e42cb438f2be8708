package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/racecase/racecase/authoring"
)

func lint(_ context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("lint", flag.ContinueOnError)
	flags.SetOutput(stderr)
	where := addContentFlags(flags, "challenges")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase lint [--challenges DIR] [--hidden-tests DIR] [slug ...]")
		fmt.Fprintln(stderr, "Checks the named dossiers on disk (all when none is named) without running them: the JSON")
		fmt.Fprintln(stderr, "Schema, every file and id a dossier names, folders and overlays, the hidden suite, no secret")
		fmt.Fprintln(stderr, "inside repo/, and a visible check that runs with npm test. Every problem comes with its file,")
		fmt.Fprintln(stderr, "field, line and how to fix it. Fault-model gaps (where a hidden suite explores less, or more,")
		fmt.Fprintln(stderr, "than the dossier's fault model) are listed after the problems; they do not fail lint yet.")
		fmt.Fprintln(stderr, "Exit codes: 0 no problem, 1 problems, 2 usage or unknown slug, 3 the folders cannot be read.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(reorderFlags(args)); err != nil {
		return exitUsage
	}
	if *where.challenges == "" {
		flags.Usage()
		return exitUsage
	}

	report, err := authoring.Lint(where.dirs(), flags.Args())
	if err != nil {
		fmt.Fprintf(stderr, "racecase lint: %v\n", err)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, authoring.ErrInvalidSlug) {
			return exitUsage
		}
		return exitTrouble
	}
	fmt.Fprint(stdout, report.Problems.Detailed())
	if len(report.Gaps) > 0 {
		fmt.Fprintf(stdout, "%d fault-model gap(s): where a hidden suite explores less (or more) than the dossier's fault model; listed, not yet failing:\n", len(report.Gaps))
		fmt.Fprint(stdout, indent(report.Gaps.Detailed(), "  "))
	}
	for _, slug := range report.Dossiers {
		if marked := report.Skeletons[slug]; len(marked) > 0 {
			fmt.Fprintf(stdout, "note: %s is a skeleton: its bug is not written yet (repo/%s), so validate fails until it is\n",
				slug, strings.Join(marked, ", repo/"))
		}
	}
	if len(report.Problems) > 0 {
		fmt.Fprintf(stdout, "%d problem(s) in %d dossier(s) checked\n", len(report.Problems), len(report.Dossiers))
		return exitViolation
	}
	fmt.Fprintf(stdout, "ok: %d dossier(s) checked, no problem\n", len(report.Dossiers))
	return exitOK
}

// indent puts prefix before every non-empty line of s.
func indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}
