package runner

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/docker/docker/api/types/container"
)

// Labels the runner puts on every container it creates.
const (
	// LabelManaged marks a container as the runner's; the reaper removes them all.
	LabelManaged = "racecase.managed"
	// LabelRun holds the run's random id.
	LabelRun = "racecase.run"
	// LabelOwner names the racecase process that started the container: the
	// id under which it beats its heartbeat. Jobs set it (Job.Labels).
	LabelOwner = "racecase.owner"
)

// containerUser is the unprivileged uid:gid learner code runs as.
const containerUser = "1000:1000"

// The watchdog is the container's first process: it starts the supervisor
// at once, starts the deadline and the CPU budget when the payload arrives,
// and ends the container at the deadline or past the CPU budget, even when
// no racecase process is left to do it (hidden_tests/harness/watchdog.mjs).
var watchdogEntrypoint = []string{"/usr/local/bin/node", "--v8-pool-size=1", "/opt/racecase/watchdog.mjs"}

// The watchdog's own needs, added to the run's limits so that learner code
// keeps all of them: one Node.js process with a small V8 pool takes 4
// threads and about 7 MiB.
const (
	watchdogPids        = 8
	watchdogMemoryBytes = 16 << 20
)

// WatchdogGrace is how long past the wall-clock limit, and how much CPU
// time past the CPU limit, the container ends itself. The runner kills it at
// the limits; the watchdog is the backstop for when no runner is left
// watching.
const WatchdogGrace = 2 * time.Second

// tmpTmpfsBytes sizes the /tmp tmpfs (HOME points there).
const tmpTmpfsBytes = 16 << 20

// maxOpenFiles is the nofile limit inside the container.
const maxOpenFiles = 1024

// containerConfig converts a job, whose limits are already defaulted, into the
// engine's container configuration. It is pure: no engine is needed.
func containerConfig(job Job, runID string) (*container.Config, *container.HostConfig) {
	labels := make(map[string]string, len(job.Labels)+len(job.RunLabels)+2)
	maps.Copy(labels, job.RunLabels)
	maps.Copy(labels, job.Labels)
	labels[LabelManaged] = "true"
	labels[LabelRun] = runID

	lim := job.Limits
	pids := lim.Pids + watchdogPids
	noInit := false // the watchdog is the first process
	deadline := (lim.Wall + WatchdogGrace).Milliseconds()
	cpuBudget := (lim.CPU + WatchdogGrace).Milliseconds()
	cfg := &container.Config{
		Image:           job.Image,
		Entrypoint:      watchdogEntrypoint,
		Cmd:             []string{strconv.FormatInt(deadline, 10), strconv.FormatInt(cpuBudget, 10), string(job.Suite)},
		User:            containerUser,
		Labels:          labels,
		AttachStdin:     true,
		AttachStdout:    true,
		AttachStderr:    true,
		OpenStdin:       true,
		StdinOnce:       true,
		NetworkDisabled: true,
	}
	host := &container.HostConfig{
		NetworkMode:    "none",
		IpcMode:        "private",
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		ReadonlyRootfs: true,
		Init:           &noInit,
		LogConfig:      container.LogConfig{Type: "none"},
		Tmpfs: map[string]string{
			"/work": tmpfsOptions(lim.TmpfsBytes),
			"/tmp":  tmpfsOptions(tmpTmpfsBytes),
		},
		Resources: container.Resources{
			Memory:     lim.MemoryBytes + watchdogMemoryBytes,
			MemorySwap: lim.MemoryBytes + watchdogMemoryBytes,
			NanoCPUs:   lim.NanoCPUs,
			PidsLimit:  &pids,
			Ulimits: []*container.Ulimit{
				{Name: "nofile", Soft: maxOpenFiles, Hard: maxOpenFiles},
				{Name: "fsize", Soft: lim.TmpfsBytes, Hard: lim.TmpfsBytes},
				{Name: "core", Soft: 0, Hard: 0},
			},
		},
	}
	return cfg, host
}

// tmpfsOptions returns mount options for a world-writable, sticky tmpfs of
// size bytes on which nothing can be executed.
func tmpfsOptions(size int64) string {
	return fmt.Sprintf("rw,noexec,nosuid,nodev,size=%d,mode=1777", size)
}
