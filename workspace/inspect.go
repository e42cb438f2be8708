package workspace

import (
	"context"
	"database/sql"
	"errors"
)

// Inspection is any learner's workspace as an instructor sees it to help
// them, read-only: the workspace page's view, every file with its content,
// the changes against the original, and the latest runs with their results.
type Inspection struct {
	// Workspace is the workspace as its learner's page shows it.
	Workspace View `json:"workspace"`
	// LearnerID identifies the learner; Cohorts are the cohorts they joined.
	LearnerID string       `json:"learner_id"`
	Cohorts   []Membership `json:"cohorts"`
	// Files are the workspace's files with their content.
	Files []File `json:"files"`
	// Diff is the workspace's changes against the original repository.
	Diff Diff `json:"diff"`
	// Runs are the latest runs, newest first, with their results.
	Runs []Run `json:"runs"`
}

// Inspect returns any learner's workspace for the instructor, or ENOTFOUND.
// Nothing it returns lets the instructor change the workspace.
func (s *Service) Inspect(ctx context.Context, wsID string) (Inspection, error) {
	ws, err := s.store.GetWorkspaceByID(ctx, wsID)
	if errors.Is(err, sql.ErrNoRows) {
		return Inspection{}, Errorf(ENOTFOUND, "There is no workspace %q.", wsID)
	}
	if err != nil {
		return Inspection{}, wrap(err, "get workspace")
	}
	owner := ws.LearnerID
	in := Inspection{LearnerID: owner}
	if in.Workspace, err = s.View(ctx, owner, wsID); err != nil {
		return Inspection{}, err
	}
	if in.Cohorts, err = s.Memberships(ctx, owner); err != nil {
		return Inspection{}, err
	}
	in.Files = make([]File, 0, len(in.Workspace.Files))
	for _, f := range in.Workspace.Files {
		file, err := s.ReadFile(ctx, owner, wsID, f.Path)
		if err != nil {
			return Inspection{}, err
		}
		in.Files = append(in.Files, file)
	}
	if in.Diff, err = s.Diff(ctx, owner, wsID); err != nil {
		return Inspection{}, err
	}
	in.Runs = make([]Run, 0, len(in.Workspace.Runs))
	for _, r := range in.Workspace.Runs {
		run, err := s.Run(ctx, owner, r.ID)
		if err != nil {
			return Inspection{}, err
		}
		in.Runs = append(in.Runs, run)
	}
	return in, nil
}
