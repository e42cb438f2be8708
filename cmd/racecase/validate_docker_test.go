package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
