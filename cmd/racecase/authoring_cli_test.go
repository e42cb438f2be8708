package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
)

// newInTemp scaffolds dossier slug with racecase new in a fresh dossier
// repository and returns its challenges folder.
func newInTemp(t *testing.T, slug string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "challenges")
	code, out, errOut := runCLI(t, "new", slug, "--dir", dir)
	if code != exitOK {
		t.Fatalf("new: code %d\n%s%s", code, out, errOut)
	}
	return dir
}

// replaceIn replaces old by new in file, exactly once.
func replaceIn(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), old) != 1 {
		t.Fatalf("%s holds %q %d times, want once", file, old, strings.Count(string(data), old))
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNewThenLint(t *testing.T) {
	dir := newInTemp(t, "receipt-twice")
	code, out, errOut := runCLI(t, "lint", "--challenges", dir)
	if code != exitOK || !strings.Contains(out, "ok: 1 dossier(s) checked") || !strings.Contains(out, "receipt-twice is a skeleton") {
		t.Fatalf("lint of a new skeleton: code %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "new", "receipt-twice", "--dir", dir); code != exitUsage || !strings.Contains(errOut, "exists") {
		t.Errorf("new over an existing dossier: code %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "new", "Receipt_Twice", "--dir", dir); code != exitUsage || !strings.Contains(errOut, "invalid slug") {
		t.Errorf("new with a bad slug: code %d, stderr %q", code, errOut)
	}
}

func TestNewClass(t *testing.T) {
	code, out, _ := runCLI(t, "new", "--class", "list")
	if code != exitOK {
		t.Fatalf("new --class list: code %d", code)
	}
	for _, c := range authoring.Classes() {
		if !strings.Contains(out, c.Name+" ") {
			t.Errorf("new --class list does not name %s:\n%s", c.Name, out)
		}
	}
	if code, _, errOut := runCLI(t, "new", "receipt-twice", "--class", "race"); code != exitUsage ||
		!strings.Contains(errOut, `unknown class "race": use one of check-then-set`) {
		t.Errorf("new with an unknown class: code %d, stderr %q", code, errOut)
	}

	dir := filepath.Join(t.TempDir(), "challenges")
	if code, out, errOut := runCLI(t, "new", "receipt-twice", "--class", "check-then-set", "--dir", dir); code != exitOK ||
		!strings.Contains(out, "validates as it is") {
		t.Fatalf("new --class check-then-set: code %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "lint", "--challenges", dir)
	if code != exitOK || strings.Contains(out, "is a skeleton") {
		t.Errorf("lint of a class example: code %d\n%s%s", code, out, errOut)
	}
}

func TestLintReportsFileLineFieldAndFix(t *testing.T) {
	dir := newInTemp(t, "receipt-twice")
	replaceIn(t, filepath.Join(dir, "receipt-twice", "dossier.yaml"), "difficulty: easy", "difficulty: extreme")
	code, out, _ := runCLI(t, "lint", "receipt-twice", "--challenges", dir)
	want := regexp.MustCompile(`(?m)^\S*challenges/receipt-twice/dossier\.yaml:\d+ difficulty: "extreme" is not allowed\n    fix: use one of: easy, medium, hard$`)
	if code != exitViolation || !want.MatchString(out) {
		t.Fatalf("lint of a schema error: code %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "lint", "--challenges", dir, "no-such-dossier"); code != exitUsage || !strings.Contains(errOut, `no dossier "no-such-dossier"`) {
		t.Errorf("lint of an unknown slug: code %d, stderr %q", code, errOut)
	}
}

func TestImportCommand(t *testing.T) {
	upstream := t.TempDir()
	hash := commitTree(t, upstream, map[string]string{
		"worker/README.md":        "# worker\n",
		"worker/package.json":     `{"type": "module", "scripts": {"test": "node --test test/"}}`,
		"worker/src/claims.js":    "export const claims = 1;\n",
		"worker/test/one.test.js": "import { test } from 'node:test';\ntest('one', () => {});\n",
	})
	dir := newInTemp(t, "receipt-twice")

	code, out, errOut := runCLI(t, "import", "receipt-twice", "--dir", dir, "--from", upstream, "--path", "worker", "--ref", "master")
	if code != exitOK || !strings.Contains(out, "imported 4 files") || !strings.Contains(out, hash) {
		t.Fatalf("import: code %d\n%s%s", code, out, errOut)
	}
	yaml, _ := os.ReadFile(filepath.Join(dir, "receipt-twice", "dossier.yaml"))
	if !strings.Contains(string(yaml), "\nsource:\n  url: "+upstream+"\n  ref: master\n  commit: "+hash+"\n  path: worker\n") {
		t.Errorf("dossier.yaml does not record the source:\n%s", yaml)
	}

	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--from", upstream, "--ref", "no-such-branch"}, exitViolation, `no commit, branch or tag "no-such-branch"`},
		{[]string{"--from", upstream, "--path", "mailer"}, exitViolation, `no folder "mailer"`},
		{[]string{"--from", "http://" + closedAddr(t) + "/repo.git"}, exitViolation, "cannot clone"},
		{[]string{"--from", filepath.Join(upstream, "missing")}, exitViolation, "cannot read"},
		{[]string{}, exitUsage, "usage: racecase import"},
	} {
		args := append([]string{"import", "receipt-twice", "--dir", dir}, tc.args...)
		if code, _, errOut := runCLI(t, args...); code != tc.code || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.stderr)
		}
	}
	if code, _, errOut := runCLI(t, "import", "other-dossier", "--dir", dir, "--from", upstream); code != exitUsage || !strings.Contains(errOut, "racecase new") {
		t.Errorf("import into a missing dossier: code %d, stderr %q", code, errOut)
	}
}

// commitTree makes a git repository in dir with go-git, commits files to its
// default branch (master), and returns the commit's hash.
func commitTree(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	hash, err := wt.Commit("the worker", &git.CommitOptions{Author: &object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Unix(1773000000, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	return hash.String()
}

func TestSchemaCommand(t *testing.T) {
	code, out, _ := runCLI(t, "schema")
	if code != exitOK || out != string(challenges.SchemaJSON()) || !json.Valid([]byte(out)) {
		t.Fatalf("schema: code %d, %d bytes", code, len(out))
	}
	if code, _, _ := runCLI(t, "schema", "extra"); code != exitUsage {
		t.Errorf("schema extra: code %d", code)
	}
}

// TestValidateAndCheckInputErrors are refused before any engine is needed.
func TestValidateAndCheckInputErrors(t *testing.T) {
	dir := newInTemp(t, "receipt-twice")
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"validate", "--format", "xml"}, exitUsage, "usage: racecase validate"},
		{[]string{"validate", "--hidden-tests", dir}, exitUsage, "--hidden-tests goes with --challenges"},
		{[]string{"validate", "--challenges", filepath.Join(dir, "missing")}, exitUsage, "is not a folder"},
		{[]string{"validate", "--challenges", dir, "no-such-dossier"}, exitUsage, `dossier "no-such-dossier"`},
		{[]string{"validate", "no-such-dossier"}, exitUsage, `dossier "no-such-dossier"`},
		{[]string{"check", "--challenges", dir, "no-such-dossier", dir}, exitUsage, `dossier "no-such-dossier"`},
	} {
		if code, _, errOut := runCLI(t, tc.args...); code != tc.code || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.stderr)
		}
	}
	replaceIn(t, filepath.Join(dir, "receipt-twice", "dossier.yaml"), "difficulty: easy", "difficulty: extreme")
	if code, _, errOut := runCLI(t, "validate", "--challenges", dir); code != exitViolation || !strings.Contains(errOut, "difficulty") {
		t.Errorf("validate of a broken dossier: code %d, stderr %q", code, errOut)
	}
}

// validate checks each hidden suite before it runs anything: a suite that
// cannot start is reported with its file and line, without Docker.
func TestValidateReportsASuiteThatCannotStart(t *testing.T) {
	dir := newInTemp(t, "receipt-twice")
	suite := filepath.Join(filepath.Dir(dir), "hidden_tests", "receipt-twice", "suite.mjs")
	replaceIn(t, suite, "factory: 'createWorker',", "factory: 'makeWorker',")
	code, out, errOut := runCLI(t, "validate", "--challenges", dir, "receipt-twice")
	if code != exitViolation {
		t.Fatalf("validate of a broken suite: code %d\n%s%s", code, out, errOut)
	}
	if !regexp.MustCompile(`hidden_tests/receipt-twice/suite\.mjs:\d+`).MatchString(out) || !strings.Contains(out, "does not export a function named makeWorker") ||
		!strings.Contains(out, "nothing was run") {
		t.Errorf("want the suite's file, line and problem:\n%s", out)
	}
}
