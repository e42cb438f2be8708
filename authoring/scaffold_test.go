package authoring

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// freshDirs returns an empty dossier repository in a temporary folder.
func freshDirs(t *testing.T) Dirs {
	root := t.TempDir()
	return Dirs{Challenges: filepath.Join(root, "challenges"), HiddenTests: filepath.Join(root, "hidden_tests")}
}

// scaffold writes the skeleton dossier slug into a fresh dossier repository.
func scaffold(t *testing.T, slug string) Dirs {
	t.Helper()
	dirs := freshDirs(t)
	if _, err := New(dirs, slug); err != nil {
		t.Fatalf("New: %v", err)
	}
	return dirs
}

func TestNewSkeletonPassesLint(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	report, err := Lint(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Problems) > 0 {
		t.Fatalf("the skeleton has problems:\n%s", report.Problems.Detailed())
	}
	if got := report.Skeletons["receipt-twice"]; len(got) != 1 || got[0] != "src/claims.js" {
		t.Errorf("Skeletons = %v, want the bug's file src/claims.js", report.Skeletons)
	}
	d, err := challenges.Load(os.DirFS(dirs.Challenges), "receipt-twice")
	if err != nil {
		t.Fatal(err)
	}
	if d.Slug != "receipt-twice" || len(d.Hints) < 4 {
		t.Errorf("loaded %q with %d hints", d.Slug, len(d.Hints))
	}
}

func TestNewFillsInTheSlugEverywhere(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	for _, root := range []string{dirs.Challenges, dirs.HiddenTests} {
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if strings.Contains(string(data), slugPlaceholder) {
				t.Errorf("%s still holds %s", p, slugPlaceholder)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pkg, _ := os.ReadFile(filepath.Join(dirs.Challenges, "receipt-twice", "repo", "package.json"))
	if !strings.Contains(string(pkg), `"name": "receipt-twice"`) {
		t.Errorf("package.json does not carry the slug:\n%s", pkg)
	}
	schema, _ := os.ReadFile(filepath.Join(dirs.Challenges, "schema", "dossier.schema.json"))
	if string(schema) != string(challenges.SchemaJSON()) {
		t.Error("New did not publish the schema beside the dossiers")
	}
	for _, want := range []string{
		"challenges/receipt-twice/dossier.yaml", "challenges/receipt-twice/repo/README.md",
		"challenges/receipt-twice/repo/test/worker.test.js", "challenges/receipt-twice/solution/src/claims.js",
		"challenges/receipt-twice/decoys/sleep-recheck/why.md", "hidden_tests/receipt-twice/suite.mjs",
	} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(dirs.Challenges), filepath.FromSlash(want))); err != nil {
			t.Errorf("the skeleton lacks %s", want)
		}
	}
}

func TestNewOverwritesNothing(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	if _, err := New(dirs, "receipt-twice"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second New = %v, want fs.ErrExist", err)
	}
	suite := filepath.Join(dirs.HiddenTests, "orphan-suite", "suite.mjs")
	if err := writeFile(suite, []byte("export default {}")); err != nil {
		t.Fatal(err)
	}
	if _, err := New(dirs, "orphan-suite"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("New over an existing suite = %v, want fs.ErrExist", err)
	}
	if _, err := os.Stat(filepath.Join(dirs.Challenges, "orphan-suite")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("New wrote a dossier although it refused")
	}
	for _, slug := range []string{"", "Receipt", "a/b", "../x", "a_b"} {
		if _, err := New(dirs, slug); !errors.Is(err, ErrInvalidSlug) {
			t.Errorf("New(%q) = %v, want ErrInvalidSlug", slug, err)
		}
	}
}

// TestSkeletonVisibleTestRuns runs the skeleton's npm test with the host's
// Node.js: the correct skeleton passes it, so does a correct claim that waits
// for a held claim with a randomized back-off on the clock, and the bug the
// skeleton suggests (check with get, then set) fails it.
func TestSkeletonVisibleTestRuns(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on PATH")
	}
	dirs := scaffold(t, "receipt-twice")
	repo := filepath.Join(dirs.Challenges, "receipt-twice", "repo")
	if out, err := nodeTest(repo); err != nil {
		t.Fatalf("the skeleton's visible test fails: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(repo, "src", "claims.js"), []byte(pollWithJitter), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := nodeTest(repo); err != nil {
		t.Fatalf("the visible test fails a claim that polls with a randomized back-off: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(repo, "src", "claims.js"), []byte(checkThenSet), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := nodeTest(repo)
	if err == nil || !strings.Contains(out, "job-7 got 2 receipts") {
		t.Fatalf("the check-then-set bug passes the visible test (err %v):\n%s", err, out)
	}
}

// pollWithJitter is a correct claim that waits for a held claim: it polls
// with a back-off of random length until 2 s have passed on the clock.
const pollWithJitter = `let acquisitions = 0;
export function claimKey(jobId) { return 'claim:' + jobId; }
export function createClaims({ store, owner, ttlMs, clock }) {
  return {
    async acquire(jobId) {
      const giveUpAt = clock.now() + 2000;
      for (;;) {
        acquisitions += 1;
        const token = owner + ':' + jobId + ':' + clock.now() + ':' + acquisitions;
        if (await store.setIfAbsent(claimKey(jobId), token, { ttlMs })) return token;
        if (clock.now() >= giveUpAt) return null;
        await clock.sleep(25 + Math.random() * 100);
      }
    },
    async release(jobId, token) { await store.compareAndDelete(claimKey(jobId), token); },
  };
}
`

func nodeTest(dir string) (string, error) {
	cmd := exec.Command("node", "--test", "test/")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// checkThenSet is the bug the skeleton suggests writing into src/claims.js.
const checkThenSet = `let acquisitions = 0;
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

func TestHiddenTestsBeside(t *testing.T) {
	for dir, want := range map[string]string{
		"challenges":         "hidden_tests",
		"course/challenges/": filepath.Join("course", "hidden_tests"),
		"/srv/c":             "/srv/hidden_tests",
	} {
		if got := HiddenTestsBeside(dir); got != want {
			t.Errorf("HiddenTestsBeside(%q) = %q, want %q", dir, got, want)
		}
	}
	wd, _ := os.Getwd()
	if got := HiddenTestsBeside("."); got != filepath.Join(filepath.Dir(wd), "hidden_tests") {
		t.Errorf("HiddenTestsBeside(.) = %q", got)
	}
}
