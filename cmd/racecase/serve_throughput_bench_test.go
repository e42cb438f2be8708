package main

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner/runnertest"
)

// learners is how many simulated learners submit at once.
const learners = 16

// BenchmarkSubmitThroughput measures the flagship's reference fix submitted
// through the API (start the run, follow it to the verdict) against the
// same hidden suite run by bare node on the host, measured in the same
// benchmark: one learner's submit→verdict median and its ratio to bare
// node, then learners submitting at once, as runs per minute and as a
// fraction of the ideal (cores ÷ the bare suite time). The server runs with
// its defaults: one worker per core, one warm container per worker.
func BenchmarkSubmitThroughput(b *testing.B) {
	runnertest.Engine(b)
	srv := startServe(b, "--new-learners-per-minute", "1000")
	bare := bareSuite(b)
	changes := solutionChanges(b)
	newLearner := func() (*client, string) {
		c := newClient(b, srv.URL)
		ws := c.createWorkspace()
		for path, content := range changes {
			c.save(ws.ID, path, content)
		}
		return c, ws.ID
	}
	var wrongMu sync.Mutex
	wrong := 0
	submit := func(c *client, ws string) time.Duration {
		start := time.Now()
		if r := c.verdictOf(c.startRun(ws, "submit").ID); r.Verdict != "pass" {
			wrongMu.Lock()
			wrong++
			wrongMu.Unlock()
			b.Errorf("the reference fix got %s: %+v", r.Verdict, r)
		}
		return time.Since(start)
	}

	var alone, bareRuns []time.Duration
	var busy time.Duration
	runs := 0
	b.ResetTimer()
	for range b.N {
		c, ws := newLearner()
		submit(c, ws) // the first run of a workspace warms nothing the next one needs
		for range 3 {
			alone = append(alone, submit(c, ws))
			time.Sleep(time.Second) // the pool warms the next container, as between a learner's edits
			bareRuns = append(bareRuns, bare())
		}

		clients := make([]*client, learners)
		spaces := make([]string, learners)
		for i := range clients {
			clients[i], spaces[i] = newLearner()
		}
		var wg sync.WaitGroup
		start := time.Now()
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 2 {
					submit(clients[i], spaces[i])
				}
			}()
		}
		wg.Wait()
		busy += time.Since(start)
		runs += 2 * learners
		bareRuns = append(bareRuns, bare())
	}
	b.StopTimer()
	b.Logf("warm and cold runs:\n%s", poolMetrics(b, srv.URL))
	p50, baseline := medianOf(alone), medianOf(bareRuns)
	perMinute := float64(runs) / busy.Minutes()
	ideal := float64(runtime.NumCPU()) / baseline.Minutes()
	// Logged too: a failed benchmark prints no metrics.
	b.Logf("one learner: submit p50 %s, bare node %s, ratio %.2f; %d learners: %.1f runs/min, ideal %.1f, fraction %.2f; %d wrong verdicts of %d runs",
		p50, baseline, float64(p50)/float64(baseline), learners, perMinute, ideal, perMinute/ideal, wrong, runs+4*b.N)
	b.ReportMetric(float64(p50.Milliseconds()), "submit-p50-ms")
	b.ReportMetric(float64(baseline.Milliseconds()), "bare-node-ms")
	b.ReportMetric(float64(p50)/float64(baseline), "submit/bare")
	b.ReportMetric(perMinute, "runs/min@16")
	b.ReportMetric(perMinute/ideal, "throughput/ideal")
}

// bareSuite prepares the flagship's reference fix and hidden suite on the
// host and returns a function that runs them once with bare node and
// reports how long it took.
func bareSuite(b *testing.B) func() time.Duration {
	b.Helper()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		b.Fatal(err)
	}
	files, err := d.SolutionFiles(challenges.FS)
	if err != nil {
		b.Fatal(err)
	}
	hidden, err := hiddentests.Suite(flagship)
	if err != nil {
		b.Fatal(err)
	}
	repo := b.TempDir()
	for name, data := range files {
		path := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	suite := filepath.Join(b.TempDir(), hiddentests.SuiteFile)
	if err := os.WriteFile(suite, hidden[hiddentests.SuiteFile], 0o644); err != nil {
		b.Fatal(err)
	}
	local, err := filepath.Abs("../../hidden_tests/harness/local.mjs")
	if err != nil {
		b.Fatal(err)
	}
	return func() time.Duration {
		start := time.Now()
		if out, err := exec.Command("node", local, "hidden", repo, suite).CombinedOutput(); err != nil {
			b.Fatalf("bare node: %v\n%s", err, out)
		}
		return time.Since(start)
	}
}

// poolMetrics returns the server's metrics lines about warm and cold runs.
func poolMetrics(b *testing.B, base string) string {
	b.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "racecase_runner_") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}
