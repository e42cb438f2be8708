package workspace

import (
	"context"
	"maps"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/racecase/racecase/store"
)

// PushRequest asks to move main, and with it the workspace's files, to a
// commit.
type PushRequest struct {
	// Old is where the pusher believes main is; the zero hash when it does
	// not say (a push to the submit branch creates that branch every time).
	Old plumbing.Hash
	// New is the commit main is to point at.
	New plumbing.Hash
}

// PushResult is what an accepted push changed.
type PushResult struct {
	// Head is main's commit after the push.
	Head plumbing.Hash
	// Changed are the files the push changed, with their new versions.
	Changed []FileInfo
}

// Push moves main to req.New, whose objects objs holds beside the stored
// ones, and writes the files of its tree into the workspace as saves do:
// each changed file gets its next version and keeps the replaced content.
// The push must build on main's head, as a save must name the current
// version: one based on an older commit gets ECONFLICT and changes nothing,
// as does any refused push. It is refused, naming each file, when it adds,
// deletes or changes the mode of a file, changes a read-only file, breaks a
// save's content rules, or holds a symbolic link or a submodule in any new
// commit.
func (s *Service) Push(ctx context.Context, repo *Repo, objs *Objects, req PushRequest) (PushResult, error) {
	_, d, err := s.workspace(ctx, repo.Learner, repo.WorkspaceID)
	if err != nil {
		return PushResult{}, err
	}
	if !req.Old.IsZero() && req.Old != repo.Head {
		return PushResult{}, errStalePush()
	}
	var problems pushProblems
	added, err := newObjects(objs, repo.Head, req.New, &problems)
	if err != nil {
		return PushResult{}, err
	}
	if req.New == repo.Head {
		return PushResult{Head: repo.Head}, nil
	}
	changed, err := checkTip(objs, d, repo.Head, req.New, &problems)
	if err != nil {
		return PushResult{}, err
	}
	if err := problems.err(); err != nil {
		return PushResult{}, err
	}
	toStore := make([]plumbing.EncodedObject, 0, len(added))
	for _, h := range added {
		o, err := objs.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return PushResult{}, wrap(err, "read pushed object "+h.String())
		}
		toStore = append(toStore, o)
	}
	out := PushResult{Head: req.New}
	err = s.store.InTx(ctx, func(q store.Tx) error {
		ws, d, err := s.workspaceTx(ctx, q, repo.Learner, repo.WorkspaceID)
		if err != nil {
			return err
		}
		head, err := s.gitHead(ctx, q, ws, d)
		if err != nil {
			return err
		}
		if head != repo.Head {
			return errStalePush()
		}
		if err := storeObjects(ctx, q, ws.ID, toStore); err != nil {
			return err
		}
		edited := false
		for _, p := range slices.Sorted(maps.Keys(changed)) {
			current, err := s.readFile(ctx, q, d, ws.ID, p)
			if err != nil {
				return err
			}
			f, err := s.write(ctx, q, d, ws.ID, current, changed[p], "push")
			if err != nil {
				return err
			}
			out.Changed = append(out.Changed, f.FileInfo)
			edited = edited || f.Changed
		}
		if err := moveHead(ctx, q, ws.ID, head, req.New); err != nil {
			return err
		}
		if edited {
			return s.reach(ctx, q, ws.ID, StepEdited, "")
		}
		return nil
	})
	if err != nil {
		return PushResult{}, err
	}
	s.publish(ctx, repo.WorkspaceID)
	return out, nil
}
