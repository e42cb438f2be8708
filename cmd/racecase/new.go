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

// listClasses is the --class value that lists the classes instead of scaffolding.
const listClasses = "list"

func newDossier(_ context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("new", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "challenges", "folder of dossiers to create it in")
	hidden := flags.String("hidden-tests", "", "folder of hidden suites (default: hidden_tests beside --dir)")
	className := flags.String("class", "", "scaffold the working example of a failure class (--class list names them)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase new [--dir DIR] [--hidden-tests DIR] [--class CLASS] <slug>")
		fmt.Fprintln(stderr, "       racecase new --class list")
		fmt.Fprintln(stderr, "Writes a complete skeleton dossier: DIR/<slug>/ (dossier.yaml with every field commented,")
		fmt.Fprintln(stderr, "evidence, repo/, solution/, one decoy) and its hidden suite <hidden-tests>/<slug>/suite.mjs.")
		fmt.Fprintln(stderr, "It passes racecase lint at once; validate fails until you write the bug into repo/.")
		fmt.Fprintln(stderr, "With --class it writes instead a small working example of that failure class, with its bug")
		fmt.Fprintln(stderr, "and two or more decoys: it passes both lint and validate at once.")
		fmt.Fprintln(stderr, "Exit codes: 0 written, 2 usage (bad slug or class, the dossier exists), 3 could not write.")
		flags.PrintDefaults()
		writeClasses(stderr)
	}
	if err := flags.Parse(reorderFlags(args)); err != nil {
		return exitUsage
	}
	if *className == listClasses && flags.NArg() == 0 {
		writeClasses(stdout)
		return exitOK
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

	var written []string
	var err error
	if *className == "" {
		written, err = authoring.New(dirs, slug)
	} else {
		var class authoring.Class
		if class, err = authoring.ClassNamed(*className); err == nil {
			written, err = authoring.NewOfClass(dirs, slug, class)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "racecase new: %v\n", err)
		if errors.Is(err, authoring.ErrInvalidSlug) || errors.Is(err, authoring.ErrUnknownClass) || errors.Is(err, fs.ErrExist) {
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
	if *className == "" {
		fmt.Fprintf(stdout, "  1. write the bug into %s (its comment says how),\n", filepath.Join(*dir, slug, "repo", "src", "claims.js"))
		fmt.Fprintf(stdout, "     or take the repository from git: racecase import %s --dir %s --from <git URL or path> --ref <commit|branch|tag>\n", slug, *dir)
	} else {
		fmt.Fprintf(stdout, "  1. the example is complete and validates as it is: replace its incident with yours,\n")
		fmt.Fprintf(stdout, "     keeping the harness capabilities its suite shows (challenges/README.md in racecase explains each)\n")
	}
	fmt.Fprintf(stdout, "  2. racecase lint %s %s\n", content, slug)
	fmt.Fprintf(stdout, "  3. racecase validate %s %s\n", content, slug)
	return exitOK
}

// writeClasses lists the classes --class takes, one a line with its summary.
func writeClasses(w io.Writer) {
	fmt.Fprintln(w, "classes (--class):")
	for _, c := range authoring.Classes() {
		fmt.Fprintf(w, "  %-15s %s\n", c.Name, c.Summary)
	}
}
