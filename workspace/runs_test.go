package workspace

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store/storetest"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// waitVerdict waits until the run has its verdict.
func waitVerdict(t *testing.T, svc *Service, learner, runID string) Run {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		run, err := svc.Run(context.Background(), learner, runID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Status == StatusDone {
			return run
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("run %s has no verdict after 20 s", runID)
	return Run{}
}

// startQueue starts the service's queue and stops it when the test ends.
func startQueue(t *testing.T, svc *Service) {
	t.Helper()
	if err := svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := svc.Stop(ctx); err != nil {
			t.Error(err)
		}
	})
}

// TestRunsWithoutRunnerAreUnavailable: a process without a runner on a
// database of its own has nobody to execute runs; on a shared one it queues
// them for the workers of other processes (TestRunsWithoutRunnerAreQueuedForOtherWorkers).
func TestRunsWithoutRunnerAreUnavailable(t *testing.T) {
	svc := newTestService(t, nil, 0)
	if svc.store.Shared() {
		t.Skip("on a shared database runs are queued for other processes")
	}
	learner, ws := newWorkspace(t, svc)
	_, err := svc.StartRun(context.Background(), learner, ws.ID, KindCheck)
	e := wantCode(t, err, EUNAVAILABLE)
	if e.RetryAfter <= 0 {
		t.Fatal("no Retry-After")
	}
	_, runnerErr := svc.Ready(context.Background())
	wantCode(t, runnerErr, EUNAVAILABLE)
}

// TestRunsWithoutRunnerAreQueuedForOtherWorkers: an API server without a
// runner on a shared database queues runs, and a worker process (a second
// service with a runner on the same database) executes them; the API
// server's watchers hear of the verdict through the database.
func TestRunsWithoutRunnerAreQueuedForOtherWorkers(t *testing.T) {
	url := storetest.FreshPostgres(t)
	ctx := context.Background()
	apiServer := newServiceOn(t, openPostgres(t, url), nil, 0)
	rn := &fakeRunner{verdict: runner.VerdictPass}
	worker := newServiceOn(t, openPostgres(t, url), rn, 0)
	if _, runnerErr := apiServer.Ready(ctx); runnerErr != nil {
		t.Fatalf("an API server beside workers is not ready: %v", runnerErr)
	}
	learner, ws := newWorkspace(t, apiServer)
	startQueue(t, apiServer)
	queued, err := apiServer.StartRun(ctx, learner, ws.ID, KindSubmit)
	if err != nil || queued.Status != StatusQueued {
		t.Fatalf("queued: %+v, %v", queued, err)
	}
	changed, stop := apiServer.WatchRun(queued.ID)
	defer stop()
	startQueue(t, worker)
	for {
		run, err := apiServer.Run(ctx, learner, queued.ID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Status == StatusDone {
			if run.Verdict != string(runner.VerdictPass) || run.Executions != 1 || rn.calls() != 1 {
				t.Fatalf("run %+v after %d runner calls", run.RunSummary, rn.calls())
			}
			break
		}
		select { // only a notification through the database wakes this
		case <-changed:
		case <-time.After(time.Minute):
			t.Fatal("the API server heard nothing of the run for a minute")
		}
	}
	if apiServer.ContainerRunner() != nil {
		t.Fatal("an API server without a runner has a container runner")
	}
}

func TestOneRunInFlightPerWorkspaceAndBoundedQueue(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 2)
	learner, ws := newWorkspace(t, svc)
	first, err := svc.StartRun(ctx, learner, ws.ID, KindCheck)
	if err != nil || first.Status != StatusQueued {
		t.Fatalf("first run: %+v, %v", first, err)
	}
	_, err = svc.StartRun(ctx, learner, ws.ID, KindSubmit)
	if e := wantCode(t, err, ECONFLICT); e.Data["run_id"] != first.ID {
		t.Fatalf("conflict data %#v", e.Data)
	}
	_, ws2 := newWorkspace(t, svc)
	learner2 := mustLearnerOf(t, svc, ws2.ID)
	if _, err := svc.StartRun(ctx, learner2, ws2.ID, KindCheck); err != nil {
		t.Fatal(err)
	}
	learner3, ws3 := newWorkspace(t, svc)
	_, err = svc.StartRun(ctx, learner3, ws3.ID, KindCheck)
	if e := wantCode(t, err, ETOOMANY); e.RetryAfter < time.Second {
		t.Fatalf("Retry-After %s", e.RetryAfter)
	}
	_, err = svc.StartRun(ctx, learner3, ws3.ID, "deploy")
	wantCode(t, err, EINVALID)
}

// mustLearnerOf finds the learner owning a workspace.
func mustLearnerOf(t *testing.T, svc *Service, wsID string) string {
	t.Helper()
	var learner string
	rawScan(t, svc, onEngine(svc, `SELECT learner_id FROM workspaces WHERE id = ?`, ""), []any{wsID}, &learner)
	return learner
}

func TestRunUsesTheSnapshotAndRecordsOneVerdict(t *testing.T) {
	ctx := context.Background()
	fake := &fakeRunner{verdict: runner.VerdictFail}
	svc := newTestService(t, fake, 0)
	learner, ws := newWorkspace(t, svc)
	if _, err := svc.SaveFile(ctx, learner, ws.ID, lockFile, "// at submit time\n", 1); err != nil {
		t.Fatal(err)
	}
	queued, err := svc.StartRun(ctx, learner, ws.ID, KindCheck)
	if err != nil {
		t.Fatal(err)
	}
	// Saves after the request do not change what the run tests.
	if _, err := svc.SaveFile(ctx, learner, ws.ID, lockFile, "// later\n", 2); err != nil {
		t.Fatal(err)
	}
	startQueue(t, svc)
	run := waitVerdict(t, svc, learner, queued.ID)
	if run.Verdict != string(runner.VerdictFail) || run.Executions != 1 || len(run.Tests) != 1 {
		t.Fatalf("run %+v", run)
	}
	job := fake.job(0)
	if string(job.Files[lockFile]) != "// at submit time\n" || job.Suite != runner.SuiteVisible || job.Secret != nil {
		t.Fatalf("job: suite %s, lock file %q, secret %v", job.Suite, job.Files[lockFile], job.Secret)
	}
	if job.Labels[instanceLabel] == "" || job.RunLabels[runLabel] != queued.ID {
		t.Fatalf("labels %v, run labels %v", job.Labels, job.RunLabels)
	}
	events, _, err := svc.RunEvents(ctx, learner, queued.ID, 0)
	if err != nil || len(events) != 3 || events[0].Status != StatusQueued || events[1].Status != StatusRunning || events[2].Status != StatusDone {
		t.Fatalf("events %+v, %v", events, err)
	}
	p, _ := svc.Progress(ctx, learner, ws.ID)
	if !p.Steps[0].Done || p.Answer != nil {
		t.Fatalf("a failing check reproduces the bug and reveals nothing: %+v", p)
	}

	// Another attempt of the same job, as after a retry, finds the verdict
	// and executes nothing.
	w := &runWorker{s: svc}
	job2 := &river.Job[RunArgs]{JobRow: &rivertype.JobRow{ID: 1, Attempt: 2, MaxAttempts: maxAttempts, State: rivertype.JobStateRunning}, Args: RunArgs{RunID: queued.ID}}
	if err := w.Work(ctx, job2); err != nil {
		t.Fatal(err)
	}
	if fake.calls() != 1 {
		t.Fatalf("runner called %d times", fake.calls())
	}
}

func TestAJobForARunStillExecutingWaits(t *testing.T) {
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	svc.inflight.add("r_busy")
	w := &runWorker{s: svc}
	err := w.Work(context.Background(), &river.Job[RunArgs]{JobRow: &rivertype.JobRow{Attempt: 2, MaxAttempts: maxAttempts}, Args: RunArgs{RunID: "r_busy"}})
	var snooze *rivertype.JobSnoozeError
	if !errors.As(err, &snooze) {
		t.Fatalf("got %v, want a snooze", err)
	}
}

func TestTheLastFailedAttemptRecordsAnErrorVerdict(t *testing.T) {
	ctx := context.Background()
	fake := &fakeRunner{err: errors.New("engine went away")}
	svc := newTestService(t, fake, 0)
	learner, ws := newWorkspace(t, svc)
	queued, err := svc.StartRun(ctx, learner, ws.ID, KindSubmit)
	if err != nil {
		t.Fatal(err)
	}
	w := &runWorker{s: svc}
	job := &river.Job[RunArgs]{JobRow: &rivertype.JobRow{ID: jobOfRun(t, svc, queued.ID), Attempt: 1, MaxAttempts: maxAttempts}, Args: RunArgs{RunID: queued.ID}}
	if err := w.Work(ctx, job); err == nil {
		t.Fatal("a failed attempt before the last returned nil")
	}
	if run, _ := svc.Run(ctx, learner, queued.ID); run.Status != StatusQueued {
		t.Fatalf("after a failed attempt the run is %s, want queued", run.Status)
	}
	// Make River's next attempt its last, then let River work it.
	rawExec(t, svc, onEngine(svc, `UPDATE river_job SET attempt = max_attempts - 1, scheduled_at = datetime('now', '-1 second')
		WHERE id = (SELECT job_id FROM runs WHERE id = ?)`, `UPDATE river_job SET attempt = max_attempts - 1, scheduled_at = now() - interval '1 second'
		WHERE id = (SELECT job_id FROM runs WHERE id = $1)`), queued.ID)
	startQueue(t, svc)
	run := waitVerdict(t, svc, learner, queued.ID)
	if run.Verdict != string(runner.VerdictError) || run.Message == "" || run.Executions != 2 {
		t.Fatalf("run %+v", run)
	}
	if got := fake.job(0); got.Suite != runner.SuiteHidden || string(got.Secret["suite.mjs"]) != "// hidden" {
		t.Fatalf("submit job: suite %s, secret %v", got.Suite, got.Secret)
	}
}

func TestAnswerOnlyAfterAPassingSubmission(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	startQueue(t, svc)
	learner, ws := newWorkspace(t, svc)
	check, err := svc.StartRun(ctx, learner, ws.ID, KindCheck)
	if err != nil {
		t.Fatal(err)
	}
	waitVerdict(t, svc, learner, check.ID)
	if v, _ := svc.View(ctx, learner, ws.ID); v.Progress.Answer != nil || !v.Progress.Steps[2].Done {
		t.Fatalf("after a passing check: %+v", v.Progress)
	}
	submit, err := svc.StartRun(ctx, learner, ws.ID, KindSubmit)
	if err != nil {
		t.Fatal(err)
	}
	waitVerdict(t, svc, learner, submit.ID)
	v, err := svc.View(ctx, learner, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	a := v.Progress.Answer
	if a == nil || a.HypothesisID != "lock-claim" || a.Explanation == "" || a.HypothesisTitle == "" || v.Progress.SolvedAt == nil {
		t.Fatalf("after a passing submission: %+v", v.Progress)
	}
	if len(v.Runs) != 2 || v.Runs[0].ID != submit.ID {
		t.Fatalf("runs %+v", v.Runs)
	}
	cards, _ := svc.Cards(ctx, learner)
	if cards[0].Progress == nil || !cards[0].Progress.Solved || cards[0].Progress.WorkspaceID != ws.ID {
		t.Fatalf("card %+v", cards[0])
	}
}

func TestARunItsQueueGaveUpOnDoesNotBlockTheWorkspace(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	learner, ws := newWorkspace(t, svc)
	lost, err := svc.StartRun(ctx, learner, ws.ID, KindSubmit)
	if err != nil {
		t.Fatal(err)
	}
	rawExec(t, svc, onEngine(svc, `UPDATE river_job SET state = 'discarded', finalized_at = datetime('now')
		WHERE id = (SELECT job_id FROM runs WHERE id = ?)`, `UPDATE river_job SET state = 'discarded', finalized_at = now()
		WHERE id = (SELECT job_id FROM runs WHERE id = $1)`), lost.ID)
	next, err := svc.StartRun(ctx, learner, ws.ID, KindSubmit)
	if err != nil {
		t.Fatalf("a run whose job was discarded still blocks the workspace: %v", err)
	}
	closed, _ := svc.Run(ctx, learner, lost.ID)
	if closed.Status != StatusDone || closed.Verdict != string(runner.VerdictError) || closed.Message == "" {
		t.Fatalf("the abandoned run: %+v", closed)
	}
	if next.Status != StatusQueued {
		t.Fatalf("the next run: %+v", next)
	}
}
