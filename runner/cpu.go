package runner

import (
	"context"
	"encoding/json"
	"time"

	"github.com/docker/docker/api/types/container"
)

// cpuPollInterval is how often the runner reads a running container's CPU
// time. A run may overshoot its CPU budget by about this much per CPU.
const cpuPollInterval = 200 * time.Millisecond

// cpuReadTimeout bounds one reading; a reading that fails is skipped.
const cpuReadTimeout = 2 * time.Second

// Idle runs: a container that used less than idleShare of one CPU over the
// last idleWindow is waiting, not computing (on a timer, a lock or a promise
// that never ends), and is stopped. A container starved by a busy machine
// still gets its fair share of a CPU, far more than idleShare.
const (
	idleWindow = 10 * time.Second
	idleShare  = 0.05
)

// cpuSample is one reading of a container's CPU time.
type cpuSample struct {
	at   time.Time
	used time.Duration
}

// cpuHistory keeps a container's CPU readings of the last idleWindow and
// then some, to tell a waiting container from a computing one.
type cpuHistory struct {
	samples []cpuSample
}

// add records a reading, the newest so far.
func (h *cpuHistory) add(s cpuSample) {
	h.samples = append(h.samples, s)
	// Keep the newest reading at least idleWindow old, and everything after it.
	for len(h.samples) > 1 && s.at.Sub(h.samples[1].at) >= idleWindow {
		h.samples = h.samples[1:]
	}
}

// idle reports whether, by its readings up to now, the container has run
// for at least idleWindow and used less than idleShare of one CPU over the
// last idleWindow of it.
func (h *cpuHistory) idle() bool {
	if len(h.samples) < 2 {
		return false
	}
	first, last := h.samples[0], h.samples[len(h.samples)-1]
	span := last.at.Sub(first.at)
	return span >= idleWindow && float64(last.used-first.used) < idleShare*float64(span)
}

// sampleCPU reads the container's CPU time (all its processes, user plus
// system, as the kernel's cgroup accounts it) every cpuPollInterval and sends
// each reading, until ctx ends. An unread reading is replaced by the next,
// so the channel never holds a stale value for long.
func (d *Docker) sampleCPU(ctx context.Context, id string) <-chan cpuSample {
	out := make(chan cpuSample, 1)
	go func() {
		tick := time.NewTicker(cpuPollInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			used, ok := d.cpuUsed(ctx, id)
			if !ok {
				continue
			}
			select {
			case <-out: // replace an unread older reading
			default:
			}
			out <- cpuSample{time.Now(), used}
		}
	}()
	return out
}

// cpuUsed reads the container's CPU time once through the engine's stats.
func (d *Docker) cpuUsed(ctx context.Context, id string) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(ctx, cpuReadTimeout)
	defer cancel()
	stats, err := d.cli.ContainerStatsOneShot(ctx, id)
	if err != nil {
		return 0, false
	}
	defer stats.Body.Close()
	var s container.StatsResponse
	if err := json.NewDecoder(stats.Body).Decode(&s); err != nil {
		return 0, false
	}
	return time.Duration(s.CPUStats.CPUUsage.TotalUsage), true
}
