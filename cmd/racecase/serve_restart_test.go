package main

import (
	"bufio"
	"context"
	"database/sql"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/racecase/racecase/runner/runnertest"
	"github.com/racecase/racecase/store/sqlite"
)

// process is a `racecase serve` subprocess.
type process struct {
	cmd *exec.Cmd
	url string
}

// startProcess runs the binary as `racecase serve` on data and waits for
// its URL. Its log goes to logFile.
func startProcess(t *testing.T, bin, data string, logFile *os.File) *process {
	t.Helper()
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--workers", "1", "--run-grace", "3s", "--rescue-after", "2s"}
	return launch(t, bin, logFile, args, "racecase: serving on ")
}

// launch runs the binary with args, its standard error going to logFile,
// and waits for the standard output line that holds ready; what follows
// ready on that line is the process's URL. When the test ends, unless the
// test waited for it, it stops the process as an operator would (SIGTERM,
// so that it removes its containers, warm ones and those of finished runs),
// and kills it if it has not stopped within a minute.
func launch(t testing.TB, bin string, logFile *os.File, args []string, ready string) *process {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState != nil {
			return
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		stopped := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
		_ = cmd.Wait()
		stopped.Stop()
	})
	started := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), ready); ok {
				started <- rest
			}
		}
	}()
	select {
	case rest := <-started:
		return &process{cmd: cmd, url: rest}
	case <-time.After(2 * time.Minute):
		t.Fatalf("racecase %s was not ready within 2 minutes", args[0])
		return nil
	}
}

// TestKilledServerFinishesEveryRunOnceAfterRestart kills the server with
// SIGKILL while one run is running and another is queued, starts it again
// on the same data, and checks that each run ends with exactly one verdict
// and that no container of this server is left.
func TestKilledServerFinishesEveryRunOnceAfterRestart(t *testing.T) {
	t.Parallel()
	engine := runnertest.Engine(t)
	bin, data, logFile := buildForRestart(t)

	first := startProcess(t, bin, data, logFile)
	c := newClient(t, first.url)
	slow, other := c.createWorkspace(), c.createWorkspace()
	c.save(slow.ID, "test/concurrent-worker.test.js", slowTest(5))
	running := c.startRun(slow.ID, "check")
	queued := c.startRun(other.ID, "submit")
	waitStatus(t, c, running.ID, "running")
	instance := instanceOf(t, data)
	waitContainer(t, engine.Engine(), instance)
	if r := decode[runJSON](t, c.do("GET", "/api/runs/"+queued.ID, nil)); r.Status != "queued" {
		t.Fatalf("the second run is %s, want queued", r.Status)
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startProcess(t, bin, data, logFile)
	c.base = second.url
	if r := c.verdictOf(running.ID); r.Verdict != "pass" || r.Executions != 2 {
		t.Fatalf("the run killed while running: %+v", r)
	}
	if r := c.verdictOf(queued.ID); r.Verdict != "fail" || r.Executions != 1 {
		t.Fatalf("the run killed while queued: %+v", r)
	}
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.cmd.Wait(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}

	db := openReadOnly(t, data)
	for _, id := range []string{running.ID, queued.ID} {
		var verdicts, completed int
		if err := db.QueryRow(`SELECT count(*) FROM run_events WHERE run_id = ? AND status = 'done'`, id).Scan(&verdicts); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT count(*) FROM river_job j JOIN runs r ON r.job_id = j.id WHERE r.id = ? AND j.state = 'completed'`, id).Scan(&completed); err != nil {
			t.Fatal(err)
		}
		if verdicts != 1 || completed != 1 {
			t.Errorf("run %s: %d verdicts, %d completed jobs; want 1 and 1", id, verdicts, completed)
		}
	}
	if n := containersOf(t, engine.Engine(), instance); n != 0 {
		t.Errorf("%d containers of this server are left", n)
	}
}

// buildForRestart builds the racecase binary into a temporary directory and
// returns it with a data directory and a log file beside it; the log is
// printed when the test fails.
func buildForRestart(t testing.TB) (bin, data string, logFile *os.File) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "racecase")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	logFile, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(logFile.Name())
			t.Logf("server logs:\n%s", log)
		}
	})
	return bin, filepath.Join(dir, "data"), logFile
}

// waitStatus polls a run until it has the status.
func waitStatus(t *testing.T, c *client, runID, status string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if r := decode[runJSON](t, c.do("GET", "/api/runs/"+runID, nil).want(t, http.StatusOK)); r.Status == status {
			return
		} else if r.Status == "done" {
			t.Fatalf("run %s finished before it was seen %s", runID, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("run %s never became %s", runID, status)
}

// waitContainer waits until the instance has a container, that is until
// the running run's container exists.
func waitContainer(t *testing.T, cli containerLister, instance string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for containersOf(t, cli, instance) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the running run has no container after a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// openReadOnly opens a stopped server's database for reading.
func openReadOnly(t *testing.T, data string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, sqlite.FileName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// instanceOf reads the instance id that labels a data directory's containers.
func instanceOf(t *testing.T, data string) string {
	t.Helper()
	var id string
	if err := openReadOnly(t, data).QueryRow(`SELECT value FROM settings WHERE name = 'instance_id'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// containerLister lists containers; the engine's client is one.
type containerLister interface {
	ContainerList(context.Context, container.ListOptions) ([]container.Summary, error)
}

// containersOf counts the containers, running or not, of one instance.
func containersOf(t *testing.T, cli containerLister, instance string) int {
	t.Helper()
	list, err := cli.ContainerList(context.Background(), container.ListOptions{
		All: true, Filters: filters.NewArgs(filters.Arg("label", "racecase.instance="+instance)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}
