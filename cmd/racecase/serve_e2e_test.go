package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/racecase/racecase/runner/runnertest"
)

// TestLearnerJourney takes a learner from the catalog to a passing
// submission through the real server, database, queue and Docker runner.
func TestLearnerJourney(t *testing.T) {
	t.Parallel()
	runnertest.Engine(t)
	srv := startServe(t, "--workers", "2")
	c := newClient(t, srv.URL)

	cards := decode[struct {
		Dossiers []struct{ Slug, Title string }
	}](t, c.do("GET", "/api/dossiers", nil).want(t, http.StatusOK))
	found := false
	for _, d := range cards.Dossiers {
		found = found || d.Slug == flagship
	}
	if !found {
		t.Fatalf("the catalog lacks %s: %+v", flagship, cards)
	}
	dossier := string(c.do("GET", "/api/dossiers/"+flagship, nil).want(t, http.StatusOK).body)
	for _, secret := range dossierSecrets(t) {
		if strings.Contains(dossier, secret) {
			t.Errorf("the dossier shows a secret: %q", secret)
		}
	}

	ws := c.createWorkspace()
	hidden := hiddenSourceLines(t)
	noHiddenSource := func(body []byte) {
		t.Helper()
		for _, l := range hidden {
			if strings.Contains(string(body), l) {
				t.Fatalf("a response contains hidden test source: %q", l)
			}
		}
	}

	// The buggy repository: the check reproduces the bug, the submission
	// fails with the interleaving that breaks it.
	check := c.verdictOf(c.startRun(ws.ID, "check").ID)
	if check.Verdict != "fail" {
		t.Fatalf("check of the buggy repository: %+v", check)
	}
	submit := c.startRun(ws.ID, "submit")
	failed := c.verdictOf(submit.ID)
	if failed.Verdict != "fail" || failed.Executions != 1 {
		t.Fatalf("submission of the buggy repository: %+v", failed)
	}
	traced := false
	for _, tr := range failed.Tests {
		for _, step := range tr.Trace {
			traced = traced || (tr.Status == "fail" && step.Highlight && step.Worker != "" && step.Operation != "")
		}
	}
	if !traced {
		t.Fatalf("no failing test carries a trace with the breaking step: %+v", failed.Tests)
	}
	noHiddenSource(c.do("GET", "/api/runs/"+submit.ID, nil).want(t, http.StatusOK).body)

	// The reference fix, saved file by file, passes the check and the submission.
	for path, content := range solutionChanges(t) {
		if f := c.save(ws.ID, path, content); !f.Changed || f.Version != 2 {
			t.Fatalf("saved %s: %+v", path, f)
		}
	}
	diff := c.do("GET", "/api/workspaces/"+ws.ID+"/diff", nil).want(t, http.StatusOK)
	if !strings.Contains(string(diff.body), "src/locks/job-lock.js") {
		t.Fatalf("diff: %s", diff.body)
	}
	if check := c.verdictOf(c.startRun(ws.ID, "check").ID); check.Verdict != "pass" {
		t.Fatalf("check of the fix: %+v", check)
	}
	final := c.startRun(ws.ID, "submit")
	passed := c.verdictOf(final.ID)
	if passed.Verdict != "pass" || len(passed.Tests) == 0 || passed.Executions != 1 {
		t.Fatalf("submission of the fix: %+v", passed)
	}
	for _, tr := range passed.Tests {
		if tr.Status != "pass" {
			t.Errorf("test %q: %s", tr.Name, tr.Status)
		}
	}
	noHiddenSource(c.do("GET", "/api/runs/"+final.ID, nil).want(t, http.StatusOK).body)

	view := decode[workspaceJSON](t, c.do("GET", "/api/workspaces/"+ws.ID, nil).want(t, http.StatusOK))
	for _, s := range view.Progress.Steps {
		if !s.Done {
			t.Errorf("step %s not done after a passing submission", s.Key)
		}
	}
	if view.Progress.Answer == nil || (*view.Progress.Answer)["hypothesis_id"] != "lock-claim" {
		t.Fatalf("no answer after a passing submission: %+v", view.Progress)
	}
	solvedPlaybook(t, c, view)
	metrics := string(c.do("GET", "/metrics", nil).want(t, http.StatusOK).body)
	for _, want := range []string{`racecase_runs_total{kind="submit",verdict="pass"} 1`, "racecase_container_start_seconds_count 4",
		"racecase_run_queue_depth 0", `racecase_http_request_duration_seconds_count{method="PUT",route="/api/workspaces/:id/files/*path",status="200"}`,
		// Warmed at start and after each run: every run is served warm.
		"racecase_runner_warm_runs_total 4", "racecase_runner_cold_runs_total 0"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if r := c.do("GET", "/readyz", nil); r.status != http.StatusOK {
		t.Errorf("readyz: %d %s", r.status, r.body)
	}
}

// TestRunInFlightAndFullQueue: a second run in a workspace is 409, a run
// past the queue bound is 429 with Retry-After, and both queued runs still
// end with their verdicts.
func TestRunInFlightAndFullQueue(t *testing.T) {
	t.Parallel()
	runnertest.Engine(t)
	srv := startServe(t, "--workers", "1", "--max-queued", "2", "--body-timeout", "1s") // the streams outlast the body timeout
	c := newClient(t, srv.URL)
	slow, queued, refused := c.createWorkspace(), c.createWorkspace(), c.createWorkspace()
	c.save(slow.ID, "test/concurrent-worker.test.js", slowTest(3))

	first := c.startRun(slow.ID, "check")
	p := problemOf(t, c.do("POST", "/api/workspaces/"+slow.ID+"/runs", map[string]string{"kind": "submit"}), http.StatusConflict, "conflict")
	if p["run_id"] != first.ID {
		t.Fatalf("409 names run %v, want %s", p["run_id"], first.ID)
	}
	second := c.startRun(queued.ID, "check")
	full := c.do("POST", "/api/workspaces/"+refused.ID+"/runs", map[string]string{"kind": "check"})
	problemOf(t, full, http.StatusTooManyRequests, "too_many")
	if s, err := strconv.Atoi(full.header.Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("Retry-After %q", full.header.Get("Retry-After"))
	}
	if r := c.verdictOf(first.ID); r.Verdict != "pass" {
		t.Fatalf("slow run: %+v", r)
	}
	if r := c.verdictOf(second.ID); r.Verdict != "fail" {
		t.Fatalf("queued run: %+v", r)
	}
	// Once the queue has room, the refused workspace can run.
	c.startRun(refused.ID, "check")
}
