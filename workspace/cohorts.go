package workspace

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Limits of what an instructor and a learner type.
const (
	maxCohortName     = 100
	maxDisplayName    = 60
	maxCohortDossiers = 50
)

// Cohort is a class: a name, the dossiers it works on, an optional window
// for joining, and the code learners join with.
type Cohort struct {
	// ID identifies the cohort ("c_" followed by random text).
	ID string `json:"id"`
	// Name is the cohort's name, e.g. "Concurrency lab, spring".
	Name string `json:"name"`
	// JoinCode is the secret part of the join link.
	JoinCode string `json:"join_code"`
	// JoinPath is the page learners open to join: /join/{join_code}.
	JoinPath string `json:"join_path"`
	// Dossiers are the slugs of the cohort's dossiers, in order.
	Dossiers []string `json:"dossiers"`
	// OpensAt and ClosesAt, when set, bound when learners may join.
	OpensAt  *time.Time `json:"opens_at,omitempty"`
	ClosesAt *time.Time `json:"closes_at,omitempty"`
	// CreatedBy names the instructor token that created it.
	CreatedBy string `json:"created_by"`
	// CreatedAt is when it was created, in UTC.
	CreatedAt time.Time `json:"created_at"`
	// Members is how many learners joined it.
	Members int `json:"members"`
}

// NewCohort is what an instructor gives to create a cohort.
type NewCohort struct {
	// Name is the cohort's name (1 to 100 characters).
	Name string `json:"name"`
	// Dossiers are the slugs of served dossiers, at least one.
	Dossiers []string `json:"dossiers"`
	// OpensAt and ClosesAt optionally bound when learners may join.
	OpensAt  *time.Time `json:"opens_at,omitempty"`
	ClosesAt *time.Time `json:"closes_at,omitempty"`
}

// checkNewCohort trims nc's name and returns the first rule nc breaks as
// EINVALID, naming its field.
func (s *Service) checkNewCohort(nc *NewCohort) error {
	nc.Name = strings.TrimSpace(nc.Name)
	switch {
	case nc.Name == "" || utf8.RuneCountInString(nc.Name) > maxCohortName || hasControl(nc.Name):
		return invalidField("name", "The cohort's name must be 1 to %d characters, without control characters.", maxCohortName)
	case len(nc.Dossiers) == 0 || len(nc.Dossiers) > maxCohortDossiers:
		return invalidField("dossiers", "A cohort works on 1 to %d dossiers.", maxCohortDossiers)
	case nc.OpensAt != nil && nc.ClosesAt != nil && !nc.ClosesAt.After(*nc.OpensAt):
		return invalidField("closes_at", "The cohort must close after it opens.")
	}
	for i, slug := range nc.Dossiers {
		if _, ok := s.lookup(slug); !ok {
			return invalidField("dossiers", "There is no dossier %q.", slug)
		}
		if slices.Contains(nc.Dossiers[:i], slug) {
			return invalidField("dossiers", "Dossier %q is listed twice.", slug)
		}
	}
	return nil
}

// invalidField is EINVALID naming the field of the request at fault.
func invalidField(field, format string, args ...any) *Error {
	e := Errorf(EINVALID, format, args...)
	e.Data = map[string]any{"field": field}
	return e
}

// hasControl reports whether s holds a control character.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}

// CreateCohort creates a cohort on behalf of the instructor named by.
func (s *Service) CreateCohort(ctx context.Context, by string, nc NewCohort) (Cohort, error) {
	if err := s.checkNewCohort(&nc); err != nil {
		return Cohort{}, err
	}
	id, code := newID("c_"), strings.ToLower(newID(""))[:16]
	now := millis(s.now())
	err := s.store.InTx(ctx, func(q store.Tx) error {
		if err := q.InsertCohort(ctx, db.InsertCohortParams{ID: id, Name: nc.Name, JoinCode: code,
			OpensAt: optMillis(nc.OpensAt), ClosesAt: optMillis(nc.ClosesAt), CreatedBy: by, CreatedAt: now}); err != nil {
			return wrap(err, "insert cohort")
		}
		for i, slug := range nc.Dossiers {
			if err := q.InsertCohortDossier(ctx, db.InsertCohortDossierParams{CohortID: id, Dossier: slug, Position: int64(i)}); err != nil {
				return wrap(err, "insert cohort dossier")
			}
		}
		return nil
	})
	if err != nil {
		return Cohort{}, err
	}
	return s.Cohort(ctx, id)
}

// Cohorts lists every cohort, newest first.
func (s *Service) Cohorts(ctx context.Context) ([]Cohort, error) {
	rows, err := s.store.ListCohorts(ctx)
	if err != nil {
		return nil, wrap(err, "list cohorts")
	}
	out := make([]Cohort, 0, len(rows))
	for _, r := range rows {
		c := cohortOf(db.Cohort{ID: r.ID, Name: r.Name, JoinCode: r.JoinCode, OpensAt: r.OpensAt, ClosesAt: r.ClosesAt,
			CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt})
		c.Members = int(r.Members)
		if c.Dossiers, err = s.store.ListCohortDossiers(ctx, r.ID); err != nil {
			return nil, wrap(err, "list cohort dossiers")
		}
		out = append(out, c)
	}
	return out, nil
}

// Cohort returns one cohort, or ENOTFOUND.
func (s *Service) Cohort(ctx context.Context, id string) (Cohort, error) {
	row, err := s.store.GetCohort(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Cohort{}, Errorf(ENOTFOUND, "There is no cohort %q.", id)
	}
	if err != nil {
		return Cohort{}, wrap(err, "get cohort")
	}
	return s.fillCohort(ctx, row)
}

// fillCohort converts a cohort row and reads its dossiers and members.
func (s *Service) fillCohort(ctx context.Context, row db.Cohort) (Cohort, error) {
	c := cohortOf(row)
	var err error
	if c.Dossiers, err = s.store.ListCohortDossiers(ctx, row.ID); err != nil {
		return Cohort{}, wrap(err, "list cohort dossiers")
	}
	members, err := s.store.ListCohortMembers(ctx, row.ID)
	if err != nil {
		return Cohort{}, wrap(err, "list cohort members")
	}
	c.Members = len(members)
	return c, nil
}

// cohortOf converts a cohort row, without its dossiers and members.
func cohortOf(r db.Cohort) Cohort {
	return Cohort{ID: r.ID, Name: r.Name, JoinCode: r.JoinCode, JoinPath: "/join/" + r.JoinCode,
		OpensAt: optTime(r.OpensAt), ClosesAt: optTime(r.ClosesAt), CreatedBy: r.CreatedBy,
		CreatedAt: fromMillis(r.CreatedAt), Dossiers: []string{}}
}

// optMillis converts an optional time to the database's milliseconds.
func optMillis(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	ms := millis(*t)
	return &ms
}

// optTime converts optional milliseconds to a time in UTC.
func optTime(ms *int64) *time.Time {
	if ms == nil {
		return nil
	}
	t := fromMillis(*ms)
	return &t
}
