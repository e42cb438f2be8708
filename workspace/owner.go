package workspace

import (
	"context"
	"errors"
	"maps"
	"os"
	"sync"
	"time"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Owner heartbeat timing.
const (
	// heartbeatEvery is how often a process beats its heartbeat and reaps
	// the containers of dead owners.
	heartbeatEvery = 5 * time.Second
	// ownerTimeout is how long an owner may go without a heartbeat before
	// its containers are reaped: six missed beats.
	ownerTimeout = 6 * heartbeatEvery
	// orphanAge is the age past which a container whose owner this database
	// does not know (another data directory's, or a racecase command's) is
	// reaped: no run lasts that long. The longest run the dossier schema
	// allows has 600 s of CPU time and runner.WallPerCPU times that of wall
	// clock (30 minutes), in a container that may have waited warm for up to
	// runner.DefaultMaxIdle before; a live process elsewhere may run one.
	orphanAge = 40 * time.Minute
)

// owner is this process as a starter of containers: it labels each of them
// with its id and beats a heartbeat row under that id while it lives, and it
// reaps the containers of owners whose heartbeat stopped.
type owner struct {
	s        *Service
	id       string
	instance string
	beating  *background // nil before start
	once     sync.Once
}

// newOwner returns this process's owner over the data directory whose
// instance id is instance; nothing is registered before start.
func newOwner(s *Service, instance string) *owner {
	return &owner{s: s, id: newID("o_"), instance: instance}
}

// labels returns the labels of every container this process starts: its
// owner id and its data directory's instance id.
func (o *owner) labels() map[string]string {
	return map[string]string{runner.LabelOwner: o.id, instanceLabel: o.instance}
}

// start registers the owner and starts beating. On an unshared database it
// first forgets the owners the data directory had before (the directory's
// lock means they are dead, and the run queue has reaped their
// containers); on a shared one the others may be alive, and those that are
// not are forgotten once their heartbeat is late.
func (o *owner) start(ctx context.Context) error {
	if err := o.register(ctx, millis(o.s.now())); err != nil {
		return err
	}
	if o.s.store.Shared() {
		o.beating = every(heartbeatEvery, o.beat)
		return nil
	}
	rows, err := o.s.store.ListOwners(ctx)
	if err != nil {
		return wrap(err, "list owners")
	}
	for _, r := range rows {
		if r.ID != o.id {
			if err := o.s.store.DeleteOwner(ctx, r.ID); err != nil {
				return wrap(err, "forget owner "+r.ID)
			}
		}
	}
	o.beating = every(heartbeatEvery, o.beat)
	return nil
}

// beat beats the heartbeat, reaps the containers of dead owners, queues
// again the runs they were executing and marks failed the validations they
// left running (on a shared database another
// server may have died long after this one started).
func (o *owner) beat(ctx context.Context) {
	if err := o.heartbeat(ctx); err != nil && ctx.Err() == nil {
		o.s.log.Error("owner heartbeat failed", "owner", o.id, "error", err)
	}
	if _, err := o.reapDead(ctx); err != nil && ctx.Err() == nil {
		o.s.log.Error("reaping the containers of dead owners failed", "error", err)
	}
	if _, err := o.rescueOrphans(ctx); err != nil && ctx.Err() == nil {
		o.s.log.Error("could not queue again the runs of dead owners", "error", err)
	}
	if n, err := o.s.AbandonValidations(ctx); err != nil && ctx.Err() == nil {
		o.s.log.Error("could not mark failed the validations of dead owners", "error", err)
	} else if n > 0 {
		o.s.log.Warn("validations left running by a stopped racecase are marked failed", "count", n)
	}
}

// heartbeat records that the owner is alive, registering it again if
// another process took it for dead and forgot it.
func (o *owner) heartbeat(ctx context.Context) error {
	now := millis(o.s.now())
	n, err := o.s.store.BeatOwner(ctx, db.BeatOwnerParams{At: now, ID: o.id})
	if err != nil || n > 0 {
		return err
	}
	return o.register(ctx, now)
}

// register records the owner, with its host and process id, as beating at now.
func (o *owner) register(ctx context.Context, now int64) error {
	host, _ := os.Hostname()
	err := o.s.store.RegisterOwner(ctx, db.RegisterOwnerParams{ID: o.id, Hostname: host, Pid: int64(os.Getpid()), At: now})
	if err != nil {
		return wrap(err, "register owner")
	}
	return nil
}

// reapDead removes the containers of owners whose heartbeat stopped, and
// the containers of owners this database does not know once they are older
// than orphanAge; then it forgets the dead owners.
func (o *owner) reapDead(ctx context.Context) (int, error) {
	rows, err := o.s.store.ListOwners(ctx)
	if err != nil {
		return 0, wrap(err, "list owners")
	}
	now := o.s.now()
	beats := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		beats[r.ID] = fromMillis(r.HeartbeatAt)
	}
	dead := func(l runner.Leftover) bool { return ownerIsDead(l, o.id, beats, now) }
	removed, err := o.s.cfg.Runner.ReapWhere(ctx, dead)
	if removed > 0 {
		o.s.log.Info("removed the containers of dead racecase processes", "count", removed)
	}
	if err != nil {
		return removed, err
	}
	var errs []error
	for id, beat := range beats {
		if id != o.id && now.Sub(beat) > ownerTimeout {
			errs = append(errs, o.s.store.DeleteOwner(ctx, id))
		}
	}
	return removed, errors.Join(errs...)
}

// ownerIsDead reports whether a container's owner is dead: a known owner
// whose last heartbeat is older than ownerTimeout, or an owner unknown to
// beats (no owner at all included) of a container older than orphanAge.
// self is never dead.
func ownerIsDead(l runner.Leftover, self string, beats map[string]time.Time, now time.Time) bool {
	if l.Owner == self && self != "" {
		return false
	}
	if beat, known := beats[l.Owner]; known {
		return now.Sub(beat) > ownerTimeout
	}
	return now.Sub(l.Created) > orphanAge
}

// end stops beating and forgets the owner; call it once every container it
// started is gone.
func (o *owner) end(ctx context.Context) error {
	var err error
	o.once.Do(func() {
		o.beating.end()
		err = o.s.store.DeleteOwner(ctx, o.id)
	})
	return err
}

// ownedRunner runs jobs with the owner's labels added, so that the
// containers of whatever a process runs are reaped like its runs.
type ownedRunner struct {
	runner.Runner
	labels map[string]string
}

// Run runs job with the owner's labels.
func (r ownedRunner) Run(ctx context.Context, job runner.Job) (*runner.Results, error) {
	labels := maps.Clone(job.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	maps.Copy(labels, r.labels)
	job.Labels = labels
	return r.Runner.Run(ctx, job)
}

// ContainerRunner returns the runner for the other work this process does
// in containers (instructor validations): it labels every job as the
// process's runs are labelled, so those containers are reaped like runs. It
// is nil when the service has no runner.
func (s *Service) ContainerRunner() runner.Runner {
	if s.runs == nil || s.runs.owner == nil {
		return nil
	}
	return ownedRunner{Runner: s.cfg.Runner, labels: s.runs.owner.labels()}
}
