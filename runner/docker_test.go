package runner_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/racecase/racecase/docker/runnerimage"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/runner/runnertest"
)

// The integration tests run real containers from an image built with
// runnerimage.Ensure around the stand-in supervisor in testdata/standin and
// the real watchdog.
// Without an engine they skip, unless REQUIRE_DOCKER=1 makes that a failure.

// testLabel marks this process's containers so the leak checks ignore
// containers of anyone else sharing the engine.
const testLabel = "racecase.test"

var (
	testLabelValue = time.Now().Format("20060102T150405.000000000")
	imageOnce      sync.Once
	imageTag       string
	imageErr       error
)

// engine returns a runner for the local engine and checks, when the test
// ends, that none of the test's containers is left.
func engine(t *testing.T) *runner.Docker {
	t.Helper()
	d := runnertest.Engine(t)
	runnertest.ExpectNoLeftovers(t, d, testLabel+"="+testLabelValue)
	return d
}

// image builds the stand-in runner image once per test binary.
func image(t *testing.T, d *runner.Docker) string {
	t.Helper()
	imageOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		var log bytes.Buffer
		imageTag, _, imageErr = runnerimage.Ensure(ctx, d.Engine(), standinHarness(), &log)
		if imageErr != nil {
			imageErr = errors.Join(imageErr, errors.New(log.String()))
		}
	})
	if imageErr != nil {
		t.Fatalf("build the stand-in image: %v", imageErr)
	}
	return imageTag
}

// standinHarness is the stand-in supervisor with the real watchdog (and its
// idle watch) beside it: the watchdog is every container's first process.
func standinHarness() fs.FS {
	supervisor, errS := os.ReadFile("testdata/standin/supervisor.mjs")
	watchdog, errW := fs.ReadFile(hiddentests.Harness(), "watchdog.mjs")
	idle, errI := fs.ReadFile(hiddentests.Harness(), "idle.mjs")
	if err := errors.Join(errS, errW, errI); err != nil {
		panic(err)
	}
	return fstest.MapFS{"supervisor.mjs": {Data: supervisor}, "watchdog.mjs": {Data: watchdog}, "idle.mjs": {Data: idle}}
}

// visibleJob returns a visible-suite job over an ES-module repo with files.
func visibleJob(image string, files map[string]string) runner.Job {
	job := runner.Job{
		Image:  image,
		Suite:  runner.SuiteVisible,
		Files:  map[string][]byte{"package.json": []byte(`{"type":"module"}`)},
		Labels: map[string]string{testLabel: testLabelValue},
	}
	for name, content := range files {
		job.Files[name] = []byte(content)
	}
	return job
}

// run runs job with a generous overall deadline and reports how long Run took.
func run(t *testing.T, d *runner.Docker, job runner.Job) (*runner.Results, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := d.Run(ctx, job)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("verdict %s in %s (container %d ms): %s", res.Verdict, took.Round(time.Millisecond), res.DurationMS, res.Message)
	return res, took
}

// wantVerdict fails the test unless res has verdict v.
func wantVerdict(t *testing.T, res *runner.Results, v runner.Verdict) {
	t.Helper()
	if res.Verdict != v {
		t.Fatalf("verdict %q, want %q\nmessage: %s\ntests: %+v\noutput:\n%s", res.Verdict, v, res.Message, res.Tests, tail(res.Output))
	}
}

// tail returns the end of s, for failure messages.
func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
