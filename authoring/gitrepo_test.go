package authoring

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// upstream is a git repository made with go-git in a temporary folder: the
// receipt worker in svc/worker, first with the bug (tagged v1, and v1-notes
// as an annotated tag), then fixed on main; branch legacy stays at the bug.
type upstream struct {
	dir          string
	buggy, fixed plumbing.Hash
}

func newUpstream(t *testing.T) *upstream {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	u := &upstream{dir: dir}
	u.buggy = commit(t, repo, "the receipt worker", map[string]string{
		"README.md":                  "# monorepo\n",
		"svc/worker/README.md":       "# receipt worker\n",
		"svc/worker/package.json":    `{"name": "w", "type": "module", "scripts": {"test": "node --test test/"}}`,
		"svc/worker/src/claims.js":   checkThenSet,
		"svc/worker/test/w.test.js":  "import { test } from 'node:test';\ntest('w', () => {});\n",
		"svc/billing/src/invoice.js": "export const invoice = 1;\n",
	})
	u.fixed = commit(t, repo, "claim atomically", map[string]string{
		"svc/worker/src/claims.js": "export const fixed = true;\n",
	})
	if _, err := repo.CreateTag("v1", u.buggy, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateTag("v1-notes", u.buggy, &git.CreateTagOptions{Tagger: signature(), Message: "the incident's commit"}); err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("legacy"), u.buggy)); err != nil {
		t.Fatal(err)
	}
	return u
}

// commit writes files into the worktree and commits them.
func commit(t *testing.T, repo *git.Repository, msg string, files map[string]string) plumbing.Hash {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := writeFile(filepath.Join(wt.Filesystem.Root(), filepath.FromSlash(name)), []byte(content)); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := wt.Commit(msg, &git.CommitOptions{Author: signature()})
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

// addSymlink commits a symbolic link to the upstream repository.
func (u *upstream) addSymlink(t *testing.T, name, target string) {
	t.Helper()
	repo, err := git.PlainOpen(u.dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(u.dir, filepath.FromSlash(name))); err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Add(name); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Commit("a link", &git.CommitOptions{Author: signature()}); err != nil {
		t.Fatal(err)
	}
}

// signature is the author and tagger of every upstream commit and tag.
func signature() *object.Signature {
	return &object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Unix(1773000000, 0)}
}
