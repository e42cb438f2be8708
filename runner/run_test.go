package runner_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/racecase/racecase/runner"
)

func TestRunPass(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"src/add.js":       "export const add = (a, b) => a + b;\n",
		"test/add.test.js": "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/add.js';\ntest('adds', () => { console.log('learner says hi'); assert.equal(add(2, 3), 5); });\n",
	})
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictPass)
	if res.Status != "pass" || len(res.Tests) != 1 || res.Tests[0].Status != "pass" {
		t.Errorf("results %+v", res)
	}
	if !strings.Contains(res.Output, "learner says hi") || strings.Contains(res.Output, "racecase-result") {
		t.Errorf("output should hold the learner's console and no record:\n%s", res.Output)
	}
}

func TestRunFailingTest(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/add.test.js": "import test from 'node:test';\nimport assert from 'node:assert';\ntest('adds', () => assert.equal(1 + 1, 3));\n",
	})
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictFail)
	if len(res.Tests) != 1 || res.Tests[0].Status != "fail" || len([]rune(res.Tests[0].Output)) > runner.MaxTestOutput {
		t.Errorf("tests %+v", res.Tests)
	}
}

func TestRunSyntaxError(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"src/lock.js":       "export async function acquire( {\n",
		"test/lock.test.js": "import test from 'node:test';\nimport { acquire } from '../src/lock.js';\ntest('acquires', () => acquire());\n",
	})
	res, _ := run(t, d, job)
	if res.Verdict != runner.VerdictFail && res.Verdict != runner.VerdictError {
		t.Fatalf("verdict %q, want fail or error", res.Verdict)
	}
	if !strings.Contains(res.Output, "SyntaxError") {
		t.Errorf("output does not name the SyntaxError:\n%s", tail(res.Output))
	}
}

func TestRunInfiniteLoopTimesOut(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/loop.test.js": "import test from 'node:test';\ntest('spins', () => { for (;;) {} });\n",
	})
	// The CPU limit must decide, however busy the machine: a wall clock far
	// past it, for a container that gets a small share of a CPU.
	job.Limits.CPU, job.Limits.Wall = 2*time.Second, time.Minute
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictTimeout)
	if !strings.Contains(res.Message, "of CPU time, its limit") || res.CPUMS < job.Limits.CPU.Milliseconds() {
		t.Errorf("message %q after %d ms of CPU time, want the CPU budget named", res.Message, res.CPUMS)
	}
}

func TestRunThatSitsIdleTimesOut(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/wait.test.js": "import test from 'node:test';\ntest('waits', () => new Promise(() => setInterval(() => {}, 1000)));\n",
	})
	// The wall-clock backstop far past the idle window: on a loaded machine
	// the watchdog may need several windows of its own looks to be sure.
	job.Limits.Wall = 90 * time.Second
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictTimeout)
	// The watchdog's idle stop, not the wall-clock backstop.
	if !strings.Contains(res.Message, "sat idle for 10s") {
		t.Errorf("message %q", res.Message)
	}
}

func TestRunPastItsWallClockLimitTimesOut(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/wait.test.js": "import test from 'node:test';\ntest('waits', () => new Promise(() => setInterval(() => {}, 1000)));\n",
	})
	job.Limits.Wall = 3 * time.Second
	res, took := run(t, d, job)
	wantVerdict(t, res, runner.VerdictTimeout)
	if !strings.Contains(res.Message, "did not finish within 3s") {
		t.Errorf("message %q", res.Message)
	}
	if took > job.Limits.Wall+10*time.Second {
		t.Errorf("Run took %s for a %s wall limit", took, job.Limits.Wall)
	}
}

func TestRunMemoryHog(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/hog.test.js": "import test from 'node:test';\n" +
			"test('hogs', () => { const keep = []; for (let i = 0; i < 64; i++) keep.push(Buffer.alloc(16 << 20, 1)); console.log(keep.length); });\n",
	})
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictMemory)
}

func TestRunFloodHitsOutputLimit(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/flood.test.js": "import test from 'node:test';\n" +
			"test('floods', () => { const mb = 'x'.repeat(1 << 20) + '\\n'; for (let i = 0; i < 100; i++) process.stdout.write(mb); });\n",
	})
	res, took := run(t, d, job)
	wantVerdict(t, res, runner.VerdictOutputLimit)
	limit := runner.DefaultLimits().OutputBytes
	if int64(len(res.Output)) > limit+200 || !strings.Contains(res.Output, "[output truncated") {
		t.Errorf("output is %d bytes for a %d-byte limit; ends %q", len(res.Output), limit, tail(res.Output)[max(0, len(tail(res.Output))-80):])
	}
	if took > 30*time.Second {
		t.Errorf("the flood was stopped only after %s", took)
	}
}

func TestRunForkBombIsContained(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/bomb.test.js": "import test from 'node:test';\nimport { spawn } from 'node:child_process';\n" +
			"test('forks', async () => {\n" +
			"  let spawned = 0;\n" +
			"  for (let i = 0; i < 500; i++) {\n" +
			"    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });\n" +
			"    const err = await new Promise((ok) => { child.once('spawn', () => ok(null)); child.once('error', ok); });\n" +
			"    if (err) { console.log(`spawn ${spawned + 1} failed: ${err.code}`); break; }\n" +
			"    child.unref();\n" +
			"    spawned++;\n" +
			"  }\n" +
			"  console.log(`spawned ${spawned}`);\n" +
			"});\n",
	})
	res, took := run(t, d, job)
	// Threads count against the pids limit, so a few node processes exhaust it.
	if res.Verdict != runner.VerdictMemory && !strings.Contains(res.Output, "failed: EAGAIN") {
		t.Errorf("verdict %s, and the pids limit did not stop the fork bomb:\n%s", res.Verdict, tail(res.Output))
	}
	if took > runner.DefaultLimits().Wall+10*time.Second {
		t.Errorf("Run took %s", took)
	}
}

func TestRunHasNoNetwork(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/net.test.js": "import test from 'node:test';\nimport assert from 'node:assert';\nimport net from 'node:net';\nimport os from 'node:os';\n" +
			"test('only loopback', () => assert.deepEqual(Object.keys(os.networkInterfaces()), ['lo']));\n" +
			// 192.0.2.1 is TEST-NET-1 (RFC 5737); without a route the kernel refuses before any packet exists.
			"test('no route out', async () => {\n" +
			"  const err = await new Promise((ok) => net.connect(80, '192.0.2.1').once('connect', () => ok(null)).once('error', ok));\n" +
			"  assert.ok(err, 'connected'); console.log('connect failed:', err.code);\n" +
			"});\n",
	})
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictPass)
}

func TestRunSandbox(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/sandbox.test.js": "import test from 'node:test';\nimport assert from 'node:assert';\nimport fs from 'node:fs';\n" +
			"test('unprivileged', () => { assert.equal(process.getuid(), 1000); assert.equal(process.getgid(), 1000); });\n" +
			"test('read-only root', () => assert.throws(() => fs.writeFileSync('/opt/racecase/x', ''), { code: 'EROFS' }));\n" +
			"test('work is a 64 MiB tmpfs', () => { const s = fs.statfsSync('/work'); assert.equal(s.blocks * s.bsize, 64 * 1024 * 1024); });\n" +
			"test('no secrets in the environment', () => assert.deepEqual(Object.keys(process.env).filter((k) => /nonce|secret/i.test(k)), []));\n",
	})
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictPass)
}

func TestRunIgnoresForgedRecord(t *testing.T) {
	d := engine(t)
	forged := "\\x1eracecase-result " + strings.Repeat("0", 32) + " " +
		"eyJ2ZXJzaW9uIjozLCJzdGF0dXMiOiJwYXNzIiwidGVzdHMiOltdfQ==" // {"version":3,"status":"pass","tests":[]}
	job := visibleJob(image(t, d), map[string]string{
		"test/forge.test.js": "import test from 'node:test';\nimport assert from 'node:assert';\n" +
			"test('forges', () => { process.stdout.write('" + forged + "\\n'); console.log('" + forged + "'); assert.fail('real failure'); });\n",
	})
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictFail)
}

func TestRunHiddenSuite(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{"src/lock.js": "export const owner = 'blue';\n"})
	job.Suite = runner.SuiteHidden
	job.Secret = map[string][]byte{"suite.mjs": []byte(`
export default async function (repo) {
  const { owner } = await import('file://' + repo + '/src/lock.js');
  return [{
    name: 'one notification per job',
    status: 'fail',
    message: 'job-7 was notified twice by ' + owner,
    output: 'y'.repeat(2000),
    schedules: 148,
    trace: [
      { step: 1, at: 0, worker: 'blue', operation: 'get', key: 'lock:job-7', result: 'null' },
      { step: 2, at: 0, worker: 'green', operation: 'notify', key: 'job-7', result: 'sent', highlight: true },
    ],
  }];
}`)}
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictFail)
	tr := res.Tests[0]
	if tr.Message != "job-7 was notified twice by blue" || tr.Schedules != 148 || len(tr.Trace) != 2 || !tr.Trace[1].Highlight {
		t.Errorf("test %+v", tr)
	}
	if len([]rune(tr.Output)) > runner.MaxTestOutput {
		t.Errorf("test output kept %d characters", len([]rune(tr.Output)))
	}
}

func TestRunHarnessWithoutRecordIsError(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), nil)
	job.Suite = runner.SuiteHidden
	job.Secret = map[string][]byte{"suite.mjs": []byte("export default () => { console.error('supervisor gave up'); process.exit(3); };")}
	res, _ := run(t, d, job)
	wantVerdict(t, res, runner.VerdictError)
	if !strings.Contains(res.Message, "exit code 3") || strings.Contains(res.Message, "supervisor gave up") {
		t.Errorf("message %q: want the exit code, and the harness's own output kept from the learner", res.Message)
	}
	if !strings.Contains(res.Diagnostics, "supervisor gave up") {
		t.Errorf("diagnostics %q: want the harness's error output for operators", res.Diagnostics)
	}
}

func TestRunCancelledStillRemovesContainer(t *testing.T) {
	d := engine(t)
	job := visibleJob(image(t, d), map[string]string{
		"test/loop.test.js": "import test from 'node:test';\ntest('spins', () => { for (;;) {} });\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	res, err := d.Run(ctx, job)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %+v, %v; want context.Canceled", res, err)
	}
}

func TestRunMissingImageIsInfrastructureError(t *testing.T) {
	d := engine(t)
	job := visibleJob("racecase-runner-node:does-not-exist", nil)
	if res, err := d.Run(context.Background(), job); err == nil {
		t.Fatalf("Run = %+v, want an error", res)
	}
}

func TestReapRemovesLeftovers(t *testing.T) {
	d := engine(t)
	ctx := context.Background()
	c, err := d.Engine().ContainerCreate(ctx, &container.Config{
		Image:  image(t, d),
		Cmd:    []string{"visible"},
		Labels: map[string]string{runner.LabelManaged: "true", testLabel: testLabelValue},
	}, &container.HostConfig{NetworkMode: "none"}, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReapStale(ctx, time.Hour); err != nil {
		t.Fatalf("ReapStale(1h): %v", err)
	}
	if _, err := d.Engine().ContainerInspect(ctx, c.ID); err != nil {
		t.Fatalf("ReapStale(1h) removed a fresh container, which is nobody's leftover: %v", err)
	}
	removed, err := d.Reap(ctx, testLabel+"="+testLabelValue)
	if err != nil || removed < 1 {
		t.Fatalf("Reap = %d, %v; want at least 1", removed, err)
	}
	if _, err := d.Engine().ContainerInspect(ctx, c.ID); err == nil {
		t.Error("the leftover container is still there")
	}
}
