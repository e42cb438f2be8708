package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/racecase/racecase/authoring"
)

func importRepo(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("import", flag.ContinueOnError)
	flags.SetOutput(stderr)
	from := flags.String("from", "", "git URL (cloned into memory) or path of a local git repository (required)")
	ref := flags.String("ref", "", "commit, branch or tag to take (default: the default branch)")
	sub := flags.String("path", "", "folder inside the repository to take (default: its root)")
	dir := flags.String("dir", "challenges", "folder of dossiers")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase import <slug> --from <git URL or path> [--ref <commit|branch|tag>] [--path <subdir>] [--dir DIR]")
		fmt.Fprintln(stderr, "Replaces DIR/<slug>/repo/ with the files of a git repository at one commit, and records the")
		fmt.Fprintln(stderr, "source and commit in DIR/<slug>/dossier.yaml. No git binary is needed.")
		fmt.Fprintln(stderr, "Exit codes: 0 imported, 1 the source cannot give it (unreachable, unknown ref, missing folder,")
		fmt.Fprintln(stderr, "files a workspace cannot hold), 2 usage (bad slug, no such dossier), 3 could not write.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(reorderFlags(args)); err != nil {
		return exitUsage
	}
	if flags.NArg() != 1 || *from == "" {
		flags.Usage()
		return exitUsage
	}
	slug := flags.Arg(0)

	src, n, err := authoring.Import(ctx, *dir, slug, authoring.ImportOptions{From: *from, Ref: *ref, Path: *sub})
	if err != nil {
		fmt.Fprintf(stderr, "racecase import: %v\n", err)
		switch {
		case errors.Is(err, authoring.ErrBadSource):
			return exitViolation
		case errors.Is(err, authoring.ErrInvalidSlug), errors.Is(err, authoring.ErrNoDossier):
			return exitUsage
		}
		return exitTrouble
	}
	fmt.Fprintf(stdout, "imported %d files from %s at commit %s into %s\n", n, src.URL, src.Commit, filepath.Join(*dir, slug, "repo"))
	fmt.Fprintf(stdout, "recorded the source in %s\n", filepath.Join(*dir, slug, "dossier.yaml"))
	fmt.Fprintf(stdout, "next: racecase lint --challenges %s %s\n", *dir, slug)
	return exitOK
}
