package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

func validate(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("validate", flag.ContinueOnError)
	flags.SetOutput(stderr)
	runs := flags.Int("runs", 3, "how many times the reference fix must pass the hidden suite with identical results")
	mutants := flags.Bool("mutants", true, "also run the mutants of each reference fix (generated wrong fixes) through the hidden suite; --mutants=false skips them")
	format := flags.String("format", "table", "output format: table, json or junit (JUnit XML: one testsuite per dossier, one testcase per claim)")
	where := addContentFlags(flags, "")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase validate [--runs N] [--mutants=false] [--format table|json|junit] [--challenges DIR [--hidden-tests DIR]] [slug ...]")
		fmt.Fprintln(stderr, "Proves every named dossier (all when none is named) through the Docker runner: the buggy repo")
		fmt.Fprintln(stderr, "fails the visible and the hidden suite, the reference fix passes both (the hidden one N times")
		fmt.Fprintln(stderr, "with identical results), every decoy fails the hidden suite, and so does every mutant of the")
		fmt.Fprintln(stderr, "reference fix not marked equivalent in dossier.yaml; it prints each dossier's mutation score.")
		fmt.Fprintln(stderr, "The table ends with each dossier's fault model on one line.")
		fmt.Fprintln(stderr, "Exit codes: 0 every claim held, 1 a dossier is broken or a claim failed, 2 usage or unknown slug, 3 no engine.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(reorderFlags(args)); err != nil {
		return exitUsage
	}
	if *runs < 1 || !slices.Contains([]string{"table", "json", "junit"}, *format) {
		flags.Usage()
		return exitUsage
	}
	src, err := where.open()
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		return exitUsage
	}
	dossiers, err := loadDossiers(src.fsys, flags.Args())
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		if errors.Is(err, fs.ErrNotExist) {
			return exitUsage
		}
		return exitViolation
	}
	problems, err := checkSuites(ctx, src, dossiers)
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		if errors.Is(err, hiddentests.ErrNoSuite) {
			return exitViolation
		}
		return exitTrouble
	}
	if len(problems) > 0 {
		fmt.Fprint(stdout, problems.Detailed())
		fmt.Fprintf(stdout, "%d problem(s) in hidden suites: nothing was run\n", len(problems))
		return exitViolation
	}
	engine, tag, err := engineWithImage(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		return exitTrouble
	}
	defer engine.Close()

	proofs, err := proveAll(ctx, engine, tag, src, dossiers, *runs, *mutants)
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		if errors.Is(err, hiddentests.ErrNoSuite) {
			return exitViolation
		}
		return exitTrouble
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(proofs)
	case "junit":
		if err := writeJUnit(stdout, proofs); err != nil {
			fmt.Fprintf(stderr, "racecase validate: %v\n", err)
			return exitTrouble
		}
	default:
		writeProofTable(stdout, proofs)
		writeFaultModels(stdout, dossiers)
		writeMutationScores(stdout, proofs)
		writeTimeMargins(stderr, proofs)
	}
	for _, p := range proofs {
		if !p.OK {
			return exitViolation
		}
	}
	return exitOK
}

// proveAll proves every dossier through r, with each one's hidden suite from
// src, and returns every proof in order. Their runs share one pool of as
// many runs at a time as there are CPUs (challenges.ProveAll). An error means
// a dossier has no hidden suite (wrapping hiddentests.ErrNoSuite) or the
// runner failed. A suite whose files do not bundle never gets here:
// checkSuites reports it as a problem first.
func proveAll(ctx context.Context, r runner.Runner, image string, src content, dossiers []*challenges.Dossier, runs int, mutants bool) ([]challenges.Proof, error) {
	suites := make([]challenges.DossierSuite, len(dossiers))
	for i, d := range dossiers {
		hidden, err := src.suite(d.Slug)
		if err != nil {
			return nil, err
		}
		suites[i] = challenges.DossierSuite{Dossier: d, Hidden: hidden}
	}
	return challenges.ProveAll(ctx, r, src.fsys, suites, challenges.ProofOptions{
		Image: image, Runs: runs, Parallel: runtime.NumCPU(),
		Mutants: mutants, Syntax: authoring.CheckSyntax,
	})
}

// checkSuites checks every dossier's hidden suite against its repository
// without Docker (authoring.SuiteProblems), so that a suite that cannot start
// is reported with its file and line rather than as a failed run.
func checkSuites(ctx context.Context, src content, dossiers []*challenges.Dossier) (challenges.Problems, error) {
	var problems challenges.Problems
	for _, d := range dossiers {
		sources, err := src.sources(d.Slug)
		if err != nil {
			return nil, err
		}
		repo, err := d.RepoFiles(src.fsys)
		if err != nil {
			return nil, err
		}
		found, err := authoring.SuiteProblems(ctx, path.Dir(src.suiteFile(d.Slug)), sources, repo,
			d.Limits.RunnerLimits(runner.SuiteHidden).WithDefaults().CPU, &d.FaultModel)
		if err != nil {
			return nil, err
		}
		problems = append(problems, found.Problems...)
	}
	return problems, nil
}

// loadDossiers loads the named dossiers from fsys, or all of them; a broken
// dossier is reported with every problem's file, field and line.
func loadDossiers(fsys fs.FS, slugs []string) ([]*challenges.Dossier, error) {
	if len(slugs) == 0 {
		return challenges.LoadAll(fsys)
	}
	var dossiers []*challenges.Dossier
	for _, slug := range slugs {
		d, err := challenges.Load(fsys, slug)
		if err != nil {
			return nil, err
		}
		dossiers = append(dossiers, d)
	}
	return dossiers, nil
}

// writeProofTable prints one line per claim. It holds nothing that varies
// between runs (no timings), so two runs over the same dossiers print the same.
func writeProofTable(w io.Writer, proofs []challenges.Proof) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DOSSIER\tSUBJECT\tSUITE\tWANT\tGOT\tRUNS\tRESULT\tDETAIL")
	failed := 0
	for _, p := range proofs {
		result := "ok"
		if !p.OK {
			result = "VIOLATION"
			failed++
		}
		detail := p.Detail
		if p.OK && p.Margins != nil {
			detail = fmt.Sprintf("%s; used %s", detail, p.Margins)
		}
		runs := fmt.Sprintf("%d/%d identical", p.Identical, p.Runs)
		if p.Mutation != nil {
			runs = fmt.Sprintf("%d mutants", p.Runs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			p.Dossier, p.Subject, p.Suite, p.Want, p.Got, runs, result, shorten(detail, 110))
	}
	tw.Flush()
	if failed == 0 {
		fmt.Fprintf(w, "\nall %d claims held\n", len(proofs))
	} else {
		fmt.Fprintf(w, "\n%d of %d claims did not hold\n", failed, len(proofs))
	}
}

// writeMutationScores prints each dossier's mutation score and, in full,
// every mutant that did not end as it should, so an author can mark it
// equivalent or close the gap in the suite.
func writeMutationScores(w io.Writer, proofs []challenges.Proof) {
	for _, p := range proofs {
		if p.Mutation != nil {
			fmt.Fprintf(w, "\n%s: mutation score: %s\n", p.Dossier, p.Mutation)
		}
	}
	for _, p := range proofs {
		if p.Mutant != nil && !p.OK {
			fmt.Fprintf(w, "  %s %s %s\n", p.Dossier, p.Mutant.ID, p.Detail)
		}
	}
}

// writeFaultModels prints each dossier's fault model on one line
// (FaultModel.Summary), after the table of claims: what the hidden suite was
// meant to explore. Like the table, it repeats exactly between runs.
func writeFaultModels(w io.Writer, dossiers []*challenges.Dossier) {
	fmt.Fprintln(w, "\nfault models:")
	for _, d := range dossiers {
		fmt.Fprintf(w, "  %s: %s\n", d.Slug, d.FaultModel.Summary())
	}
}

// writeTimeMargins prints, for each reference fix, the most CPU time a
// hidden run used against the CPU limit, and its slowest hidden run against
// the wall-clock backstop. Timings vary between runs, so they go to w
// (stderr) and never into the table, which must repeat exactly.
func writeTimeMargins(w io.Writer, proofs []challenges.Proof) {
	for _, p := range proofs {
		if m := p.Margins; m != nil {
			fmt.Fprintf(w, "%s: reference fix's hidden runs used at most %d ms of the %d ms CPU limit (%.0f%%); slowest %d ms of the %d ms wall backstop (%.0f%%)\n",
				p.Dossier, m.CPUMS, m.CPUBudgetMS, 100*float64(m.CPUMS)/float64(m.CPUBudgetMS),
				m.SlowestMS, m.WallMS, 100*float64(m.SlowestMS)/float64(m.WallMS))
		}
		if s := p.Mutation; s != nil {
			fmt.Fprintf(w, "%s: its %d mutants took %d ms of container time in all\n", p.Dossier, p.Runs, s.RunMS)
		}
	}
}

// shorten puts s on one line of at most n runes, marking a cut.
func shorten(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}
