package workspace

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// jobOfRun reads the id of the queue job that a run is recorded under.
func jobOfRun(t *testing.T, svc *Service, runID string) int64 {
	t.Helper()
	var id int64
	rawScan(t, svc, onEngine(svc, `SELECT job_id FROM runs WHERE id = ?`, ""), []any{runID}, &id)
	return id
}

// jobRow reads a queue job.
func jobRow(t *testing.T, svc *Service, id int64) *rivertype.JobRow {
	t.Helper()
	var job *rivertype.JobRow
	err := svc.store.InTx(context.Background(), func(q store.Tx) error {
		var err error
		job, err = svc.runs.client.JobGetTx(context.Background(), q, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// claimAs makes owner, registered with its last heartbeat at beat, the
// executor of run runID through its job, as a process that took the job and
// then died would have left them.
func claimAs(t *testing.T, svc *Service, owner string, beat time.Time, runID string) int64 {
	t.Helper()
	ctx := context.Background()
	if err := svc.store.RegisterOwner(ctx, db.RegisterOwnerParams{ID: owner, Hostname: "elsewhere", Pid: 1, At: millis(beat)}); err != nil {
		t.Fatal(err)
	}
	jobID, now := jobOfRun(t, svc, runID), millis(svc.now())
	if _, err := svc.store.StartRun(ctx, db.StartRunParams{StartedAt: &now, OwnerID: &owner, ID: runID, JobID: &jobID}); err != nil {
		t.Fatal(err)
	}
	rawExec(t, svc, onEngine(svc, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = datetime('now') WHERE id = ?`,
		`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE id = $1`), jobID)
	return jobID
}

// runOfADeadOwner starts a check on a new service with a passing fake
// runner, and leaves it as an owner that died while executing it would:
// it returns the service, the runner, the learner, the run and the job
// the run was taken under.
func runOfADeadOwner(t *testing.T) (*Service, *fakeRunner, string, Run, int64) {
	t.Helper()
	fake := &fakeRunner{verdict: runner.VerdictPass}
	svc := newTestService(t, fake, 0)
	learner, ws := newWorkspace(t, svc)
	queued, err := svc.StartRun(context.Background(), learner, ws.ID, KindCheck)
	if err != nil {
		t.Fatal(err)
	}
	return svc, fake, learner, queued, claimAs(t, svc, "o_dead", svc.now().Add(-2*ownerTimeout), queued.ID)
}

// TestARunOfADeadOwnerIsFinishedByALiveOne: a run whose owner died while
// executing it runs again on a live owner within seconds, not after its
// job's timeout (the run's wall budget, then RescueAfter), and gets one
// verdict; when River later retries the job the run was taken from, that
// job executes nothing.
func TestARunOfADeadOwnerIsFinishedByALiveOne(t *testing.T) {
	ctx := context.Background()
	svc, fake, learner, queued, oldJob := runOfADeadOwner(t)
	queuedAt := jobRow(t, svc, oldJob).ScheduledAt

	start := time.Now()
	startQueue(t, svc)
	run := waitVerdict(t, svc, learner, queued.ID)
	took := time.Since(start)
	d, err := svc.dossier(flagship)
	if err != nil {
		t.Fatal(err)
	}
	if budget := svc.timeoutOf(d, KindCheck); took > budget/10 {
		t.Errorf("the run took %s to finish on a live owner; want well within its wall budget %s", took, budget)
	}
	if run.Verdict != string(runner.VerdictPass) || run.Executions != 2 || fake.calls() != 1 {
		t.Fatalf("run %+v after %d runner calls; want a pass on the second execution, the first here", run, fake.calls())
	}
	newJob := jobOfRun(t, svc, queued.ID)
	if newJob == oldJob {
		t.Fatal("the run is still recorded under the job of its dead owner")
	}
	if at := jobRow(t, svc, newJob).ScheduledAt; !at.Equal(queuedAt) {
		t.Errorf("the new job is scheduled at %s; want the first job's %s, its place in the queue", at, queuedAt)
	}

	w := &runWorker{s: svc}
	stale := &river.Job[RunArgs]{JobRow: &rivertype.JobRow{ID: oldJob, Attempt: 2, MaxAttempts: maxAttempts, State: rivertype.JobStateRunning},
		Args: RunArgs{RunID: queued.ID}}
	retryStale(t, ctx, w, stale)
	var done int
	rawScan(t, svc, onEngine(svc, `SELECT count(*) FROM run_events WHERE run_id = ? AND status = 'done'`, ""), []any{queued.ID}, &done)
	if fake.calls() != 1 || done != 1 {
		t.Fatalf("after River retried the dead owner's job: %d runner calls, %d verdicts; want 1 and 1", fake.calls(), done)
	}
}

// retryStale works a retried job as River would: a job snoozed because this
// process is still finishing the run (its verdict is recorded, its worker not
// yet returned) is worked again a moment later, for at most ten seconds.
func retryStale(t *testing.T, ctx context.Context, w *runWorker, job *river.Job[RunArgs]) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := w.Work(ctx, job)
		var snoozed *river.JobSnoozeError
		if !errors.As(err, &snoozed) || time.Now().After(deadline) {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestARunIsTakenFromItsDeadOwnerOnce: of two attempts to take a run from
// its dead owner only the first does, and runs of a live owner (one whose
// heartbeat is recent, however slow its run) or with a verdict are left alone.
func TestARunIsTakenFromItsDeadOwnerOnce(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	o := svc.runs.owner
	var runs []string
	for range 3 {
		learner, ws := newWorkspace(t, svc)
		r, err := svc.StartRun(ctx, learner, ws.ID, KindCheck)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r.ID)
	}
	claimAs(t, svc, "o_dead", svc.now().Add(-2*ownerTimeout), runs[0])
	claimAs(t, svc, "o_slow", svc.now().Add(time.Second), runs[1])
	claimAs(t, svc, "o_done", svc.now().Add(-2*ownerTimeout), runs[2])
	verdict, results, at := "pass", "{}", millis(svc.now())
	if _, err := svc.store.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &at, ID: runs[2]}); err != nil {
		t.Fatal(err)
	}

	rows, err := svc.store.ListOrphanedRuns(ctx, db.ListOrphanedRunsParams{SelfID: &o.id, LiveSince: millis(svc.now().Add(-ownerTimeout))})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].ID != runs[0] {
		t.Fatalf("orphaned runs %+v; want only %s", rows, runs[0])
	}
	for i, want := range []bool{true, false} {
		ok, err := o.rescue(ctx, rows[0])
		if err != nil || ok != want {
			t.Fatalf("attempt %d to take the run: %v, %v; want %v", i+1, ok, err, want)
		}
	}
	if n, err := o.rescueOrphans(ctx); err != nil || n != 0 {
		t.Fatalf("a later pass took %d runs (%v); want none", n, err)
	}
	var status string
	rawScan(t, svc, onEngine(svc, `SELECT status FROM runs WHERE id = ?`, ""), []any{runs[1]}, &status)
	if status != StatusRunning {
		t.Fatalf("the run of a live owner is %s; want still running", status)
	}
}

// TestARunExecutedAsOftenAsTheQueueAllowsEndsInAnError: a run whose owner
// died on its last allowed execution is not run again; it gets the error
// verdict the queue's last attempt would give it, and the learner can run it
// again.
func TestARunExecutedAsOftenAsTheQueueAllowsEndsInAnError(t *testing.T) {
	ctx := context.Background()
	svc, fake, learner, queued, _ := runOfADeadOwner(t)
	rawExec(t, svc, onEngine(svc, `UPDATE runs SET executions = ? WHERE id = ?`, `UPDATE runs SET executions = $1 WHERE id = $2`),
		maxAttempts, queued.ID)

	if n, err := svc.runs.owner.rescueOrphans(ctx); err != nil || n != 1 {
		t.Fatalf("rescue took %d runs (%v); want the one", n, err)
	}
	run := waitVerdict(t, svc, learner, queued.ID)
	if run.Verdict != string(runner.VerdictError) || fake.calls() != 0 {
		t.Fatalf("run %+v after %d runner calls; want an error verdict and no execution", run, fake.calls())
	}
	if !strings.Contains(run.Message, "please run it again") || run.Executions != maxAttempts {
		t.Fatalf("message %q after %d executions; want one that asks to run it again, after %d", run.Message, run.Executions, maxAttempts)
	}
	if _, err := svc.StartRun(ctx, learner, queued.WorkspaceID, KindCheck); err != nil {
		t.Fatalf("a new run after the error: %v", err)
	}
}
