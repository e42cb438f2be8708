package workspace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Summary is a workspace as a list shows it.
type Summary struct {
	// ID identifies the workspace ("w_" followed by random text).
	ID string `json:"id"`
	// Dossier is the slug of the dossier the workspace copies.
	Dossier string `json:"dossier"`
	// Title is the dossier's title; empty when the dossier is no longer served.
	Title string `json:"title"`
	// CreatedAt is when the workspace was created, in UTC.
	CreatedAt time.Time `json:"created_at"`
}

// View is everything the workspace page shows: the files with their
// versions, progress with its timer, the hints, and the latest runs.
type View struct {
	Summary
	// ElapsedSeconds is the time since the workspace was created (until the
	// fix was submitted, once it was).
	ElapsedSeconds int64 `json:"elapsed_seconds"`
	// Files are the workspace's files, without their content.
	Files []FileInfo `json:"files"`
	// Progress is the workspace's progress with its timer.
	Progress Progress `json:"progress"`
	// Hints are the dossier's hints, revealed or not, broad to narrow.
	Hints []HintView `json:"hints"`
	// Runs are the workspace's latest runs, newest first.
	Runs []RunSummary `json:"runs"`
	// Hypothesis is the hypothesis the learner marked; empty until they do.
	Hypothesis string `json:"hypothesis,omitempty"`
	// Preview is true for an instructor's throwaway preview workspace.
	Preview bool `json:"preview,omitempty"`
}

// Create gives learner a fresh copy of a dossier's repository. A learner
// who has MaxWorkspaces already gets EQUOTA.
func (s *Service) Create(ctx context.Context, learner, slug string) (View, error) {
	d, err := s.dossier(slug)
	if err != nil {
		return View{}, err
	}
	id := newID("w_")
	now := millis(s.now())
	err = s.store.InTx(ctx, func(q store.Tx) error {
		n, err := q.CountLearnerWorkspaces(ctx, learner)
		if err != nil {
			return wrap(err, "count workspaces")
		}
		if n >= int64(s.cfg.MaxWorkspaces) {
			return &Error{Code: EQUOTA, Data: map[string]any{"limit": s.cfg.MaxWorkspaces},
				Message: fmt.Sprintf("You have %d workspaces, the most one learner may have; reset one of them (POST …/reset) and use it again.", n)}
		}
		if err := q.CreateWorkspace(ctx, db.CreateWorkspaceParams{ID: id, LearnerID: learner, Dossier: slug, CreatedAt: now}); err != nil {
			return wrap(err, "create workspace")
		}
		for _, p := range d.paths {
			content := d.files[p]
			if err := q.InsertFile(ctx, db.InsertFileParams{
				WorkspaceID: id, Path: p, Content: content, Size: int64(len(content)), UpdatedAt: now,
			}); err != nil {
				return wrap(err, "copy "+p)
			}
		}
		_, err = s.gitHead(ctx, q, db.Workspace{ID: id, Dossier: slug, CreatedAt: now}, d)
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.View(ctx, learner, id)
}

// List returns learner's workspaces, newest first.
func (s *Service) List(ctx context.Context, learner string) ([]Summary, error) {
	rows, err := s.store.ListWorkspaces(ctx, learner)
	if err != nil {
		return nil, wrap(err, "list workspaces")
	}
	out := make([]Summary, 0, len(rows))
	for _, w := range rows {
		out = append(out, s.summary(w))
	}
	return out, nil
}

// View returns one of learner's workspaces.
func (s *Service) View(ctx context.Context, learner, wsID string) (View, error) {
	ws, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return View{}, err
	}
	v := View{Summary: s.summary(ws)}
	if v.Files, err = s.files(ctx, d, ws.ID); err != nil {
		return View{}, err
	}
	if v.Progress, err = s.progress(ctx, d, ws.ID, v.CreatedAt); err != nil {
		return View{}, err
	}
	v.ElapsedSeconds = v.Progress.ElapsedSeconds
	if v.Hints, err = s.hints(ctx, d, ws.ID); err != nil {
		return View{}, err
	}
	if v.Runs, err = s.recentRuns(ctx, ws.ID); err != nil {
		return View{}, err
	}
	if v.Hypothesis, err = s.hypothesisPick(ctx, ws.ID); err != nil {
		return View{}, err
	}
	if v.Preview, err = s.IsPreview(ctx, learner); err != nil {
		return View{}, err
	}
	return v, nil
}

// summary converts a workspace row.
func (s *Service) summary(w db.Workspace) Summary {
	sum := Summary{ID: w.ID, Dossier: w.Dossier, CreatedAt: fromMillis(w.CreatedAt)}
	if d, ok := s.lookup(w.Dossier); ok {
		sum.Title = d.Title
	}
	return sum
}

// workspace returns learner's workspace wsID and its dossier. Another
// learner's workspace is ENOTFOUND, exactly like a missing one.
func (s *Service) workspace(ctx context.Context, learner, wsID string) (db.Workspace, *dossier, error) {
	return s.workspaceTx(ctx, s.store, learner, wsID)
}

// workspaceTx is workspace with the queries of a transaction.
func (s *Service) workspaceTx(ctx context.Context, q store.Queries, learner, wsID string) (db.Workspace, *dossier, error) {
	notFound := Errorf(ENOTFOUND, "There is no workspace %q.", wsID)
	if learner == "" {
		return db.Workspace{}, nil, notFound
	}
	ws, err := q.GetWorkspace(ctx, db.GetWorkspaceParams{ID: wsID, LearnerID: learner})
	if errors.Is(err, sql.ErrNoRows) {
		return db.Workspace{}, nil, notFound
	}
	if err != nil {
		return db.Workspace{}, nil, wrap(err, "get workspace")
	}
	d, ok := s.lookup(ws.Dossier)
	if !ok {
		return db.Workspace{}, nil, &Error{Code: EUNAVAILABLE,
			Message: "This workspace's dossier is no longer served by this racecase.",
			Err:     errors.New("dossier " + ws.Dossier + " not loaded")}
	}
	return ws, d, nil
}
