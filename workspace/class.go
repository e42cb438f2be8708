package workspace

import (
	"context"
	"time"
)

// ClassRow is one learner's progress on one dossier of a cohort, as the
// instructor's progress table shows it.
type ClassRow struct {
	// LearnerID identifies the learner.
	LearnerID string `json:"learner_id"`
	// DisplayName is the name the learner gave when joining.
	DisplayName string `json:"display_name"`
	// Dossier is the dossier's slug; DossierTitle its title.
	Dossier      string `json:"dossier"`
	DossierTitle string `json:"dossier_title"`
	// WorkspaceID is the learner's workspace for the dossier (the first
	// solved, else the newest); empty when they have not opened it.
	WorkspaceID string `json:"workspace_id,omitempty"`
	// Step is the number of the furthest progress step reached (0 to 4);
	// StepTitle names it ("Not started", "Opened", or the step's title).
	Step      int    `json:"step"`
	StepTitle string `json:"step_title"`
	// ElapsedSeconds is the workspace's timer: from opening it until the
	// passing submission, or until now.
	ElapsedSeconds int64 `json:"elapsed_seconds"`
	// HintsRevealed is how many hints the workspace revealed.
	HintsRevealed int `json:"hints_revealed"`
	// Checks and Submissions count the finished runs of every workspace of
	// the learner for the dossier.
	Checks      int `json:"checks"`
	Submissions int `json:"submissions"`
	// LastFailingProperty is the first failed hidden test of the newest
	// failed submission; empty when none failed.
	LastFailingProperty string `json:"last_failing_property,omitempty"`
	// SolvedAt is when a submission first passed, in UTC.
	SolvedAt *time.Time `json:"solved_at,omitempty"`
	// Running is the kind of the run in flight ("check" or "submit"), if any.
	Running string `json:"running,omitempty"`
}

// Class is a cohort with its progress table.
type Class struct {
	// Cohort is the cohort.
	Cohort Cohort `json:"cohort"`
	// Rows are one per member and cohort dossier, members in the order they
	// joined, dossiers in the cohort's order.
	Rows []ClassRow `json:"rows"`
	// At is when the table was read, in UTC.
	At time.Time `json:"at"`
}

// Class returns a cohort's progress table.
func (s *Service) Class(ctx context.Context, cohortID string) (Class, error) {
	c, err := s.Cohort(ctx, cohortID)
	if err != nil {
		return Class{}, err
	}
	members, err := s.store.ListCohortMembers(ctx, cohortID)
	if err != nil {
		return Class{}, wrap(err, "list cohort members")
	}
	facts, err := s.loadFacts(ctx, cohortID)
	if err != nil {
		return Class{}, err
	}
	type key struct{ learner, dossier string }
	byKey := map[key][]*wsFacts{}
	for _, f := range facts {
		k := key{f.learner, f.dossier}
		byKey[k] = append(byKey[k], f)
	}
	now := s.now()
	out := Class{Cohort: c, Rows: make([]ClassRow, 0, len(members)*len(c.Dossiers)), At: now.UTC()}
	for _, m := range members {
		for _, slug := range c.Dossiers {
			row := ClassRow{LearnerID: m.LearnerID, DisplayName: m.DisplayName, Dossier: slug, StepTitle: "Not started"}
			if d, ok := s.lookup(slug); ok {
				row.DossierTitle = d.Title
			}
			if ws := byKey[key{m.LearnerID, slug}]; len(ws) > 0 {
				fillClassRow(&row, ws, now)
			}
			out.Rows = append(out.Rows, row)
		}
	}
	return out, nil
}

// fillClassRow fills a row from the learner's workspaces for its dossier.
func fillClassRow(row *ClassRow, ws []*wsFacts, now time.Time) {
	p := primary(ws)
	prog := deriveProgress(p.reached, p.created, now)
	row.WorkspaceID, row.ElapsedSeconds, row.HintsRevealed = p.id, prog.ElapsedSeconds, len(p.hints)
	row.StepTitle = "Opened"
	for _, st := range prog.Steps {
		if st.Done {
			row.Step, row.StepTitle = st.Number, st.Title
		}
	}
	row.SolvedAt = prog.SolvedAt
	for _, f := range ws {
		for _, o := range f.outcomes {
			if o.kind == KindCheck {
				row.Checks++
			} else {
				row.Submissions++
			}
		}
		if f.inFlight != "" {
			row.Running = f.inFlight
		}
	}
	row.LastFailingProperty = lastFailingProperty(ws)
}
