package workspace

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// instanceLabel is the container label naming the data directory whose
// server started the container; a server reaps only its own leftovers.
const instanceLabel = "racecase.instance"

// runLabel is the container label holding the racecase run id.
const runLabel = "racecase.run-id"

// maxAttempts is how many times the queue tries a run whose execution
// failed for infrastructure reasons (the last attempt records an error
// verdict instead of failing again).
const maxAttempts = 5

// RunArgs is the River job that executes one run.
type RunArgs struct {
	// RunID is the id of the run to execute.
	RunID string `json:"run_id"`
	// TimeoutMS is the most the run may take, its dossier's wall-clock
	// limit for its suite plus the run grace; 0 (jobs queued before it was
	// recorded) means the longest of any dossier.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
}

// Kind names the job kind in River's table.
func (RunArgs) Kind() string { return "racecase_run" }

// runQueue is the River client of runs on the service's database. With a
// runner it works runs; without one (an API server beside workers on a
// shared database) it only queues them.
type runQueue struct {
	s      *Service
	client store.Queue
	owner  *owner // nil when the process works no runs
}

// newRunQueue builds the River client; nothing runs before start.
func newRunQueue(ctx context.Context, s *Service) (*runQueue, error) {
	q := &runQueue{s: s}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &runWorker{s: s}); err != nil {
		return nil, fmt.Errorf("workspace: register run worker: %w", err)
	}
	var queues map[string]river.QueueConfig
	if s.cfg.Runner != nil {
		instance, err := s.instanceID(ctx)
		if err != nil {
			return nil, err
		}
		q.owner = newOwner(s, instance)
		queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: s.cfg.Workers}}
	}
	var err error
	q.client, err = s.store.NewQueue(&river.Config{
		Queues:  queues,
		Workers: workers,
		// The run worker sets each job's timeout.
		JobTimeout:           -1,
		RescueStuckJobsAfter: s.cfg.RescueAfter,
		MaxAttempts:          maxAttempts,
		RetryPolicy:          retryPolicy{},
		FetchCooldown:        20 * time.Millisecond,
		FetchPollInterval:    200 * time.Millisecond,
		Logger:               s.cfg.QueueLogger,
	})
	if err != nil {
		return nil, fmt.Errorf("workspace: river client: %w", err)
	}
	return q, nil
}

// insert queues the job for run id, which may take timeout, inside tx and
// returns the job's id.
func (q *runQueue) insert(ctx context.Context, tx store.Tx, id string, timeout time.Duration) (int64, error) {
	return q.client.InsertTx(ctx, tx, RunArgs{RunID: id, TimeoutMS: timeout.Milliseconds()})
}

// start, when the process works runs, reaps the leftover containers of
// this instance when no other process can be using it (an unshared
// database's data directory is locked; on a shared one, the containers of
// dead processes are reaped by their heartbeats instead), registers this
// process as an owner of containers, queues again the runs that dead
// owners were executing, warms containers for the first runs when the
// runner can, then starts working.
func (q *runQueue) start(ctx context.Context) error {
	if q.owner == nil {
		return nil
	}
	if !q.s.store.Shared() {
		removed, err := q.s.cfg.Runner.Reap(ctx, instanceLabel+"="+q.owner.instance)
		if err != nil {
			return fmt.Errorf("workspace: reap leftover containers: %w", err)
		}
		if removed > 0 {
			q.s.log.Info("removed leftover run containers", "count", removed)
		}
	}
	if err := q.owner.start(ctx); err != nil {
		return err
	}
	if n, err := q.owner.rescueOrphans(ctx); err != nil {
		return fmt.Errorf("workspace: queue again the runs of dead processes: %w", err)
	} else if n > 0 {
		q.s.log.Info("queued again the runs of dead racecase processes", "count", n)
	}
	q.warm()
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("workspace: start queue: %w", err)
	}
	return nil
}

// stop waits for running jobs until ctx ends, then cancels them; a
// cancelled run goes back to the queue and runs again after a restart.
// Then the process stops being an owner of containers.
func (q *runQueue) stop(ctx context.Context) error {
	if q.owner == nil {
		return nil
	}
	err := q.client.Stop(ctx)
	if err != nil {
		cancelCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if cerr := q.client.StopAndCancel(cancelCtx); cerr != nil {
			return fmt.Errorf("workspace: stop queue: %w", errors.Join(err, cerr))
		}
	}
	endCtx, cancel := context.WithTimeout(context.Background(), bookkeepingTimeout)
	defer cancel()
	return q.owner.end(endCtx)
}

// retryPolicy retries a failed or rescued run soon: 1 s, 4 s, 9 s, … capped
// at 30 s. A learner is waiting for the verdict.
type retryPolicy struct{}

// NextRetry returns when the job runs next.
func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	n := max(job.Attempt, 1)
	return time.Now().Add(min(time.Duration(n*n)*time.Second, 30*time.Second))
}
