package workspace

import (
	"context"
	"slices"
	"time"

	"github.com/racecase/racecase/challenges"
)

// Playbook is a dossier's on-call card as a learner who solved the dossier
// gets it: everything but the internal fix terms, with look-alikes linked to
// the dossiers served for them. It gives the fix away, so it is served only
// after a passing submission.
type Playbook struct {
	// Slug names the dossier.
	Slug string `json:"slug"`
	// Title is the dossier's title, the playbook's headline.
	Title string `json:"title"`
	// SolvedAt is when the learner first passed the dossier's hidden tests, in UTC.
	SolvedAt time.Time `json:"solved_at"`
	// TLDR says what happened, why, and the fix.
	TLDR string `json:"tldr"`
	// Error is the error as an engineer sees it.
	Error string `json:"error"`
	// Steps are what to do, in order, each with its expected outcome.
	Steps []challenges.PlaybookStep `json:"steps"`
	// UseWhen lists the situations the playbook applies to.
	UseWhen []string `json:"use_when"`
	// NotFor lists the look-alikes.
	NotFor []LookAlike `json:"not_for"`
	// VariantPhrasings are how people describe the incident when they search.
	VariantPhrasings []string `json:"variant_phrasings"`
	// Why explains the mechanism.
	Why string `json:"why"`
	// EdgeCases lists edge cases and tempting non-fixes.
	EdgeCases []string `json:"edge_cases"`
	// Provenance lists the public sources the lesson rests on; possibly empty.
	Provenance []challenges.Reference `json:"provenance"`
}

// LookAlike is an incident that resembles the dossier's, and the dossier
// about it when one is served.
type LookAlike struct {
	// When describes what the look-alike looks like.
	When string `json:"when"`
	// Really says what it really is.
	Really string `json:"really"`
	// Dossier is the served dossier about the look-alike; nil when there is none.
	Dossier *DossierLink `json:"dossier,omitempty"`
}

// DossierLink names a served dossier.
type DossierLink struct {
	// Slug identifies the dossier.
	Slug string `json:"slug"`
	// Title is its title.
	Title string `json:"title"`
}

// playbookOf is d's playbook for a learner who solved it at solvedAt.
func (s *Service) playbookOf(d *dossier, solvedAt time.Time) *Playbook {
	pb := d.Playbook
	out := &Playbook{
		Slug: d.Slug, Title: d.Title, SolvedAt: solvedAt,
		TLDR: pb.TLDR, Error: pb.Error, Why: pb.Why,
		Steps:            slices.Clone(pb.Steps),
		UseWhen:          slices.Clone(pb.UseWhen),
		VariantPhrasings: slices.Clone(pb.VariantPhrasings),
		EdgeCases:        slices.Clone(pb.EdgeCases),
		Provenance:       append([]challenges.Reference{}, pb.Provenance...),
	}
	for _, l := range pb.NotFor {
		look := LookAlike{When: l.When, Really: l.Really}
		if other, ok := s.lookup(l.Dossier); ok {
			look.Dossier = &DossierLink{Slug: other.Slug, Title: other.Title}
		}
		out.NotFor = append(out.NotFor, look)
	}
	return out
}

// Playbooks returns the learner's shelf: the playbook of every served
// dossier they solved, most recently solved first.
func (s *Service) Playbooks(ctx context.Context, learner string) ([]Playbook, error) {
	out := []Playbook{}
	if learner == "" {
		return out, nil
	}
	solved, err := s.store.ListSolvedDossiers(ctx, learner)
	if err != nil {
		return nil, wrap(err, "list solved dossiers")
	}
	for _, row := range solved {
		if d, ok := s.lookup(row.Dossier); ok {
			out = append(out, *s.playbookOf(d, fromMillis(row.SolvedAt)))
		}
	}
	return out, nil
}

// Playbook returns one dossier's playbook for learner: ENOTFOUND when no
// such dossier is served, EFORBIDDEN until the learner has solved it.
func (s *Service) Playbook(ctx context.Context, learner, slug string) (Playbook, error) {
	if _, err := s.dossier(slug); err != nil {
		return Playbook{}, err
	}
	shelf, err := s.Playbooks(ctx, learner)
	if err != nil {
		return Playbook{}, err
	}
	for _, pb := range shelf {
		if pb.Slug == slug {
			return pb, nil
		}
	}
	return Playbook{}, Errorf(EFORBIDDEN, "Solve this dossier first: its playbook gives the fix away, so it opens once a submission passes the hidden tests.")
}
