package workspace

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxPushProblems bounds how many problems a refused push reports.
const maxPushProblems = 10

// pushProblems collects what is wrong with a push, one sentence each; the
// first problem's code becomes the error's.
type pushProblems struct {
	code  string
	lines []string
}

// add records a problem, up to maxPushProblems.
func (p *pushProblems) add(code, format string, args ...any) {
	if p.code == "" {
		p.code = code
	}
	if len(p.lines) < maxPushProblems {
		p.lines = append(p.lines, fmt.Sprintf(format, args...))
	}
}

// err returns the problems as one Error, or nil when there are none. The
// message holds one problem a line.
func (p *pushProblems) err() error {
	if len(p.lines) == 0 {
		return nil
	}
	return &Error{Code: p.code, Message: strings.Join(p.lines, "\n"), Data: map[string]any{"problems": p.lines}}
}

// errStalePush refuses a push that does not build on main's head.
func errStalePush() *Error {
	return &Error{Code: ECONFLICT, Message: "The push is based on an old commit: main has moved on since " +
		"(a save in the browser or another push), and the push would overwrite that work. " +
		"Run `git pull` to bring it in, then push again."}
}

// errIncompletePush refuses a push whose pack lacks an object it needs.
func errIncompletePush(missing plumbing.Hash) *Error {
	return Errorf(EINVALID, "The push is incomplete: it lacks the object %s. Push again; if it persists, clone afresh.", missing)
}

// pushWalk walks the commits a push adds, down to the stored history.
type pushWalk struct {
	objs     *Objects
	seen     map[plumbing.Hash]bool
	added    []plumbing.Hash
	problems *pushProblems
}

// newObjects returns the objects a push to tip adds to the repository whose
// main is at head: the commits from tip down to the stored history, with
// their new trees and blobs. Every stored commit is an ancestor of head, so
// the push builds on head exactly when head is the parent of a new commit;
// otherwise it is stale. Symbolic links and submodules are refused in every
// new tree (added to problems), and a missing object makes the push
// incomplete.
func newObjects(objs *Objects, head, tip plumbing.Hash, problems *pushProblems) ([]plumbing.Hash, error) {
	if objs.Stored(tip) {
		if tip == head {
			return nil, nil
		}
		return nil, errStalePush()
	}
	w := &pushWalk{objs: objs, seen: map[plumbing.Hash]bool{}, problems: problems}
	buildsOnHead := false
	queue := []plumbing.Hash{tip}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if w.seen[h] {
			continue
		}
		w.seen[h] = true
		c, err := object.GetCommit(objs, h)
		switch {
		case errors.Is(err, plumbing.ErrObjectNotFound):
			return nil, errIncompletePush(h)
		case err != nil:
			return nil, Errorf(EINVALID, "The push names %s, which is not a readable commit.", h)
		}
		w.added = append(w.added, h)
		if err := w.tree(c.TreeHash, "", h); err != nil {
			return nil, err
		}
		for _, p := range c.ParentHashes {
			switch {
			case p == head:
				buildsOnHead = true
			case !objs.Stored(p):
				queue = append(queue, p)
			}
		}
	}
	if !buildsOnHead {
		return nil, errStalePush()
	}
	return w.added, nil
}

// tree walks a new tree of commit, recording its new objects and refusing
// symbolic links and submodules.
func (w *pushWalk) tree(h plumbing.Hash, dir string, commit plumbing.Hash) error {
	if w.objs.Stored(h) || w.seen[h] {
		return nil
	}
	w.seen[h] = true
	t, err := object.GetTree(w.objs, h)
	switch {
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return errIncompletePush(h)
	case err != nil:
		return Errorf(EINVALID, "The push holds a malformed tree (%s).", h)
	}
	w.added = append(w.added, h)
	short := commit.String()[:7]
	for _, e := range t.Entries {
		p := dir + e.Name
		switch e.Mode {
		case filemode.Dir:
			if err := w.tree(e.Hash, p+"/", commit); err != nil {
				return err
			}
		case filemode.Symlink:
			w.problems.add(EINVALID, "%s is a symbolic link (commit %s); a workspace holds plain files only. Commit the file itself instead.", p, short)
		case filemode.Submodule:
			w.problems.add(EINVALID, "%s is a submodule (commit %s); a workspace cannot hold submodules. Remove it with `git rm --cached %s`.", p, short, p)
		default:
			if w.objs.Stored(e.Hash) || w.seen[e.Hash] {
				continue
			}
			if w.objs.HasEncodedObject(e.Hash) != nil {
				return errIncompletePush(e.Hash)
			}
			w.seen[e.Hash] = true
			w.added = append(w.added, e.Hash)
		}
	}
	return nil
}

// fileEntries returns the file entries of a commit's tree by path.
func fileEntries(objs *Objects, commit plumbing.Hash) (map[string]object.TreeEntry, error) {
	c, err := object.GetCommit(objs, commit)
	if err != nil {
		return nil, err
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	out := map[string]object.TreeEntry{}
	walker := object.NewTreeWalker(t, true, nil)
	defer walker.Close()
	for {
		name, e, err := walker.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if e.Mode != filemode.Dir {
			out[name] = e
		}
	}
}

// checkTip checks the files of the commit a push moves main to against
// main's head: the same paths (the dossier's files, none added or deleted),
// plain files, read-only files unchanged, and each changed file's content
// within the rules of a save. It returns the changed files' content by
// path; what is wrong goes to problems.
func checkTip(objs *Objects, d *dossier, head, tip plumbing.Hash, problems *pushProblems) (map[string]string, error) {
	before, err := fileEntries(objs, head)
	if err != nil {
		return nil, wrap(err, "read main's tree")
	}
	after, err := fileEntries(objs, tip)
	if err != nil {
		return nil, Errorf(EINVALID, "The tree of the pushed commit %s cannot be read.", tip)
	}
	changed := map[string]string{}
	var total int64
	for _, p := range slices.Sorted(maps.Keys(after)) {
		e := after[p]
		old, known := before[p]
		switch {
		case e.Mode == filemode.Symlink || e.Mode == filemode.Submodule:
			continue // refused with the commit that adds it
		case !known:
			problems.add(EINVALID, "The push adds %s, which is not a file of this dossier's repository; a workspace holds the dossier's files only. Remove it with `git rm --cached %s`, commit and push again.", p, p)
			continue
		case e.Mode == filemode.Executable:
			problems.add(EINVALID, "%s is executable; workspace files are plain files. Run `git update-index --chmod=-x %s`, commit and push again.", p, p)
			continue
		}
		size, err := objs.EncodedObjectSize(e.Hash)
		if err != nil {
			return nil, errIncompletePush(e.Hash)
		}
		total += size
		if e.Hash == old.Hash {
			continue
		}
		if d.readonly[p] {
			problems.add(EFORBIDDEN, "The push changes %s, which is read-only in this dossier; the fix belongs in the code. Restore it with `git checkout origin/main -- %s`, commit and push again.", p, p)
			continue
		}
		content, err := blobContent(objs, e.Hash, p, size)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				return nil, err
			}
			problems.add(e.Code, "%s", e.Message)
			continue
		}
		changed[p] = content
	}
	for _, p := range slices.Sorted(maps.Keys(before)) {
		if _, ok := after[p]; !ok {
			problems.add(EINVALID, "The push deletes %s; a workspace keeps every file of the dossier's repository. Restore it with `git checkout origin/main -- %s`, commit and push again.", p, p)
		}
	}
	if total > MaxWorkspaceBytes {
		problems.add(ETOOLARGE, "The pushed files add up to %s; a workspace may hold at most %s.", FormatSize(total), FormatSize(MaxWorkspaceBytes))
	}
	return changed, nil
}

// blobContent reads a pushed file's content, checked as a save's would be.
func blobContent(objs *Objects, h plumbing.Hash, path string, size int64) (string, error) {
	if err := checkFileSize(path, size); err != nil {
		return "", err
	}
	b, err := object.GetBlob(objs, h)
	if err != nil {
		return "", errIncompletePush(h)
	}
	r, err := b.Reader()
	if err != nil {
		return "", wrap(err, "read blob "+h.String())
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return "", wrap(err, "read blob "+h.String())
	}
	content := string(data)
	return content, CheckContent(path, content)
}
