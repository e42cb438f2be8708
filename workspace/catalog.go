package workspace

import (
	"context"
	"strings"

	"github.com/racecase/racecase/challenges"
)

// Card is a dossier as the catalog lists it, with the learner's progress on
// it when they have a workspace for it.
type Card struct {
	// Slug identifies the dossier.
	Slug string `json:"slug"`
	// Title is the headline of the incident.
	Title string `json:"title"`
	// Summary is the card text.
	Summary string `json:"summary"`
	// Kind is the kind of challenge, e.g. "codebase-incident".
	Kind string `json:"kind"`
	// Topic is the topic tag, e.g. "Queues & Concurrency".
	Topic string `json:"topic"`
	// FailureClass is the kind of concurrency failure the incident is.
	FailureClass challenges.FailureClass `json:"failure_class"`
	// Difficulty is "easy", "medium" or "hard".
	Difficulty string `json:"difficulty"`
	// EstimateMinutes is the estimated time to solve, in minutes.
	EstimateMinutes int `json:"estimate_minutes"`
	// Progress is the learner's progress on the dossier; nil when they have no workspace for it.
	Progress *CardProgress `json:"progress,omitempty"`
	// Match is the public phrase a search matched; nil outside a search.
	Match *challenges.Match `json:"match,omitempty"`
}

// CardProgress is a learner's progress on a dossier, from their newest
// workspace for it.
type CardProgress struct {
	// WorkspaceID is the learner's newest workspace for the dossier.
	WorkspaceID string `json:"workspace_id"`
	// StepsDone is how many progress steps that workspace has reached.
	StepsDone int `json:"steps_done"`
	// Steps is the total number of progress steps.
	Steps int `json:"steps"`
	// Solved is whether a submission from that workspace passed the hidden tests.
	Solved bool `json:"solved"`
}

// Cards lists every dossier, the most approachable first, with learner's
// progress when learner is not empty.
func (s *Service) Cards(ctx context.Context, learner string) ([]Card, error) {
	progress, err := s.learnerProgress(ctx, learner)
	if err != nil {
		return nil, err
	}
	served := s.served()
	cards := make([]Card, 0, len(served))
	for _, d := range served {
		cards = append(cards, cardOf(d, progress[d.Slug]))
	}
	return cards, nil
}

// OfClass keeps the cards of one failure class, in their order; an empty
// class keeps them all.
func OfClass(cards []Card, class string) ([]Card, error) {
	if class == "" {
		return cards, nil
	}
	if _, ok := challenges.FailureClassOf(class); !ok {
		ids := make([]string, 0, len(challenges.FailureClasses))
		for _, c := range challenges.FailureClasses {
			ids = append(ids, c.ID)
		}
		return nil, Errorf(EINVALID, "There is no failure class %q; the classes are %s.", class, strings.Join(ids, ", "))
	}
	kept := []Card{}
	for _, c := range cards {
		if c.FailureClass.ID == class {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// cardOf is d's card with the learner's progress on it (nil for none).
func cardOf(d *dossier, progress *CardProgress) Card {
	return Card{
		Slug:            d.Slug,
		Title:           d.Title,
		Summary:         d.Summary,
		Kind:            d.Kind,
		Topic:           d.Topic,
		FailureClass:    d.Class(),
		Difficulty:      d.Difficulty,
		EstimateMinutes: d.EstimateMinutes,
		Progress:        progress,
	}
}

// learnerProgress returns, per dossier slug, the progress of the learner's
// newest workspace for it; nothing when learner is empty.
func (s *Service) learnerProgress(ctx context.Context, learner string) (map[string]*CardProgress, error) {
	if learner == "" {
		return map[string]*CardProgress{}, nil
	}
	workspaces, err := s.store.ListWorkspaces(ctx, learner)
	if err != nil {
		return nil, wrap(err, "list workspaces")
	}
	events, err := s.store.ListLearnerProgress(ctx, learner)
	if err != nil {
		return nil, wrap(err, "list progress")
	}
	done := map[string]map[string]bool{}
	for _, e := range events {
		if done[e.WorkspaceID] == nil {
			done[e.WorkspaceID] = map[string]bool{}
		}
		done[e.WorkspaceID][e.Step] = true
	}
	out := map[string]*CardProgress{}
	for _, w := range workspaces { // newest first
		if out[w.Dossier] != nil {
			continue
		}
		out[w.Dossier] = &CardProgress{
			WorkspaceID: w.ID,
			StepsDone:   len(done[w.ID]),
			Steps:       len(steps),
			Solved:      done[w.ID][StepSubmitted],
		}
	}
	return out, nil
}

// Dossier returns the learner's view of one dossier: its evidence without the
// secret answer, hint texts, solution, decoys or hidden tests.
func (s *Service) Dossier(slug string) (challenges.PublicDossier, error) {
	d, err := s.dossier(slug)
	if err != nil {
		return challenges.PublicDossier{}, err
	}
	return d.Public(), nil
}
