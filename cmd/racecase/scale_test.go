package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/jackc/pgx/v5"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/runner/runnertest"
	"github.com/racecase/racecase/store/storetest"
)

// scaleLearners is how many learners submit at once in the scale test.
const scaleLearners = 60

// clusterToken is the instructor token every API server of a test cluster shares.
const clusterToken = "scale-test-instructor-token"

// TestAWholeSchoolSubmitsAtOnce runs racecase as a cluster on one
// PostgreSQL database: two API servers without workers and three worker
// processes. Sixty learners, each on one server, submit at once (half the
// reference fix, half the bug) and follow their run's event stream on the
// other server. One worker is killed with SIGKILL while it runs a
// submission. Every run must end with exactly one verdict, the right one,
// seen by its stream; the killed run must have run again elsewhere, soon
// after its worker died; and no container may be left.
//
// It needs both cores to itself: make test-scale runs it alone, after the
// other suites (RACECASE_TEST_SCALE=1), and the package's run skips it.
func TestAWholeSchoolSubmitsAtOnce(t *testing.T) {
	if os.Getenv("RACECASE_TEST_SCALE") != "1" {
		t.Skip("runs alone, with both cores: make test-scale (RACECASE_TEST_SCALE=1)")
	}
	engine := runnertest.Engine(t)
	url := storetest.FreshPostgres(t)
	bin, _, logFile := buildForRestart(t)
	servers := []*process{startCluster(t, bin, logFile, "serve", url), startCluster(t, bin, logFile, "serve", url)}
	workers := []*process{startCluster(t, bin, logFile, "worker", url), startCluster(t, bin, logFile, "worker", url), startCluster(t, bin, logFile, "worker", url)}

	type learner struct {
		home, away *client
		runID      string
		fixed      bool
	}
	fix := solutionChanges(t)
	learners := make([]learner, scaleLearners)
	for i := range learners {
		home := newClient(t, servers[i%2].url)
		away := &client{t: t, base: servers[(i+1)%2].url, http: home.http} // the same browser, the other server
		ws := home.createWorkspace()
		l := learner{home: home, away: away, fixed: i%2 == 0}
		if l.fixed {
			for path, content := range fix {
				home.save(ws.ID, path, content)
			}
		}
		learners[i] = l
		learners[i].runID = home.startRun(ws.ID, "submit").ID
	}

	// Kill the first worker as soon as one of its containers runs.
	db := connect(t, url)
	victim := workers[0]
	killedRun, killedAt := make(chan string, 1), make(chan time.Time, 1)
	go func() {
		owner := ownerOfPid(t, db, victim.cmd.Process.Pid)
		runID := waitOwnContainer(t, engine.Engine(), owner)
		if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Error(err)
		}
		_ = victim.cmd.Wait()
		killedAt <- time.Now()
		killedRun <- runID
	}()

	var wg sync.WaitGroup
	errs := make(chan error, scaleLearners)
	for _, l := range learners {
		wg.Go(func() {
			events, err := l.away.tryStreamRun(l.runID, 10*time.Minute, func(*http.Request, *http.Response, []byte) {})
			if err != nil {
				errs <- err
				return
			}
			run, err := verdictIn(l.runID, events)
			want := map[bool]string{true: "pass", false: "fail"}[l.fixed]
			switch {
			case err != nil:
				errs <- err
			case run.Verdict != want:
				errs <- fmt.Errorf("run %s of a learner who submitted the %s: verdict %q, want %q",
					l.runID, map[bool]string{true: "fix", false: "bug"}[l.fixed], run.Verdict, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var killed string
	select {
	case killed = <-killedRun:
	case <-time.After(3 * time.Minute):
		t.Fatal("the first worker never ran a container")
	}

	ctx := context.Background()
	for _, l := range learners {
		var verdicts, completed, executions int
		if err := db.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM run_events WHERE run_id = $1 AND status = 'done'),
			(SELECT count(*) FROM river_job j JOIN runs r ON r.job_id = j.id WHERE r.id = $1 AND j.state = 'completed'),
			(SELECT executions FROM runs WHERE id = $1)`, l.runID).Scan(&verdicts, &completed, &executions); err != nil {
			t.Fatal(err)
		}
		if verdicts != 1 || completed != 1 {
			t.Errorf("run %s: %d verdicts, %d completed jobs; want 1 and 1", l.runID, verdicts, completed)
		}
		if l.runID == killed && executions < 2 {
			t.Errorf("run %s was killed with its worker but executed %d times", l.runID, executions)
		}
	}
	// The live workers take the killed run once the dead worker's heartbeat
	// is late, not once River gives up on its job after the run's whole
	// wall budget.
	var finishedMS int64
	if err := db.QueryRow(ctx, `SELECT finished_at FROM runs WHERE id = $1`, killed).Scan(&finishedMS); err != nil {
		t.Fatal(err)
	}
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	wall := d.Limits.RunnerLimits(runner.SuiteHidden).WithDefaults().Wall
	if took := time.UnixMilli(finishedMS).Sub(<-killedAt); took > wall/2 {
		t.Errorf("the killed run got its verdict %s after its worker died; want within half its wall budget %s", took.Round(time.Second), wall)
	} else {
		t.Logf("the killed run got its verdict %s after its worker died (wall budget %s)", took.Round(time.Second), wall)
	}
	// The killed worker's container is reaped once its heartbeat is late.
	instance := settingOf(t, db, "instance_id")
	deadline := time.Now().Add(3 * time.Minute)
	for countContainers(t, engine.Engine(), "racecase.instance="+instance) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("containers of the cluster are left three minutes after the last verdict")
		}
		time.Sleep(time.Second)
	}
	for _, p := range append(servers, workers[1:]...) {
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("graceful stop of %s: %v", p.url, err)
		}
	}
}

// schoolQuotas lift the per-client quotas of an API server that a whole
// school reaches from one address (the tests' and benchmarks' learners).
var schoolQuotas = []string{"--max-queued", "1000", "--new-learners-per-minute", "1000", "--max-conns-per-client", "1000"}

// startCluster starts the binary as one process of a cluster on the
// PostgreSQL database at url: an API server without workers ("serve") or a
// worker running one run at a time ("worker"). It waits until it is ready.
func startCluster(t testing.TB, bin string, logFile *os.File, role, url string) *process {
	t.Helper()
	args := []string{"worker", "--database", url, "--workers", "1", "--run-grace", "10s", "--rescue-after", "2s"}
	ready := "racecase: worker executing"
	if role == "serve" {
		args = append([]string{"serve", "--addr", "127.0.0.1:0", "--database", url, "--workers", "0", "--instructor-token", clusterToken}, schoolQuotas...)
		ready = "racecase: serving on "
	}
	p := launch(t, bin, logFile, args, ready)
	if role != "serve" {
		p.url = ""
	}
	return p
}

// connect opens a connection to the PostgreSQL database at url.
func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// ownerOfPid returns the owner id that the process with pid registered.
func ownerOfPid(t *testing.T, db *pgx.Conn, pid int) string {
	var id string
	if err := db.QueryRow(context.Background(), `SELECT id FROM owners WHERE pid = $1`, pid).Scan(&id); err != nil {
		t.Errorf("owner of pid %d: %v", pid, err)
	}
	return id
}

// settingOf reads a value of the settings table.
func settingOf(t *testing.T, db *pgx.Conn, name string) string {
	t.Helper()
	var v []byte
	if err := db.QueryRow(context.Background(), `SELECT value FROM settings WHERE name = $1`, name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// waitOwnContainer waits until owner has a running container and returns
// the id of the run it executes.
func waitOwnContainer(t *testing.T, cli containerLister, owner string) string {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		list, err := cli.ContainerList(context.Background(), container.ListOptions{
			Filters: filters.NewArgs(filters.Arg("label", runner.LabelOwner+"="+owner), filters.Arg("status", "running")),
		})
		if err != nil {
			t.Error(err)
			return ""
		}
		for _, c := range list {
			if id := c.Labels["racecase.run-id"]; id != "" {
				return id
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("the worker ran no container within 2 minutes")
	return ""
}

// countContainers counts the containers, running or not, with the label.
func countContainers(t *testing.T, cli containerLister, label string) int {
	t.Helper()
	list, err := cli.ContainerList(context.Background(), container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", label))})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}
