package workspace

import (
	"context"
	"time"

	"github.com/racecase/racecase/runner"
)

// Progress steps, in the order the seed shows them.
const (
	// StepReproduced: a check run failed, showing the bug.
	StepReproduced = "reproduced"
	// StepEdited: a save changed a file from the original.
	StepEdited = "edited"
	// StepChecksPassed: a check run passed.
	StepChecksPassed = "checks-passed"
	// StepSubmitted: a submission passed the hidden tests.
	StepSubmitted = "submitted"
)

// steps lists the steps with their titles, in order.
var steps = []struct{ key, title string }{
	{StepReproduced, "Reproduce the bug"},
	{StepEdited, "Edit the fix"},
	{StepChecksPassed, "Pass checks"},
	{StepSubmitted, "Submit fix"},
}

// Step is one progress step.
type Step struct {
	// Number is the step's 1-based position.
	Number int `json:"number"`
	// Key names the step: StepReproduced, StepEdited, StepChecksPassed or StepSubmitted.
	Key string `json:"key"`
	// Title is the step as the page shows it, e.g. "Reproduce the bug".
	Title string `json:"title"`
	// Done is whether the workspace has reached the step.
	Done bool `json:"done"`
	// DoneAt is when the step was first reached, in UTC; nil until then.
	DoneAt *time.Time `json:"done_at,omitempty"`
}

// Progress is a workspace's progress: the four steps, the timer since the
// workspace was created, and the answer and the playbook once a submission
// passed.
type Progress struct {
	// Steps are the four steps, in order.
	Steps []Step `json:"steps"`
	// Current is the number of the first step not done, 0 when all are.
	Current int `json:"current"`
	// StartedAt is when the workspace was created, in UTC.
	StartedAt time.Time `json:"started_at"`
	// SolvedAt is when a submission first passed, in UTC; nil until then.
	SolvedAt *time.Time `json:"solved_at,omitempty"`
	// ElapsedSeconds runs from StartedAt until now, or until SolvedAt.
	ElapsedSeconds int64 `json:"elapsed_seconds"`
	// Answer is the correct hypothesis, shown only after a passing submission.
	Answer *Answer `json:"answer,omitempty"`
	// Playbook is the dossier's on-call card, shown only after a passing submission.
	Playbook *Playbook `json:"playbook,omitempty"`
}

// Answer is the dossier's secret answer.
type Answer struct {
	// HypothesisID is the ID of the correct hypothesis.
	HypothesisID string `json:"hypothesis_id"`
	// HypothesisTitle is the correct hypothesis's title; empty if no hypothesis has that ID.
	HypothesisTitle string `json:"hypothesis_title"`
	// Explanation says why that hypothesis is the answer.
	Explanation string `json:"explanation"`
}

// stepForRun returns the step a finished run reaches, or "" for none: a
// failing check reproduces the bug, a passing check passes checks, a passing
// submission submits the fix.
func stepForRun(kind string, verdict runner.Verdict) string {
	switch {
	case kind == KindCheck && verdict == runner.VerdictFail:
		return StepReproduced
	case kind == KindCheck && verdict == runner.VerdictPass:
		return StepChecksPassed
	case kind == KindSubmit && verdict == runner.VerdictPass:
		return StepSubmitted
	}
	return ""
}

// deriveProgress builds the progress from the time each step was first
// reached (absent when not yet), the workspace's creation and now.
func deriveProgress(reached map[string]time.Time, created, now time.Time) Progress {
	p := Progress{StartedAt: created}
	for i, st := range steps {
		s := Step{Number: i + 1, Key: st.key, Title: st.title}
		if at, ok := reached[st.key]; ok {
			s.Done, s.DoneAt = true, &at
		} else if p.Current == 0 {
			p.Current = s.Number
		}
		p.Steps = append(p.Steps, s)
	}
	end := now
	if at, ok := reached[StepSubmitted]; ok {
		p.SolvedAt, end = &at, at
	}
	p.ElapsedSeconds = max(0, int64(end.Sub(created)/time.Second))
	return p
}

// answer returns d's secret answer.
func (d *dossier) answer() *Answer {
	a := &Answer{HypothesisID: d.Secret.CorrectHypothesis, Explanation: d.Secret.Explanation}
	for _, h := range d.Hypotheses {
		if h.ID == a.HypothesisID {
			a.HypothesisTitle = h.Title
		}
	}
	return a
}

// progress reads a workspace's progress.
func (s *Service) progress(ctx context.Context, d *dossier, wsID string, created time.Time) (Progress, error) {
	events, err := s.store.ListProgress(ctx, wsID)
	if err != nil {
		return Progress{}, wrap(err, "list progress")
	}
	reached := map[string]time.Time{}
	for _, e := range events {
		reached[e.Step] = fromMillis(e.At)
	}
	p := deriveProgress(reached, created, s.now())
	if p.SolvedAt != nil {
		p.Answer = d.answer()
		p.Playbook = s.playbookOf(d, *p.SolvedAt)
	}
	return p, nil
}

// Progress returns the progress of one of learner's workspaces.
func (s *Service) Progress(ctx context.Context, learner, wsID string) (Progress, error) {
	ws, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return Progress{}, err
	}
	return s.progress(ctx, d, ws.ID, fromMillis(ws.CreatedAt))
}
