package workspace

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Diff is a workspace's changes against the dossier's original repository.
type Diff struct {
	// Patch is a unified patch (git format); empty when nothing changed.
	Patch string `json:"patch"`
	// Files are the changed paths, sorted.
	Files []string `json:"files"`
}

// Diff returns the changes in one of learner's workspaces as a unified
// patch, computed by committing the original and the current files to an
// in-memory git repository and diffing the two commits.
func (s *Service) Diff(ctx context.Context, learner, wsID string) (Diff, error) {
	_, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return Diff{}, err
	}
	current, err := currentFiles(ctx, s.store, wsID)
	if err != nil {
		return Diff{}, err
	}
	patch, changed, err := unifiedPatch(d.files, current)
	if err != nil {
		return Diff{}, wrap(err, "diff")
	}
	return Diff{Patch: patch, Files: changed}, nil
}

// unifiedPatch returns the git patch from original to current and the
// changed paths. Both maps hold content by slash path.
func unifiedPatch(original, current map[string]string) (string, []string, error) {
	changed := []string{}
	for p, c := range current {
		if o, ok := original[p]; !ok || o != c {
			changed = append(changed, p)
		}
	}
	for p := range original {
		if _, ok := current[p]; !ok {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	if len(changed) == 0 {
		return "", changed, nil
	}
	fs := memfs.New()
	repo, err := git.Init(memory.NewStorage(), fs)
	if err != nil {
		return "", nil, fmt.Errorf("init repository: %w", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return "", nil, fmt.Errorf("worktree: %w", err)
	}
	from, err := commitFiles(wt, fs, original, nil, "original")
	if err != nil {
		return "", nil, err
	}
	to, err := commitFiles(wt, fs, current, original, "workspace")
	if err != nil {
		return "", nil, err
	}
	a, err := repo.CommitObject(from)
	if err != nil {
		return "", nil, fmt.Errorf("read commit: %w", err)
	}
	b, err := repo.CommitObject(to)
	if err != nil {
		return "", nil, fmt.Errorf("read commit: %w", err)
	}
	patch, err := a.Patch(b)
	if err != nil {
		return "", nil, fmt.Errorf("patch: %w", err)
	}
	return patch.String(), changed, nil
}

// commitFiles makes the worktree hold exactly files (removing those of
// previous that files lacks) and commits it.
func commitFiles(wt *git.Worktree, fs billy.Filesystem, files, previous map[string]string, msg string) (plumbing.Hash, error) {
	for p := range previous {
		if _, ok := files[p]; !ok {
			if err := fs.Remove(p); err != nil {
				return plumbing.ZeroHash, fmt.Errorf("remove %s: %w", p, err)
			}
		}
	}
	for p, content := range files {
		if old, ok := previous[p]; ok && old == content {
			continue
		}
		f, err := fs.Create(p)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("create %s: %w", p, err)
		}
		_, werr := f.Write([]byte(content))
		if err := f.Close(); werr != nil || err != nil {
			return plumbing.ZeroHash, fmt.Errorf("write %s: %w", p, cmp.Or(werr, err))
		}
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("stage %s: %w", msg, err)
	}
	sig := &object.Signature{Name: "racecase", Email: "racecase@localhost", When: time.Unix(0, 0).UTC()}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %w", msg, err)
	}
	return h, nil
}
