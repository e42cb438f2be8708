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
// workers, with bare node, with the explorer's reduction on (sleep and source
// sets), with sleep sets alone, and off. It reports, for each N and mode, the
// schedules explored, the steps of work run and the seconds taken
// (an exploration stopped at workersScheduleCap schedules is reported
// unfinished), and the largest N explored to the end within 10 s with the
// reduction on. Run it once: make bench does.
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
			for mode, suffix := range map[string]string{"": "", "--sleep-sets": "-sleep-sets", "--no-reduction": "-unreduced"} {
				name := fmt.Sprintf("N%d%s", n, suffix)
				args := []string{ref.local, "hidden", ref.repo, suite}
				if mode != "" {
					args = []string{ref.local, "hidden", mode, ref.repo, suite}
				}
				schedules, work, took, finished := exploreWorkers(b, name, args)
				b.ReportMetric(float64(schedules), name+"-schedules")
				b.ReportMetric(float64(work), name+"-work")
				b.ReportMetric(took.Seconds(), name+"-s")
				if !finished {
					b.ReportMetric(1, name+"-unfinished")
				} else if mode == "" && took <= 10*time.Second {
					within10s = n
				}
			}
		}
		b.ReportMetric(float64(within10s), "largest-N-within-10s")
	}
}

// exploreWorkers runs one exploration of BenchmarkWorkersOnOneJob with bare
// node and returns the schedules it explored, the steps of work it ran, the
// time it took and whether it explored them all.
func exploreWorkers(b *testing.B, name string, args []string) (int, int, time.Duration, bool) {
	start := time.Now()
	out, err := exec.Command("node", args...).Output()
	took := time.Since(start)
	if err != nil {
		b.Fatalf("%s: %v\n%s", name, err, out)
	}
	var res runner.Results
	if err := json.Unmarshal(out, &res); err != nil || len(res.Tests) != 1 {
		b.Fatalf("%s: bare node printed %q: %v", name, out, err)
	}
	t := res.Tests[0]
	finished := t.Status == runner.StatusPass
	if !finished && t.Schedules < workersScheduleCap {
		b.Fatalf("%s: %s: %s", name, t.Status, t.Message)
	}
	return t.Schedules, t.Work, took, finished
}
