package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/racecase/racecase/authoring"
)

func newDossier(_ context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("new", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "challenges", "folder of dossiers to create it in")
	hidden := flags.String("hidden-tests", "", "folder of hidden suites (default: hidden_tests beside --dir)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase new [--dir DIR] [--hidden-tests DIR] <slug>")
		fmt.Fprintln(stderr, "Writes a complete skeleton dossier: DIR/<slug>/ (dossier.yaml with every field commented,")
		fmt.Fprintln(stderr, "evidence, repo/, solution/, one decoy) and its hidden suite <hidden-tests>/<slug>/suite.mjs.")
		fmt.Fprintln(stderr, "It passes racecase lint at once; validate fails until you write the bug into repo/.")
		fmt.Fprintln(stderr, "Exit codes: 0 written, 2 usage (bad slug, the dossier exists), 3 could not write.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(reorderFlags(args)); err != nil {
		return exitUsage
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return exitUsage
	}
	slug := flags.Arg(0)
	dirs := authoring.Dirs{Challenges: *dir, HiddenTests: *hidden}
	if dirs.HiddenTests == "" {
		dirs.HiddenTests = authoring.HiddenTestsBeside(*dir)
	}

	written, err := authoring.New(dirs, slug)
	if err != nil {
		fmt.Fprintf(stderr, "racecase new: %v\n", err)
		if errors.Is(err, authoring.ErrInvalidSlug) || errors.Is(err, fs.ErrExist) {
			return exitUsage
		}
		return exitTrouble
	}
	fmt.Fprintf(stdout, "created dossier %s:\n", slug)
	for _, name := range written {
		fmt.Fprintf(stdout, "  %s\n", name)
	}
	content := fmt.Sprintf("--challenges %s --hidden-tests %s", *dir, dirs.HiddenTests)
	fmt.Fprintf(stdout, "\nnext:\n")
	fmt.Fprintf(stdout, "  1. write the bug into %s (its comment says how),\n", filepath.Join(*dir, slug, "repo", "src", "claims.js"))
	fmt.Fprintf(stdout, "     or take the repository from git: racecase import %s --dir %s --from <git URL or path> --ref <commit|branch|tag>\n", slug, *dir)
	fmt.Fprintf(stdout, "  2. racecase lint %s %s\n", content, slug)
	fmt.Fprintf(stdout, "  3. racecase validate %s %s\n", content, slug)
	return exitOK
}
