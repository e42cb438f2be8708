package workspace

import (
	"context"
	"encoding/json"
	"time"
)

// wsFacts is what the instructor's views know of one workspace.
type wsFacts struct {
	id, learner, dossier string
	created              time.Time
	reached              map[string]time.Time // progress step → first reached
	hints                []time.Time          // when each hint was revealed
	outcomes             []outcome            // finished runs, oldest first
	inFlight             string               // the kind of the run in flight, if any
	pick                 string               // the hypothesis marked, if any
}

// outcome is what one finished run found.
type outcome struct {
	kind, verdict  string
	failed, passed []string
	at             time.Time
}

// solvedAt returns when a submission of the workspace first passed.
func (f *wsFacts) solvedAt() (time.Time, bool) {
	at, ok := f.reached[StepSubmitted]
	return at, ok
}

// loadFacts reads the facts of every workspace of a scope: a cohort's
// members' workspaces for its dossiers, or with cohortID "" every workspace
// but a preview learner's. They come oldest workspace first.
func (s *Service) loadFacts(ctx context.Context, cohortID string) ([]*wsFacts, error) {
	rows, err := s.store.ListScopedWorkspaces(ctx, cohortID)
	if err != nil {
		return nil, wrap(err, "list workspaces")
	}
	all := make([]*wsFacts, 0, len(rows))
	byID := map[string]*wsFacts{}
	for _, r := range rows {
		f := &wsFacts{id: r.ID, learner: r.LearnerID, dossier: r.Dossier, created: fromMillis(r.CreatedAt), reached: map[string]time.Time{}}
		all = append(all, f)
		byID[r.ID] = f
	}
	progress, err := s.store.ListScopedProgress(ctx, cohortID)
	if err != nil {
		return nil, wrap(err, "list progress")
	}
	for _, p := range progress {
		if f := byID[p.WorkspaceID]; f != nil {
			f.reached[p.Step] = fromMillis(p.At)
		}
	}
	reveals, err := s.store.ListScopedHintReveals(ctx, cohortID)
	if err != nil {
		return nil, wrap(err, "list hint reveals")
	}
	for _, h := range reveals {
		if f := byID[h.WorkspaceID]; f != nil {
			f.hints = append(f.hints, fromMillis(h.RevealedAt))
		}
	}
	outcomes, err := s.store.ListScopedRunOutcomes(ctx, cohortID)
	if err != nil {
		return nil, wrap(err, "list run outcomes")
	}
	for _, o := range outcomes {
		f := byID[o.WorkspaceID]
		if f == nil {
			continue
		}
		out := outcome{kind: o.Kind, verdict: o.Verdict, at: fromMillis(o.FinishedAt)}
		if err := json.Unmarshal([]byte(o.FailedTests), &out.failed); err != nil {
			return nil, wrap(err, "decode failed tests of "+o.RunID)
		}
		if err := json.Unmarshal([]byte(o.PassedTests), &out.passed); err != nil {
			return nil, wrap(err, "decode passed tests of "+o.RunID)
		}
		f.outcomes = append(f.outcomes, out)
	}
	flying, err := s.store.ListScopedRunsInFlight(ctx, cohortID)
	if err != nil {
		return nil, wrap(err, "list runs in flight")
	}
	for _, r := range flying {
		if f := byID[r.WorkspaceID]; f != nil {
			f.inFlight = r.Kind
		}
	}
	picks, err := s.store.ListScopedHypothesisPicks(ctx, cohortID)
	if err != nil {
		return nil, wrap(err, "list hypothesis picks")
	}
	for _, p := range picks {
		if f := byID[p.WorkspaceID]; f != nil {
			f.pick = p.Hypothesis
		}
	}
	return all, nil
}

// primary returns, of one learner's workspaces for one dossier (oldest
// first), the one that speaks for them: the first to be solved, else the
// newest.
func primary(ws []*wsFacts) *wsFacts {
	var best *wsFacts
	var bestAt time.Time
	for _, f := range ws {
		if at, ok := f.solvedAt(); ok && (best == nil || at.Before(bestAt)) {
			best, bestAt = f, at
		}
	}
	if best == nil {
		return ws[len(ws)-1]
	}
	return best
}

// lastFailingProperty returns the first failed test of the newest failed
// submission among ws, or "".
func lastFailingProperty(ws []*wsFacts) string {
	var last outcome
	for _, f := range ws {
		for _, o := range f.outcomes {
			if o.kind == KindSubmit && len(o.failed) > 0 && !o.at.Before(last.at) {
				last = o
			}
		}
	}
	if len(last.failed) == 0 {
		return ""
	}
	return last.failed[0]
}
