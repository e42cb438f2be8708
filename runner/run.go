package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
)

const (
	// drainTimeout bounds waiting for the output stream to end after the
	// container exited.
	drainTimeout = 5 * time.Second
	// killGrace bounds waiting for the container to exit after SIGKILL.
	killGrace = 10 * time.Second
	// stderrTailBytes is how much of stderr an error message may quote.
	stderrTailBytes = 2048
)

// Run starts a fresh container for job, feeds it the workspace, enforces the
// limits and always removes the container, even when ctx is cancelled.
func (d *Docker) Run(ctx context.Context, job Job) (res *Results, err error) {
	job.Limits = job.Limits.WithDefaults()
	// Sizes are checked before anything is encoded for the container.
	if err := job.validate(); err != nil {
		return nil, err
	}
	nonce := randomHex(16)
	in, err := encodePayload(nonce, job)
	if err != nil {
		return nil, fmt.Errorf("runner: encode payload: %w", err)
	}
	runID := randomHex(8)
	cfg, host := containerConfig(job, runID)
	created, err := d.cli.ContainerCreate(ctx, cfg, host, nil, nil, "racecase-"+runID)
	if err != nil {
		return nil, fmt.Errorf("runner: create container from %s: %w", job.Image, err)
	}
	defer func() {
		if rmErr := d.remove(ctx, created.ID); rmErr != nil {
			res, err = nil, errors.Join(err, rmErr)
		}
	}()
	return d.supervise(ctx, created.ID, nonce, in, job.Limits)
}

// supervise attaches to a created container, starts it, writes the payload to
// its stdin and watches it until it exits or a limit makes the runner kill it.
func (d *Docker) supervise(ctx context.Context, id, nonce string, in []byte, lim Limits) (*Results, error) {
	attach, err := d.cli.ContainerAttach(ctx, id, container.AttachOptions{
		Stream: true, Stdin: true, Stdout: true, Stderr: true,
	})
	if err != nil {
		return nil, fmt.Errorf("runner: attach to container: %w", err)
	}
	defer attach.Close()

	console := newCappedBuffer(lim.OutputBytes)
	stdout := newRecordFilter(nonce, console)
	stderrTail := &tailBuffer{max: stderrTailBytes}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = stdcopy.StdCopy(stdout, io.MultiWriter(console, stderrTail), attach.Reader)
	}()

	waitCtx, stopWait := context.WithCancel(ctx)
	defer stopWait()
	exited := d.waitExit(waitCtx, id)
	if err := d.cli.ContainerStart(ctx, id, container.StartOptions{}); err != nil {
		return nil, fmt.Errorf("runner: start container: %w", err)
	}
	go func() {
		// Fails only when the container is gone, which the wait reports.
		_, _ = attach.Conn.Write(in)
		_ = attach.CloseWrite()
	}()

	o, err := d.watch(ctx, id, lim, console.Exceeded(), exited)
	if err != nil {
		return nil, err
	}
	select {
	case <-copied:
	case <-time.After(drainTimeout):
		attach.Close()
		<-copied
	}
	info, err := d.cli.ContainerInspect(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("runner: inspect container: %w", err)
	}
	o.oomKilled = info.State != nil && info.State.OOMKilled
	stdout.Flush()
	o.record, o.hasRecord = stdout.record, stdout.found
	o.output = console.String()
	o.outputExceeded = o.outputExceeded || console.Truncated()
	o.stderrTail = stderrTail.String()
	return decide(o), nil
}

// watch waits for the container to exit, killing it when its CPU time or
// the wall clock runs out or when the console overflows, and reports which
// of those happened and how much CPU time it was last seen to use. (A run
// that sits idle is stopped from inside by its watchdog, which can tell
// waiting threads from starved ones.)
func (d *Docker) watch(ctx context.Context, id string, lim Limits, overflow <-chan struct{}, exited <-chan exitStatus) (outcome, error) {
	start := time.Now()
	o := outcome{limits: lim}
	wall := time.NewTimer(lim.Wall)
	defer wall.Stop()
	sampling, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	cpu := d.sampleCPU(sampling, id)
	var stuck <-chan time.Time
	kill := func() {
		d.kill(ctx, id)
		if stuck == nil {
			stuck = time.After(killGrace)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return o, fmt.Errorf("runner: run abandoned: %w", context.Cause(ctx))
		case <-stuck:
			return o, fmt.Errorf("runner: container %s did not stop within %s of SIGKILL", id, killGrace)
		case s := <-cpu:
			if s.used < o.cpu || stuck != nil {
				continue // a stopped container reads as zero
			}
			o.cpu = s.used
			if o.cpu >= lim.CPU {
				o.cpuExhausted = true
				kill()
			}
		case <-wall.C:
			o.timedOut = true
			kill()
		case <-overflow:
			overflow = nil
			o.outputExceeded = true
			kill()
		case st := <-exited:
			if st.err != nil {
				if ctx.Err() != nil {
					return o, fmt.Errorf("runner: run abandoned: %w", context.Cause(ctx))
				}
				return o, fmt.Errorf("runner: wait for container: %w", st.err)
			}
			o.exitCode = st.code
			o.duration = time.Since(start)
			return o, nil
		}
	}
}

// exitStatus is how a container's wait ended: its exit code, or why the wait failed.
type exitStatus struct {
	code int64
	err  error
}

// waitExit registers, before it returns, a wait for the container's next exit.
// The result arrives once on a buffered channel, so nothing is left blocked
// when the run is abandoned; cancel ctx to end the wait.
func (d *Docker) waitExit(ctx context.Context, id string) <-chan exitStatus {
	statuses, errs := d.cli.ContainerWait(ctx, id, container.WaitConditionNextExit)
	out := make(chan exitStatus, 1)
	go func() {
		select {
		case st := <-statuses:
			if st.Error != nil {
				out <- exitStatus{err: errors.New(st.Error.Message)}
				return
			}
			out <- exitStatus{code: st.StatusCode}
		case err := <-errs:
			out <- exitStatus{err: err}
		}
	}()
	return out
}
