package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

func validate(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("validate", flag.ContinueOnError)
	flags.SetOutput(stderr)
	runs := flags.Int("runs", 3, "how many times the reference fix must pass the hidden suite with identical results")
	format := flags.String("format", "table", "output format: table or json")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase validate [--runs N] [--format table|json] [slug ...]")
		fmt.Fprintln(stderr, "Proves every named dossier (all when none is named) through the Docker runner.")
		fmt.Fprintln(stderr, "Exit codes: 0 every claim held, 1 a dossier is broken or a claim failed, 2 usage, 3 no engine.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return exitUsage
	}
	if *runs < 1 || (*format != "table" && *format != "json") {
		flags.Usage()
		return exitUsage
	}

	dossiers, err := loadDossiers(challenges.FS, flags.Args())
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		return exitViolation
	}
	engine, tag, err := engineWithImage(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "racecase validate: %v\n", err)
		return exitTrouble
	}
	defer engine.Close()

	var proofs []challenges.Proof
	for _, d := range dossiers {
		hidden, err := hiddentests.Suite(d.Slug)
		if err != nil {
			fmt.Fprintf(stderr, "racecase validate: %v\n", err)
			return exitViolation
		}
		got, err := challenges.Prove(ctx, engine, challenges.FS, d, challenges.ProofOptions{
			Image: tag, Runs: *runs, Parallel: runtime.NumCPU(), Hidden: hidden,
		})
		if err != nil {
			fmt.Fprintf(stderr, "racecase validate: %v\n", err)
			return exitTrouble
		}
		proofs = append(proofs, got...)
	}

	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(proofs)
	} else {
		writeProofTable(stdout, proofs)
	}
	for _, p := range proofs {
		if !p.OK {
			return exitViolation
		}
	}
	return exitOK
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d/%d identical\t%s\t%s\n",
			p.Dossier, p.Subject, p.Suite, p.Want, p.Got, p.Identical, p.Runs, result, shorten(p.Detail, 90))
	}
	tw.Flush()
	if failed == 0 {
		fmt.Fprintf(w, "\nall %d claims held\n", len(proofs))
	} else {
		fmt.Fprintf(w, "\n%d of %d claims did not hold\n", failed, len(proofs))
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
