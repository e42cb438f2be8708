package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
)

// warmContainer is a started container whose watchdog and supervisor boot
// and then wait for the payload of the one run it serves. The runner is
// attached to its streams and watching for its exit from before it started,
// so nothing it prints and no exit is missed.
type warmContainer struct {
	id     string
	attach types.HijackedResponse
	exit   *exitWatch
}

// prepare creates a container for job, whose limits are already defaulted,
// attaches to it, starts it and returns it waiting for its payload. On
// failure nothing is left behind.
func (d *Docker) prepare(ctx context.Context, job Job) (*warmContainer, error) {
	runID := randomHex(8)
	job.Limits.NanoCPUs = fitCPUs(job.Limits.NanoCPUs, d.cpus)
	cfg, host := containerConfig(job, runID)
	created, err := d.cli.ContainerCreate(ctx, cfg, host, nil, nil, "racecase-"+runID)
	if err != nil {
		return nil, fmt.Errorf("runner: create container from %s: %w", job.Image, err)
	}
	w := &warmContainer{id: created.ID}
	if err := d.boot(ctx, w); err != nil {
		return nil, errors.Join(err, d.discard(ctx, w))
	}
	return w, nil
}

// fitCPUs returns nano, or all of a machine with cpus CPUs when nano asks
// for more (the engine refuses more than the machine has; 0 means unknown).
func fitCPUs(nano int64, cpus int) int64 {
	if cpus > 0 {
		return min(nano, int64(cpus)*1e9)
	}
	return nano
}

// boot attaches to a created container, starts watching for its exit and
// starts it.
func (d *Docker) boot(ctx context.Context, w *warmContainer) error {
	attach, err := d.cli.ContainerAttach(ctx, w.id, container.AttachOptions{
		Stream: true, Stdin: true, Stdout: true, Stderr: true,
	})
	if err != nil {
		return fmt.Errorf("runner: attach to container: %w", err)
	}
	w.attach = attach
	w.exit = d.watchExit(w.id)
	if err := d.cli.ContainerStart(ctx, w.id, container.StartOptions{}); err != nil {
		return fmt.Errorf("runner: start container: %w", err)
	}
	return nil
}

// discard lets go of the container's streams and its exit watch and
// force-removes it on a context of its own that survives ctx.
func (d *Docker) discard(ctx context.Context, w *warmContainer) error {
	if w.attach.Conn != nil {
		w.attach.Close()
	}
	if w.exit != nil {
		w.exit.stop()
	}
	return d.remove(ctx, w.id)
}

// exitWatch reports, once, how a container's next exit went.
type exitWatch struct {
	done   chan struct{} // closed once status is set
	status exitStatus
	stop   context.CancelFunc // ends the wait
}

// exitStatus is how a container's wait ended: its exit code, or why the wait failed.
type exitStatus struct {
	code int64
	err  error
}

// watchExit registers, before it returns, a wait for the container's next
// exit that lasts until the container exits or the watch is stopped.
func (d *Docker) watchExit(id string) *exitWatch {
	ctx, stop := context.WithCancel(context.Background())
	statuses, errs := d.cli.ContainerWait(ctx, id, container.WaitConditionNextExit)
	w := &exitWatch{done: make(chan struct{}), stop: stop}
	go func() {
		defer close(w.done)
		select {
		case st := <-statuses:
			if st.Error != nil {
				w.status = exitStatus{err: errors.New(st.Error.Message)}
				return
			}
			w.status = exitStatus{code: st.StatusCode}
		case err := <-errs:
			w.status = exitStatus{err: err}
		}
	}()
	return w
}

// exited reports whether the container is known to have exited (or the
// watch to have failed).
func (w *exitWatch) exited() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}
