package workspace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
	"github.com/riverqueue/river/rivertype"
)

// checkNoRunInFlight returns ECONFLICT when the workspace has a run in
// flight. A run whose queue job has ended without recording a verdict (River
// gave up on it, e.g. after the server died during its last attempt) is not
// in flight: it gets an error verdict here, so that it cannot block the
// workspace forever.
func (s *Service) checkNoRunInFlight(ctx context.Context, q store.Tx, wsID string) error {
	other, err := q.RunInFlight(ctx, wsID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return wrap(err, "look for a run in flight")
	}
	if other.JobID == nil {
		return errRunInFlight(other.ID)
	}
	job, err := s.runs.client.JobGetTx(ctx, q, *other.JobID)
	switch {
	case errors.Is(err, rivertype.ErrNotFound):
	case err != nil:
		return wrap(err, "read the job of run "+other.ID)
	case job.State != rivertype.JobStateCompleted && job.State != rivertype.JobStateDiscarded && job.State != rivertype.JobStateCancelled:
		return errRunInFlight(other.ID)
	}
	s.log.Warn("closing a run whose job ended without a verdict", "run", other.ID)
	return s.closeAbandoned(ctx, q, other.ID, other.Kind)
}

// closeAbandoned records an error verdict for a run the queue gave up on.
func (s *Service) closeAbandoned(ctx context.Context, q store.Queries, id, kind string) error {
	blob, err := json.Marshal(&runner.Results{Version: runner.ResultsVersion, Status: runner.StatusError, Verdict: runner.VerdictError,
		Tests: []runner.TestResult{}, Message: "This " + kind + " could not be completed; please run it again."})
	if err != nil {
		return wrap(err, "encode results")
	}
	now := millis(s.now())
	verdict, results := string(runner.VerdictError), string(blob)
	n, err := q.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &now, ID: id})
	if err != nil {
		return wrap(err, "close run "+id)
	}
	if n == 0 {
		return nil
	}
	if err := q.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: id, Status: StatusDone, At: now}); err != nil {
		return wrap(err, "record run done")
	}
	s.metrics.countVerdict(kind, runner.VerdictError)
	return nil
}
