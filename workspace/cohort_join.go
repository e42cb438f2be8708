package workspace

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/racecase/racecase/store/sqlite/db"
)

// Invitation is a cohort as a learner sees it before and after joining.
type Invitation struct {
	// Name is the cohort's name.
	Name string `json:"name"`
	// Dossiers are the cohort's dossiers, in order, with their titles.
	Dossiers []CohortDossier `json:"dossiers"`
	// OpensAt and ClosesAt, when set, bound when learners may join.
	OpensAt  *time.Time `json:"opens_at,omitempty"`
	ClosesAt *time.Time `json:"closes_at,omitempty"`
	// Open is whether learners may join now.
	Open bool `json:"open"`
	// JoinedAs is the display name the asking learner joined under; empty
	// when they have not joined.
	JoinedAs string `json:"joined_as,omitempty"`
}

// CohortDossier is one dossier of a cohort.
type CohortDossier struct {
	// Slug is the dossier's slug.
	Slug string `json:"slug"`
	// Title is its title; empty when it is no longer served.
	Title string `json:"title"`
}

// Membership is a cohort a learner is in, and the name they gave.
type Membership struct {
	// CohortID identifies the cohort.
	CohortID string `json:"cohort_id"`
	// CohortName is the cohort's name.
	CohortName string `json:"cohort_name"`
	// DisplayName is the name the learner gave.
	DisplayName string `json:"display_name"`
}

// Invitation returns the cohort a join code names, as learner ("" for a
// visitor) sees it, or ENOTFOUND.
func (s *Service) Invitation(ctx context.Context, learner, code string) (Invitation, error) {
	row, err := s.cohortByCode(ctx, code)
	if err != nil {
		return Invitation{}, err
	}
	slugs, err := s.store.ListCohortDossiers(ctx, row.ID)
	if err != nil {
		return Invitation{}, wrap(err, "list cohort dossiers")
	}
	inv := Invitation{Name: row.Name, OpensAt: optTime(row.OpensAt), ClosesAt: optTime(row.ClosesAt),
		Open: joinWindow(row, s.now()) == nil, Dossiers: make([]CohortDossier, 0, len(slugs))}
	for _, slug := range slugs {
		cd := CohortDossier{Slug: slug}
		if d, ok := s.lookup(slug); ok {
			cd.Title = d.Title
		}
		inv.Dossiers = append(inv.Dossiers, cd)
	}
	if learner != "" {
		mine, err := s.Memberships(ctx, learner)
		if err != nil {
			return Invitation{}, err
		}
		for _, m := range mine {
			if m.CohortID == row.ID {
				inv.JoinedAs = m.DisplayName
			}
		}
	}
	return inv, nil
}

// CheckJoin returns the error Join would give for a join code and display
// name whoever the learner, so that a first visit makes no learner for a
// request that fails.
func (s *Service) CheckJoin(ctx context.Context, code, displayName string) error {
	_, _, err := s.checkJoin(ctx, code, displayName)
	return err
}

// checkJoin returns the cohort a join code names and the display name
// trimmed, or EINVALID for a bad name, ENOTFOUND for an unknown code and
// ECONFLICT for a cohort outside its window.
func (s *Service) checkJoin(ctx context.Context, code, displayName string) (db.Cohort, string, error) {
	name := strings.TrimSpace(displayName)
	if name == "" || utf8.RuneCountInString(name) > maxDisplayName || hasControl(name) {
		return db.Cohort{}, "", invalidField("display_name", "Your name must be 1 to %d characters, without control characters.", maxDisplayName)
	}
	row, err := s.cohortByCode(ctx, code)
	if err != nil {
		return db.Cohort{}, "", err
	}
	return row, name, joinWindow(row, s.now())
}

// Join puts learner in the cohort a join code names under displayName;
// joining again changes the name. Errors are CheckJoin's.
func (s *Service) Join(ctx context.Context, learner, code, displayName string) (Membership, error) {
	row, name, err := s.checkJoin(ctx, code, displayName)
	if err != nil {
		return Membership{}, err
	}
	if err := s.store.JoinCohort(ctx, db.JoinCohortParams{CohortID: row.ID, LearnerID: learner, DisplayName: name,
		JoinedAt: millis(s.now())}); err != nil {
		return Membership{}, wrap(err, "join cohort")
	}
	return Membership{CohortID: row.ID, CohortName: row.Name, DisplayName: name}, nil
}

// Memberships lists the cohorts learner joined.
func (s *Service) Memberships(ctx context.Context, learner string) ([]Membership, error) {
	rows, err := s.store.ListLearnerCohorts(ctx, learner)
	if err != nil {
		return nil, wrap(err, "list the learner's cohorts")
	}
	out := make([]Membership, 0, len(rows))
	for _, r := range rows {
		out = append(out, Membership{CohortID: r.ID, CohortName: r.Name, DisplayName: r.DisplayName})
	}
	return out, nil
}

// cohortByCode returns the cohort a join code names, or ENOTFOUND.
func (s *Service) cohortByCode(ctx context.Context, code string) (db.Cohort, error) {
	row, err := s.store.GetCohortByCode(ctx, code)
	if errors.Is(err, sql.ErrNoRows) {
		return db.Cohort{}, Errorf(ENOTFOUND, "No cohort has this join link; ask your instructor for it again.")
	}
	if err != nil {
		return db.Cohort{}, wrap(err, "get cohort")
	}
	return row, nil
}

// joinWindow says, as ECONFLICT, why a cohort cannot be joined at now; nil
// when it can.
func joinWindow(c db.Cohort, now time.Time) error {
	ms := millis(now)
	if c.OpensAt != nil && ms < *c.OpensAt {
		return Errorf(ECONFLICT, "This cohort opens at %s.", fromMillis(*c.OpensAt).Format(time.RFC1123))
	}
	if c.ClosesAt != nil && ms >= *c.ClosesAt {
		return Errorf(ECONFLICT, "This cohort closed at %s.", fromMillis(*c.ClosesAt).Format(time.RFC1123))
	}
	return nil
}
