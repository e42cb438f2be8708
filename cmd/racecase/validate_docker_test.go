package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/runner/runnertest"
)

// TestValidateScaffoldedDossier follows the authoring guide through the real
// runner: a new skeleton fails validation only because its bug is not
// written; with the bug written every claim holds; and a decoy that is really
// a fix fails the dossier. Without a Docker engine it skips, unless
// REQUIRE_DOCKER=1.
func TestValidateScaffoldedDossier(t *testing.T) {
	engine := runnertest.Engine(t)
	slug := fmt.Sprintf("skeleton-%d", time.Now().UnixNano())
	runnertest.ExpectNoLeftovers(t, engine, "racecase.dossier="+slug)
	dir := newInTemp(t, slug)
	validateJUnit := func() (int, junitReport) {
		t.Helper()
		// The skeleton's mutation score is TestValidateFailsASuiteThatLetsAMutantPass's subject.
		code, out, errOut := runCLI(t, "validate", "--challenges", dir, "--runs", "2", "--mutants=false", "--format", "junit", slug)
		if code == exitTrouble || code == exitUsage {
			t.Fatalf("validate: code %d\n%s", code, errOut)
		}
		return code, parseJUnit(t, out)
	}
	failing := func(r junitReport) []string {
		var names []string
		for _, c := range r.Suites[0].Cases {
			if c.Failure != nil {
				names = append(names, c.Name+": "+c.Failure.Detail)
			}
		}
		return names
	}

	code, r := validateJUnit()
	got := failing(r)
	if code != exitViolation || r.Tests != 5 || len(got) != 2 ||
		!strings.HasPrefix(got[0], "buggy repo fails the visible suite: skeleton bug not written yet: write it in repo/src/claims.js") ||
		!strings.HasPrefix(got[1], "buggy repo fails the hidden suite: skeleton bug not written yet") {
		t.Fatalf("the skeleton: code %d, %d claims, failing:\n%s", code, r.Tests, strings.Join(got, "\n"))
	}

	bug := filepath.Join(dir, slug, "repo", "src", "claims.js")
	if err := os.WriteFile(bug, []byte(checkThenSetClaims), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, r := validateJUnit(); code != exitOK || r.Failures != 0 {
		t.Fatalf("with the bug written: code %d, failing:\n%s", code, strings.Join(failing(r), "\n"))
	}

	fix, err := os.ReadFile(filepath.Join(dir, slug, "solution", "src", "claims.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, slug, "decoys", "sleep-recheck", "src", "claims.js"), fix, 0o644); err != nil {
		t.Fatal(err)
	}
	code, r = validateJUnit()
	if got := failing(r); code != exitViolation || len(got) != 1 || !strings.HasPrefix(got[0], "decoy sleep-recheck fails the hidden suite: all") {
		t.Fatalf("with a decoy that passes: code %d, failing:\n%s", code, strings.Join(got, "\n"))
	}
}

// checkThenSetClaims is the bug the skeleton suggests: check, then set.
const checkThenSetClaims = `let acquisitions = 0;
export function claimKey(jobId) { return 'claim:' + jobId; }
export function createClaims({ store, owner, ttlMs, clock }) {
  return {
    async acquire(jobId) {
      if ((await store.get(claimKey(jobId))) !== null) return null;
      acquisitions += 1;
      const token = owner + ':' + jobId + ':' + clock.now() + ':' + acquisitions;
      await store.set(claimKey(jobId), token, { ttlMs });
      return token;
    },
    async release(jobId, token) { await store.compareAndDelete(claimKey(jobId), token); },
  };
}
`

// TestValidateEveryClass scaffolds the example of every failure class with
// racecase new --class and proves them all through the real runner: each
// buggy repository fails, each reference fix passes twice alike, each decoy
// fails. Without a Docker engine it skips, unless REQUIRE_DOCKER=1.
func TestValidateEveryClass(t *testing.T) {
	engine := runnertest.Engine(t)
	suffix := time.Now().UnixNano()
	dir := filepath.Join(t.TempDir(), "challenges")
	for _, c := range authoring.Classes() {
		slug := fmt.Sprintf("%s-%d", c.Name, suffix)
		runnertest.ExpectNoLeftovers(t, engine, "racecase.dossier="+slug)
		if code, out, errOut := runCLI(t, "new", slug, "--class", c.Name, "--dir", dir); code != exitOK {
			t.Fatalf("new --class %s: code %d\n%s%s", c.Name, code, out, errOut)
		}
	}
	// Mutants are left out: the examples' mutation scores are not proven yet.
	code, out, errOut := runCLI(t, "validate", "--challenges", dir, "--runs", "2", "--mutants=false", "--format", "junit")
	if code == exitTrouble || code == exitUsage {
		t.Fatalf("validate: code %d\n%s", code, errOut)
	}
	r := parseJUnit(t, out)
	for _, s := range r.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				t.Errorf("%s: %s: %s", s.Name, c.Name, c.Failure.Detail)
			}
		}
	}
	if want := len(authoring.Classes()); code != exitOK || len(r.Suites) != want {
		t.Errorf("validate: code %d, %d dossiers proven, want %d", code, len(r.Suites), want)
	}
}

// TestValidateFailsASuiteThatLetsAMutantPass proves, through the real runner,
// a scaffolded dossier whose hidden suite only ever runs two workers at once
// on one job: it kills the mutants that break the claim, but nothing in it
// notices a release that deletes whatever claim it finds, so that mutant
// survives and the dossier fails validation, naming it.
func TestValidateFailsASuiteThatLetsAMutantPass(t *testing.T) {
	engine := runnertest.Engine(t)
	slug := fmt.Sprintf("weak-suite-%d", time.Now().UnixNano())
	runnertest.ExpectNoLeftovers(t, engine, "racecase.dossier="+slug)
	dir := newInTemp(t, slug)
	if err := os.WriteFile(filepath.Join(dir, slug, "repo", "src", "claims.js"), []byte(checkThenSetClaims), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "hidden_tests", slug, "suite.mjs"), []byte(oneScenarioSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "validate", "--challenges", dir, "--runs", "1", "--format", "junit", slug)
	if code != exitViolation {
		t.Fatalf("validate: code %d, want %d\n%s\n%s", code, exitViolation, out, errOut)
	}
	var survived, killed, score bool
	for _, c := range parseJUnit(t, out).Suites[0].Cases {
		switch {
		case c.Name == "mutants fails the hidden suite":
			score = c.Failure != nil && strings.Contains(c.Failure.Detail, "not killed: ")
		case strings.HasPrefix(c.Name, "mutant drop-check-") && c.Failure != nil:
			survived = survived || strings.Contains(c.Failure.Detail, "compareAndDelete made unconditional; SURVIVED")
		case strings.HasPrefix(c.Name, "mutant split-atomic-") && c.Failure == nil:
			killed = true
		case strings.HasPrefix(c.Name, "mutant "):
		case c.Failure != nil:
			t.Errorf("claim %s did not hold: %s", c.Name, c.Failure.Detail)
		}
	}
	if !survived || !killed || !score {
		t.Errorf("release without its owner check survived: %v; setIfAbsent split killed: %v; score failed: %v\n%s", survived, killed, score, out)
	}
}

// oneScenarioSuite is a hidden suite for the skeleton with one scenario: the
// same job to two workers at once, judged by its receipts only.
const oneScenarioSuite = `export default {
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'] },
      mailer: { $: 'remote', name: 'mailer', methods: ['send'] },
      clock: { $: 'clock' },
      claimTtlMs: 30_000,
    },
    message: (job, attempt) => ({ id: job + '-' + attempt, jobId: job, attempt, orderId: 'ord-' + job, recipient: job + '@customers.example' }),
    acked: (outcome) => outcome === 'sent' || outcome === 'duplicate',
  },
  effects: [{ target: 'mailer', method: 'send', label: 'receipt' }],
  claimKeys: '^claim:',
  limits: { maxLatencyMs: 1000, horizonMs: 120_000, maxSchedulesAfterFailure: 20 },
  scenarios: [{
    name: 'the same job delivered to two workers at once',
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', at: 0 }],
    tests: [{ name: 'exactly one receipt per job in every schedule', property: 'exactlyOncePerJob' }],
  }],
};
`
