package workspace

import (
	"context"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// StartPreview gives an instructor a throwaway learner with a fresh
// workspace for a dossier, so that a preview never touches a real learner's
// workspace, timer or progress, and counts in no cohort and no insight. The
// preview learner old, if it is one, is deleted first with everything it
// made (a learner who is not a preview learner is left alone).
func (s *Service) StartPreview(ctx context.Context, old, slug string) (learner string, v View, err error) {
	if _, err := s.dossier(slug); err != nil {
		return "", View{}, err
	}
	if old != "" {
		if err := s.EndPreview(ctx, old); err != nil {
			return "", View{}, err
		}
	}
	learner = newID("l_")
	now := millis(s.now())
	err = s.store.InTx(ctx, func(q store.Tx) error {
		if err := q.CreateLearner(ctx, db.CreateLearnerParams{ID: learner, CreatedAt: now}); err != nil {
			return wrap(err, "create preview learner")
		}
		if err := q.InsertPreviewLearner(ctx, db.InsertPreviewLearnerParams{LearnerID: learner, CreatedAt: now}); err != nil {
			return wrap(err, "mark preview learner")
		}
		return nil
	})
	if err != nil {
		return "", View{}, err
	}
	v, err = s.Create(ctx, learner, slug)
	return learner, v, err
}

// EndPreview deletes a preview learner with its workspaces; any other
// learner is left alone.
func (s *Service) EndPreview(ctx context.Context, learner string) error {
	if _, err := s.store.DeletePreviewLearner(ctx, learner); err != nil {
		return wrap(err, "delete preview learner")
	}
	return nil
}

// IsPreview reports whether learner is an instructor's preview learner.
func (s *Service) IsPreview(ctx context.Context, learner string) (bool, error) {
	n, err := s.store.IsPreviewLearner(ctx, learner)
	if err != nil {
		return false, wrap(err, "read preview learner")
	}
	return n > 0, nil
}
