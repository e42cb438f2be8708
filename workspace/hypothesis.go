package workspace

import (
	"context"
	"database/sql"
	"errors"

	"github.com/racecase/racecase/store/sqlite/db"
)

// PickHypothesis records the hypothesis the learner of a workspace marks as
// the one they believe (replacing an earlier pick); the instructor's
// insights compare the picks with the root cause. An id that is not one of
// the dossier's hypotheses is EINVALID.
func (s *Service) PickHypothesis(ctx context.Context, learner, wsID, hypothesis string) error {
	ws, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return err
	}
	known := false
	for _, h := range d.Hypotheses {
		known = known || h.ID == hypothesis
	}
	if !known {
		return invalidField("hypothesis", "Dossier %s has no hypothesis %q.", d.Slug, hypothesis)
	}
	if err := s.store.SetHypothesisPick(ctx, db.SetHypothesisPickParams{WorkspaceID: ws.ID, Hypothesis: hypothesis,
		PickedAt: millis(s.now())}); err != nil {
		return wrap(err, "record hypothesis pick")
	}
	return nil
}

// hypothesisPick returns the hypothesis a workspace marked, or "".
func (s *Service) hypothesisPick(ctx context.Context, wsID string) (string, error) {
	h, err := s.store.GetHypothesisPick(ctx, wsID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", wrap(err, "read hypothesis pick")
	}
	return h, nil
}
