package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// readJUnit writes proofs as JUnit and parses the XML back.
func readJUnit(t *testing.T, proofs []challenges.Proof) junitReport {
	t.Helper()
	var buf bytes.Buffer
	if err := writeJUnit(&buf, proofs); err != nil {
		t.Fatal(err)
	}
	return parseJUnit(t, buf.String())
}

// parseJUnit parses a JUnit report, failing the test if it is not well-formed.
func parseJUnit(t *testing.T, text string) junitReport {
	t.Helper()
	if !strings.HasPrefix(text, xml.Header) {
		t.Errorf("the report does not start with the XML declaration:\n%s", text)
	}
	var report junitReport
	if err := xml.Unmarshal([]byte(text), &report); err != nil {
		t.Fatalf("the report is not well-formed XML: %v\n%s", err, text)
	}
	return report
}

func TestJUnitRoundTrip(t *testing.T) {
	proofs := []challenges.Proof{
		{Dossier: "a", Subject: "buggy repo", Suite: runner.SuiteVisible, Want: runner.VerdictFail, Got: runner.VerdictFail, Runs: 1, Identical: 1, OK: true},
		{Dossier: "a", Subject: "reference fix", Suite: runner.SuiteHidden, Want: runner.VerdictPass, Got: runner.VerdictPass, Runs: 3, Identical: 2, OK: false,
			Detail: "run 3 differed from run 1: <job-7> & \"two\" sends\x1b"},
		{Dossier: "b", Subject: "decoy sleep-recheck", Suite: runner.SuiteHidden, Want: runner.VerdictFail, Got: runner.VerdictPass, Runs: 1, Identical: 1, OK: false, Detail: "all 6 tests passed"},
	}
	r := readJUnit(t, proofs)
	if r.Tests != 3 || r.Failures != 2 || len(r.Suites) != 2 {
		t.Fatalf("report = %+v", r)
	}
	a, b := r.Suites[0], r.Suites[1]
	if a.Name != "a" || a.Tests != 2 || a.Failures != 1 || b.Name != "b" || b.Tests != 1 || b.Failures != 1 {
		t.Errorf("suites = %+v / %+v", a, b)
	}
	if c := a.Cases[0]; c.Name != "buggy repo fails the visible suite" || c.Classname != "a" || c.Failure != nil {
		t.Errorf("first case = %+v", c)
	}
	ref := a.Cases[1]
	if ref.Name != "reference fix passes the hidden suite" || ref.Failure == nil ||
		ref.Failure.Message != "want pass, got pass (2 of 3 runs identical)" || !strings.Contains(ref.Failure.Detail, `<job-7> & "two" sends`) {
		t.Errorf("flaky reference case = %+v", ref)
	}
	if d := b.Cases[0]; d.Name != "decoy sleep-recheck fails the hidden suite" || d.Failure == nil || d.Failure.Detail != "all 6 tests passed" {
		t.Errorf("decoy case = %+v", d)
	}
}

// scriptedVerdicts is a runner that fails a run exactly when its
// src/claims.js holds failing, and passes every other run.
type scriptedVerdicts struct{ failing string }

// Run answers the job from its src/claims.js.
func (s scriptedVerdicts) Run(_ context.Context, job runner.Job) (*runner.Results, error) {
	status, verdict := runner.StatusPass, runner.VerdictPass
	if strings.Contains(string(job.Files["src/claims.js"]), s.failing) {
		status, verdict = runner.StatusFail, runner.VerdictFail
	}
	return &runner.Results{Version: 3, Status: status, Verdict: verdict, Tests: []runner.TestResult{{Name: "exactly one receipt", Status: status}}}, nil
}

// TestPassingDecoyFailsTheDossier proves a scaffolded dossier whose bug is
// written and whose decoy the (scripted) hidden suite does not catch.
func TestPassingDecoyFailsTheDossier(t *testing.T) {
	dir := newInTemp(t, "receipt-twice")
	claims := filepath.Join(dir, "receipt-twice", "repo", "src", "claims.js")
	if err := os.WriteFile(claims, []byte("// THE BUG\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	d, err := challenges.Load(fsys, "receipt-twice")
	if err != nil {
		t.Fatal(err)
	}
	hidden := os.DirFS(filepath.Join(filepath.Dir(dir), "hidden_tests"))
	src := content{fsys: fsys, suite: func(slug string) (map[string][]byte, error) { return hiddentests.SuiteFrom(hidden, slug) }}
	proofs, err := proveAll(context.Background(), scriptedVerdicts{failing: "THE BUG"}, "img", src, []*challenges.Dossier{d}, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	r := readJUnit(t, proofs)
	if r.Tests != 5 || r.Failures != 1 {
		t.Fatalf("want 5 claims and 1 failure, got %+v", r)
	}
	for _, c := range r.Suites[0].Cases {
		if (c.Failure != nil) != (c.Name == "decoy sleep-recheck fails the hidden suite") {
			t.Errorf("case %q failure = %+v", c.Name, c.Failure)
		}
	}
}

// closedAddr returns a local address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
