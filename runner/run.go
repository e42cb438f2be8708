package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

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
	if job, err = checked(job); err != nil {
		return nil, err
	}
	w, err := d.prepare(ctx, job)
	if err != nil {
		return nil, err
	}
	defer func() {
		if rmErr := d.discard(ctx, w); rmErr != nil {
			res, err = nil, errors.Join(err, rmErr)
		}
	}()
	res, _, err = d.serve(ctx, w, job)
	return res, err
}

// checked returns job with its limits defaulted, or why the runner must not
// start it. Sizes are checked before anything is encoded for the container.
func checked(job Job) (Job, error) {
	job.Limits = job.Limits.WithDefaults()
	return job, job.validate()
}

// serve writes job's payload to a warm container, whose budgets start
// then, and watches it until it exits or a limit makes the runner kill it.
// began reports whether the run began: the watchdog took the payload. The
// caller removes the container.
func (d *Docker) serve(ctx context.Context, w *warmContainer, job Job) (res *Results, began bool, err error) {
	nonce := randomHex(16)
	in, err := encodePayload(nonce, job)
	if err != nil {
		return nil, false, fmt.Errorf("runner: encode payload: %w", err)
	}
	lim := job.Limits
	console := newCappedBuffer(lim.OutputBytes)
	stdout := newRecordFilter(nonce, console)
	stderrTail := &tailBuffer{max: stderrTailBytes}
	stderr := newStartFilter(io.MultiWriter(console, stderrTail))
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = stdcopy.StdCopy(stdout, stderr, w.attach.Reader)
	}()
	go func() {
		// Fails only when the container is gone, which the exit watch reports.
		_, _ = w.attach.Conn.Write(in)
		_ = w.attach.CloseWrite()
	}()

	o, err := d.watch(ctx, w.id, lim, console.Exceeded(), w.exit, stderr.started)
	if err != nil {
		return nil, false, err
	}
	select {
	case <-copied:
	case <-time.After(drainTimeout):
		w.attach.Close()
		<-copied
	}
	info, err := d.cli.ContainerInspect(ctx, w.id)
	if err != nil {
		return nil, false, fmt.Errorf("runner: inspect container: %w", err)
	}
	o.oomKilled = info.State != nil && info.State.OOMKilled
	stdout.Flush()
	stderr.Flush()
	o.record, o.hasRecord = stdout.record, stdout.found
	o.output = console.String()
	o.outputExceeded = o.outputExceeded || console.Truncated()
	o.stderrTail = stderrTail.String()
	began, before := stderr.started()
	o.cpu = max(o.raw-before, 0)
	return decide(o), began, nil
}

// watch waits for the container to exit, killing it when its CPU time or
// the wall clock runs out or when the console overflows, and reports which
// of those happened and how much CPU time it was last seen to use. The wall
// clock starts now, with the payload; the CPU time counts from the start
// marker on: started reports the CPU time the container used before it. (A
// run that sits idle is stopped from inside by its watchdog, which can tell
// waiting threads from starved ones.)
func (d *Docker) watch(ctx context.Context, id string, lim Limits, overflow <-chan struct{}, exit *exitWatch, started func() (bool, time.Duration)) (outcome, error) {
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
			if s.used < o.raw || stuck != nil {
				continue // a stopped container reads as zero
			}
			o.raw = s.used
			if _, before := started(); o.raw-before >= lim.CPU {
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
		case <-exit.done:
			st := exit.status
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
