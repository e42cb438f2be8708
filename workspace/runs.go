package workspace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Run kinds.
const (
	// KindCheck runs the repository's own visible test.
	KindCheck = "check"
	// KindSubmit runs the dossier's hidden concurrency tests.
	KindSubmit = "submit"
)

// Run statuses.
const (
	StatusQueued  = "queued"
	StatusRunning = "running"
	StatusDone    = "done"
)

// RunSummary is a run without its test results.
type RunSummary struct {
	// ID identifies the run ("r_" followed by random text).
	ID string `json:"id"`
	// WorkspaceID is the workspace the run belongs to.
	WorkspaceID string `json:"workspace_id"`
	// Kind is KindCheck or KindSubmit.
	Kind string `json:"kind"`
	// Status is StatusQueued, StatusRunning or StatusDone.
	Status string `json:"status"`
	// Verdict is the runner's one-word outcome (e.g. "pass", "fail", "timeout"); empty until the run is done.
	Verdict string `json:"verdict,omitempty"`
	// CreatedAt is when the run was queued, in UTC.
	CreatedAt time.Time `json:"created_at"`
	// StartedAt is when the latest execution started, in UTC; nil until the first one starts.
	StartedAt *time.Time `json:"started_at,omitempty"`
	// FinishedAt is when the verdict was recorded, in UTC; nil until then.
	FinishedAt *time.Time `json:"finished_at,omitempty"`
}

// Run is a run with its results once it has a verdict: per-test outcomes
// with the failing interleaving as a trace, never the hidden tests' source.
type Run struct {
	RunSummary
	// Message says why the run as a whole failed or could not run; empty otherwise.
	Message string `json:"message,omitempty"`
	// Tests holds one result per test, in the suite's order; empty until the run is done.
	Tests []runner.TestResult `json:"tests"`
	// Output is the run's console output, capped; empty until the run is done.
	Output string `json:"output,omitempty"`
	// DurationMS is how long the container ran, in milliseconds.
	DurationMS int64 `json:"duration_ms,omitempty"`
	// Executions is how many times the run was started; more than one only
	// when a process died while running it.
	Executions int64 `json:"executions"`
	// WrongTurns are the dossier's known wrong fixes that explain a failed
	// submission (challenges.Dossier.WrongTurnsFor). Empty for checks,
	// passing submissions and runs that could not run.
	WrongTurns []challenges.PublicWrongTurn `json:"wrong_turns,omitempty"`
}

// RunEvent is one change of a run's status.
type RunEvent struct {
	// ID orders the run's events; pass the last one seen to RunEvents to get later ones.
	ID int64 `json:"id"`
	// Status is the run's new status: StatusQueued, StatusRunning or StatusDone.
	Status string `json:"status"`
	// At is when the status changed, in UTC.
	At time.Time `json:"at"`
}

// StartRun queues a run of kind ("check" or "submit") on a snapshot of the
// workspace's files as they are now. The run row and its queue job are
// written in one transaction. A workspace with a run in flight gets
// ECONFLICT; a full queue gets ETOOMANY with a RetryAfter.
func (s *Service) StartRun(ctx context.Context, learner, wsID, kind string) (Run, error) {
	if kind != KindCheck && kind != KindSubmit {
		return Run{}, Errorf(EINVALID, "The run kind must be %q (the visible test) or %q (the hidden tests).", KindCheck, KindSubmit)
	}
	if _, _, err := s.workspace(ctx, learner, wsID); err != nil {
		return Run{}, err
	}
	if s.runs == nil {
		return Run{}, errNoRunner()
	}
	id := newID("r_")
	err := s.store.InTx(ctx, func(q store.Tx) error {
		_, d, err := s.workspaceTx(ctx, q, learner, wsID)
		if err != nil {
			return err
		}
		if err := s.checkNoRunInFlight(ctx, q, wsID); err != nil {
			return err
		}
		n, err := q.CountRunsInFlight(ctx)
		if err != nil {
			return wrap(err, "count runs in flight")
		}
		if n >= int64(s.cfg.MaxInFlight) {
			return &Error{Code: ETOOMANY, RetryAfter: s.metrics.retryAfter(s.cfg.Workers),
				Message: "The run queue is full; try again in a moment. Nothing was queued."}
		}
		snapshot, err := currentFiles(ctx, q, wsID)
		if err != nil {
			return err
		}
		blob, err := json.Marshal(snapshot)
		if err != nil {
			return wrap(err, "encode snapshot")
		}
		now := millis(s.now())
		err = q.InsertRun(ctx, db.InsertRunParams{ID: id, WorkspaceID: wsID, Kind: kind, Files: string(blob), CreatedAt: now})
		if store.IsUniqueViolation(err) {
			return errRunInFlight("")
		}
		if err != nil {
			return wrap(err, "insert run")
		}
		if err := q.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: id, Status: StatusQueued, At: now}); err != nil {
			return wrap(err, "record run queued")
		}
		jobID, err := s.runs.insert(ctx, q, id, s.timeoutOf(d, kind))
		if err != nil {
			return wrap(err, "queue run")
		}
		return q.SetRunJob(ctx, db.SetRunJobParams{JobID: &jobID, ID: id})
	})
	if err != nil {
		return Run{}, err
	}
	s.publish(ctx, wsID)
	return s.Run(ctx, learner, id)
}

// errRunInFlight refuses a second run in a workspace.
func errRunInFlight(other string) *Error {
	e := &Error{Code: ECONFLICT, Message: "A run is already in flight in this workspace; wait for its verdict, then run again."}
	if other != "" {
		e.Data = map[string]any{"run_id": other}
	}
	return e
}

// Run returns one of learner's runs.
func (s *Service) Run(ctx context.Context, learner, runID string) (Run, error) {
	row, err := s.store.GetLearnerRun(ctx, db.GetLearnerRunParams{ID: runID, LearnerID: learner})
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, Errorf(ENOTFOUND, "There is no run %q.", runID)
	}
	if err != nil {
		return Run{}, wrap(err, "get run")
	}
	run, err := runView(db.Run{
		ID: row.ID, WorkspaceID: row.WorkspaceID, Kind: row.Kind, Status: row.Status, Verdict: row.Verdict,
		Results: row.Results, Executions: row.Executions, CreatedAt: row.CreatedAt, StartedAt: row.StartedAt, FinishedAt: row.FinishedAt,
	})
	if err != nil || run.Kind != KindSubmit || run.Verdict != string(runner.VerdictFail) {
		return run, err
	}
	return s.withWrongTurns(ctx, learner, run)
}

// withWrongTurns adds to a failed submission the known wrong fixes of its
// dossier that its failed and passed tests match (none when the dossier is
// no longer served).
func (s *Service) withWrongTurns(ctx context.Context, learner string, run Run) (Run, error) {
	failed, passed := testsByStatus(run.Tests)
	if len(failed) == 0 {
		return run, nil
	}
	ws, err := s.store.GetWorkspace(ctx, db.GetWorkspaceParams{ID: run.WorkspaceID, LearnerID: learner})
	if err != nil {
		return Run{}, wrap(err, "get the workspace of run "+run.ID)
	}
	if d, ok := s.lookup(ws.Dossier); ok {
		run.WrongTurns = d.WrongTurnsFor(failed, passed)
	}
	return run, nil
}

// RunEvents returns the status changes of one of learner's runs after the
// event with id after, and the run as it is now.
func (s *Service) RunEvents(ctx context.Context, learner, runID string, after int64) ([]RunEvent, Run, error) {
	run, err := s.Run(ctx, learner, runID)
	if err != nil {
		return nil, Run{}, err
	}
	rows, err := s.store.ListRunEvents(ctx, db.ListRunEventsParams{RunID: runID, AfterID: after})
	if err != nil {
		return nil, Run{}, wrap(err, "list run events")
	}
	out := make([]RunEvent, 0, len(rows))
	for _, r := range rows {
		out = append(out, RunEvent{ID: r.ID, Status: r.Status, At: fromMillis(r.At)})
	}
	return out, run, nil
}

// WatchRun returns a channel that receives a value whenever the run may
// have changed, and a function to stop watching.
// On a shared database the changes made by every process count.
func (s *Service) WatchRun(runID string) (<-chan struct{}, func()) {
	return s.notify.subscribe(runID)
}

// recentRuns lists a workspace's latest runs, newest first.
func (s *Service) recentRuns(ctx context.Context, wsID string) ([]RunSummary, error) {
	rows, err := s.store.ListRecentRuns(ctx, db.ListRecentRunsParams{WorkspaceID: wsID, MaxRuns: recentRuns})
	if err != nil {
		return nil, wrap(err, "list runs")
	}
	out := make([]RunSummary, 0, len(rows))
	for _, r := range rows {
		out = append(out, runSummary(db.Run{
			ID: r.ID, WorkspaceID: r.WorkspaceID, Kind: r.Kind, Status: r.Status, Verdict: r.Verdict,
			CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		}))
	}
	return out, nil
}

// runSummary converts a run row without its results.
func runSummary(r db.Run) RunSummary {
	sum := RunSummary{ID: r.ID, WorkspaceID: r.WorkspaceID, Kind: r.Kind, Status: r.Status, CreatedAt: fromMillis(r.CreatedAt)}
	if r.Verdict != nil {
		sum.Verdict = *r.Verdict
	}
	if r.StartedAt != nil {
		t := fromMillis(*r.StartedAt)
		sum.StartedAt = &t
	}
	if r.FinishedAt != nil {
		t := fromMillis(*r.FinishedAt)
		sum.FinishedAt = &t
	}
	return sum
}

// runView converts a run row with its results.
func runView(r db.Run) (Run, error) {
	run := Run{RunSummary: runSummary(r), Tests: []runner.TestResult{}, Executions: r.Executions}
	if r.Results == nil {
		return run, nil
	}
	var res runner.Results
	if err := json.Unmarshal([]byte(*r.Results), &res); err != nil {
		return Run{}, wrap(err, "decode results of "+r.ID)
	}
	run.Message, run.Output, run.DurationMS = res.Message, res.Output, res.DurationMS
	if res.Tests != nil {
		run.Tests = res.Tests
	}
	return run, nil
}
