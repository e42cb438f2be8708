package workspace

import (
	"context"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// HintView is one hint as the learner sees it: its title always, its text
// only once revealed.
type HintView struct {
	// Index is the hint's 0-based position, broad to narrow.
	Index int `json:"index"`
	// Title is the hint's title, shown even before it is revealed.
	Title string `json:"title"`
	// Revealed is whether the learner has revealed the hint.
	Revealed bool `json:"revealed"`
	// Text is the hint itself; empty until revealed.
	Text string `json:"text,omitempty"`
	// RevealedAt is when the hint was revealed, in UTC; nil until then.
	RevealedAt *time.Time `json:"revealed_at,omitempty"`
}

// hints lists a workspace's hints.
func (s *Service) hints(ctx context.Context, d *dossier, wsID string) ([]HintView, error) {
	reveals, err := s.store.ListHintReveals(ctx, wsID)
	if err != nil {
		return nil, wrap(err, "list hint reveals")
	}
	revealed := map[int]time.Time{}
	for _, r := range reveals {
		revealed[int(r.Hint)] = fromMillis(r.RevealedAt)
	}
	out := make([]HintView, 0, len(d.Hints))
	for i, h := range d.Hints {
		v := HintView{Index: i, Title: h.Title}
		if at, ok := revealed[i]; ok {
			v.Revealed, v.Text, v.RevealedAt = true, h.Text, &at
		}
		out = append(out, v)
	}
	return out, nil
}

// Hints lists the hints of one of learner's workspaces.
func (s *Service) Hints(ctx context.Context, learner, wsID string) ([]HintView, error) {
	ws, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return nil, err
	}
	return s.hints(ctx, d, ws.ID)
}

// RevealHint reveals the next hint, broad to narrow, and records when. When
// every hint is revealed it returns ECONFLICT.
func (s *Service) RevealHint(ctx context.Context, learner, wsID string) (HintView, error) {
	var out HintView
	err := s.store.InTx(ctx, func(q store.Tx) error {
		_, d, err := s.workspaceTx(ctx, q, learner, wsID)
		if err != nil {
			return err
		}
		reveals, err := q.ListHintReveals(ctx, wsID)
		if err != nil {
			return wrap(err, "list hint reveals")
		}
		next := len(reveals)
		h, ok := d.Hint(next)
		if !ok {
			return Errorf(ECONFLICT, "Every hint of this dossier (%d) is already revealed.", len(d.Hints))
		}
		now := s.now()
		if err := q.InsertHintReveal(ctx, db.InsertHintRevealParams{WorkspaceID: wsID, Hint: int64(next), RevealedAt: millis(now)}); err != nil {
			return wrap(err, "record hint reveal")
		}
		at := fromMillis(millis(now))
		out = HintView{Index: next, Title: h.Title, Revealed: true, Text: h.Text, RevealedAt: &at}
		return nil
	})
	return out, err
}
