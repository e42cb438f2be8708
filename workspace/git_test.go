package workspace

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

const (
	fixPath      = "src/locks/job-lock.js"
	readOnlyPath = "package.json"
)

// openRepo opens a workspace's repository with its current token.
func openRepo(t *testing.T, svc *Service, learner, wsID string) (*Repo, *Objects) {
	t.Helper()
	ctx := context.Background()
	access, err := svc.GitAccess(ctx, learner, wsID)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := svc.OpenRepo(ctx, wsID, access.Token)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := svc.LoadObjects(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	return repo, objs
}

// treeFiles reads a commit's files, content by path.
func treeFiles(t *testing.T, objs *Objects, commit plumbing.Hash) map[string]string {
	t.Helper()
	c, err := object.GetCommit(objs, commit)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	err = tree.Files().ForEach(func(f *object.File) error {
		out[f.Name], err = f.Contents()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// learnerCommit adds to objs, as a push's pack would, a commit on parent
// with files as its tree, then root entries replaced or added by extra.
func learnerCommit(t *testing.T, objs *Objects, parent plumbing.Hash, files map[string]string, extra ...object.TreeEntry) plumbing.Hash {
	t.Helper()
	root, objects, err := treeOf(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		if _, err := objs.SetEncodedObject(o); err != nil {
			t.Fatal(err)
		}
	}
	if len(extra) > 0 {
		tree, err := object.GetTree(objs, root)
		if err != nil {
			t.Fatal(err)
		}
		entries := tree.Entries
		for _, e := range extra {
			entries = append(slicesDelete(entries, e.Name), e)
		}
		sort.Sort(object.TreeEntrySorter(entries))
		o := &plumbing.MemoryObject{}
		if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
			t.Fatal(err)
		}
		if root, err = objs.SetEncodedObject(o); err != nil {
			t.Fatal(err)
		}
	}
	c, err := commitObject(root, parent, "a learner's commit", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	h, err := objs.SetEncodedObject(c)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// slicesDelete returns entries without the one named name.
func slicesDelete(entries []object.TreeEntry, name string) []object.TreeEntry {
	var out []object.TreeEntry
	for _, e := range entries {
		if e.Name != name {
			out = append(out, e)
		}
	}
	return out
}

// edited returns a copy of files with changes applied; an empty change
// removes the file.
func edited(files map[string]string, changes map[string]string) map[string]string {
	out := map[string]string{}
	for p, c := range files {
		out[p] = c
	}
	for p, c := range changes {
		if c == "" {
			delete(out, p)
		} else {
			out[p] = c
		}
	}
	return out
}

func TestEveryWorkspaceIsARepositoryThatFollowsSaves(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	learner, v := newWorkspace(t, svc)

	repo, objs := openRepo(t, svc, learner, v.ID)
	first, err := object.GetCommit(objs, repo.Head)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.ParentHashes) != 0 || !strings.Contains(first.Message, "as you received it") {
		t.Fatalf("first commit: parents %v, message %q", first.ParentHashes, first.Message)
	}
	d, _ := svc.lookup(flagship)
	if got := treeFiles(t, objs, repo.Head); len(got) != len(d.files) || got[fixPath] != d.files[fixPath] {
		t.Fatalf("the first commit holds %d files, want the dossier's %d", len(got), len(d.files))
	}

	if err := save(svc, learner, v.ID, fixPath, "// saved in the browser\n"); err != nil {
		t.Fatal(err)
	}
	saved, objs := openRepo(t, svc, learner, v.ID)
	c, err := object.GetCommit(objs, saved.Head)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ParentHashes) != 1 || c.ParentHashes[0] != repo.Head || !strings.HasPrefix(c.Message, "Save "+fixPath+" (version 2)") {
		t.Fatalf("save commit: parents %v, message %q", c.ParentHashes, c.Message)
	}
	if got := treeFiles(t, objs, saved.Head)[fixPath]; got != "// saved in the browser\n" {
		t.Fatalf("the save commit holds %q", got)
	}

	if _, err := svc.ResetFile(ctx, learner, v.ID, fixPath); err != nil {
		t.Fatal(err)
	}
	reset, objs := openRepo(t, svc, learner, v.ID)
	if got := treeFiles(t, objs, reset.Head)[fixPath]; got != d.files[fixPath] {
		t.Fatalf("after a reset main holds %.40q", got)
	}
	if _, err := svc.ResetFile(ctx, learner, v.ID, fixPath); err != nil {
		t.Fatal(err)
	}
	if again, _ := openRepo(t, svc, learner, v.ID); again.Head != reset.Head {
		t.Fatal("a reset that changed nothing made a commit")
	}
}

func TestGitTokensAreThisWorkspacesAndRotate(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	learner, v := newWorkspace(t, svc)
	_, other := newWorkspace(t, svc)
	access, err := svc.GitAccess(ctx, learner, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if access.Path != "/git/"+v.ID+".git" || !strings.HasPrefix(access.Token, gitTokenPrefix) {
		t.Fatalf("access %+v", access)
	}
	for _, tc := range []struct{ ws, token string }{
		{v.ID, ""}, {v.ID, access.Token + "x"}, {other.ID, access.Token}, {"w_nothing", access.Token},
	} {
		if _, err := svc.OpenRepo(ctx, tc.ws, tc.token); ErrorCode(err) != ENOTFOUND {
			t.Errorf("open %s with token %q: %v", tc.ws, tc.token, err)
		}
	}
	if _, err := svc.GitAccess(ctx, "l_someone-else", v.ID); ErrorCode(err) != ENOTFOUND {
		t.Fatalf("another learner reads the token: %v", err)
	}
	rotated, err := svc.RotateGitToken(ctx, learner, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.Token == access.Token {
		t.Fatal("rotation kept the token")
	}
	if _, err := svc.OpenRepo(ctx, v.ID, access.Token); ErrorCode(err) != ENOTFOUND {
		t.Fatalf("the rotated token still opens the repository: %v", err)
	}
	if _, err := svc.OpenRepo(ctx, v.ID, rotated.Token); err != nil {
		t.Fatal(err)
	}
}

func TestPushWritesFilesAsASaveDoes(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	learner, v := newWorkspace(t, svc)
	repo, objs := openRepo(t, svc, learner, v.ID)
	files := treeFiles(t, objs, repo.Head)
	mid := learnerCommit(t, objs, repo.Head, edited(files, map[string]string{"src/clock.js": "// step one\n"}))
	tip := learnerCommit(t, objs, mid, edited(files, map[string]string{fixPath: "// my fix\n"}))

	res, err := svc.Push(ctx, repo, objs, PushRequest{Old: repo.Head, New: tip})
	if err != nil {
		t.Fatal(err)
	}
	if res.Head != tip || len(res.Changed) != 1 || res.Changed[0].Path != fixPath || res.Changed[0].Version != 2 {
		t.Fatalf("push result %+v", res)
	}
	f, err := svc.ReadFile(ctx, learner, v.ID, fixPath)
	if err != nil || f.Content != "// my fix\n" || f.Version != 2 || !f.Changed {
		t.Fatalf("after the push the file is %+v (%v)", f, err)
	}
	p, err := svc.Progress(ctx, learner, v.ID)
	if err != nil || !p.Steps[1].Done {
		t.Fatalf("a pushed edit did not reach %q: %+v (%v)", StepEdited, p.Steps, err)
	}
	after, stored := openRepo(t, svc, learner, v.ID)
	if after.Head != tip || !stored.Stored(mid) {
		t.Fatalf("main is at %s, the intermediate commit stored: %v", after.Head, stored.Stored(mid))
	}
	// Pushing main's own commit again (as a push to submit does) changes nothing.
	again, err := svc.Push(ctx, after, stored, PushRequest{New: tip})
	if err != nil || again.Head != tip || len(again.Changed) != 0 {
		t.Fatalf("re-push: %+v %v", again, err)
	}
}

func TestRefusedPushesChangeNothing(t *testing.T) {
	blob := func(objs *Objects, content string) plumbing.Hash {
		h, err := objs.SetEncodedObject(newObject(plumbing.BlobObject, []byte(content)))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	cases := []struct {
		name    string
		changes map[string]string
		extra   func(objs *Objects, files map[string]string) []object.TreeEntry
		code    string
		says    []string
	}{
		{name: "read-only file", changes: map[string]string{readOnlyPath: "{}\n"}, code: EFORBIDDEN, says: []string{readOnlyPath, "read-only"}},
		{name: "new file", changes: map[string]string{"notes.md": "mine\n"}, code: EINVALID, says: []string{"adds notes.md"}},
		{name: "deleted file", changes: map[string]string{"README.md": ""}, code: EINVALID, says: []string{"deletes README.md"}},
		{name: "not text", changes: map[string]string{fixPath: "\xff\xfe"}, code: EINVALID, says: []string{fixPath, "UTF-8"}},
		{name: "file too large", changes: map[string]string{fixPath: strings.Repeat("x", MaxFileBytes+1)}, code: ETOOLARGE, says: []string{fixPath}},
		{name: "executable", code: EINVALID, says: []string{"README.md is executable"},
			extra: func(objs *Objects, files map[string]string) []object.TreeEntry {
				return []object.TreeEntry{{Name: "README.md", Mode: filemode.Executable, Hash: blob(objs, files["README.md"])}}
			}},
		{name: "symbolic link", code: EINVALID, says: []string{"link is a symbolic link"},
			extra: func(objs *Objects, _ map[string]string) []object.TreeEntry {
				return []object.TreeEntry{{Name: "link", Mode: filemode.Symlink, Hash: blob(objs, "README.md")}}
			}},
		{name: "submodule", code: EINVALID, says: []string{"lib is a submodule"},
			extra: func(*Objects, map[string]string) []object.TreeEntry {
				return []object.TreeEntry{{Name: "lib", Mode: filemode.Submodule, Hash: plumbing.NewHash(strings.Repeat("ab", 20))}}
			}},
		{name: "missing object", code: EINVALID, says: []string{"incomplete"},
			extra: func(*Objects, map[string]string) []object.TreeEntry {
				return []object.TreeEntry{{Name: "README.md", Mode: filemode.Regular, Hash: plumbing.NewHash(strings.Repeat("cd", 20))}}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svc := newTestService(t, nil, 0)
			ctx := context.Background()
			learner, v := newWorkspace(t, svc)
			repo, objs := openRepo(t, svc, learner, v.ID)
			files := treeFiles(t, objs, repo.Head)
			var extra []object.TreeEntry
			if tc.extra != nil {
				extra = tc.extra(objs, files)
			}
			tip := learnerCommit(t, objs, repo.Head, edited(files, tc.changes), extra...)
			_, err := svc.Push(ctx, repo, objs, PushRequest{Old: repo.Head, New: tip})
			wantRefusal(t, err, tc.code, tc.says...)
			wantUnchanged(t, svc, learner, v.ID, repo.Head)
		})
	}
}

func TestStalePushesAreRefused(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	learner, v := newWorkspace(t, svc)
	repo, objs := openRepo(t, svc, learner, v.ID)
	files := treeFiles(t, objs, repo.Head)
	tip := learnerCommit(t, objs, repo.Head, edited(files, map[string]string{fixPath: "// pushed\n"}))

	// A save lands between opening the repository and the push.
	if err := save(svc, learner, v.ID, fixPath, "// saved\n"); err != nil {
		t.Fatal(err)
	}
	saved, fresh := openRepo(t, svc, learner, v.ID)
	for name, push := range map[string]func() error{
		"main moved while pushing": func() error {
			_, err := svc.Push(ctx, repo, objs, PushRequest{Old: repo.Head, New: tip})
			return err
		},
		"the pusher saw an old main": func() error {
			_, err := svc.Push(ctx, saved, fresh, PushRequest{Old: repo.Head, New: tip})
			return err
		},
		"forced onto an old commit": func() error {
			based := learnerCommit(t, fresh, repo.Head, edited(files, map[string]string{fixPath: "// forced\n"}))
			_, err := svc.Push(ctx, saved, fresh, PushRequest{Old: saved.Head, New: based})
			return err
		},
		"main moved back": func() error {
			_, err := svc.Push(ctx, saved, fresh, PushRequest{Old: saved.Head, New: repo.Head})
			return err
		},
	} {
		t.Log(name)
		wantRefusal(t, push(), ECONFLICT, "git pull")
		wantUnchanged(t, svc, learner, v.ID, saved.Head)
	}
}

func TestAWorkspaceFromBeforeGitGetsItsFilesAsFirstCommit(t *testing.T) {
	svc := newTestService(t, nil, 0)
	learner, v := newWorkspace(t, svc)
	if err := save(svc, learner, v.ID, fixPath, "// edited before git\n"); err != nil {
		t.Fatal(err)
	}
	rawExec(t, svc, `UPDATE workspaces SET git_head = NULL`)
	repo, objs := openRepo(t, svc, learner, v.ID)
	c, err := object.GetCommit(objs, repo.Head)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ParentHashes) != 0 || !strings.Contains(c.Message, "already held browser edits") {
		t.Fatalf("first commit of an older workspace: %q", c.Message)
	}
	if got := treeFiles(t, objs, repo.Head)[fixPath]; got != "// edited before git\n" {
		t.Fatalf("its first commit holds %q", got)
	}
}

// wantRefusal fails the test unless err has code and its message says each
// of says.
func wantRefusal(t *testing.T, err error, code string, says ...string) {
	t.Helper()
	e := wantCode(t, err, code)
	for _, s := range says {
		if !strings.Contains(e.Message, s) {
			t.Errorf("the refusal does not say %q: %s", s, e.Message)
		}
	}
}

// wantUnchanged fails the test unless main is still at head and the fix
// file still holds what head holds.
func wantUnchanged(t *testing.T, svc *Service, learner, wsID string, head plumbing.Hash) {
	t.Helper()
	repo, objs := openRepo(t, svc, learner, wsID)
	if repo.Head != head {
		t.Fatalf("main moved to %s", repo.Head)
	}
	f, err := svc.ReadFile(context.Background(), learner, wsID, fixPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := treeFiles(t, objs, head)[fixPath]; f.Content != want {
		t.Fatalf("the file changed to %.40q", f.Content)
	}
}
