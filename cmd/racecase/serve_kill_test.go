package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/runner/runnertest"
)

// TestKilledServerLeavesNoContainerRunning kills the server with SIGKILL
// while a run loops forever and, with no racecase process started again,
// checks that the run's container stops by itself once it has spent its CPU
// budget: its watchdog ends it.
func TestKilledServerLeavesNoContainerRunning(t *testing.T) {
	t.Parallel()
	engine := runnertest.Engine(t)
	bin, data, logFile := buildForRestart(t)
	server := startProcess(t, bin, data, logFile)
	c := newClient(t, server.url)
	ws := c.createWorkspace()
	c.save(ws.ID, "test/concurrent-worker.test.js", "import test from 'node:test';\n\ntest('never ends', () => { for (;;) {} });\n")
	// A warm container starts before its run: the run's time is counted from
	// here, just before the run is asked for.
	asked := time.Now()
	run := c.startRun(ws.ID, "check")
	waitStatus(t, c, run.ID, "running")
	instance := instanceOf(t, data)
	// The run's container, once its loop runs, and the warm one waiting for the next run.
	ids := runningContainersOf(t, engine.Engine(), instance, "--test")
	t.Cleanup(func() { // nobody else will: this server never comes back
		// Every container of the server, those it was still starting when
		// it was killed (a warm one for the next run) included.
		list, err := engine.Engine().ContainerList(context.Background(), container.ListOptions{
			All: true, Filters: filters.NewArgs(filters.Arg("label", "racecase.instance="+instance)),
		})
		if err != nil {
			t.Error(err)
			return
		}
		for _, c := range list {
			engine.Engine().ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true})
		}
	})
	if err := server.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = server.cmd.Wait()

	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	lim := d.Limits.RunnerLimits(runner.SuiteVisible).WithDefaults() // a check run
	const slack = 10 * time.Second
	// A warm container ends as soon as its stdin closes with the server's
	// connection: it has no payload. The run's ends when its CPU budget is spent.
	var info container.InspectResponse
	found := false
	for _, id := range ids {
		if st := waitStopped(t, engine.Engine(), id, 2*(lim.Wall+slack)); st.State.ExitCode != 0 {
			info, found = st, true
		}
	}
	if !found {
		t.Fatal("every container of the server exited 0; want the looping run's stopped by its watchdog")
	}
	finished, _ := time.Parse(time.RFC3339Nano, info.State.FinishedAt)
	ran := finished.Sub(asked)
	t.Logf("the run's container stopped %s after the run was asked for, for a CPU limit of %s, with exit code %d", ran.Round(time.Millisecond), lim.CPU, info.State.ExitCode)
	// The loop spends CPU time no faster than the container's CPUs allow, so
	// the watchdog's CPU budget ends it after at least that much wall time; on
	// a machine so busy that the loop gets less than a third of a CPU, the
	// watchdog's wall-clock deadline ends it first, and its timer may fire a
	// few seconds late there too. Either way the container stopped by itself,
	// with no racecase process alive, well before anyone would notice.
	if ran < lim.CPU || ran > lim.Wall+runner.WatchdogGrace+slack {
		t.Errorf("the run's container stopped %s after the run was asked for; want between the CPU limit %s and the wall limit %s and %s", ran, lim.CPU, lim.Wall, runner.WatchdogGrace+slack)
	}
	if code := info.State.ExitCode; code != 152 && code != 124 {
		t.Errorf("exit code %d; want 152 or 124, the watchdog's for a spent CPU budget or its deadline", code)
	}
}

// runningContainersOf waits until one of the instance's running containers
// runs a process whose command line holds marker, and returns the ids of
// all those running.
func runningContainersOf(t *testing.T, cli containerWatcher, instance, marker string) []string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		list, err := cli.ContainerList(context.Background(), container.ListOptions{
			Filters: filters.NewArgs(filters.Arg("label", "racecase.instance="+instance), filters.Arg("status", "running")),
		})
		if err != nil {
			t.Fatal(err)
		}
		ids, found := make([]string, len(list)), false
		for i, c := range list {
			ids[i] = c.ID
			top, err := cli.ContainerTop(context.Background(), c.ID, nil)
			if err != nil {
				continue // it ended meanwhile
			}
			for _, proc := range top.Processes {
				found = found || strings.Contains(strings.Join(proc, " "), marker)
			}
		}
		if found {
			return ids
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no container of the server ran %q within a minute", marker)
	return nil
}

// containerWatcher lists containers and their processes; the engine's client is one.
type containerWatcher interface {
	containerLister
	ContainerTop(ctx context.Context, id string, args []string) (container.TopResponse, error)
}

// containerInspector reads a container's state; the engine's client is one.
type containerInspector interface {
	ContainerInspect(context.Context, string) (container.InspectResponse, error)
}

// waitStopped polls a container until it is no longer running, for at most
// bound, and returns its last state.
func waitStopped(t *testing.T, cli containerInspector, id string, bound time.Duration) container.InspectResponse {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		info, err := cli.ContainerInspect(context.Background(), id)
		if err != nil {
			t.Fatalf("inspect the run's container: %v", err)
		}
		if !info.State.Running {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("the container is still running %s after the server was killed", bound)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
