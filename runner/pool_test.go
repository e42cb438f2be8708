package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/racecase/racecase/runner"
)

// pool returns a pool of size on d, closed (and checked empty) when the test ends.
func pool(t *testing.T, d *runner.Docker, size int) *runner.Pool {
	t.Helper()
	p := runner.NewPool(d, runner.PoolConfig{Size: size})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := p.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return p
}

// quickJob returns a hidden-suite job whose stand-in suite passes at once:
// a run that needs next to no time, even on a busy machine.
func quickJob(image string) runner.Job {
	job := visibleJob(image, nil)
	job.Suite = runner.SuiteHidden
	job.Secret = map[string][]byte{"suite.mjs": []byte("export default () => [{ name: 'quick', status: 'pass' }];")}
	return job
}

// poolRun runs job in p with a generous overall deadline.
func poolRun(t *testing.T, p *runner.Pool, job runner.Job) *runner.Results {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := p.Run(ctx, job)
	if err != nil {
		t.Fatalf("pool Run: %v", err)
	}
	return res
}

// runningContainers lists this test binary's running containers.
func runningContainers(t *testing.T, d *runner.Docker) []string {
	t.Helper()
	list, err := d.Engine().ContainerList(context.Background(), container.ListOptions{Filters: filters.NewArgs(
		filters.Arg("label", testLabel+"="+testLabelValue), filters.Arg("status", "running"))})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	return ids
}

// waitRunning waits, for at most a minute, until this test binary has a
// running container other than those in not, and returns it.
func waitRunning(t *testing.T, d *runner.Docker, not ...string) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		for _, id := range runningContainers(t, d) {
			if !contains(not, id) {
				return id
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no warm container came up within a minute")
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestPoolRunGivesTheVerdictOfAColdRun(t *testing.T) {
	d := engine(t)
	img := image(t, d)
	loop := visibleJob(img, map[string]string{"test/loop.test.js": "import test from 'node:test';\ntest('spins', () => { for (;;) {} });\n"})
	loop.Limits.CPU = 2 * time.Second
	hidden := visibleJob(img, nil)
	hidden.Suite = runner.SuiteHidden
	hidden.Secret = map[string][]byte{"suite.mjs": []byte("export default () => [{ name: 'hidden', status: 'fail', message: 'no' }];")}
	jobs := map[string]runner.Job{
		"pass":          visibleJob(img, map[string]string{"test/ok.test.js": "import test from 'node:test';\ntest('ok', () => {});\n"}),
		"fail":          visibleJob(img, map[string]string{"test/no.test.js": "import test from 'node:test';\nimport assert from 'node:assert';\ntest('no', () => assert.equal(1, 2));\n"}),
		"hidden suite":  hidden,
		"spent its CPU": loop,
	}
	for name, job := range jobs {
		job.Limits.CPU = loop.Limits.CPU
		p := pool(t, d, 1) // a pool of its own: a check's and a hidden run's containers are not shared
		cold, _ := run(t, d, job)
		before := p.Stats()
		p.Warm(job)
		warm := poolRun(t, p, job)
		if got := p.Stats(); got.Warm != before.Warm+1 || got.Cold != before.Cold {
			t.Errorf("%s: stats %+v after %+v: want one more warm run", name, got, before)
		}
		// Messages may differ: a time-out's names the CPU time used.
		if warm.Verdict != cold.Verdict || warm.Status != cold.Status || len(warm.Tests) != len(cold.Tests) {
			t.Errorf("%s: warm %s %s %d tests, cold %s %s %d tests", name,
				warm.Verdict, warm.Status, len(warm.Tests), cold.Verdict, cold.Status, len(cold.Tests))
		}
		for i := range min(len(warm.Tests), len(cold.Tests)) {
			if w, c := warm.Tests[i], cold.Tests[i]; w.Name != c.Name || w.Status != c.Status {
				t.Errorf("%s: warm test %s %s, cold test %s %s", name, w.Name, w.Status, c.Name, c.Status)
			}
		}
	}
}

func TestPoolReplacesAContainerKilledWhileWaiting(t *testing.T) {
	d := engine(t)
	p := pool(t, d, 1)
	job := quickJob(image(t, d))
	p.Warm(job)
	killed := waitRunning(t, d)
	if err := d.Engine().ContainerKill(context.Background(), killed, "KILL"); err != nil {
		t.Fatal(err)
	}
	// The run comes at once: the pool may or may not have noticed the death.
	res := poolRun(t, p, job)
	wantVerdict(t, res, runner.VerdictPass)
	if s := p.Stats(); s.Replaced != 1 || s.Warm+s.Cold != 1 {
		t.Errorf("stats %+v: want the killed container replaced, never used, and one run", s)
	}
	// The pool warms the next run's container, which is neither of the two before.
	next := waitRunning(t, d, killed)
	res = poolRun(t, p, job)
	wantVerdict(t, res, runner.VerdictPass)
	if s := p.Stats(); s.Warm < 1 {
		t.Errorf("stats %+v: the run after the replacement was not warm", s)
	}
	if contains(runningContainers(t, d), next) {
		t.Errorf("the container that served a run is still running")
	}
}

func TestPoolBudgetsStartWithThePayload(t *testing.T) {
	d := engine(t)
	p := pool(t, d, 1)
	job := quickJob(image(t, d))
	job.Limits.Wall = 3 * time.Second
	p.Warm(job)
	waiting := waitRunning(t, d)
	// Longer than the watchdog's deadline (wall + grace), had it started with the container.
	time.Sleep(job.Limits.Wall + runner.WatchdogGrace + 2*time.Second)
	if !contains(runningContainers(t, d), waiting) {
		t.Fatal("the warm container stopped while it waited for its payload")
	}
	res := poolRun(t, p, job)
	wantVerdict(t, res, runner.VerdictPass)
	if s := p.Stats(); s.Warm != 1 || s.Replaced != 0 {
		t.Errorf("stats %+v: want the container that waited to serve the run", s)
	}
}

func TestPoolCloseRemovesEveryContainer(t *testing.T) {
	d := engine(t)
	p := runner.NewPool(d, runner.PoolConfig{Size: 2})
	job := quickJob(image(t, d))
	p.Warm(job)
	wantVerdict(t, poolRun(t, p, job), runner.VerdictPass)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	list, err := d.Engine().ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(
		filters.Arg("label", testLabel+"="+testLabelValue))})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("%d containers left after Close", len(list))
	}
	wantVerdict(t, poolRun(t, p, job), runner.VerdictPass)
	if s := p.Stats(); s.Cold != 1 {
		t.Errorf("stats %+v: a run after Close starts cold", s)
	}
}
