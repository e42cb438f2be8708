package workspace

import (
	"context"
	"encoding/json"
	"time"

	"github.com/racecase/racecase/store/sqlite/db"
)

// ValidationRecord is one stored validation of a dossier, for the
// instructor package, which owns what a validation means.
type ValidationRecord struct {
	ID          string
	Dossier     string
	Version     string // a digest of the dossier's files and hidden suite
	RequestedBy string // the name of the instructor token that asked
	State       string // "running", "done" or "failed"
	OK          bool
	RunsDone    int
	RunsTotal   int
	Proofs      json.RawMessage // a JSON array
	Error       string
	StartedAt   time.Time
	FinishedAt  *time.Time
}

// abandonedValidation is the error of a validation a stopped racecase left running.
const abandonedValidation = "racecase stopped before this validation finished; validate again"

// StartValidation stores a validation that begins now, owned by this
// process (see ContainerRunner, whose containers prove it).
func (s *Service) StartValidation(ctx context.Context, r ValidationRecord) error {
	if err := s.store.InsertValidation(ctx, db.InsertValidationParams{ID: r.ID, Dossier: r.Dossier, DossierVersion: r.Version,
		RequestedBy: r.RequestedBy, OwnerID: s.ownerID(), StartedAt: millis(r.StartedAt)}); err != nil {
		return wrap(err, "insert validation")
	}
	return nil
}

// ValidationProgress records how many of a running validation's container runs are done.
func (s *Service) ValidationProgress(ctx context.Context, id string, done, total int) error {
	if err := s.store.SetValidationProgress(ctx, db.SetValidationProgressParams{ID: id, RunsDone: int64(done),
		RunsTotal: int64(total)}); err != nil {
		return wrap(err, "record validation progress")
	}
	return nil
}

// FinishValidation records a validation's outcome.
func (s *Service) FinishValidation(ctx context.Context, r ValidationRecord) error {
	ok := int64(0)
	if r.OK {
		ok = 1
	}
	proofs := string(r.Proofs)
	if proofs == "" {
		proofs = "[]"
	}
	if err := s.store.FinishValidation(ctx, db.FinishValidationParams{ID: r.ID, State: r.State, Ok: ok, Proofs: proofs,
		Error: r.Error, RunsDone: int64(r.RunsDone), FinishedAt: optMillis(r.FinishedAt)}); err != nil {
		return wrap(err, "record validation outcome")
	}
	return nil
}

// AbandonValidations marks failed every validation a stopped racecase left
// running, and returns how many there were. On a shared database those are
// the validations whose owner's heartbeat is older than ownerTimeout (or
// which no live owner holds); the running validations of other live
// servers are left alone. On an unshared one, whose data directory's lock
// keeps every other process out, they are all the validations whose owner
// last beat before this service was built.
func (s *Service) AbandonValidations(ctx context.Context) (int64, error) {
	now := s.now()
	liveSince := millis(s.built)
	if s.store.Shared() {
		liveSince = millis(now.Add(-ownerTimeout))
	}
	at := millis(now)
	n, err := s.store.AbandonValidations(ctx, db.AbandonValidationsParams{Error: abandonedValidation, FinishedAt: &at,
		LiveSince: liveSince})
	if err != nil {
		return 0, wrap(err, "abandon validations")
	}
	return n, nil
}

// ownerID is the id under which this process beats its heartbeat, "" when
// it starts no containers (and so proves no validation).
func (s *Service) ownerID() string {
	if s.runs == nil || s.runs.owner == nil {
		return ""
	}
	return s.runs.owner.id
}

// Validations lists a dossier's newest max validations, newest first.
func (s *Service) Validations(ctx context.Context, dossier string, max int) ([]ValidationRecord, error) {
	rows, err := s.store.ListValidations(ctx, db.ListValidationsParams{Dossier: dossier, MaxRows: int64(max)})
	if err != nil {
		return nil, wrap(err, "list validations")
	}
	return validationRecords(rows), nil
}

// LatestValidations returns each dossier's newest validation.
func (s *Service) LatestValidations(ctx context.Context) ([]ValidationRecord, error) {
	rows, err := s.store.ListLatestValidations(ctx)
	if err != nil {
		return nil, wrap(err, "list latest validations")
	}
	return validationRecords(rows), nil
}

// validationRecords converts validation rows.
func validationRecords(rows []db.Validation) []ValidationRecord {
	out := make([]ValidationRecord, 0, len(rows))
	for _, r := range rows {
		out = append(out, ValidationRecord{ID: r.ID, Dossier: r.Dossier, Version: r.DossierVersion, RequestedBy: r.RequestedBy,
			State: r.State, OK: r.Ok != 0, RunsDone: int(r.RunsDone), RunsTotal: int(r.RunsTotal),
			Proofs: json.RawMessage(r.Proofs), Error: r.Error, StartedAt: fromMillis(r.StartedAt), FinishedAt: optTime(r.FinishedAt)})
	}
	return out
}
