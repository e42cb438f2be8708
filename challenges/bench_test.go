package challenges_test

import (
	"context"
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
// reference fix in a container against the same suite run by bare node on the
// host, alternating the two in the same benchmark so both see the same machine.
// It reports the medians and their ratio (the container's overhead).
func BenchmarkHiddenSuite(b *testing.B) {
	d, image := realRunner(b)
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
	repo := writeTree(b, files)
	suiteFile := filepath.Join(b.TempDir(), hiddentests.SuiteFile)
	if err := os.WriteFile(suiteFile, hidden[hiddentests.SuiteFile], 0o644); err != nil {
		b.Fatal(err)
	}
	local, err := filepath.Abs("../hidden_tests/harness/local.mjs")
	if err != nil {
		b.Fatal(err)
	}
	job := dossier.NewJob(image, runner.SuiteHidden, files, hidden)

	var inContainer, bare []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		res, err := d.Run(context.Background(), job)
		if err != nil || res.Verdict != runner.VerdictPass {
			b.Fatalf("container run: %v %+v", err, res)
		}
		inContainer = append(inContainer, time.Since(start))

		start = time.Now()
		if out, err := exec.Command("node", local, "hidden", repo, suiteFile).CombinedOutput(); err != nil {
			b.Fatalf("bare node: %v\n%s", err, out)
		}
		bare = append(bare, time.Since(start))
	}
	b.StopTimer()
	c, n := median(inContainer), median(bare)
	b.ReportMetric(float64(c.Milliseconds()), "container-ms")
	b.ReportMetric(float64(n.Milliseconds()), "bare-node-ms")
	b.ReportMetric(float64(c)/float64(n), "container/bare")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// writeTree writes files under a fresh temporary directory and returns it.
func writeTree(b *testing.B, files map[string][]byte) string {
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
