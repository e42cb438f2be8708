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
		code, out, errOut := runCLI(t, "validate", "--challenges", dir, "--runs", "2", "--format", "junit", slug)
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
	code, out, errOut := runCLI(t, "validate", "--challenges", dir, "--runs", "2", "--format", "junit")
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
