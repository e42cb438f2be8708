package instructor

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io/fs"
	"runtime"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/workspace"
)

// Validation states.
const (
	StateNever   = "never"   // never validated
	StateRunning = "running" // proving now
	StateDone    = "done"    // Proofs hold the outcome; OK says whether every claim held
	StateFailed  = "failed"  // the runner failed, or racecase stopped; Error says why
)

// HistoryKept is how many validations of a dossier History returns.
const HistoryKept = 20

// historyTimeout bounds one write of the validation history.
const historyTimeout = 10 * time.Second

// History keeps every validation in the database; *workspace.Service is one.
type History interface {
	// StartValidation stores a validation that begins.
	StartValidation(ctx context.Context, r workspace.ValidationRecord) error
	// ValidationProgress records how many of its container runs are done.
	ValidationProgress(ctx context.Context, id string, done, total int) error
	// FinishValidation records its outcome.
	FinishValidation(ctx context.Context, r workspace.ValidationRecord) error
	// AbandonValidations marks failed those a stopped racecase left running.
	AbandonValidations(ctx context.Context) (int64, error)
	// Validations lists a dossier's newest validations, newest first.
	Validations(ctx context.Context, dossier string, max int) ([]workspace.ValidationRecord, error)
	// LatestValidations returns each dossier's newest validation.
	LatestValidations(ctx context.Context) ([]workspace.ValidationRecord, error)
}

// Validation is one validation of a dossier: challenges.Prove through the
// learners' runner, on the version of its files served at the time.
type Validation struct {
	// ID identifies the validation ("v_" followed by random text); empty
	// for a dossier never validated.
	ID string `json:"id,omitempty"`
	// State is StateNever, StateRunning, StateDone or StateFailed.
	State string `json:"state"`
	// DossierVersion is a digest of the dossier's files and hidden suite.
	DossierVersion string `json:"dossier_version,omitempty"`
	// RequestedBy names the instructor token that asked for it.
	RequestedBy string `json:"requested_by,omitempty"`
	// StartedAt is when it began; nil if none ever ran.
	StartedAt *time.Time `json:"started_at,omitempty"`
	// FinishedAt is when it ended; nil while it runs or if it never ran.
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// RunsDone and RunsTotal are how many of its container runs are done,
	// of how many (0 of 0 until it has counted them).
	RunsDone  int `json:"runs_done"`
	RunsTotal int `json:"runs_total"`
	// OK is true when it is done and every claim held.
	OK bool `json:"ok"`
	// Proofs are the claims and their outcomes, in Prove's order.
	Proofs []challenges.Proof `json:"proofs"`
	// Error says why a failed validation could not conclude.
	Error string `json:"error,omitempty"`
}

// neverValidated is the validation of a dossier never validated.
func neverValidated() Validation {
	return Validation{State: StateNever, Proofs: []challenges.Proof{}}
}

// Validation returns the last validation of a dossier, or ENOTFOUND.
func (d *Desk) Validation(slug string) (Validation, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[slug]
	if !ok {
		return Validation{}, workspace.Errorf(workspace.ENOTFOUND, "There is no dossier %q.", slug)
	}
	return e.info.Validation, nil
}

// History returns a dossier's newest validations (at most HistoryKept),
// newest first, or ENOTFOUND.
func (d *Desk) History(ctx context.Context, slug string) ([]Validation, error) {
	if _, err := d.Validation(slug); err != nil {
		return nil, err
	}
	if d.cfg.History == nil {
		return []Validation{}, nil
	}
	records, err := d.cfg.History.Validations(ctx, slug, HistoryKept)
	if err != nil {
		return nil, err
	}
	out := make([]Validation, 0, len(records))
	for _, r := range records {
		out = append(out, fromRecord(r))
	}
	return out, nil
}

// Validate starts proving the served version of a dossier in the background
// on behalf of the instructor token named by, and returns its running
// state; while one runs, it returns that one. It is EUNAVAILABLE without a
// runner, ENOTFOUND for an unknown slug and ECONFLICT for a dossier whose
// files on disk do not load.
func (d *Desk) Validate(slug, by string) (Validation, error) {
	if d.cfg.Runner == nil {
		return Validation{}, &workspace.Error{Code: workspace.EUNAVAILABLE, RetryAfter: 30 * time.Second,
			Message: "Validation is unavailable: racecase started without a Docker engine. Start one (./.ci/docker-engine or `make engine`) and restart racecase."}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[slug]
	switch {
	case !ok:
		return Validation{}, workspace.Errorf(workspace.ENOTFOUND, "There is no dossier %q.", slug)
	case e.dossier == nil:
		return Validation{}, workspace.Errorf(workspace.ECONFLICT, "Dossier %q has never loaded; fix its problems first.", slug)
	case e.info.Stale:
		return Validation{}, workspace.Errorf(workspace.ECONFLICT, "The files of dossier %q do not load; fix its problems first.", slug)
	case e.info.Validation.State == StateRunning:
		return e.info.Validation, nil
	}
	hidden, err := d.suite(slug)
	if err != nil {
		return Validation{}, workspace.Errorf(workspace.ECONFLICT, "The hidden suite of dossier %q cannot be read: %v", slug, err)
	}
	version, err := versionOf(e.fsys, slug, hidden)
	if err != nil {
		return Validation{}, workspace.Errorf(workspace.ECONFLICT, "The files of dossier %q cannot be read: %v", slug, err)
	}
	started := time.Now().UTC()
	v := Validation{ID: "v_" + rand.Text(), State: StateRunning, DossierVersion: version, RequestedBy: by,
		StartedAt: &started, Proofs: []challenges.Proof{}}
	if err := d.cfg.History.StartValidation(d.ctx, toRecord(slug, v)); err != nil {
		return Validation{}, err
	}
	e.info.Validation = v
	d.running.Add(1)
	go d.prove(slug, e.dossier, e.fsys, hidden, v)
	return v, nil
}

// prove runs the validation Validate started, recording its progress and
// its outcome.
func (d *Desk) prove(slug string, dossier *challenges.Dossier, fsys fs.FS, hidden map[string][]byte, v Validation) {
	defer d.running.Done()
	progress := func(done, total int) {
		d.mu.Lock()
		if e, ok := d.entries[slug]; ok && e.info.Validation.ID == v.ID {
			e.info.Validation.RunsDone, e.info.Validation.RunsTotal = done, total
		}
		d.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(d.ctx), historyTimeout)
		defer cancel()
		if err := d.cfg.History.ValidationProgress(ctx, v.ID, done, total); err != nil {
			d.log.Warn("cannot record validation progress", "slug", slug, "error", err.Error())
		}
	}
	proofs, err := challenges.Prove(d.ctx, d.cfg.Runner, fsys, dossier, challenges.ProofOptions{
		Image: d.cfg.Image, Runs: d.cfg.Runs, Parallel: runtime.NumCPU(), Hidden: hidden, Progress: progress,
	})
	d.mu.Lock()
	if e, ok := d.entries[slug]; ok && e.info.Validation.ID == v.ID {
		v.RunsDone, v.RunsTotal = e.info.Validation.RunsDone, e.info.Validation.RunsTotal
	}
	d.mu.Unlock()
	v.State, v.OK = StateDone, err == nil
	if err == nil {
		v.Proofs = proofs
		for _, p := range proofs {
			v.OK = v.OK && p.OK
		}
	} else {
		v.State, v.Error = StateFailed, err.Error()
	}
	finished := time.Now().UTC()
	v.FinishedAt = &finished
	d.log.Info("dossier validated", "slug", slug, "state", v.State, "ok", v.OK)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(d.ctx), historyTimeout)
	defer cancel()
	if err := d.cfg.History.FinishValidation(ctx, toRecord(slug, v)); err != nil {
		d.log.Error("cannot record the validation's outcome", "slug", slug, "error", err.Error())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.entries[slug]; ok {
		e.info.Validation = v
	}
}

// restoreHistory marks failed the validations a stopped racecase left
// running and shows each dossier's newest validation.
func (d *Desk) restoreHistory(ctx context.Context) error {
	if n, err := d.cfg.History.AbandonValidations(ctx); err != nil {
		return err
	} else if n > 0 {
		d.log.Warn("validations left running by a stopped racecase are marked failed", "count", n)
	}
	latest, err := d.cfg.History.LatestValidations(ctx)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range latest {
		if e, ok := d.entries[r.Dossier]; ok {
			e.info.Validation = fromRecord(r)
		}
	}
	return nil
}

// toRecord converts a validation of slug for the history.
func toRecord(slug string, v Validation) workspace.ValidationRecord {
	proofs, _ := json.Marshal(v.Proofs)
	r := workspace.ValidationRecord{ID: v.ID, Dossier: slug, Version: v.DossierVersion, RequestedBy: v.RequestedBy,
		State: v.State, OK: v.OK, RunsDone: v.RunsDone, RunsTotal: v.RunsTotal, Proofs: proofs, Error: v.Error,
		FinishedAt: v.FinishedAt}
	if v.StartedAt != nil {
		r.StartedAt = *v.StartedAt
	}
	return r
}

// fromRecord converts a validation from the history.
func fromRecord(r workspace.ValidationRecord) Validation {
	started := r.StartedAt
	v := Validation{ID: r.ID, State: r.State, DossierVersion: r.Version, RequestedBy: r.RequestedBy, StartedAt: &started,
		FinishedAt: r.FinishedAt, RunsDone: r.RunsDone, RunsTotal: r.RunsTotal, OK: r.OK, Proofs: []challenges.Proof{}, Error: r.Error}
	if err := json.Unmarshal(r.Proofs, &v.Proofs); err != nil || v.Proofs == nil {
		v.Proofs = []challenges.Proof{}
	}
	return v
}

// Wait waits for the validations running to end; cancel the context given
// to New first to end them early.
func (d *Desk) Wait() { d.running.Wait() }
