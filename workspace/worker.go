package workspace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// bookkeepingTimeout bounds the database writes after a run, which must
// happen even when the job's context was cancelled.
const bookkeepingTimeout = 30 * time.Second

// runWorker executes runs for River.
type runWorker struct {
	river.WorkerDefaults[RunArgs]
	s *Service
}

// claimedRun is a run claimed for one execution.
type claimedRun struct {
	id, workspaceID, kind, dossier string
	files                          map[string][]byte
}

// Timeout is the most one run may take; River cancels the run past it, and
// after a crash it runs again a job that was running only once this much
// time (and RescueAfter) has passed since it started. The live owners take
// the run from a dead owner sooner (rescueOrphans).
func (w *runWorker) Timeout(job *river.Job[RunArgs]) time.Duration {
	if job.Args.TimeoutMS > 0 {
		return time.Duration(job.Args.TimeoutMS) * time.Millisecond
	}
	return w.s.runTimeout()
}

// Work executes one run and records its verdict exactly once. A job for a
// run this process is still executing (River rescued it early) waits; a job
// for a run that already has its verdict does nothing.
func (w *runWorker) Work(ctx context.Context, job *river.Job[RunArgs]) error {
	s, id := w.s, job.Args.RunID
	if !s.inflight.add(id) {
		return river.JobSnooze(time.Second)
	}
	defer s.inflight.remove(id)

	run, err := s.claim(ctx, id, job.ID)
	if errors.Is(err, errNotClaimed) {
		return nil
	}
	if err != nil {
		return err
	}
	s.publish(ctx, id, run.workspaceID)

	res, execErr := s.execute(ctx, run)
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
	defer cancel()
	if execErr != nil {
		if job.Attempt < job.MaxAttempts {
			s.log.Warn("run failed to execute; it will be retried", "run", id, "attempt", job.Attempt, "error", execErr)
			s.requeue(after, id)
			return fmt.Errorf("run %s: %w", id, execErr)
		}
		s.log.Error("run failed to execute; giving up", "run", id, "attempt", job.Attempt, "error", execErr)
		res = &runner.Results{Version: runner.ResultsVersion, Status: runner.StatusError, Verdict: runner.VerdictError,
			Tests:   []runner.TestResult{},
			Message: fmt.Sprintf("The runner could not run this %s after %d attempts; please try again.", run.kind, job.Attempt)}
	}
	recorded, err := s.finish(after, job, run, res)
	if err != nil {
		return err
	}
	if recorded {
		s.metrics.countVerdict(run.kind, res.Verdict)
	}
	s.publish(after, id, run.workspaceID)
	return nil
}

// errNotClaimed says a run already has its verdict, or was taken from the
// job claiming it and queued under another job (rescueOrphans).
var errNotClaimed = errors.New("run already has a verdict or another job")

// claim marks a run running for one more execution by this process, through
// job jobID, and reads what it needs.
func (s *Service) claim(ctx context.Context, id string, jobID int64) (claimedRun, error) {
	var run claimedRun
	err := s.store.InTx(ctx, func(q store.Tx) error {
		now := millis(s.now())
		owner := s.ownerID()
		row, err := q.StartRun(ctx, db.StartRunParams{StartedAt: &now, OwnerID: &owner, ID: id, JobID: &jobID})
		if errors.Is(err, sql.ErrNoRows) {
			return errNotClaimed
		}
		if err != nil {
			return wrap(err, "claim run "+id)
		}
		slug, err := q.GetRunDossier(ctx, id)
		if err != nil {
			return wrap(err, "read dossier of run "+id)
		}
		var files map[string]string
		if err := json.Unmarshal([]byte(row.Files), &files); err != nil {
			return wrap(err, "decode snapshot of run "+id)
		}
		run = claimedRun{id: id, workspaceID: row.WorkspaceID, kind: row.Kind, dossier: slug, files: map[string][]byte{}}
		for p, c := range files {
			run.files[p] = []byte(c)
		}
		return q.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: id, Status: StatusRunning, At: now})
	})
	return run, err
}

// execute runs the claimed run in the runner and measures it.
func (s *Service) execute(ctx context.Context, run claimedRun) (*runner.Results, error) {
	d, err := s.dossier(run.dossier)
	if err != nil {
		return nil, err
	}
	suite, hidden := runner.SuiteVisible, map[string][]byte(nil)
	if run.kind == KindSubmit {
		suite = runner.SuiteHidden
		if hidden, err = s.cfg.HiddenSuite(run.dossier); err != nil {
			return nil, fmt.Errorf("hidden suite of %s: %w", run.dossier, err)
		}
	}
	job := d.NewJob(s.cfg.Image, suite, run.files, hidden)
	job.RunLabels[runLabel] = run.id
	start := time.Now()
	res, err := s.ContainerRunner().Run(ctx, job)
	if err != nil {
		return nil, err
	}
	s.metrics.observeRun(run.kind, res, time.Since(start))
	if res.Diagnostics != "" {
		s.log.Warn("the harness reported errors of its own", "run", run.id, "dossier", run.dossier, "verdict", res.Verdict, "diagnostics", res.Diagnostics)
	}
	return res, nil
}

// requeue puts a run whose execution failed back to queued, unless it was
// taken from this process meanwhile.
func (s *Service) requeue(ctx context.Context, id string) {
	err := s.store.InTx(ctx, func(q store.Tx) error {
		owner := s.ownerID()
		n, err := q.RequeueRun(ctx, db.RequeueRunParams{ID: id, OwnerID: &owner})
		if err != nil || n == 0 {
			return err
		}
		return q.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: id, Status: StatusQueued, At: millis(s.now())})
	})
	if err != nil {
		s.log.Error("could not put run back in the queue", "run", id, "error", err)
	}
	s.publish(ctx, id)
}

// finish records the verdict, the progress it makes and the job's
// completion in one transaction. The verdict is written only if the run has
// none yet; recorded says whether this call wrote it.
func (s *Service) finish(ctx context.Context, job *river.Job[RunArgs], run claimedRun, res *runner.Results) (recorded bool, err error) {
	blob, err := json.Marshal(res)
	if err != nil {
		return false, wrap(err, "encode results")
	}
	err = s.store.InTx(ctx, func(q store.Tx) error {
		now := millis(s.now())
		verdict, results := string(res.Verdict), string(blob)
		n, err := q.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &now, ID: run.id})
		if err != nil {
			return wrap(err, "record verdict of "+run.id)
		}
		if n == 0 {
			return nil
		}
		if err := q.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: run.id, Status: StatusDone, At: now}); err != nil {
			return wrap(err, "record run done")
		}
		if err := recordOutcome(ctx, q, run, res, now); err != nil {
			return err
		}
		if step := stepForRun(run.kind, res.Verdict); step != "" {
			if err := s.reach(ctx, q, run.workspaceID, step, run.id); err != nil {
				return err
			}
		}
		// A job River rescued and rescheduled is no longer running; its next
		// attempt finds the verdict and completes without executing.
		if err := s.runs.client.CompleteTx(ctx, q, job.JobRow); err != nil && !errors.Is(err, rivertype.ErrNotFound) {
			return wrap(err, "complete job of "+run.id)
		}
		recorded = true
		return nil
	})
	return recorded && err == nil, err
}

// reach records that a workspace reached a progress step, if it had not.
func (s *Service) reach(ctx context.Context, q store.Queries, wsID, step, runID string) error {
	var run *string
	if runID != "" {
		run = &runID
	}
	if err := q.RecordProgress(ctx, db.RecordProgressParams{WorkspaceID: wsID, Step: step, At: millis(s.now()), RunID: run}); err != nil {
		return wrap(err, "record progress")
	}
	return nil
}
