package workspace

// Each workspace is a git repository with one branch, main, whose tree is
// always exactly the workspace's files. Its objects live in the database
// (git_objects) rather than in a repository directory under the data
// directory, and that is the sounder choice here:
//
//   - A browser save or a git push changes the files, the objects and main in
//     one SQLite transaction, so a crash can never leave git and the files
//     disagreeing; with a directory, every write would span two stores that
//     fail separately and would need repair at start-up.
//   - Concurrency stays the database's: a push and a save that race are
//     ordered by the same transactions that order two saves, and main moves
//     only by compare-and-set.
//   - The database stays the whole state: one file to back up, and API servers
//     that keep nothing on disk, which the PostgreSQL scale-out needs.
//
// What racecase commits itself (the first commit, one per save or reset) is
// derived from the database deterministically; the learner's pushed commits
// cannot be, since their hashes are theirs, so their objects are kept as
// received. The cost is reading a workspace's objects for each fetch or
// push, which is small: workspaces are capped at MaxWorkspaceBytes.

import (
	"context"
	"crypto/hmac"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Repo is a workspace's repository as one git request sees it.
type Repo struct {
	// WorkspaceID is the workspace the repository belongs to.
	WorkspaceID string
	// Learner is the workspace's learner, on whose behalf the request acts.
	Learner string
	// Head is the commit main pointed at when the repository was opened.
	Head plumbing.Hash
}

// errNoRepo answers a git request with an unknown repository or a wrong
// token alike, so that a token-less client learns nothing.
func errNoRepo() *Error {
	return Errorf(ENOTFOUND, "There is no such repository, or the token is wrong or was rotated. "+
		"Copy the clone command again from the workspace (Clone with git).")
}

// OpenRepo opens the repository of workspace wsID for a git request that
// presents token. It creates the repository's first commit if the
// workspace has none yet.
func (s *Service) OpenRepo(ctx context.Context, wsID, token string) (*Repo, error) {
	ws, err := s.store.GetGitWorkspace(ctx, wsID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRepo()
	}
	if err != nil {
		return nil, wrap(err, "get workspace")
	}
	if !hmac.Equal([]byte(token), []byte(s.gitToken(ws.ID, ws.GitTokenGeneration))) {
		return nil, errNoRepo()
	}
	repo := &Repo{WorkspaceID: ws.ID, Learner: ws.LearnerID}
	if ws.GitHead != nil {
		repo.Head = plumbing.NewHash(*ws.GitHead)
		return repo, nil
	}
	err = s.store.InTx(ctx, func(q store.Tx) error {
		ws, d, err := s.workspaceTx(ctx, q, repo.Learner, repo.WorkspaceID)
		if err != nil {
			return err
		}
		repo.Head, err = s.gitHead(ctx, q, ws, d)
		return err
	})
	if err != nil {
		return nil, err
	}
	return repo, nil
}

// LoadObjects reads the repository's objects. Objects are only ever added,
// so they include everything main's head at opening needs.
func (s *Service) LoadObjects(ctx context.Context, repo *Repo) (*Objects, error) {
	return loadObjects(ctx, s.store, repo.WorkspaceID)
}

// gitHead returns the commit main points at. A workspace without one (it was
// created before git access existed) gets its first commit now, of its
// files as they are.
func (s *Service) gitHead(ctx context.Context, q store.Queries, ws db.Workspace, d *dossier) (plumbing.Hash, error) {
	if ws.GitHead != nil {
		return plumbing.NewHash(*ws.GitHead), nil
	}
	files, err := currentFiles(ctx, q, ws.ID)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	message := fmt.Sprintf("%s\n\nThe repository of the racecase dossier %q, as you received it.\n", d.Title, d.Slug)
	when := fromMillis(ws.CreatedAt)
	for p, content := range files {
		if content != d.files[p] {
			message = fmt.Sprintf("Your workspace of the racecase dossier %q\n\nIt already held browser edits when its git repository was created.\n", d.Slug)
			when = s.now()
			break
		}
	}
	return commitOnMain(ctx, q, ws.ID, files, plumbing.ZeroHash, message, when)
}

// commitFiles commits the workspace's files as they are now on parent, main's
// head, and moves main to the commit. It is called in the transaction that
// changed the files.
func (s *Service) commitFiles(ctx context.Context, q store.Queries, wsID string, parent plumbing.Hash, message string) error {
	files, err := currentFiles(ctx, q, wsID)
	if err != nil {
		return err
	}
	_, err = commitOnMain(ctx, q, wsID, files, parent, message, s.now())
	return err
}

// commitOnMain stores a commit by racecase of files on parent (zero: none),
// main's head, and moves main to it.
func commitOnMain(ctx context.Context, q store.Queries, wsID string, files map[string]string, parent plumbing.Hash, message string, when time.Time) (plumbing.Hash, error) {
	tree, objs, err := treeOf(files)
	if err != nil {
		return plumbing.ZeroHash, wrap(err, "build tree")
	}
	commit, err := commitObject(tree, parent, message, when)
	if err != nil {
		return plumbing.ZeroHash, wrap(err, "build commit")
	}
	if err := storeObjects(ctx, q, wsID, append(objs, commit)); err != nil {
		return plumbing.ZeroHash, err
	}
	return commit.Hash(), moveHead(ctx, q, wsID, parent, commit.Hash())
}

// moveHead moves main from old (zero: no head yet) to head. Inside a
// transaction nothing else moves main, so finding it elsewhere is a bug.
func moveHead(ctx context.Context, q store.Queries, wsID string, old, head plumbing.Hash) error {
	var from *string
	if !old.IsZero() {
		s := old.String()
		from = &s
	}
	to := head.String()
	n, err := q.SetGitHead(ctx, db.SetGitHeadParams{Head: &to, ID: wsID, Old: from})
	if err != nil {
		return wrap(err, "move main")
	}
	if n == 0 {
		return wrap(errors.New("main is not where the transaction found it"), "move main")
	}
	return nil
}

// currentFiles returns a workspace's files, content by path.
func currentFiles(ctx context.Context, q store.Queries, wsID string) (map[string]string, error) {
	rows, err := q.ListFileContents(ctx, wsID)
	if err != nil {
		return nil, wrap(err, "read files")
	}
	files := make(map[string]string, len(rows))
	for _, r := range rows {
		files[r.Path] = r.Content
	}
	return files, nil
}
