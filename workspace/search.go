package workspace

import (
	"context"
	"strings"

	"github.com/racecase/racecase/challenges"
)

// Search finds dossiers by symptom: the dossiers whose public text (title,
// summary, signal, symptom, the playbook's error and variant phrasings)
// matches q, best first, each card carrying the phrase that matched and
// learner's progress when learner is not empty. A query longer than
// challenges.MaxQueryLength is EINVALID.
func (s *Service) Search(ctx context.Context, learner, q string) ([]Card, error) {
	if !challenges.ValidQuery(q) {
		return nil, Errorf(EINVALID, "A search is at most %d characters long; describe the symptom in fewer words.", challenges.MaxQueryLength)
	}
	progress, err := s.learnerProgress(ctx, learner)
	if err != nil {
		return nil, err
	}
	cards := []Card{}
	for _, h := range s.searchIndex().Search(strings.TrimSpace(q)) {
		d, ok := s.lookup(h.Slug)
		if !ok {
			continue // withdrawn since the index was read
		}
		card := cardOf(d, progress[h.Slug])
		card.Match = &h.Match
		cards = append(cards, card)
	}
	return cards, nil
}

// searchIndex returns the index of the dossiers served now.
func (s *Service) searchIndex() *challenges.Index {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.index
}
