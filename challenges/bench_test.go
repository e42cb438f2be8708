package challenges_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// BenchmarkHiddenSuite measures one hidden-suite run of the flagship's
// reference fix in a container started for it (cold), in a container a
// runner.Pool warmed ahead (warm), and by bare node on the host, taking
// turns in the same benchmark so all three see the same machine. It
// reports the medians, their ratios, and the bare suite's time per
// execution (one schedule explored).
func BenchmarkHiddenSuite(b *testing.B) {
	d, image := realRunner(b)
	ref := flagshipReference(b)
	suiteFile := filepath.Join(b.TempDir(), hiddentests.SuiteFile)
	if err := os.WriteFile(suiteFile, ref.hidden[hiddentests.SuiteFile], 0o644); err != nil {
		b.Fatal(err)
	}
	job := ref.dossier.NewJob(image, runner.SuiteHidden, ref.files, ref.hidden)
	pool := runner.NewPool(d, runner.PoolConfig{Size: 1})
	defer pool.Close(context.Background())
	pool.Warm(job)

	var cold, warm, bare []time.Duration
	schedules := 0
	inContainer := func(r runner.Runner, into *[]time.Duration) {
		start := time.Now()
		res, err := r.Run(context.Background(), job)
		if err != nil || res.Verdict != runner.VerdictPass {
			b.Fatalf("container run: %v %+v", err, res)
		}
		*into = append(*into, time.Since(start))
	}
	measures := []func(){
		func() { inContainer(d, &cold) },
		func() {
			inContainer(pool, &warm)
			time.Sleep(time.Second) // the pool warms the next one, which must not slow the next measure
		},
		func() {
			start := time.Now()
			out, err := exec.Command("node", ref.local, "hidden", ref.repo, suiteFile).Output()
			if err != nil {
				b.Fatalf("bare node: %v\n%s", err, out)
			}
			bare = append(bare, time.Since(start))
			var res runner.Results
			if err := json.Unmarshal(out, &res); err != nil {
				b.Fatalf("bare node printed %q: %v", out, err)
			}
			schedules = 0
			for _, t := range res.Tests {
				schedules += t.Schedules
			}
		},
	}
	b.ResetTimer()
	for i := range b.N {
		// Each measure takes every turn in order, so that none gains from its place.
		for j := range measures {
			measures[(i+j)%len(measures)]()
		}
	}
	b.StopTimer()
	c, w, n := median(cold), median(warm), median(bare)
	b.ReportMetric(float64(c.Milliseconds()), "cold-ms")
	b.ReportMetric(float64(w.Milliseconds()), "warm-ms")
	b.ReportMetric(float64(n.Milliseconds()), "bare-node-ms")
	b.ReportMetric(float64(c)/float64(n), "cold/bare")
	b.ReportMetric(float64(w)/float64(n), "warm/bare")
	b.ReportMetric(float64(w)/float64(c), "warm/cold")
	if schedules > 0 {
		b.ReportMetric(float64(n.Microseconds())/1000/float64(schedules), "bare-ms/execution")
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchReference is the flagship's reference fix, set up for a benchmark
// to run its hidden suite.
type benchReference struct {
	dossier *challenges.Dossier
	files   map[string][]byte // the repository with the reference fix
	hidden  map[string][]byte // the hidden suite's files
	repo    string            // a directory holding files
	local   string            // the harness's entry point for bare node
}

// flagshipReference loads the flagship's reference fix and hidden suite and
// writes the fix to a temporary directory.
func flagshipReference(b *testing.B) benchReference {
	b.Helper()
	dossier, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		b.Fatal(err)
	}
	files, err := dossier.SolutionFiles(challenges.FS)
	if err != nil {
		b.Fatal(err)
	}
	hidden, err := hiddentests.Suite(flagship)
	if err != nil {
		b.Fatal(err)
	}
	local, err := filepath.Abs("../hidden_tests/harness/local.mjs")
	if err != nil {
		b.Fatal(err)
	}
	return benchReference{dossier: dossier, files: files, hidden: hidden, repo: writeTree(b, files), local: local}
}

// writeTree writes files under a fresh temporary directory and returns it.
func writeTree(b testing.TB, files map[string][]byte) string {
	b.Helper()
	dir := b.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
