package challenges_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// workersScenario is the source of a suite that is the flagship's hidden
// suite (base.mjs beside it) with one scenario only: a number of identical
// workers given the same job at once, every call as quick as the model
// allows, and a cap on the schedules explored (the two verbs, in order).
const workersScenario = `import base from './base.mjs';
const workers = Array.from({ length: %d }, (_, i) => 'w' + (i + 1));
export default {
  ...base,
  scenarios: [{
    name: workers.length + ' workers given the same job',
    deliveries: workers.map((worker) => ({ worker, job: 'job-7', at: 0 })),
    limits: { maxDelays: 0, maxSchedules: %d, maxWork: 100000000 },
    tests: [{ name: 'exactly one notification', property: 'exactlyOncePerJob' }],
  }],
};
`

// workersScheduleCap bounds each exploration of BenchmarkWorkersOnOneJob,
// so that the benchmark ends: a count past it is reported as unfinished.
const workersScheduleCap = 300

// BenchmarkWorkersOnOneJob measures how exploration grows with the number
// of identical workers given one job: the flagship's reference fix, N = 2…6
// workers, with bare node. It reports, for each N, the schedules explored
// and the seconds taken (an exploration stopped at workersScheduleCap
// schedules is reported unfinished), and the largest N explored to the end
// within 10 s. Run it once: make bench does.
func BenchmarkWorkersOnOneJob(b *testing.B) {
	ref := flagshipReference(b)
	suites := b.TempDir()
	if err := os.WriteFile(filepath.Join(suites, "base.mjs"), ref.hidden[hiddentests.SuiteFile], 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		within10s := 0
		for n := 2; n <= 6; n++ {
			suite := filepath.Join(suites, fmt.Sprintf("workers-%d.mjs", n))
			if err := os.WriteFile(suite, fmt.Appendf(nil, workersScenario, n, workersScheduleCap), 0o644); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			out, err := exec.Command("node", ref.local, "hidden", ref.repo, suite).Output()
			took := time.Since(start)
			if err != nil {
				b.Fatalf("%d workers: %v\n%s", n, err, out)
			}
			var res runner.Results
			if err := json.Unmarshal(out, &res); err != nil || len(res.Tests) != 1 {
				b.Fatalf("%d workers: bare node printed %q: %v", n, out, err)
			}
			t := res.Tests[0]
			finished := t.Status == runner.StatusPass
			if !finished && t.Schedules < workersScheduleCap {
				b.Fatalf("%d workers: %s: %s", n, t.Status, t.Message)
			}
			b.ReportMetric(float64(t.Schedules), fmt.Sprintf("N%d-schedules", n))
			b.ReportMetric(took.Seconds(), fmt.Sprintf("N%d-s", n))
			if !finished {
				b.ReportMetric(1, fmt.Sprintf("N%d-unfinished", n))
			} else if took <= 10*time.Second {
				within10s = n
			}
		}
		b.ReportMetric(float64(within10s), "largest-N-within-10s")
	}
}
