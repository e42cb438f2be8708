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

// cpuSample is one reading of a container's CPU time.
type cpuSample struct {
	at   time.Time
	used time.Duration
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
