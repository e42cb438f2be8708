package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// Shapes of the API's responses that the tests read.
type (
	fileJSON struct {
		Path     string `json:"path"`
		Version  int64  `json:"version"`
		Content  string `json:"content"`
		ReadOnly bool   `json:"readonly"`
		Changed  bool   `json:"changed"`
	}
	stepJSON struct {
		Key  string `json:"key"`
		Done bool   `json:"done"`
	}
	progressJSON struct {
		Steps  []stepJSON      `json:"steps"`
		Answer *map[string]any `json:"answer"`
	}
	workspaceJSON struct {
		ID       string       `json:"id"`
		Files    []fileJSON   `json:"files"`
		Progress progressJSON `json:"progress"`
	}
	traceJSON struct {
		Worker    string `json:"worker"`
		Operation string `json:"operation"`
		Highlight bool   `json:"highlight"`
	}
	testJSON struct {
		Name   string      `json:"name"`
		Status string      `json:"status"`
		Trace  []traceJSON `json:"trace"`
	}
	runJSON struct {
		ID         string     `json:"id"`
		Kind       string     `json:"kind"`
		Status     string     `json:"status"`
		Verdict    string     `json:"verdict"`
		Tests      []testJSON `json:"tests"`
		Executions int        `json:"executions"`
	}
)

// hiddenSourceLines returns distinctive lines of the flagship's hidden suite,
// which no response may contain.
func hiddenSourceLines(t testing.TB) []string {
	t.Helper()
	suite, err := hiddentests.Suite(flagship)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(suite[hiddentests.SuiteFile]), "\n") {
		l = strings.TrimSpace(l)
		if len(l) > 30 && !strings.HasPrefix(l, "//") && !strings.HasPrefix(l, "*") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 5 {
		t.Fatalf("the hidden suite has only %d distinctive lines", len(lines))
	}
	return lines
}

// solutionChanges returns the files the reference fix changes, with their
// fixed content.
func solutionChanges(t testing.TB) map[string]string {
	t.Helper()
	return overlayChanges(t, challenges.SolutionDir)
}

// overlayChanges returns the files an overlay of the flagship ("solution"
// or "decoys/<name>") changes, with their content.
func overlayChanges(t testing.TB, overlay string) map[string]string {
	t.Helper()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := d.RepoFiles(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := d.Overlay(challenges.FS, overlay)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for p, data := range changed {
		if !bytes.Equal(repo[p], data) {
			out[p] = string(data)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s changes nothing", overlay)
	}
	return out
}

// slowTest is a visible test file that takes a few seconds, to keep a run
// in flight for as long as a test needs it.
func slowTest(seconds int) string {
	return fmt.Sprintf("import test from 'node:test';\n\ntest('takes its time', async () => {\n  await new Promise((r) => setTimeout(r, %d));\n});\n", seconds*1000)
}

// dossierSecrets returns what the learner must not see of the flagship before
// earning it: the answer and the text of every hint.
func dossierSecrets(t testing.TB) []string {
	t.Helper()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{`"secret"`, "correct_hypothesis", d.Secret.Explanation[:60]}
	for _, h := range d.Hints {
		secrets = append(secrets, h.Text[:40])
	}
	return secrets
}
