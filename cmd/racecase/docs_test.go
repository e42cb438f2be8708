package main

import (
	"os"
	"strings"
	"testing"
)

// TestDocumentedCommandLinesParse runs every racecase command line of the
// authoring guide and the CI example with -h appended: each names a real
// command, and every flag it uses exists and takes the value given.
func TestDocumentedCommandLinesParse(t *testing.T) {
	var lines int
	for _, doc := range []string{"../../challenges/README.md", "../../challenges/ci-example.yml"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimPrefix(strings.TrimSpace(line), "run: ")
			if !strings.HasPrefix(line, "racecase ") || strings.Contains(line, "[") {
				continue // not a command, or a usage synopsis
			}
			var args []string
			for _, field := range strings.Fields(line)[1:] {
				if strings.HasPrefix(field, ">") || strings.HasPrefix(field, "#") || field == "|" {
					break
				}
				args = append(args, field)
			}
			lines++
			_, _, errOut := runCLI(t, append(args, "-h")...)
			for _, bad := range []string{"unknown command", "flag provided but not defined", "invalid value"} {
				if strings.Contains(errOut, bad) {
					t.Errorf("%s: %q: %s", doc, line, bad)
				}
			}
		}
	}
	if lines < 8 {
		t.Errorf("found only %d command lines in the docs", lines)
	}
}

// TestREADMEServeFlagsExist checks that every flag the README's section on
// limits, quotas and retention names is a flag of racecase serve.
func TestREADMEServeFlagsExist(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "## Limits, quotas and retention")
	section, _, _ = strings.Cut(section, "\n## ")
	_, _, help := runCLI(t, "serve", "-h")
	var flags int
	for _, field := range strings.Fields(section) {
		name, ok := strings.CutPrefix(strings.Trim(field, "`(),;."), "--")
		if !ok {
			continue
		}
		flags++
		if !strings.Contains(help, "\n  -"+name+" ") {
			t.Errorf("the README names --%s, which racecase serve does not have", name)
		}
	}
	if flags < 8 {
		t.Errorf("the README's limits section names only %d flags", flags)
	}
}
