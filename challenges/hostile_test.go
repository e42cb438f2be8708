package challenges_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/runner/runnertest"
)

// These tests run hostile "fixes" of the flagship dossier through the real
// runner image and the real harness. Without a Docker engine they skip, unless
// REQUIRE_DOCKER=1 makes that a failure.

const flagship = "job-lock-double-send"

// testLabel marks this process's containers, so that the leak check ignores
// the containers of other test processes sharing the engine (the API's
// end-to-end tests run flagship containers at the same time).
var testLabel = "racecase.test=challenges-" + time.Now().Format("20060102T150405.000000000")

// realRunner returns the Docker runner with the real image, and checks when the
// test ends that no container of the flagship is left on the engine.
func realRunner(t testing.TB) (*runner.Docker, string) {
	t.Helper()
	d := runnertest.Engine(t)
	runnertest.ExpectNoLeftovers(t, d, testLabel)
	return d, runnertest.Image(t, d)
}

// runWith runs the flagship's buggy repo with files replaced, in suite.
func runWith(t *testing.T, suite runner.Suite, replace map[string]string) (*runner.Results, time.Duration) {
	t.Helper()
	d, image := realRunner(t)
	dossier, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	files, err := dossier.RepoFiles(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range replace {
		files[name] = []byte(content)
	}
	hidden, err := hiddentests.Suite(flagship)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	job := dossier.NewJob(image, suite, files, hidden)
	key, value, _ := strings.Cut(testLabel, "=")
	job.Labels[key] = value
	res, err := d.Run(context.Background(), job)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res, time.Since(start)
}

// lock is a src/locks/job-lock.js whose acquire runs body.
func lock(body string) map[string]string {
	return map[string]string{"src/locks/job-lock.js": `
export function createJobLock() {
  return {
    async acquire(jobId) { ` + body + ` },
    async release() {},
  };
}
`}
}

func TestHostileEndlessLoopTimesOut(t *testing.T) {
	res, took := runWith(t, runner.SuiteHidden, lock(`for (;;) {}`))
	if res.Verdict != runner.VerdictTimeout {
		t.Fatalf("verdict %s (%s), want timeout", res.Verdict, res.Message)
	}
	// Generous on purpose: this checks that the run is stopped (the loop would
	// otherwise never end), not how fast; measured, it ends in about 4.5 s.
	if limit := runner.DefaultLimits().Wall + 10*time.Second; took > limit {
		t.Errorf("took %s, want at most %s", took, limit)
	}
}

func TestHostileMemoryHog(t *testing.T) {
	res, _ := runWith(t, runner.SuiteHidden, lock(`const keep = []; for (let i = 0; i < 16; i++) keep.push(Buffer.alloc(64 << 20, 1)); return null;`))
	if res.Verdict != runner.VerdictMemory {
		t.Fatalf("verdict %s (%s), want memory", res.Verdict, res.Message)
	}
}

func TestHostileOutputFlood(t *testing.T) {
	res, _ := runWith(t, runner.SuiteHidden, lock(`process.stdout.write('x'.repeat(100 << 20)); return null;`))
	if res.Verdict != runner.VerdictOutputLimit {
		t.Fatalf("verdict %s (%s), want output-limit", res.Verdict, res.Message)
	}
	for _, test := range res.Tests {
		if len([]rune(test.Output)) > runner.MaxTestOutput {
			t.Errorf("%s: %d chars of output, want at most %d", test.Name, len(test.Output), runner.MaxTestOutput)
		}
	}
	if len(res.Output) > 2<<20 {
		t.Errorf("console output of %d bytes was not truncated", len(res.Output))
	}
}

func TestHostileSyntaxError(t *testing.T) {
	broken := map[string]string{"src/locks/job-lock.js": "export function createJobLock( {\n"}
	for _, suite := range []runner.Suite{runner.SuiteHidden, runner.SuiteVisible} {
		res, _ := runWith(t, suite, broken)
		if res.Verdict != runner.VerdictError || !strings.Contains(res.Message, "SyntaxError") {
			t.Errorf("%s suite: verdict %s, message %q; want error with the SyntaxError", suite, res.Verdict, res.Message)
		}
	}
}

func TestHostileNetworkIsUnreachable(t *testing.T) {
	res, _ := runWith(t, runner.SuiteHidden, lock(`await fetch('http://93.184.216.34/'); return 'mine';`))
	if res.Verdict != runner.VerdictFail {
		t.Fatalf("verdict %s (%s), want fail", res.Verdict, res.Message)
	}
}

func TestHostileForkBombIsContained(t *testing.T) {
	bomb := map[string]string{"test/concurrent-worker.test.js": `
import { test } from 'node:test';
import { spawn } from 'node:child_process';
test('fork bomb', async () => {
  let refused = 0;
  for (let i = 0; i < 500; i++) {
    try {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true });
      child.on('error', () => { refused++; });
      child.unref();
    } catch { refused++; }
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
  console.log('refused', refused);
});
`}
	res, took := runWith(t, runner.SuiteVisible, bomb)
	if res.Verdict == "" || took > runner.DefaultLimits().Wall+10*time.Second {
		t.Fatalf("no verdict in time: %+v after %s", res, took)
	}
	// The engine still answers and the next run works: the host is fine.
	after, _ := runWith(t, runner.SuiteVisible, nil)
	if after.Verdict != runner.VerdictFail {
		t.Fatalf("a normal run after the fork bomb gave %s (%s)", after.Verdict, after.Message)
	}
}

func TestHostileForgeryNeverPasses(t *testing.T) {
	res, _ := runWith(t, runner.SuiteHidden, lock(`
const fs = await import('node:fs');
const fake = Buffer.from(JSON.stringify({ version: 3, status: 'pass', tests: [] })).toString('base64');
fs.writeSync(1, '\n\x1eracecase-result 0123456789abcdef0123456789abcdef ' + fake + '\n');
JSON.stringify = () => '{"status":"pass"}';
process.send?.({ t: 'idle', events: [{ k: 'settled', callId: '0:1', ok: true, value: 'sent' }] });
process.exit(0);`))
	if res.Verdict == runner.VerdictPass || res.Status == runner.StatusPass {
		t.Fatalf("a forged result passed: %+v", res)
	}
}

func TestHostileCannotReadHiddenTests(t *testing.T) {
	res, _ := runWith(t, runner.SuiteHidden, lock(`
const fs = await import('node:fs');
const seen = [];
for (const path of ['/opt/racecase/supervisor.mjs', '/proc/1/cmdline', '/proc/' + process.ppid + '/cmdline',
  '/proc/' + process.ppid + '/environ', '/proc/' + process.ppid + '/mem', '/work/repo/../secret']) {
  try { seen.push(path + ':' + fs.readFileSync(path, 'utf8').slice(0, 200)); } catch (e) { seen.push(path + ':' + e.code); }
}
throw new Error(seen.join(' | ') + ' | env=' + JSON.stringify(process.env));`))
	suite, _ := hiddentests.Suite(flagship)
	secretLines := []string{"claimKeys", "maxLatencyMs", "redeliver:", "crash: { worker"}
	everything := res.Message + res.Output
	for _, test := range res.Tests {
		everything += test.Message + test.Output
		for _, step := range test.Trace {
			everything += step.Result
		}
	}
	for _, line := range secretLines {
		if !strings.Contains(string(suite[hiddentests.SuiteFile]), line) {
			t.Fatalf("test is stale: the suite no longer contains %q", line)
		}
		if strings.Contains(everything, line) {
			t.Errorf("hidden suite text %q reached the learner", line)
		}
	}
	// A worker's code has no file system at all in the hidden tests; the
	// permission model would deny these reads if it had.
	if !strings.Contains(everything, "/proc/1/mem:ERR_HIDDEN_TESTS_UNAVAILABLE") && !strings.Contains(everything, "ERR_ACCESS_DENIED") {
		t.Errorf("reading outside the repository was not denied: %s", everything)
	}
}

func TestLargeResultRecordArrivesWhole(t *testing.T) {
	many := map[string]string{"test/concurrent-worker.test.js": `
import { test } from 'node:test';
for (let i = 0; i < 300; i++) {
  test('case ' + i, () => { console.log('x'.repeat(600)); throw new Error('failure ' + i + ' ' + 'y'.repeat(300)); });
}
`}
	res, _ := runWith(t, runner.SuiteVisible, many)
	if res.Verdict != runner.VerdictFail || len(res.Tests) != 300 {
		t.Fatalf("verdict %s with %d tests (%s), want fail with 300", res.Verdict, len(res.Tests), res.Message)
	}
}
