package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner/runnertest"
)

// wrongTurnDecoy is a flagship decoy a known wrong turn is written from.
const wrongTurnDecoy = "sleep-recheck"

// TestWrongTurnsOnlyAfterAFailedSubmission: a learner who has not solved the
// flagship meets its known wrong turns only in the results of a failed
// submission, only those whose tests all failed, and never with the dossier,
// the workspace, a check or a passing submission; nothing served with them
// gives the answer away.
func TestWrongTurnsOnlyAfterAFailedSubmission(t *testing.T) {
	t.Parallel()
	runnertest.Engine(t)
	srv := startServe(t, "--workers", "2")
	c := newClient(t, srv.URL)
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	var mine challenges.WrongTurn
	for _, w := range d.WrongTurns {
		if slices.Contains(w.Decoys, wrongTurnDecoy) {
			mine = w
		}
	}
	if mine.LooksLike == "" {
		t.Fatalf("the flagship has no wrong turn written from %s", wrongTurnDecoy)
	}
	noWrongTurns := func(what string, body []byte) {
		t.Helper()
		for _, w := range d.WrongTurns {
			if strings.Contains(string(body), w.WhyItFails[:40]) {
				t.Errorf("%s shows the wrong turn %q", what, w.LooksLike)
			}
		}
		if strings.Contains(string(body), "wrong_turns") {
			t.Errorf("%s carries wrong_turns", what)
		}
	}

	ws := c.createWorkspace()
	noWrongTurns("the dossier", c.do("GET", "/api/dossiers/"+flagship, nil).want(t, http.StatusOK).body)
	noWrongTurns("a new workspace", c.do("GET", "/api/workspaces/"+ws.ID, nil).want(t, http.StatusOK).body)
	check := c.startRun(ws.ID, "check")
	if v := c.verdictOf(check.ID); v.Verdict != "fail" {
		t.Fatalf("check of the buggy repository: %+v", v)
	}
	noWrongTurns("a failed check", c.do("GET", "/api/runs/"+check.ID, nil).want(t, http.StatusOK).body)

	// The decoy, saved and submitted, fails; its wrong turn comes with the verdict.
	for path, content := range overlayChanges(t, challenges.DecoysDir+"/"+wrongTurnDecoy) {
		c.save(ws.ID, path, content)
	}
	submit := c.startRun(ws.ID, "submit")
	streamed := c.verdictOf(submit.ID)
	got := c.do("GET", "/api/runs/"+submit.ID, nil).want(t, http.StatusOK).body
	var run struct {
		runJSON
		WrongTurns []map[string]any `json:"wrong_turns"`
	}
	if err := json.Unmarshal(got, &run); err != nil {
		t.Fatal(err)
	}
	if streamed.Verdict != "fail" || run.Verdict != "fail" {
		t.Fatalf("submission of %s: %+v", wrongTurnDecoy, run.runJSON)
	}
	var failed []string
	for _, tr := range run.Tests {
		if tr.Status == "fail" {
			failed = append(failed, tr.Name)
		}
	}
	shown := false
	for _, w := range run.WrongTurns {
		shown = shown || w["looks_like"] == mine.LooksLike
		if len(w) != 4 || w["why_it_fails"] == "" || w["look_at"] == "" {
			t.Errorf("a wrong turn is served as %v, want looks_like, why_it_fails, look_at and tests only", w)
		}
		tests, _ := w["tests"].([]any)
		for _, name := range tests {
			if !slices.Contains(failed, name.(string)) {
				t.Errorf("wrong turn %q is served for %q, which did not fail (failed: %q)", w["looks_like"], name, failed)
			}
		}
	}
	if !shown {
		t.Errorf("the failed submission of %s lacks its wrong turn %q: %s", wrongTurnDecoy, mine.LooksLike, got)
	}
	for _, w := range d.WrongTurns {
		if !allFailed(w.Tests, failed) && strings.Contains(string(got), w.WhyItFails[:40]) {
			t.Errorf("wrong turn %q is served although its tests %q did not all fail", w.LooksLike, w.Tests)
		}
	}
	for _, secret := range append(dossierSecrets(t), `"decoys"`, wrongTurnDecoy, d.Secret.CorrectHypothesis) {
		if strings.Contains(string(got), secret) {
			t.Errorf("the failed submission's results contain %q", secret)
		}
	}
	noWrongTurns("the workspace after the failed submission", c.do("GET", "/api/workspaces/"+ws.ID, nil).want(t, http.StatusOK).body)

	// The reference fix passes, and a pass has no wrong turns.
	for path, content := range solutionChanges(t) {
		c.save(ws.ID, path, content)
	}
	final := c.startRun(ws.ID, "submit")
	if v := c.verdictOf(final.ID); v.Verdict != "pass" {
		t.Fatalf("submission of the fix: %+v", v)
	}
	noWrongTurns("a passing submission", c.do("GET", "/api/runs/"+final.ID, nil).want(t, http.StatusOK).body)
}

// allFailed reports whether every test of want is among failed.
func allFailed(want, failed []string) bool {
	for _, name := range want {
		if !slices.Contains(failed, name) {
			return false
		}
	}
	return true
}
