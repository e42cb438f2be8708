package instructor

import (
	"io/fs"
	"runtime"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/workspace"
)

// Validation states.
const (
	StateNever   = "never"   // never validated since racecase started
	StateRunning = "running" // proving now
	StateDone    = "done"    // Proofs hold the outcome; OK says whether every claim held
	StateFailed  = "failed"  // the runner failed; Error says why
)

// Validation is the last validation of a dossier: challenges.Prove through
// the learners' runner.
type Validation struct {
	// State is StateNever, StateRunning, StateDone or StateFailed.
	State string `json:"state"`
	// StartedAt is when the last validation began; nil if none ever ran.
	StartedAt *time.Time `json:"started_at,omitempty"`
	// FinishedAt is when the last validation ended; nil while it runs or if it never ran.
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// OK is true when it is done and every claim held.
	OK bool `json:"ok"`
	// Proofs are the claims and their outcomes, in Prove's order.
	Proofs []challenges.Proof `json:"proofs"`
	// Error says why a failed validation could not conclude.
	Error string `json:"error,omitempty"`
}

// neverValidated is the validation of a dossier not validated since
// racecase started.
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

// Validate starts proving the served version of a dossier in the background
// and returns its running state; while one runs, it returns that one. It is
// EUNAVAILABLE without a runner, ENOTFOUND for an unknown slug and ECONFLICT
// for a dossier whose files on disk do not load.
func (d *Desk) Validate(slug string) (Validation, error) {
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
	started := time.Now().UTC()
	e.info.Validation = Validation{State: StateRunning, StartedAt: &started, Proofs: []challenges.Proof{}}
	d.running.Add(1)
	go d.prove(slug, e.dossier, e.fsys, started)
	return e.info.Validation, nil
}

// prove runs the validation Validate started and records its outcome.
func (d *Desk) prove(slug string, dossier *challenges.Dossier, fsys fs.FS, started time.Time) {
	defer d.running.Done()
	v := Validation{State: StateDone, StartedAt: &started, Proofs: []challenges.Proof{}}
	hidden, err := d.suite(slug)
	if err == nil {
		var proofs []challenges.Proof
		proofs, err = challenges.Prove(d.ctx, d.cfg.Runner, fsys, dossier, challenges.ProofOptions{
			Image: d.cfg.Image, Runs: d.cfg.Runs, Parallel: runtime.NumCPU(), Hidden: hidden,
		})
		if err == nil {
			v.Proofs, v.OK = proofs, true
			for _, p := range proofs {
				v.OK = v.OK && p.OK
			}
		}
	}
	if err != nil {
		v.State, v.Error = StateFailed, err.Error()
	}
	finished := time.Now().UTC()
	v.FinishedAt = &finished
	d.log.Info("dossier validated", "slug", slug, "state", v.State, "ok", v.OK)
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.entries[slug]; ok {
		e.info.Validation = v
	}
}

// Wait waits for the validations running to end; cancel the context given
// to New first to end them early.
func (d *Desk) Wait() { d.running.Wait() }
