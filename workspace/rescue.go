package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// rescueOrphans puts back in the queue the runs that dead owners were
// executing, each under a new job, and returns how many it took. An owner
// is dead as it is for AbandonValidations: on a shared database once its
// heartbeat is older than ownerTimeout, on an unshared one once it is not
// this process. River would run such a run again only once its job's
// timeout (the run's whole wall budget) has passed; the job it was taken
// from claims nothing when River does (StartRun). A run already executed
// maxAttempts times gets an error verdict instead, as the queue's last
// attempt would give it.
func (o *owner) rescueOrphans(ctx context.Context) (int, error) {
	now := o.s.now()
	liveSince := millis(o.s.built)
	if o.s.store.Shared() {
		liveSince = millis(now.Add(-ownerTimeout))
	}
	rows, err := o.s.store.ListOrphanedRuns(ctx, db.ListOrphanedRunsParams{SelfID: &o.id, LiveSince: liveSince})
	if err != nil {
		return 0, wrap(err, "list the runs of dead owners")
	}
	taken := 0
	var errs []error
	for _, r := range rows {
		ok, err := o.rescue(ctx, r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			continue
		}
		taken++
		if r.Executions >= maxAttempts {
			o.s.log.Warn("a run whose racecase process died was executed as often as the queue allows: it ends in an error", "run", r.ID, "owner", *r.OwnerID)
		} else {
			o.s.log.Warn("a run whose racecase process died is queued again", "run", r.ID, "owner", *r.OwnerID)
		}
		o.s.publish(ctx, r.ID)
	}
	return taken, errors.Join(errs...)
}

// rescue takes run r from its dead owner in one transaction; ok is false
// when it was no longer that owner's to take (another owner took it first,
// or its verdict was recorded meanwhile).
func (o *owner) rescue(ctx context.Context, r db.ListOrphanedRunsRow) (ok bool, err error) {
	err = o.s.store.InTx(ctx, func(q store.Tx) error {
		n, err := q.RequeueRun(ctx, db.RequeueRunParams{ID: r.ID, OwnerID: r.OwnerID})
		if err != nil {
			return wrap(err, "take run "+r.ID+" from its dead owner")
		}
		if n == 0 {
			return nil
		}
		ok = true
		if r.Executions >= maxAttempts {
			return o.s.closeAbandoned(ctx, q, r.ID, r.Kind)
		}
		if err := q.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: r.ID, Status: StatusQueued, At: millis(o.s.now())}); err != nil {
			return wrap(err, "record run queued")
		}
		var args rescuedRunArgs
		if r.JobID != nil {
			job, err := o.s.runs.client.JobGetTx(ctx, q, *r.JobID)
			if err != nil && !errors.Is(err, rivertype.ErrNotFound) {
				return wrap(err, "read the job of run "+r.ID)
			}
			if job != nil {
				if err := json.Unmarshal(job.EncodedArgs, &args.RunArgs); err != nil {
					return wrap(err, "decode the job of run "+r.ID)
				}
				args.queuedAt = job.ScheduledAt
			}
		}
		args.RunID = r.ID
		jobID, err := o.s.runs.client.InsertTx(ctx, q, args)
		if err != nil {
			return wrap(err, "queue run "+r.ID+" again")
		}
		return q.SetRunJob(ctx, db.SetRunJobParams{JobID: &jobID, ID: r.ID})
	})
	return ok && err == nil, err
}

// rescuedRunArgs is the job of a run taken from its dead owner: the same
// job kind and arguments, queued at the time the first job was, so that
// the run keeps its place ahead of the runs queued since.
type rescuedRunArgs struct {
	RunArgs
	queuedAt time.Time // zero: now
}

// InsertOpts schedules the job at queuedAt.
func (a rescuedRunArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{ScheduledAt: a.queuedAt}
}
